"""Mahjong Competition Rules (MCR, Chinese Official / Guobiao, 2006 Green Book).

Flow per arrangement: the detectors (``mcr_detectors``) fill one table of
fans; one data-driven pass removes what ``EXCLUDES`` says the counted fans
exclude; Chicken Hand is added when nothing but flowers is left. The best
arrangement wins (ties: fans earlier on the card); the others are
runners-up. Decisions and their sources: ``docs/rules/mcr.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter
from types import MappingProxyType
from typing import NamedTuple

from scoring.breakdown import Breakdown, Exclusion, Item, Payment
from scoring.decompose import Arrangement
from scoring.hand import Hand
from scoring.rulesets.mcr_detectors import WIN_FLAGS, Facts, View, detect
from scoring.rulesets.mcr_patterns import EXCLUDES, ORDER, VALUES, Pattern, preference
from scoring.situation import Situation, SituationError
from scoring.tiles import Wind

MINIMUM = 8  # fan needed to win, flowers not counted
BASE_PAYMENT = 8  # every loser pays this on top of what the card says
WINDS = tuple(Wind)
#: EXCLUDES with each fan's excluded fans in card order, each with the Exclusion it leaves in the breakdown.
EXCLUDES_IN_ORDER = {
    pattern: [(other, Exclusion(other.value, f"excluded by {pattern.value}"))
              for other in sorted(others, key=ORDER.__getitem__)]
    for pattern, others in EXCLUDES.items()
}


@cache
def item(pattern: Pattern, count: int) -> Item:
    """The breakdown line of a fan counted ``count`` times (shared instances: items are immutable)."""
    return Item(pattern.value, VALUES[pattern], count)


class Scored(NamedTuple):
    """The fans of one arrangement after the exclusion pass, and its total.

    What only a shown breakdown or a tie needs (``items``, ``excluded`` with
    the combinations left out, the ranking ``key``) is worked out on request.
    A named tuple: immutable and quick to build.
    """

    view: View
    counted: dict[Pattern, int]
    exclusions: tuple[Exclusion, ...]  # what the exclusion pass removed
    total: int

    @property
    def key(self) -> tuple[int, tuple[int, ...]]:
        """Ranking key, higher is better: the total, then fans earlier on the card."""
        return preference(self.counted)

    @property
    def flowers(self) -> int:
        return self.counted.get(FLOWER_TILES, 0)

    @property
    def items(self) -> tuple[Item, ...]:
        counted = self.counted
        return tuple([item(pattern, counted[pattern]) for pattern in sorted(counted, key=ORDER.__getitem__)])

    @property
    def excluded(self) -> tuple[Exclusion, ...]:
        """The exclusion pass's, then the chow/pung combinations left out (each fan named once)."""
        combined = self.view.chow_fans[1] + self.view.pung_fans[1]
        if not combined:
            return self.exclusions
        excluded = list(self.exclusions)
        named = {exclusion.name for exclusion in excluded}
        for exclusion in combined:
            if exclusion.name not in named:
                named.add(exclusion.name)
                excluded.append(exclusion)
        return tuple(excluded)


RANKING = attrgetter("key")  # sort key of Scored entries, higher is better


def apply_exclusions(counted: dict[Pattern, int]) -> tuple[dict[Pattern, int], list[Exclusion]]:
    """The one exclusion pass, on a table of detected fans (no zero counts) that it changes in place:
    in card order, each fan still counted removes what it excludes."""
    excluded = []
    for pattern in sorted(counted.keys() & EXCLUDES.keys(), key=ORDER.__getitem__):
        if pattern not in counted:
            continue
        for other, exclusion in EXCLUDES_IN_ORDER[pattern]:
            if counted.pop(other, 0):
                excluded.append(exclusion)
    if counted.keys() <= ONLY_FLOWERS:
        counted[Pattern.CHICKEN_HAND] = 1
    return counted, excluded


FLOWER_TILES = Pattern.FLOWER_TILES  # for the hot path: Enum class attributes are slow to read in 3.11
ONLY_FLOWERS = frozenset({FLOWER_TILES})  # what may count besides Chicken Hand


def score_arrangement(view: View) -> Scored:
    """Detect, exclude, fall back to Chicken Hand."""
    counted, excluded = apply_exclusions(detect(view))
    return Scored(view, counted, tuple(excluded), sum([VALUES[pattern] * count for pattern, count in counted.items()]))


# ---- situation checks -------------------------------------------------------------------

WIN_FLAG_NAMES = frozenset(WIN_FLAGS)
CHECKED_FLAGS = frozenset({"kong_replacement", "robbing_kong", "fourth_tile"})  # what checked_flags may change


def checked_flags(hand: Hand, situation: Situation) -> tuple[frozenset[str], tuple[str, ...]]:
    """The situation flags that apply to this hand, and notes on those set aside or added."""
    win = hand.win
    held = hand.counts[win.index]  # copies in the hand
    standing = hand.standing_counts[win.index]
    applying = situation.flags_set & WIN_FLAG_NAMES
    if not applying & CHECKED_FLAGS and held - standing != 3:  # the common case: nothing to check
        return applying, ()
    flags = set(applying)
    notes = []
    if "kong_replacement" in flags and not any(meld.is_kong for meld in hand.melds):
        flags.discard("kong_replacement")
        notes.append("kong_replacement ignored: the hand has no kong, so no replacement tile was drawn")
    if "robbing_kong" in flags and held > 1:
        flags.discard("robbing_kong")
        notes.append(f"robbing_kong ignored: the hand holds another {win}, "
                     "but a robbed kong needs the other three")
    exposed = held - standing  # the rest are in exposed sets: a concealed kong of it would make five
    if "fourth_tile" in flags and standing > 1:
        flags.discard("fourth_tile")
        notes.append(f"fourth_tile ignored: the hand holds another {win} concealed, "
                     "so the other three were not all shown")
    elif "fourth_tile" not in flags and exposed == 3:
        flags.add("fourth_tile")
        notes.append(f"Last Tile added: the other three {win} are in the hand's exposed sets")
    return frozenset(flags), tuple(notes)


# ---- payments ---------------------------------------------------------------------------

def payments(total: int, situation: Situation) -> tuple[tuple[Payment, ...], tuple[str, ...]]:
    """Card: self-drawn, each other pays 8 + basic; on a discard, the discarder 8 + basic, the others 8."""
    return _payments(total, situation.seat_wind, situation.self_drawn, situation.discarder)


@cache
def _payments(total: int, winner: Wind, self_drawn: bool,
              discarder: Wind | None) -> tuple[tuple[Payment, ...], tuple[str, ...]]:
    """``payments`` of the situation's parts (cached: payments are immutable and few differ)."""
    others = [wind for wind in WINDS if wind is not winner]
    if self_drawn:
        return tuple(Payment(wind, winner, BASE_PAYMENT + total) for wind in others), ()
    if discarder is None:
        return (), (
            f"discarder not given: the discarder pays {BASE_PAYMENT + total} "
            f"({BASE_PAYMENT} + {total}), each of the other two pays {BASE_PAYMENT}",
        )
    return tuple(
        Payment(wind, winner, BASE_PAYMENT + (total if wind is discarder else 0)) for wind in others
    ), ()


# ---- the rule set -----------------------------------------------------------------------

class MCRError(ValueError):
    """A hand or situation MCR cannot score; the message says why."""


@dataclass(frozen=True)
class MCRRuleSet:
    """MCR: 81 fans, 8-fan minimum (flowers not counted), payment 8 + basic points."""

    id: str = "mcr"
    name: str = "MCR"
    description: str = "Mahjong Competition Rules (Chinese Official, 2006 Green Book): 81 fans, 8-fan minimum"
    tile_count: int = 14
    knitted: bool = True
    unit: str = "fan"
    options: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def score(self, hand: Hand, arrangements: tuple[Arrangement, ...], situation: Situation,
              runners_up: int = 0) -> Breakdown:
        """Score every arrangement; the best one, with up to ``runners_up`` next-best ones."""
        if situation.options:
            raise SituationError(f"MCR has no options, got {', '.join(sorted(situation.options))}")
        if not arrangements:
            raise MCRError(f"{hand} (winning tile {hand.win}) has no winning arrangement to score")
        flags, notes = checked_flags(hand, situation)
        facts = Facts.of(hand, situation, flags)
        scored = [score_arrangement(View.of(facts, arrangement)) for arrangement in arrangements]
        best = max(scored, key=RANKING) if len(scored) > 1 else scored[0]  # max: the first of equals
        text = hand.text
        others = tuple([self._breakdown(entry, text, ()) for entry in self._runners_up(scored, best, runners_up)]
                       ) if runners_up else ()
        return self._breakdown(best, text, notes, others, situation)

    @classmethod
    def _runners_up(cls, scored: list[Scored], best: Scored, limit: int) -> list[Scored]:
        """Up to ``limit`` next-best arrangements, best first, one per distinct (arrangement, fans)."""
        found: list[Scored] = []
        if not limit:
            return found
        seen = {cls._signature(best)}
        for entry in sorted(scored, key=RANKING, reverse=True):
            signature = cls._signature(entry)
            if signature not in seen:
                seen.add(signature)
                found.append(entry)
                if len(found) == limit:
                    break
        return found

    @staticmethod
    def _signature(entry: Scored) -> tuple[str, frozenset]:
        return str(entry.view.arrangement), frozenset(entry.counted.items())

    def _breakdown(self, entry: Scored, hand: str, notes: tuple[str, ...],
                   runners_up: tuple[Breakdown, ...] = (), situation: Situation | None = None) -> Breakdown:
        """The Breakdown of a scored arrangement; payments only when ``situation`` is given (the best one)."""
        total = entry.total
        valid = total - entry.flowers >= MINIMUM
        paid: tuple[Payment, ...] = ()
        if not valid:
            notes += (f"below the {MINIMUM}-fan minimum: not a legal win "
                      f"({total - entry.flowers} fan without flowers)",)
        elif situation is not None:
            paid, payment_notes = payments(total, situation)
            notes += payment_notes
        return Breakdown(  # the fields in order, positional (keywords cost more on this hot path)
            self.id, hand, entry.view.hand.win.code, total, self.unit, entry.items, entry.excluded,
            entry.view.arrangement.text, paid, notes, valid, runners_up,
        )

MCR = MCRRuleSet()
