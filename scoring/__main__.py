"""``python -m scoring``: the mahjong-score command."""

import sys

from scoring.cli import main

sys.exit(main())
