"""numpy's OpenBLAS on one thread once a card reader is made (vision.blas_threads)."""

from __future__ import annotations

from pathlib import Path

from vision.blas_threads import blas_threads, openblas_libraries
from vision.cards import CardRecognizer


def test_making_a_reader_leaves_every_openblas_on_one_thread() -> None:
    CardRecognizer()
    assert openblas_libraries()
    assert blas_threads() == [1] * len(openblas_libraries())


def test_the_libraries_are_read_from_the_process_mappings(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    maps.write_text(
        "7f00-7f10 r-xp 00000000 08:01 42   /usr/lib/libopenblas.so.0\n"
        "7f10-7f20 rw-p 00000000 00:00 0 \n"
        "7f20-7f30 r-xp 00000000 08:01 43   /opt/openblas-tools/libm.so.6\n"
        "7f30-7f40 r--p 00000000 08:01 42   /usr/lib/libopenblas.so.0\n"
    )
    assert openblas_libraries(str(maps)) == ["/usr/lib/libopenblas.so.0"]
    assert openblas_libraries(str(tmp_path / "absent")) == []
