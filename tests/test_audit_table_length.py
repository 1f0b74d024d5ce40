"""Issue #20, points 6–7: a fixed-length table is found in every kind (the six sinusoidal properties are evaluated on
the positions it holds), and a table shorter than `--max-position` fails by default ("the table holds N positions;
the model needs M") unless accepted explicitly; the flipped-exponent sinusoidal table is named."""

from __future__ import annotations

import subprocess
import sys

from ropecheck.numeric.audit import audit

from tests.audit_corpus import real_opennmt, real_torch

from ._budget import SUBPROCESS_BUDGET

SIX = ("layout", "spectrum", "positions", "precision", "relative", "shift")


def test_opennmt_5000_row_table_is_audited_on_its_positions() -> None:
    report = audit(
        real_opennmt.opennmt_table, kind="sinusoidal", max_position=8192, dtypes="float32", accept_short_table=True
    )
    assert report.verdict == "pass", report.summary
    assert report.table_positions == 5000 and report.max_position == 5000
    evaluated = {f.property for f in report.findings if f.status == "pass"}
    assert set(SIX) <= evaluated and not report.not_evaluated
    assert "The table holds 5000 positions" in report.summary


def test_opennmt_table_shorter_than_the_context_fails_by_default() -> None:
    report = audit(real_opennmt.opennmt_table, kind="sinusoidal", max_position=8192, dtypes="float32")
    assert report.verdict == "fail"
    assert [root["property"] for root in report.root_causes] == ["contract"]
    assert "The table holds 5000 positions; the model needs 8192" in report.summary
    assert "--accept-short-table" in report.summary
    # The six properties still hold on 0…4999: the short table explains nothing else.
    assert set(SIX) <= {f.property for f in report.findings if f.status == "pass"}


def test_rope_table_shorter_than_the_context_fails_by_default_and_passes_when_accepted() -> None:
    failing = audit(real_torch.MetaLlamaRope(64), base=10000, max_position=8192, head_dim=64, dtypes="float32")
    assert [root["property"] for root in failing.root_causes] == ["contract"], failing.summary
    assert "the model needs 8192" in failing.summary
    accepted = audit(
        real_torch.MetaLlamaRope(64), base=10000, max_position=8192, head_dim=64, dtypes="float32",
        accept_short_table=True,
    )
    assert accepted.verdict == "pass", accepted.summary


def test_cli_short_table_exit_code_and_flag() -> None:
    target = "tests/audit_corpus/real_opennmt.py:opennmt_table"
    command = [sys.executable, "-m", "ropecheck", "audit", target, "--kind", "sinusoidal", "--max-position", "8192",
               "--dtypes", "float32"]
    failing = subprocess.run(command, capture_output=True, text=True, timeout=SUBPROCESS_BUDGET)
    assert failing.returncode == 1, failing.stderr
    assert "the model needs 8192" in " ".join(failing.stdout.split())
    accepted = subprocess.run([*command, "--accept-short-table"], capture_output=True, text=True,
        timeout=SUBPROCESS_BUDGET)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr


def test_flipped_exponent_table_is_named() -> None:
    report = audit(real_opennmt.opennmt_flipped, kind="sinusoidal", max_position=4096, dtypes="float32")
    spectrum = next(f for f in report.findings if f.property == "spectrum")
    assert not spectrum.ok and "the sign of the exponent is flipped" in spectrum.detail
    assert "frequencies are frequencies" not in report.summary


def test_bias_table_length_is_found_and_a_short_one_fails() -> None:
    from tests.audit_corpus import real_alibi

    failing = audit(real_alibi.bloom_alibi_2048, kind="bias", max_position=4096, dtypes="float32")
    assert [root["property"] for root in failing.root_causes] == ["contract"], failing.summary
    assert "The table holds 2048 positions; the model needs 4096" in failing.summary
    accepted = audit(
        real_alibi.bloom_alibi_2048, kind="bias", max_position=4096, dtypes="float32", accept_short_table=True
    )
    assert accepted.verdict == "pass" and accepted.table_positions == 2048, accepted.summary
    assert set(accepted.not_evaluated) == {"buckets"}  # T5 only; every ALiBi property evaluated on 0…2047
