"""Imported first by the forkserver of `ropecheck prove` (`ropecheck.proofs._worker`): from then on the kernel
SIGKILLs the forkserver as soon as the `prove` process dies, even while it is still importing the engine.

Kept tiny and free of package imports (importing `ropecheck.proofs` would load SymPy first). Linux only;
elsewhere it does nothing.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    parent = int(os.environ.get("ROPECHECK_PROVE_PARENT", "0")) or os.getppid()
    ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


if any("multiprocessing.forkserver" in argument for argument in sys.orig_argv):  # only in the forkserver itself
    _die_with_parent()
