"""`ropecheck audit-attention`'s text report in a terminal fits its width (issue #32: its lines were ~170 characters):
each finding wraps at spaces, its detail on continuation lines under the property name; piped, one record per line.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ropecheck.numeric.audit.attention import AttentionFinding, AttentionReport

from tests.test_cli_terminal import TMUX, _in_tmux

ROOT = Path(__file__).resolve().parents[1]
# The longest message kinds the audit prints (wording of _applied.py and _cache.py), and one token longer than a
# narrow terminal, which is kept whole (a path or a number is never cut).
MESSAGES = {
    "per-layer-spectrum": "per layer, the rotation each attention layer applies to q and k (before → after, at "
    "positions 0…15) against the expected table of audit-config: largest difference 3.1e-16 within the bound "
    "2.2e-12 (layer types full_attention; layers without RoPE: 3, 7)",
    "kv-cache": "prefill = token-by-token decode with the KV cache over 24 tokens: largest difference 1.7e-15 "
    "within the bound 6.9e-13",
    "mrope-stream-relative": "1-D RoPE (no mrope_section)",
}
LONG_TOKEN = "tests/model_configs/" + "x" * 70 + "/config.json"


def _report() -> AttentionReport:
    findings = [AttentionFinding(name, (), "ok" if "mrope" not in name else "not applicable", text)
                for name, text in MESSAGES.items()]
    findings.append(AttentionFinding("softmax-scale", (), "fail", f"read from {LONG_TOKEN} and then some words"))
    return AttentionReport("tests/model_configs/llama3.1-8b/config.json", "llama",
                           ["widths, depth and vocabulary shrunk; rope fields kept"], findings, 1.5)


def test_wrapped_text_fits_and_keeps_every_word() -> None:
    report = _report()
    piped, wrapped = report.to_text(), report.to_text(80)
    assert any(len(line) > 80 for line in piped.splitlines())  # one record per line when not a terminal
    assert wrapped.replace(":", "").split() == piped.replace(":", "").split()  # the same words, none cut
    long_lines = [line for line in wrapped.splitlines() if len(line) > 80]
    assert long_lines == [line for line in long_lines if LONG_TOKEN in line]  # only an unbreakable token overflows
    lines = wrapped.splitlines()
    start = next(i for i, line in enumerate(lines) if "per-layer-spectrum:" in line)
    assert lines[start].startswith("  ok ") and lines[start + 1].startswith(" " * 17)
    assert lines[start + 1][17] != " "  # continuation sits under the property name


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (the test bootstrap installs it as root)")
def test_report_fits_a_real_80_column_terminal() -> None:
    """The command's own printing path in a real 80-column pty (the width asked from the terminal, no COLUMNS).
    Seen failing when print_report ignores the terminal (lines of 214 characters)."""
    script = ("from tests.test_attention_report_width import _report, MESSAGES\n"
              "from ropecheck.cli._audit_attention import print_report\n"
              "report = _report(); report.findings.pop()\n"
              "print_report(report)\n")
    screen = _in_tmux(["env", "-C", str(ROOT), "-u", "COLUMNS", f"PYTHONPATH={ROOT}", sys.executable, "-c", script], 80)
    assert all(len(line) <= 80 for line in screen), [line for line in screen if len(line) > 80]
    assert any(line.startswith("  ok ") and "per-layer-spectrum:" in line for line in screen), screen
    assert "largest difference 3.1e-16 within the bound 2.2e-12" in " ".join(" ".join(screen).split())


@pytest.mark.deep
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (the test bootstrap installs it as root)")
def test_the_command_fits_a_real_80_column_terminal() -> None:
    """The whole command on a built-in config (torch and transformers: about 12 CPU-s, hence --deep)."""
    command = ["env", "-C", str(ROOT), "-u", "COLUMNS", f"PYTHONPATH={ROOT}", sys.executable, "-m", "ropecheck",
               "audit-attention", "llama-3.1"]
    screen = _in_tmux(command, 80)
    assert any(line.startswith("attention audit of llama-3.1") for line in screen), screen
    assert all(len(line) <= 80 for line in screen), [line for line in screen if len(line) > 80]
