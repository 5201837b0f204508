#!/usr/bin/env bash
# Install the training-only artwork and tools for `python -m models.train`.
# Nothing here is committed or shipped; GPL artwork is used at training time only.
#   Debian: kdegames-mahjongg-data-kf5 (KMahjongg SVGZ tilesets, GPL-2+),
#           fonts-noto-core (Noto Sans Symbols 2, OFL; Noto Sans / Serif print the index reader's digits),
#           fonts-symbola (Symbola), fonts-dejavu-core (DejaVu Sans / Serif, free licence: more digits),
#           librsvg2-bin (rsvg-convert renders one SVG element).
#   .deb art extracted (not installed) into ~/.cache/mahjong-lens:
#           xmahjongg (real.gif, dorothys.gif, dorwhite.gif; GPL-2+), gnome-mahjongg (smooth.png, postmodern.svg, GPL-2+).
#   PyPI (into the training venv, VENV, default /work/venvs/train):
#           torch==2.13.0 (local CPU wheel), onnx, mahjong-learner (CC0 riichi faces),
#           and this project editable.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${HOME}/.cache/mahjong-lens"
VENV="${VENV:-/work/venvs/train}"

apt-get update
apt-get install -y --no-install-recommends kdegames-mahjongg-data-kf5 fonts-noto-core fonts-symbola fonts-dejavu-core \
    librsvg2-bin

mkdir -p "${CACHE}/debs"
(cd "${CACHE}/debs" && apt-get download xmahjongg gnome-mahjongg)
dpkg -x "${CACHE}"/debs/xmahjongg_*.deb "${CACHE}/xmahjongg"
dpkg -x "${CACHE}"/debs/gnome-mahjongg_*.deb "${CACHE}/gnome"

python3.11 -m venv "${VENV}"
"${VENV}/bin/pip" install torch==2.13.0 onnx mahjong-learner
"${VENV}/bin/pip" install -e "${ROOT}"
echo "artwork installed; train with: ${VENV}/bin/python -m models.train and ${VENV}/bin/python -m models.train_index"
