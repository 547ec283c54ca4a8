"""Which cards the touch card picker offers for a game, and where they can go (no Kivy).

21X games pick from the 21X catalogue (and any cards the start line defines inline);
the others from the standard 52 and the jokers. The zones are those of the game's
default table layout, with ``seat-n`` named after its player.

>>> start = TableStart("trick", ("ann", "ben"))
>>> [card for card, _ in deck_cards(start)][:3]
['Ac', '2c', '3c']
>>> zone_choices(start)[:3]
[('seat-1', 'ann'), ('seat-2', 'ben'), ('stock', 'stock')]
>>> zone_choices(TableStart("21x-solo", ("ann",)))
[('deck', 'deck'), ('discard', 'discard'), ('hand', 'hand'), ('score', 'score')]
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from companion.cardmath.catalogue import builtin
from companion.engine.observations import TableStart
from companion.engine.seats import ZONE_PREFIX, Seating
from companion.errors import CompanionError
from companion.playing_cards import JOKER, standard_deck

if TYPE_CHECKING:
    from vision.profile import DeckProfile

EXPRESSION_GAMES = ("21x", "21x-solo")


def deck_cards(start: TableStart) -> list[tuple[str, str]]:
    """(card name, what its button says) for every card the game can see."""
    if start.game in EXPRESSION_GAMES:
        cards = [(card.id, card.text) for card in builtin("21x") if card.expression is not None]
        inline = start.extra.get("cards", [])
        known = {card for card, _ in cards}
        cards.extend((entry["id"], str(entry.get("text", entry["id"]))) for entry in inline
                     if isinstance(entry, dict) and isinstance(entry.get("id"), str)
                     and entry["id"] not in known)
        deck = start.extra.get("deck")
        if isinstance(deck, list):
            cards = [entry for entry in cards if entry[0] in deck]
        return cards
    return [(str(card), str(card)) for card in standard_deck()] + [(JOKER, "joker")]


def zone_choices(start: TableStart) -> list[tuple[str, str]]:
    """(zone name, its caption) of the game's table: the seats' zones first (captioned
    with their players), then the rest of the game's layout."""
    from ui.demo import demo_layout

    zones = [zone.name for zone in demo_layout(start).zones]
    seating = Seating.of(start.players, start.seats)
    seat_zones = [(seat.zone, seat.player) for seat in seating.seats
                  if not zones or seat.zone in zones]
    taken = {zone for zone, _ in seat_zones}
    return seat_zones + [(name, name) for name in zones
                         if name not in taken and not name.startswith(ZONE_PREFIX)]


def owner_deck(data: str | os.PathLike[str] | None = None) -> DeckProfile:
    """The owner's taught 21X deck, which a real camera reads 21X cards with: the deck
    taught last in the data folder's decks (``companion teach``), not the simulator's own."""
    from vision.profile import MANIFEST, DeckProfile, taught_decks
    from vision.simulated import SIMULATED_DECK

    taught = [path for path in taught_decks(data) if not path.name.startswith(SIMULATED_DECK)]
    if not taught:
        raise CompanionError("no taught 21X deck: teach the box with companion teach first")
    newest = max(taught, key=lambda path: (path / MANIFEST).stat().st_mtime_ns)
    return DeckProfile.load(newest)
