"""The page, driven headless with Streamlit's AppTest."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scoring.tiles import Wind

APP = str(Path(__file__).resolve().parents[1] / "streamlit_app.py")


@pytest.fixture
def app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60).run()


def enter(app: AppTest, hand: str, win: str | None) -> AppTest:
    app.text_input(key="hand").input(hand).run()
    if win is not None:
        app.selectbox(key="win").select(win)
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
        ("123m 456p 789s 11z 55555z", None, "5 copies of 5z"),
        ("123m 456p 789s 11z 555x", None, "555x"),
        ("123m 456p 789s 11z 55z", "1z", "13 tiles"),
    ],
    ids=["five-of-a-tile", "bad-token", "wrong-count"],
)
def test_bad_hand_shows_a_message_and_keeps_the_input(app, hand, win, message):
    enter(app, hand, win)
    assert not app.exception
    assert any(message in e.value for e in app.error)
    assert app.text_input(key="hand").value == hand


def test_a_claimed_set_is_made_concealed_with_one_tap(app):
    enter(app, "123m 456p 11z [789s] [555z]", None)
    assert any("never claimed" in c.value for c in app.caption)
    assert [b.label for b in app.button if b.key.startswith("unclaim_")] == ["Not claimed: 789s", "Not claimed: 555z"]
    next(b for b in app.button if b.label == "Not claimed: 789s").click().run()
    assert app.text_input(key="hand").value == "123m 456p 11z 789s [555z]"
    assert [b.label for b in app.button if b.key.startswith("unclaim_")] == ["Not claimed: 555z"]
    enter(app, "123m 456p 789s 11z 555z", None)
    assert not any("never claimed" in c.value for c in app.caption) and not app.button


def test_a_hand_one_tile_short_offers_each_tile_that_completes_it(app):
    enter(app, "123m 456p 789s 11z 55z", None)
    assert any("one short of 14" in e.value and "add it with a tap" in e.value for e in app.error)
    assert [b.label for b in app.button if b.key.startswith("add_")] == ["Add 1z", "Add 5z"]
    assert not app.metric
    app.button(key="add_5z").click().run()
    assert app.text_input(key="hand").value == "123m 456p 789s 11z 55z 5z"
    assert not app.error and not app.button
    app.selectbox(key="win").select("5z").run()
    assert [m.value for m in app.metric] == ["18 fan"]


def test_a_hand_of_the_right_count_that_does_not_win_names_no_tile_to_add(app):
    enter(app, "123m 456p 78m 11z 555z 9s", "9s")
    assert any("a tile is misread" in e.value and "not a tile" in e.value for e in app.error)
    assert not app.button and not app.metric


def test_rule_set_choice_lists_every_registered_rule_set(app):
    import scoring

    names = [f"{r.name}: {r.description}" for r in scoring.RULESETS.values()]
    assert list(app.selectbox(key="ruleset").options) == names


def test_sample_photo_is_read_into_the_hand_field_and_scores(app):
    assert not app.exception
    assert app.text_input(key="hand").value == "77m 123456789p 234s"
    app.selectbox(key="win").select("7m").run()
    assert "Pure Straight" in list(app.table[0].value["pattern"])


def test_picking_an_alternative_for_a_doubtful_tile_rewrites_the_hand(app):
    from dataclasses import replace

    from vision.decode import hand_text

    reading = app.session_state["recognition"]
    index = 5
    doubtful = replace(reading.tiles[index], doubtful=True)
    app.session_state["recognition"] = replace(reading, tiles=(*reading.tiles[:index], doubtful, *reading.tiles[index + 1:]))
    app.run()
    (box,) = [box for box in app.selectbox if box.key.startswith("fix_") and box.key.endswith(f"_{index}")]
    assert box.value == doubtful.tile
    other = next(code for code, _ in doubtful.alternatives if code != box.value)
    codes = list(app.session_state["codes"])
    box.select(other).run()
    codes[index] = other
    tiles = app.session_state["recognition"].tiles
    runs, rotated = [(t.row, t.group) for t in tiles], [t.rotated for t in tiles]
    assert app.text_input(key="hand").value == hand_text(codes, runs, rotated)


def test_not_a_tile_drops_a_doubtful_tile_and_an_added_tile_stays(app):
    from dataclasses import replace

    from vision.decode import hand_text

    reading = app.session_state["recognition"]
    index = 0
    doubtful = replace(reading.tiles[index], doubtful=True)
    app.session_state["recognition"] = replace(reading, tiles=(doubtful, *reading.tiles[1:]))
    app.run()
    (box,) = [box for box in app.selectbox if box.key.startswith("fix_") and box.key.endswith(f"_{index}")]
    alternatives = len(dict.fromkeys([doubtful.tile, *(code for code, _ in doubtful.alternatives)]))
    assert box.options[alternatives] == "not a tile"  # then every other choice
    assert len(box.options) == 44 and box.options[alternatives + 1] == "face down"
    box.select("none").run()
    assert any("one short of 14" in e.value for e in app.error)
    app.button(key=f"add_{doubtful.tile}").click().run()
    box.select(doubtful.tile).run()
    codes = list(app.session_state["codes"])
    tiles = app.session_state["recognition"].tiles
    expected = hand_text(codes, [(t.row, t.group) for t in tiles], [t.rotated for t in tiles]) + f" {doubtful.tile}"
    assert app.text_input(key="hand").value == expected


def test_discard_win_lists_who_pays_whom(app):
    enter(app, "123m 456p 789s 11z 555z", "9s")
    app.selectbox(key="discarder").select(Wind.WEST).run()
    payments = app.table[-1].value
    assert list(payments["from"]) == ["South", "West", "North"]
    assert set(payments["to"]) == {"East"}
    assert list(payments["amount"]) == [8, 26, 8]


def test_a_set_made_concealed_stays_so_after_a_tile_is_fixed(app):
    from dataclasses import replace

    reading = app.session_state["recognition"]  # the sample: 123p 456p 789p 234s 77m, laid set by set
    groups = [1] * 3 + [0] * 11  # now 123p lies apart, claimed, the other eleven stand in a row
    tiles = tuple(replace(tile, group=group, doubtful=index == 0)
                  for index, (tile, group) in enumerate(zip(reading.tiles, groups)))
    app.session_state["recognition"] = replace(reading, tiles=tiles)
    app.run()
    (box,) = [box for box in app.selectbox if box.key.startswith("fix_") and box.key.endswith("_0")]
    other = next(code for code, _ in tiles[0].alternatives if code != tiles[0].tile)
    box.select(other).run()
    box.select(tiles[0].tile).run()  # the hand rebuilt from the tiles
    assert app.text_input(key="hand").value == "77m 456789p 234s [123p]"
    app.button(key="unclaim_0_[123p]").click().run()
    assert app.text_input(key="hand").value == "77m 456789p 234s 123p"
    box.select(other).run()
    box.select(tiles[0].tile).run()
    assert app.text_input(key="hand").value == "77m 456789p 234s 123p"


def test_a_tile_read_surely_is_fixed_by_its_number_on_the_photo(app):
    from vision.decode import hand_text

    assert any("read confidently" in s.value for s in app.success)  # the sample: no tile in doubt
    assert _captions(app)[1:15] == [f"{n} {code}" for n, code in enumerate(app.session_state["codes"], 1)]
    (number,) = [box for box in app.selectbox if box.key.startswith("other_")]
    assert number.options[6].startswith("7: 7p")
    number.select(6).run()
    (box,) = [box for box in app.selectbox if box.key.startswith("fix_")]
    assert box.key.endswith("_6") and box.value == "7p"
    assert box.options[:3] == ["not a tile", "face down", "1m (1 Characters)"] and "7z (Red)" in box.options
    box.select("6p").run()
    tiles = app.session_state["recognition"].tiles
    codes = [tile.tile for tile in tiles]
    codes[6] = "6p"
    assert app.text_input(key="hand").value == hand_text(codes, [(t.row, t.group) for t in tiles],
                                                         [t.rotated for t in tiles]) == "77m 123456689p 234s"
    (number,) = [box for box in app.selectbox if box.key.startswith("other_")]
    number.select(0).run()
    (number,) = [box for box in app.selectbox if box.key.startswith("other_")]
    number.select(6).run()  # back to tile 7: it shows the fix
    assert [box.value for box in app.selectbox if box.key.startswith("fix_")] == ["6p"]
    assert "7 6p" in _captions(app)  # the strip of numbered tiles shows the fix


def test_tiles_not_part_of_the_hand_are_left_out_together_and_come_back(app):
    from vision.decode import hand_text

    tiles = app.session_state["recognition"].tiles  # the sample: 123p 456p 789p 234s 77m
    runs, rotated = [(t.row, t.group) for t in tiles], [t.rotated for t in tiles]
    (leave,) = [box for box in app.multiselect if box.key.startswith("leave_")]
    assert leave.options[12] == "13: 7m (7 Characters)" and leave.value == []
    leave.select(12).select(13).run()
    assert app.text_input(key="hand").value == "123456789p 234s"
    assert _captions(app)[13:15] == ["13 no tile", "14 no tile"]  # the strip of numbered tiles shows it
    (leave,) = [box for box in app.multiselect if box.key.startswith("leave_")]
    leave.unselect(13).run()
    codes = [tile.tile for tile in tiles]
    codes[12] = "none"
    assert app.text_input(key="hand").value == hand_text(codes, runs, rotated) == "7m 123456789p 234s"
    (number,) = [box for box in app.selectbox if box.key.startswith("other_")]
    number.select(12).run()
    (box,) = [box for box in app.selectbox if box.key.startswith("fix_")]
    assert box.value == "none"  # its fix list shows it left out
    box.select("7m").run()  # read as a tile again: no longer left out
    assert app.text_input(key="hand").value == "77m 123456789p 234s"
    assert [box.value for box in app.multiselect if box.key.startswith("leave_")] == [[]]


def _captions(app: AppTest) -> list[str]:
    """The captions of the page's images in order (the photo, the strip of numbered tiles, crops)."""
    return [image.caption for element in app.get("image") for image in element.proto.imgs]


def _page_reading(root: str, photo: bytes, name: str, typed: str) -> None:
    """The page's photo panels reading the upload `photo`, the hand field holding `typed` (run by
    AppTest.from_function, which runs this function's source alone)."""
    import sys

    import streamlit as st

    sys.path.insert(0, root)
    import streamlit_app

    st.session_state.setdefault("hand", typed)
    streamlit_app.recognition_panel(photo, name)
    st.text_input("Hand", key="hand")


def _plain_felt() -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (800, 600), (30, 110, 60)).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("photo, message", [
    (b"not an image", "Could not read bad.jpg: '12-byte upload' is not an image this app can read: send a JPEG, "
                      "PNG, WebP or HEIC photo. Try another photo, or type the hand below."),
    (_plain_felt(), "No tiles found in this photo: retake it from above with the tiles filling the frame, or type "
                    "the hand below."),
], ids=["not-an-image", "no-tiles"])
def test_an_unreadable_or_empty_photo_says_why_and_keeps_the_typed_hand(photo, message):
    typed = "123m 456p 789s 11z 555z"
    app = AppTest.from_function(_page_reading, args=(str(Path(APP).parent), photo, "bad.jpg", typed),
                                default_timeout=60).run()
    assert not app.exception
    assert [error.value for error in app.error] == [message]
    assert app.text_input(key="hand").value == typed


def _page_reading_with_a_failing_reader(root: str, typed: str) -> None:
    """The page's photo panel where the reader itself fails (a bug, not a bad photo), the hand field
    holding `typed` (run by AppTest.from_function)."""
    import sys

    import streamlit as st

    sys.path.insert(0, root)
    import streamlit_app

    vision = streamlit_app.load_vision()
    read = vision.recognize

    def failing(photo):
        raise RuntimeError("resize failed")

    st.session_state.setdefault("hand", typed)
    vision.recognize = failing
    try:
        streamlit_app.recognition_panel(streamlit_app.SAMPLE_PHOTO.read_bytes(), "hand.jpg")
    finally:
        vision.recognize = read
    st.text_input("Hand", key="hand")


def test_a_reader_that_fails_says_so_and_keeps_the_typed_hand():
    typed = "123m 456p 789s 11z 555z"
    app = AppTest.from_function(_page_reading_with_a_failing_reader, args=(str(Path(APP).parent), typed),
                                default_timeout=60).run()
    assert not app.exception
    assert [error.value for error in app.error] == [
        "The tile reader failed on hand.jpg (RuntimeError: resize failed), a fault of this app, not of the photo. "
        "Try another photo, or type the hand below."]
    assert app.text_input(key="hand").value == typed


def _jpeg(pixels) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="JPEG", quality=92)
    return buffer.getvalue()


def test_a_blurred_photo_asks_for_another_and_a_sharp_one_does_not():
    import cv2
    import numpy as np
    from PIL import Image

    from streamlit_app import BLURRED_ADVICE

    pixels = np.asarray(Image.open(Path(APP).parent / "tests" / "data" / "row_green.jpg").convert("RGB"))
    shaken = cv2.filter2D(pixels, -1, np.full((1, 7), 1 / 7, np.float32))  # the camera moved 7 pixels sideways
    warnings = {}
    for name, photo in (("sharp", pixels), ("shaken", shaken)):
        app = AppTest.from_function(_page_reading, args=(str(Path(APP).parent), _jpeg(photo), f"{name}.jpg", ""),
                                    default_timeout=60).run()
        assert not app.exception and app.text_input(key="hand").value  # read either way
        warnings[name] = [warning.value for warning in app.warning]
    assert BLURRED_ADVICE not in warnings["sharp"] and BLURRED_ADVICE in warnings["shaken"]


def test_discards_beyond_the_hand_are_left_out_of_it_and_can_be_put_back(hand_with_discards):
    app = AppTest.from_function(_page_reading, args=(str(Path(APP).parent), _jpeg(hand_with_discards), "table.jpg", ""),
                                default_timeout=60).run()
    assert not app.exception and app.text_input(key="hand").value == "123m 456p 789s 11155z"
    assert [info.value for info in app.info] == [
        'Tiles 1, 2, 3, 4, 5 lie apart beyond the hand (discards?) and are left out of it: put any back under '
        '"Not part of the hand" below.']
    (leave,) = [box for box in app.multiselect if box.key.startswith("leave_")]
    assert leave.value == [0, 1, 2, 3, 4]
    leave.unselect(4).run()  # the 7m was the winning tile after all
    assert app.text_input(key="hand").value == "1237m 456p 789s 11155z"


def _page_scoring(root: str, photo: bytes, name: str) -> None:
    """The whole page reading the upload `photo` (run by AppTest.from_function)."""
    import sys

    sys.path.insert(0, root)
    import streamlit_app

    streamlit_app.recognition_panel(photo, name)
    hand, win, wins = streamlit_app.hand_panel()
    ruleset, situation = streamlit_app.rules_panel()
    streamlit_app.breakdown_panel(hand, win, wins, ruleset, situation)


def test_the_winning_tile_laid_apart_is_picked_and_follows_a_fix_until_another_is_picked():
    from streamlit_app import WIN_FROM_PHOTO

    photo = (Path(APP).parent / "tests" / "data" / "winner_apart.jpg").read_bytes()
    app = AppTest.from_function(_page_scoring, args=(str(Path(APP).parent), photo, "winner.jpg"),
                                default_timeout=60).run()
    assert not app.exception and app.text_input(key="hand").value == "123m 456p 789s 11155z"
    assert app.selectbox(key="win").value == "1m" and WIN_FROM_PHOTO in [caption.value for caption in app.caption]
    assert len(app.metric) == 1  # scored at once
    (number,) = [box for box in app.selectbox if box.key.startswith("other_")]
    number.select(13).run()  # the tile laid apart was misread: it is a 4m
    (box,) = [box for box in app.selectbox if box.key.startswith("fix_")]
    box.select("4m").run()
    assert app.text_input(key="hand").value == "234m 456p 789s 11155z" and app.selectbox(key="win").value == "4m"
    app.selectbox(key="win").select("2m").run()  # no: the 2m won
    assert WIN_FROM_PHOTO not in [caption.value for caption in app.caption]
    (box,) = [box for box in app.selectbox if box.key.startswith("fix_")]
    box.select("1m").run()
    assert app.selectbox(key="win").value == "2m" and not app.exception  # a winning tile picked stays picked
