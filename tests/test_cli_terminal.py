"""`ropecheck claims` in a real terminal (tmux at 80 and 100 columns) and piped: it fits, every ID and title in
full, it prints data as written, and a closed pipe is not an error."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from ._budget import SUBPROCESS_BUDGET

ROPECHECK = shutil.which("ropecheck", path=str(Path(sys.executable).parent)) or "ropecheck"
TMUX = shutil.which("tmux")
# The title of SPE-SHIFT-ROTATION carries square brackets that rich would read as markup if it were allowed to.
BRACKETED_TITLE = "[[cos, sin], [−sin, cos]]"


def _in_tmux(command: list[str], columns: int) -> list[str]:
    """Run `command` in a detached tmux pane `columns` wide; return the screen with wrapped lines joined (-J).

    Each call has its own tmux server (`-L`, a private socket): another test (or an xdist worker) ending its
    session can never take down the server this one is starting on. The command gets up to 10 minutes — a
    budget for a very busy machine, not a speed test. The shell signals a tmux channel when the command is done
    (`wait-for -S`; a signal sent before anyone waits is kept), so the screen is read once, when it is complete,
    rather than polled every half second (issue 36).
    """
    assert TMUX is not None
    session = f"ropecheck-{uuid.uuid4().hex[:8]}"
    tmux = [TMUX, "-L", session]
    marker = "__ropecheck_done__"
    shell = f"{shlex.join(command)}; echo {marker}$?; {shlex.join([*tmux, 'wait-for', '-S', session])}"
    env = {**os.environ, "COLUMNS": str(columns)}
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", session, "-x", str(columns), "-y", "50", "bash", "--norc", "--noprofile"],
        check=True,
        env=env,
    )
    try:
        subprocess.run([*tmux, "set-option", "-t", session, "history-limit", "5000"], check=True)
        subprocess.run([*tmux, "send-keys", "-t", session, f"clear; {shell}", "Enter"], check=True)
        deadline = time.monotonic() + 600
        with contextlib.suppress(subprocess.TimeoutExpired):
            subprocess.run([*tmux, "wait-for", session], timeout=600, check=True)
        # The server may take the signal before the pane's last output: read again until the marker is on screen.
        while True:
            text = subprocess.run(
                [*tmux, "capture-pane", "-p", "-J", "-S", "-5000", "-t", session],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            if any(line.startswith(marker) for line in text.splitlines()):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"command did not finish in tmux: {command}\n{text}")
            time.sleep(0.05)
        return [line for line in text.splitlines() if not line.startswith(marker) and marker not in line]
    finally:
        subprocess.run([*tmux, "kill-server"], check=False)  # this call's own server only


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (the test bootstrap installs it as root)")
@pytest.mark.parametrize("columns", [80, pytest.param(100, marks=pytest.mark.deep)])  # 100: a second width, deep
@pytest.mark.parametrize(
    "arguments",
    [
        ["claims", "--no-numeric"],
        ["claims", "show", "spe-shift-rotation", "--no-numeric"],
        ["claims", "show", "decay", "--no-numeric"],
    ],
    ids=["table", "show", "topic"],
)
def test_claims_fit_the_terminal(columns: int, arguments: list[str]) -> None:
    """Issue 36: every ID in full with the columns after it aligned, every title in full (it was cut to 2–5
    words), a legend that explains `proved*`; `claims show` gives the theorem's file:line and the commit and puts
    no engine-search line under the verdict; `claims show decay` answers the question (it exited 2)."""
    from ropecheck.proofs import all_claims

    from ropecheck.cli._claims_view import WHO_DECIDES, plain_title

    lines = _in_tmux([ROPECHECK, *arguments], columns)
    too_wide = [line for line in lines if len(line.rstrip()) > columns]
    assert not too_wide, f"{len(too_wide)} lines wider than {columns} columns, e.g. {too_wide[0]!r}"
    screen = "\n".join(lines)
    flowing = " ".join(screen.split())
    assert " ".join(WHO_DECIDES.split()) in flowing or arguments[1] not in ("show",), screen
    if arguments[2:3] == ["decay"]:
        assert "Does the RoPE (or sinusoidal) score decay with relative distance?" in flowing
        assert "(ROPE-DECAY-TO-ZERO)" in flowing and "(ROPE-DECAY-BOUND)" in flowing
        return
    assert "SPE-SHIFT-ROTATION" in screen
    if arguments[1] == "show":
        assert "Sources" in screen and "A Note on Positional Encoding" in screen
        assert re.search(r"^at: proofs/coq/\w+\.v:\d+$", screen, re.MULTILINE), screen
        assert re.search(r"^commit: ([0-9a-f]{12}|unknown) ", screen, re.MULTILINE), screen
        verdict = next(i for i, line in enumerate(lines) if line.startswith("verdict: "))
        assert not lines[verdict + 1].startswith("engine search"), lines[verdict : verdict + 2]
        return
    claims = all_claims()
    text = [line for line in lines if line.strip()]
    assert len(text) <= 4 * len(claims) + 12, f"{len(text)} lines for {len(claims)} claims"
    id_width = max(len(claim.id) for claim in claims)
    for claim in claims:
        rows = [line for line in text if line.startswith(claim.id + " ")]
        assert len(rows) == 1, f"{claim.id}: {len(rows)} rows"
        assert re.match(r"(proved|refuted|unknown)\*? ", rows[0][id_width + 1 :]), f"not aligned: {rows[0]!r}"
        assert " ".join(plain_title(claim.title).split()) in flowing, f"{claim.id}: title not in full"
    assert "proved* / refuted*:" in flowing, "the legend explains the star"
    summary = re.compile(rf"^{len(claims)} claims: \d+ proved, .* — kernel: (Coq \S+|not run.*)$")
    assert any(summary.match(line) for line in text), f"no summary line in:\n{screen}"


def test_piped_output_is_plain_lines_with_data_as_written() -> None:
    completed = subprocess.run(
        [ROPECHECK, "claims", "--no-numeric"], capture_output=True, text=True, timeout=SUBPROCESS_BUDGET, check=False
    )
    assert completed.returncode == 0, completed.stderr
    rows = {line.split("\t")[0]: line for line in completed.stdout.splitlines() if "\t" in line}
    assert BRACKETED_TITLE in rows["SPE-SHIFT-ROTATION"]
    assert "\x1b[" not in completed.stdout  # no colour codes in a log


def test_closed_pipe_is_not_an_error() -> None:
    """`head` closes the pipe after one line: no traceback, and `ropecheck` itself exits 0 (`pipefail` gives its
    status). One run for both checks — each run of `claims list` costs about 1.2 CPU-s (issue 36)."""
    completed = subprocess.run(
        f"set -o pipefail; {shlex.quote(ROPECHECK)} claims list | head -n 1",
        shell=True,
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_BUDGET,
        executable="/bin/bash",
        check=False,
    )
    assert completed.stdout.count("\n") == 1
    assert "Traceback" not in completed.stderr and "BrokenPipe" not in completed.stderr
    assert completed.returncode == 0, completed.stderr


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (the test bootstrap installs it as root)")
def test_audit_config_shows_the_scaling_it_read_at_80_columns() -> None:
    """Issue 36: the terminal table omitted the scaling factor and the band parameters it read."""
    config = str(Path(__file__).resolve().parent / "model_configs" / "llama3.1-8b")
    lines = _in_tmux([ROPECHECK, "audit-config", config, "--engine", "none"], 80)
    assert not [line for line in lines if len(line.rstrip()) > 80], lines
    assert "  scaling (all): llama3:8,orig=8192,low=1,high=4" in lines, "\n".join(lines)


def test_prove_says_what_runs_on_a_terminal_and_nothing_when_piped() -> None:
    """Issue 36: `prove` printed nothing for tens of seconds while Coq ran. On a terminal (a real pty, 80 columns)
    it says what runs, then clears the line; piped, standard error gets no such line."""
    import pty

    command = [ROPECHECK, "prove", "sin(x)**2 + cos(x)**2 == 1", "--real", "x", "--no-kernel"]
    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=secondary,
                              env={**os.environ, "COLUMNS": "80"}, timeout=SUBPROCESS_BUDGET, check=False)
        os.close(secondary)
        seen = b""
        with contextlib.suppress(OSError):
            while chunk := os.read(primary, 4096):
                seen += chunk
    finally:
        os.close(primary)
    assert done.returncode == 4 and done.stdout.startswith(b"proved by the engine only"), done
    assert b"ropecheck: searching with the SymPy engine" in seen and seen.endswith(b"\r\x1b[K"), seen
    piped = subprocess.run(command, capture_output=True, text=True, timeout=SUBPROCESS_BUDGET, check=False)
    assert "searching" not in piped.stderr, piped.stderr
