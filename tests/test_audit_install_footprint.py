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
"""


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=SUBPROCESS_BUDGET
    )


def test_the_audit_runs_without_jax_sympy_and_matplotlib() -> None:
    done = _run(SCRIPT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "exit 0 loaded []", done.stdout[-2000:]


def test_the_block_is_real() -> None:
    """Meta-test: under the same block an import of the claims side fails."""
    plugin = "import ropecheck.numeric.audit.function.pytest_plugin"
    done = _run(SCRIPT.replace(plugin, "import ropecheck.numeric.mirrors"))
    assert done.returncode != 0 and "blocked: audit-only install" in done.stderr, done.stderr[-2000:]
