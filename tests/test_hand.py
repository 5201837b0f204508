"""Melds, hands, the hand notation and its validation messages."""

import pytest

from scoring.hand import (
    DuplicateBonusError,
    Hand,
    HandError,
    Meld,
    NotASetError,
    SetKind,
    TooManyCopiesError,
    UnknownTokenError,
    WinningTileError,
    WrongTileCountError,
)
from scoring.tiles import NotationError, Tile


@pytest.mark.parametrize(
    "text, kind, concealed",
    [("[234m]", SetKind.CHOW, False), ("[777p]", SetKind.PUNG, False), ("[1111z]", SetKind.KONG, False),
     ("(5555s)", SetKind.KONG, True), ("234m", SetKind.CHOW, True), ("777p", SetKind.PUNG, True),
     ("11z", SetKind.PAIR, True)],
)
def test_meld_parse_print_round_trip(text, kind, concealed):
    meld = Meld.parse(text)
    assert (meld.kind, meld.concealed, str(meld)) == (kind, concealed, text)
    assert eval(repr(meld)) == meld


def test_meld_first_and_suit():
    meld = Meld.parse("[432m]")
    assert meld.first == Tile.parse("2m") and meld.suit.value == "m" and str(meld) == "[234m]"


@pytest.mark.parametrize(
    "text",
    [
        "123m 456p 789s 1155z",
        "123m 456p 789s 1155z [777p] (5555s) 15f",
        "11m [234p] [5555s] [111z] [777z]",
        "19m 19p 19s 12345677z 1234f",
    ],
    ids=["concealed", "mixed", "melds", "orphans"],
)
def test_hand_round_trip(text):
    hand = Hand.parse(text, win="1m")
    assert str(hand) == text
    assert Hand.parse(str(hand), win="1m") == hand
    assert eval(repr(hand)) == hand


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("55z 321m 654p 987s 1z 1z", "123m 456p 789s 1155z"),
        ("\U0001F007\U0001F008\U0001F009 [\U0001F010\U0001F011\U0001F012] \U0001F022", "123m [123s] 1f"),
        ("123m5f 456p", "123m 456p 5f"),
    ],
    ids=["unsorted", "unicode", "bonus-in-group"],
)
def test_hand_canonical_form(text, canonical):
    assert str(Hand.parse(text, win="1m")) == canonical


def test_hand_fields():
    hand = Hand.parse("123m 456p 789s 11z 55z [777p] (5555s) 15f", win="1z")
    assert hand.win == Tile.parse("1z")
    assert [str(meld) for meld in hand.melds] == ["[777p]", "(5555s)"]
    assert [tile.code for tile in hand.bonus] == ["1f", "5f"]
    assert hand.tile_count == 19 and hand.concealed is False


@pytest.mark.parametrize(
    "text, win, error, message",
    [
        ("123x 456p", "1m", UnknownTokenError, "'123x'"),
        ("123m hello", "1m", UnknownTokenError, "'hello'"),
        ("[123m", "1m", UnknownTokenError, "never closed"),
        ("", "1m", UnknownTokenError, "not a hand"),
        ("11111m", "1m", TooManyCopiesError, "5 copies of 1m"),
        ("11m [111m]", "1m", TooManyCopiesError, "5 copies of 1m"),
        ("[235m]", "1m", NotASetError, r"'\[235m\]' is not a set"),
        ("[11m]", "1m", NotASetError, r"'\[11m\]' is not a set"),
        ("[789s1z]", "1m", NotASetError, "is not a set"),
        ("[891s]", "1m", NotASetError, "is not a set"),
        ("(555s)", "1m", NotASetError, "concealed kong"),
        ("[1234f]", "1m", NotASetError, "is not a set"),
        ("[111f]", "1m", NotASetError, "is not a set"),
        ("11m 1f 1f", "1m", DuplicateBonusError, "1f is given twice"),
        ("11m", "1x", UnknownTokenError, "winning tile"),
        ("11m 1f", "1f", WinningTileError, "bonus tile"),
    ],
    ids=["token", "word", "unclosed", "empty", "five", "five-melds", "not-chow", "pair-meld",
         "mixed-suits", "wrap", "paren-pung", "bonus-set", "bonus-pung", "dup-bonus", "bad-win", "bonus-win"],
)
def test_parse_errors(text, win, error, message):
    with pytest.raises(error, match=message):
        Hand.parse(text, win=win)


def test_unknown_token_is_both_hand_and_notation_error():
    with pytest.raises(HandError):
        Hand.parse("5q", win="1m")
    with pytest.raises(NotationError):
        Hand.parse("5q", win="1m")


@pytest.mark.parametrize(
    "text, count",
    [("123m 456p 789s 11z 5z", 12), ("123m 456p 789s 11z 555z 9m", 15), ("123m [4444p] [789s] 1155z", 13)],
    ids=["short", "long", "kong"],
)
def test_wrong_tile_count(text, count):
    with pytest.raises(WrongTileCountError, match=f"has {count} tiles .* has 14"):
        Hand.parse(text, win="1m").validate(tile_count=14)


def test_wrong_count_hints_at_an_undeclared_kong():
    with pytest.raises(WrongTileCountError, match=r"write a kong as \[1111z\] if exposed or \(1111z\)"):
        Hand.parse("1111z 123m 456p 789s 55z", win="5z").validate(tile_count=14)


def test_sixteen_tile_count():
    hand = Hand.parse("123m 456m 789m 123p 456p 11z", win="1z")
    hand.validate(tile_count=17)
    with pytest.raises(WrongTileCountError, match="has 17 tiles"):
        hand.validate(tile_count=14)


def test_winning_tile_must_be_standing():
    hand = Hand.parse("123m 456p 789s 11z [777p]", win="7p")
    with pytest.raises(WinningTileError, match="7p is not among the concealed standing tiles"):
        hand.validate()


def test_without_win_removes_one_copy():
    hand = Hand.parse("111m 456p 789s 11z 555z", win="1m")
    assert hand.without_win().count(Tile.parse("1m")) == 2
