"""What a new user reads at 80 columns (issue #24): every `--help` fits and wraps only at spaces, `ropecheck
--help` prints no Markdown, limits are stated; audit output piped is one record per line, and in a terminal a
wrapped finding's continuation lines sit under it."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest

from tests.test_cli_terminal import TMUX, _in_tmux

from ._budget import SUBPROCESS_BUDGET
from ._cli_in_process import CliResult, run_cli

ROOT = Path(__file__).resolve().parents[1]
HELPS = [["--help"], ["audit", "--help"], ["prove", "--help"], ["claims", "--help"]]
BUGGY = ["audit", "tests/audit_corpus/numpy_impls.py:bug_clockwise", "--base", "10000", "--max-position", "512",
         "--head-dim", "16", "--dtypes", "float32"]


@functools.cache
def _printed(arguments: tuple[str, ...], columns: int) -> CliResult:
    """What `ropecheck ARGUMENTS` prints with `COLUMNS=columns` (help texts, a usage error), run in this process
    (argparse reads the width from `COLUMNS` when it formats): it depends on nothing else, so each is run once per
    test process — a subprocess each cost about 0.3 CPU-s, 15 of them (issue 36). The process as a user starts
    it, wrapping in a real terminal, is `test_help_fits_a_real_80_column_terminal`."""
    with mock.patch.dict(os.environ, {"COLUMNS": str(columns)}):
        return run_cli(*arguments)


def _run(arguments: list[str], columns: int) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "ropecheck", *arguments], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=SUBPROCESS_BUDGET)


@pytest.mark.parametrize("arguments", HELPS, ids=[" ".join(a) for a in HELPS])
def test_help_fits_80_columns_and_never_breaks_a_word(arguments: list[str]) -> None:
    narrow, wide = _printed(tuple(arguments), 80), _printed(tuple(arguments), 200)
    assert narrow.returncode == 0, narrow.stderr
    too_long = [line for line in narrow.stdout.splitlines() if len(line) > 80]
    assert not too_long, too_long
    # Wrapping only at spaces leaves the words as they are: the same words at 80 and at 200 columns.
    assert narrow.stdout.split() == wide.stdout.split()
    assert "bidirectional=true|false" in _printed(("audit", "--help"), 80).stdout


def test_top_level_help_is_plain_text_with_exit_codes() -> None:
    out = _printed(("--help",), 80).stdout
    assert not [line for line in out.splitlines() if line.lstrip().startswith("|")], out
    assert "|---" not in out and "`" not in out
    for words in ("0 conforms · 1 a property fails", "0 proved (kernel-checked) · 4 proved by the engine"):
        assert words in " ".join(out.split())


def test_limits_are_stated_in_help() -> None:
    out = " ".join(_printed(("audit", "--help"), 80).stdout.split())
    assert "640 for --kind bias" in out and "64 for --kind sinusoidal" in out and "260 for --kind scores" in out
    # ... and the command line names its flags when one is broken.
    target = f"{ROOT / 'tests/audit_corpus/bias_impls.py'}:alibi_bias"
    refused = _printed(("audit", target, "--kind", "bias", "--max-position", "512"), 80)
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        "ropecheck audit: error: --max-position must be an integer of at least 640 for --kind bias, got 512"
    )


def test_piped_audit_output_is_one_record_per_line() -> None:
    result = _run(BUGGY, 80)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    failing = [line for line in lines if line.startswith("  FAIL direction: ")]
    assert len(failing) == 1 and failing[0].endswith("instead of n − m."), lines
    fixes = [line for line in lines if line.startswith("       fix: ")]
    assert len(fixes) == 1 and fixes[0].endswith("if this convention is intended"), lines
    assert any(len(line) > 80 for line in lines)  # not wrapped at 80 columns


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (the test bootstrap installs it as root)")
def test_terminal_wraps_under_the_finding() -> None:
    screen = _in_tmux(["env", "-C", str(ROOT), f"PYTHONPATH={ROOT}", sys.executable, "-m", "ropecheck", *BUGGY], 80)
    assert all(len(line) <= 80 for line in screen), screen
    start = next(i for i, line in enumerate(screen) if line.startswith("  FAIL direction: "))
    continued = screen[start + 1]
    assert continued.startswith("       ") and not continued.startswith("        "), screen[start:start + 3]
    fix = next(i for i, line in enumerate(screen) if line.startswith("       fix: "))
    assert screen[fix + 1].startswith(" " * 12) and screen[fix + 1].strip(), screen[fix:fix + 3]


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (the test bootstrap installs it as root)")
@pytest.mark.parametrize("arguments", HELPS, ids=[" ".join(a) for a in HELPS])
def test_help_fits_a_real_80_column_terminal(arguments: list[str]) -> None:
    # No COLUMNS: argparse asks the terminal; tmux joins lines the terminal wrapped (-J), so a long one shows.
    command = ["env", "-C", str(ROOT), "-u", "COLUMNS", f"PYTHONPATH={ROOT}", sys.executable, "-m", "ropecheck"]
    screen = _in_tmux([*command, *arguments], 80)
    assert any(line.startswith("usage: ropecheck") for line in screen), screen
    assert all(len(line) <= 80 for line in screen), [line for line in screen if len(line) > 80]
