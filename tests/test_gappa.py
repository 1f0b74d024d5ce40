"""Gappa certifies the error model's angle-formation and rotation bounds per dtype (`numeric.reference.gappa`):
the committed scripts are the ones the current model generates, Gappa proves every one of them, and a goal
tightened below what rounding allows is not proved."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from ropecheck.numeric.reference.gappa import SCRIPT_DIR, certified_constants, gappa_scripts, run_gappa_proofs


def test_gappa_is_installed() -> None:
    """Issue 23, point 3: a CI without Gappa fails here instead of skipping the proofs (`.ci/bootstrap` installs
    the Debian package `gappa`)."""
    assert shutil.which("gappa") is not None, "gappa is not installed (Debian: apt-get install gappa)"


def test_each_certified_constant_is_the_constant_in_code() -> None:
    """The goal Gappa proves in each committed script is the value the code computes now, expression by
    expression (`certified_constants`); a script whose goal differs from the code fails."""
    constants = certified_constants()
    assert set(constants) == {path.name for path in SCRIPT_DIR.glob("*.g")}
    for name, link in constants.items():
        text = (SCRIPT_DIR / name).read_text()
        goal = re.search(r"in \[-([0-9.eE+-]+), ([0-9.eE+-]+)\](?: /\\ mf - m in \[0, 0\])? \}", text)
        assert goal is not None, name
        assert goal.group(1) == goal.group(2) == link["value"], (name, link["code"])


def test_link_notices_a_changed_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta-test: with the code's rotation bound changed the link no longer matches the committed script."""
    from ropecheck.numeric.reference import gappa

    original = gappa.rotation_output_bound
    monkeypatch.setattr(gappa, "rotation_output_bound", lambda *a, **k: 1.01 * original(*a, **k))
    with pytest.raises(AssertionError):
        test_each_certified_constant_is_the_constant_in_code()


def test_committed_scripts_follow_the_model() -> None:
    committed = {path.name: path.read_text() for path in SCRIPT_DIR.glob("*.g")}
    assert committed == gappa_scripts(), "regenerate with: python -m numeric.reference.gappa --write"


def test_gappa_proves_every_bound() -> None:
    results = run_gappa_proofs()
    assert len(results) == 18
    failed = {name: message for name, (proved, message) in results.items() if not proved}
    assert not failed, failed


@pytest.mark.parametrize(
    "name",
    ["angle_float32.g", "rotation_bfloat16.g", "angle_rounded_float16.g", "rotation_basis_float32.g", "cast_float16.g"],
)
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
