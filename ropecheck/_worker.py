"""Run one function in a confined, killable worker process started safely after JAX or other threads.

A plain `os.fork()` of a multithreaded process (JAX starts threads) can deadlock the child. The worker is
forked instead by a `multiprocessing` *forkserver*: a fresh single-threaded process, started once per
program with the proof engine pre-imported (so each worker starts warm). The worker confines itself
(`ropecheck.proofs.prove._sandbox.confine`) before it reads the statement and dies with the forkserver, which dies
with the program: this module is the forkserver's first import, and there it arms the parent-death signal
at once (even before SymPy is imported) — so no worker outlives a killed `prove`. The caller kills the worker
at the time limit; the answer comes back through a pipe.

Kept free of SymPy and of `ropecheck.proofs` at import time, so that `ropecheck prove` itself imports neither
unless the Coq step runs (the engine is imported once, in the forkserver).
"""

from __future__ import annotations

import ctypes
import importlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["DECIDE", "run_confined"]

DECIDE = "ropecheck.proofs.prove._prove:decide_statement"
PARENT_VARIABLE = "ROPECHECK_PROVE_PARENT"
_PRELOAD = ["ropecheck._worker", "ropecheck.proofs.prove._prove"]  # this module first: it arms the guard at once


def _address_space() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _start_forkserver() -> None:
    """Start the forkserver (once) telling it our pid, so that it exits at once if we are already gone."""
    from multiprocessing import forkserver

    os.environ[PARENT_VARIABLE] = str(os.getpid())
    try:
        forkserver.ensure_running()
    finally:
        os.environ.pop(PARENT_VARIABLE, None)


Target = Callable[..., dict[str, Any]] | str


def _child(function: Target, arguments: tuple[Any, ...], connection: Any, seconds: int, caller: int) -> None:
    """The worker's body: never returns (no multiprocessing clean-up runs inside the sandbox)."""
    payload: dict[str, Any]
    parent = os.getppid()  # the forkserver, unless it is already gone
    try:
        from ropecheck.proofs.prove._sandbox import WORKER_MEMORY_BYTES, confine

        if isinstance(function, str):  # "module:function", already imported by the forkserver
            module, _, name = function.partition(":")
            function = getattr(importlib.import_module(module), name)
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        applied = confine(_address_space() + WORKER_MEMORY_BYTES, seconds, parent)
        if not os.path.exists(f"/proc/{caller}") and sys.platform.startswith("linux"):
            os._exit(1)  # prove died before the parent-death signal was armed (the forkserver is going too)
        try:
            payload = function(*arguments)
        except MemoryError:
            payload = {"verdict": "unknown", "method": "the worker ran out of memory"}
        except RecursionError:
            payload = {"verdict": "unknown", "method": "the statement is too deeply nested for the engine"}
        except BaseException as error:  # an engine failure is "unknown", never a traceback
            payload = {"verdict": "unknown", "method": f"internal error in the engine: {type(error).__name__}"}
        payload["confinement"] = applied
        connection.send(payload)
    finally:
        os._exit(0)


def run_confined(function: Target, arguments: tuple[Any, ...], timeout: float) -> dict[str, Any] | None:
    """Run `function(*arguments)` in a confined worker; its answer, or None when it did not answer within
    `timeout` seconds (it is then killed).

    **Arguments:** `function` (a module-level function, or its name `"module:function"` so that the caller
    need not import it; it returns a JSON-able dict), `arguments`, `timeout`.

    **Returns:** the dict (with `confinement`: what the sandbox applied), a dict with `verdict: unknown` when the
    worker died without an answer, or None at the time limit.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(_PRELOAD)
    _start_forkserver()
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(
        target=_child, args=(function, arguments, sender, int(timeout) + 2, os.getpid()), daemon=True
    )
    process.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            return None
        try:
            return receiver.recv()
        except (EOFError, OSError):
            return {"verdict": "unknown", "method": f"the worker stopped without an answer (exit {process.exitcode})"}
    finally:
        receiver.close()
        process.kill()
        process.join()


def _die_with_parent() -> None:
    """Arm the parent-death signal of the forkserver (Linux); exit if the parent is already gone."""
    if not sys.platform.startswith("linux"):
        return
    parent = int(os.environ.get(PARENT_VARIABLE, "0")) or os.getppid()
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


if any("multiprocessing.forkserver" in argument for argument in sys.orig_argv):  # only in the forkserver itself
    _die_with_parent()
