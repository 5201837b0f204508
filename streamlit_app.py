"""The page a player sees: photo -> tiles -> confirmed hand -> itemised score.

The page only wires the packages together: recognition lives in `vision`,
scoring in `scoring`. Run it with `bash scripts/run-app.sh`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from types import SimpleNamespace

import streamlit as st

import scoring
from scoring.hand import Hand
from scoring.situation import FLAGS
from scoring.tiles import ALL_TILES, Tile, Wind

SAMPLE_PHOTO = Path(__file__).parent / "assets" / "sample_hand.jpg"
DEFAULT_RULES = next(iter(scoring.RULESETS))  # the rule set picked until the user picks one
CLAIMED_NOTE = ("Sets in [brackets] were claimed (exposed): the photo shows them laid apart from the row of concealed "
                "tiles. Tap a set that was never claimed: the score then counts it concealed.")
WIN_FROM_PHOTO = ("Picked from the photo: the tile laid apart after the concealed ones. Pick another if that one did "
                  "not win.")
BLURRED_ADVICE = ("This photo looks blurred (the phone moved, or the focus missed), so several tiles may be "
                  "misread. Take it again holding the phone still, or check every tile below.")
NOT_A_TILE = "none"  # a fix choice: the recogniser's code for a crop that holds no tile (left out of the hand)
FACE_DOWN = "back"  # a fix choice: the recogniser's code for a tile lying face down
EVERY_CHOICE = (NOT_A_TILE, FACE_DOWN, *(tile.code for tile in ALL_TILES))  # what any tile can be fixed to (the
# two that are no face first, at the top of the list, not after 42 faces)


@st.cache_resource
def load_vision() -> SimpleNamespace:
    """Import the recogniser and load its model once per server process."""
    from vision import decode, io, overlay, pipeline

    pipeline.classifier()
    return SimpleNamespace(
        recognize=pipeline.recognize, load=io.load, draw=overlay.draw, crop=overlay.crop, hand_text=decode.hand_text,
        laid_winner=decode.laid_winner,
    )


def photo_panel() -> tuple[bytes, str]:
    """The photo to read: an upload, or the built-in sample. Returns (bytes, name)."""
    st.subheader("1. Photo of the winning hand")
    upload = st.file_uploader(
        "Take or choose a photo", type=["jpg", "jpeg", "png", "webp", "heic", "heif"], key="photo"
    )
    if upload is not None:
        return upload.getvalue(), upload.name
    st.caption("No photo yet: showing the built-in sample hand.")
    return SAMPLE_PHOTO.read_bytes(), SAMPLE_PHOTO.name


def recognition_panel(photo: bytes, name: str) -> None:
    """Read the tiles of a new photo and put the suggested hand into the hand field."""
    vision = load_vision()
    digest = hashlib.sha256(photo).hexdigest()
    if st.session_state.get("photo_digest") != digest:
        st.session_state["photo_digest"] = digest
        try:
            loaded = vision.load(photo)
            result = vision.recognize(loaded)
        except ValueError as error:
            st.session_state["recognition"] = None
            st.session_state["read_error"] = f"Could not read {name}: {str(error).rstrip('.')}."
        except Exception as error:  # a fault of the reader's, not of the photo: the page and the typed hand stay
            st.session_state["recognition"] = None
            st.session_state["read_error"] = (f"The tile reader failed on {name} ({type(error).__name__}: "
                                              f"{str(error).rstrip('.')}), a fault of this app, not of the photo.")
        else:
            beyond = [i for i, tile in enumerate(result.tiles) if not tile.in_hand]  # discards, left out
            codes = [NOT_A_TILE if i in beyond else tile.tile for i, tile in enumerate(result.tiles)]
            st.session_state.update(recognition=result, pixels=loaded.pixels, codes=codes, added=[], unclaimed=[],
                                    left_out=beyond)
            st.session_state[_leave_key()] = beyond
            if result.tiles:  # a photo with no tiles leaves the hand typed so far
                st.session_state["hand"] = result.hand
                st.session_state["win"] = st.session_state["win_from_photo"] = result.winning
    result = st.session_state.get("recognition")
    if result is None:
        st.error(st.session_state["read_error"] + " Try another photo, or type the hand below.")
        return
    if not result.tiles:
        st.error("No tiles found in this photo: retake it from above with the tiles filling the frame, or type the hand below.")
        return
    pixels = st.session_state["pixels"]
    st.image(vision.draw(pixels, result), caption=f"{name}: {len(result.tiles)} tiles", width="stretch")
    if result.blurred:
        st.warning(BLURRED_ADVICE)
    fix_panel(result, pixels)


def fix_panel(result, pixels) -> None:
    """One-tap fixes: each doubtful tile shows its crop and alternatives, and "not a tile" (a tile found
    where there is none, or found twice); any other tile can be fixed by its number; a choice rewrites
    the hand."""
    doubtful = [i for i, tile in enumerate(result.tiles) if tile.in_hand and (tile.doubtful or tile.changed)]
    crops = [load_vision().crop(pixels, result, i) for i in range(len(result.tiles))]
    beyond = [i + 1 for i, tile in enumerate(result.tiles) if not tile.in_hand]
    if beyond:
        st.info(f"Tile{'s' * (len(beyond) > 1)} {', '.join(map(str, beyond))} lie{'s' * (len(beyond) == 1)} apart "
                "beyond the hand (discards?) and are left out of it: put any back under \"Not part of the hand\" "
                "below.")
    if not doubtful:
        st.success("Every tile was read confidently. Check the hand below all the same.")
    else:
        doubtful_panel(result, crops, doubtful)
    other_tile_panel(result, crops, doubtful)


def doubtful_panel(result, crops: list, doubtful: list[int]) -> None:
    """Each doubtful tile's crop, with its alternatives and "not a tile" to pick from first, then every
    other choice (none of the alternatives may be right)."""
    st.warning(f"{len(doubtful)} tile(s) to check: pick what each tile really is.")
    columns = st.columns(min(len(doubtful), 4))
    for n, i in enumerate(doubtful):
        tile, column = result.tiles[i], columns[n % len(columns)]
        probabilities = dict(tile.alternatives)
        choices = list(dict.fromkeys([tile.tile, *probabilities, *EVERY_CHOICE]))
        column.image(crops[i], width=64)
        column.selectbox(
            f"Tile {i + 1}",
            choices,
            index=choices.index(st.session_state["codes"][i]),
            key=_fix_key(i),
            format_func=lambda code, p=probabilities: (
                f"{_choice_name(code)}: {p[code]:.0%}" if code in p else _choice_name(code)),
            on_change=_apply_fix,
            args=(i,),
        )


def other_tile_panel(result, crops: list, doubtful: list[int]) -> None:
    """Every tile numbered as on the photo: any tile not in doubt can be fixed by its number to any tile,
    a face-down tile or "not a tile" (a tile read surely can still be read wrongly), and tiles that are
    not part of the hand (a neighbour's discards) are left out together."""
    codes = st.session_state["codes"]
    with st.expander("Another tile is wrong, or not part of the hand? Fix it by its number on the photo"):
        # every tile numbered and named: legible on a phone, where the photo's own labels are small
        st.image(crops, width=44, caption=[f"{i + 1} {'no tile' if code == NOT_A_TILE else code}"
                                           for i, code in enumerate(codes)])
        others = [i for i in range(len(crops)) if i not in doubtful]
        if others:
            index = st.selectbox("Tile number", others, key=f"other_{st.session_state['photo_digest'][:12]}",
                                 format_func=lambda i: f"{i + 1}: {_choice_name(codes[i])}")
            left, right = st.columns([1, 3])
            left.image(crops[index], width=64)
            right.selectbox(f"Tile {index + 1} is", EVERY_CHOICE, index=EVERY_CHOICE.index(codes[index]),
                            key=_fix_key(index), format_func=_choice_name, on_change=_apply_fix, args=(index,))
        st.multiselect("Not part of the hand: leave out tiles", range(len(crops)), key=_leave_key(),
                       format_func=lambda i: f"{i + 1}: {_choice_name(result.tiles[i].tile)}",
                       placeholder="Tile numbers, e.g. the discards in the photo", on_change=_leave_out)


def _choice_name(code: str) -> str:
    """A fix choice as the page shows it: `7z (Red)`, `face down`, `not a tile`."""
    if code == NOT_A_TILE:
        return "not a tile"
    if code == FACE_DOWN:
        return "face down"
    return f"{code} ({Tile.parse(code).name})"


def _fix_key(index: int) -> str:
    """The widget key of tile ``index``'s fix, unique to the photo."""
    return f"fix_{st.session_state['photo_digest'][:12]}_{index}"


def _leave_key() -> str:
    """The widget key of the tiles left out, unique to the photo."""
    return f"leave_{st.session_state['photo_digest'][:12]}"


def _apply_fix(index: int) -> None:
    """Callback: replace tile ``index`` with the choice picked for it (a tile left out and now read as a
    tile is no longer left out) and rebuild the hand."""
    code = st.session_state["codes"][index] = st.session_state[_fix_key(index)]
    if code != NOT_A_TILE and index in st.session_state["left_out"]:
        st.session_state["left_out"].remove(index)
        st.session_state[_leave_key()] = list(st.session_state["left_out"])
    _rebuild_hand()


def _leave_out() -> None:
    """Callback: the tiles newly picked to leave out read as "not a tile", those unpicked read as
    recognised again; then the hand is rebuilt."""
    picked, before = st.session_state[_leave_key()], st.session_state["left_out"]
    tiles = st.session_state["recognition"].tiles
    for index in set(picked) ^ set(before):
        st.session_state["codes"][index] = NOT_A_TILE if index in picked else tiles[index].tile
        st.session_state.pop(_fix_key(index), None)  # its fix list shows the new code
    st.session_state["left_out"] = list(picked)
    _rebuild_hand()


def _rebuild_hand() -> None:
    """Rebuild the suggested hand string from the tiles as fixed (with the tiles added, and the sets
    made concealed still so), and the winning tile laid apart as fixed, unless another was picked."""
    codes = st.session_state["codes"]
    tiles = st.session_state["recognition"].tiles
    runs, vision = [(t.row, t.group) for t in tiles], load_vision()
    hand = vision.hand_text(codes, runs, [t.rotated for t in tiles])
    winning = vision.laid_winner(codes, runs)  # the winning tile laid apart, as fixed
    if st.session_state.get("win") == st.session_state.get("win_from_photo"):  # not picked by hand since
        st.session_state["win"] = winning
    st.session_state["win_from_photo"] = winning
    groups = [*hand.split(), *st.session_state.get("added", [])]
    for group in st.session_state.get("unclaimed", []):
        _unbracket(groups, group)
    st.session_state["hand"] = " ".join(groups)


def _add_tile(code: str) -> None:
    """Callback: add a tile the photo's reading missed to the hand, as a standing tile."""
    st.session_state.setdefault("added", []).append(code)
    st.session_state["hand"] = f"{st.session_state.get('hand', '')} {code}".strip()


def standing_tiles(hand: str) -> tuple[list[str], str | None]:
    """The distinct standing tiles of a hand string (to pick the winning tile from), or the parse error."""
    if not hand.strip():
        return [], None
    try:
        parsed = Hand.parse(hand, win="1m")
    except ValueError as error:
        return [], f"{error}"
    return list(dict.fromkeys(tile.code for tile in parsed.standing)), None


def hand_panel() -> tuple[str, str | None, bool]:
    """The confirmed hand in notation, the winning tile, and whether the hand wins (`complete_panel`,
    under the rule set picked so far: its panel comes below)."""
    st.subheader("2. Check the tiles")
    hand = st.text_input(
        "Hand: bare tiles stand concealed, [exposed sets], (concealed kongs), e.g. `123m 456p 11z [555z]`",
        key="hand",
    )
    claimed_panel(hand)
    tiles, error = standing_tiles(hand)
    if error:
        st.error(f"{error}. Correct the hand above (notation: `1m`-`9m`, `1p`-`9p`, `1s`-`9s`, `1z`-`7z`, `1f`-`8f`).")
    wins = bool(hand.strip()) and not error and complete_panel(hand, st.session_state.get("ruleset", DEFAULT_RULES))
    win = st.selectbox("Winning tile", tiles, index=None, key="win", placeholder="Tap the winning tile")
    if win is not None and win == st.session_state.get("win_from_photo"):
        st.caption(WIN_FROM_PHOTO)
    return hand, win, wins


def claimed_panel(hand: str) -> None:
    """Each claimed set of the hand ([...]) as a button that makes it concealed (the photo cannot tell a
    set laid apart for show from one claimed)."""
    claimed = [group for group in hand.split() if group.startswith("[") and group.endswith("]")]
    if not claimed:
        return
    st.caption(CLAIMED_NOTE)
    columns = st.columns(min(len(claimed), 4))
    for n, group in enumerate(claimed):
        columns[n % len(columns)].button(f"Not claimed: {group[1:-1]}", key=f"unclaim_{n}_{group}",
                                         on_click=_unclaim, args=(group,))


def _unclaim(group: str) -> None:
    """Callback: the claimed set ``group`` ([...]) of the hand field stands concealed instead."""
    groups = st.session_state.get("hand", "").split()
    if _unbracket(groups, group):
        st.session_state["hand"] = " ".join(groups)
        st.session_state.setdefault("unclaimed", []).append(group)


def _unbracket(groups: list[str], group: str) -> bool:
    """Stand the first claimed set ``group`` ([...]) among the hand's ``groups`` concealed, in place;
    whether it was there."""
    if group not in groups:
        return False
    groups[groups.index(group)] = group[1:-1]
    return True


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
        "seat_wind": seat.selectbox("Seat wind", list(Wind), key="seat", format_func=_wind_name),
        "prevalent_wind": prevalent.selectbox("Round wind", list(Wind), key="round", format_func=_wind_name),
    }
    for key, help_text in FLAGS:
        situation[key] = st.checkbox(key.replace("_", " ").capitalize(), key=key, help=help_text)
    if not situation["self_drawn"]:
        others = [w for w in Wind if w is not situation["seat_wind"]]
        situation["discarder"] = st.selectbox(
            "Who discarded the winning tile", others, key="discarder", format_func=_wind_name
        )
    return ruleset, situation


def _wind_name(wind: Wind) -> str:
    return wind.name.title()


def breakdown_panel(hand: str, win: str, wins: bool, ruleset: str, situation: dict[str, object]) -> None:
    """Score the hand and show every item, what was excluded, the total and the payments."""
    st.subheader("4. Score")
    if not hand.strip():
        st.info("Enter the hand and pick the winning tile to see the score.")
        return
    if not wins:
        st.info("Complete the hand above to see the score.")
        return
    if not win:
        st.info("Pick the winning tile to see the score.")
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
            [{"from": _wind_name(p.payer), "to": _wind_name(p.payee), "amount": p.amount}
             for p in breakdown.payments]
        )


def complete_panel(hand: str, ruleset: str) -> bool:
    """Whether the hand is a winning hand (`scoring.check`). If not, say why; one tile short, offer each
    tile that completes it with one tap (the photo's reading may have missed it)."""
    try:
        scoring.check(hand, ruleset=ruleset)
    except (scoring.IncompleteHandError, scoring.WrongTileCountError) as error:
        waiting = sorted(getattr(error, "waiting", ()))
        advice = ("A tile may have been missed in the photo: add it with a tap, or correct the hand above." if waiting
                  else "Check the tiles marked in the photo (pick \"not a tile\" for one found where there is none), "
                  "or correct the hand above.")
        st.error(f"{error}. {advice}")
        columns = st.columns(min(len(waiting), 6)) if waiting else []
        for n, tile in enumerate(waiting):
            columns[n % len(columns)].button(f"Add {tile}", key=f"add_{tile}", on_click=_add_tile, args=(tile.code,))
        return False
    except ValueError:  # bad notation or too many copies: the hand field already says what is wrong
        return False
    return True


def main() -> None:
    st.set_page_config(page_title="Mahjong Lens", page_icon="🀄", layout="centered")
    st.title("Mahjong Lens")
    photo, name = photo_panel()
    recognition_panel(photo, name)
    hand, win, wins = hand_panel()
    ruleset, situation = rules_panel()
    breakdown_panel(hand, win, wins, ruleset, situation)


if __name__ == "__main__":  # as `streamlit run` runs it; importing the page (tests) only defines its panels
    main()
