"""Tiles, winds and the compact notation."""

import pytest

from scoring.tiles import (
    ALL_TILES,
    PLAYING_TILES,
    NotationError,
    Suit,
    Tile,
    Wind,
    format_tiles,
    parse_tiles,
)


@pytest.mark.parametrize("code", [tile.code for tile in ALL_TILES])
def test_every_tile_round_trips_code_repr_and_unicode(code):
    tile = Tile.parse(code)
    assert str(tile) == tile.code == code
    assert eval(repr(tile)) == tile
    assert Tile.from_unicode(tile.unicode) == tile


@pytest.mark.parametrize("code, number", [("1m", 1), ("9s", 9), ("5p", 5), ("1z", None), ("7z", None),
                                          ("1f", 1), ("4f", 4), ("5f", 1), ("8f", 4)])
def test_the_number_a_set_prints(code, number):
    assert Tile.parse(code).number == number


@pytest.mark.parametrize(
    "char, code",
    [
        ("\U0001F000", "1z"), ("\U0001F003", "4z"), ("\U0001F004", "7z"), ("\U0001F005", "6z"),
        ("\U0001F006", "5z"), ("\U0001F007", "1m"), ("\U0001F00F", "9m"), ("\U0001F010", "1s"),
        ("\U0001F018", "9s"), ("\U0001F019", "1p"), ("\U0001F021", "9p"), ("\U0001F022", "1f"),
        ("\U0001F023", "2f"), ("\U0001F024", "4f"), ("\U0001F025", "3f"), ("\U0001F026", "5f"),
        ("\U0001F029", "8f"), ("\U0001F004\ufe0f", "7z"),
    ],
    ids=lambda value: value if value.isascii() else f"U+{ord(value[0]):X}",
)
def test_unicode_table(char, code):
    assert parse_tiles(char) == (Tile.parse(code),)


@pytest.mark.parametrize(
    "text, message",
    [
        ("\U0001F02A", "joker"),
        ("\U0001F02B", "tile back"),
        ("x", "not a mahjong tile"),
        ("12", "need a suit letter"),
        ("m", "has no digits"),
        ("0m", "no tile 0m"),
        ("8z", "no tile 8z"),
        ("9f", "no tile 9f"),
        ("12m3", "need a suit letter"),
    ],
    ids=["joker", "back", "letter", "no-suit", "no-digits", "zero", "8z", "9f", "trailing"],
)
def test_bad_notation_is_quoted(text, message):
    with pytest.raises(NotationError, match=message) as caught:
        parse_tiles(text)
    assert repr(text) in str(caught.value) or text in str(caught.value)


@pytest.mark.parametrize(
    "text, canonical",
    [("123m55z", "123m55z"), ("55z321m", "123m55z"), ("1m2m3m", "123m"), ("5f1f", "15f"),
     ("9s1p1m7z1f", "1m1p9s7z1f"), ("\U0001F007\U0001F008\U0001F009", "123m")],
    ids=["plain", "sorted", "letters", "bonus", "all-suits", "unicode"],
)
def test_format_round_trip(text, canonical):
    assert format_tiles(parse_tiles(text)) == canonical
    assert format_tiles(parse_tiles(canonical)) == canonical


def test_format_keeps_order_when_asked():
    assert format_tiles(parse_tiles("31m2m"), sort=False) == "312m"


def test_tile_table_sizes_and_order():
    assert len(ALL_TILES) == 42 and len(PLAYING_TILES) == 34
    assert list(ALL_TILES) == sorted(ALL_TILES)
    assert [tile.index for tile in ALL_TILES] == list(range(42))
    assert format_tiles(ALL_TILES) == "123456789m123456789p123456789s1234567z12345678f"


@pytest.mark.parametrize(
    "code, true_properties",
    [
        ("1m", {"is_suited", "is_terminal", "is_terminal_or_honor"}),
        ("5p", {"is_suited", "is_simple"}),
        ("9s", {"is_suited", "is_terminal", "is_terminal_or_honor"}),
        ("3z", {"is_honor", "is_wind", "is_terminal_or_honor"}),
        ("7z", {"is_honor", "is_dragon", "is_terminal_or_honor"}),
        ("4f", {"is_bonus", "is_flower"}),
        ("5f", {"is_bonus", "is_season"}),
    ],
)
def test_tile_properties(code, true_properties):
    names = ["is_suited", "is_honor", "is_wind", "is_dragon", "is_bonus", "is_terminal",
             "is_terminal_or_honor", "is_simple", "is_flower", "is_season"]
    tile = Tile.parse(code)
    assert {name for name in names if getattr(tile, name)} == true_properties


@pytest.mark.parametrize("code, name", [("5m", "5 Characters"), ("5z", "White"), ("3f", "Chrysanthemum")])
def test_tile_names(code, name):
    assert Tile.parse(code).name == name


@pytest.mark.parametrize("text, wind", [("E", Wind.EAST), ("s", Wind.SOUTH), ("west", Wind.WEST), ("4z", Wind.NORTH)])
def test_wind_parse(text, wind):
    assert Wind.parse(text) is wind
    assert eval(repr(wind)) is wind


def test_wind_tiles_and_turn_order():
    assert [wind.tile.code for wind in Wind] == ["1z", "2z", "3z", "4z"]
    assert [wind.next for wind in Wind] == [Wind.SOUTH, Wind.WEST, Wind.NORTH, Wind.EAST]
    assert Tile.parse("2z").wind is Wind.SOUTH and Tile.parse("5z").wind is None


def test_unknown_wind():
    with pytest.raises(NotationError, match="'X'"):
        Wind.parse("X")


def test_suit_order():
    assert sorted([Suit.BONUS, Suit.HONORS, Suit.CHARACTERS]) == [Suit.CHARACTERS, Suit.HONORS, Suit.BONUS]


def test_tile_rejects_bad_rank():
    with pytest.raises(NotationError, match="no tile 10m"):
        Tile(Suit.CHARACTERS, 10)


def test_single_tile_parse_rejects_several():
    with pytest.raises(NotationError, match="not a single tile"):
        Tile.parse("12m")
