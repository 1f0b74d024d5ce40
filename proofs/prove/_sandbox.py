"""Confinement for `ropecheck prove`'s worker and its `coqc` (Linux; elsewhere only the resource limits apply).

The worker (`ropecheck._worker`) normally starts inside bubblewrap: a read-only view of only the folders Python
needs, an empty `/tmp`, new user (uid 65534, no capabilities), PID, network, IPC and UTS namespaces. Then
`confine()` runs inside it, after the engine is imported and before the statement is read:

- resource limits: address space, CPU seconds, no file may grow (`RLIMIT_FSIZE = 0`), no core dumps, no new
  processes (`RLIMIT_NPROC = 0`);
- without bubblewrap (not installed, or user namespaces disabled) and running as root, it leaves the network
  namespace (`unshare(CLONE_NEWNET)`) and drops to the user `nobody` — always *before* the filter;
- it dies with its parent (`prctl(PR_SET_PDEATHSIG, SIGKILL)`);
- a seccomp **allow-list** (x86-64): only the system calls listed in `ALLOWED_X86_64` succeed; every other call
  fails with `EPERM`. Among the allowed ones, `open`/`openat` only without a write flag, `ioctl` only the
  terminal and pipe queries Python makes (`TCGETS`, `TIOCGWINSZ`, `FIONREAD`, `FIOCLEX`, `FIONCLEX`; never
  `TIOCSTI`), `kill`/`tkill`/`tgkill` only to the worker itself, `prlimit64` only on itself. So no process,
  thread, socket, file written, deleted or renamed, signal to another process, `pidfd_*`, mount API
  (`fsopen`, `mount`…), namespace change, `ptrace`, `io_uring` or `bpf`.

`confine()` returns the list of what it applied, and `observed()` what holds in fact (read-only root, no
network interface but loopback, an unprivileged uid); `prove` reports them and never claims more.
`python proofs/prove/_sandbox.py BYTES SECONDS PARENT_PID -- program args…` is the launcher for `coqc`: it sets the
same address-space and CPU limits and the parent-death signal (exiting if `PARENT_PID` is already gone), then
`exec`s the program (no `preexec_fn`, which is unsafe in a process that JAX made multithreaded).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import struct
import sys

__all__ = ["ALLOWED_X86_64", "LAUNCHER", "WORKER_MEMORY_BYTES", "address_space", "confine", "die_with_parent",
           "observed", "set_limits"]

LAUNCHER = os.path.abspath(__file__)
WORKER_MEMORY_BYTES = 4 * 2**30  # on top of what the worker holds when it starts; coqc gets the same
UNPRIVILEGED_UID = 65534  # nobody

_PR_SET_PDEATHSIG, _PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 1, 38, 22, 2
_CLONE_NEWNET = 0x40000000
_AUDIT_ARCH_X86_64 = 0xC000003E
# What the engine needs once imported: memory, reading files (SymPy imports modules lazily), time, the answer.
ALLOWED_X86_64 = {
    "read": 0, "write": 1, "close": 3, "stat": 4, "fstat": 5, "lstat": 6, "poll": 7, "lseek": 8, "mmap": 9,
    "mprotect": 10, "munmap": 11, "brk": 12, "rt_sigaction": 13, "rt_sigprocmask": 14, "rt_sigreturn": 15,
    "pread64": 17, "readv": 19, "writev": 20, "access": 21, "select": 23, "sched_yield": 24, "mremap": 25,
    "madvise": 28, "dup": 32, "dup2": 33, "nanosleep": 35, "getitimer": 36, "alarm": 37, "setitimer": 38,
    "getpid": 39, "exit": 60, "uname": 63, "fcntl": 72, "getdents": 78, "getcwd": 79, "readlink": 89,
    "gettimeofday": 96, "getrlimit": 97, "getrusage": 98, "sysinfo": 99, "times": 100, "getuid": 102,
    "statfs": 137, "fstatfs": 138,
    "getgid": 104, "geteuid": 107, "getegid": 108, "getppid": 110, "getpgrp": 111, "getgroups": 115,
    "getresuid": 118, "getresgid": 120, "getpgid": 121, "getsid": 124, "sigaltstack": 131, "gettid": 186,
    "time": 201, "futex": 202, "sched_getaffinity": 204, "getdents64": 217, "restart_syscall": 219,
    "clock_gettime": 228, "clock_getres": 229, "clock_nanosleep": 230, "exit_group": 231, "newfstatat": 262,
    "readlinkat": 267, "faccessat": 269, "pselect6": 270, "ppoll": 271, "getcpu": 309, "getrandom": 318,
    "statx": 332, "rseq": 334, "faccessat2": 439,
}
_OPEN_FLAGS = {2: 1, 257: 2}  # open: flags are argument 1; openat: argument 2
_SELF_ONLY = {62: 0, 200: 0, 234: 0, 302: 0}  # kill, tkill, tgkill, prlimit64: the pid is argument 0
_IOCTL, _IOCTL_REQUESTS = 16, (0x5401, 0x5413, 0x541B, 0x5451, 0x5450)  # TCGETS TIOCGWINSZ FIONREAD FIOCLEX FIONCLEX
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def _libc() -> ctypes.CDLL | None:
    """The C library already loaded in this process (no `find_library`: it may start a compiler)."""
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:  # pragma: no cover - a platform without dlopen(NULL)
        return None


def address_space() -> int:
    """Bytes of address space this process holds now (0 when unknown)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


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


_LOAD, _JEQ, _JSET, _JGE, _RET = 0x20, 0x15, 0x45, 0x35, 0x06
_ALLOW, _DENY = 0x7FFF0000, 0x00050000 | 1  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EPERM


def _argument(index: int) -> int:
    return 16 + 8 * index  # offset of the low word of args[index] in struct seccomp_data (little-endian)


def _one_of(number: int, index: int, values: tuple[int, ...]) -> list[bytes]:
    """Allow call `number` only when the low word of argument `index` is one of `values` (the kernel reads
    pids, ioctl requests and open flags as 32-bit ints)."""
    count = len(values)
    block = [_bpf(_LOAD, 0, 0, _argument(index))]
    block += [_bpf(_JEQ, count - k, 0, value) for k, value in enumerate(values)]
    block += [_bpf(_RET, 0, 0, _DENY), _bpf(_RET, 0, 0, _ALLOW)]
    return [_bpf(_JEQ, 0, len(block), number), *block]


def _without_write_flags(number: int, index: int) -> list[bytes]:
    block = [_bpf(_LOAD, 0, 0, _argument(index)), _bpf(_JSET, 0, 1, _WRITE_FLAGS), _bpf(_RET, 0, 0, _DENY),
             _bpf(_RET, 0, 0, _ALLOW)]
    return [_bpf(_JEQ, 0, len(block), number), *block]


def seccomp_program(pid: int) -> bytes:
    """The allow-list filter for a process whose pid is `pid` (see the module docstring)."""
    head = [_bpf(_LOAD, 0, 0, 4), _bpf(_JEQ, 1, 0, _AUDIT_ARCH_X86_64), _bpf(_RET, 0, 0, _DENY),
            _bpf(_LOAD, 0, 0, 0), _bpf(_JGE, 0, 1, 0x40000000), _bpf(_RET, 0, 0, _DENY)]  # no x32 calls
    body: list[bytes] = []
    for number in sorted(ALLOWED_X86_64.values()):
        body += [_bpf(_JEQ, 0, 1, number), _bpf(_RET, 0, 0, _ALLOW)]
    for number, index in _OPEN_FLAGS.items():
        body += _without_write_flags(number, index)
    for number, index in _SELF_ONLY.items():
        body += _one_of(number, index, (pid, 0) if number == 302 else (pid,))  # prlimit64: 0 is itself
    body += _one_of(_IOCTL, 1, _IOCTL_REQUESTS)
    return b"".join([*head, *body, _bpf(_RET, 0, 0, _DENY)])


def _install_seccomp(libc: ctypes.CDLL) -> bool:
    program = seccomp_program(os.getpid())
    filters = ctypes.create_string_buffer(program, len(program))

    class _Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = _Program(len(program) // 8, ctypes.cast(filters, ctypes.c_void_p))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    return libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0


def _drop_root(libc: ctypes.CDLL) -> list[str]:
    """As root outside a user namespace: no network, then the user `nobody` (root ignores file modes)."""
    applied = []
    if libc.unshare(_CLONE_NEWNET) == 0:
        applied.append("no-network")
    try:
        os.setgroups([])
        os.setresgid(UNPRIVILEGED_UID, UNPRIVILEGED_UID, UNPRIVILEGED_UID)
        os.setresuid(UNPRIVILEGED_UID, UNPRIVILEGED_UID, UNPRIVILEGED_UID)
        applied.append("unprivileged")
    except OSError:
        pass
    return applied


def confine(memory_bytes: int, cpu_seconds: int, parent: int | None = None) -> list[str]:
    """Confine the calling process for good (see the module docstring); returns what was applied.
    `parent`: the pid whose death must kill this process (default: the current parent)."""
    parent = os.getppid() if parent is None else parent
    applied = ["limits"]
    set_limits(memory_bytes, cpu_seconds, files=False)
    libc = _libc()
    if libc is None or not sys.platform.startswith("linux"):
        return applied
    if os.geteuid() == 0:  # never install the filter as root
        applied += _drop_root(libc)
    if die_with_parent(parent):  # after setuid, which clears the parent-death signal
        applied.append("dies-with-parent")
    if os.geteuid() != 0 and os.uname().machine == "x86_64" and _install_seccomp(libc):
        applied.append("seccomp")
    return applied


def observed() -> list[str]:
    """What holds in this process in fact: `read-only-root`, `no-network` (no interface but loopback),
    `unprivileged` (not uid 0 in this namespace), `user-namespace` (uid 0 of the host is not ours)."""
    facts = []
    try:
        if os.statvfs("/").f_flag & os.ST_RDONLY:
            facts.append("read-only-root")
    except OSError:
        pass
    try:
        with open("/proc/self/net/dev") as devices:
            names = [line.split(":")[0].strip() for line in devices.read().splitlines()[2:]]
        if all(name == "lo" for name in names):
            facts.append("no-network")
    except OSError:
        pass
    if os.geteuid() != 0:
        facts.append("unprivileged")
    try:
        with open("/proc/self/uid_map") as mapping:
            if mapping.read().split()[:3] != ["0", "0", "4294967295"]:
                facts.append("user-namespace")
    except OSError:
        pass
    return facts


def _launch(argv: list[str]) -> None:  # pragma: no cover - replaced by the program it executes
    memory, seconds, parent, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: _sandbox.py BYTES SECONDS PARENT_PID -- program args…")
    die_with_parent(int(parent))  # the pid of prove: if it died while we started, stop here
    set_limits(int(memory), int(seconds))
    os.execvp(command[0], command)


if __name__ == "__main__":  # pragma: no cover - runs as the coqc launcher
    _launch(sys.argv[1:])
