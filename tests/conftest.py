"""Shared test configuration: bytecode caching, hypothesis profiles, the `--deep` option, the order of the long items,
the early docs build, mpmath precision reset, the one headless browser of a test process."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

# Bytecode: the suite starts hundreds of Python processes (the CLI, `prove`, audits, the docs build). Where
# PYTHONDONTWRITEBYTECODE is set, each would compile every module it imports from source again — and `bash
# .ci/bootstrap test` does not compile the 18,000 modules it installs at install time, most never imported (35
# CPU-seconds). So the suite, its workers and every process they start write the bytecode of what they import once,
# under `<venv>/pycache` (PYTHONPYCACHEPREFIX: never into the source tree), and read it back after.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(Path(sys.prefix) / "pycache"))
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
    sys.dont_write_bytecode = False

# Threads: the suite runs two pytest-xdist workers on two cores, so a second OpenMP thread in a worker (torch's
# intra-op pool) only spins against the other worker. One thread each, unless the user set OMP_NUM_THREADS: the
# torch-heavy audit files under `-n 2` took 91.6 CPU-s with torch's default and 85.3 with one thread (cgroup, idle
# 2-core machine, issue 36). Subprocesses inherit it; the product's own default is unchanged.
os.environ.setdefault("OMP_NUM_THREADS", "1")
if "torch" in sys.modules:  # imported before this file (a plugin): set its pool too
    sys.modules["torch"].set_num_threads(int(os.environ["OMP_NUM_THREADS"]))

from collections.abc import Iterator
from typing import Any

import mpmath
import pytest
from hypothesis import HealthCheck, settings

# Garbage collection: SymPy, JAX tracing and the audits allocate heavily, and the cyclic collector's passes over the
# young generation (every 700 allocations by default) cost about 2-3 % of the test processes' CPU (five JAX- and
# SymPy-heavy files under `-n 2`: 57.2 and 58.0 CPU-s, 56.3 and 56.1 with this, alternating). In test processes only:
# what the imports made is frozen (never scanned again) and the young generation is collected every 50,000
# allocations. Reference counting still frees everything else at once; no result depends on when cycles are freed.
gc.freeze()
gc.set_threshold(50_000, 50, 100)

# Extend hypothesis' own `ci` profile (derandomised, no database) rather than replacing it: JIT compilation
# makes first calls slow, so deadlines are off everywhere; the dev profile keeps random exploration.
settings.register_profile(
    "ci", parent=settings.get_profile("ci"), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI", "").lower() in {"1", "true", "yes"} else "dev")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--deep", action="store_true", default=False, help="run long sweeps (not run in CI)")


def pytest_configure(config: pytest.Config) -> None:
    """`--deep` also reaches what is decided at import (a property test's number of examples, a sample's size) and
    the subprocesses: as `ROPECHECK_DEEP=1` (`tests/_tiers.py`)."""
    if config.getoption("--deep"):
        os.environ["ROPECHECK_DEEP"] = "1"


# Moved forward: the longest items, which come last alphabetically — there pytest-xdist's worksteal cannot take them
# from a worker (it leaves a worker its last two) and the other core idles while they run (measured: 11 s at the end of
# an idle run). Not to the very front: they need the docs build, which is not done yet when the first tests start. A
# quarter of the way in, the first worker reaches them midway through its share, after the build. test_wheel.py
# (a wheel built, a fresh environment, `ropecheck claims` in it: about 6 CPU-s in its last two items) was the last file.
LONG_EARLY = ("tests/test_docs_browser.py::test_every_page_fits_its_width", "tests/test_wheel.py::")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if any(item.nodeid.startswith("tests/test_docs") for item in items):
        # The docs build is a subprocess of ~30 s: start it now so it runs beside the other tests.
        from ._docs_build import start_docs_build

        start_docs_build()
    long = [item for item in items if item.nodeid.startswith(LONG_EARLY)]
    rest = [item for item in items if not item.nodeid.startswith(LONG_EARLY)]
    items[:] = rest[: len(rest) // 4] + long + rest[len(rest) // 4 :]  # the rest keep their order
    if config.getoption("--deep"):
        return
    skip = pytest.mark.skip(reason="long sweep: run with --deep")
    for item in items:
        if "deep" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """`ROPECHECK_CPU_PROFILE=FILE`: append each test's CPU-seconds (this process and the subprocesses it waited
    for: setup, call and teardown) to FILE — the suite's budget is CPU-seconds (issue 36), wall time under load is
    not."""
    target = os.environ.get("ROPECHECK_CPU_PROFILE")
    if not target:
        return (yield)
    import resource

    def used() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    before = used()
    try:
        return (yield)
    finally:
        with open(target, "a", encoding="utf-8") as out:
            out.write(f"{used() - before:.2f}\t{item.nodeid}\n")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    from ._docs_build import stop_docs_build

    stop_docs_build()


@pytest.fixture(autouse=True)
def _reset_mpmath_precision() -> None:
    """mpmath precision is global state; every test starts from the default and leaves it there."""
    mpmath.mp.dps = 15
    mpmath.iv.prec = 53
    yield
    mpmath.mp.dps = 15
    mpmath.iv.prec = 53


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium (`tests._browser.Browser`) for every browser test of this process — the docs sweep and
    the layout checks: a launch costs about 1.6 CPU-seconds (issue 36), and each visit sets its own width."""
    from ._browser import CHROMIUM, Browser

    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH (apt-get install chromium)")
    pytest.importorskip("playwright", reason="pip install playwright (the test extras)")
    opened = Browser()
    try:
        yield opened
    finally:
        opened.close()
