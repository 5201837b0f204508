"""Command line: ``mahjong-score "<hand>" --rules mcr --win 9s [flags]`` (also ``python -m scoring``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from scoring import RULESETS, find_ruleset, score
from scoring.breakdown import Breakdown
from scoring.situation import FLAGS, WINDS, Situation

_WIND_FLAGS = {"seat_wind": "--seat", "prevalent_wind": "--round", "discarder": "--discarder"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mahjong-score",
        description="Score a winning mahjong hand. Notation: docs/notation.md "
        "(e.g. \"123m 456p 789s 11z [777p] (5555s) 15f\").",
    )
    parser.add_argument("hand", nargs="?", help="the hand, e.g. \"123m 456p 789s 11z [777p]\"")
    parser.add_argument("--rules", default="mcr", help="rule-set id (default mcr; see --list-rules)")
    parser.add_argument("--win", help="the winning tile, one of the standing tiles, e.g. 9s")
    for dest, text in FLAGS:
        parser.add_argument("--" + dest.replace("_", "-"), dest=dest, action="store_true", help=text)
    for dest, text in WINDS:
        parser.add_argument(_WIND_FLAGS[dest], dest=dest, metavar="WIND", help=f"{text}: E, S, W or N")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule-set-specific situation keyword (repeatable)")
    parser.add_argument("--runners-up", type=int, default=0, metavar="N",
                        help="also show the N next-best arrangements")
    parser.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    parser.add_argument("--list-rules", action="store_true", help="list the rule sets and exit")
    return parser


def _option(text: str) -> tuple[str, object]:
    """``key=value`` -> (key, value) with true/false and integers converted."""
    key, separator, value = text.partition("=")
    if not separator or not key.strip():
        raise ValueError(f"--option {text!r}: write key=value")
    literals = {"true": True, "false": False}
    if value.lower() in literals:
        return key.strip(), literals[value.lower()]
    return key.strip(), int(value) if value.lstrip("-").isdigit() else value


def situation_keywords(args: argparse.Namespace) -> dict[str, object]:
    """The score() situation keywords given on the command line."""
    keywords: dict[str, object] = {dest: True for dest, _ in FLAGS if getattr(args, dest)}
    keywords |= {dest: getattr(args, dest) for dest, _ in WINDS if getattr(args, dest) is not None}
    keywords |= dict(_option(text) for text in args.option)
    return keywords


def list_rules() -> str:
    lines = []
    for ruleset in RULESETS.values():
        lines.append(f"{ruleset.id:<10} {ruleset.description}")
        lines += [f"{'':<10}   --option {key}=...  {text}" for key, text in ruleset.options.items()]
    return "\n".join(lines)


def render(breakdown: Breakdown, situation: Situation | None = None) -> str:
    """An itemised plain-text table."""
    rows = [(item.name, f"{item.value} x {item.count}", str(item.points)) for item in breakdown.items]
    name_width = max([len(row[0]) for row in rows] + [len("Total")])
    lines = [f"{breakdown.ruleset.upper()}  {breakdown.hand}  (winning tile {breakdown.win})"]
    if situation is not None:
        lines.append(f"Won {situation.describe()}")
    lines += [f"Arrangement: {breakdown.arrangement}", ""]
    lines += [f"  {name:<{name_width}}  {count:>8}  {points:>5}" for name, count, points in rows]
    lines.append("  " + "-" * (name_width + 17))
    lines.append(f"  {'Total':<{name_width}}  {'':>8}  {breakdown.total:>5} {breakdown.unit}")
    if breakdown.excluded:
        lines += ["", "Not counted:"]
        width = max(len(exclusion.name) for exclusion in breakdown.excluded)
        lines += [f"  {exclusion.name:<{width}}  {exclusion.reason}" for exclusion in breakdown.excluded]
    if breakdown.payments:
        lines += ["", "Payments:"]
        lines += [f"  {p.payer.value} pays {p.payee.value}  {p.amount:>5}" for p in breakdown.payments]
    if breakdown.notes:
        lines += ["", "Notes:"] + [f"  - {note}" for note in breakdown.notes]
    return "\n".join(lines)


def _report(breakdown: Breakdown, situation: Situation, as_json: bool) -> str:
    if as_json:
        return json.dumps(breakdown.to_dict(), indent=2, ensure_ascii=False)
    parts = [render(breakdown, situation)]
    for number, runner in enumerate(breakdown.runners_up, 1):
        parts.append(f"--- runner-up {number} ---\n{render(runner)}")
    return "\n\n".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status (2 for bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list_rules:
        print(list_rules())
        return 0
    if args.hand is None or args.win is None:
        parser.error("give the hand and --win (or --list-rules)")
    if args.runners_up < 0:
        parser.error("--runners-up must be 0 or more")
    try:
        keywords = situation_keywords(args)
        breakdown = score(args.hand, ruleset=args.rules, win=args.win, runners_up=args.runners_up, **keywords)
        situation = Situation.from_keywords(keywords, options=find_ruleset(args.rules).options)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(_report(breakdown, situation, args.json))
    return 0
