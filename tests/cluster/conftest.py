"""The cluster tests reuse the manager tests' helpers (game set-up, a random AI)."""

from __future__ import annotations

import sys
from pathlib import Path

_MANAGER_TESTS = str(Path(__file__).resolve().parents[1] / "manager")
if _MANAGER_TESTS not in sys.path:
    sys.path.append(_MANAGER_TESTS)
