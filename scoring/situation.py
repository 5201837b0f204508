"""How the hand was won: self-drawn or not, winds, special moments, rule-set options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from types import MappingProxyType

from scoring.tiles import Wind


class SituationError(ValueError):
    """An unknown or contradictory situation keyword."""


# the yes/no situation keywords, with a one-line explanation each (for CLIs and forms)
FLAGS: tuple[tuple[str, str], ...] = (
    ("self_drawn", "the winning tile was drawn from the wall"),
    ("last_tile", "won on the last tile of the wall or the last discard"),
    ("kong_replacement", "won on a kong's replacement tile (a self-drawn tile)"),
    ("robbing_kong", "won on the tile another player added to a melded pung"),
    ("fourth_tile", "the winning tile is the last of its kind"),
)
# the wind keywords, with their explanations
WINDS: tuple[tuple[str, str], ...] = (
    ("seat_wind", "the winner's seat wind"),
    ("prevalent_wind", "the prevalent (round) wind"),
    ("discarder", "seat wind of the player who discarded the winning tile"),
)
# (flag, flag it needs (True) or excludes (False), why)
_CONSISTENCY = (
    ("kong_replacement", "self_drawn", True, "a kong replacement tile is drawn: also set self_drawn"),
    ("robbing_kong", "self_drawn", False, "robbing a kong takes another player's tile: it is not self-drawn"),
)


@dataclass(frozen=True)
class Situation:
    """The circumstances of the win, shared by every rule set."""

    self_drawn: bool = False
    seat_wind: Wind = Wind.EAST
    prevalent_wind: Wind = Wind.EAST
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    fourth_tile: bool = False
    discarder: Wind | None = None
    options: Mapping[str, object] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        for name, _ in FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise SituationError(f"{name}={getattr(self, name)!r}: expected True or False")
        for name, _ in WINDS:
            value = getattr(self, name)
            if not isinstance(value, Wind) and (value is not None or name != "discarder"):
                object.__setattr__(self, name, _wind(name, value))
        self._check_consistency()

    def _check_consistency(self) -> None:
        for flag, other, needed, why in _CONSISTENCY:
            if getattr(self, flag) and getattr(self, other) is not needed:
                raise SituationError(f"{flag}=True with {other}={not needed}: {why}")
        if self.discarder is not None and self.self_drawn:
            raise SituationError("discarder given for a self-drawn win: nobody discarded")
        if self.discarder is self.seat_wind:
            raise SituationError(f"discarder {self.discarder} is the winner's own seat")

    @classmethod
    def from_keywords(cls, keywords: Mapping[str, object], options: Mapping[str, str] = {}) -> Situation:
        """Build from ``score()`` keywords; ``options`` names the rule set's extra keywords.

        Situations are immutable: the same keywords (values of the same types) share one instance.
        """
        # the values' types are part of the key: True and 1 are equal but not the same keyword
        key = (tuple(keywords.items()), tuple(map(type, keywords.values())), tuple(options))
        try:
            return _shared(key)
        except TypeError:  # an unhashable option value: nothing to share
            return _from_keywords(keywords, key[2])

    def describe(self) -> str:
        """One line for people: ``"self-drawn, last tile; seat E, round S"``."""
        how = ["self-drawn" if self.self_drawn else "on a discard"]
        if self.discarder is not None:
            how[0] += f" from {self.discarder}"
        how += [name.replace("_", " ") for name, _ in FLAGS[1:] if getattr(self, name)]
        how += [f"{key}={value}" for key, value in self.options.items()]
        return f"{', '.join(how)}; seat {self.seat_wind}, round {self.prevalent_wind}"

    @cached_property
    def flags_set(self) -> frozenset[str]:
        """The yes/no keywords (``FLAGS``) that are True (cached: situations are shared)."""
        return frozenset(name for name, _ in FLAGS if getattr(self, name))

    @property
    def winds(self) -> tuple[Wind, Wind]:
        """(seat wind, prevalent wind)."""
        return self.seat_wind, self.prevalent_wind


def _wind(name: str, value: object) -> Wind:
    try:
        return Wind.parse(value)
    except ValueError as error:
        raise SituationError(f"{name}: {error}") from None


_COMMON = frozenset(f.name for f in fields(Situation)) - {"options"}


def _from_keywords(keywords: Mapping[str, object], options: tuple[str, ...]) -> Situation:
    """Situation.from_keywords, built afresh."""
    unknown = sorted(keywords.keys() - _COMMON - set(options))
    if unknown:
        valid = ", ".join(sorted(_COMMON | set(options)))
        raise SituationError(f"unknown situation keyword(s) {', '.join(unknown)}: valid ones are {valid}")
    given = {name: value for name, value in keywords.items() if name in _COMMON}
    extra = {name: value for name, value in keywords.items() if name not in _COMMON}
    return Situation(**given, options=extra)


@lru_cache(maxsize=4096)
def _shared(key: tuple[tuple[tuple[str, object], ...], tuple[type, ...], tuple[str, ...]]) -> Situation:
    """Situation.from_keywords of hashable keywords (cached; errors are raised each time)."""
    given, _, options = key
    return _from_keywords(dict(given), options)
