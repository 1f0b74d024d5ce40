"""Issue #19, process hygiene of `ropecheck prove`: the worker and `coqc` die with the command, `coqc` runs under
memory and CPU limits, the worker is confined for real, and nothing forks a process that JAX made multithreaded.
"""

from __future__ import annotations

import ast
import os
import resource
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest
from ropecheck.proofs import coq_available
from ropecheck.proofs.prove._prove_kernel import COQ_MEMORY_BYTES, coq_command
from ropecheck.proofs.prove._sandbox import LAUNCHER

import ropecheck._worker as _worker
from ropecheck._worker import run_confined, worker_command
from ropecheck.cli._main import main

from ._budget import SUBPROCESS_BUDGET

SLOW = "(x+1)**3000*(x-1)**3000 == (x**2-1)**3000"  # the engine works on it for minutes


def _children() -> dict[int, int]:
    """pid → parent pid for every process."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                out[int(entry.name)] = int(fields[1])
    return out


def _descendants(root: int) -> set[int]:
    parents = _children()
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return ""


def _killed(pid: int) -> bool:
    """Gone, or SIGKILL pending (bit 9 of the pending-signal masks)."""
    status = _state(pid)
    masks = [int(line.split()[1], 16) for line in status.splitlines() if line.startswith(("SigPnd:", "ShdPnd:"))]
    return not status or any(mask & (1 << (signal.SIGKILL - 1)) for mask in masks)


def _wait_for(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("phase", ["engine", "coq"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_killing_prove_leaves_no_process_within_two_seconds(phase: str, signum: int) -> None:
    if phase == "coq" and not coq_available():
        pytest.skip("coqc is not installed")
    statement = SLOW if phase == "engine" else "sin(x)**2 + cos(x)**2 == 1"
    cli = subprocess.Popen(
        [sys.executable, "-m", "ropecheck", "prove", statement, "--real", "x", "--timeout", "60"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wanted = "coqc" if phase == "coq" else "ropecheck._worker"
        # the phase has begun when its own process runs: the launcher's and bubblewrap's command lines name the
        # worker too, and a kill while they are still setting up is the start-up, not the engine phase
        assert _wait_for(lambda: any(wanted in line and "bwrap" not in line and "_sandbox.py" not in line
                                     for line in map(_command_line, _descendants(cli.pid))), 60), phase
        left = _descendants(cli.pid)
        os.kill(cli.pid, signum)
        cli.wait(timeout=10)
        if not _wait_for(lambda: not (left & set(_children())), 2.0):
            # On a loaded machine a killed coqc can take a moment to leave (its memory is being freed): what
            # remains must at least have SIGKILL pending, i.e. be dying, not running on.
            survivors = left & set(_children())
            assert all(_killed(p) for p in survivors), [(_command_line(p), _state(p)) for p in survivors]
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()


ACTS = "tests._sandbox_acts:try_acts"
REPOSITORY = str(Path(__file__).resolve().parent.parent)
ISSUE_37_CALLS = ("exec", "rt_sigqueueinfo another process", "prlimit64 on the parent", "pidfd_open the parent",
                  "pidfd_getfd from the parent", "fsopen (mount API)", "ioctl TIOCSTI")


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen(["sleep", "120"])


@pytest.mark.parametrize("bubblewrap", [True, False], ids=["bubblewrap", "filter-only"])
def test_the_worker_cannot_perform_any_act_of_the_list(
    tmp_path: Path, bubblewrap: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37's list (signals and limits of other processes, pidfd, the mount API, TIOCSTI, the password
    hashes) and issue 19's (fork, exec, write, delete, rename, chmod, socket), tried from inside the worker."""
    if bubblewrap and "bwrap" not in " ".join(worker_command()):
        pytest.skip("bubblewrap is not installed")
    if not bubblewrap:
        monkeypatch.setattr(_worker, "bubblewrap_command", lambda extra_paths=(): None)
    decoy, victim = _sleeper(), _sleeper()
    try:
        (tmp_path / "victim").write_text("data")
        acts = f"try_acts({str(tmp_path)!r}, {decoy.pid}, {victim.pid})"
        code = f"from tests._sandbox_acts import try_acts; print({acts})"
        outside = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                                 timeout=SUBPROCESS_BUDGET, cwd=REPOSITORY)
        unconfined = ast.literal_eval(outside.stdout)
        assert unconfined.pop("ioctl TIOCSTI") == "failed: ENOTTY", unconfined  # it reached the (null) device
        assert unconfined.pop("exec") == "failed: ENOENT", unconfined  # it reached the file system
        if os.geteuid() == 0:  # as another user some acts fail for want of permission: the filter is what counts
            assert set(unconfined.values()) == {"succeeded"}, unconfined
        assert victim.wait(timeout=10) == -signal.SIGKILL  # the unconfined acts do act
        victim = _sleeper()
        for leftover in tmp_path.iterdir():
            leftover.unlink()
        (tmp_path / "victim").write_text("data")
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)
        answer = run_confined(ACTS, (str(tmp_path), os.getpid(), victim.pid), 60, extra_paths=[REPOSITORY])
        assert answer is not None and "confinement" in answer, answer
        applied = answer.pop("confinement")
        assert answer.pop("worker_cpu_seconds") > 0
        if "seccomp" not in applied:
            pytest.skip(f"no seccomp filter on this platform (applied: {applied})")
        assert ("bubblewrap" in applied) == bubblewrap and "unprivileged" in applied, applied
        controls = {name: result for name, result in answer.items() if "control" in name}
        assert set(controls.values()) == {"succeeded"}, answer
        forbidden = {name: result for name, result in answer.items() if "control" not in name}
        assert all(result.startswith("failed") for result in forbidden.values()), forbidden
        if not bubblewrap:  # the filter itself refused them (not a missing process or device)
            assert {answer[name] for name in ISSUE_37_CALLS} == {"failed: EPERM"}, answer
        assert victim.poll() is None and resource.getrlimit(resource.RLIMIT_NOFILE) == limit
        assert sorted(p.name for p in tmp_path.iterdir()) == ["victim"] and (tmp_path / "victim").read_text() == "data"
    finally:
        for process in (decoy, victim):
            process.kill()
            process.wait()


def test_a_script_without_a_main_guard_runs_once(tmp_path: Path) -> None:
    """The worker starts from a fixed entry point: the caller's `__main__` is never imported again in it."""
    marker = tmp_path / "marker"
    script = tmp_path / "user_script.py"
    script.write_text(
        f"with open({str(marker)!r}, 'a') as out:\n    out.write('ran\\n')\n"
        "import ropecheck\n"
        "print(ropecheck.prove('x == x').verdict.value, ropecheck.prove('x + 1 == x').verdict.value)\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path,
                          timeout=SUBPROCESS_BUDGET)
    assert marker.read_text() == "ran\n", done.stderr
    assert done.stdout.split() == ["proved", "refuted"] and done.returncode == 0, done.stdout + done.stderr


def test_prove_answers_from_threads() -> None:
    import ropecheck

    answers: list[str] = []
    threads = [threading.Thread(target=lambda: answers.append(ropecheck.prove("x - x == 0").verdict.value))
               for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == ["proved", "proved"]


def test_coqc_runs_under_the_memory_cap() -> None:
    command = coq_command("Statement.v", 30)
    assert command[2:6] == [LAUNCHER, str(COQ_MEMORY_BYTES), "31", str(os.getpid())]
    assert command[-2:] == ["-q", "Statement.v"]
    allocate = [sys.executable, "-c", "bytearray(600 * 2**20)"]
    capped = subprocess.run([sys.executable, "-I", LAUNCHER, str(300 * 2**20), "30", str(os.getpid()), "--", *allocate],
                            capture_output=True, timeout=SUBPROCESS_BUDGET)
    assert capped.returncode != 0 and b"MemoryError" in capped.stderr
    roomy = subprocess.run([sys.executable, "-I", LAUNCHER, str(4 * 2**30), "30", str(os.getpid()), "--", *allocate],
                           capture_output=True, timeout=SUBPROCESS_BUDGET)
    assert roomy.returncode == 0, roomy.stderr


def test_prove_never_forks_the_calling_process(capsys: pytest.CaptureFixture[str]) -> None:
    """A process with threads (JAX starts some) must not be forked: the worker is a fresh interpreter."""
    pytest.importorskip("jax")
    import jax.numpy as jnp

    jnp.ones(2).block_until_ready()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    forked = []
    os.register_at_fork(before=lambda: forked.append(os.getpid()))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert main(["prove", "x + 1 == 1 + x", "--no-kernel"]) == 4
    finally:
        stop.set()
    assert [pid for pid in forked if pid == os.getpid()] == []
    assert not [w for w in caught if "fork" in str(w.message)], [str(w.message) for w in caught]


@pytest.mark.skipif(not coq_available(), reason="coqc is not installed")
def test_a_trivial_identity_reaches_exit_0_with_both_cores_busy(capsys: pytest.CaptureFixture[str]) -> None:
    """`prove` in this process (its worker and coqc are processes, contending with the burners): a `python -m
    ropecheck` start-up would only keep the burners burning longer (about 2 CPU-s per second of it)."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        code = main(["prove", "x + 1 == 1 + x", "--real", "x"])
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert code == 0, capsys.readouterr()


def test_prove_says_so_when_the_worker_ran_without_the_filter(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ropecheck.cli import _prove as _cli_prove

    answer = {"verdict": "unknown", "method": "test", "confinement": ["limits", "dies-with-parent"]}
    monkeypatch.setattr(_cli_prove, "run_in_worker", lambda args: dict(answer))
    assert main(["prove", "x == y"]) == 3
    assert "without bubblewrap (no read-only file system view, no PID namespace) and a seccomp filter here " \
        "(applied: limits, dies-with-parent)" in capsys.readouterr().err
    monkeypatch.setattr(_cli_prove, "run_in_worker", lambda args: {**answer, "confinement": ["limits", "seccomp"]})
    assert main(["prove", "x == y"]) == 3
    assert "without bubblewrap (no read-only file system view, no PID namespace) here" in capsys.readouterr().err
    everything = ["bubblewrap", "limits", "seccomp"]
    monkeypatch.setattr(_cli_prove, "run_in_worker", lambda args: {**answer, "confinement": everything})
    assert main(["prove", "x == y"]) == 3
    assert "note" not in capsys.readouterr().err


def test_prove_imports_the_engine_only_in_the_worker() -> None:
    """SymPy is imported by the worker; `prove` itself loads it only for the Coq step."""
    script = "\n".join(
        ["import sys", "from ropecheck.cli._main import main", "main(['prove', 'x == 1'])",
         "print('sympy' in sys.modules)"]
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=SUBPROCESS_BUDGET)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stdout + done.stderr
