"""Issue #20 point 8 and issue #24 "Messages": what a user reads on the terminal (the CLI's own output), checked
message by message."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._cli_in_process import CliResult, run_cli


def _cli(*args: str) -> CliResult:
    """`ropecheck audit ARGS…`, in this process: these tests read what it prints (tests/test_audit_noise.py and
    tests/test_audit_cli.py keep the process-level behaviour)."""
    return run_cli("audit", *args)


def _text(result: CliResult) -> str:
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


ROPE = ("--max-position", "2048", "--head-dim", "64", "--dtypes", "float32")
TARGETS = "tests/audit_corpus/message_targets.py"


def test_llama3_with_its_base_alone_is_told_the_scaling() -> None:
    result = _cli(f"{TARGETS}:llama3_rope", "--base", "500000", *ROPE)
    text = _text(result)
    assert result.returncode == 1
    assert "--scaling llama3:8" in text and "fitted ratio" in text


@pytest.fixture(scope="module")
def wrong_base_text() -> str:
    """The text report of a target whose base is not the declared one (read by two tests: one audit)."""
    return _text(_cli(f"{TARGETS}:wrong_base_rope", "--base", "500000", *ROPE))


def test_header_shows_the_declared_base_and_the_fitted_one_apart(wrong_base_text: str) -> None:
    text = wrong_base_text
    assert "base: 500000 (declared); the spectrum fits 50000" in text
    assert "base: 50000 (declared)" not in text


def test_no_certified_context_next_to_a_failure_and_no_internal_keys(wrong_base_text: str) -> None:
    text = wrong_base_text
    assert "FAIL" in text and "every audited position" not in text
    assert "not certified: spectrum fails" in text
    as_json = _cli(f"{TARGETS}:wrong_base_rope", "--base", "500000", *ROPE, "--json").stdout
    assert "predicted_for_policy_implementation" not in as_json


def test_kind_reports_read_as_words() -> None:
    bias = _text(_cli("tests/audit_corpus/real_alibi.py:press_causal_8", "--kind", "bias", "--max-position", "1024"))
    assert "table_readable" not in bias and "scheme_source" not in bias
    table = _cli("tests/audit_corpus/sinusoidal_impls.py:BugGrowsFromLength", "--kind", "sinusoidal",
                 "--max-position", "1024", "--dtypes", "float32")
    text = _text(table)
    assert "declared: base 10000" not in text and "defaults: base 10000" in text
    assert "float32, float32" not in text


def test_a_property_is_either_not_evaluated_or_ok() -> None:
    result = _cli("tests/audit_corpus/real_alibi.py:off_by_one_slopes_8", "--kind", "bias", "--max-position", "1024",
                  "--dtypes", "float32,bfloat16")
    lines = result.stdout.splitlines()
    skipped = {line.split()[1].rstrip(":") for line in lines if line.lstrip().startswith("—")}
    passed = {line.split()[1] for line in lines if line.lstrip().startswith("ok ")}
    assert "precision" in skipped and not skipped & passed
    assert "2^(−8(h + 1)/n)" in _text(result) and "not a power of two" not in _text(result)


def test_half_layout_table_indexed_as_interleaved_is_named() -> None:
    result = _cli(f"{TARGETS}:half_table_indexed_interleaved", "--base", "10000", "--max-position", "2048",
                  "--head-dim", "128", "--dtypes", "float32")
    text = _text(result)
    assert "Pairs 32–63 repeat pairs 0–31: a half-layout table (cat(freqs, freqs)) indexed as interleaved" in text
    assert "repeat_interleave(freqs, 2)" in text


def test_xpos_fix_is_not_only_about_a_shaw_table() -> None:
    text = _text(_cli(f"{TARGETS}:xpos_same_sign_scores", "--kind", "scores", "--max-position", "1024",
                      "--dtypes", "float32", "--head-dim", "64"))
    assert "xPos keys scaled by ζ^(−n/γ)" in text


def test_conformance_row_of_a_bias_builtin_shows_only_what_applies(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "docs" / "_ext"))
    pytest.importorskip("sphinx")
    from ropecheck_docs import _conformance_page

    row = {"name": "keras-hub.alibi", "library": "keras-hub", "version": "0.32.0", "verdict": "pass",
           "status": "audited", "layout": "bias: alibi", "direction": "n/a", "base": None, "scaling": None,
           "certified": {}, "failures": []}
    cells = " ".join(_conformance_page._conformance_row(row))
    assert "alibi" in cells and "None" not in cells and "n/a" not in cells and "base" not in cells


def test_markdown_report_says_not_evaluated_not_ok(tmp_path: Path) -> None:
    result = _cli("tests/audit_corpus/real_alibi.py:off_by_one_slopes_8", "--kind", "bias", "--max-position", "1024",
                  "--dtypes", "float32", "--report", str(tmp_path))
    assert result.returncode == 1, result.stderr
    rows = [line for line in (tmp_path / "report.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| precision |")]
    assert rows and all("| not evaluated |" in row and "| ok" not in row for row in rows)


def test_a_failing_report_certifies_no_dtype_whose_properties_did_not_all_run() -> None:
    """Issue #34: the off-by-one position's identity fails in float32 and is not evaluated in the 16-bit dtypes;
    none of them reads "certified"."""
    from ropecheck.numeric.audit import audit
    from ropecheck.numeric.audit.report.markdown import certified_text

    from tests.audit_corpus import numpy_impls

    report = audit(numpy_impls.bug_off_by_one, base=10000, head_dim=64, max_position=1024)
    assert report.verdict == "fail"
    texts = {dtype: certified_text(report, dtype) for dtype in report.certified}
    assert texts and all(text.startswith("not certified") for text in texts.values()), texts
    assert "identity not evaluated in bfloat16" in texts["bfloat16"]
