"""What the model-level commands import (issue #32: `audit-config` and `audit-attention` ≤ 10 CPU-s per config, where
imports are nearly all of it): a command pays for what it uses, never for a part of ropecheck it does not reach.

Each test runs the command as a user does, in a fresh process, and reads `sys.modules` at its end. Speed itself is
measured in `benchmarks/config_audit_speed.py`, never asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]

#: Modules `audit-config` never uses, with what importing them cost (measured at load 5-6, issue #32).
NOT_USED_BY_AUDIT_CONFIG = {
    "ml_dtypes": "bfloat16 for measuring library accuracy; the tolerance model reads the committed table (~0.25 s)",
    "ropecheck.proofs.claims._ledger": "the claims ledger; the literature lines need one formula module",
    "ropecheck.proofs.prove._parse": "the statement parser (sympy.tensor, sympy.combinatorics: ~0.3 s)",
    "jax": "the mirrors' array library",
}


def _command_modules(argv: list[str]) -> tuple[int, dict, list[str]]:
    """(exit code, the JSON report, the modules of `NOT_USED_BY_AUDIT_CONFIG` imported) of `ropecheck ARGV` run in a
    fresh process."""
    script = (
        "import contextlib, io, json, sys\n"
        "from ropecheck.cli._main import main\n"
        "report = io.StringIO()\n"
        "with contextlib.redirect_stdout(report):\n"
        f"    code = main({argv!r})\n"
        f"print(json.dumps([code, report.getvalue(), [m for m in {sorted(NOT_USED_BY_AUDIT_CONFIG)!r}"
        " if m in sys.modules]]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=SUBPROCESS_BUDGET, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    code, report, imported = json.loads(done.stdout.splitlines()[-1])
    return code, json.loads(report), imported


def test_audit_config_imports_only_what_it_uses() -> None:
    """The expected values, the sweeps and the literature lines of a llama3 config (no engine: the engines' own
    imports are theirs). Seen failing before the proofs and reference packages loaded their names lazily: ml_dtypes,
    the ledger and the statement parser were imported."""
    code, report, imported = _command_modules(
        ["audit-config", "tests/model_configs/llama3.1-8b", "--json", "--engine", "none"])
    assert code == 0
    assert {line["claim"] for line in report["literature"]} >= {"CRITICAL-DIMENSION-LIU", "LLAMA3-IS-BY-PARTS"}
    assert report["layers"] and report["layers"][0]["inv_freq"]
    assert imported == [], {m: NOT_USED_BY_AUDIT_CONFIG[m] for m in imported}
