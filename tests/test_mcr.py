"""MCR scoring: one hand for every one of the 81 fans, and the cases users report as bugs."""

import re
from collections import Counter
from pathlib import Path

import pytest

from scoring import Wind, score
from scoring.rulesets.mcr import MCR
from scoring.rulesets.mcr_patterns import EXCLUDES, ORDER, VALUES, Pattern


def fans(breakdown) -> Counter:
    """name -> count of what counted."""
    return Counter({item.name: item.count for item in breakdown.items})


def expected(text: str) -> Counter:
    """'Tile Hog, Pung of Terminals or Honors x2' -> Counter."""
    found = Counter()
    for entry in text.split(", "):
        name, _, count = entry.partition(" x")
        found[name] += int(count) if count else 1
    return found


# (id, hand, winning tile, situation, fans that count, total)
EVERY_FAN = (
    ('big_four_winds', '[111z] [222z] [333z] 444z 55m', '5m', {},
     'Big Four Winds, Half Flush, Single Wait', 95),
    ('big_three_dragons', '[555z] [666z] 777z 123m 99m', '9m', {},
     'Big Three Dragons, Half Flush, Outside Hand, Single Wait', 99),
    ('all_green', '234s 234s 666s 888s 66z', '6z', {},
     'All Green, Concealed Hand, Two Concealed Pungs, Pure Double Chow, Single Wait', 94),
    ('nine_gates', '11123455678999m', '5m', dict(self_drawn=True),
     'Nine Gates, Fully Concealed Hand, Two Concealed Pungs', 94),
    ('four_kongs', '[1111m] [2222p] [3333s] [4444z] 55z', '5z', {},
     'Four Kongs, Mixed Shifted Pungs, All Types, Melded Hand, Pung of Terminals or Honors x2', 110),
    ('seven_shifted_pairs', '11223344556677p', '7p', {}, 'Seven Shifted Pairs', 88),
    ('thirteen_orphans', '19m19p19s12345677z', '7z', {}, 'Thirteen Orphans', 88),
    ('all_terminals', '[111m] [999m] [111p] 999s 11s', '1s', {}, 'All Terminals, Single Wait', 65),
    ('little_four_winds', '[111z] [222z] [333z] 44z 234m', '4z', dict(seat_wind='S', prevalent_wind='W'),
     'Little Four Winds, Half Flush, Prevalent Wind, Seat Wind, Single Wait', 75),
    ('little_three_dragons', '[555z] [666z] 77z 234m 567m', '7z', {},
     'Little Three Dragons, Half Flush, Short Straight, Single Wait', 72),
    ('all_honors', '[111z] [222z] [555z] 666z 33z', '3z', dict(seat_wind='N', prevalent_wind='N'),
     'All Honors, Two Dragon Pungs, Single Wait', 71),
    ('four_concealed_pungs', '111m 555p 999s 444z 55z', '5z', dict(self_drawn=True),
     'Four Concealed Pungs, All Types, Fully Concealed Hand, Pung of Terminals or Honors x3, '
     'Single Wait', 78),
    ('pure_terminal_chows', '123m 123m 789m 789m 55m', '5m', {},
     'Pure Terminal Chows, Concealed Hand, Single Wait', 67),
    ('quadruple_chow', '234p 234p 234p 234p 55s', '5s', {},
     'Quadruple Chow, Reversible Tiles, Concealed Hand, All Chows, All Simples, Single Wait', 63),
    ('four_pure_shifted_pungs', '[111m] [222m] [333m] 444m 55p', '5p', {},
     'Four Pure Shifted Pungs, Pung of Terminals or Honors, One Voided Suit, No Honors, Single Wait', 52),
    ('four_pure_shifted_chows', '[123m] [234m] [345m] 456m 99s', '9s', {},
     'Four Pure Shifted Chows, All Chows, One Voided Suit, Single Wait', 36),
    ('three_kongs', '[1111m] [2222p] (3333s) 456m 77s', '7s', {},
     'Three Kongs, Mixed Shifted Pungs, Pung of Terminals or Honors, No Honors, Single Wait', 43),
    ('all_terminals_and_honors', '[111m] [999p] [111z] 555z 99s', '9s', {},
     'All Terminals and Honors, All Types, Dragon Pung, Prevalent Wind, Seat Wind, Single Wait', 45),
    ('seven_pairs', '1133m 5577p 99s 1155z', '5z', {}, 'Seven Pairs, All Types', 30),
    ('greater_honors_and_knitted_tiles', '147m 258p 3s 1234567z', '7z', {},
     'Greater Honors and Knitted Tiles', 24),
    ('all_even_pungs', '[222m] [444p] [666s] 888m 44s', '4s', {}, 'All Even Pungs, Single Wait', 25),
    ('full_flush', '[234m] [234m] [567m] 888m 99m', '9m', {},
     'Full Flush, Pure Double Chow, Short Straight', 26),
    ('pure_triple_chow', '[345p] [345p] 345p 789s 11z', '1z', {},
     'Pure Triple Chow, One Voided Suit, Single Wait', 26),
    ('pure_shifted_pungs', '[333s] [444s] 555s 789m 22z', '2z', {},
     'Pure Shifted Pungs, One Voided Suit, Single Wait', 26),
    ('upper_tiles', '[789m] [789p] 777s 888s 99m', '9m', {},
     'Upper Tiles, Two Concealed Pungs, Mixed Double Chow, Single Wait', 28),
    ('middle_tiles', '[456m] [456p] 456s 555m 66p', '6p', {},
     'Middle Tiles, Mixed Triple Chow, Tile Hog, Single Wait', 35),
    ('lower_tiles', '[123m] [123p] [123s] 333m 22p', '2p', {},
     'Lower Tiles, Mixed Triple Chow, Tile Hog, Single Wait', 35),
    ('pure_straight', '[123m] 456m 789m 234p 55p', '5p', {}, 'Pure Straight, All Chows, One Voided Suit', 19),
    ('three_suited_terminal_chows', '[123m] [789m] [123p] 789p 55s', '5s', {},
     'Three-Suited Terminal Chows, Single Wait', 17),
    ('pure_shifted_chows', '[123s] [234s] 345s 777m 99p', '9p', {},
     'Pure Shifted Chows, No Honors, Single Wait', 18),
    ('all_fives', '[345m] [456p] [555s] 567s 55m', '5m', {},
     'All Fives, Mixed Shifted Chows, Tile Hog, Single Wait', 25),
    ('triple_pung', '[222m] [222p] 222s 345m 77z', '7z', {}, 'Triple Pung, Single Wait', 17),
    ('three_concealed_pungs', '[234m] 555p 777p 999s 11z', '1z', {},
     'Three Concealed Pungs, Pung of Terminals or Honors, Single Wait', 18),
    ('lesser_honors_and_knitted_tiles', '147m 258p 69s 123457z', '7z', {},
     'Lesser Honors and Knitted Tiles', 12),
    ('lesser_honors_with_knitted_straight', '147m 258p 369s 12357z', '7z', {},
     'Lesser Honors and Knitted Tiles, Knitted Straight', 24),
    ('knitted_straight', '147m 258p 369s [234s] 55z', '5z', {}, 'Knitted Straight, Single Wait', 13),
    ('upper_four', '[678m] [789p] 666s 999s 88m', '8m', {},
     'Upper Four, Two Concealed Pungs, Pung of Terminals or Honors, Single Wait', 16),
    ('lower_four', '[123m] [234p] 444s 111s 33m', '3m', {},
     'Lower Four, Two Concealed Pungs, Pung of Terminals or Honors, Single Wait', 16),
    ('big_three_winds', '[111z] [222z] 333z 567m 99m', '9m', {},
     'Big Three Winds, Half Flush, Prevalent Wind, Seat Wind, Single Wait', 23),
    ('mixed_straight', '[123m] [456p] 789s 234s 55p', '5p', {}, 'Mixed Straight, All Chows, Single Wait', 11),
    ('reversible_tiles', '[123p] [345p] 888s 999s 55z', '5z', {},
     'Reversible Tiles, Two Concealed Pungs, Pung of Terminals or Honors, Single Wait', 12),
    ('six_dots_not_reversible', '[123p] [456p] 888s 999s 55z', '5z', {},
     'Two Concealed Pungs, Short Straight, Pung of Terminals or Honors, One Voided Suit, Single Wait', 6),
    ('mixed_triple_chow', '[345m] [345p] 345s 678m 11z', '1z', {},
     'Mixed Triple Chow, Short Straight, Single Wait', 10),
    ('mixed_shifted_pungs', '[333m] [444p] 555s 789m 11z', '1z', {}, 'Mixed Shifted Pungs, Single Wait', 9),
    ('chicken_hand', '[234m] [678p] [345s] 567s 11z', '7s', {}, 'Chicken Hand', 8),
    ('last_tile_draw', '[234m] [678p] [345s] 567s 11z', '7s', dict(self_drawn=True, last_tile=True),
     'Last Tile Draw', 8),
    ('last_tile_claim', '[234m] [678p] [345s] 567s 11z', '7s', dict(last_tile=True), 'Last Tile Claim', 8),
    ('out_with_replacement_tile', '[2222m] [678p] [345s] 567s 11z', '7s',
     dict(self_drawn=True, kong_replacement=True),
     'Out with Replacement Tile, Melded Kong', 9),
    ('robbing_the_kong', '[234m] [678p] [345s] 567s 11z', '7s', dict(robbing_kong=True, fourth_tile=True),
     'Robbing the Kong', 8),
    ('two_concealed_kongs', '(2222m) (6666p) [345s] 567s 11z', '7s', {}, 'Two Concealed Kongs', 8),
    ('all_pungs', '[222m] [555p] [888s] 777z 33m', '3m', {}, 'All Pungs, Dragon Pung, Single Wait', 9),
    ('half_flush', '[123m] [345m] [678m] 555z 99m', '9m', {},
     'Half Flush, Dragon Pung, Short Straight, Single Wait', 10),
    ('mixed_shifted_chows', '[123m] [234p] [345s] 789s 11z', '1z', {}, 'Mixed Shifted Chows, Single Wait', 7),
    ('all_types', '234m 456p 678s [777z] 33z', '3z', {}, 'All Types, Dragon Pung, Single Wait', 9),
    ('melded_hand', '[234m] [456p] [678s] [777z] 33z', '3z', {}, 'All Types, Melded Hand, Dragon Pung', 14),
    ('two_dragon_pungs', '[555z] [666z] 123m 789m 11z', '1z', {},
     'Half Flush, Two Dragon Pungs, Outside Hand, Two Terminal Chows, Single Wait', 18),
    ('outside_hand', '[123m] [789p] [999s] 111z 99m', '9m', {},
     'Outside Hand, Prevalent Wind, Seat Wind, Pung of Terminals or Honors, Single Wait', 10),
    ('fully_concealed_hand', '123m 456m 789m 234p 55p', '5p', dict(self_drawn=True),
     'Pure Straight, Fully Concealed Hand, All Chows, One Voided Suit', 23),
    ('two_melded_kongs', '[2222m] [6666p] [345s] 567s 11z', '7s', {}, 'Two Melded Kongs', 4),
    ('last_tile', '[234m] [678p] [345s] 567s 11z', '7s', dict(fourth_tile=True), 'Last Tile', 4),
    ('concealed_kong', '(2222m) [678p] [345s] 567s 11z', '7s', {}, 'Concealed Kong', 2),
    ('double_pung', '[222m] [222p] 567s 678s 11z', '1z', {}, 'Double Pung, Single Wait', 3),
    ('all_simples', '[234m] [678p] [345s] 666s 88m', '6s', {}, 'All Simples', 2),
    ('no_honors', '[234m] [678p] [345s] 666s 99m', '6s', {}, 'No Honors', 1),
    ('mixed_double_chow_and_short_straight', '[234m] [567m] [234p] 567p 99s', '9s', {},
     'All Chows, Mixed Double Chow x2, Short Straight, Single Wait', 6),
    ('melded_kong', '[2222m] [678p] [345s] 567s 11z', '7s', {}, 'Melded Kong', 1),
    ('edge_wait', '[234m] [678p] [456p] 12s 3s 55m', '3s', {}, 'All Chows, Edge Wait', 3),
    ('closed_wait', '[234m] [678p] [456p] 13s 2s 55m', '2s', {}, 'All Chows, Closed Wait', 3),
    ('self_drawn', '[234m] [678p] [345s] 567s 11z', '7s', dict(self_drawn=True), 'Self-Drawn', 1),
    ('flower_tiles', '[234m] [678p] [345s] 567s 11z 15f', '7s', {}, 'Chicken Hand, Flower Tiles x2', 10),
)


def test_every_fan_has_a_hand():
    named = set().union(*(expected(case[4]) for case in EVERY_FAN))
    assert named == {pattern.value for pattern in Pattern}


# ---- the card's table ---------------------------------------------------------------------

def test_values_follow_the_card():
    assert len(Pattern) == 81
    assert Counter(VALUES.values()) == {
        88: 7, 64: 6, 48: 2, 32: 3, 24: 9, 16: 6, 12: 5, 8: 10, 6: 6, 4: 4, 2: 10, 1: 13}
    assert VALUES[Pattern.TWO_CONCEALED_KONGS] == 8
    assert Pattern.THREE_SUITED_TERMINAL_CHOWS.number == 29


def test_exclusions_only_point_down_the_card():
    """The single exclusion pass runs in card order, so X must come before what it excludes."""
    for pattern, excluded in EXCLUDES.items():
        assert all(ORDER[pattern] < ORDER[other] for other in excluded), pattern


def test_rule_set_attributes():
    assert (MCR.id, MCR.tile_count, MCR.knitted, MCR.unit) == ("mcr", 14, True, "fan")
    assert "\n" not in MCR.description


# ---- tricky cases ---------------------------------------------------------------------------

TRICKY = (
    # 2333s waits on 1s, 2s and 4s: completing the pair 22s is no Single Wait.
    ("multi_sided_is_no_single_wait", "[234m] [678p] [456p] 22333s", "2s", {}, "All Simples", 2),
    ("shanpon_is_no_wait_fan", "[234m] [678p] [345s] 666s 88m", "6s", {}, "All Simples", 2),
    ("edge_wait_waits_on_one_tile", "[234m] [678p] [456p] 12s 3s 55m", "3s", {}, "All Chows, Edge Wait", 3),
    # a kong is not a Tile Hog; four tiles spread over a melded pung and a chow is.
    ("kong_is_not_tile_hog", "[2222m] [678p] [345s] 567s 11z", "7s", {}, "Melded Kong", 1),
    ("melded_pung_and_chow_tile_hog", "[555s] [345m] [456p] 567s 55m", "5m", {},
     "All Fives, Mixed Shifted Chows, Tile Hog, Single Wait", 25),
    # melded chows may be written in any order.
    ("melded_chow_order", "[312m] [987m] [213p] 897p 55s", "5s", {},
     "Three-Suited Terminal Chows, Single Wait", 17),
    ("seven_pairs_with_tile_hog", "22m 44m 66m 88p 99p 11z 11z", "1z", {},
     "Seven Pairs, Tile Hog, One Voided Suit", 27),
    ("chicken_hand_with_flowers", "[234m] [678p] [345s] 567s 11z 2f", "7s", {},
     "Chicken Hand, Flower Tiles", 9),
    ("self_drawn_is_no_chicken", "[234m] [678p] [345s] 567s 11z", "7s", dict(self_drawn=True),
     "Self-Drawn", 1),
    # a pung completed by a discard is exposed for Concealed Pungs...
    ("discard_completes_pung", "[234m] 555p 777p 999s 11z", "5p", {},
     "Two Concealed Pungs, Pung of Terminals or Honors", 3),
    ("self_drawn_pung_stays_concealed", "[234m] 555p 777p 999s 11z", "5p", dict(self_drawn=True),
     "Three Concealed Pungs, Pung of Terminals or Honors, Self-Drawn", 18),
    # ...unless the winning tile can be read into a chow instead.
    ("discard_read_into_chow", "234p 444p 777s 999s 11z", "4p", {},
     "Three Concealed Pungs, Concealed Hand, Tile Hog, Pung of Terminals or Honors, One Voided Suit", 22),
    ("last_tile_draw_and_last_tile", "[234m] [678p] [345s] 567s 11z", "7s",
     dict(self_drawn=True, last_tile=True, fourth_tile=True), "Last Tile Draw, Last Tile", 12),
    ("account_once_and_non_identical", "[234s] [234p] [234p] 567p 11m", "1m", {},
     "All Chows, Pure Double Chow, Mixed Double Chow, Short Straight, Single Wait", 6),
    ("account_once_four_terminal_chows", "[123m] [123m] [789m] 789m 99p", "9p", {},
     "Outside Hand, All Chows, Pure Double Chow x2, Two Terminal Chows, One Voided Suit, Single Wait", 11),
    ("seven_pairs_self_drawn_fully_concealed", "22m 44m 66m 88p 99p 11z 33z", "3z", dict(self_drawn=True),
     "Seven Pairs, Fully Concealed Hand, One Voided Suit", 29),
    ("four_concealed_pungs_on_discard", "111m 555p 999s 444z 55z", "5z", {},
     "Four Concealed Pungs, All Types, Pung of Terminals or Honors x3, Single Wait", 74),
    # an excluded fan excludes nothing: Three Kongs drops Two Concealed Kongs, so the two
    # concealed kongs still make Two Concealed Pungs.
    ("three_kongs_two_concealed", "[1111m] (2222p) (3333s) 456m 77s", "7s", {},
     "Three Kongs, Mixed Shifted Pungs, Two Concealed Pungs, Pung of Terminals or Honors, No Honors, "
     "Single Wait", 45),
    ("concealed_and_melded_kong", "[1111m] (2222p) 345s 678s 99m", "9m", {},
     "Concealed Kong, Melded Kong, Short Straight, Pung of Terminals or Honors, No Honors, Single Wait", 7),
    ("big_three_winds_and_terminal_pung", "[111z] [222z] [333z] 999m 55p", "5p", {},
     "Big Three Winds, All Pungs, Prevalent Wind, Seat Wind, Pung of Terminals or Honors, One Voided Suit, "
     "Single Wait", 25),
    ("four_melded_sets_self_drawn", "[234m] [456p] [678s] [777z] 33z", "3z", dict(self_drawn=True),
     "All Types, Dragon Pung, Single Wait, Self-Drawn", 10),
    ("nine_gates_on_a_terminal", "11112345678999m", "1m", {}, "Nine Gates, Pure Straight, Tile Hog", 106),
    ("knitted_straight_and_closed_wait", "147m 258p 369s 678s 66z", "7s", dict(self_drawn=True),
     "Knitted Straight, Fully Concealed Hand, Closed Wait", 17),
)


@pytest.mark.parametrize(
    "hand, win, situation, items, total", [case[1:] for case in EVERY_FAN + TRICKY],
    ids=[case[0] for case in EVERY_FAN + TRICKY],
)
def test_fans(hand, win, situation, items, total):
    breakdown = score(hand, ruleset="mcr", win=win, **situation)
    assert fans(breakdown) == expected(items)
    assert all(item.value == VALUES[Pattern(item.name)] for item in breakdown.items)
    assert breakdown.total == total == sum(item.points for item in breakdown.items)
    assert breakdown.valid is (total - fans(breakdown)["Flower Tiles"] >= 8)


def test_exclusions_are_explained():
    breakdown = score("[123m] [123m] 789m 789m 55m", ruleset="mcr", win="5m")
    reasons = {exclusion.name: exclusion.reason for exclusion in breakdown.excluded}
    assert reasons["Full Flush"] == "excluded by Pure Terminal Chows"
    assert reasons["Two Terminal Chows"] == "excluded by Pure Terminal Chows"
    straight = score("[123m] 456m 789m 234p 55p", ruleset="mcr", win="5p")
    assert {e.name: e.reason for e in straight.excluded}["Short Straight"].startswith("non-separation")


def test_best_arrangement_and_runners_up():
    breakdown = score("123m 123m 789m 789m 55m", ruleset="mcr", win="5m", runners_up=5)
    assert breakdown.arrangement == "123m 123m 789m 789m 55m"
    assert breakdown.runners_up and all(r.total < breakdown.total for r in breakdown.runners_up)
    assert "Seven Pairs" in {item.name for r in breakdown.runners_up for item in r.items}


# ---- minimum, flowers, payments and notes --------------------------------------------------

def test_below_minimum_still_itemised():
    breakdown = score("[123m] [234p] [345s] 789s 11z 1234f", ruleset="mcr", win="1z")
    assert fans(breakdown) == expected("Mixed Shifted Chows, Single Wait, Flower Tiles x4")
    assert breakdown.total == 11 and not breakdown.valid
    assert breakdown.payments == ()
    assert any(note.startswith("below the 8-fan minimum") for note in breakdown.notes)


def test_self_drawn_payments():
    breakdown = score("123m 456m 789m 234p 55p 1f", ruleset="mcr", win="5p", self_drawn=True, seat_wind="S")
    assert breakdown.total == 24
    assert {(p.payer, p.payee, p.amount) for p in breakdown.payments} == {
        (Wind.EAST, Wind.SOUTH, 32), (Wind.WEST, Wind.SOUTH, 32), (Wind.NORTH, Wind.SOUTH, 32)}


def test_discard_payments():
    breakdown = score("234m 456p 678s [777z] 33z", ruleset="mcr", win="3z", discarder="S")
    assert {(p.payer, p.amount) for p in breakdown.payments} == {
        (Wind.SOUTH, 17), (Wind.WEST, 8), (Wind.NORTH, 8)}


def test_discard_without_discarder_says_so():
    breakdown = score("234m 456p 678s [777z] 33z", ruleset="mcr", win="3z")
    assert breakdown.payments == ()
    assert breakdown.notes == (
        "discarder not given: the discarder pays 17 (8 + 9), each of the other two pays 8",)


@pytest.mark.parametrize("hand, win, situation, note, items", [
    ("[234m] [678p] [345s] 567s 11z", "7s", dict(self_drawn=True, kong_replacement=True),
     "kong_replacement ignored", "Self-Drawn"),
    ("[234m] [678p] [345s] 567s 77s", "7s", dict(fourth_tile=True), "fourth_tile ignored",
     "All Chows, All Simples"),
    ("[234m] [678p] [345s] 567s 77s", "7s", dict(robbing_kong=True), "robbing_kong ignored",
     "All Chows, All Simples"),
    ("[555p] [234m] [678s] 345p 11z", "5p", {}, "Last Tile added", "Last Tile, Tile Hog"),
], ids=["replacement_without_kong", "fourth_tile_held", "robbed_tile_held", "fourth_tile_from_exposed_pung"])
def test_situation_checks(hand, win, situation, note, items):
    breakdown = score(hand, ruleset="mcr", win=win, **situation)
    assert any(text.startswith(note) for text in breakdown.notes)
    assert fans(breakdown) == expected(items)


def test_to_dict_is_json_ready():
    data = score("123m 456m 789m 234p 55p", ruleset="mcr", win="5p").to_dict()
    assert data["ruleset"] == "mcr" and data["unit"] == "fan" and data["items"][0]["name"] == "Pure Straight"


def test_documented_exclusion_table_matches_the_code():
    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "mcr.md").read_text()
    rows = re.findall(r"^\| (\d+) \| (.+?) \| (\d+) \| (.+?) \|$", doc, flags=re.M)
    documented = {Pattern(name): frozenset(Pattern(other) for other in excluded.split(", "))
                  for _, name, _, excluded in rows}
    assert documented == EXCLUDES
