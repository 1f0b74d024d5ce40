"""Issue #20 point 8 and issue #24 "Messages": what a user reads on the terminal (the CLI's own output), checked
message by message."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _cli(*args: str, timeout: int = 280) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ropecheck", "audit", *args], capture_output=True, text=True, timeout=timeout
    )


def _text(result: subprocess.CompletedProcess[str]) -> str:
    """stdout with terminal wrapping undone (rich wraps at the console width)."""
    return " ".join(result.stdout.split())


def test_list_has_a_header_each_targets_defaults_and_fits_80_columns() -> None:
    result = _cli("--list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Built-in targets.") and any(line.startswith("NAME") for line in lines[:5])
    assert max(len(line) for line in lines) <= 80
    assert "defaults: base 10000, llama3:8" in result.stdout
    assert "defaults: scheme alibi" in result.stdout


def test_a_builtin_alone_uses_its_own_defaults() -> None:
    pytest.importorskip("transformers")
    result = _cli("transformers.llama3", "--max-position", "1024", "--dtypes", "float32")
    text = _text(result)
    assert result.returncode == 0, text
    assert "PASS" in text and "inferred" not in text
    assert "audited with its library's defaults (base 10000, scaling llama3:8" in text
