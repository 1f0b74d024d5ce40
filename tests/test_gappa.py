"""Gappa certifies the error model's angle-formation, rotation and cast bounds per dtype, and Coq the step from
angle error to cos/sin error (`numeric.reference.gappa`): the committed scripts are the ones the current model
generates, Gappa proves every one of them, a goal tightened below what rounding allows is not proved, each
certified constant is the constant in code, and docs/numerics.md shows which tool certifies which link."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from ropecheck.numeric.reference import _formats, _rope_bounds
from ropecheck.numeric.reference._formats import DTYPES, unit_roundoff
from ropecheck.numeric.reference._library import implementation_units
from ropecheck.numeric.reference.gappa import (
    COQ_PROOFS,
    SCRIPT_DIR,
    angle_bound_departures,
    certification_table,
    certified_angle_error,
    certified_constants,
    check_coq_proof,
    gappa_scripts,
    run_gappa_proofs,
)
from ropecheck.proofs.kernel._kernel import is_standard_axiom

NUMERICS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "numerics.md"


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


@pytest.mark.parametrize("function", ["cos_sin_cast_error", "unit_roundoff"])
def test_link_notices_a_changed_cast(function: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta-test: with the code's cast error changed the link no longer matches the committed cast scripts."""
    from ropecheck.numeric.reference import gappa

    original = getattr(gappa, function)
    monkeypatch.setattr(gappa, function, lambda *a, **k: 1.01 * original(*a, **k))
    with pytest.raises(AssertionError):
        test_each_certified_constant_is_the_constant_in_code()


def test_committed_scripts_follow_the_model() -> None:
    committed = {path.name: path.read_text() for path in SCRIPT_DIR.glob("*.g")}
    assert committed == gappa_scripts(), "regenerate with: python -m numeric.reference.gappa --write"


def test_gappa_proves_every_bound() -> None:
    results = run_gappa_proofs()
    assert len(results) == 22
    failed = {name: message for name, (proved, message) in results.items() if not proved}
    assert not failed, failed


@pytest.mark.parametrize(
    "name",
    [
        "angle_float32.g",
        "rotation_bfloat16.g",
        "angle_rounded_float16.g",
        "rotation_basis_float32.g",
        "cast_float16.g",
        "cast_relative_bfloat16.g",
        "cast_relative_float16.g",
        "cast_absolute_float16.g",
    ],
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


@pytest.mark.parametrize("name", sorted(COQ_PROOFS))
def test_coq_certifies_the_steps_gappa_cannot_state(name: str) -> None:
    """Angle error → cos/sin error (Gappa has no cos/sin) and the pointwise rotation bound (Gappa cannot keep
    |x₁| and |x₂| correlated): Coq accepts each file and each theorem rests on Coq's standard axioms only."""
    axioms = check_coq_proof(name)
    assert set(axioms) == set(COQ_PROOFS[name])
    for theorem, names in axioms.items():
        assert all(is_standard_axiom(axiom) for axiom in names), (theorem, names)


@pytest.mark.parametrize(
    ("name", "statement", "weakened"),
    [
        # cos as if 1/2-Lipschitz
        (
            "AngleToCosSin.v",
            "Rabs (chat - cos phi) <= angle_error + evaluation_error.",
            "Rabs (chat - cos phi) <= angle_error / 2 + evaluation_error.",
        ),
        # γ₂ replaced by u: two roundings charged as one
        (
            "RotationPointwise.v",
            "<= (epsilon + 2 * u / (1 - 2 * u) * (1 + epsilon)) * (Rabs x1 + Rabs x2) + 3 * eta.",
            "<= (epsilon + u * (1 + epsilon)) * (Rabs x1 + Rabs x2) + 3 * eta.",
        ),
    ],
)
def test_coq_refuses_a_weakened_step(name: str, statement: str, weakened: str, tmp_path: Path) -> None:
    """Meta-test: each certified bound made tighter than the truth is not a theorem; Coq rejects the file."""
    text = (SCRIPT_DIR / name).read_text()
    assert statement in text
    path = tmp_path / name
    path.write_text(text.replace(statement, weakened))
    with pytest.raises(RuntimeError, match="Coq rejects"):
        check_coq_proof(name, path)


def _departures_from_the_coq_step(
    trigonometric_error: Callable[[str, float], float],
) -> list[tuple[str, float, float, float]]:
    """Where the code's rule differs from what AngleToCosSin.v certifies: angle error e plus T·u, capped at 2."""
    departures = []
    for dtype in DTYPES:
        evaluation = implementation_units("cos/sin", dtype) * unit_roundoff(dtype)
        for angle_error in (0.0, 2.0**-30, 1e-3, 0.5, 1.9, 3.0):
            certified = min(angle_error + evaluation, 2.0)
            got = float(trigonometric_error(dtype, angle_error))
            if got != certified:
                departures.append((dtype, angle_error, got, certified))
    return departures


def test_code_charges_what_coq_certifies() -> None:
    """`trigonometric_error` is the certified rule: the angle error with weight 1 (the Lipschitz constant), plus
    the evaluation allowance, capped at 2 (`cos_error_capped`)."""
    assert _departures_from_the_coq_step(_formats.trigonometric_error) == []


def test_coq_link_notices_a_changed_rule() -> None:
    """Meta-test: a rule charging half the angle error departs from the certified step."""

    def halved(dtype: str, angle_error: float) -> float:
        return float(_formats.trigonometric_error(dtype, angle_error / 2))

    assert _departures_from_the_coq_step(halved) != []


def _departures_from_the_pointwise_theorem(gamma: Callable[[int, str], float]) -> list[tuple[str, float, float]]:
    """Where `_rotation_coefficients` differs from RotationPointwise.v's bound (ε + γ₂(1 + ε), 3η), with ε the
    certified cos/sin error: the angle error as the committed Gappa scripts certify it (`certified_angle_error`,
    read from the scripts, not from `angle_error_bound`: issue 36), then `trigonometric_error` (AngleToCosSin.v)
    and `cos_sin_cast_error`; u and η the data dtype's. Both sides are float64 evaluations of one formula: they
    may differ by a few float64 units."""
    slack = 8 * unit_roundoff("float64")
    departures = []
    for dtype in DTYPES:
        for angle_dtype in (dtype, "float32"):
            for position in (1, 2049, 10488, 2**24 + 2):
                for theta in (2e-4, 0.5):
                    angle_error = certified_angle_error(position, theta, angle_dtype)
                    if angle_error is None:
                        continue
                    slope, offset = _rope_bounds._rotation_coefficients(position, theta, dtype, angle_dtype)
                    epsilon = _formats.trigonometric_error(angle_dtype, angle_error)
                    epsilon = float(
                        _formats._cap_value_error(epsilon + _rope_bounds.cos_sin_cast_error(dtype, angle_dtype))
                    )
                    certified = epsilon + gamma(2, dtype) * (1 + epsilon)
                    if abs(float(slope) - certified) > slack * certified or offset != 3 * _formats.underflow_error(
                        dtype
                    ):
                        departures.append((dtype, float(slope), certified))
    return departures


def test_rotation_bound_is_the_pointwise_theorem() -> None:
    """`rotation_output_bound` charges what RotationPointwise.v proves: γ₂ = 2u/(1 − 2u) of the data dtype on
    (1 + ε), ε from the Gappa-certified angle error, the certified angle → cos/sin step and the certified cast,
    and 3η."""
    assert _departures_from_the_pointwise_theorem(_formats.gamma) == []


def test_pointwise_link_notices_a_changed_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta-test: with the code's rotation charging γ₁ instead of γ₂ the link to the theorem fails."""
    monkeypatch.setattr(_rope_bounds, "gamma", lambda n, dtype: _formats.gamma(max(n - 1, 0), dtype))
    assert _departures_from_the_pointwise_theorem(_formats.gamma) != []


def test_angle_error_bound_charges_what_gappa_certifies() -> None:
    """Issue 36: `angle_error_bound` — the function every model bound, the audit and the precision limits call,
    not only `angle_relative_error` — is at least the committed scripts' certified r·m·θ across each script's box
    and at most that plus the model's underflow allowance."""
    assert angle_bound_departures() == []


@pytest.mark.parametrize("factor", [0.5, 2.0])
def test_certification_notices_a_changed_angle_error_bound(factor: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta-test (issue 36): `angle_error_bound`'s relative term halved (unsound: the float32 model limit moved
    2078 → 4157) or doubled (uncertified) fails the angle link and the Coq link (which reads ε from the scripts),
    although the scripts and `certified_constants` do not change."""
    original = _rope_bounds.angle_relative_error
    monkeypatch.setattr(_rope_bounds, "angle_relative_error", lambda *a, **k: factor * original(*a, **k))
    assert angle_bound_departures() != []
    assert _departures_from_the_pointwise_theorem(_formats.gamma) != []


def test_numerics_page_shows_the_certification_chain() -> None:
    """docs/numerics.md carries the generated table of which tool certifies which link of the error chain, and
    every script and Coq file under numeric/reference/gappa/ sits in a row."""
    table = certification_table()
    assert table in NUMERICS_PAGE.read_text(), "paste certification_table() into docs/numerics.md"
    for path in SCRIPT_DIR.iterdir():
        assert f"`{path.name}`" in table, path.name


def test_certification_table_notices_an_unlisted_script(monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta-test: a chain without the cast rows leaves the cast scripts unlisted."""
    from ropecheck.numeric.reference import gappa

    shortened = tuple(row for row in gappa.CERTIFICATION_CHAIN if "cast_relative" not in row[2])
    monkeypatch.setattr(gappa, "CERTIFICATION_CHAIN", shortened)
    with pytest.raises(AssertionError):
        test_numerics_page_shows_the_certification_chain()
