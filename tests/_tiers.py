"""The test tiers: the default run (CI, ≤ 5 minutes on an idle 2-core machine) and `--deep` (long sweeps).

A check keeps one cheap representative case in the default tier, so that CI still sees it fail on the defect it
names; `--deep` (which `tests/conftest.py` also exports as `ROPECHECK_DEEP=1`) widens the sweep.
"""

from __future__ import annotations

import os


def deep() -> bool:
    """Whether this run is `--deep` (or `ROPECHECK_DEEP=1` was set)."""
    return os.environ.get("ROPECHECK_DEEP") == "1"


def examples(default: int, deep_run: int) -> int:
    """A property test's number of examples: `default` in the default tier, `deep_run` with `--deep`."""
    return deep_run if deep() else default
