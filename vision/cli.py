"""``mahjong-read PHOTO [--json] [--overlay OUT.png]``: print the tiles read from a photo."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from PIL import Image

from scoring import check
from vision.classify import ModelError
from vision.io import ImageError, load


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mahjong-read", description="Read the mahjong tiles in a photo.")
    parser.add_argument("photo", help="a JPEG, PNG, WebP or HEIC photo of a hand")
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")
    parser.add_argument("--overlay", metavar="OUT.png", help="also write the photo with numbered boxes and labels")
    return parser


def _text(recognition) -> str:
    lines = [f"hand: {recognition.hand or '(no tiles found)'}"]
    if recognition.winning:
        lines.append(f"winning tile: {recognition.winning} (laid apart after the concealed tiles)")
    if recognition.blurred:
        lines.append(f"warning: the photo looks blurred (sharpness {recognition.sharpness:.2f}): tiles may be misread; "
                     "take it again holding the phone still")
    if recognition.hand:
        try:
            check(recognition.hand, ruleset="mcr")
        except ValueError as error:  # a tile missed, found twice or misread: what completes it, where one short
            lines.append(f"not a winning hand (MCR): {error}")
    for number, tile in enumerate(recognition.tiles, 1):
        marks = "".join(mark for mark, on in (("  changed", tile.changed), ("  doubtful", tile.doubtful),
                                              ("  not in the hand", not tile.in_hand)) if on)
        others = ", ".join(f"{code} {p:.2f}" for code, p in tile.alternatives if code != tile.tile)
        lines.append(f"{number:2d}. {tile.tile:4s} {tile.confidence:.2f}  row {tile.row} group {tile.group}"
                     f"  (also {others}){marks}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; errors go to stderr with exit status 2."""
    args = build_parser().parse_args(argv)
    from vision.overlay import draw
    from vision.pipeline import recognize

    try:
        photo = load(args.photo)
        recognition = recognize(photo)
        if args.overlay:
            Image.fromarray(draw(photo.pixels, recognition)).save(args.overlay)
    except (ImageError, ModelError) as error:
        print(f"mahjong-read: error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"mahjong-read: error: cannot write {args.overlay!r}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        print(_json(recognition) if args.json else _text(recognition))
    except BrokenPipeError:  # the reader (e.g. `head`) stopped early: nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _json(recognition) -> str:
    """The JSON contract, one tile per line."""
    data = recognition.to_dict()
    tiles = ",\n  ".join(json.dumps(tile) for tile in data.pop("tiles"))
    rest = json.dumps(data)[1:-1]
    return f'{{"tiles": [\n  {tiles}\n ],\n {rest}}}'

