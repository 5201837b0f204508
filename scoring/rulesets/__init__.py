"""The rule-set protocol and the registry of rule sets (``RULESETS``, ``find_ruleset``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from scoring.breakdown import Breakdown
    from scoring.decompose import Arrangement
    from scoring.hand import Hand
    from scoring.situation import Situation


class UnknownRuleSetError(ValueError):
    """A rule-set name that is not registered; the message lists the valid ids."""


class RuleSet(Protocol):
    """What every rule set provides."""

    id: str
    name: str
    description: str
    tile_count: int
    knitted: bool
    options: Mapping[str, str]

    def score(self, hand: Hand, arrangements: tuple[Arrangement, ...], situation: Situation,
              runners_up: int = 0) -> Breakdown:
        """Score the best arrangement, with up to ``runners_up`` next-best ones (best first)."""
        ...


RULESETS: dict[str, RuleSet] = {}

# Other names people use for a rule set -> its id.
ALIASES: dict[str, str] = {
    "guobiao": "mcr",
    "gb": "mcr",
    "chinese official": "mcr",
    "chinese-official": "mcr",
    "competition": "mcr",
}


def register(ruleset: RuleSet) -> RuleSet:
    """Add a rule set to RULESETS under its id."""
    RULESETS[ruleset.id] = ruleset
    return ruleset


def find_ruleset(name: str) -> RuleSet:
    """Rule set by id, name or alias, case-insensitive."""
    if isinstance(name, str) and name in RULESETS:  # the common case: the exact id
        return RULESETS[name]
    key = str(name).strip().lower()
    key = ALIASES.get(key, key)
    for ruleset in RULESETS.values():
        if key in (ruleset.id.lower(), ruleset.name.lower()):
            return ruleset
    valid = ", ".join(sorted(RULESETS)) or "none registered"
    raise UnknownRuleSetError(f"unknown rule set {name!r}: valid ids are {valid}")


# Imported last: rule-set modules may import the names above.
from scoring.rulesets.mcr import MCR  # noqa: E402

register(MCR)
