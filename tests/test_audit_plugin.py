"""The pytest plugin: `pytest --rope-impl TARGET` adds one item per property inside another project's suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run_pytest(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_own.py").write_text("def test_own_project():\n    assert True\n", encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    options = ["--rope-max-position", "512", "--rope-head-dim", "16", "--rope-dtypes", "float32"]
    # This checkout's plugin, whatever an installed entry point names (an editable install may predate a move).
    plugin = ["-p", "no:ropecheck", "-p", "numeric.audit.pytest_plugin"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugin, "-rA", *options, *arguments],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_plugin_reports_each_property_for_a_buggy_target(tmp_path: Path) -> None:
    result = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:bug_clockwise")
    assert result.returncode == 1, result.stdout
    assert "ropecheck: auditing RoPE target tests.audit_corpus.numpy_impls:bug_clockwise" in result.stdout
    assert "FAILED ::ropecheck[tests.audit_corpus.numpy_impls:bug_clockwise]::direction" in result.stdout
    assert "PASSED ::ropecheck[tests.audit_corpus.numpy_impls:bug_clockwise]::contract" in result.stdout
    assert "test_own.py::test_own_project" in result.stdout


def test_plugin_passes_a_correct_target_and_stays_out_otherwise(tmp_path: Path) -> None:
    result = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:rope_half", "--rope-base", "10000")
    assert result.returncode == 0, result.stdout
    assert "12 passed" in result.stdout
    # Strict by default: an undeclared base fails spectrum, with the base to declare.
    undeclared = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:rope_half")
    assert undeclared.returncode == 1 and "::spectrum" in undeclared.stdout and "--base 10000" in undeclared.stdout
    lenient = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:rope_half", "--rope-no-strict")
    assert lenient.returncode == 0, lenient.stdout
    plain = _run_pytest(tmp_path)
    assert plain.returncode == 0 and "1 passed" in plain.stdout and "auditing RoPE target" not in plain.stdout


def test_plugin_import_is_light() -> None:
    code = (
        "import sys, numeric.audit.pytest_plugin;"
        " print(sorted(m for m in ('numpy', 'torch', 'jax') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "[]"


def test_plugin_audits_other_kinds(tmp_path: Path) -> None:
    # --rope-kind bias: one item per bias property; the root cause fails, an inapplicable property is skipped.
    result = _run_pytest(
        tmp_path, "--rope-impl", "tests.audit_corpus.bias_impls:bug_alibi_reversed", "--rope-kind", "bias",
        "--rope-max-position", "1024",
    )
    assert result.returncode == 1, result.stdout
    assert "FAILED ::ropecheck[tests.audit_corpus.bias_impls:bug_alibi_reversed]::slopes" in result.stdout
    assert "SKIPPED" in result.stdout and "applies to T5 biases only" in result.stdout
    assert "auditing bias target" in result.stdout
    passing = _run_pytest(
        tmp_path, "--rope-impl", "tests.audit_corpus.sinusoidal_impls:sin_concat_t2t", "--rope-kind", "sinusoidal",
        "--rope-frequencies", "t2t", "--rope-max-position", "1024",
    )
    assert passing.returncode == 0, passing.stdout
    assert "PASSED ::ropecheck[tests.audit_corpus.sinusoidal_impls:sin_concat_t2t]::spectrum" in passing.stdout
