"""The pytest plugin: `pytest --rope-impl TARGET` adds one item per property inside another project's suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ._budget import SUBPROCESS_BUDGET
from ._cli_in_process import CliResult, run_pytest

ROOT = Path(__file__).resolve().parents[1]


def _run_pytest(tmp_path: Path, *arguments: str) -> CliResult:
    """pytest with this checkout's plugin (whatever an installed entry point names) in `tmp_path`, in this process:
    these tests read what it reports (the pyproject test below runs pytest in a fresh process)."""
    (tmp_path / "test_own.py").write_text("def test_own_project():\n    assert True\n", encoding="utf-8")
    options = ["--rope-max-position", "512", "--rope-head-dim", "16", "--rope-dtypes", "float32"]
    return run_pytest(tmp_path, *options, *arguments)


def test_plugin_reports_each_property_for_a_buggy_target(tmp_path: Path) -> None:
    result = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:bug_clockwise")
    assert result.returncode == 1, result.stdout
    assert "ropecheck: auditing RoPE target tests.audit_corpus.numpy_impls:bug_clockwise" in result.stdout
    assert "FAILED ropecheck::tests.audit_corpus.numpy_impls:bug_clockwise::direction" in result.stdout
    assert "PASSED ropecheck::tests.audit_corpus.numpy_impls:bug_clockwise::contract[float32]" in result.stdout
    # What is collected is what runs: 7 per-dtype properties × 1 dtype + 4 others + the project's own test.
    assert "collected 12 items" in result.stdout and "2 failed, 10 passed" in result.stdout
    assert "test_own.py::test_own_project" in result.stdout


def test_plugin_passes_a_correct_target_and_stays_out_otherwise(tmp_path: Path) -> None:
    result = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:rope_half", "--rope-base", "10000")
    assert result.returncode == 0, result.stdout
    assert "12 passed" in result.stdout
    # Strict by default: an undeclared base fails spectrum, with the base to declare.
    undeclared = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:rope_half")
    assert undeclared.returncode == 1 and "::spectrum" in undeclared.stdout
    # The fix names the plugin's own option, not the command line's `--base`.
    assert "--rope-base 10000 (ini: rope_base)" in undeclared.stdout and " --base" not in undeclared.stdout
    lenient = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:rope_half", "--rope-no-strict")
    assert lenient.returncode == 0, lenient.stdout
    plain = _run_pytest(tmp_path)
    assert plain.returncode == 0 and "1 passed" in plain.stdout and "auditing RoPE target" not in plain.stdout


def test_plugin_import_is_light() -> None:
    code = (
        "import sys, numeric.audit.function.pytest_plugin;"
        " print(sorted(m for m in ('numpy', 'torch', 'jax') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
        timeout=SUBPROCESS_BUDGET)
    assert result.stdout.strip() == "[]"


def test_plugin_audits_other_kinds(tmp_path: Path) -> None:
    # --rope-kind bias: one item per bias property; the root cause fails, an inapplicable property is skipped.
    result = _run_pytest(
        tmp_path, "--rope-impl", "tests.audit_corpus.bias_impls:bug_alibi_reversed", "--rope-kind", "bias",
        "--rope-max-position", "1024",
    )
    assert result.returncode == 1, result.stdout
    assert "FAILED ropecheck::tests.audit_corpus.bias_impls:bug_alibi_reversed::slopes" in result.stdout
    assert "SKIPPED" in result.stdout and "applies to T5 biases only" in result.stdout
    assert "auditing bias target" in result.stdout
    passing = _run_pytest(
        tmp_path, "--rope-impl", "tests.audit_corpus.sinusoidal_impls:sin_concat_t2t", "--rope-kind", "sinusoidal",
        "--rope-frequencies", "t2t", "--rope-max-position", "1024",
    )
    assert passing.returncode == 0, passing.stdout
    assert "PASSED ropecheck::tests.audit_corpus.sinusoidal_impls:sin_concat_t2t::spectrum" in passing.stdout
    assert "PASSED ropecheck::tests.audit_corpus.sinusoidal_impls:sin_concat_t2t::shift[float32]" in passing.stdout


def test_a_bad_target_is_one_usage_error(tmp_path: Path) -> None:
    (tmp_path / "not_callable_mod.py").write_text("VALUE = 3\n", encoding="utf-8")
    cases = {
        "no_such_module_xyz:rope": "cannot import 'no_such_module_xyz'",
        "tests.audit_corpus.numpy_impls:missing": "has no attribute 'missing'",
        "not_callable_mod.py:VALUE": "not a callable",
    }
    for target, reason in cases.items():
        result = _run_pytest(tmp_path, "--rope-impl", target)
        assert result.returncode == 4, (target, result.stdout, result.stderr)  # pytest's usage-error exit code
        errors = [line for line in result.stderr.splitlines() if line.startswith("ERROR:")]
        assert len(errors) == 1 and target in errors[0] and reason in errors[0], result.stderr
        assert "FAILED" not in result.stdout and "passed" not in result.stdout
    budget = _run_pytest(tmp_path, "--rope-impl", "tests.audit_corpus.numpy_impls:rope_half", "--rope-budget", "-1")
    assert budget.returncode == 4 and "--rope-budget must be positive" in budget.stderr
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\nrope_impl = tests.audit_corpus.numpy_impls:rope_half\nrope_timeout = soon\n", encoding="utf-8"
    )
    typed = _run_pytest(tmp_path)
    assert typed.returncode == 4 and "rope_timeout = 'soon' is not a valid float" in typed.stderr


def test_settings_from_pyproject_and_the_command_line_wins(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.pytest.ini_options]\n"
        'rope_impl = "tests.audit_corpus.numpy_impls:rope_half"\n'
        'rope_base = "10000"\n'
        'rope_max_position = "512"\n'
        'rope_head_dim = "16"\n'
        'rope_dtypes = "float32,float16"\n'
        'rope_budget = "0.25"\n',
        encoding="utf-8",
    )
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:ropecheck",
               "-p", "ropecheck.numeric.audit.function.pytest_plugin", "-rA", "--junitxml", str(tmp_path / "out.xml")]
    result = subprocess.run(command, cwd=tmp_path, env=environment, capture_output=True, text=True,
        timeout=SUBPROCESS_BUDGET)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "auditing RoPE target tests.audit_corpus.numpy_impls:rope_half (positions 0…511)" in result.stdout
    assert "collected 18 items" in result.stdout and "18 passed" in result.stdout  # 7 × 2 dtypes + 4
    assert "PASSED ropecheck::tests.audit_corpus.numpy_impls:rope_half::precision[float16]" in result.stdout
    assert 'name="budget" value="0.25"' in (tmp_path / "out.xml").read_text(encoding="utf-8")
    # The command line overrides the file: a wrong declared base now fails the spectrum. Run in this process (the
    # same pyproject.toml is the ini file there): a second fresh pytest process cost 0.9 CPU-s and tested no more.
    overridden = run_pytest(tmp_path, "--rope-base", "500000", "--rope-dtypes", "float32")
    assert overridden.returncode == 1 and "collected 11 items" in overridden.stdout, overridden.stdout
    assert "FAILED ropecheck::tests.audit_corpus.numpy_impls:rope_half::spectrum" in overridden.stdout


def test_xfails_file_marks_known_deviations_strictly(tmp_path: Path) -> None:
    target = "tests.audit_corpus.numpy_impls:bug_clockwise"
    xfails = tmp_path / "rope-xfails.txt"
    xfails.write_text(
        "# known deviations of our port\n"
        f"ropecheck::{target}::direction  # trained clockwise\n"
        "spectrum\n"
        "contract[float32]   # passes: must be reported as XPASS(strict)\n",
        encoding="utf-8",
    )
    result = _run_pytest(tmp_path, "--rope-impl", target, "--rope-xfails", str(xfails))
    assert "XFAIL ropecheck::" + target + "::direction" in result.stdout, result.stdout
    assert "XFAIL ropecheck::" + target + "::spectrum" in result.stdout
    assert f"FAILED ropecheck::{target}::contract[float32]" in result.stdout and "XPASS(strict)" in result.stdout
    assert result.returncode == 1 and "1 failed" in result.stdout and "2 xfailed" in result.stdout
    xfails.write_text(f"ropecheck::{target}::direction\nspectrum\n", encoding="utf-8")
    clean = _run_pytest(tmp_path, "--rope-impl", target, "--rope-xfails", str(xfails))
    assert clean.returncode == 0 and "2 xfailed" in clean.stdout, clean.stdout
    missing = _run_pytest(tmp_path, "--rope-impl", target, "--rope-xfails", str(tmp_path / "absent.txt"))
    assert missing.returncode == 4 and "--rope-xfails" in missing.stderr


def test_per_dtype_items_match_the_findings_the_audit_makes() -> None:
    # The plugin names items before the audit runs; this keeps its per-dtype list true to the properties.
    from ropecheck.numeric.audit import audit
    from ropecheck.numeric.audit.function.pytest_plugin import _PER_DTYPE

    report = audit(
        "tests.audit_corpus.numpy_impls:rope_half", base=10000, max_position=256, head_dim=16,
        dtypes="float32,float16",
    )
    dtypes_of: dict[str, set[str | None]] = {}
    for finding in report.findings:
        dtypes_of.setdefault(finding.property, set()).add(finding.dtype)
    for prop, seen in dtypes_of.items():
        expected = {"float32", "float16"} if prop in _PER_DTYPE["rope"] else {None}
        assert seen == expected, (prop, seen)


def test_a_printed_node_id_reruns_that_item(tmp_path: Path) -> None:
    target = "tests.audit_corpus.numpy_impls:bug_clockwise"
    node = f"ropecheck::{target}"
    result = _run_pytest(tmp_path, "--rope-impl", target, f"{node}::direction", f"{node}::norm")
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"FAILED ropecheck::{target}::direction" in result.stdout
    assert f"PASSED ropecheck::{target}::norm[float32]" in result.stdout
    assert "1 failed, 1 passed, 9 deselected" in result.stdout and "test_own_project" not in result.stdout
