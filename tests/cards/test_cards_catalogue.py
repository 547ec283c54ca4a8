"""Deck catalogues: the built-in decks, owners' files, merging and located errors."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from companion.cardmath.catalogue import (
    Catalogue,
    builtin,
    load_catalogue,
    merge,
    owner_catalogue,
    parse_catalogue,
)
from companion.cardmath.expr import Bindings
from companion.errors import CatalogueError, ExpressionError
from companion.playing_cards import PlayingCard, standard_deck


def test_standard_deck_has_52_cards_and_two_jokers_named_like_playing_cards() -> None:
    deck = builtin("standard")
    assert len(deck) == 54
    names = [str(card) for card in standard_deck()]
    assert [card.id for card in deck][:52] == names
    for card in list(deck)[:52]:
        parsed = PlayingCard.parse(card.id)
        assert (card.rank, card.suit) == (parsed.rank, parsed.suit)
        assert card.set == "standard" and card.expression is None and card.icons == 0
    jokers = [deck.card("JK1"), deck.card("JK2")]
    assert all(card.rank == "JK" and card.suit is None for card in jokers)


def test_21x_catalogue_holds_every_card_the_rulebook_names() -> None:
    deck = builtin("21x")
    texts = {card.text for card in deck}
    assert {"6X", "2X+4", "X/2", "Xth prime", "Xth triangle", "Fib(X)", "Sum of factors(X)",
            "Xth digit of pi", "Xth digit of e"} <= texts
    assert deck.card("6x").icons == 1 and deck.card("x/2").icons == 2
    assert all(card.icons == 3 for card in deck if card.set == "celebrity")
    assert sum(1 for card in deck if card.set == "celebrity") == 6
    bindings = Bindings(Fraction(5), 3)
    prime = deck.card("prime").expression
    assert prime is not None
    assert prime.evaluate(bindings) == 11


def test_resolve_by_id_printed_text_or_ad_hoc_expression() -> None:
    deck = builtin("21x")
    assert deck.resolve("fib").id == "fib"
    assert deck.resolve("FIB").id == "fib"
    assert deck.resolve("Fib(X)").id == "fib"
    assert deck.resolve("2X + 4").id == "2x+4"
    ad_hoc = deck.resolve("3X-1")
    assert (ad_hoc.id, ad_hoc.icons, ad_hoc.set) == ("3X-1", 0, "core")
    with pytest.raises(ExpressionError):
        deck.resolve("3Q")


def test_unknown_id_is_a_catalogue_error() -> None:
    with pytest.raises(CatalogueError, match="unknown card id 'nope'"):
        builtin("21x").card("nope")
    with pytest.raises(CatalogueError, match="no built-in catalogue"):
        builtin("poker")


OWNER_DECK = """
[deck]
name = "my cards"

[[card]]
id = "3x-1"
text = "3X \u2212 1"
level = 1

[[card]]
id = "vy"
text = "VY"
set = "limited"
level = 2
icons = 2
"""


def test_owner_decks_in_the_data_dir_are_merged(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "mine.toml").write_text(OWNER_DECK, encoding="utf-8")
    catalogue = owner_catalogue(directory=tmp_path)
    assert len(catalogue) == len(builtin("21x")) + 2
    assert catalogue.card("vy").set == "limited"
    assert catalogue.card("3x-1").icons == 1


def test_duplicate_ids_are_refused_across_files(tmp_path: Path) -> None:
    clash = tmp_path / "clash.toml"
    clash.write_text('[[card]]\nid = "fib"\ntext = "X+1"\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match="duplicate card id 'fib'") as caught:
        owner_catalogue([clash], directory=tmp_path)
    assert "clash.toml" in str(caught.value)
    with pytest.raises(CatalogueError, match="duplicate"):
        merge(builtin("21x"), builtin("21x"))


def test_duplicate_ids_in_one_file_name_the_line(tmp_path: Path) -> None:
    text = '[[card]]\nid = "a"\ntext = "X"\n\n[[card]]\nid = "a"\ntext = "2X"\n'
    with pytest.raises(CatalogueError) as caught:
        parse_catalogue(text, "dup.toml")
    assert str(caught.value) == "dup.toml:5: duplicate card id 'a' (first at line 1)"


@pytest.mark.parametrize(
    ("body", "line", "fragment"),
    [
        ('[[card]]\nid = "a"\ntext = "X"\n\n[[card]]\nid = "b"\ntext = "2Z"\n', 7,
         "card.2.text: card 'b': unknown name 'Z'"),
        ('[[card]]\nid = "a"\ntext = "X"\n[[card]]\nid = "b"\n', 4, "card.2.text: is required"),
        ('[[card]]\nid = "a"\ntext = "X"\nlevel = 7\n', 4,
         "card.1.level: must be a whole number 1-3, not 7"),
        ('[[card]]\nid = "a"\ntext = "X"\nset = "gold"\n', 4, 'card.1.set: must be "core", '),
        ('[[card]]\nid = "a"\ntext = "X"\ncolour = "red"\n', 4,
         "card.1.colour: unknown key (known: id, text,"),
        ('[[card]]\nid = "a"\ntext = "X"\nrank = "A"\n', 4,
         "card.1.rank: only standard cards have rank"),
        ('[[card]]\nid = "Zc"\ntext = "Z"\nset = "standard"\nrank = "Z"\nsuit = "c"\n', 5,
         "card.1.rank: a standard card needs rank A..K"),
        ('[[card]]\nid = " "\ntext = "X"\n', 2, 'card.1.id: must be non-empty text, not " "'),
        ("card = 5\n", 1, "card: must be a list, not 5"),
        ('[[card]]\nid = "a"\ntext = "X"\nicons = true\n', 4,
         "card.1.icons: must be a whole number 0-99, not true"),
        ('[deck]\nnam = "x"\n', 2, "deck.nam: unknown key (known: name, description)"),
        ('[[card]]\nid = "a"\ntext = "X"\n\n[[card]\nid = "b"\n', 5, "invalid TOML"),
        ('[[card]]\nid = "a"\ntext = "X\n', 3, "invalid TOML"),
    ],
)
def test_bad_catalogue_names_file_line_and_problem(
    tmp_path: Path, body: str, line: int, fragment: str
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(CatalogueError) as caught:
        load_catalogue(path)
    assert caught.value.path == str(path)
    assert caught.value.line == line
    assert fragment in str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_catalogue_file_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogueError, match="no such catalogue file") as caught:
        load_catalogue(tmp_path / "absent.toml")
    assert caught.value.path.endswith("absent.toml")


def test_catalogue_iterates_in_file_order_and_supports_membership() -> None:
    deck = builtin("21x")
    ids = [card.id for card in deck]
    assert ids[:3] == ["6x", "2x+4", "x/2"]
    assert "fib" in deck and "nope" not in deck
    assert len(Catalogue()) == 0
