"""One Sphinx build of the docs per test session, shared by `test_docs.py` and `test_docs_browser.py`.

The build runs as the user runs it — `python -m sphinx -W --keep-going -E -b html docs docs/_build/html` — in a
subprocess with this interpreter, so a warning anywhere fails it.
"""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile
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


_RUNNING: dict[str, tuple[subprocess.Popen[bytes], object, float]] = {}


def start_docs_build() -> None:
    """Start the build in the background (once), so it overlaps with other tests on the second core."""
    if "build" in _RUNNING:
        return
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        sphinx_command(DOCS, HTML, "-d", str(BUILD / "doctrees")), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
    )
    _RUNNING["build"] = (process, log, time.perf_counter())


def stop_docs_build() -> None:
    """End a background build nobody waited for (e.g. a run stopped early), so no process outlives pytest."""
    if "build" in _RUNNING:
        process = _RUNNING["build"][0]
        if process.poll() is None:
            process.kill()
            process.wait()


@functools.cache
def build_docs() -> DocsBuild:
    """The session's build (fresh environment, so every warning is emitted again), started if not yet running."""
    start_docs_build()
    process, log, started = _RUNNING["build"]
    try:
        returncode = process.wait(timeout=600)
    except subprocess.TimeoutExpired:
        process.kill()
        returncode = process.wait()
    log.seek(0)  # type: ignore[attr-defined]
    output = log.read().decode("utf-8", "replace")  # type: ignore[attr-defined]
    log.close()  # type: ignore[attr-defined]
    return DocsBuild(returncode=returncode, output=output, html=HTML, seconds=time.perf_counter() - started)
