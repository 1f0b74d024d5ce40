"""Injection attempts against `ropecheck prove`: nothing a user types is ever evaluated (issue #11).

Each attempt must be refused (exit 2, one line on stderr) or decided as a plain formula, and must not import
a module, open a file, run code or print anything besides the verdict. In-process, a Python audit hook records
the events raised while the text is parsed; through the console script, a payload that would create a file
or print a marker must leave no trace.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from ropecheck.proofs import BadStatement, parse_identity

from ._budget import SUBPROCESS_BUDGET

ROPECHECK = shutil.which("ropecheck", path=str(Path(sys.executable).parent)) or "ropecheck"

ATTACKS = [
    "Integer(S('_'+'_import_'+'_(\"os\").getpid()')) == 0",
    "__import__('os').system('touch PWNED') == 0",
    "__import__ == 1",
    "input() == 1",
    "eval('1') == 1",
    "exec('x=1') == 1",
    "open('PWNED', 'w') == 1",
    "divmod(1, 2) == 1",
    "x.__class__ == 1",
    "x.func == 1",
    "(1).__class__.__bases__ == 1",
    "lambda: 1 == 1",
    "(lambda x: x)(1) == 1",
    "'a' == 'a'",
    '"a" == "a"',
    "Symbol('p', prime=True) == 1",
    "Symbol('x', commutative=False) == 1",
    "S('1') == 1",
    "sympify('1') == 1",
    "getattr(x, 'func') == 1",
    "globals() == 1",
    "x; import os == 1",
    "x == 1; print(1)",
    "[c for c in x] == 1",
    "{1: 2} == 1",
    "x if x else y == 1",
    "x @ y == 1",
    "x == 1 # comment",
    "f'{x}' == 1",
    "\\N{LATIN SMALL LETTER X} == 1",
    "x\x00 == 1",
    "Matrix([[__import__('os')]]) == 1",
    "Sum(__import__, (k, 1, 2)) == 1",
    "Sum(x, (__import__, 1, 2)) == 1",
    "MatrixSymbol('A', 2, 2) == 1",
    "Function('f')(x) == 1",
    "Mod(x, 0) == 0",
    "N(pi, 10**9) == 1",
    "x.evalf(10**9) == 1",
    "exp(A)*exp(B) == exp(A + B) and Symbol('A', commutative=False)",
]
_WATCHED = ("import", "open", "exec", "compile", "os.system", "subprocess.Popen", "os.exec", "os.posix_spawn")
_recording = threading.local()


def _audit(event: str, args: tuple[object, ...]) -> None:
    events = getattr(_recording, "events", None)
    if events is not None and event.startswith(_WATCHED):
        events.append(event)


sys.addaudithook(_audit)  # audit hooks cannot be removed; it records only inside `_recorded()`


@contextlib.contextmanager
def _recorded() -> Iterator[list[str]]:
    _recording.events = []
    try:
        yield _recording.events
    finally:
        _recording.events = None


@pytest.mark.parametrize("attack", ATTACKS)
def test_parsing_an_attack_raises_no_audit_event(attack: str) -> None:
    parse_identity("x == 1")  # warm: first use may import SymPy submodules lazily
    with _recorded() as events:
        try:
            parse_identity(attack)
        except BadStatement as error:
            assert "\n" not in str(error)
    assert events == [], f"{attack!r} raised audit events {events}"


def test_no_attack_is_accepted_as_a_statement() -> None:
    accepted = []
    for attack in ATTACKS:
        try:
            parse_identity(attack)
        except BadStatement:
            continue
        accepted.append(attack)
    assert accepted == []


def test_a_canary_check_sees_an_audit_event() -> None:
    """The audit hook is not blind: opening a file inside the window is recorded."""
    with _recorded() as events, open(os.devnull):
        pass
    assert "open" in events


@pytest.mark.parametrize(
    "attack",
    [
        "__import__('os').system('touch PWNED') == 0",
        "open('PWNED', 'w') == 1",
        "Integer(S('_'+'_import_'+'_(\"os\").system(\"touch PWNED\")')) == 0",
        "x == 1 or print('MARKER')",
    ],
)
def test_console_script_leaves_no_trace(attack: str, tmp_path: Path) -> None:
    result = subprocess.run(
        [ROPECHECK, "prove", attack],
        capture_output=True,
        text=True,
        timeout=SUBPROCESS_BUDGET,
        cwd=tmp_path,
        env={**os.environ},
    )
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr and "MARKER" not in result.stderr
    assert list(tmp_path.iterdir()) == []
