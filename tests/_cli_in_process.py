"""The `ropecheck` command run inside the test process: for tests that read what the command prints and returns, not
how a process behaves (start-up, pipes, terminals, signals stay with their subprocess tests). It saves a Python
start-up and the imports (torch, JAX, SymPy) per command — about 2 CPU-seconds each.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import sys
from pathlib import Path

from ropecheck.cli import main


@dataclasses.dataclass(frozen=True)
class CliResult:
    """What one command returned and printed (the fields of `subprocess.CompletedProcess` the tests read)."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(*arguments: str) -> CliResult:
    """Run `ropecheck ARGUMENTS…` in this process with stdout and stderr captured.

    **Arguments:**

    - `arguments`: the command line after `ropecheck` (e.g. `"audit", "--list"`).

    **Returns:**

    A `CliResult` with the exit code and both streams.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(arguments))
        except SystemExit as exit_:  # argparse's --help and usage errors
            code = int(exit_.code or 0)
    return CliResult(code, out.getvalue(), err.getvalue())


def run_pytest(project: Path, *arguments: str) -> CliResult:
    """Run pytest in `project` inside this process, as `python -m pytest ARGUMENTS…` there would (the ropecheck
    plugin of this checkout, no cache): for tests of what the plugin reports, not of a process's start-up.

    Modules imported from `project` (its test files, file targets) are forgotten afterwards, and the working
    directory and `sys.path` restored, so that the next project's files of the same name are imported afresh.

    **Arguments:**

    - `project`: the directory pytest runs in (its pyproject.toml is the ini file).
    - `arguments`: pytest's command line.

    **Returns:**

    A `CliResult` with pytest's exit code and what it printed.
    """
    import pytest
    import ropecheck.numeric.audit.function.pytest_plugin  # noqa: F401  (imported here, kept after the run)

    plugin = ["-p", "no:ropecheck", "-p", "ropecheck.numeric.audit.function.pytest_plugin"]
    out, err = io.StringIO(), io.StringIO()
    saved_path, saved_directory = list(sys.path), os.getcwd()
    os.chdir(project)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = int(pytest.main(["-p", "no:cacheprovider", *plugin, "-rA", *arguments]))
    finally:
        os.chdir(saved_directory)
        sys.path[:] = saved_path
        root = str(Path(project).resolve())
        for name, module in list(sys.modules.items()):
            if str(getattr(module, "__file__", None) or "").startswith(root):
                del sys.modules[name]
    return CliResult(code, out.getvalue(), err.getvalue())
