"""The README's measured figures are re-measured: each cheap one is run again here and must be within 2× of what
the README states (a ratio of CPU times, so a busy machine moves it little); the expensive ones run with --deep.

A figure is a ratio to a baseline measured in the same run (`benchmarks/`), never a wall time asserted alone.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "docs" / "reference.md"  # the measured-figures table moved from the README to the reference page
FACTOR = 2.0  # the README may be this far off in either direction before it must be re-measured
CLAIMS_RATIO = re.compile(r"claims_view_speed\.py.*? = ([0-9.]+)× a bare import\*\*")


def _benchmark(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def stated_figure(text: str, pattern: re.Pattern[str]) -> float:
    """The figure `pattern` captures in `text` (the README), or a failure naming what is missing."""
    match = pattern.search(text)
    if match is None:
        pytest.fail(f"the README states no figure matching {pattern.pattern!r}")
    return float(match.group(1))


def within_factor(measured: float, stated: float, factor: float = FACTOR) -> bool:
    """Whether `measured` is within `factor`× of `stated`, either way."""
    return stated / factor <= measured <= stated * factor


@pytest.mark.parametrize("measured, stated, ok", [(1.0, 1.0, True), (1.9, 1.0, True), (0.6, 1.0, True),
                                                  (2.1, 1.0, False), (0.4, 1.0, False), (10.0, 1.0, False)])
def test_the_two_fold_check_fails_on_a_figure_too_far_off(measured: float, stated: float, ok: bool) -> None:
    assert within_factor(measured, stated) is ok


def test_a_readme_without_the_figure_fails() -> None:
    with pytest.raises(pytest.fail.Exception):
        stated_figure("no figures here", CLAIMS_RATIO)


def test_readme_claims_warm_ratio_is_not_more_than_two_fold_off() -> None:
    stated = stated_figure(README.read_text(encoding="utf-8"), CLAIMS_RATIO)
    figures = _benchmark("claims_view_speed").warm_ratio(None)  # the user's cache: warm after the first run
    assert within_factor(figures["warm_to_import_ratio"], stated), (
        f"`ropecheck claims` warm is {figures['warm_to_import_ratio']}× a bare import here, the README says "
        f"{stated}×: re-run `python benchmarks/claims_view_speed.py --json` and update the README ({figures})"
    )
