"""The `ropecheck claims` and `ropecheck prove` commands as a user runs them: output, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ropecheck.proofs import claim_ids

from ropecheck.cli._main import main, unchecked_claims

from ._budget import SUBPROCESS_BUDGET
from ._prove_memo import one_coqc_run_per_source

ROPECHECK = shutil.which("ropecheck", path=str(Path(sys.executable).parent)) or "ropecheck"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ROPECHECK, *args], capture_output=True, text=True, timeout=SUBPROCESS_BUDGET,
        env={**os.environ})


def test_claims_json_lists_every_claim_with_live_verdict_and_certificate(capsys: pytest.CaptureFixture[str]) -> None:
    from ropecheck.proofs import ENGINE_ONLY, coq_available

    code = main(["claims", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert {"decay", "precision_limits", "kernel"} <= set(payload)
    kernel = payload["kernel"]
    assert kernel["checker"] == "coq" and kernel["root"] == "proofs/coq"
    assert kernel["coqc_flags"] == "-R proofs/coq Ropecheck" and "coq_makefile" in kernel["build"]
    for entry in payload["claims"]:
        formats = ("float16", "bfloat16", "float32", "float64", "mpmath")
        assert set(entry["numeric"]) == {*formats, "not_tested"}
        for column in (entry["numeric"][fmt] for fmt in formats):
            assert {"max_error", "bound", "ratio", "cases", "mark", "status"} <= set(column)
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
    # An unknown the development records (`(* UNKNOWN X: reason *)`) is a verdict; the run fails only on a
    # theorem that failed or a claim with none.
    assert code == (1 if unchecked_claims(list(entries.values())) else 0)
    if coq_available():
        unknown = {e["id"]: e["verdict_reason"] for e in entries.values() if e["verdict"] == "unknown"}
        assert all(reason.startswith("the kernel cannot close it") for reason in unknown.values()), unknown


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
    assert "unknown claim ID 'NO-SUCH-CLAIM'" in capsys.readouterr().err
    assert main(["claims", "show", "rope-decay-boun", "--no-numeric"]) == 2
    assert "did you mean ROPE-DECAY-BOUND" in capsys.readouterr().err


def test_claim_ids_are_case_insensitive_and_show_prints_one_claim(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["claims", "show", "rope_decay_monotone", "--no-numeric"]) == 0
    out = capsys.readouterr().out
    assert "ROPE-DECAY-MONOTONE" in out and "Sources" in out and "Correction" in out
    # the counterexample in words, not a SymPy string
    assert "|score(11)| = 42.34" in out and "|score(12)| = 42.38" in out
    assert main(["claims", "list"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(claim_ids())


# `prove`: 4 = proved by the engine only (the kernel could not check it), 0 = proved and kernel-checked.
PROVED_CODES = {"proved": 0, "engine-proved": 4}


@pytest.fixture(autouse=True)
def _one_coqc_run_per_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process `prove` runs whose `.v` text another test of this worker had checked (test_prove_statement.py's
    'sin(2*x) == 2*sin(x)*cos(x)' over the reals) read coqc's answer from memory (`tests/_prove_memo.py`); the
    subprocess tests here start their own coqc."""
    one_coqc_run_per_source(monkeypatch)


@pytest.mark.parametrize(
    ("args", "code", "verdict"),
    [
        (["sin(x)**2 + cos(x)**2 == 1"], None, "proved"),
        (["sqrt(x**2) == x", "--positive", "x"], None, "proved"),
        (["sqrt(x**2) == x", "--real", "x"], 1, "refuted"),
        (["sqrt(x**2) == x"], 1, "refuted"),
        (["exp(-1000) + 1 == 1"], 1, "refuted"),
        (["(x**2 - 1)/(x - 1) == x + 1"], None, "proved"),
        (["floor(x) + floor(x + 1/2) == floor(2*x)", "--real", "x"], 3, "unknown"),
    ],
)
def test_prove_verdicts_and_exit_codes(
    args: list[str], code: int | None, verdict: str, capsys: pytest.CaptureFixture[str]
) -> None:
    returned = main(["prove", *args, "--json"])
    out = json.loads(capsys.readouterr().out)
    if verdict == "proved":
        assert out["verdict"] in PROVED_CODES and returned == PROVED_CODES[out["verdict"]]
        assert (out["verdict"] == "proved") == bool(out["kernel"]["accepted"])
    else:
        assert out["verdict"] == verdict and returned == code
    if verdict == "refuted":
        assert "counterexample" in out and "residual" in out
    if args[0].startswith("(x**2"):
        assert out["conditions"] == ["x - 1 != 0"]


@pytest.mark.parametrize(
    ("statement", "message"),
    [
        ("x + 1", "not an equation"),
        ("foo(x) == 1", "unknown function: foo"),
        # refused as foo above (and as Mod in test_prove_hostile.py), a worker each: `--deep` only
        pytest.param("zeta(x) == 1", "unknown function: zeta", marks=pytest.mark.deep),
        ("x + (1 == 2", "expected ')'"),
        ("__import__('os') == 1", "names may not start with '_'"),
        # test_prove_hostile.py's x² case gets this message through `prove` too: `--deep` only
        pytest.param("x² == x**2", "did you mean x**2?", marks=pytest.mark.deep),
    ],
)
def test_bad_statements_get_one_line_and_exit_2(statement: str, message: str) -> None:
    result = _run("prove", statement)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_console_script_prove_and_usage_errors() -> None:
    proved = _run("prove", "exp(I*pi) + 1 == 0")
    assert proved.returncode in (0, 4)
    assert proved.stdout.startswith("proved" if proved.returncode == 0 else "proved by the engine only")
    usage = _run("claims", "--no-such-option")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_prove_says_proved_only_when_the_kernel_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    from ropecheck.proofs.kernel._kernel import coq_available

    code = main(["prove", "sin(2*x) == 2*sin(x)*cos(x)", "--real", "x", "--json"])
    out = json.loads(capsys.readouterr().out)
    if coq_available():
        assert (code, out["verdict"], out["kernel"]["status"]) == (0, "proved", "checked")
        assert out["kernel"]["statement"].startswith("forall (x : R)")
    else:
        assert (code, out["verdict"], out["kernel"]["status"]) == (4, "engine-proved", "not-run")
    # complex symbols: the printer refuses, so the engine's proof stays engine-only
    assert main(["prove", "sin(2*x) == 2*sin(x)*cos(x)", "--json"]) == 4
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "engine-proved" and out["kernel"]["accepted"] is False
    # --no-kernel skips it, and the text says why
    assert main(["prove", "sin(2*x) == 2*sin(x)*cos(x)", "--real", "x", "--no-kernel"]) == 4
    assert "proved by the engine only" in capsys.readouterr().out


def test_a_statement_starting_with_a_minus_sign_is_the_statement(capsys: pytest.CaptureFixture[str]) -> None:
    # Found by the CLI fuzz test: argparse read "-x" as an option and asked for the statement.
    assert main(["prove", "-x == -x", "--no-kernel"]) == PROVED_CODES["engine-proved"]
    assert capsys.readouterr().out.startswith("proved by the engine only")
    assert main(["prove", "-x", "--timeout", "5", "--no-kernel"]) == 2
    assert capsys.readouterr().err.startswith("ropecheck: bad statement:")
