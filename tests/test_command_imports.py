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

import pytest

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]

#: Modules `audit-config` never uses, with what importing them cost (measured at load 5-6, issue #32).
NOT_USED_BY_AUDIT_CONFIG = {
    "ml_dtypes": "bfloat16 for measuring library accuracy; the tolerance model reads the committed table (~0.25 s)",
    "ropecheck.proofs.claims._ledger": "the claims ledger; the literature lines need one formula module",
    "ropecheck.proofs.prove._parse": "the statement parser (sympy.tensor, sympy.combinatorics: ~0.3 s)",
    "jax": "the mirrors' array library",
}


def _command_modules(argv: list[str], modules: list[str]) -> tuple[int, str, list[str]]:
    """(exit code, what it printed on stdout, those of `modules` it imported) of `ropecheck ARGV` run in a fresh
    process."""
    script = (
        "import contextlib, io, json, sys\n"
        "from ropecheck.cli._main import main\n"
        "report = io.StringIO()\n"
        "with contextlib.redirect_stdout(report):\n"
        f"    code = main({argv!r})\n"
        f"print(json.dumps([code, report.getvalue(), [m for m in {sorted(modules)!r} if m in sys.modules]]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=SUBPROCESS_BUDGET, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    code, printed, imported = json.loads(done.stdout.splitlines()[-1])
    return code, printed, imported


def test_audit_config_imports_only_what_it_uses() -> None:
    """The expected values, the sweeps and the literature lines of a llama3 config (no engine: the engines' own
    imports are theirs). Seen failing before the proofs and reference packages loaded their names lazily: ml_dtypes,
    the ledger and the statement parser were imported."""
    command = ["audit-config", "tests/model_configs/llama3.1-8b", "--json", "--engine", "none"]
    code, printed, imported = _command_modules(command, list(NOT_USED_BY_AUDIT_CONFIG))
    assert code == 0
    report = json.loads(printed)
    assert {line["claim"] for line in report["literature"]} >= {"CRITICAL-DIMENSION-LIU", "LLAMA3-IS-BY-PARTS"}
    assert report["layers"] and report["layers"][0]["inv_freq"]
    assert imported == [], {m: NOT_USED_BY_AUDIT_CONFIG[m] for m in imported}


def test_audit_attention_tells_bad_input_before_importing_torch() -> None:
    """A mistyped config path is a one-line error and exit 2 without torch's import (about 5 CPU-s). Seen failing on
    the old code, which imported torch first."""
    code, printed, imported = _command_modules(["audit-attention", "no/such/config.json", "--json"], ["torch"])
    assert (code, printed, imported) == (2, "", [])


def _environment(root: Path, settings: str) -> Path:
    """A virtual environment's layout with MLX-LM's two distributions installed; returns its interpreter's path."""
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "python").write_text("")
    (root / "pyvenv.cfg").write_text(settings)
    for name, version in (("mlx_lm", "0.1.2"), ("mlx", "3.4.5")):
        info = root / "lib" / "python3.11" / "site-packages" / f"{name}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n")
    return root / "bin" / "python"


def test_an_engine_environment_is_not_started_to_read_its_versions(tmp_path: Path, monkeypatch) -> None:
    """The versions of an engine's own environment come from its site-packages (one interpreter start less per
    command); an environment that also sees the system's packages is asked, as before. Seen failing on the old code,
    which started the environment's interpreter every time."""
    from ropecheck.numeric.audit.model_config.engines import _subprocess

    asked: list[list[str]] = []

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess:
        asked.append(command)
        return subprocess.CompletedProcess(command, 0, stdout="7.0 8.0\n", stderr="")

    monkeypatch.setattr(_subprocess.subprocess, "run", run)
    own = _environment(tmp_path / "own", "include-system-site-packages = false\n")
    assert _subprocess.environment_versions(own, ("mlx-lm", "mlx")) == ["0.1.2", "3.4.5"]
    assert asked == []
    shared = _environment(tmp_path / "shared", "include-system-site-packages = true\n")
    assert _subprocess.environment_versions(shared, ("mlx-lm", "mlx")) == ["7.0", "8.0"]
    assert asked and asked[0][0] == str(shared)


def test_audit_list_names_the_gpu_built_ins_without_importing_torch() -> None:
    """`ropecheck audit --list` on a machine without a GPU's device file (as every test machine) says the GPU-only
    built-ins need one — what torch would answer — without importing torch to ask (about 1.8 CPU-s). Seen failing on
    the old code, which imported torch for `torch.cuda.is_available()`."""
    from ropecheck.numeric.audit.adapters import _registry

    if _registry.gpu_device_files():
        pytest.skip(f"this machine has a GPU's device files ({_registry.gpu_device_files()}): torch is asked")
    code, printed, imported = _command_modules(["audit", "--list", "--json"], ["torch"])
    versions = {row["name"]: row["version"] for row in json.loads(printed)}
    assert code == 0 and imported == []
    assert {versions[name] for name in ("flash-attn", "liger-kernel", "vllm")} == {"skipped: needs a GPU"}
