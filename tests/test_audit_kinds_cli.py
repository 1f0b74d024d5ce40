"""`ropecheck audit TARGET --kind sinusoidal|bias|scores`: exit codes, JSON, reports, --list (issue #13)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ropecheck.cli._audit import main

SIN = "tests.audit_corpus.sinusoidal_impls"
BIAS = "tests.audit_corpus.bias_impls"
SCORES = "tests.audit_corpus.scores_impls"


def test_passing_sinusoidal_table_exits_0_with_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([f"{SIN}:sin_fairseq_offset", "--kind", "sinusoidal", "--layout", "concat", "--frequencies", "t2t",
                 "--offset", "2", "--max-position", "2048", "--dtypes", "float32", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["verdict"] == "pass" and data["kind"] == "sinusoidal"
    assert data["detected"]["offset"] == 2 and data["options"]["frequencies"] == "t2t"


def test_failing_bias_exits_1_with_root_cause_fix_and_claims(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([f"{BIAS}:bug_alibi_naive_slopes", "--kind", "bias", "--scheme", "alibi", "--max-position", "1024",
                 "--dtypes", "float32", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["root_causes"][0]["property"] == "slopes"
    failing = [f for f in data["findings"] if not f["ok"]]
    assert [f["property"] for f in failing] == ["slopes"]
    assert failing[0]["fix"] and "RPE-SHIFT-INVARIANCE" in failing[0]["claims"]
    assert "closest power of two" in data["summary"]


def test_scores_report_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([f"{SCORES}:bug_shaw_unclipped_past", "--kind", "scores", "--max-position", "512", "--dtypes",
                 "float32", "--report", str(tmp_path / "out")])
    assert code == 1
    markdown = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "clipping" in markdown and "kind scores" in markdown and "**Fix:**" in markdown
    assert "RPE-SHIFT-INVARIANCE" in html and "FAIL" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([f"{BIAS}:t5_bias", "--kind", "bias", "--scaling", "linear:4"], "takes no --scaling"),
        ([f"{SIN}:sin_interleaved", "--frequencies", "t2t"], "takes no --frequencies"),
        ([f"{BIAS}:t5_bias", "--kind", "bias", "--scheme", "t5:max_distance=1e9"], "positive integer"),
        ([f"{SIN}:sin_interleaved", "--kind", "ring"], "invalid choice"),
    ],
)
def test_bad_kind_options_exit_2_in_one_line(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error and error.count("\n") == 1


def test_list_includes_the_kinds_builtins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    for name, kind in (("x-transformers.alibi", "bias"), ("transformers.t5-bias", "bias"),
                       ("transformers.marian-sinusoidal", "sinusoidal"), ("keras-hub.sine-position-encoding",
                                                                          "sinusoidal")):
        assert rows[name]["kind"] == kind
