"""The auditor runs without the claims side (issue 36, item 7): `ropecheck audit` and the pytest plugin work with
JAX, SymPy and matplotlib made unimportable, so the audit-only install docs/pytest-plugin.md gives
(`pip install --no-deps` plus NumPy, mpmath, ml_dtypes, rich) is enough."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parent.parent
BLOCKED = ("jax", "jaxlib", "sympy", "matplotlib")
# A fresh interpreter in which importing any of BLOCKED fails, as it would where they are not installed.
SCRIPT = f"""
import importlib.abc, sys
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked: audit-only install)")
sys.meta_path.insert(0, Absent())
import ropecheck.numeric.audit.function.pytest_plugin
from ropecheck.cli import main
code = main(["audit", "tests.audit_corpus.numpy_impls:rope_half", "--base", "10000", "--max-position", "64"])
loaded = sorted({{m.split(".")[0] for m in sys.modules}} & set({BLOCKED!r}))
print("exit", code, "loaded", loaded)
try:  # the block is real: the claims side cannot be imported under it
    import ropecheck.numeric.mirrors
except ModuleNotFoundError as error:
    print("claims side blocked:", "audit-only install" in str(error))
"""


def test_the_audit_runs_without_jax_sympy_and_matplotlib() -> None:
    """One fresh interpreter (about 8 CPU-s): the audit and the plugin run, none of the blocked packages is loaded,
    and — the meta-test that the block is real — importing the claims side fails under it."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=SUBPROCESS_BUDGET
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-2:] == ["exit 0 loaded []", "claims side blocked: True"], done.stdout
