"""Logs with bad time stamps, huge lines, deep nesting or long numbers: one line each."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.replay import read_jsonl
from companion.errors import LogError
from companion.jsonlines import MAX_LINE_CHARS, MAX_LOG_BYTES

START = '{"seq":1,"t":0.0,"kind":"start","data":{"game":"21x-solo","players":["ann"]}}'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"seq":2,"t":NaN,"kind":"deal","data":{}}', ":2: not valid JSON (NaN is not a number)"),
        ('{"seq":2,"t":Infinity,"kind":"deal","data":{}}', ":2: not valid JSON (Infinity is"),
        ('{"seq":2,"t":1e999,"kind":"deal","data":{}}', ":2: not valid JSON (1e999 is too large"),
        ('{"seq":2,"t":1e13,"kind":"deal","data":{}}', ":2: 't' of a 'deal' event must be a "
                                                       "finite number"),
        ('{"seq":2,"t":-1.0,"kind":"deal","data":{}}', ":2: t -1 goes back in time"),
        ('{"seq":' + "9" * 5000 + '}', ":2: not valid JSON (an integer of 5000 digits"),
        ('{"seq":2,"t":1,"kind":"deal","data":' + "[" * 30 + "]" * 30 + "}",
         ":2: values nest too deeply"),
        ("[" * 60_000, ":2: values nest too deeply"),
        ('{"seq":2,"t":1,"kind":"deal","data":{"a":"' + "x" * MAX_LINE_CHARS + '"}}',
         ":2: line too long"),
        ('{"seq":-2,"t":1,"kind":"deal","data":{}}', ":2: 'seq' of a 'deal' event must be"),
    ],
)
def test_a_bad_line_is_named_with_what_is_wrong(tmp_path: Path, line: str, message: str) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(f"{START}\n{line}\n", encoding="utf-8")
    with pytest.raises(LogError) as caught:
        read_jsonl(log)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_log_too_large_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    log = tmp_path / "huge.jsonl"
    with log.open("wb") as file:
        file.truncate(MAX_LOG_BYTES + 10)
    with pytest.raises(LogError, match="larger than 16 MiB"):
        read_jsonl(log)
