"""The public API: score(), the rule-set registry and situation keywords."""

import json
from dataclasses import dataclass, field

import pytest

from scoring import (
    RULESETS,
    Breakdown,
    IncompleteHandError,
    Item,
    RunnersUpError,
    Situation,
    SituationError,
    UnknownRuleSetError,
    WinningTileError,
    WrongTileCountError,
    check,
    find_ruleset,
    score,
)
from scoring.tiles import Wind


@dataclass(frozen=True)
class CountingRules:
    """A tiny rule set: one point per arrangement, remembers what it was given."""

    id: str = "toy"
    name: str = "Toy"
    description: str = "counts arrangements"
    tile_count: int = 14
    knitted: bool = False
    options: dict = field(default_factory=lambda: {"bonus": "an extra keyword"})
    seen: list = field(default_factory=list)

    def score(self, hand, arrangements, situation, runners_up=0):
        self.seen.append((hand, arrangements, situation, runners_up))
        return Breakdown(
            ruleset=self.id, hand=str(hand), win=str(hand.win), total=len(arrangements), unit="points",
            items=(Item("arrangements", 1, len(arrangements)),), excluded=(),
            arrangement=str(arrangements[0]), payments=(), notes=(), valid=True,
        )


@pytest.fixture
def toy():
    return CountingRules()


def test_score_passes_parsed_hand_arrangements_and_situation(toy):
    breakdown = score("111222333m 456p 77z", ruleset=toy, win="3m", self_drawn=True, seat_wind="s",
                      prevalent_wind="W", bonus=3)
    hand, arrangements, situation, runners_up = toy.seen[0]
    assert breakdown.total == len(arrangements) == 2 and runners_up == 0
    assert str(hand) == "111222333m 456p 77z" and hand.win.code == "3m"
    assert situation.self_drawn and situation.seat_wind is Wind.SOUTH and situation.prevalent_wind is Wind.WEST
    assert dict(situation.options) == {"bonus": 3}


def test_runners_up_are_passed_on_and_checked(toy):
    score("111222333m 456p 77z", ruleset=toy, win="3m", runners_up=2)
    assert toy.seen[0][3] == 2
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(RunnersUpError, match=f"runners_up={bad!r}: give how many runners-up"):
            score("111222333m 456p 77z", ruleset=toy, win="3m", runners_up=bad)
    assert len(toy.seen) == 1


def test_runners_up_only_on_request():
    assert score("11223344556677m", ruleset="mcr", win="1m").runners_up == ()
    two = score("11223344556677m", ruleset="mcr", win="1m", runners_up=2)
    three = score("11223344556677m", ruleset="mcr", win="1m", runners_up=3)
    assert [r.total for r in two.runners_up] == [31, 31] and [r.total for r in three.runners_up] == [31, 31, 30]
    assert two.runners_up == three.runners_up[:2] and two.total == three.total == 88


def test_unknown_keyword_lists_the_valid_ones(toy):
    with pytest.raises(SituationError, match="unknown situation keyword.*selfdrawn.*bonus, discarder"):
        score("123m 456p 789s 11z 555z", ruleset=toy, win="1z", selfdrawn=True)


def test_knitted_flag_and_tile_count_come_from_the_rule_set(toy):
    with pytest.raises(IncompleteHandError):
        score("147m258p369s12345z", ruleset=toy, win="5z")
    with pytest.raises(WrongTileCountError, match="has 17"):
        score("147m258p369s12345z", ruleset=CountingRules(tile_count=17), win="5z")
    assert score("147m258p369s12345z", ruleset=CountingRules(knitted=True), win="5z").total == 1


@pytest.mark.parametrize(
    "hand, win, message, waits",
    [
        ("123m 456p 789s 11z 55z", "1z", "one short of 14; it waits on 1z 5z", {"1z", "5z"}),
        ("123m 456p 78m 11z 555z 9s", "9s", "not a complete winning hand.*waits on 6m 9m", {"6m", "9m"}),
        ("139m 456p 789s 11z 555z", "1m", "not one tile from winning", set()),
    ],
    ids=["one-short", "wrong-tile", "far"],
)
def test_incomplete_hands(toy, hand, win, message, waits):
    with pytest.raises(IncompleteHandError, match=message) as caught:
        score(hand, ruleset=toy, win=win)
    assert {tile.code for tile in caught.value.waiting} == waits


@pytest.mark.parametrize(
    "hand, error, message, waits",
    [
        ("123m 456p 789s 11z 55z", IncompleteHandError, "one short of 14; it waits on 1z 5z", {"1z", "5z"}),
        ("139m 456p 789s 11z 55z", IncompleteHandError, "one short of 14; it is not one tile from winning", set()),
        ("123m 456p 78m 11z 555z 9s", IncompleteHandError, "not a complete winning hand: a tile is misread", set()),
        ("123m 456p 789s 11z 555z 5z", WrongTileCountError, "has 15 tiles", None),
        ("[111m] [222m] [333m] [444m]", WrongTileCountError, "has 12 tiles", None),
        ("123m 456p 789s 11z 55555z", ValueError, "5 copies of 5z", None),
    ],
    ids=["one-short", "one-short-far", "misread", "one-extra", "no-standing-tile", "five-copies"],
)
def test_check_without_the_winning_tile(toy, hand, error, message, waits):
    with pytest.raises(error, match=message) as caught:
        check(hand, ruleset=toy)
    if waits is not None:
        assert {tile.code for tile in caught.value.waiting} == waits


@pytest.mark.parametrize("hand", ["123m 456p 789s 11z 555z", "123m 456p 11z [789s] (5555z)", "119m19p19s1234567z"])
def test_check_passes_winning_hands_whichever_tile_wins(hand):
    check(hand, ruleset="mcr")
    assert check(hand, ruleset=CountingRules(knitted=True)) is None


def test_win_is_required(toy):
    with pytest.raises(WinningTileError, match="needs the winning tile"):
        score("123m 456p 789s 11z 555z", ruleset=toy)


def test_registry_lists_mcr_with_a_description():
    assert "mcr" in RULESETS
    assert RULESETS["mcr"].description and "\n" not in RULESETS["mcr"].description


@pytest.mark.parametrize("name", ["mcr", "MCR", " Guobiao ", "chinese official"])
def test_find_ruleset_aliases(name):
    assert find_ruleset(name) is RULESETS["mcr"]


def test_unknown_ruleset_lists_ids():
    with pytest.raises(UnknownRuleSetError, match="unknown rule set 'riichi': valid ids are .*mcr"):
        find_ruleset("riichi")
    with pytest.raises(UnknownRuleSetError):
        score("123m 456p 789s 11z 555z", ruleset="riichi", win="1z")
    with pytest.raises(UnknownRuleSetError, match="unknown rule set None"):
        score("123m 456p 789s 11z 555z", ruleset=None, win="1z")


def test_score_by_ruleset_id_returns_json_ready_breakdown():
    breakdown = score("123m 456p 789s 11z [777p]", ruleset="mcr", win="1z", discarder="N")
    data = breakdown.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["ruleset"] == "mcr" and data["total"] == breakdown.total
    assert data["total"] == sum(item["points"] for item in data["items"])


@pytest.mark.parametrize(
    "keywords, message",
    [
        ({"seat_wind": "X"}, "seat_wind: unknown wind 'X'"),
        ({"self_drawn": "yes"}, "self_drawn='yes': expected True or False"),
        ({"kong_replacement": True}, "also set self_drawn"),
        ({"robbing_kong": True, "self_drawn": True}, "not self-drawn"),
        ({"discarder": "E"}, "winner's own seat"),
        ({"discarder": "S", "self_drawn": True}, "nobody discarded"),
    ],
    ids=["wind", "bool", "replacement", "robbing", "own-seat", "self-drawn-discarder"],
)
def test_situation_errors(keywords, message):
    with pytest.raises(SituationError, match=message):
        Situation.from_keywords(keywords)


def test_situation_defaults_and_winds():
    situation = Situation.from_keywords({"seat_wind": "n", "discarder": "west"})
    assert situation.winds == (Wind.NORTH, Wind.EAST) and situation.discarder is Wind.WEST
    assert Situation() == Situation(seat_wind="E", prevalent_wind="E")


@pytest.mark.parametrize(
    "keywords, text",
    [
        ({}, "on a discard; seat E, round E"),
        ({"self_drawn": True, "kong_replacement": True, "seat_wind": "S"},
         "self-drawn, kong replacement; seat S, round E"),
        ({"discarder": "N", "last_tile": True, "fourth_tile": True, "prevalent_wind": "W"},
         "on a discard from N, last tile, fourth tile; seat E, round W"),
    ],
    ids=["default", "replacement", "discard"],
)
def test_situation_describe(keywords, text):
    assert Situation.from_keywords(keywords).describe() == text
