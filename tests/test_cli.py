"""The mahjong-score command line."""

import json
import re
import subprocess
import sys

import pytest

from scoring.breakdown import Breakdown, Exclusion, Item, Payment
from scoring.cli import main, render
from scoring.tiles import Wind

HAND = "123m 456p 789s 11z [777p]"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_plain_table(capsys):
    status, out, err = run(capsys, HAND, "--rules", "mcr", "--win", "1z", "--discarder", "S")
    assert status == 0 and err == ""
    assert "Arrangement: 123m 456p 789s [777p] 11z" in out
    assert "Won on a discard from S; seat E, round E" in out
    assert "Total" in out and "fan" in out and "S pays E" in out


def test_json_output_is_the_breakdown(capsys):
    status, out, _ = run(capsys, HAND, "--win", "1z", "--json")
    data = json.loads(out)
    assert status == 0 and data["ruleset"] == "mcr" and data["win"] == "1z"
    assert data["total"] == sum(item["points"] for item in data["items"])
    assert data["runners_up"] == []


def test_flags_reach_the_situation(capsys, monkeypatch):
    seen = {}

    def fake_score(hand, *, ruleset, win, runners_up=0, **situation):
        seen.update(situation, hand=hand, ruleset=ruleset, win=win, runners_up=runners_up)
        raise ValueError("stop here")

    monkeypatch.setattr("scoring.cli.score", fake_score)
    status, _, err = run(capsys, HAND, "--win", "1z", "--rules", "MCR", "--self-drawn", "--seat", "S",
                         "--round", "w", "--last-tile", "--kong-replacement", "--fourth-tile",
                         "--option", "limit=true", "--option", "tables=3", "--option", "name=x=y")
    assert status == 2 and err == "error: stop here\n"
    assert seen == {
        "hand": HAND, "ruleset": "MCR", "win": "1z", "runners_up": 0, "self_drawn": True, "seat_wind": "S",
        "prevalent_wind": "w", "last_tile": True, "kong_replacement": True, "fourth_tile": True,
        "limit": True, "tables": 3, "name": "x=y",
    }


@pytest.mark.parametrize(
    "argv, message",
    [
        (["123m 456p 789s 11z", "--win", "1z"], "has 11 tiles"),
        (["123m 456p 789s 11z 55z", "--win", "1z"], "one short of 14; it waits on 1z 5z"),
        (["[235m] 456p 789s 11z 555z", "--win", "1z"], r"'\[235m\]' is not a set"),
        ([HAND, "--win", "9m"], "9m is not among the concealed standing tiles"),
        ([HAND, "--win", "1z", "--rules", "riichi"], "valid ids are"),
        ([HAND, "--win", "1z", "--seat", "Q"], "unknown wind 'Q'"),
        ([HAND, "--win", "1z", "--option", "oops"], "write key=value"),
        ([HAND, "--win", "1z", "--option", "oops=1"], "oops"),
    ],
    ids=["count", "one-short", "not-a-set", "win", "rules", "wind", "option-form", "option-name"],
)
def test_errors_exit_2_with_a_message_and_no_traceback(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith("error: ") and "Traceback" not in err
    assert re.search(message, err)


@pytest.mark.parametrize(
    "argv", [[], [HAND], ["--runners-up", "x", HAND, "--win", "1z"], [HAND, "--win", "1z", "--runners-up", "-1"]],
    ids=["nothing", "no-win", "bad-n", "negative-n"],
)
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_list_rules(capsys):
    status, out, _ = run(capsys, "--list-rules")
    assert status == 0 and out.startswith("mcr ")


def test_runners_up_are_limited(capsys):
    status, out, _ = run(capsys, "11223344556677m", "--win", "1m", "--runners-up", "1", "--json")
    data = json.loads(out)
    assert status == 0 and [runner["total"] for runner in data["runners_up"]] == [31]


def test_render_layout():
    breakdown = Breakdown(
        ruleset="toy", hand="123m", win="1m", total=10, unit="points",
        items=(Item("Long Pattern Name", 4, 2), Item("Short", 2)),
        excluded=(Exclusion("Hidden", "implied by Short"),), arrangement="123m",
        payments=(Payment(Wind.SOUTH, Wind.EAST, 10),), notes=("a note",), valid=True,
    )
    assert render(breakdown).splitlines() == [
        "TOY  123m  (winning tile 1m)",
        "Arrangement: 123m",
        "",
        "  Long Pattern Name     4 x 2      8",
        "  Short                 2 x 1      2",
        "  ----------------------------------",
        "  Total                           10 points",
        "",
        "Not counted:",
        "  Hidden  implied by Short",
        "",
        "Payments:",
        "  S pays E     10",
        "",
        "Notes:",
        "  - a note",
    ]


def test_python_dash_m_scoring_runs():
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "\U0001F007\U0001F008\U0001F009 456p 789s 11z [777p]", "--win", "1z"],
        capture_output=True, text=True, encoding="utf-8", check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "123m 456p 789s 11z [777p]" in done.stdout


def test_python_dash_m_scoring_bad_input_exit_2():
    done = subprocess.run([sys.executable, "-m", "scoring", "5q", "--win", "1z"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "unknown token" in done.stderr and "Traceback" not in done.stderr
