"""Gappa proofs of the error model's angle-formation and rotation bounds, per dtype (ROPE-FREQUENCIES,
ROPE-PAIR-FORMULA, ROPE-RELATIVE-MATRIX).

The scripts in `numeric/reference/gappa/` are generated from the model (`write_scripts`), so each states the
model's own number as the goal, and Gappa (Debian package `gappa`, `/usr/bin/gappa`) proves it:

- `angle_<dtype>.g`: for an integer position m with 1 ≤ m ≤ the dtype's exact-integer limit and θ in
  [10000^(−126/128), 1] (the d = 128 RoPE frequencies), the angle fl(fl(m)·fl(θ)) formed in the dtype is within
  `angle_relative_error(dtype)`·m·θ of m·θ (and fl(m) = m);
- `angle_rounded_<dtype>.g`: the same for positions beyond the exact-integer limit (up to 2¹⁵ in float16, 2³¹
  above), where fl(m) rounds too: `angle_relative_error(dtype, True)`;
- `rotation_<dtype>.g`: for x₁, x₂ in [−1, 1] held in the dtype and computed ĉ, ŝ within T·u of cos φ, sin φ
  (T the allowance of the RoPE bounds, `implementation_units`), fl(fl(x₁ĉ) − fl(x₂ŝ)) is within the model's
  `rotation_output_bound` at |x₁| + |x₂| = 2 of x₁cos φ − x₂sin φ. Scaling x by a power of two is exact away
  from underflow and overflow, so the box [−1, 1]² stands for every normal range;
- `rotation_basis_<dtype>.g`: the pointwise bound the audit's basis probes use, at x = (1, 0) (|x₁| + |x₂| = 1);
- `cast_<dtype>.g` (float16, bfloat16): the pipeline the audit accepts for 16-bit outputs — cos/sin computed in
  float32, cast to the 16-bit dtype, the rotation in it — within `rotation_output_bound(…, angle_dtype="float32")`;
- `cast_relative_<dtype>.g`, `cast_absolute_<dtype>.g` (float16, bfloat16): the final cast of a float32 value to
  the 16-bit dtype, relative error `unit_roundoff(dtype)` (2⁻¹¹, 2⁻⁸) over its normal range, and absolute error
  `cos_sin_cast_error(dtype, "float32")` for a cos/sin value in [−1, 1];
- `AngleToCosSin.v` (Coq, not Gappa: Gappa has no cos or sin): angle error → cos/sin error, the rule of
  `trigonometric_error` (`check_coq_proof`);
- `RotationPointwise.v` (Coq with Flocq): the pointwise bound the model and the audit use, one rotated coordinate
  within (ε + γ₂(1 + ε))·(|x₁| + |x₂|) + 3η for every x, both coordinates (`rotation_output_bound`'s form), under
  the standard model of rounding that round to nearest (Flocq, gradual underflow) and a flush to zero both meet
  (both proved). Gappa's interval arithmetic cannot state it: it reads a convex combination of the two
  coordinates' errors as their sum, and the model's slack is of order u², so bisecting the direction of x would
  take about 1/u cases.

`CERTIFICATION_CHAIN` says which tool certifies which link of the chain (`certification_table()`, in
docs/numerics.md).

`certified_constants()` links each script's goal to the expression in code that computes it, and
`angle_bound_departures()` links the angle scripts' goals to `angle_error_bound` itself — the function every model
bound, the audit and the precision limits call — by evaluating it across each script's box.

Gappa's formats model IEEE rounding with gradual underflow, subnormals included (the boxes x in [−1, 1]² contain
0 and the subnormals; the angle boxes, m ≥ 1 and θ ≥ 1.15·10⁻⁴, do not). A flush of subnormals to zero (XLA on
CPU) is not what these scripts model; `RotationPointwise.v` covers it (`flush_meets_the_model`). Overflow is
outside every script and theorem (`rotation_output_bound` returns inf where a result may overflow). The scripts
state three roundings for a rotated coordinate; the fused form that `jax.jit` produces on CPU (x₁ĉ − x₂ŝ
contracted into an FMA) is covered by `RotationPointwise.v`'s `rotation_coordinate_fused`, for every x.
Regenerate with `python -m numeric.reference.gappa --write`; `run_gappa_proofs()` (and `tests/test_gappa.py`)
runs Gappa on every script.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from . import _rope_bounds
from ._formats import DTYPES, exact_integer_limit, largest_finite, smallest_normal, underflow_error, unit_roundoff
from ._library import implementation_units
from ._rope_bounds import angle_relative_error, cos_sin_cast_error, rotation_output_bound

__all__ = [
    "COQ_PROOFS",
    "SCRIPT_DIR",
    "angle_bound_departures",
    "certified_angle_error",
    "certified_constants",
    "check_coq_proof",
    "committed_goal",
    "gappa_scripts",
    "run_gappa_proofs",
    "write_scripts",
]

SCRIPT_DIR = Path(__file__).with_name("gappa")
_FORMAT = {"float16": "11, -24", "bfloat16": "8, -133", "float32": "24, -149", "float64": "53, -1074"}
_SMALLEST_THETA = "0.0001154781984689458"  # just below 10000^(-126/128) = 1.1547819846894582e-4
_ROUNDED_TOP = {"float16": 2**15, "bfloat16": 2**31, "float32": 2**31, "float64": 2**62}


def _exact(value: float) -> str:
    """The exact decimal value of a float64 (Gappa reads decimals exactly)."""
    return format(Decimal(value), "f") if abs(value) >= 1e-6 else str(Decimal(value))


def _angle_script(dtype: str, rounded: bool) -> str:
    low, high = (exact_integer_limit(dtype), _ROUNDED_TOP[dtype]) if rounded else (1, exact_integer_limit(dtype))
    bound = _exact(float(angle_relative_error(dtype, rounded)))
    exact_position = "" if rounded else " /\\ mf - m in [0, 0]"
    return (
        f"# Generated by numeric.reference.gappa from the error model: do not edit.\n"
        f"# RoPE angle formed in {dtype}, positions {'beyond' if rounded else 'within'} the exact-integer limit.\n"
        f"@rnd = float<{_FORMAT[dtype]}, ne>;\n"
        f"m = int<ne>(x);\n"
        f"mf = rnd(m);\n"
        f"th = rnd(t);\n"
        f"phi = rnd(mf * th);\n"
        f"Mphi = m * t;\n"
        f"{{ x in [{low}, {high}] /\\ t in [{_SMALLEST_THETA}, 1]\n"
        f"  -> phi -/ Mphi in [-{bound}, {bound}]{exact_position} }}\n"
    )


#: Each script's certified constant and the code that computes it (issue 23, point 3): `certified_constants()`
#: evaluates the code, the scripts state its value as the goal, and `tests/test_gappa.py` compares the two.
_CODE: dict[str, tuple[str, Callable[[str], float]]] = {
    "angle": ("angle_relative_error({dtype!r}, False)", lambda dtype: angle_relative_error(dtype, False)),
    "angle_rounded": ("angle_relative_error({dtype!r}, True)", lambda dtype: angle_relative_error(dtype, True)),
    "rotation": ("rotation_output_bound(2.0, 0.0, 1.0, {dtype!r})", lambda d: rotation_output_bound(2.0, 0.0, 1.0, d)),
    "rotation_basis": (
        "rotation_output_bound(1.0, 0.0, 1.0, {dtype!r})",
        lambda dtype: rotation_output_bound(1.0, 0.0, 1.0, dtype),
    ),
}


#: The 16-bit dtypes the audit accepts with cos/sin formed in float32 and cast.
_CAST_DTYPES = ("float16", "bfloat16")


def _cast_bound(dtype: str) -> float:
    return rotation_output_bound(2.0, 0.0, 1.0, dtype, angle_dtype="float32")


#: The final cast of a float32 value to each 16-bit dtype: script kind → (the code, its value, the range of the
#: float32 value, the goal's operator). `cast_relative`: relative error over the dtype's normal range (the brief's
#: 2⁻¹¹ / 2⁻⁸); `cast_absolute`: the absolute error of a cos/sin value in [−1, 1], the term the rotation bound adds.
_VALUE_CASTS: dict[str, tuple[str, Callable[[str], float]]] = {
    "cast_relative": ("unit_roundoff({dtype!r})", lambda dtype: unit_roundoff(dtype)),
    "cast_absolute": ("cos_sin_cast_error({dtype!r}, 'float32')", lambda dtype: cos_sin_cast_error(dtype, "float32")),
}


def certified_constants() -> dict[str, dict[str, str]]:
    """Script name → `{"code": the expression in `numeric.reference._rope_bounds`, "value": its exact decimal}`.

    **Returns:**

    One entry per generated script: the link from the certified constant to the constant in code.
    """
    table = {}
    for dtype in DTYPES:
        for kind, (code, value) in _CODE.items():
            table[f"{kind}_{dtype}.g"] = {"code": code.format(dtype=dtype), "value": _exact(float(value(dtype)))}
        if dtype in _CAST_DTYPES:
            code = f"rotation_output_bound(2.0, 0.0, 1.0, {dtype!r}, angle_dtype='float32')"
            table[f"cast_{dtype}.g"] = {"code": code, "value": _exact(float(_cast_bound(dtype)))}
            for kind, (code, value) in _VALUE_CASTS.items():
                table[f"{kind}_{dtype}.g"] = {"code": code.format(dtype=dtype), "value": _exact(float(value(dtype)))}
    return table


_GOAL = re.compile(r"in \[-([0-9.eE+-]+), ([0-9.eE+-]+)\](?: /\\ mf - m in \[0, 0\])? \}")


def committed_goal(name: str) -> Fraction:
    """The bound a committed script asks Gappa to prove (its goal's half-width, exactly), read from the file."""
    goal = _GOAL.search((SCRIPT_DIR / name).read_text())
    if goal is None:
        raise ValueError(f"{name}: no goal found")
    return Fraction(goal.group(2))


def _angle_box(dtype: str, rounded: bool) -> tuple[int, int]:
    """The positions an angle script covers: [1, limit] exactly held, [limit, top] rounded."""
    return (exact_integer_limit(dtype), _ROUNDED_TOP[dtype]) if rounded else (1, exact_integer_limit(dtype))


def certified_angle_error(position: int, theta: float, dtype: str) -> float | None:
    """|fl(fl(m)·fl(θ)) − m·θ| as the committed Gappa scripts certify it, plus the model's underflow allowance
    (1 + 2u)·|m|·η + η (which covers θ below the scripts' box): `None` outside the boxes (m < 1, θ below
    1.15·10⁻⁴ or above 1, m beyond the rounded script's top). Read from the scripts, never from the code.

    **Arguments:**

    - `position`: an integer position m exactly held in float64.
    - `theta`: the exact inverse frequency.
    - `dtype`: the dtype the angle is formed in.

    **Returns:**

    The certified bound as a float, or None where no script covers (m, θ).
    """
    if not float(_SMALLEST_THETA) <= theta <= 1:
        return None
    for rounded in (False, True):
        low, high = _angle_box(dtype, rounded)
        if low + rounded <= position <= high:
            relative = committed_goal(f"angle_{'rounded_' if rounded else ''}{dtype}.g")
            eta = underflow_error(dtype)
            return float(relative * position * Fraction(theta)) + (1 + 2 * unit_roundoff(dtype)) * position * eta + eta
    return None


def angle_bound_departures() -> list[tuple[str, int, float, float, float]]:
    """Where `angle_error_bound` (looked up at call time: the function every model bound, the audit and the
    precision limits call) departs from what the angle scripts certify, over a grid spanning each script's box:
    below the certified r·m·θ is unsound, above it by more than the model's underflow allowance
    ((1 + 2u)·m·η + η) means the code charges something no script certifies. Both sides allow 4 float64 units of
    evaluation error, the upper side 6 more: the code scales its float64 evaluation up by 1 + 6u so that it stays
    an upper bound (`_rope_bounds._FLOAT64_EVALUATION_ALLOWANCE`). (Issue 36: halving the code's relative term must
    show here.)

    **Returns:**

    `(dtype, m, θ, code's bound, certified r·m·θ)` for each departure; empty when the two agree.
    """
    slack = 4 * unit_roundoff("float64")
    thetas = (float(_SMALLEST_THETA) * (1 + 2**-40), 1e-3, 0.5, 1.0)
    departures = []
    for dtype in DTYPES:
        eta, u = underflow_error(dtype), unit_roundoff(dtype)
        for rounded in (False, True):
            low, high = _angle_box(dtype, rounded)
            first = low + 2 if rounded else low  # m = limit itself is the exactly held script's
            positions = sorted({first, first + 2, 2 * low, round((low * high) ** 0.5) // 2 * 2, high})
            relative = committed_goal(f"angle_{'rounded_' if rounded else ''}{dtype}.g")
            for position in positions:
                for theta in thetas:
                    code = float(_rope_bounds.angle_error_bound(position, theta, dtype))
                    certified = float(relative * position * Fraction(theta))
                    allowance = (1 + 2 * u) * position * eta + eta
                    upper = certified * (1 + slack + 6 * unit_roundoff("float64")) + allowance
                    if not certified * (1 - slack) <= code <= upper:
                        departures.append((dtype, position, theta, code, certified))
    return departures


def _rotation_script(dtype: str, basis: bool = False) -> str:
    """`basis`: the pointwise bound at a basis probe x = (1, 0), |x₁| + |x₂| = 1, the audit's probe (about half
    the box-wide bound); else the bound at |x₁| + |x₂| = 2 over the box [−1, 1]²."""
    epsilon = _exact(implementation_units("cos/sin", dtype) * unit_roundoff(dtype))
    # The model's pointwise bound slope·(|x₁| + |x₂|) + offset (offset = 3η) with exact angles.
    bound = _exact(float(rotation_output_bound(1.0 if basis else 2.0, 0.0, 1.0, dtype)))
    box = "a1 in [1, 1] /\\ a2 in [0, 0]" if basis else "a1 in [-1, 1] /\\ a2 in [-1, 1]"
    return (
        f"# Generated by numeric.reference.gappa from the error model: do not edit.\n"
        f"# One coordinate of a 2x2 RoPE rotation in {dtype}: x1*cos - x2*sin, cos/sin within T*u"
        f"{', at the basis probe x = (1, 0)' if basis else ''}.\n"
        f"@rnd = float<{_FORMAT[dtype]}, ne>;\n"
        f"x1 = rnd(a1);\n"
        f"x2 = rnd(a2);\n"
        f"p1 = rnd(x1 * chat);\n"
        f"p2 = rnd(x2 * shat);\n"
        f"out = rnd(p1 - p2);\n"
        f"exact = x1 * c - x2 * s;\n"
        f"{{ {box} /\\ c in [-1, 1] /\\ s in [-1, 1]"
        f" /\\ chat in [-1, 1] /\\ shat in [-1, 1]\n"
        f"  /\\ chat - c in [-{epsilon}, {epsilon}] /\\ shat - s in [-{epsilon}, {epsilon}]\n"
        f"  -> out - exact in [-{bound}, {bound}] }}\n"
        f"out - exact -> (out - (p1 - p2)) + (p1 - x1 * chat) - (p2 - x2 * shat) + x1 * (chat - c) - x2 * (shat - s);\n"
    )


def _cast_script(dtype: str) -> str:
    """The audit's accepted 16-bit pipeline: cos/sin computed in float32 (within T₃₂·u₃₂), cast to the 16-bit
    dtype, the rotation in that dtype; the goal is `rotation_output_bound(2, 0, 1, dtype, angle_dtype="float32")`."""
    epsilon = _exact(implementation_units("cos/sin", "float32") * unit_roundoff("float32"))
    bound = _exact(float(_cast_bound(dtype)))
    return (
        f"# Generated by numeric.reference.gappa from the error model: do not edit.\n"
        f"# cos/sin computed in float32, cast to {dtype}, one coordinate of the rotation in {dtype}.\n"
        f"@rnd = float<{_FORMAT[dtype]}, ne>;\n"
        f"@r32 = float<{_FORMAT['float32']}, ne>;\n"
        f"x1 = rnd(a1);\n"
        f"x2 = rnd(a2);\n"
        f"c32 = r32(chat);\n"
        f"s32 = r32(shat);\n"
        f"ch = rnd(c32);\n"
        f"sh = rnd(s32);\n"
        f"p1 = rnd(x1 * ch);\n"
        f"p2 = rnd(x2 * sh);\n"
        f"out = rnd(p1 - p2);\n"
        f"exact = x1 * c - x2 * s;\n"
        f"{{ a1 in [-1, 1] /\\ a2 in [-1, 1] /\\ c in [-1, 1] /\\ s in [-1, 1]"
        f" /\\ chat in [-1, 1] /\\ shat in [-1, 1]\n"
        f"  /\\ c32 - c in [-{epsilon}, {epsilon}] /\\ s32 - s in [-{epsilon}, {epsilon}]\n"
        f"  -> out - exact in [-{bound}, {bound}] }}\n"
        f"out - exact -> (out - (p1 - p2)) + (p1 - x1 * ch) - (p2 - x2 * sh) + x1 * (ch - c32) - x2 * (sh - s32)"
        f" + x1 * (c32 - c) - x2 * (s32 - s);\n"
    )


def _value_cast_script(dtype: str, relative: bool) -> str:
    """A float32 value rounded to nearest in the 16-bit dtype: relative error over the dtype's normal range, or
    absolute error for a value in [−1, 1] (subnormals of the 16-bit dtype included)."""
    kind = "cast_relative" if relative else "cast_absolute"
    bound = _exact(float(_VALUE_CASTS[kind][1](dtype)))
    domain = (
        f"|a| in [{_exact(smallest_normal(dtype))}, {_exact(largest_finite(dtype))}]" if relative else "a in [-1, 1]"
    )
    return (
        f"# Generated by numeric.reference.gappa from the error model: do not edit.\n"
        f"# A float32 value rounded to nearest {dtype} (the final cast), "
        f"{'relative error over the normal range' if relative else 'absolute error of a value in [-1, 1]'}.\n"
        f"@rnd = float<{_FORMAT[dtype]}, ne>;\n"
        f"@r32 = float<{_FORMAT['float32']}, ne>;\n"
        f"v = r32(a);\n"
        f"out = rnd(v);\n"
        f"{{ {domain}\n"
        f"  -> {'(out - v) / v' if relative else 'out - v'} in [-{bound}, {bound}] }}\n"
        # Gappa 1.4 proves the lowest normal binade only when it is bisected off the rest.
        + (f"$ |a| in ({_exact(2 * smallest_normal(dtype))});\n" if relative else "")
    )


def gappa_scripts() -> dict[str, str]:
    """Every script, file name → text, generated from the current model."""
    scripts: dict[str, str] = {}
    for dtype in DTYPES:
        scripts[f"angle_{dtype}.g"] = _angle_script(dtype, rounded=False)
        scripts[f"angle_rounded_{dtype}.g"] = _angle_script(dtype, rounded=True)
        scripts[f"rotation_{dtype}.g"] = _rotation_script(dtype)
        scripts[f"rotation_basis_{dtype}.g"] = _rotation_script(dtype, basis=True)
        if dtype in _CAST_DTYPES:
            scripts[f"cast_{dtype}.g"] = _cast_script(dtype)
            scripts[f"cast_relative_{dtype}.g"] = _value_cast_script(dtype, relative=True)
            scripts[f"cast_absolute_{dtype}.g"] = _value_cast_script(dtype, relative=False)
    return scripts


def write_scripts() -> list[Path]:
    """Write `gappa_scripts()` into `SCRIPT_DIR`; returns the paths written."""
    SCRIPT_DIR.mkdir(exist_ok=True)
    paths = []
    for name, text in gappa_scripts().items():
        path = SCRIPT_DIR / name
        path.write_text(text)
        paths.append(path)
    return paths


def run_gappa_proofs(paths: list[Path] | None = None, gappa: str | None = None) -> dict[str, tuple[bool, str]]:
    """Run Gappa on each script: name → (proved, Gappa's message).

    **Arguments:**

    - `paths`: the scripts (default: every `.g` file in `SCRIPT_DIR`).
    - `gappa`: the executable (default: `gappa` on the PATH).

    **Returns:**

    The results; `proved` is True when Gappa exits 0 (every goal proved).

    **Raises:** `FileNotFoundError` when Gappa is not installed.
    """
    executable = gappa or shutil.which("gappa")
    if executable is None:
        raise FileNotFoundError("gappa is not installed (Debian: apt-get install gappa)")
    results = {}
    for path in paths if paths is not None else sorted(SCRIPT_DIR.glob("*.g")):
        done = subprocess.run([executable, str(path)], capture_output=True, text=True, timeout=120, check=False)
        results[path.name] = (done.returncode == 0, (done.stdout + done.stderr).strip())
    return results


#: The links of the chain certified in Coq rather than Gappa: file under `SCRIPT_DIR` → the theorems it must prove.
#: `AngleToCosSin.v`: angle error → cos/sin error (Gappa has no cos or sin); `RotationPointwise.v`: the rotation
#: bound linear in |x₁| + |x₂| (Gappa's interval arithmetic loses the correlation of |x₁| and |x₂|).
COQ_PROOFS: dict[str, tuple[str, ...]] = {
    "AngleToCosSin.v": (
        "cos_error_from_angle_error",
        "sin_error_from_angle_error",
        "cos_error_capped",
        "sin_error_capped",
    ),
    "RotationPointwise.v": (
        "rotation_coordinate_pointwise",
        "rotation_coordinate_fused",
        "nearest_meets_the_model",
        "flush_meets_the_model",
    ),
}


def check_coq_proof(name: str, path: Path | None = None, coqc: str | None = None) -> dict[str, list[str]]:
    """Compile one of the `COQ_PROOFS` files and list each of its theorems' axioms (`Print Assumptions`).

    `AngleToCosSin.v` certifies `trigonometric_error`'s rule: |ĉ − cos φ| ≤ |φ̂ − φ| + |ĉ − cos φ̂| (cos and sin
    are 1-Lipschitz, by the mean value theorem), and the cap at 2 for computed values in [−1, 1].
    `RotationPointwise.v` certifies `rotation_output_bound`'s form: one rotated coordinate within
    (ε + γ₂(1 + ε))·(|x₁| + |x₂|) + 3η for every x, under the standard model of rounding (which Flocq's round to
    nearest meets, `nearest_meets_the_model`, and a flush to zero with η the smallest normal number too,
    `flush_meets_the_model`).

    **Arguments:**

    - `name`: the file's name, a key of `COQ_PROOFS`.
    - `path`: the `.v` text to compile instead (a test passes a perturbed copy); default `SCRIPT_DIR / name`.
    - `coqc`: the Coq compiler (default `coqc` on the PATH).

    **Returns:**

    Theorem name → its axioms' short names, for each theorem `COQ_PROOFS[name]` lists.

    **Raises:** `FileNotFoundError` when Coq is not installed; `RuntimeError` when Coq rejects the file.
    """
    from ropecheck.proofs.kernel._kernel import parse_assumptions

    executable = coqc or shutil.which("coqc")
    if executable is None:
        raise FileNotFoundError("coqc is not installed (Debian: apt-get install coq)")
    with tempfile.TemporaryDirectory() as build:
        theorems = COQ_PROOFS[name]
        module = Path(build) / name
        # The axioms are asked at the end of the file itself, after its last command (every section and module
        # closed: coqc rejects a file that leaves one open), so one coqc run compiles and answers; one Redirect
        # per theorem keeps each answer in its own file.
        module.write_text(
            (path or SCRIPT_DIR / name).read_text()
            + "\n"
            + "".join(f'Redirect "{theorem}" Print Assumptions {theorem}.\n' for theorem in theorems)
        )
        done = subprocess.run(
            [executable, "-Q", build, "", module.name],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            cwd=build,
        )
        if done.returncode != 0:
            raise RuntimeError(f"Coq rejects {module.name}: {(done.stdout + done.stderr).strip()}")
        axioms = {theorem: parse_assumptions((Path(build) / f"{theorem}.out").read_text()) for theorem in theorems}
    return axioms


#: Each link of the error chain of one rotated coordinate, the tool that certifies it, its files under
#: `SCRIPT_DIR` (a regular expression matching whole names, "—" for none) and the code it certifies;
#: `certification_table()` prints it for docs/numerics.md.
CERTIFICATION_CHAIN: tuple[tuple[str, str, str, str], ...] = (
    (
        "angle m·θ formed in the dtype, m within the exact-integer limit",
        "Gappa",
        r"angle_[a-z]+\d+\.g",
        "`angle_error_bound(m, θ, dtype)`'s relative term, `angle_relative_error(dtype, False)`",
    ),
    (
        "angle m·θ, m beyond the exact-integer limit (m rounded too)",
        "Gappa",
        r"angle_rounded_\w+\.g",
        "`angle_error_bound(m, θ, dtype)`'s relative term, `angle_relative_error(dtype, True)`",
    ),
    (
        "angle error → cos/sin error (1-Lipschitz, mean value theorem; cap at 2)",
        "Coq (stdlib `MVT_abs`)",
        r"AngleToCosSin\.v",
        "`trigonometric_error(dtype, e)` = e + T·u",
    ),
    (
        "cos/sin evaluation T·u",
        "measured, not certified (`library_accuracy`)",
        "—",
        "`implementation_units('cos/sin', dtype)`",
    ),
    (
        "cos/sin in [−1, 1] cast from float32 to float16/bfloat16 (absolute)",
        "Gappa",
        r"cast_absolute_\w+\.g",
        "`cos_sin_cast_error(dtype, 'float32')`",
    ),
    (
        "a float32 value cast to float16/bfloat16 (relative, normal range)",
        "Gappa",
        r"cast_relative_\w+\.g",
        "`unit_roundoff(dtype)`",
    ),
    ("one rotated coordinate, box-wide (‖x‖₁ = 2)", "Gappa", r"rotation_[a-z]+\d+\.g", "`rotation_output_bound(2, …)`"),
    (
        "one rotated coordinate at the basis probe x = (1, 0)",
        "Gappa",
        r"rotation_basis_\w+\.g",
        "`rotation_output_bound(1, …)`",
    ),
    (
        "cos/sin in float32, cast, rotation in float16/bfloat16",
        "Gappa",
        r"cast_[a-z]+\d+\.g",
        "`rotation_output_bound(2, …, angle_dtype='float32')`",
    ),
    (
        "one rotated coordinate at any x within range: (ε + γ₂(1 + ε))·‖x‖₁ + 3η, three roundings or an FMA",
        "Coq (Flocq's round to nearest meets the standard model)",
        r"RotationPointwise\.v",
        "`rotation_output_bound(s, …)`",
    ),
    (
        "score of rotated vectors, its summation (γ_n)",
        "analytic, not certified",
        "—",
        "`relative_score_bound`, `dot_product_bound`",
    ),
)


def certification_table() -> str:
    """The Markdown table of `CERTIFICATION_CHAIN` (docs/numerics.md includes it verbatim; a test pins it).

    **Returns:**

    The table, one row per link, the files as their names under `numeric/reference/gappa/`.
    """
    rows = ["| link of the error chain | certified by | files | constant in code |", "|---|---|---|---|"]
    for link, tool, pattern, code in CERTIFICATION_CHAIN:
        names = sorted(path.name for path in SCRIPT_DIR.iterdir() if re.fullmatch(pattern, path.name))
        files = ", ".join(f"`{name}`" for name in names) or "—"
        rows.append(f"| {link} | {tool} | {files} | {code} |")
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    """`python -m numeric.reference.gappa [--write]`: regenerate the scripts and/or prove them (and the Coq step),
    printing each one's run time."""
    from ropecheck.proofs.kernel._kernel import is_standard_axiom

    parser = argparse.ArgumentParser(prog="python -m numeric.reference.gappa")
    parser.add_argument("--write", action="store_true", help="regenerate the scripts from the model first")
    args = parser.parse_args(argv)
    if args.write:
        write_scripts()
    all_proved = True
    for path in sorted(SCRIPT_DIR.glob("*.g")):
        start = time.perf_counter()
        ((proved, message),) = run_gappa_proofs([path]).values()
        all_proved &= proved
        print(f"{'proved' if proved else 'NOT PROVED'}  {path.name}  {time.perf_counter() - start:.2f} s  {message}")
    for name in COQ_PROOFS:
        start = time.perf_counter()
        try:
            axioms = check_coq_proof(name)
        except RuntimeError as rejected:
            print(f"NOT PROVED  {name}  {rejected}")
            all_proved = False
            continue
        standard = all(is_standard_axiom(axiom) for axioms_of in axioms.values() for axiom in axioms_of)
        all_proved &= standard
        print(f"{'proved' if standard else 'NOT PROVED'}  {name}  {time.perf_counter() - start:.2f} s  {axioms}")
    return 0 if all_proved else 1


if __name__ == "__main__":
    raise SystemExit(main())
