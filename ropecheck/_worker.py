"""Run one function in a confined, killable worker process started from a fixed entry point.

The worker is a fresh interpreter, `python -I -m ropecheck._worker`, speaking JSON on a pipe: the caller writes
one request (`{"target": "module:function", "arguments": [...], "seconds": …}`) on its stdin and reads one answer
from its stdout. Nothing of the caller is imported or re-run in it: not its `__main__` (a script without an
`if __name__ == "__main__":` guard, a notebook), not its threads (JAX's), not its `sys.path` (`-I`: the current
folder and `PYTHON*` variables are ignored). `subprocess` starts it with `vfork`+`exec`, which is safe in a
multithreaded caller; nothing forks the caller.

Where bubblewrap (`bwrap`) works, the worker runs inside it: a read-only view of only the folders Python needs
(the interpreter, its environment, the package source; no `/etc/shadow`, no home folders), an empty `/tmp`,
new user, PID, network, IPC and UTS namespaces (uid 65534, no capabilities, no network, no other process
visible), killed with its parent. Inside, `ropecheck.proofs.prove._sandbox.confine` then sets resource limits
and the seccomp allow-list before the request's text is parsed. Without bubblewrap the worker confines itself
as far as it can and says what it applied (`confinement` in the answer); `prove` reports it, never more.

The caller kills the worker at the time limit. This module imports no SymPy in the caller.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["DECIDE", "bubblewrap_command", "run_confined", "worker_command"]

DECIDE = "ropecheck.proofs.prove._prove:decide_statement"
_PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # the checkout (or site-packages) holding ropecheck
_BUBBLEWRAP_BROKEN = threading.Event()  # set once bwrap is found unable to start here (no user namespaces…)
_HIDDEN_UID = 65534
_MARK = "ROPECHECK_IN_BUBBLEWRAP"
_LAUNCHER_MEMORY = 8 * 2**30  # the worker lowers it to what it holds plus its own budget


def _interpreter() -> list[str]:
    """The Python command line of the worker: isolated mode, with the caller's bytecode settings."""
    command = [sys.executable, "-I"]
    if sys.pycache_prefix:
        command += ["-X", f"pycache_prefix={sys.pycache_prefix}"]
    if sys.dont_write_bytecode:
        command.append("-B")
    return [*command, "-m", "ropecheck._worker"]


def _package_folders() -> list[str]:
    """The caller's package folders outside its environment (a `.pth` line or `--system-site-packages` can add
    another environment's site-packages): the worker imports SymPy from where the caller does. Only folders named
    site-packages or dist-packages — never the caller's working directory or home."""
    return [entry for entry in sys.path if Path(entry).name in ("site-packages", "dist-packages")]


def _visible_folders(extra: Sequence[str]) -> list[str]:
    """What the worker may read: the system's libraries, the interpreter and its environment, the package."""
    folders = ["/usr", "/etc/ld.so.cache", sys.base_prefix, sys.prefix, str(_PACKAGE_ROOT),
               *_package_folders(), *extra]
    if sys.pycache_prefix:
        folders.append(sys.pycache_prefix)
    real = Path(sys.executable).resolve().parent.parent
    folders.append(str(real))
    unique: list[str] = []
    for folder in folders:
        path = os.path.realpath(folder)
        if os.path.exists(path) and path not in unique:
            unique.append(path)
    return unique


def bubblewrap_command(extra_paths: Sequence[str] = ()) -> list[str] | None:
    """The `bwrap` prefix that confines the worker, or None when bubblewrap is not installed (or does not work
    here)."""
    bwrap = shutil.which("bwrap")
    if bwrap is None or _BUBBLEWRAP_BROKEN.is_set() or not sys.platform.startswith("linux"):
        return None
    command = [bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
               "--uid", str(_HIDDEN_UID), "--gid", str(_HIDDEN_UID), "--proc", "/proc", "--dev", "/dev",
               "--tmpfs", "/tmp", "--chdir", "/", "--setenv", _MARK, "1"]
    for name in ("bin", "lib", "lib64", "sbin"):  # merged /usr: these are links into /usr
        link = Path("/") / name
        if link.is_symlink():
            command += ["--symlink", os.readlink(link), str(link)]
        elif link.is_dir():
            command += ["--ro-bind", str(link), str(link)]
    for folder in _visible_folders(extra_paths):
        command += ["--ro-bind", folder, folder]
    return [*command, "--remount-ro", "/", "--"]


def _launcher(seconds: int) -> list[str]:
    """`proofs/prove/_sandbox.py` as a launcher: the parent-death signal is armed *before* bwrap (or the worker)
    starts, so that a `prove` killed at any moment takes the sandbox with it (bwrap arms its own only later)."""
    for root in (_PACKAGE_ROOT / "ropecheck", _PACKAGE_ROOT):  # a wheel, a source checkout
        launcher = root / "proofs" / "prove" / "_sandbox.py"
        if launcher.is_file():
            return [sys.executable, "-I", str(launcher), str(_LAUNCHER_MEMORY), str(seconds), str(os.getpid()), "--"]
    return []


def worker_command(extra_paths: Sequence[str] = (), seconds: int = 3600) -> list[str]:
    """The full command line that starts one worker (inside bubblewrap when it is available), whose CPU time is
    capped at `seconds`."""
    return [*_launcher(seconds), *(bubblewrap_command(extra_paths) or []), *_interpreter()]


def _start(request: bytes, extra_paths: Sequence[str], timeout: float) -> tuple[int | None, bytes, bytes]:
    command = worker_command(extra_paths, int(timeout) + 5)
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               close_fds=True, cwd="/")
    try:
        out, err = process.communicate(request, timeout=timeout)
        process.wait(timeout=5)  # it answered: let bwrap reap the worker (its CPU time then counts for us)
        return process.returncode, out, err
    except subprocess.TimeoutExpired:
        return None, b"", b""
    finally:
        if process.poll() is None:
            process.kill()  # bwrap's --die-with-parent and the worker's parent-death signal take the rest
        process.wait()


def run_confined(
    target: str, arguments: Sequence[Any], timeout: float, extra_paths: Sequence[str] = ()
) -> dict[str, Any] | None:
    """Run `target(*arguments)` in a confined worker; its answer, or None when it did not answer within
    `timeout` seconds (it is then killed).

    **Arguments:** `target` (`"module:function"`, imported in the worker only; the function returns a JSON-able
    dict), `arguments` (JSON-able), `timeout` (seconds), `extra_paths` (folders the worker must see and import
    from besides the package, e.g. a test helper's).

    **Returns:** the dict (with `confinement`: what the sandbox applied), a dict with `verdict: unknown` when the
    worker died without an answer, or None at the time limit.
    """
    request = json.dumps({"target": target, "arguments": list(arguments), "seconds": int(timeout) + 2,
                          "path": [str(p) for p in extra_paths]}).encode()
    code, out, err = _start(request, extra_paths, timeout)
    if code is None:
        return None
    if code != 0 and not out and err.startswith(b"bwrap:") and not _BUBBLEWRAP_BROKEN.is_set():
        _BUBBLEWRAP_BROKEN.set()  # e.g. user namespaces are disabled: run with the worker's own confinement
        warning = err.decode(errors="replace").strip().splitlines()[0]
        answer = run_confined(target, arguments, timeout, extra_paths)
        if answer is not None:
            answer.setdefault("notes", []).append(f"bubblewrap could not start here ({warning})")
        return answer
    try:
        answer: dict[str, Any] = json.loads(out.decode())
    except (UnicodeDecodeError, ValueError):
        return {"verdict": "unknown", "method": f"the worker stopped without an answer (exit {code})"}
    return answer


# ------------------------------------------------------------------------------------------ the worker side
def _serve() -> None:
    """Read one request on stdin, confine, run it, write the answer on the saved stdout; never returns."""
    import importlib

    answer_fd = os.dup(1)
    parent = os.getppid()
    try:
        request = json.loads(sys.stdin.buffer.read().decode())
        sys.path[:0] = [p for p in request.get("path", []) if isinstance(p, str)]
        module, _, name = str(request["target"]).partition(":")
        function = getattr(importlib.import_module(module), name)
        import ropecheck.proofs as proofs
        from ropecheck.proofs.prove._sandbox import WORKER_MEMORY_BYTES, address_space, confine, observed

        for public in proofs.__all__:  # the proof side (and SymPy), loaded while modules can still be read: once
            getattr(proofs, public)  # confined the worker imports nothing new (`ropecheck.proofs` loads names lazily)

        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)  # library output must not corrupt the answer
        applied = confine(address_space() + WORKER_MEMORY_BYTES, int(request["seconds"]), parent)
        applied = [*(["bubblewrap"] if os.environ.get(_MARK) else []), *applied]
        applied += [fact for fact in observed() if fact not in applied]
        payload = _run(function, request["arguments"])
        payload["confinement"] = applied
        usage = resource.getrusage(resource.RUSAGE_SELF)  # bubblewrap's PID namespace hides it from the caller
        payload["worker_cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 3)
        data = json.dumps(payload).encode()
    except BaseException as error:  # a malformed request or a failed import: say so, never a traceback
        data = json.dumps({"verdict": "unknown", "method": f"the worker failed: {type(error).__name__}"}).encode()
    try:
        while data:
            data = data[os.write(answer_fd, data):]
    finally:
        os._exit(0)


def _run(function: Any, arguments: list[Any]) -> dict[str, Any]:
    try:
        return dict(function(*arguments))
    except MemoryError:
        return {"verdict": "unknown", "method": "the worker ran out of memory"}
    except RecursionError:
        return {"verdict": "unknown", "method": "the statement is too deeply nested for the engine"}
    except BaseException as error:  # an engine failure is "unknown", never a traceback
        return {"verdict": "unknown", "method": f"internal error in the engine: {type(error).__name__}"}


if __name__ == "__main__":
    _serve()
