"""Acts the `prove` worker must not be able to perform, tried from inside it (tests/test_prove_process.py).

`try_acts(folder)` returns `{act: "failed: …" | "succeeded"}`; `folder` holds a file `victim` to delete, rename
and chmod. Reading a file and computing with SymPy are controls: they must still work inside the sandbox.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import Any


def _exec() -> None:
    os.execv("/bin/true", ["true"])


def try_acts(folder: str) -> dict[str, Any]:
    victim = Path(folder) / "victim"
    acts = {
        "fork": lambda: os.fork() == 0 and os._exit(0),
        "exec": _exec,
        "write": lambda: open(Path(folder) / "new", "w").close(),
        "truncate": lambda: open(victim, "r+").close(),
        "delete": lambda: os.unlink(victim),
        "rename": lambda: os.rename(victim, Path(folder) / "renamed"),
        "chmod": lambda: os.chmod(victim, 0o777),
        "socket": lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close(),
        "signal another process": lambda: os.kill(1, 0),
        "read (control)": lambda: Path(__file__).read_text(),
        "sympy (control)": lambda: __import__("sympy").sin(1).evalf(),
    }
    results: dict[str, Any] = {}
    for name, act in acts.items():
        try:
            act()
            results[name] = "succeeded"
        except OSError as error:
            results[name] = f"failed: {error.strerror}"
    return results
