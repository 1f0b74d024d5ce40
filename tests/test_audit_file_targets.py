"""Issue #34: `path/file.py:fn` targets import as pytest does — the file's package root (the first folder upwards
without an `__init__.py`) on `sys.path`, the module under its dotted name — so a file that imports its own package
loads in the API, the command line and the pytest plugin alike."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ropecheck.numeric.audit import audit
from ropecheck.numeric.audit.function.targets import package_root

from ropecheck.cli._audit import main

from ._budget import SUBPROCESS_BUDGET
from .test_audit_plugin_project import NO_BFLOAT16 as HELPERS

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = ["--base", "10000", "--head-dim", "16", "--max-position", "256", "--dtypes", "float32"]


def _package(tmp_path: Path) -> tuple[Path, str]:
    """project/<unique package>/{__init__, ops/{__init__, helpers}, rope.py}; rope.py imports its own package."""
    name = f"pkg_{tmp_path.name.replace('-', '_')}"
    package = tmp_path / "project" / name
    (package / "ops").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "ops" / "__init__.py").write_text("", encoding="utf-8")
    (package / "ops" / "helpers.py").write_text(HELPERS, encoding="utf-8")
    source = f"from {name}.ops.helpers import apply_rope as rotate\n\n\ndef apply_rope(x, positions):\n"
    (package / "rope.py").write_text(source + "    return rotate(x, positions)\n", encoding="utf-8")
    return package / "rope.py", name


def test_the_package_root_is_the_first_folder_without_an_init(tmp_path: Path) -> None:
    path, name = _package(tmp_path)
    assert package_root(path) == ((tmp_path / "project").resolve(), f"{name}.rope")
    assert package_root(path.parent / "ops" / "helpers.py")[1] == f"{name}.ops.helpers"
    (tmp_path / "loose.py").write_text("", encoding="utf-8")
    assert package_root(tmp_path / "loose.py") == (tmp_path.resolve(), "loose")


def test_api_and_command_line_import_a_file_that_imports_its_own_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = _package(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr(sys, "path", list(sys.path))
    report = audit(f"{path}:apply_rope", base=10000, head_dim=16, max_position=256, dtypes="float32")
    assert report.verdict == "pass", report.summary
    assert main([f"{path}:apply_rope", *OPTIONS]) == 0


def test_plugin_imports_a_command_line_file_target_that_imports_its_own_package(tmp_path: Path) -> None:
    path, _ = _package(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "test_nothing.py").write_text("def test_nothing():\n    assert True\n", encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:ropecheck", "-p",
               "ropecheck.numeric.audit.function.pytest_plugin", "-rA", "--rope-target", " ".join([f"{path}:apply_rope",
                                                                                          *OPTIONS])]
    result = subprocess.run(command, cwd=elsewhere, env=environment, capture_output=True, text=True,
                            timeout=SUBPROCESS_BUDGET)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "rope.py:apply_rope::direction" in result.stdout and "12 passed" in result.stdout
