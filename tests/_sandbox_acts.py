"""Acts the `prove` worker must not be able to perform, tried from inside it (tests/test_prove_process.py).

`try_acts(folder, parent, victim_pid)` returns `{act: "failed: <errno name>" | "succeeded"}`; `folder` holds a
file `victim` to delete, rename and chmod; `parent` is the pid of the process that started the worker (its
file limit must not change, its descriptors must not be copied); `victim_pid` an unrelated process that must
survive. The system calls of issue 37's list are made directly (`syscall(2)`), as an attacker would. Reading a
file of the package and computing with SymPy are controls: they must still work inside the sandbox.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import resource
import signal
import socket
import termios
from collections.abc import Callable
from pathlib import Path
from typing import Any

_LIBC = ctypes.CDLL(None, use_errno=True)
_RT_SIGQUEUEINFO, _PRLIMIT64, _FSOPEN, _PIDFD_OPEN, _PIDFD_GETFD = 129, 302, 430, 434, 438


def _syscall(number: int, *arguments: Any) -> Callable[[], None]:
    def call() -> None:
        result = _LIBC.syscall(number, *arguments)
        if result < 0:
            code = ctypes.get_errno()
            raise OSError(code, os.strerror(code))
        if number in (_FSOPEN, _PIDFD_OPEN, _PIDFD_GETFD):
            os.close(result)
    return call


def _exec() -> None:
    """A program that does not exist: unconfined the call fails with ENOENT (it reached the file system),
    confined with EPERM (the filter refused it); a real program would replace the process that tries."""
    os.execv("/nonexistent/ropecheck-probe", ["probe"])


def _pidfd_getfd(parent: int) -> None:
    pidfd = _LIBC.syscall(_PIDFD_OPEN, parent, 0)
    _syscall(_PIDFD_GETFD, pidfd if pidfd >= 0 else 0, 0, 0)()  # the parent's stdin


def try_acts(folder: str, parent: int, victim_pid: int) -> dict[str, Any]:
    victim, renamed = Path(folder) / "victim", Path(folder) / "renamed"
    siginfo = ctypes.create_string_buffer(128)
    siginfo[8:12] = (-1).to_bytes(4, "little", signed=True)  # si_code SI_QUEUE, as sigqueue(3) sends it
    new_limit = (ctypes.c_uint64 * 2)(1, 1)
    acts: dict[str, Callable[[], Any]] = {
        "fork": lambda: os.fork() == 0 and os._exit(0),
        "exec": _exec,
        "write": lambda: open(Path(folder) / "new", "w").close(),
        "truncate": lambda: open(victim, "r+").close(),
        "chmod": lambda: os.chmod(victim, 0o777),
        "rename": lambda: os.rename(victim, renamed),
        "delete": lambda: os.unlink(renamed if renamed.exists() else victim),
        "socket": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close(),
        "kill another process": lambda: os.kill(victim_pid, signal.SIGKILL),
        "rt_sigqueueinfo another process": _syscall(_RT_SIGQUEUEINFO, victim_pid, signal.SIGKILL, siginfo),
        "prlimit64 on the parent": _syscall(_PRLIMIT64, parent, resource.RLIMIT_NOFILE, new_limit, None),
        "pidfd_open the parent": _syscall(_PIDFD_OPEN, parent, 0),
        "pidfd_getfd from the parent": lambda: _pidfd_getfd(parent),
        "fsopen (mount API)": _syscall(_FSOPEN, b"tmpfs", 0),
        "ioctl TIOCSTI": lambda: fcntl.ioctl(0, termios.TIOCSTI, b"x"),
        "read /etc/shadow": lambda: Path("/etc/shadow").read_bytes(),
        "read (control)": lambda: Path(__file__).read_text(),
        "sympy (control)": lambda: __import__("sympy").sin(1).evalf(),
    }
    results: dict[str, Any] = {}
    for name, act in acts.items():
        try:
            act()
            results[name] = "succeeded"
        except OSError as error:
            results[name] = f"failed: {errno.errorcode.get(error.errno or 0, error.strerror)}"
    return results
