"""The README's quick start, followed verbatim in a fresh directory with the installed package (issue #24): the
audit command on one's own RoPE, then the pytest plugin configured by the README's `pyproject.toml` lines."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]

# The user's own RoPE, at the path the quick start names: half-split pairs, base 10000, computed in float64 and
# returned in the input's dtype.
USER_ROPE = '''import numpy as np


def apply_rope(x, positions):
    x = np.asarray(x)
    d = x.shape[-1]
    angles = np.asarray(positions, dtype=np.float64)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)[None, :]
    x1, x2 = x[..., : d // 2].astype(np.float64), x[..., d // 2 :].astype(np.float64)
    cos, sin = np.cos(angles), np.sin(angles)
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(x.dtype)
'''


def _quick_start() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Quick start", 1)[1].split("\n## ", 1)[0]


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout, as the installed package
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=SUBPROCESS_BUDGET)


def test_quick_start_is_short_and_opens_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.index("## Quick start") < 800
    lines = [line for line in _quick_start().splitlines() if line.strip()]
    assert len(lines) <= 32, len(lines)
    assert "    bash .ci/bootstrap main && .venv/bin/ropecheck claims" in lines
    assert "    bash .ci/bootstrap test && .venv/bin/python -m pytest" in lines


def test_quick_start_audit_and_plugin_steps_verbatim(tmp_path: Path) -> None:
    quick = _quick_start()
    audit_lines = re.findall(r"(?m)^    (\.venv/bin/ropecheck audit .+)$", quick)
    assert len(audit_lines) == 1, audit_lines
    argv = shlex.split(audit_lines[0])
    target = argv[2].rpartition(":")[0]
    (tmp_path / target).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / target).write_text(USER_ROPE, encoding="utf-8")
    audited = _run([sys.executable, "-m", "ropecheck", *argv[1:]], tmp_path)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "pass" in audited.stdout.lower()
    # The plugin step: the README's pyproject.toml lines, then plain `pytest` (the installed entry point).
    block = re.search(r"(?m)^    \[tool\.pytest\.ini_options\]\n(?:^    .+\n)+", quick)
    assert block is not None
    (tmp_path / "pyproject.toml").write_text("\n".join(line[4:] for line in block.group(0).splitlines()) + "\n")
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n", encoding="utf-8")
    tested = _run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"], tmp_path)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert f"PASSED ropecheck::{argv[2]}::direction" in tested.stdout
    assert "PASSED test_own.py::test_own" in tested.stdout
    # And a wrong RoPE at that path fails the same steps (the check can fail).
    (tmp_path / target).write_text(USER_ROPE.replace("x1 * sin + x2 * cos", "-x1 * sin + x2 * cos")
                                   .replace("x1 * cos - x2 * sin", "x1 * cos + x2 * sin"), encoding="utf-8")
    assert _run([sys.executable, "-m", "ropecheck", *argv[1:]], tmp_path).returncode == 1
    failing = _run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA"], tmp_path)
    assert failing.returncode == 1 and f"FAILED ropecheck::{argv[2]}::direction" in failing.stdout
