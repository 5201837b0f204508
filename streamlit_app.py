"""The page a player sees: photo -> tiles -> confirmed hand -> itemised score.

The page only wires the packages together: recognition lives in `vision`,
scoring in `scoring`. Run it with `bash scripts/run-app.sh`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import streamlit as st

import scoring
from scoring.situation import FLAGS

SAMPLE_PHOTO = Path(__file__).parent / "assets" / "sample_hand.jpg"
WINDS = ("E", "S", "W", "N")
WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


@st.cache_resource
def load_recognizer():
    """Import the recogniser (and its model) once per server process."""
    from vision import recognize

    return recognize


def photo_panel() -> tuple[bytes | None, str]:
    """The photo to read: an upload, or the built-in sample. Returns (bytes, name)."""
    st.subheader("1. Photo of the winning hand")
    upload = st.file_uploader(
        "Take or choose a photo", type=["jpg", "jpeg", "png", "webp", "heic", "heif"], key="photo"
    )
    if upload is not None:
        return upload.getvalue(), upload.name
    if SAMPLE_PHOTO.is_file():
        st.caption("No photo yet: showing the built-in sample hand.")
        return SAMPLE_PHOTO.read_bytes(), SAMPLE_PHOTO.name
    return None, ""


def recognition_panel(photo: bytes | None, name: str) -> None:
    """Read the tiles; put the suggested hand into the editable field once per new photo."""
    if photo is None:
        return
    digest = hashlib.sha256(photo).hexdigest()
    if st.session_state.get("photo_digest") == digest:
        result = st.session_state.get("recognition")
    else:
        try:
            result = load_recognizer()(photo)
        except ValueError as error:
            st.error(f"Could not read {name}: {error}")
            return
        st.session_state["photo_digest"] = digest
        st.session_state["recognition"] = result
        st.session_state["hand"] = result.hand
    if result is None:
        return
    st.image(photo, caption=name, use_container_width=True)
    doubtful = [(i, t) for i, t in enumerate(result.tiles, 1) if t.doubtful or t.changed]
    st.write(f"Read {len(result.tiles)} tiles.")
    for number, tile in doubtful:
        options = ", ".join(f"{code} {p:.0%}" for code, p in tile.alternatives)
        st.warning(f"Tile {number}: read as {tile.tile}, please check ({options}).")


def hand_panel() -> tuple[str, str]:
    """The confirmed hand in notation, and the winning tile."""
    st.subheader("2. Check the tiles")
    hand = st.text_input(
        "Hand (e.g. `123m 456p 789s 11z [555z]`, exposed sets in brackets)", key="hand"
    )
    win = st.text_input("Winning tile (e.g. `9s`)", key="win")
    return hand, win


def rules_panel() -> tuple[str, dict[str, object]]:
    """The rule set and the situation of the win."""
    st.subheader("3. Rules and situation")
    ids = list(scoring.RULESETS)
    ruleset = st.selectbox(
        "Rule set",
        ids,
        key="ruleset",
        format_func=lambda rid: f"{scoring.RULESETS[rid].name}: {scoring.RULESETS[rid].description}",
    )
    seat, prevalent = st.columns(2)
    situation: dict[str, object] = {
        "seat_wind": seat.selectbox("Seat wind", WINDS, key="seat", format_func=WIND_NAMES.get),
        "prevalent_wind": prevalent.selectbox(
            "Round wind", WINDS, key="round", format_func=WIND_NAMES.get
        ),
    }
    for key, help_text in FLAGS:
        situation[key] = st.checkbox(key.replace("_", " ").capitalize(), key=key, help=help_text)
    if not situation["self_drawn"]:
        others = [w for w in WINDS if w != situation["seat_wind"]]
        situation["discarder"] = st.selectbox(
            "Who discarded the winning tile", others, key="discarder", format_func=WIND_NAMES.get
        )
    return ruleset, situation


def breakdown_panel(hand: str, win: str, ruleset: str, situation: dict[str, object]) -> None:
    """Score the hand and show every item, what was excluded, the total and the payments."""
    st.subheader("4. Score")
    if not hand.strip() or not win.strip():
        st.info("Enter the hand and the winning tile to see the score.")
        return
    try:
        breakdown = scoring.score(hand, ruleset=ruleset, win=win, **situation)
    except ValueError as error:
        st.error(f"{error}")
        return
    st.metric("Total", f"{breakdown.total} {breakdown.unit}")
    for note in breakdown.notes:
        st.warning(note)
    st.table([{"pattern": i.name, "value": i.value, "count": i.count} for i in breakdown.items])
    if breakdown.excluded:
        st.caption("Not counted")
        st.table([{"pattern": e.name, "why": e.reason} for e in breakdown.excluded])
    st.caption(f"Arrangement: {breakdown.arrangement}")
    if breakdown.payments:
        st.table(
            [{"from": WIND_NAMES[p.payer.value], "to": WIND_NAMES[p.payee.value], "amount": p.amount}
             for p in breakdown.payments]
        )


def main() -> None:
    st.set_page_config(page_title="Mahjong Lens", page_icon="🀄", layout="centered")
    st.title("Mahjong Lens")
    photo, name = photo_panel()
    recognition_panel(photo, name)
    hand, win = hand_panel()
    ruleset, situation = rules_panel()
    breakdown_panel(hand, win, ruleset, situation)


main()
