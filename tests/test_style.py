"""The code stays `ruff` clean (the configuration is in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_is_clean() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (it comes with the test extra)")
    result = subprocess.run(
        [ruff, "check", "--output-format", "concise", "proofs", "numeric", "tests", "benchmarks", "docs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_BUDGET,
    )
    assert result.returncode == 0, result.stdout + result.stderr
