"""``python -m vision PHOTO [--json] [--overlay OUT.png]``."""

from vision.cli import main

raise SystemExit(main())
