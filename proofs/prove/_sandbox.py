"""Confinement for `ropecheck prove`'s worker and its `coqc` (Linux; elsewhere only the resource limits apply).

`confine()` runs inside the engine worker before it reads the statement:

- it dies with its parent (`prctl(PR_SET_PDEATHSIG, SIGKILL)`);
- resource limits: address space, CPU seconds, no file may grow (`RLIMIT_FSIZE = 0`), no core dumps,
  no new processes (`RLIMIT_NPROC = 0`);
- running as root it leaves the network namespace (`unshare(CLONE_NEWNET)`: no network at all);
- a seccomp filter (x86-64) makes `fork`/`clone`/`exec`, sockets, opening a file for writing, deleting,
  renaming, linking, truncating or changing the mode/owner/times of a file, signals to other processes,
  mounts, namespaces and system administration fail with `EPERM` (the worker may still read files: the engine
  imports SymPy modules lazily). Without the filter, root drops to the user `nobody` (root ignores
  `RLIMIT_NPROC` and file modes).

`confine()` returns the list of what it could apply; `prove` reports it and never claims more.
`python proofs/prove/_sandbox.py BYTES SECONDS PARENT_PID -- program args…` is the launcher for `coqc`: it sets the
same address-space and CPU limits and the parent-death signal (exiting if `PARENT_PID` is already gone), then
`exec`s the program (no `preexec_fn`, which is
unsafe in a process that JAX made multithreaded).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import struct
import sys

__all__ = ["LAUNCHER", "WORKER_MEMORY_BYTES", "confine", "die_with_parent", "set_limits"]

LAUNCHER = os.path.abspath(__file__)
WORKER_MEMORY_BYTES = 4 * 2**30  # on top of what the worker holds when it starts; coqc gets the same

_PR_SET_PDEATHSIG, _PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 1, 38, 22, 2
_CLONE_NEWNET = 0x40000000
_AUDIT_ARCH_X86_64 = 0xC000003E
_DENIED_X86_64 = (
    56, 57, 58, 59, 322, 435,  # clone fork vfork execve execveat clone3
    41, 42, 49, 53,  # socket connect bind socketpair
    76, 77, 82, 83, 84, 85, 86, 87, 88, 90, 91, 92, 93, 94, 133,  # truncate … mknod
    258, 259, 260, 263, 264, 265, 266, 268, 316, 437,  # the *at variants, renameat2, openat2
    101, 311, 425,  # ptrace process_vm_writev io_uring_setup
    62, 200, 234, 424,  # kill tkill tgkill pidfd_send_signal: no signals to other processes
    132, 235, 261, 280, 188, 189, 190, 197, 198, 199,  # utime… and the extended attributes
    155, 161, 165, 166, 272, 308, 303, 304,  # pivot_root chroot mount umount2 unshare setns *_handle_at
    159, 163, 164, 167, 168, 169, 170, 171, 172, 173, 175, 176, 179, 227, 246, 313, 320,  # system administration
    248, 249, 250, 298, 300, 321, 323, 103,  # keys perf_event_open fanotify bpf userfaultfd syslog
)
_OPEN, _OPENAT = 2, 257
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _libc() -> ctypes.CDLL | None:
    """The C library already loaded in this process (no `find_library`: it may start a compiler)."""
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - a platform without dlopen(NULL)
        return None


def die_with_parent(parent: int | None = None) -> bool:
    """Ask the kernel to SIGKILL this process when its parent (pid `parent`, default: the current one) dies;
    True when applied. A parent already gone means exiting now."""
    libc = _libc()
    if libc is None or not sys.platform.startswith("linux"):
        return False
    parent = os.getppid() if parent is None else parent
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    return True


def set_limits(memory_bytes: int, cpu_seconds: int, files: bool = True) -> None:
    """Address space and CPU limits; with `files=False` also no file growth and no new processes."""
    limits = [(resource.RLIMIT_AS, memory_bytes), (resource.RLIMIT_CPU, cpu_seconds), (resource.RLIMIT_CORE, 0)]
    if not files:
        limits += [(resource.RLIMIT_FSIZE, 0), (resource.RLIMIT_NPROC, 0)]
    for limit, value in limits:
        try:
            resource.setrlimit(limit, (value, value))
        except (ValueError, OSError):
            pass


def _bpf(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def _seccomp_program() -> bytes:
    """deny (EPERM) the calls in `_DENIED_X86_64`, `open`/`openat` with a write flag and x32 calls; allow the rest."""
    load, jeq, jset, jge, ret = 0x20, 0x15, 0x45, 0x35, 0x06
    allow, deny = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM
    body = [_bpf(load, 0, 0, 0), _bpf(jge, 0, 1, 0x40000000), _bpf(ret, 0, 0, deny)]
    for number in _DENIED_X86_64:
        body += [_bpf(jeq, 0, 1, number), _bpf(ret, 0, 0, deny)]
    for number, offset in ((_OPEN, 24), (_OPENAT, 32)):  # args[1] / args[2], the flags (low word)
        body += [_bpf(jeq, 0, 3, number), _bpf(load, 0, 0, offset), _bpf(jset, 0, 1, _WRITE_FLAGS),
                 _bpf(ret, 0, 0, deny), _bpf(load, 0, 0, 0)]
    body.append(_bpf(ret, 0, 0, allow))
    head = [_bpf(load, 0, 0, 4), _bpf(jeq, 1, 0, _AUDIT_ARCH_X86_64), _bpf(ret, 0, 0, deny)]
    return b"".join(head + body)


def _install_seccomp(libc: ctypes.CDLL) -> bool:
    program = _seccomp_program()
    filters = ctypes.create_string_buffer(program, len(program))

    class _Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _Program(len(program) // 8, ctypes.cast(filters, ctypes.c_void_p))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    return libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0


def confine(memory_bytes: int, cpu_seconds: int, parent: int | None = None) -> list[str]:
    """Confine the calling process for good (see the module docstring); returns what was applied.
    `parent`: the pid whose death must kill this process (default: the current parent)."""
    applied = ["limits"]
    set_limits(memory_bytes, cpu_seconds, files=False)
    libc = _libc()
    if libc is None or not sys.platform.startswith("linux"):
        return applied
    if os.geteuid() == 0 and libc.unshare(_CLONE_NEWNET) == 0:
        applied.append("no-network")
    if os.uname().machine == "x86_64" and _install_seccomp(libc):
        applied.append("seccomp")
    elif os.geteuid() == 0:  # no filter: at least lose root (which ignores RLIMIT_NPROC and file modes)
        try:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            applied.append("unprivileged")
        except OSError:
            pass
    if die_with_parent(parent):  # last: setuid clears the parent-death signal
        applied.append("dies-with-parent")
    return applied


def _launch(argv: list[str]) -> None:  # pragma: no cover - replaced by the program it executes
    memory, seconds, parent, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: _sandbox.py BYTES SECONDS PARENT_PID -- program args…")
    die_with_parent(int(parent))  # the pid of prove: if it died while we started, stop here
    set_limits(int(memory), int(seconds))
    os.execvp(command[0], command)


if __name__ == "__main__":  # pragma: no cover - runs as the coqc launcher
    _launch(sys.argv[1:])
