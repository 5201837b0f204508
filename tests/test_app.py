"""The page, driven headless with Streamlit's AppTest."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[1] / "streamlit_app.py")


@pytest.fixture
def app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60).run()


def enter(app: AppTest, hand: str, win: str) -> AppTest:
    app.text_input(key="hand").input(hand)
    app.text_input(key="win").input(win)
    return app.run()


def test_scores_a_typed_hand_with_items_and_total(app):
    enter(app, "123m 456p 789s 11z 555z", "9s")
    app.checkbox(key="self_drawn").check().run()
    assert not app.exception
    assert [m.value for m in app.metric] == ["20 fan"]
    patterns = list(app.table[0].value["pattern"])
    assert patterns == ["Mixed Straight", "All Types", "Fully Concealed Hand", "Dragon Pung"]


@pytest.mark.parametrize(
    ("hand", "win", "message"),
    [
        ("123m 456p 789s 11z 55555z", "9s", "5 copies of 5z"),
        ("123m 456p 789s 11z 555x", "9s", "555x"),
        ("123m 456p 789s 11z 555z", "1p", "1p"),
    ],
    ids=["five-of-a-tile", "bad-token", "win-not-in-hand"],
)
def test_bad_hand_shows_a_message_and_keeps_the_input(app, hand, win, message):
    enter(app, hand, win)
    assert not app.exception
    assert any(message in e.value for e in app.error)
    assert app.text_input(key="hand").value == hand


def test_rule_set_choice_lists_every_registered_rule_set(app):
    import scoring

    names = [f"{r.name}: {r.description}" for r in scoring.RULESETS.values()]
    assert list(app.selectbox(key="ruleset").options) == names
