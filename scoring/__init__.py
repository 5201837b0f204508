"""Score a winning mahjong hand under a chosen rule set.

    >>> from scoring import score
    >>> breakdown = score("123m 456p 789s 11z [777p]", ruleset="mcr", win="1z")

``RULESETS`` maps each rule-set id to its rule set (``.description`` is one
line); the hand notation is described in docs/notation.md.
"""

from __future__ import annotations

from scoring.breakdown import Breakdown, Exclusion, Item, Payment
from scoring.decompose import Arrangement, Shape, Wait, arrange, decompose, waiting_tiles
from scoring.hand import (
    DuplicateBonusError,
    Hand,
    HandError,
    IncompleteHandError,
    Meld,
    NotASetError,
    SetKind,
    TooManyCopiesError,
    UnknownTokenError,
    WinningTileError,
    WrongTileCountError,
)
from scoring.rulesets import RULESETS, RuleSet, UnknownRuleSetError, find_ruleset
from scoring.situation import Situation, SituationError
from scoring.tiles import ALL_TILES, PLAYING_TILES, NotationError, Suit, Tile, Wind, format_tiles, parse_tiles

__all__ = [
    "ALL_TILES", "PLAYING_TILES", "RULESETS", "Arrangement", "Breakdown", "DuplicateBonusError",
    "Exclusion", "Hand", "HandError", "IncompleteHandError", "Item", "Meld", "NotASetError",
    "NotationError", "Payment", "RuleSet", "RunnersUpError", "SetKind", "Shape", "Situation", "SituationError", "Suit",
    "Tile", "TooManyCopiesError", "UnknownRuleSetError", "UnknownTokenError", "Wait", "Wind",
    "WinningTileError", "WrongTileCountError", "arrange", "decompose", "find_ruleset", "format_tiles",
    "parse_tiles", "score", "waiting_tiles",
]


class RunnersUpError(ValueError):
    """``runners_up`` is not a whole number, 0 or more."""


def score(hand: str | Hand, *, ruleset: str | RuleSet, win: str | Tile | None = None, runners_up: int = 0,
          **situation) -> Breakdown:
    """Score ``hand`` (notation string, winning tile ``win``) under ``ruleset``.

    ``runners_up``: how many next-best arrangements to add to ``Breakdown.runners_up``
    (at most; none by default). Situation keywords: self_drawn, seat_wind,
    prevalent_wind, last_tile, kong_replacement, robbing_kong, fourth_tile,
    discarder, plus the rule set's own ``options``. Raises a ValueError
    subclass naming bad input.
    """
    if isinstance(runners_up, bool) or not isinstance(runners_up, int) or runners_up < 0:
        raise RunnersUpError(f"runners_up={runners_up!r}: give how many runners-up to list, 0 or more")
    rules = ruleset if not isinstance(ruleset, str) and hasattr(ruleset, "score") else find_ruleset(ruleset)
    if isinstance(hand, Hand):
        parsed = hand
    elif win is None:
        raise WinningTileError("score() needs the winning tile: pass win='9s' (one of the standing tiles)")
    else:
        parsed = Hand.parse(hand, win=win)
    context = Situation.from_keywords(situation, options=rules.options)
    arrangements = arrange(parsed, tile_count=rules.tile_count, knitted=rules.knitted)
    return rules.score(parsed, arrangements, context, runners_up=runners_up)
