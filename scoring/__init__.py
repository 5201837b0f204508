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
    "WinningTileError", "WrongTileCountError", "arrange", "check", "decompose", "find_ruleset", "format_tiles",
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
    rules = _rules(ruleset)
    if isinstance(hand, Hand):
        parsed = hand
    elif win is None:
        raise WinningTileError("score() needs the winning tile: pass win='9s' (one of the standing tiles)")
    else:
        parsed = Hand.parse(hand, win=win)
    context = Situation.from_keywords(situation, options=rules.options)
    arrangements = arrange(parsed, tile_count=rules.tile_count, knitted=rules.knitted)
    return rules.score(parsed, arrangements, context, runners_up=runners_up)


def check(hand: str | Hand, *, ruleset: str | RuleSet) -> None:
    """Check that ``hand`` is a winning hand under ``ruleset`` before its winning tile is known.

    Raises the ValueError subclass `score` would for the hand itself: bad
    notation, too many copies of a tile, the wrong tile count. A hand one tile
    short raises IncompleteHandError whose ``waiting`` holds every tile that
    would complete it (a tile missed when the hand was read); a hand of the
    right count that is no winning shape raises it with nothing waiting.
    """
    rules = _rules(ruleset)
    parsed = hand if isinstance(hand, Hand) else Hand.parse(hand, win=PLAYING_TILES[0])
    if parsed.standing:  # any standing tile may be the winning one: whether the hand wins does not depend on it
        parsed = Hand(parsed.standing, parsed.melds, parsed.bonus, parsed.standing[0])
    try:
        arrange(parsed, tile_count=rules.tile_count, knitted=rules.knitted)
    except IncompleteHandError:
        if parsed.tile_count == rules.tile_count - 1:  # one short: what it waits on does not depend on the win
            raise
        raise IncompleteHandError(f"{parsed} is not a complete winning hand: a tile is misread, "
                                  "or one is missing and another extra") from None


def _rules(ruleset: str | RuleSet) -> RuleSet:
    """A rule set given itself or by name."""
    return ruleset if not isinstance(ruleset, str) and hasattr(ruleset, "score") else find_ruleset(ruleset)
