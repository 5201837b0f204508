"""The itemised result of scoring a hand."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.tiles import Wind


@dataclass(frozen=True)
class Item:
    """A pattern that counted: ``value`` per occurrence, ``count`` occurrences."""

    name: str
    value: int
    count: int = 1

    @property
    def points(self) -> int:
        return self.value * self.count

    def to_dict(self) -> dict:
        return {"name": self.name, "value": self.value, "count": self.count, "points": self.points}


@dataclass(frozen=True)
class Exclusion:
    """A pattern found but not counted, and why (e.g. "implied by Full Flush")."""

    name: str
    reason: str

    def to_dict(self) -> dict:
        return {"name": self.name, "reason": self.reason}


@dataclass(frozen=True, init=False)
class Payment:
    """``payer`` pays ``payee`` ``amount``."""

    payer: Wind
    payee: Wind
    amount: int

    def __init__(self, payer: Wind, payee: Wind, amount: int) -> None:
        self.__dict__.update(payer=payer, payee=payee, amount=amount)  # one update: see Breakdown

    def to_dict(self) -> dict:
        return {"payer": self.payer.value, "payee": self.payee.value, "amount": self.amount}


@dataclass(frozen=True, init=False)
class Breakdown:
    """Total, what counted, what was excluded, the arrangement, payments and notes."""

    ruleset: str
    hand: str
    win: str
    total: int
    unit: str
    items: tuple[Item, ...]
    excluded: tuple[Exclusion, ...]
    arrangement: str
    payments: tuple[Payment, ...]
    notes: tuple[str, ...]
    valid: bool
    runners_up: tuple[Breakdown, ...] = ()

    def __init__(self, ruleset: str, hand: str, win: str, total: int, unit: str, items: tuple[Item, ...],
                 excluded: tuple[Exclusion, ...], arrangement: str, payments: tuple[Payment, ...],
                 notes: tuple[str, ...], valid: bool, runners_up: tuple[Breakdown, ...] = ()) -> None:
        # one update of the instance dict: a frozen dataclass's own __init__ sets each field separately (slower)
        self.__dict__.update(
            ruleset=ruleset, hand=hand, win=win, total=total, unit=unit, items=items, excluded=excluded,
            arrangement=arrangement, payments=payments, notes=notes, valid=valid, runners_up=runners_up,
        )

    def to_dict(self) -> dict:
        """JSON-ready dictionary (runners-up nested the same way)."""
        return {
            "ruleset": self.ruleset,
            "hand": self.hand,
            "win": self.win,
            "total": self.total,
            "unit": self.unit,
            "valid": self.valid,
            "items": [item.to_dict() for item in self.items],
            "excluded": [exclusion.to_dict() for exclusion in self.excluded],
            "arrangement": self.arrangement,
            "payments": [payment.to_dict() for payment in self.payments],
            "notes": list(self.notes),
            "runners_up": [runner.to_dict() for runner in self.runners_up],
        }
