"""``companion recognize``: JSON shape, readable table, annotated image, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from vision.imageio import read_image

WEBCAM = Path("cards") / "photos-misc" / "2c-webcam-topdown-green.png"


def test_json_has_the_documented_shape(
    shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recognize", str(shared_data / WEBCAM), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"width", "height", "cards"}
    assert (document["width"], document["height"]) == (960, 736)
    [card] = document["cards"]
    assert set(card) == {"card", "center", "index", "confidence"}
    assert card["card"] == "2c"
    assert all(isinstance(v, float) for v in card["center"] + card["index"])
    assert 0.0 < card["confidence"] <= 1.0


def test_table_without_json(shared_data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["recognize", str(shared_data / WEBCAM)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "960x736: 1 card"
    assert lines[1].split() == ["card", "centre", "index", "confidence"]
    assert lines[2].split()[0] == "2c"


def test_annotate_writes_the_marked_image(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "marked.png"
    source = shared_data / WEBCAM
    assert main(["recognize", str(source), "--annotate", str(out)]) == 0
    capsys.readouterr()
    marked = read_image(out)
    original = read_image(source)
    assert marked.shape == original.shape
    assert (marked != original).any(axis=2).sum() > 500


@pytest.mark.parametrize("content", [None, b"", b"not a picture at all"])
def test_missing_or_unreadable_image_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None
) -> None:
    path = tmp_path / "photo.jpg"
    if content is not None:
        path.write_bytes(content)
    assert main(["recognize", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("companion recognize: error: ")
    assert str(path) in captured.err
