"""The card sources a glyph-model change is judged on, read with several model files.

``python -m benchmarks.glyph_sources MODEL...`` reads the single photos, the deals (plain,
under a blue cast and a shadow band), the felt webcam and the synthetic whole table at
1080p with each model, and prints per source the sure reports at the recogniser's sure
level and at the level chosen on the other sources of this set (leave-one-source-out within
these six sources only, augmented copies of the left-out source left out too). The shots are
made once for all models, so comparing three seeds of two variants is one run, quicker than
``python -m benchmarks cards`` (which reads every source, and one model only).
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2

from benchmarks.bench_cards import synthetic_shots, whole_table_scenes
from benchmarks.card_sources import (
    Shot,
    Tally,
    augmented,
    deal_shots,
    felt_shots,
    left_out_threshold,
    single_shots,
    tally,
)
from vision.cards import CardRecognizer
from vision.glyphs import GlyphModel


def judged_sources() -> dict[str, list[Shot]]:
    """The six sources, by the names ``python -m benchmarks cards`` gives them."""
    deals = deal_shots()
    return {
        "photos-single": single_shots(),
        "photos-deals": deals,
        "photos-deals+blue-cast": augmented(deals, "blue-cast"),
        "photos-deals+shadow-band": augmented(deals, "shadow-band"),
        "photos-webcam-felt": felt_shots(),
        "synthetic whole table 1080p": synthetic_shots(whole_table_scenes()),
    }


def model_figures(model_path: Path, sources: dict[str, list[Shot]]) -> None:
    """Print one model's figures per source, full and left out."""
    sure_level = CardRecognizer().sure_level
    sweep = CardRecognizer(GlyphModel.load(model_path), sure_level=0.0)
    tallies: dict[str, Tally] = {
        name: tally(shots, sweep.recognize) for name, shots in sources.items()
    }
    for name, result in tallies.items():
        left_out = left_out_threshold(tallies, name)
        print(
            f"{model_path.name}: {name}: ({sure_level:.2f}) {result.line(sure_level)} | "
            f"left out ({left_out:.2f}) {result.line(left_out)}; "
            f"wrong: {result.misses(sure_level)[:6]}",
            flush=True,
        )


def main(argv: list[str]) -> int:
    """Read the sources with every model named in ``argv``."""
    if not argv:
        print("usage: python -m benchmarks.glyph_sources MODEL...", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    sources = judged_sources()
    for path in argv:
        model_figures(Path(path), sources)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
