"""Importing ropecheck's numeric side leaves JAX's global configuration alone (issue 15): float64 is enabled only
inside the numeric checks (`ropecheck.numeric.mirrors.x64_enabled`) and restored after."""

from __future__ import annotations

import subprocess
import sys


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_importing_numeric_leaves_x64_unchanged() -> None:
    """A fresh process: importing numeric and running a float64 comparison leave `jax_enable_x64` as they found it.
    The comparison is built from the claim's statement with the verdict given (`statement_comparisons`), not through
    `comparisons`, which would first run the SymPy engine on the claim (about 5 CPU-s of proofs/, which never touches
    JAX)."""
    code = (
        "import jax, jax.numpy as jnp\n"
        "before = jax.config.jax_enable_x64\n"
        "import numeric, numeric.mirrors, numeric.reference, numeric.reference.tolerances\n"
        "from proofs import get_claim\n"
        "from numeric.mirrors import compare, statement_comparisons\n"
        "statement = get_claim('ROPE-RELATIVE-MATRIX').statement\n"
        "outcome = compare(statement_comparisons(statement, 'proved', None)[0], 'float64', cases=4)\n"
        "print(before, jax.config.jax_enable_x64, jnp.arange(3).dtype, outcome.ok)"
    )
    assert _run(code) == "False False int32 True"


def test_x64_scope_restores_a_user_setting() -> None:
    code = (
        "import jax\n"
        "jax.config.update('jax_enable_x64', True)\n"
        "from numeric.mirrors import x64_enabled\n"
        "with x64_enabled():\n"
        "    pass\n"
        "print(jax.config.jax_enable_x64)"
    )
    assert _run(code) == "True"


def test_mirror_float64_really_is_float64() -> None:
    """Inside the scope the mirror's float64 column is float64 (a float32 stand-in would fail this)."""
    import numpy as np
    import sympy as sp
    from ropecheck.numeric.mirrors import compile_program, run_jax

    x = sp.Symbol("x", real=True)
    (value,) = run_jax(compile_program([x + sp.Rational(1, 3)]), {x: np.array([1.0])}, "float64")
    assert value[0] == 1.0 + 1.0 / 3.0
