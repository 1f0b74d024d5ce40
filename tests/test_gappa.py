"""Gappa certifies the error model's angle-formation and rotation bounds per dtype (`numeric.reference.gappa`):
the committed scripts are the ones the current model generates, Gappa proves every one of them, and a goal
tightened below what rounding allows is not proved."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from ropecheck.numeric.reference.gappa import SCRIPT_DIR, gappa_scripts, run_gappa_proofs

pytestmark = pytest.mark.skipif(
    shutil.which("gappa") is None, reason="gappa is not installed (Debian: apt-get install gappa; .ci/bootstrap does)"
)


def test_committed_scripts_follow_the_model() -> None:
    committed = {path.name: path.read_text() for path in SCRIPT_DIR.glob("*.g")}
    assert committed == gappa_scripts(), "regenerate with: python -m numeric.reference.gappa --write"


def test_gappa_proves_every_bound() -> None:
    results = run_gappa_proofs()
    assert len(results) == 12
    failed = {name: message for name, (proved, message) in results.items() if not proved}
    assert not failed, failed


@pytest.mark.parametrize("name", ["angle_float32.g", "rotation_bfloat16.g", "angle_rounded_float16.g"])
def test_gappa_refuses_a_tightened_goal(name: str, tmp_path: Path) -> None:
    """Meta-test: the goal divided by 4 (below what one rounding allows) must not be proved."""
    text = (SCRIPT_DIR / name).read_text()
    goal = re.search(r"in \[-([0-9.eE+-]+), ([0-9.eE+-]+)\](?: /\\ mf - m in \[0, 0\])? \}", text)
    assert goal is not None
    tightened = str(float(goal.group(1)) / 4)
    text = text.replace(f"[-{goal.group(1)}, {goal.group(2)}]", f"[-{tightened}, {tightened}]")
    path = tmp_path / name
    path.write_text(text)
    ((proved, message),) = run_gappa_proofs([path]).values()
    assert not proved, message
