"""One Sphinx build of the docs per test session, shared by `test_docs.py` and `test_docs_browser.py`.

The build runs as the user runs it — `python -m sphinx -W --keep-going -E -b html docs docs/_build/html` — in a
subprocess with this interpreter, so a warning anywhere fails it.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"
SCREENSHOTS = BUILD / "screenshots"


@dataclass(frozen=True)
class DocsBuild:
    """The result of building the site: exit code, combined output, where the HTML is, and how long it took."""

    returncode: int
    output: str
    html: Path
    seconds: float


def sphinx_command(source: Path, out: Path, *extra: str) -> list[str]:
    """The command line that builds `source` into `out` with warnings as errors."""
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-E",
        "-q",
        "-b",
        "html",
        *extra,
        str(source),
        str(out),
    ]


@functools.cache
def build_docs() -> DocsBuild:
    """Build the docs once per process (fresh environment, so every warning is emitted again)."""
    started = time.perf_counter()
    completed = subprocess.run(
        sphinx_command(DOCS, HTML, "-d", str(BUILD / "doctrees")),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    return DocsBuild(
        returncode=completed.returncode,
        output=completed.stdout + completed.stderr,
        html=HTML,
        seconds=time.perf_counter() - started,
    )
