"""The pytest plugin in a whole project (issue #24): several targets of several kinds listed in `rope_targets`,
items that follow pytest's own selection, skip reasons that name the dtype's root cause, fix texts that name the
plugin's options, and "did you mean" for a misspelled target. Every check reads what pytest prints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ._budget import SUBPROCESS_BUDGET
from ._cli_in_process import CliResult, run_pytest

ROOT = Path(__file__).resolve().parents[1]
ROPE = "tests.audit_corpus.numpy_impls:rope_half --base 10000 --head-dim 16 --max-position 512 --dtypes float32"
BIAS = "tests.audit_corpus.bias_impls:alibi_bias --kind bias --max-position 640 --dtypes float32"
TABLE = "tests.audit_corpus.sinusoidal_impls:sin_interleaved --kind sinusoidal --max-position 512 --dtypes float32"

# A RoPE that refuses bfloat16 inputs: its bfloat16 items have no finding, and the skip must say why.
NO_BFLOAT16 = '''import numpy as np


def apply_rope(x, positions):
    if str(np.asarray(x).dtype) == "bfloat16":
        raise TypeError("bfloat16 is not supported")
    x = np.asarray(x, dtype=np.float64)
    d = x.shape[-1]
    angles = np.asarray(positions, dtype=np.float64)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)[None, :]
    x1, x2 = x[..., : d // 2], x[..., d // 2 :]
    cos, sin = np.cos(angles), np.sin(angles)
    return np.concatenate([x1 * cos - x2 * sin, x1 * sin + x2 * cos], axis=-1).astype(np.float32)
'''


def _project(tmp_path: Path, *lines: str) -> Path:
    listed = "".join(f'    "{line}",\n' for line in lines)
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.pytest.ini_options]\nrope_targets = [\n{listed}]\n", encoding="utf-8"
    )
    (tmp_path / "test_own.py").write_text("def test_own_project():\n    assert True\n", encoding="utf-8")
    (tmp_path / "test_alibi.py").write_text("def test_alibi_shapes():\n    assert True\n", encoding="utf-8")
    return tmp_path


def _pytest(project: Path, *arguments: str) -> CliResult:
    """pytest with this checkout's plugin in `project`, in this process (what it prints is what these tests read;
    tests/test_audit_plugin.py keeps runs in a fresh process)."""
    return run_pytest(project, *arguments)


def test_several_targets_of_several_kinds_in_one_project(tmp_path: Path) -> None:
    project = _project(tmp_path, ROPE, BIAS, TABLE)
    result = _pytest(project)
    assert result.returncode == 0, result.stdout + result.stderr
    for what, line in (("RoPE", ROPE), ("bias", BIAS), ("sinusoidal", TABLE)):
        assert f"ropecheck: auditing {what} target {line.split()[0]}" in result.stdout
    assert "PASSED ropecheck::tests.audit_corpus.numpy_impls:rope_half::direction" in result.stdout
    assert "PASSED ropecheck::tests.audit_corpus.bias_impls:alibi_bias::slopes" in result.stdout
    assert "PASSED ropecheck::tests.audit_corpus.sinusoidal_impls:sin_interleaved::spectrum" in result.stdout
    # A wrong bias fails its own item, with the fix; the other targets still pass.
    broken = _pytest(_project(tmp_path, ROPE, BIAS.replace(":alibi_bias", ":bug_alibi_reversed"), TABLE))
    assert broken.returncode == 1, broken.stdout
    assert "FAILED ropecheck::tests.audit_corpus.bias_impls:bug_alibi_reversed::slopes" in broken.stdout
    assert "PASSED ropecheck::tests.audit_corpus.numpy_impls:rope_half::direction" in broken.stdout


def test_items_follow_pytest_selection(tmp_path: Path) -> None:
    project = _project(tmp_path, ROPE, BIAS)
    one_file = _pytest(project, "test_alibi.py")
    assert one_file.returncode == 0 and "collected 1 item" in one_file.stdout, one_file.stdout
    assert "ropecheck::" not in one_file.stdout
    whole = _pytest(project, ".")
    assert whole.returncode == 0, whole.stdout
    assert "PASSED ropecheck::tests.audit_corpus.bias_impls:alibi_bias::slopes" in whole.stdout
    named = _pytest(project, "ropecheck::tests.audit_corpus.bias_impls:alibi_bias")
    assert named.returncode == 0 and "ropecheck::tests.audit_corpus.numpy_impls" not in named.stdout, named.stdout
    assert "PASSED ropecheck::tests.audit_corpus.bias_impls:alibi_bias::slopes" in named.stdout
    keyword = _pytest(project, "-k", "slopes")
    assert keyword.returncode == 0 and "1 passed" in keyword.stdout and "deselected" in keyword.stdout


def test_fix_names_the_option_where_the_user_wrote_it(tmp_path: Path) -> None:
    undeclared = ROPE.replace("--base 10000 ", "")
    result = _pytest(_project(tmp_path, undeclared))
    assert result.returncode == 1, result.stdout
    assert "FAILED ropecheck::tests.audit_corpus.numpy_impls:rope_half::spectrum" in result.stdout
    assert "--base 10000 (in rope_targets line 1)" in result.stdout, result.stdout
    assert "strict is the plugin's default" in result.stdout and "(--strict)" not in result.stdout


def test_skip_reason_names_the_dtype_that_was_the_root_cause(tmp_path: Path) -> None:
    (tmp_path / "rope32.py").write_text(NO_BFLOAT16, encoding="utf-8")
    line = "rope32.py:apply_rope --base 10000 --head-dim 16 --max-position 512 --dtypes float32,bfloat16"
    result = _pytest(_project(tmp_path, line))
    assert result.returncode == 0, result.stdout
    reason = "identity was not evaluated in bfloat16: bfloat16 unsupported (the target raised TypeError: bfloat16"
    assert reason in result.stdout, result.stdout
    assert "was not audited in bfloat16" not in result.stdout
    assert "PASSED ropecheck::rope32.py:apply_rope::identity[float32]" in result.stdout


def test_a_misspelled_target_gets_did_you_mean(tmp_path: Path) -> None:
    project = _project(tmp_path, ROPE.replace("rope_half", "rope_hlaf"))
    result = _pytest(project)
    assert result.returncode == 4, result.stdout + result.stderr  # pytest's usage error
    errors = [line for line in result.stderr.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1 and "rope_targets line 1" in errors[0] and "did you mean 'rope_half'" in errors[0]
    impl = _pytest(_project(tmp_path), "--rope-impl", "tests.audit_corpus.numpy_impls:bug_clokwise")
    assert impl.returncode == 4 and "did you mean 'bug_clockwise'" in impl.stderr, impl.stderr
    builtin = _pytest(_project(tmp_path), "--rope-impl", "transformer")
    assert builtin.returncode == 4 and "did you mean 'transformers'" in builtin.stderr, builtin.stderr


def test_a_bad_line_is_one_usage_error(tmp_path: Path) -> None:
    for line, reason in (
        (ROPE + " --json", "--json chooses what the command prints"),
        (ROPE + " --bogus 3", "unrecognized arguments: --bogus 3"),
        (BIAS + " --scaling linear:2", "--kind bias takes no --scaling"),
        ("--base 10000", "no target"),
    ):
        result = _pytest(_project(tmp_path, line))
        errors = [text for text in result.stderr.splitlines() if text.startswith("ERROR:")]
        assert result.returncode == 4 and len(errors) == 1, (line, result.stderr)
        assert "rope_targets line 1" in errors[0] and reason in errors[0], errors
    twice = _pytest(_project(tmp_path, ROPE, ROPE))
    assert twice.returncode == 4 and "listed twice" in twice.stderr


def test_report_passed_is_ok() -> None:
    from ropecheck.numeric.audit import audit

    good = audit("tests.audit_corpus.numpy_impls:rope_half", base=10000, max_position=256, head_dim=16,
                 dtypes="float32")
    bad = audit("tests.audit_corpus.numpy_impls:bug_clockwise", base=10000, max_position=256, head_dim=16,
                dtypes="float32")
    assert good.passed is good.ok is True and bad.passed is bad.ok is False


def test_a_misspelled_option_or_ini_key_gets_did_you_mean(tmp_path: Path) -> None:
    project = _project(tmp_path, ROPE)
    option = _pytest(project, "--rope-imp", "tests.audit_corpus.numpy_impls:rope_half")
    assert option.returncode == 4 and "unknown option --rope-imp (did you mean '--rope-impl'?)" in option.stderr
    (project / "pyproject.toml").write_text(f'[tool.pytest.ini_options]\nrope_target = ["{ROPE}"]\n')
    key = _pytest(project)
    assert key.returncode == 4 and "unknown ini key rope_target (did you mean 'rope_targets'" in key.stderr


def test_the_docs_example_lines_are_read_by_the_plugin() -> None:
    # docs/pytest-plugin.md's pyproject.toml example: each line is a target with valid `ropecheck audit` options.
    import re
    import tomllib

    from ropecheck.numeric.audit.function.plugin_targets import parse_target_line

    page = (ROOT / "docs" / "pytest-plugin.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", page, re.DOTALL)
    assert example is not None
    lines = tomllib.loads(example.group(1))["tool"]["pytest"]["ini_options"]["rope_targets"]
    kinds = [parse_target_line(line, number, ROOT, True).kind for number, line in enumerate(lines, 1)]
    assert kinds == ["rope", "bias", "sinusoidal"]


def test_targets_resolve_against_the_project_root_from_a_subdirectory(tmp_path: Path) -> None:
    (tmp_path / "mypkg").mkdir()
    (tmp_path / "mypkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "mypkg" / "rope.py").write_text(NO_BFLOAT16, encoding="utf-8")
    options = "--base 10000 --head-dim 16 --max-position 512 --dtypes float32"
    project = _project(tmp_path, f"mypkg/rope.py:apply_rope {options}", f"mypkg.rope:apply_rope {options}")
    (project / "tests").mkdir()
    (project / "tests" / "test_inner.py").write_text("def test_inner():\n    assert True\n", encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:ropecheck",
               "-p", "ropecheck.numeric.audit.function.pytest_plugin", "-rA", "--rootdir", str(project),
               "-c", str(project / "pyproject.toml"), "ropecheck::mypkg/rope.py:apply_rope",
               "ropecheck::mypkg.rope:apply_rope"]
    result = subprocess.run(command, cwd=project / "tests", env=environment, capture_output=True, text=True,
                            timeout=SUBPROCESS_BUDGET)
    assert result.returncode == 0, result.stdout + result.stderr
    # pytest shows node IDs relative to where it runs: `../ropecheck::…`.
    assert "PASSED ../ropecheck::mypkg/rope.py:apply_rope::direction" in result.stdout, result.stdout
    assert "PASSED ../ropecheck::mypkg.rope:apply_rope::direction" in result.stdout


def test_plugin_help_states_the_limits_and_the_targets_list(tmp_path: Path) -> None:
    shown = " ".join(_pytest(_project(tmp_path), "--help").stdout.split())
    assert "bias ≥ 640, scores ≥ 260, sinusoidal ≥ 64" in shown
    assert "--rope-target=LINE" in shown and "rope_targets (linelist)" in shown


def test_a_command_line_target_is_named_as_given(tmp_path: Path) -> None:
    result = _pytest(_project(tmp_path), "--rope-target", ROPE + " --bogus 3")
    errors = [text for text in result.stderr.splitlines() if text.startswith("ERROR:")]
    assert result.returncode == 4 and len(errors) == 1 and errors[0].startswith("ERROR: --rope-target 1 ("), errors
