"""Third-party noise stays out of the audit's report, and a closed pipe keeps the audit's verdict (issue #14)."""

from __future__ import annotations

import importlib.util
import logging
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from ropecheck.numeric.audit.function.noise import NoiseCapture

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]
SHOWCASE = ["audit", "transformers.yarn", "--scaling", "yarn:8,orig=4096"]
SMALL = ["--max-position", "512", "--head-dim", "16", "--dtypes", "float32"]


def _ropecheck(*arguments: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "import sys; from ropecheck.cli._main import main; sys.exit(main())", *arguments]
    return subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=SUBPROCESS_BUDGET)


def test_capture_takes_c_level_output_warnings_and_logging() -> None:
    capture = NoiseCapture()
    with capture:
        os.write(2, b"Failed to load libfoo.so: from C\n")  # what a C extension writes: below sys.stderr
        os.write(1, b"a library printing on stdout\n")
        warnings.warn("deprecated thing", DeprecationWarning, stacklevel=1)
        logging.getLogger("some.library").warning("RoPE scaling factor 16.0 does not match 8.0")
    assert len(capture.messages) == 4, capture.messages
    assert capture.messages[0] == "Failed to load libfoo.so: from C"
    assert any("does not match" in message for message in capture.messages)
    assert any(message.startswith("DeprecationWarning: deprecated thing") for message in capture.messages)
    summary = capture.summary()
    assert summary is not None and "\n" not in summary
    assert summary.startswith("note: 4 messages from third-party libraries suppressed (first: Failed to load libfoo")
    assert summary.endswith("--verbose shows them")
    off = NoiseCapture(enabled=False)
    with off:
        os.write(2, b"")
    assert off.messages == [] and off.summary() is None


def _needs_transformers() -> None:
    """Skip where transformers is not installed. Only looked up, not imported: the audit imports it in its own
    process, and importing it here too cost this test 2.6 of its 9.5 CPU-s."""
    if importlib.util.find_spec("transformers") is None:
        pytest.skip("transformers is not installed")


def test_showcase_prints_only_the_report_and_one_note() -> None:
    _needs_transformers()
    result = _ropecheck(*SHOWCASE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("PASS: transformers.yarn conforms")
    for noise in ("Failed to load", "does not match", "_pytree.py", "Warning"):
        assert noise not in result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) <= 1, result.stderr
    assert all(line.startswith("note: ") and line.endswith("--verbose shows them") for line in lines)


@pytest.mark.deep  # a second full audit in a fresh process (about 7 CPU-s): CI runs the quiet default above
def test_verbose_showcase_shows_the_messages_after_the_same_report() -> None:
    _needs_transformers()
    result = _ropecheck(*SHOWCASE)
    # --verbose shows the messages (the audit's own second YaRN instance makes transformers warn), after the report.
    verbose = _ropecheck(*SHOWCASE, "--verbose")
    assert verbose.returncode == 0 and verbose.stdout == result.stdout
    assert "does not match" in verbose.stderr and verbose.stderr.startswith("note: ")


def _closed_pipe(*arguments: str) -> tuple[int, str]:
    """Run with stdout a pipe whose reader is gone before the report is written (as `| head -1` leaves it)."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "import sys; from ropecheck.cli._main import main; sys.exit(main())", *arguments]
    process = subprocess.Popen(
        command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    error = process.stderr.read()
    return process.wait(timeout=SUBPROCESS_BUDGET), error


@pytest.mark.parametrize("as_json", [False, True])
def test_a_closed_pipe_keeps_the_verdict(as_json: bool) -> None:
    extra = ["--json"] if as_json else []
    code, error = _closed_pipe("audit", "tests.audit_corpus.numpy_impls:rope_half", "--base", "10000", *SMALL, *extra)
    assert code == 0 and "Traceback" not in error and "Broken" not in error, error
    code, error = _closed_pipe("audit", "tests.audit_corpus.numpy_impls:bug_clockwise", *SMALL, *extra)
    assert code == 1 and "Traceback" not in error, error
    if not as_json:  # the same listing either way: once
        code, error = _closed_pipe("audit", "--list")
        assert code == 0 and "Traceback" not in error, error


def test_a_terminal_sees_a_status_line_that_is_erased() -> None:
    import pty

    leader, follower = pty.openpty()
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", "import sys; from ropecheck.cli._main import main; sys.exit(main())",
               "audit", "tests.audit_corpus.numpy_impls:rope_half", "--base", "10000", *SMALL]
    process = subprocess.run(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=follower,
        timeout=SUBPROCESS_BUDGET)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert process.returncode == 0 and process.stdout.startswith(b"PASS:")
    assert seen.startswith(b"auditing tests.audit_corpus.numpy_impls:rope_half") and b"\r\x1b[K" in seen, seen
    assert b"\r\x1b[K" not in process.stdout  # the report itself stays plain
