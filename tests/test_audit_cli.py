"""`ropecheck audit` command line: exit codes, one JSON object, reports, one-line errors without a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ropecheck.cli._audit import main

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]
NP = "tests.audit_corpus.numpy_impls"
SMALL = ["--max-position", "1024", "--head-dim", "16", "--dtypes", "float32,bfloat16"]


def test_conforming_target_exits_0_with_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([f"{NP}:rope_half", "--json", *SMALL]) == 0
    out = capsys.readouterr().out
    report = json.loads(out)
    assert out.count("\n") == 1
    assert report["verdict"] == "pass" and report["layout"] == "half" and report["direction"] == "counter-clockwise"
    assert {"target", "base", "scaling", "dtypes", "findings", "certified"} <= set(report)
    assert all({"property", "ok", "detail", "claims"} <= set(f) for f in report["findings"])


def test_failing_target_exits_1_and_names_claims(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([f"{NP}:bug_positions_ignored", "--json", "--base", "10000", *SMALL]) == 1
    report = json.loads(capsys.readouterr().out)
    failing = [f for f in report["findings"] if not f["ok"]]
    assert failing and all(f["property"] == "positions" and f["status"] == "fail" and f["fix"] for f in failing)
    assert {"ROPE-KV-CACHE-REUSE", "ROPE-PREFIX-REPHASE"} <= set(failing[0]["claims"])
    assert report["root_causes"][0]["property"] == "positions" and report["summary"].startswith("FAIL")
    # The relative identity fails too, as a consequence: reported as explained, with its claims.
    relative = [f for f in report["findings"] if f["property"] == "relative"]
    assert relative and all(f["status"] == "explained" and f["explained_by"] == "positions" for f in relative)
    assert {"ROPE-RELATIVE-MATRIX", "ROPE-KV-CACHE-REUSE"} <= set(relative[0]["claims"])


def test_file_target_and_report_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = f"{ROOT / 'tests' / 'audit_corpus' / 'numpy_impls.py'}:bug_clockwise"
    assert main([target, "--report", str(tmp_path / "out"), *SMALL]) == 1
    text = capsys.readouterr().out
    assert "FAIL" in text and "direction" in text
    written = {p.name for p in (tmp_path / "out").iterdir()}
    assert {"report.md", "report.html", "angle_error.png", "certified.png"} <= written
    assert "clockwise" in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["no_such_module_xyz:fn"], "cannot import"),
        ([f"{NP}:no_such_fn"], "has no attribute"),
        ([f"{NP}:BASE"], "not a callable"),
        (["no-such-builtin"], "unknown target"),
        ([f"{NP}:bug_raises"], "RuntimeError"),
        ([f"{NP}:bug_hangs", "--timeout", "0.5"], "did not return within"),
        ([f"{NP}:rope_half", "--layout", "diagonal"], "--layout"),
        ([f"{NP}:rope_half", "--scaling", "yarn"], "needs a factor"),
        ([f"{NP}:rope_half", "--dtypes", "int8"], "unknown dtype"),
        ([], "required"),
    ],
)
def test_bad_usage_and_bad_targets_exit_2_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*SMALL, *arguments] if arguments else []) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert captured.out == ""


def test_subprocess_entry_point_has_no_traceback() -> None:
    code = "import sys; from ropecheck.cli._audit import main; sys.exit(main(sys.argv[1:]))"
    result = subprocess.run(
        [sys.executable, "-c", code, f"{NP}:bug_raises", *SMALL], cwd=ROOT, capture_output=True, text=True,
            timeout=SUBPROCESS_BUDGET
    )
    assert result.returncode == 2
    assert result.stderr.startswith("ropecheck audit: error:") and "Traceback" not in result.stderr
