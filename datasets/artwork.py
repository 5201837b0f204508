"""Tile artwork sources for synthetic training data (installed, never committed).

`models/install_artwork.sh` installs them (Debian packages, two .deb files
unpacked into the cache directory, one PyPI package). `load_faces()` turns the
installed art into per-class RGBA faces, cached as PNGs under
`cache_dir() / "faces"`; importing this module installs nothing. Everything
except the FluffyStuff faces (CC0) and the fonts (OFL, Symbola's free
licence) is GPL-2+: nothing rendered from it may be committed.
`python -m datasets.artwork --sheet OUT.png` lists the sources and writes a
contact sheet (one row per source, one column per class) for checking labels.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Mapping

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.classify import CLASSES

FACE_CLASSES = CLASSES[:42]
KMAHJONGG_DIR = Path("/usr/share/kmahjongglib/tilesets")
FONTS = (Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"),
         Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"))
HELD_OUT_SOURCES = frozenset({"kmahjongg-traditional"})  # reserved for the evaluation scenes
INK_ALPHA = 24


def cache_dir() -> Path:
    """Where artwork and rendered data live: $MAHJONG_LENS_CACHE or ~/.cache/mahjong-lens."""
    return Path(os.environ.get("MAHJONG_LENS_CACHE", Path.home() / ".cache" / "mahjong-lens"))


@dataclass(frozen=True)
class Face:
    """One class's artwork from one source: RGBA, with its own tile body or without."""

    source: str
    code: str
    image: np.ndarray
    has_body: bool

    def __repr__(self) -> str:
        return (f"Face(source={self.source!r}, code={self.code!r}, shape={self.image.shape}, "
                f"has_body={self.has_body})")


def _codes(suit: str, numbers: str) -> list[str]:
    return [f"{n}{suit}" for n in numbers]


def _rgba(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGBA"))


def _ink_box(rgba: np.ndarray) -> np.ndarray:
    """The bounding box of the visible pixels (empty when there are none)."""
    ys, xs = np.nonzero(rgba[..., 3] > INK_ALPHA)
    if len(ys) == 0:
        return rgba[:0, :0]
    return rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


# ---------------------------------------------------------------- sheets cut on a grid

def _layout(rows: list[list[str]]) -> dict[str, tuple[int, int]]:
    return {code: (r, c) for r, row in enumerate(rows) for c, code in enumerate(row) if code}


XMJ_REAL = _layout([_codes("p", "123456789"), _codes("s", "123456789"), _codes("m", "123456789"),
                    _codes("f", "5678") + _codes("z", "4213"), _codes("f", "1234") + _codes("z", "657")])
XMJ_DOROTHY = _layout([_codes("p", "123456789") + _codes("z", "4321") + _codes("z", "76") + _codes("m", "123456"),
                       _codes("m", "789") + _codes("s", "123456789") + _codes("f", "5678") + ["5z"]
                       + _codes("f", "4213")])
GNOME_COLUMNS = (_codes("p", "123456789") + _codes("z", "432176") + _codes("m", "123456789")
                 + _codes("s", "123456789") + _codes("f", "2314") + ["5z"] + _codes("f", "5678"))
# postmodern: seasons (one weather picture, numbered) before its white dragon (a GNOME logo: skipped),
# then the flowers (one flower picture, numbered)
POSTMODERN_COLUMNS = GNOME_COLUMNS[:33] + _codes("f", "5678") + [""] + _codes("f", "1234")


@dataclass(frozen=True)
class Sheet:
    """A tile sheet image cut into cells: (row, col) per class, cell size (h, w), inset fractions."""

    path: str
    layout: Mapping[str, tuple[int, int]]
    cell: tuple[float, float]
    inset: tuple[float, float, float, float]  # top, bottom, left, right
    first_row: int = 0
    zoom: float = 1.0  # an SVG sheet is rendered at this zoom (cell sizes are in rendered pixels)

    def __call__(self) -> dict[str, np.ndarray]:
        path = cache_dir() / self.path
        sheet = _render_svg(path, self.zoom) if path.suffix == ".svg" else _rgba(path)
        (ch, cw), (top, bottom, left, right) = self.cell, self.inset
        out = {}
        for code, (row, col) in self.layout.items():
            y0, x0 = (row + self.first_row) * ch, col * cw
            out[code] = sheet[int(round(y0 + top * ch)):int(round(y0 + (1 - bottom) * ch)),
                              int(round(x0 + left * cw)):int(round(x0 + (1 - right) * cw))].copy()
        return out


XMJ = "xmahjongg/usr/share/games/xmahjongg/tiles/"
GNOME = "gnome/usr/share/gnome-mahjongg/themes/smooth.png"
POSTMODERN = "gnome/usr/share/gnome-mahjongg/themes/postmodern.svg"
POSTMODERN_INSET = (0.02, 0.15, 0.19, 0.03)
GNOME_INSET = (0.05, 0.16, 0.16, 0.05)
DOROTHY_INSET = (0.02, 0.12, 0.1, 0.03)


# ---------------------------------------------------------------- KMahjongg SVG

KMAHJONGG_IDS = dict(
    [(f"CHARACTER_{n}", f"{n}m") for n in range(1, 10)] + [(f"ROD_{n}", f"{n}p") for n in range(1, 10)]
    + [(f"BAMBOO_{n}", f"{n}s") for n in range(1, 10)]
    + list(zip(("WIND_3", "WIND_2", "WIND_4", "WIND_1", "DRAGON_1", "DRAGON_2", "DRAGON_3"), _codes("z", "1234567")))
    + [(f"FLOWER_{n}", f"{n}f") for n in range(1, 5)] + [(f"SEASON_{n}", f"{n + 4}f") for n in range(1, 5)])


def _render_svg(svg: Path, zoom: float, element: str | None = None) -> np.ndarray:
    """An SVG or SVGZ file (or one element of it) as RGBA (rsvg-convert)."""
    with tempfile.TemporaryDirectory() as tmp:
        plain, out = Path(tmp) / "in.svg", Path(tmp) / "out.png"
        data = svg.read_bytes()
        plain.write_bytes(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
        only = ("-i", element) if element else ()
        subprocess.run(("rsvg-convert", *only, "-z", str(zoom), str(plain), "-o", str(out)),
                       check=True, capture_output=True)
        return _rgba(out)


def _render_svg_element(svg: Path, element: str, zoom: float = 3.0) -> np.ndarray:
    """One element of an SVG or SVGZ file as RGBA, cropped to its visible pixels."""
    return _ink_box(_render_svg(svg, zoom, element))


def _kmahjongg(style: str, relabel: Mapping[str, str] | None = None) -> Callable[[], dict[str, np.ndarray]]:
    """A KMahjongg tileset; `relabel` overrides the element -> code table where a set's art differs."""
    ids = {**KMAHJONGG_IDS, **(relabel or {})}

    def load() -> dict[str, np.ndarray]:
        svg = KMAHJONGG_DIR / f"{style}.svgz"
        return {code: _render_svg_element(svg, element) for element, code in ids.items()}
    return load


# ---------------------------------------------------------------- fonts, CC0 faces

UNICODE_ORDER = (_codes("z", "1234765") + _codes("m", "123456789") + _codes("s", "123456789")
                 + _codes("p", "123456789") + ["1f", "2f", "4f", "3f"] + _codes("f", "5678"))


def unicode_glyphs(font: Path) -> Iterator[Face]:
    """Glyphs U+1F000..U+1F029 drawn dark on transparent (U+1F024 is bamboo = 4f, U+1F025 = 3f)."""
    ttf = ImageFont.truetype(str(font), 240)
    for offset, code in enumerate(UNICODE_ORDER):
        canvas = Image.new("RGBA", (400, 400), (0, 0, 0, 0))
        ImageDraw.Draw(canvas).text((40, 40), chr(0x1F000 + offset), font=ttf, fill=(20, 20, 20, 255))
        yield Face(f"font-{font.stem}", code, _ink_box(np.asarray(canvas)), False)


GLYPH_SHEET = Path(__file__).resolve().parents[1] / "tests" / "data" / "noto_mahjong_glyphs.png"
GLYPH_CELL = (120, 90)  # (h, w) per glyph in the sheet, columns in FACE_CLASSES order


def write_glyph_sheet(font: Path = FONTS[0], path: Path = GLYPH_SHEET) -> None:
    """Save the 42 glyphs of an OFL font as one greyscale ink sheet (bundled for CI tests)."""
    ch, cw = GLYPH_CELL
    sheet = Image.new("L", (cw * len(FACE_CLASSES), ch), 0)
    for face in unicode_glyphs(font):
        ink = Image.fromarray(face.image[..., 3])
        ink.thumbnail((cw - 4, ch - 4), Image.LANCZOS)
        sheet.paste(ink, (FACE_CLASSES.index(face.code) * cw + (cw - ink.width) // 2, (ch - ink.height) // 2))
    sheet.save(path, optimize=True)


def sheet_glyphs(path: Path = GLYPH_SHEET) -> list[Face]:
    """The bundled glyph sheet cut back into 42 dark-ink faces (no artwork install needed)."""
    ink = np.asarray(Image.open(path).convert("L"))
    cw = GLYPH_CELL[1]
    faces = []
    for index, code in enumerate(FACE_CLASSES):
        rgba = np.zeros(ink.shape + (4,), np.uint8)
        rgba[..., :3], rgba[..., 3] = 20, ink
        faces.append(Face("glyph-sheet", code, _ink_box(rgba[:, index * cw:(index + 1) * cw]), False))
    return faces


def _font(font: Path) -> Callable[[], dict[str, np.ndarray]]:
    return lambda: {face.code: face.image for face in unicode_glyphs(font)}


FLUFFY_NAMES = dict([(f"{n}m", f"Man{n}") for n in range(1, 10)] + [(f"{n}p", f"Pin{n}") for n in range(1, 10)]
                    + [(f"{n}s", f"Sou{n}") for n in range(1, 10)]
                    + list(zip(_codes("z", "1234567"), ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun"))))


def fluffy_dir() -> Path:
    """`mahjong_learner/tiles_img`: in the running environment, else in the cache's pip target."""
    spec = importlib.util.find_spec("mahjong_learner")
    if spec is not None and spec.origin:
        return Path(spec.origin).parent / "tiles_img"
    return cache_dir() / "pypi/mahjong_learner/tiles_img"


def _fluffy() -> dict[str, np.ndarray]:
    return {code: _ink_box(_rgba(fluffy_dir() / f"{name}.png")) for code, name in FLUFFY_NAMES.items()}


@dataclass(frozen=True)
class ArtSource:
    """A named artwork source: how to load it, whether faces carry their own body, its licence."""

    name: str
    load: Callable[[], dict[str, np.ndarray]]
    has_body: bool
    licence: str


SOURCES: tuple[ArtSource, ...] = (
    ArtSource("xmahjongg-real", Sheet(XMJ + "real.gif", XMJ_REAL, (396 / 5, 532 / 9), (0.04, 0.04, 0.05, 0.05)),
              True, "GPL-2+ (Debian xmahjongg, a scan of a real set)"),
    ArtSource("xmahjongg-dorothy", Sheet(XMJ + "dorothys.gif", XMJ_DOROTHY, (80, 64), DOROTHY_INSET),
              True, "GPL-2+ (Debian xmahjongg)"),
    ArtSource("xmahjongg-dorwhite", Sheet(XMJ + "dorwhite.gif", XMJ_DOROTHY, (80, 64), DOROTHY_INSET),
              True, "GPL-2+ (Debian xmahjongg)"),
    ArtSource("gnome-smooth-0", Sheet(GNOME, _layout([GNOME_COLUMNS]), (132, 96), GNOME_INSET),
              True, "GPL-2+ (Debian gnome-mahjongg)"),
    ArtSource("gnome-smooth-1", Sheet(GNOME, _layout([GNOME_COLUMNS]), (132, 96), GNOME_INSET, 1),
              True, "GPL-2+ (Debian gnome-mahjongg)"),
    ArtSource("gnome-postmodern", Sheet(POSTMODERN, _layout([POSTMODERN_COLUMNS]), (176, 128), POSTMODERN_INSET,
                                        zoom=2.0), True, "GPL-2+ (Debian gnome-mahjongg)"),
    ArtSource("kmahjongg-default", _kmahjongg("default"), False, "GPL-2+ (Debian kdegames-mahjongg-data-kf5)"),
    ArtSource("kmahjongg-jade", _kmahjongg("jade"), False, "GPL-2+ (Debian kdegames-mahjongg-data-kf5)"),
    # `classic` captions its flowers: FLOWER_1 is the orchid and FLOWER_2 the plum.
    ArtSource("kmahjongg-classic", _kmahjongg("classic", {"FLOWER_1": "2f", "FLOWER_2": "1f"}), False,
              "GPL-2+ (Debian kdegames-mahjongg-data-kf5)"),
    ArtSource("kmahjongg-traditional", _kmahjongg("traditional"), False,
              "GPL-2+ (Debian kdegames-mahjongg-data-kf5; held out of training)"),
    ArtSource(f"font-{FONTS[0].stem}", _font(FONTS[0]), False, "OFL-1.1 (Debian fonts-noto-core)"),
    ArtSource(f"font-{FONTS[1].stem}", _font(FONTS[1]), False, "Symbola licence, free use (Debian fonts-symbola)"),
    ArtSource("mahjong-learner", _fluffy, False, "CC0 (PyPI mahjong-learner 0.1.1, FluffyStuff faces)"),
)
SOURCE_BY_NAME = {source.name: source for source in SOURCES}
TRAIN_SOURCES = tuple(s.name for s in SOURCES if s.name not in HELD_OUT_SOURCES)


def _usable(rgba: np.ndarray, has_body: bool) -> bool:
    """Skip blank faces (Japanese white dragons): art needs ink, a face with body needs contrast."""
    if min(rgba.shape[:2]) <= 4:
        return False
    if not has_body:
        return float((rgba[..., 3] > INK_ALPHA).mean()) >= 0.01
    grey = rgba[..., :3].astype(np.float32).mean(axis=2)
    h, w = grey.shape
    return float(grey[h // 6:-h // 6, w // 6:-w // 6].std()) > 12.0


def load_source(name: str) -> list[Face]:
    """All usable faces of one source, from the PNG cache (rendered on first use)."""
    source = SOURCE_BY_NAME[name]
    folder = cache_dir() / "faces" / name
    if not (folder / "done").exists():
        faces = source.load()
        folder.mkdir(parents=True, exist_ok=True)
        for code, rgba in faces.items():
            if _usable(rgba, source.has_body):
                Image.fromarray(rgba).save(folder / f"{code}.png")
        (folder / "done").touch()
    return [Face(name, path.stem, _rgba(path), source.has_body)
            for path in sorted(folder.glob("*.png")) if path.stem in FACE_CLASSES]


def load_faces(names: tuple[str, ...] = TRAIN_SOURCES) -> tuple[list[Face], list[str]]:
    """(faces of every installed source, "name: reason" of each source that failed to load)."""
    faces, skipped = [], []
    for name in names:
        try:
            faces += load_source(name)
        except (OSError, subprocess.CalledProcessError) as error:
            skipped.append(f"{name}: {error} (install with models/install_artwork.sh)")
    return faces, skipped


def contact_sheet(faces: list[Face], cell: tuple[int, int] = (64, 48)) -> Image.Image:
    """One row per source, one column per face class (for checking labels by eye)."""
    ch, cw = cell
    rows = sorted({face.source for face in faces})
    sheet = Image.new("RGB", (cw * len(FACE_CLASSES), ch * len(rows)), (0, 110, 60))
    for face in faces:
        art = Image.fromarray(face.image).resize((cw - 2, ch - 2))
        plate = Image.new("RGBA", art.size, (235, 230, 215, 255))
        plate.alpha_composite(art)
        sheet.paste(plate.convert("RGB"), (FACE_CLASSES.index(face.code) * cw + 1, rows.index(face.source) * ch + 1))
    return sheet


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="List the installed tile artwork sources.")
    parser.add_argument("--sheet", type=Path, help="write a contact sheet PNG (outside the repository)")
    parser.add_argument("--glyph-sheet", action="store_true", help=f"rewrite {GLYPH_SHEET.name} from Noto (OFL)")
    args = parser.parse_args(argv)
    if args.glyph_sheet:
        write_glyph_sheet()
    faces, skipped = load_faces(tuple(SOURCE_BY_NAME))
    for source in SOURCES:
        codes = {face.code for face in faces if face.source == source.name}
        print(f"{source.name:34} {len(codes):2} classes; missing {' '.join(sorted(set(FACE_CLASSES) - codes)) or '-'}")
    print(*skipped, sep="\n")
    if args.sheet:
        contact_sheet(faces).save(args.sheet)


if __name__ == "__main__":
    main()
