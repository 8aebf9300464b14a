"""The cluster tests reuse the manager tests' helpers (game set-up, a random AI) and the SimCord driver."""

from __future__ import annotations

import sys
from pathlib import Path

for _folder in ("manager", "bot_e2e"):  # manager_helpers; the SimCord driver and its fast pictures
    _path = str(Path(__file__).resolve().parents[1] / _folder)
    if _path not in sys.path:
        sys.path.append(_path)
