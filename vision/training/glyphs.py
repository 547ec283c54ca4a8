"""Build glyph models from labelled card images: the shipped model and taught ones.

Every example is cut by the same reader that runs at the table
(:func:`vision.index_reader.find_index_candidates`), on card images drawn at
random angles, sizes, slight perspective and foreshortening, blur, noise and JPEG
over a plain table. Candidates at the two corner indices, upright with respect to
the card, are labelled with the card; every other candidate on the card (pips,
picture fragments, part of an index) becomes a reject example.

The shipped model is a :class:`~vision.glyphs.NetModel` learned from the CC0 faces and
70 designs drawn by :mod:`vision.training.designs`; re-generate it (deterministic, about
7 minutes of CPU time) with ``python -m vision.training.glyphs [FACES_DIR]`` (default
``../shared/data/cards/faces-cc0``). ``--examples FILE`` keeps the generated examples (nearly
all of that time) in FILE, or fits on them when FILE exists, and ``--seed N --out MODEL``
fits with another seed elsewhere: the networks' seed moves the real-photo figures more than
most reader changes do, so a change is judged over several seeds of one set of examples.
``--network cnn`` fits small convolutional networks instead (with PyTorch, the ``train``
extra: :mod:`vision.training.glyph_cnn`; tried, not shipped: docs/vision-cards.md, *Models*).
Teaching (:func:`build_model`) builds a :class:`~vision.glyphs.NeighbourModel` from photos
of one deck.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.errors import CompanionError
from companion.playing_cards import standard_deck
from vision.blas_threads import one_blas_thread
from vision.cards import JOKER_SIZE, JOKER_TEMPLATES
from vision.glyphs import (
    BINARY,
    DEFAULT_MODEL,
    GREY,
    PATCH_KINDS,
    REJECT,
    GlyphModel,
    NeighbourModel,
    NetModel,
)
from vision.imageio import ImageError
from vision.index_reader import IndexCandidate, find_index_candidates
from vision.training.designs import draw_face, random_design
from vision.training.glyph_cnn import CNN_FITS
from vision.training.glyph_net import DENSE_FITS, MEMBERS, PATCHES, Fit, net_model
from vision.training.torch_extra import torch_available

#: Where, as fractions of the upright card (x, y ranges), a corner index lies.
INDEX_ZONES = (((0.0, 0.27), (0.0, 0.32), -1.0), ((0.73, 1.0), (0.68, 1.0), 1.0))
#: Reject examples kept per positive example.
REJECTS_PER_INDEX = 10
#: Range of card heights (pixels) the examples are drawn at: index glyphs of about 6 to 35 px,
#: drawn evenly on a log scale (as many examples from 70 to 140 px as from 210 to 420 px).
CARD_PIXELS = (70, 420)
#: Share of drawings seen foreshortened (a tilted camera), by this factor along a random
#: direction; share saved as JPEG, at this quality (low, high).
FORESHORTENED_SHARE = 0.4
FORESHORTENING = (0.65, 1.0)
JPEG_SHARE = 0.4
JPEG_QUALITY = (50, 95)
#: Drawn designs the shipped model learns from besides the CC0 faces, in batches of
#: (designs, drawings per card, seed): 70 designs, about 16,000 drawings.
DESIGN_BATCHES = ((30, 5, 7), (40, 4, 8))
CC0_RANKS = {"a": "A", "j": "J", "q": "Q", "k": "K"}
FOUR_COLOUR_RANKS = {"T": "10"}
JOKER_SOURCES = ("J1.png", "J2.png", "four-colour/2J.png")
#: The kinds of network ``--network`` fits, by name.
NETWORKS = {"dense": DENSE_FITS, "cnn": CNN_FITS}


class ExamplesError(CompanionError, ValueError):
    """An examples file that is missing or malformed."""


#: The arrays of a saved :class:`ExampleSet`.
EXAMPLE_ARRAYS = (
    "rank_features", "rank_labels", "suit_features", "suit_labels", "rank_grey", "suit_grey"
)


@dataclass
class ExampleSet:
    """Accumulated labelled glyph features, one rank and one suit row per candidate
    (a reject candidate's suit is labelled ``REJECT`` too), with the binary patches
    (``rank_features``, ``suit_features``) and the grey-level ones (``rank_grey``,
    ``suit_grey``)."""

    rank_features: list[np.ndarray] = field(default_factory=list)
    rank_labels: list[str] = field(default_factory=list)
    suit_features: list[np.ndarray] = field(default_factory=list)
    suit_labels: list[str] = field(default_factory=list)
    rank_grey: list[np.ndarray] = field(default_factory=list)
    suit_grey: list[np.ndarray] = field(default_factory=list)

    def add(self, candidate: IndexCandidate, rank: str, suit: str) -> None:
        """Add ``candidate``'s features labelled ``rank`` and ``suit``."""
        if candidate.rank_grey is None or candidate.suit_grey is None:
            raise ExamplesError("a candidate without grey-level patches")
        self.rank_features.append(candidate.rank_features)
        self.rank_labels.append(rank)
        self.suit_features.append(candidate.suit_features)
        self.suit_labels.append(suit)
        self.rank_grey.append(candidate.rank_grey)
        self.suit_grey.append(candidate.suit_grey)

    def extend(self, other: ExampleSet) -> None:
        """Add ``other``'s examples to these."""
        self.rank_features.extend(other.rank_features)
        self.rank_labels.extend(other.rank_labels)
        self.suit_features.extend(other.suit_features)
        self.suit_labels.extend(other.suit_labels)
        self.rank_grey.extend(other.rank_grey)
        self.suit_grey.extend(other.suit_grey)

    def net_model(
        self,
        epochs: int | None = None,
        seed: int = 0,
        members: int = MEMBERS,
        fits: tuple[Fit, Fit] = DENSE_FITS,
        patches: Sequence[str] = PATCHES,
    ) -> NetModel:
        """The network glyph model of these examples (what the shipped model is, seed 0),
        its members reading ``patches``."""
        features = {
            BINARY: (np.stack(self.rank_features), np.stack(self.suit_features)),
            GREY: (np.stack(self.rank_grey), np.stack(self.suit_grey)),
        }
        return net_model(
            features,
            np.array(self.rank_labels),
            np.array(self.suit_labels),
            epochs=epochs,
            seed=seed,
            members=members,
            fits=fits,
            patches=patches,
        )

    def save(self, path: Path) -> None:
        """Write the examples to ``path`` (``.npz``), to fit on them again with :meth:`load`."""
        np.savez(
            path,
            rank_features=np.stack(self.rank_features),
            rank_labels=np.array(self.rank_labels),
            suit_features=np.stack(self.suit_features),
            suit_labels=np.array(self.suit_labels),
            rank_grey=np.stack(self.rank_grey),
            suit_grey=np.stack(self.suit_grey),
        )

    @classmethod
    def load(cls, path: Path) -> ExampleSet:
        """Examples written by :meth:`save`; anything else is an :class:`ExamplesError`."""
        try:
            with np.load(path) as data:
                arrays = [data[name] for name in EXAMPLE_ARRAYS]
        except (OSError, KeyError, ValueError) as error:
            raise ExamplesError(f"{path}: not a file of glyph examples ({error})") from error
        if len({len(array) for array in arrays}) != 1:
            raise ExamplesError(f"{path}: glyph examples of unequal lengths")
        rank_features, rank_labels, suit_features, suit_labels, rank_grey, suit_grey = arrays
        return cls(list(rank_features), rank_labels.tolist(), list(suit_features),
                   suit_labels.tolist(), list(rank_grey), list(suit_grey))

    def model(self) -> NeighbourModel:
        """The nearest-neighbour glyph model of these examples (what teaching builds)."""
        suits = np.array(self.suit_labels)
        indices = suits != REJECT
        return NeighbourModel.fit(
            np.stack(self.rank_features),
            np.array(self.rank_labels),
            np.stack(self.suit_features)[indices],
            suits[indices],
        )


def split_card_name(card: str) -> tuple[str, str]:
    """``"10h"`` -> ``("10", "h")``."""
    return card[:-1], card[-1]


def draw_card(card_bgr: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``card_bgr`` (BGR or BGRA) drawn at a random pose on a plain table.

    Returns the scene and the homography from card pixels to scene pixels.
    """
    height, width = card_bgr.shape[:2]
    card_px = float(np.exp(rng.uniform(*np.log(CARD_PIXELS))))
    scale = card_px / height
    angle = rng.uniform(0, 2 * np.pi)
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    jitter = rng.normal(0, 0.025 * card_px, size=(4, 2))
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    placed = (corners - (width / 2, height / 2)) * scale @ rotation.T + jitter
    if rng.random() < FORESHORTENED_SHARE:
        placed = placed @ squash(rng.uniform(0, np.pi), rng.uniform(*FORESHORTENING)).T
    placed -= placed.min(axis=0) - 30
    size = (int(placed[:, 0].max()) + 30, int(placed[:, 1].max()) + 30)
    homography = cv2.getPerspectiveTransform(corners, placed.astype(np.float32))
    table_colour = rng.uniform(30, 170, size=3)
    scene: np.ndarray = np.empty((size[1], size[0], 3), np.float32)
    scene[:] = table_colour
    scene += rng.normal(0, rng.uniform(2, 14), size=scene.shape)
    colour = card_bgr[:, :, :3]
    stroke = int(rng.integers(-1, 3))
    if stroke:
        kernel = np.ones((abs(stroke) + 1, abs(stroke) + 1), np.uint8)
        colour = (cv2.erode if stroke > 0 else cv2.dilate)(colour, kernel)
    colour = colour.astype(np.float32)
    alpha = (
        card_bgr[:, :, 3].astype(np.float32) / 255.0
        if card_bgr.shape[2] == 4
        else np.ones((height, width), np.float32)
    )
    warped = cv2.warpPerspective(colour, homography, size, flags=cv2.INTER_AREA)
    coverage = cv2.warpPerspective(alpha, homography, size, flags=cv2.INTER_LINEAR)[:, :, None]
    scene = scene * (1 - coverage) + warped * coverage
    scene *= rng.uniform(0.75, 1.1)
    blur = rng.uniform(0.0, 1.3)
    if blur > 0.3:
        scene = cv2.GaussianBlur(scene, (0, 0), blur)
    scene += rng.normal(0, rng.uniform(1, 5), size=scene.shape)
    picture = np.clip(scene, 0, 255).astype(np.uint8)
    if rng.random() < JPEG_SHARE:
        quality = int(rng.integers(*JPEG_QUALITY))
        _, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
        picture = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
    return picture, homography


def squash(direction: float, factor: float) -> np.ndarray:
    """The 2 x 2 map that shrinks the plane by ``factor`` along ``direction`` (radians):
    a card seen by a camera tilted that way.

    >>> np.round(squash(0.0, 0.5) @ np.array([2.0, 2.0]), 6).tolist()
    [1.0, 2.0]
    """
    c, s = np.cos(direction), np.sin(direction)
    turn = np.array([[c, -s], [s, c]])
    return np.asarray(turn @ np.diag([factor, 1.0]) @ turn.T)


def card_frame_pose(
    candidate: IndexCandidate, to_card: np.ndarray, width: int, height: int
) -> tuple[float, float, float]:
    """Candidate index centre as card fractions (x, y) and its "up" along the card's y axis."""
    centre = np.array([[candidate.center]], np.float32)
    reach = candidate.glyph_size
    tip_point = (
        candidate.center[0] + candidate.up[0] * reach,
        candidate.center[1] + candidate.up[1] * reach,
    )
    tip = np.array([[tip_point]], np.float32)
    (cx, cy), (tx, ty) = (cv2.perspectiveTransform(p, to_card)[0, 0] for p in (centre, tip))
    direction = np.array([tx - cx, ty - cy])
    up_y = float(direction[1] / max(np.linalg.norm(direction), 1e-6))
    return float(cx / width), float(cy / height), up_y


def add_card_examples(
    examples: ExampleSet,
    card_bgr: np.ndarray,
    card: str,
    rng: np.random.Generator,
    variants: int,
) -> None:
    """Add index and reject examples of one labelled card image (upright, cropped to the card)."""
    rank, suit = split_card_name(card)
    height, width = card_bgr.shape[:2]
    for _ in range(variants):
        scene, homography = draw_card(card_bgr, rng)
        to_card = np.linalg.inv(homography)
        candidates = find_index_candidates(scene)
        chosen: list[IndexCandidate] = []
        for x_range, y_range, up_sign in INDEX_ZONES:
            corner = np.array((x_range[0], y_range[0]) if up_sign < 0 else (x_range[1], y_range[1]))
            in_zone: list[tuple[float, IndexCandidate]] = []
            for candidate in candidates:
                x, y, up_y = card_frame_pose(candidate, to_card, width, height)
                if (
                    x_range[0] <= x <= x_range[1]
                    and y_range[0] <= y <= y_range[1]
                    and up_y * up_sign > 0.85
                ):
                    in_zone.append((float(np.hypot(*(np.array((x, y)) - corner))), candidate))
            best = best_index(in_zone, rank)
            if best is not None:
                chosen.append(best)
        chosen_rank_blobs = {c.rank_blobs for c in chosen}
        for candidate in chosen:
            examples.add(candidate, rank, suit)
        others = [
            c for c in candidates if c not in chosen and c.rank_blobs not in chosen_rank_blobs
        ]
        keep = min(len(others), REJECTS_PER_INDEX * max(len(chosen), 1))
        for n in rng.choice(len(others), size=keep, replace=False) if others else []:
            examples.add(others[n], REJECT, REJECT)


def best_index(in_zone: list[tuple[float, IndexCandidate]], rank: str) -> IndexCandidate | None:
    """Of the candidates in a corner zone (with their distance to the corner), the index itself.

    That is the one nearest the card's corner, made of two digit blobs for a 10.
    """
    if not in_zone:
        return None
    wanted_blobs = 2 if rank == "10" else 1
    fitting = [item for item in in_zone if len(item[1].rank_blobs) == wanted_blobs] or in_zone
    return min(fitting, key=lambda item: item[0])[1]


def cc0_card_files(faces_dir: Path) -> Iterable[tuple[Path, str]]:
    """(file, card name) for both CC0 designs; jokers and backs are left out."""
    for path in sorted(faces_dir.glob("*.png")):
        suit, rank = path.stem[0].lower(), path.stem[1:]
        if suit in "cdhs":
            yield path, CC0_RANKS.get(rank, rank) + suit
    for path in sorted((faces_dir / "four-colour").glob("*.png")):
        rank, suit = path.stem[:-1], path.stem[-1].lower()
        if suit in "cdhs":
            yield path, FOUR_COLOUR_RANKS.get(rank, CC0_RANKS.get(rank.lower(), rank)) + suit


def build_model(
    labelled: Iterable[tuple[np.ndarray, str]], variants: int = 20, seed: int = 4
) -> GlyphModel:
    """A glyph model from (upright card image, card name) pairs.

    This is also how a deck is taught: pass photos of its cards, each cut out
    and turned upright (e.g. with :func:`vision.outline.find_card_outlines`).
    """
    return examples_of(labelled, variants, seed).model()


def examples_of(
    labelled: Iterable[tuple[np.ndarray, str]], variants: int = 20, seed: int = 4
) -> ExampleSet:
    """The examples of (upright card image, card name) pairs, each drawn ``variants`` times."""
    rng = np.random.default_rng(seed)
    examples = ExampleSet()
    for image, card in labelled:
        add_card_examples(examples, image, card, rng, variants)
    return examples


def drawn_designs(count: int, seed: int) -> Iterable[tuple[np.ndarray, str]]:
    """The 52 cards of ``count`` random designs (:mod:`vision.training.designs`), seeded."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        design = random_design(rng)
        for card in standard_deck():
            yield draw_face(design, str(card), rng), str(card)


def shipped_examples(
    cc0_faces: Sequence[tuple[np.ndarray, str]],
    batches: Sequence[tuple[int, int, int]] = DESIGN_BATCHES,
) -> ExampleSet:
    """The shipped model's examples: the CC0 faces drawn 20 times each, and for each
    batch (designs, drawings, seed) the 52 cards of that many drawn designs."""
    examples = examples_of(cc0_faces)
    for designs, variants, seed in batches:
        examples.extend(examples_of(drawn_designs(designs, seed), variants, seed))
    return examples


def examples_per_card(
    labelled: Iterable[tuple[np.ndarray, str]], variants: int = 20, seed: int = 4
) -> dict[str, ExampleSet]:
    """The examples of each card separately, e.g. to teach all cards but one."""
    rng = np.random.default_rng(seed)
    per_card: dict[str, ExampleSet] = {}
    for image, card in labelled:
        add_card_examples(per_card.setdefault(card, ExampleSet()), image, card, rng, variants)
    return per_card


def model_without(per_card: dict[str, ExampleSet], left_out: str) -> GlyphModel:
    """A model taught from every card in ``per_card`` except ``left_out``."""
    examples = ExampleSet()
    for card, card_examples in per_card.items():
        if card != left_out:
            examples.extend(card_examples)
    return examples.model()


def read_face(path: Path) -> np.ndarray:
    """A card face image with its alpha channel (BGRA)."""
    face = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if face is None:
        raise ImageError(f"{path}: not a readable card face image")
    return np.asarray(face)


def joker_pictures(faces_dir: Path) -> np.ndarray:
    """The CC0 jokers as small grey card images on white, for whole-card matching."""
    pictures = []
    for name in JOKER_SOURCES:
        card = read_face(faces_dir / name)
        alpha = card[:, :, 3:4].astype(np.float32) / 255.0
        on_white = card[:, :, :3].astype(np.float32) * alpha + 255.0 * (1 - alpha)
        grey = cv2.cvtColor(on_white.astype(np.uint8), cv2.COLOR_BGR2GRAY)
        pictures.append(cv2.resize(grey, JOKER_SIZE, interpolation=cv2.INTER_AREA))
    return np.stack(pictures)


def main(argv: list[str] | None = None) -> int:
    """Generate the shipped model (CC0 faces and drawn designs) and the joker pictures.

    A folder without the faces, or an examples file that is not one, is one line on stderr
    and exit code 2, and the shipped model is left as it was.
    """
    from companion.cli import Parser

    parser = Parser(prog="python -m vision.training.glyphs",
                    description="Re-generate the shipped glyph model and joker pictures "
                                "from the CC0 card faces and designs drawn by code.")
    parser.add_argument("faces_dir", nargs="?", type=Path, metavar="FACES_DIR",
                        default=Path(__file__).parents[3] / "shared/data/cards/faces-cc0",
                        help="the CC0 faces (default ../shared/data/cards/faces-cc0)")
    parser.add_argument("--examples", type=Path, metavar="FILE",
                        help="keep the generated examples in FILE, or fit on them (and draw "
                             "nothing) when FILE exists")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the networks' fit (the shipped model: 0)")
    parser.add_argument("--network", choices=sorted(NETWORKS), default="dense",
                        help="dense: fully connected networks, numpy only (the shipped "
                             "model); cnn: convolutional networks, fitted with torch")
    parser.add_argument("--patches", nargs="+", choices=PATCH_KINDS, default=list(PATCHES),
                        metavar="KIND",
                        help="the patch kinds the networks read, read together (binary, "
                             f"grey; default the shipped model's: {' '.join(PATCHES)})")
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL, metavar="MODEL",
                        help="where the model is written (default the shipped model)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    # One BLAS thread, whatever the environment says: the fit's sums (and so its weights)
    # depend on how OpenBLAS splits them.
    one_blas_thread()
    if args.network == "cnn" and not torch_available():
        parser.error("--network cnn needs torch (the train extra: pip install -e .[train])")
    try:
        if args.examples is not None and args.examples.exists():
            examples = ExampleSet.load(args.examples)
        else:
            examples = examples_and_jokers(args.faces_dir)
            if args.examples is not None:
                examples.save(args.examples)
    except CompanionError as error:
        parser.error(str(error))
    patches = tuple(dict.fromkeys(args.patches))
    model = examples.net_model(seed=args.seed, fits=NETWORKS[args.network], patches=patches)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    indices = sum(label != REJECT for label in examples.rank_labels)
    rejects = len(examples.rank_labels) - indices
    print(f"{args.out}: {indices} index and {rejects} reject examples, "
          f"{args.network} networks on {' and '.join(patches)} patches, seed {args.seed}")
    return 0


def examples_and_jokers(faces_dir: Path) -> ExampleSet:
    """The shipped model's examples drawn from the CC0 faces in ``faces_dir`` (and the drawn
    designs); the joker pictures written to ``JOKER_TEMPLATES`` on the way."""
    files = list(cc0_card_files(faces_dir)) if faces_dir.is_dir() else []
    if not files:
        raise ExamplesError(f"{faces_dir}: no CC0 card faces there (files like cA.png, h10.png)")
    examples = shipped_examples([(read_face(path), card) for path, card in files])
    np.savez_compressed(JOKER_TEMPLATES, jokers=joker_pictures(faces_dir))
    print(f"{JOKER_TEMPLATES}: {len(JOKER_SOURCES)} joker pictures")
    return examples


if __name__ == "__main__":
    sys.exit(main())
