"""Decomposition into every arrangement, winning sets, waits and wait shapes."""

import random

import pytest

from scoring.decompose import Shape, Wait, arrange, decompose, waiting_tiles
from scoring.hand import Hand, IncompleteHandError, SetKind, WinningTileError, WrongTileCountError
from scoring.tiles import ALL_TILES, Suit, Tile, parse_tiles


def codes(tiles) -> str:
    return " ".join(tile.code for tile in sorted(tiles))


def read(hand: str, win: str, **options):
    return decompose(Hand.parse(hand, win=win), **options)


def summary(arrangement) -> tuple[str, str, str | None, str]:
    won = arrangement.winning_meld
    return arrangement.shape.name, str(arrangement), won and str(won), arrangement.wait.name


@pytest.mark.parametrize(
    "hand, win, expected",
    [
        ("123m 456p 789s 11z 555z", "1z", [("STANDARD", "123m 456p 789s 555z 11z", "11z", "SINGLE")]),
        ("111222333m 456p 77z", "3m", [("STANDARD", "123m 123m 123m 456p 77z", "123m", "EDGE"),
                                       ("STANDARD", "111m 222m 333m 456p 77z", "333m", "PUNG")]),
        ("1112345678999m 9m", "9m", [("STANDARD", "123m 456m 789m 999m 11m", "789m", "BOTH_SIDED"),
                                     ("STANDARD", "123m 456m 789m 999m 11m", "999m", "PUNG")]),
        ("123m [456p] [789s] (1111z) 55z", "5z", [("STANDARD", "123m [456p] [789s] (1111z) 55z", "55z", "SINGLE")]),
        ("44567m 123p 456s 789s", "4m", [("STANDARD", "567m 123p 456s 789s 44m", "44m", "SINGLE")]),
    ],
    ids=["simple", "three-chows-or-pungs", "nine-gates-9", "melds", "pair-of-multi-wait"],
)
def test_arrangements(hand, win, expected):
    assert [summary(a) for a in read(hand, win)] == expected


@pytest.mark.parametrize(
    "hand, win, count",
    [
        ("11223344556677m", "1m", 4),  # three standard + seven pairs
        ("111122223333m 55z", "1m", 4),  # 123x4; 111 222 333 123 (1m in pung or chow); pairs
        ("1m 1112345678999m", "1m", 2),
        ("123m 123m 123m 11z 444z", "1m", 2),
    ],
    ids=["pairs-and-chows", "kongs-worth", "nine-gates-1", "pure-triple-chow"],
)
def test_arrangement_counts(hand, win, count):
    assert len(read(hand, win)) == count


@pytest.mark.parametrize("extra", [f"{rank}m" for rank in range(1, 10)])
def test_nine_gates_waits_on_all_nine(extra):
    arrangements = read(f"1112345678999m {extra}", extra)
    assert arrangements
    assert all(codes(a.waits) == "1m 2m 3m 4m 5m 6m 7m 8m 9m" for a in arrangements)


@pytest.mark.parametrize(
    "win, expected",
    [
        ("1m", [("123m 111m 456p 789s 22m", "BOTH_SIDED"), ("123m 111m 456p 789s 22m", "PUNG")]),
        ("2m", [("123m 222m 456p 789s 11m", "CLOSED"), ("123m 222m 456p 789s 11m", "PUNG")]),
        ("3m", [("111m 222m 456p 789s 33m", "SINGLE")]),
        ("4m", [("111m 234m 456p 789s 22m", "BOTH_SIDED")]),
    ],
)
def test_1112223m_every_wait(win, expected):
    arrangements = read(f"1112223m 456p 789s {win}", win)
    assert [(str(a), a.wait.name) for a in arrangements] == expected
    assert all(codes(a.waits) == "1m 2m 3m 4m" for a in arrangements)


def test_winning_tile_in_several_sets_gives_one_arrangement_per_place():
    arrangements = read("123m 345m 567p 789s 11z", "3m")
    assert sorted(summary(a)[2:] for a in arrangements) == [("123m", "EDGE"), ("345m", "BOTH_SIDED")]
    assert {a.winning_set for a in arrangements} == {0, 1}


@pytest.mark.parametrize(
    "hand, win, wait",
    [
        ("12m 3m 456p 789s 123s 11z", "3m", Wait.EDGE),
        ("89m 7m 456p 789s 123s 11z", "7m", Wait.EDGE),
        ("13m 2m 456p 789s 123s 11z", "2m", Wait.CLOSED),
        ("56m 4m 456p 789s 123s 11z", "4m", Wait.BOTH_SIDED),
        ("23m 1m 456p 789s 123s 11z", "1m", Wait.BOTH_SIDED),
        ("123m 456p 789s 123s 1z 1z", "1z", Wait.SINGLE),
        ("11m 11z 1z 456p 789s 123s", "1z", Wait.PUNG),
    ],
    ids=["edge-3", "edge-7", "closed", "both-4", "both-1", "single", "pung"],
)
def test_wait_shapes(hand, win, wait):
    (arrangement,) = read(hand, win)
    assert arrangement.wait is wait


def test_formally_multi_sided_wait_keeps_its_shape_and_all_waits():
    (arrangement,) = read("44567m 123p 456s 789s", "4m")
    assert arrangement.wait is Wait.SINGLE
    assert codes(arrangement.waits) == "4m 7m"
    (both,) = read("56m 4m 123p 456s 789s 55z", "4m")
    assert both.wait is Wait.BOTH_SIDED and codes(both.waits) == "4m 7m"


@pytest.mark.parametrize(
    "hand, win, pairs",
    [
        ("1122m 3344p 5566s 11z", "1z", "11m 22m 33p 44p 55s 66s 11z"),
        ("1111m 2233p 5566s 11z", "1m", "11m 11m 22p 33p 55s 66s 11z"),
    ],
    ids=["plain", "four-identical"],
)
def test_seven_pairs(hand, win, pairs):
    arrangements = [a for a in read(hand, win) if a.shape is Shape.SEVEN_PAIRS]
    assert len(arrangements) == 1
    (arrangement,) = arrangements
    assert " ".join(str(meld) for meld in arrangement.sets) == pairs
    assert all(meld.kind is SetKind.PAIR for meld in arrangement.sets)
    assert arrangement.winning_meld.first == Tile.parse(win) and arrangement.wait is Wait.KNITTED


def test_seven_pairs_wait_with_three_of_a_tile():
    assert codes(waiting_tiles(parse_tiles("111m2233p5566s11z"))) == "1m"


def test_seven_pairs_never_with_melds():
    assert not [a for a in read("1122m 3344p 55s [666s] 11z", "1z") if a.shape is Shape.SEVEN_PAIRS]


def test_thirteen_orphans():
    (arrangement,) = read("19m19p19s12345677z", "7z")
    assert arrangement.shape is Shape.THIRTEEN_ORPHANS and arrangement.sets == ()
    assert len(arrangement.loose) == 14 and arrangement.winning_set is None
    assert len(arrangement.waits) == 13


def test_thirteen_orphans_single_wait():
    (arrangement,) = read("19m19p19s12345677z", "1m")
    assert codes(arrangement.waits) == "1m"


@pytest.mark.parametrize(
    "hand, win, waits",
    [
        ("147m258p369s12345z", "5z", "5z 6z 7z"),
        ("147m25p36s1234567z", "5z", "8p 9s 5z"),
        ("14m25p369s1234567z", "1m", "1m 7m 8p"),
    ],
    ids=["lesser", "greater", "greater-two-ways"],
)
def test_honors_and_knitted(hand, win, waits):
    assert not [a for a in read(hand, win) if a.shape is Shape.HONORS_AND_KNITTED]
    (arrangement,) = read(hand, win, knitted=True)
    assert arrangement.shape is Shape.HONORS_AND_KNITTED and arrangement.sets == ()
    assert codes(arrangement.waits) == waits and arrangement.wait is Wait.KNITTED


@pytest.mark.parametrize(
    "hand, win, expected",
    [
        ("147m258p369s 123m 55z", "1m", [(None, "KNITTED"), ("123m", "BOTH_SIDED")]),
        ("147m258p369s 123m 55z", "5z", [("55z", "SINGLE")]),
        ("147m258p 36s [123m] 55z 9s", "9s", [(None, "KNITTED")]),
    ],
    ids=["win-knitted-or-chow", "win-pair", "melded-set"],
)
def test_knitted_straight(hand, win, expected):
    arrangements = read(hand, win, knitted=True)
    assert all(a.shape is Shape.KNITTED_STRAIGHT for a in arrangements)
    assert [summary(a)[2:] for a in arrangements] == expected
    assert codes(arrangements[0].loose) == "1m 4m 7m 2p 5p 8p 3s 6s 9s"
    assert read(hand, win) == ()


def test_knitted_straight_waits():
    waits = waiting_tiles(parse_tiles("147m258p369s123m5z"), knitted=True)
    assert codes(waits) == "5z"
    assert codes(waiting_tiles(parse_tiles("147m25p369s123m55z"), knitted=True)) == "8p"


def test_sixteen_tile_hands_have_five_sets():
    (arrangement,) = read("123456789m 123p 456p 11z", "1z", sets=5)
    assert len(arrangement.sets) == 6 and arrangement.pair == arrangement.sets[-1]
    assert read("123456789m 123p 456p 11z", "1z") == ()


def test_waits_exclude_a_fifth_tile():
    waits = waiting_tiles(parse_tiles("23m 456p 789s 123s 11z"), [])
    assert codes(waits) == "1m 4m"
    assert codes(waiting_tiles(parse_tiles("23m 456p 789s 11z"), [Hand.parse("[4444m]", win="1m").melds[0]])) == "1m"


def test_effective_sets_count_a_discarded_win_as_exposed():
    (arrangement,) = read("11m 11z 1z 456p 789s 123s", "1z")
    assert arrangement.completed_by_discard(self_drawn=False)
    assert not arrangement.completed_by_discard(self_drawn=True)
    exposed = arrangement.effective_sets(self_drawn=False)[arrangement.winning_set]
    assert str(exposed) == "[111z]"
    assert arrangement.effective_sets(self_drawn=True) == arrangement.sets


def test_incomplete_hand_not_complete():
    assert read("123m 456p 789s 11z 5z 9m", "9m") == ()


def test_arrange_one_short_says_what_it_waits_on():
    with pytest.raises(IncompleteHandError, match="one short of 14; it waits on 1z 5z") as caught:
        arrange(Hand.parse("123m 456p 789s 11z 55z", win="1z"))
    assert codes(caught.value.waiting) == "1z 5z"


def test_arrange_not_a_winning_hand():
    with pytest.raises(IncompleteHandError, match="without the winning tile 9s it waits on 6m 9m") as caught:
        arrange(Hand.parse("123m 456p 78m 11z 555z 9s", win="9s"))
    assert codes(caught.value.waiting) == "6m 9m"
    with pytest.raises(IncompleteHandError, match="not one tile from winning"):
        arrange(Hand.parse("139m 456p 789s 11z 555z", win="1m"))


def test_arrange_other_count_and_win_errors():
    with pytest.raises(WrongTileCountError):
        arrange(Hand.parse("123m 456p 789s 11z", win="1z"))
    with pytest.raises(WinningTileError):
        arrange(Hand.parse("123m 456p 789s 11z [555z]", win="5z"))


PLAYING = [tile for tile in ALL_TILES if tile.suit is not Suit.BONUS]


def naive_splits(tiles: tuple[Tile, ...], sets: int, pair: bool) -> set[tuple[str, ...]]:
    """Every split into sets and a pair by plain recursion over the whole hand (the oracle)."""
    if not tiles:
        return {()} if sets == 0 and not pair else set()
    first = tiles[0]
    groups = [("pair", [first] * 2, pair), ("pung", [first] * 3, sets > 0)]
    if first.is_suited and first.rank <= 7:
        groups.append(("chow", [Tile(first.suit, first.rank + step) for step in range(3)], sets > 0))
    found = set()
    for kind, group, allowed in groups:
        remaining = list(tiles)
        if not allowed or any(remaining.count(tile) < group.count(tile) for tile in group):
            continue
        for tile in group:
            remaining.remove(tile)
        rest = naive_splits(tuple(remaining), sets - (kind != "pair"), pair and kind != "pair")
        found |= {tuple(sorted((f"{kind} {first}",) + split)) for split in rest}
    return found


def random_complete_hand(rng) -> tuple[Tile, ...]:
    """Four random sets (chow or pung) and a pair, within four copies of each tile."""
    while True:
        tiles = []
        for _ in range(4):
            first = rng.choice(PLAYING)
            chow = first.is_suited and first.rank <= 7 and rng.random() < 0.6
            tiles += [Tile(first.suit, first.rank + step) for step in range(3)] if chow else [first] * 3
        tiles += [rng.choice(PLAYING)] * 2
        if all(tiles.count(tile) <= 4 for tile in tiles):
            return tuple(sorted(tiles))


def test_standard_arrangements_match_a_naive_oracle():
    rng = random.Random(11)
    for _ in range(300):
        tiles = random_complete_hand(rng)
        win = rng.choice(tiles)
        layouts = {
            tuple(sorted(f"{meld.kind.value} {meld.first}" for meld in a.sets))
            for a in decompose(Hand(tiles, (), (), win)) if a.shape is Shape.STANDARD
        }
        assert layouts == naive_splits(tiles, 4, True), tiles


def test_random_hands_agree_with_brute_force_waits():
    """waiting_tiles equals trying every tile (all shapes), on random and near-complete hands."""
    rng = random.Random(7)
    for round_ in range(400):
        if round_ % 2:
            tiles = list(random_complete_hand(rng))
            tiles.remove(rng.choice(tiles))
        else:
            wall = [tile for tile in PLAYING for _ in range(4)]
            rng.shuffle(wall)
            tiles = wall[:13]
        tiles = tuple(sorted(tiles))
        brute = {
            tile for tile in PLAYING
            if tiles.count(tile) < 4 and decompose(Hand(tiles + (tile,), (), (), tile), knitted=True)
        }
        assert waiting_tiles(tiles, knitted=True) == brute, tiles
