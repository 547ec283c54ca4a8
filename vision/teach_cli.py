"""``companion teach`` and ``companion decks``: teach a deck's look, list taught decks.

``companion teach DECK --catalogue 21x`` walks through every card of the catalogue;
``--cards ID ...`` teaches just those (ids or printed texts of the catalogue, or any
names without one). With ``--from-images DIR`` each card is taught from an image named
after it (``6x.png``, ``X_2.jpg`` for ``X/2``); otherwise the camera (``--camera``, any
spec :func:`vision.camera.open_camera` accepts) is used and the terminal guides you.
Teaching again adds to (or replaces cards of) the deck already taught. The profile is
kept in ``<data dir>/decks/DECK/``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.output import print_json

EXPLAIN_KEYS = "Enter = keep, r = redo, s = skip, b = back, q = stop and save"
#: Frame size asked of a live camera: fine print (21X expressions) needs the pixels.
CAMERA_SIZE = (1280, 720)


def register(subcommands: Any) -> None:
    """Add ``teach`` and ``decks``."""
    teach = subcommands.add_parser(
        "teach",
        help="teach the companion what the cards of a deck look like",
        description="Show each card once; the learned deck is kept in the data directory.",
    )
    teach.add_argument("deck", metavar="DECK", help="name for the taught deck, e.g. home-21x")
    teach.add_argument("--cards", nargs="+", metavar="ID", help="the cards to teach, in order")
    teach.add_argument(
        "--catalogue",
        metavar="NAME",
        help="catalogue the cards come from: 21x, standard, owner (21x plus your own "
        "catalogues in the data directory) or a TOML file; without --cards, all its cards",
    )
    teach.add_argument(
        "--camera",
        default="auto",
        metavar="SPEC",
        help="camera to use (auto, picamera2, 0, /dev/video2 or a replay)",
    )
    teach.add_argument(
        "--from-images",
        metavar="DIR",
        help="teach from one image per card named after it, not the camera",
    )
    teach.add_argument("--data-dir", help="where decks are kept (default: user data dir)")
    teach.set_defaults(handler=run_teach)

    decks = subcommands.add_parser(
        "decks", help="list the taught decks", description="List the taught decks."
    )
    decks.add_argument("--json", action="store_true", help="print JSON")
    decks.add_argument("--data-dir", help="where decks are kept (default: user data dir)")
    decks.set_defaults(handler=run_decks)


def _cards(args: argparse.Namespace) -> tuple[list[str], dict[str, str]]:
    """The card ids to teach and their printed texts; normalises ``args.catalogue``."""
    from vision.profile import ProfileError, normal_link
    from vision.teach import catalogue_cards

    if args.catalogue is None:
        if not args.cards:
            raise ProfileError("say which cards to teach: --cards ID ... or --catalogue NAME")
        return list(dict.fromkeys(args.cards)), {}
    args.catalogue = normal_link(args.catalogue)
    return catalogue_cards(args.catalogue, args.cards, args.data_dir)


def run_teach(args: argparse.Namespace) -> int:
    """Teach the deck, then save it merged into what was taught before."""
    from companion.errors import CompanionError
    from vision.profile import ProfileError, check_deck_name
    from vision.teach import DeckTeacher, teach_from_images

    name = check_deck_name(args.deck)
    card_ids, labels = _cards(args)
    if args.from_images:
        profile = teach_from_images(
            args.from_images,
            card_ids,
            deck_name=name,
            labels=labels,
            catalogue=args.catalogue,
            progress=print,
        )
    else:
        teacher = DeckTeacher(card_ids, deck_name=name, labels=labels, catalogue=args.catalogue)
        try:
            _guide(teacher, args.camera)
        except (CompanionError, KeyboardInterrupt):
            # A lost camera or Ctrl-C keeps what was taught so far.
            if teacher.faces:
                _save(teacher.profile(), args.data_dir)
            raise
        profile = teacher.profile()
    if not profile.faces:
        raise ProfileError(f"no card was taught; deck {name!r} not saved")
    _save(profile, args.data_dir)
    return 0


def _save(profile: Any, data: str | None) -> None:
    """Save ``profile`` merged into the deck of that name taught before, if any."""
    from vision.profile import MANIFEST, DeckProfile, decks_dir

    folder = decks_dir(data) / profile.name
    if (folder / MANIFEST).is_file():
        before = DeckProfile.load(folder)
        profile = DeckProfile(profile.name, {**before.faces, **profile.faces}, profile.catalogue)
    profile.save(folder)
    print(f"saved deck {profile.name}: {len(profile.faces)} cards in {folder}", flush=True)


def _guide(teacher: Any, camera_spec: str) -> None:
    """The terminal session: a prompt per card, frames until a capture, then a question."""
    from vision.camera import open_camera
    from vision.teach import Step

    with open_camera(camera_spec, size=CAMERA_SIZE) as camera:
        while (status := teacher.status).step is not Step.DONE:
            answer = _ask(
                f"{status.message}; press Enter when it lies under the camera "
                "(s = skip, b = back, q = stop and save) "
            )
            if answer == "q":
                return
            if answer in ("s", "b"):
                (teacher.skip if answer == "s" else teacher.back)()
                continue
            shown = ""
            while (status := teacher.feed(camera.read())).step is Step.SHOW:
                if status.message != shown:
                    print(status.message, flush=True)
                    shown = status.message
            answer = _ask(f"{status.message} ({EXPLAIN_KEYS}) ")
            actions = {"": teacher.confirm, "r": teacher.redo, "s": teacher.skip, "b": teacher.back}
            if answer == "q":
                teacher.confirm()
                return
            actions.get(answer, teacher.redo)()
        print(teacher.status.message)


def _ask(prompt: str) -> str:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        return "q"
    return line.strip().lower()


def run_decks(args: argparse.Namespace) -> int:
    """List taught decks (name, cards, catalogue); a broken deck is reported, not fatal."""
    from vision.profile import DeckProfile, ProfileError, taught_decks

    rows: list[dict[str, object]] = []
    broken: list[str] = []
    for folder in taught_decks(args.data_dir):
        try:
            profile = DeckProfile.load(folder)
        except ProfileError as error:
            broken.append(str(error))
            rows.append({"name": folder.name, "error": str(error), "path": str(folder)})
            continue
        rows.append(
            {
                "name": profile.name,
                "cards": len(profile.faces),
                "catalogue": profile.catalogue,
                "path": str(folder),
            }
        )
    if args.json:
        print_json(rows)
    elif not rows:
        print("no taught decks yet (companion teach DECK --catalogue 21x)")
    for row in rows:
        if args.json or "error" in row:
            continue
        link = f", catalogue {row['catalogue']}" if row["catalogue"] else ""
        print(f"{row['name']}: {row['cards']} cards{link} ({row['path']})")
    for problem in broken:
        print(f"companion decks: error: {problem}", file=sys.stderr)
    return 2 if broken else 0
