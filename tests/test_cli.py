"""The `ropecheck claims` and `ropecheck prove` commands as a user runs them: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from numeric._cli import main
from proofs import claim_ids

ROPECHECK = shutil.which("ropecheck", path=str(Path(sys.executable).parent)) or "ropecheck"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ROPECHECK, *args], capture_output=True, text=True, timeout=300, env={**os.environ})


def test_claims_json_lists_every_claim_with_live_verdict_and_certificate(capsys: pytest.CaptureFixture[str]) -> None:
    from proofs import ENGINE_ONLY, coq_available

    code = main(["claims", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert {"decay", "precision_limits", "kernel"} <= set(payload)
    kernel = payload["kernel"]
    assert kernel["checker"] == "coq" and kernel["root"] == "proofs/coq"
    assert kernel["coqc_flags"] == "-R proofs/coq Ropecheck" and "coq_makefile" in kernel["build"]
    for entry in payload["claims"]:
        assert set(entry["numeric"]) == {"float16", "bfloat16", "float32", "float64", "mpmath"}
        for column in entry["numeric"].values():
            assert {"max_error", "bound", "ratio", "cases"} <= set(column)
    entries = {entry["id"]: entry for entry in payload["claims"]}
    assert list(entries) == claim_ids()
    for entry in entries.values():
        assert {"id", "title", "verdict", "method", "sources", "statement", "certificate"} <= set(entry)
        assert {"kernel_theorems", "verdict_reason", "engine_verdict"} <= set(entry)
        if not coq_available():
            assert entry["verdict"] == ENGINE_ONLY
            continue
        assert entry["verdict"] in {"proved", "refuted", "unknown"}
        if entry["verdict"] == "refuted":
            assert entry["correction"]["verdict"] == "proved"
            assert any(t["role"] == "negation" and t["status"] == "checked" for t in entry["kernel_theorems"])
        if entry["verdict"] == "proved":
            assert any(t["role"] == "verdict" and t["status"] == "checked" for t in entry["kernel_theorems"])
    undecided = [e for e in entries.values() if e["verdict"] == "unknown"]
    assert code == (1 if undecided else 0)


def test_claims_table_and_id_filter(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["claims", "--id", "ROPE-KV-COS-ONLY", "--id", "ROPE-RELATIVE-MATRIX"]) == 0
    out = capsys.readouterr().out
    assert "ROPE-KV-COS-ONLY" in out and "refuted" in out and "ROPE-RELATIVE-MATRIX" in out
    assert "ATT-EQUIVARIANCE" not in out
    assert "✓✓✓✓✓" in out  # ROPE-RELATIVE-MATRIX: the mirror confirms it in every format
    assert main(["claims", "--no-numeric", "--id", "ROPE-PAIR-FORMULA"]) == 0
    assert "numeric f16" not in capsys.readouterr().out


def test_unknown_claim_id_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["claims", "--id", "NO-SUCH-CLAIM"]) == 2
    assert "unknown claim ID: NO-SUCH-CLAIM" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "code", "verdict"),
    [
        (["sin(x)**2 + cos(x)**2 == 1"], 0, "proved"),
        (["sqrt(x**2) == x", "--positive", "x"], 0, "proved"),
        (["sqrt(x**2) == x", "--real", "x"], 1, "refuted"),
        (["sqrt(x**2) == x"], 1, "refuted"),
        (["exp(-1000) + 1 == 1"], 1, "refuted"),
        (["(x**2 - 1)/(x - 1) == x + 1"], 0, "proved"),
        (["zeta(x + 2) == zeta(x + 3)", "--real", "x"], 3, "unknown"),
    ],
)
def test_prove_verdicts_and_exit_codes(
    args: list[str], code: int, verdict: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["prove", *args, "--json"]) == code
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == verdict
    if verdict == "refuted":
        assert "counterexample" in out and "residual" in out
    if args[0].startswith("(x**2"):
        assert out["conditions"] == ["x - 1 != 0"]


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("x + 1", "not an equation"),
        ("foo(x) == 1", "unknown function: foo"),
        ("x + (1 == 2", "cannot parse"),
        ("__import__('os') == 1", "forbidden"),
    ],
)
def test_bad_statements_get_one_line_and_exit_2(statement: str, message: str) -> None:
    result = _run("prove", statement)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_console_script_prove_and_usage_errors() -> None:
    proved = _run("prove", "exp(I*pi) + 1 == 0")
    assert proved.returncode == 0 and proved.stdout.startswith("proved")
    usage = _run("claims", "--no-such-option")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr
