"""transformers is imported without the optional packages an audit never reaches (issue #32's cost): hidden only
while the audit imports it, only when nothing imported them before and transformers has not yet decided they are
available; importable again afterwards."""

from __future__ import annotations

import gc
import importlib.util
import subprocess
import sys
import types
from pathlib import Path

import pytest
from ropecheck.numeric.audit import _lean_import
from ropecheck.numeric.audit._lean_import import collection_paused, lean_transformers

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]
# A standard-library module nothing in a test process imports, standing in for scipy (already imported here).
STAND_IN = "colorsys"


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delitem(sys.modules, STAND_IN, raising=False)
    monkeypatch.setattr(_lean_import, "HIDDEN_PACKAGES", {STAND_IN: ("is_colorsys_available", "a stand-in")})
    monkeypatch.setattr(_lean_import, "_PROCESS_IS_OURS", True)  # as the commands set it
    return STAND_IN


def test_nothing_is_hidden_in_a_process_that_is_not_the_command(stand_in: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the API or the pytest plugin the process is the user's: transformers' cached "not available" would
    outlive the audit, so nothing is hidden. Seen failing with the ownership check removed."""
    monkeypatch.delitem(sys.modules, "transformers.utils.import_utils", raising=False)
    monkeypatch.setattr(_lean_import, "_PROCESS_IS_OURS", False)
    with lean_transformers():
        assert importlib.util.find_spec(stand_in) is not None


def test_a_package_is_absent_inside_and_importable_after(stand_in: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "transformers.utils.import_utils", raising=False)
    with lean_transformers():
        assert importlib.util.find_spec(stand_in) is None  # what transformers' availability check asks
        with pytest.raises(ImportError):
            importlib.import_module(stand_in)
    assert importlib.import_module(stand_in).__name__ == stand_in


def test_nothing_is_hidden_once_transformers_decided(stand_in: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # transformers cached "available": hiding now would make it import the package half-way (seen failing:
    # "No module named 'scipy.optimize'; 'scipy' is not a package" in a test process, before this rule).
    decided = types.SimpleNamespace(is_colorsys_available=types.SimpleNamespace(
        cache_info=lambda: types.SimpleNamespace(currsize=1)))
    monkeypatch.setitem(sys.modules, "transformers.utils.import_utils", decided)
    with lean_transformers():
        assert importlib.util.find_spec(stand_in) is not None


@pytest.mark.deep
def test_the_transformers_adapter_imports_neither_scipy_nor_torchao() -> None:
    """A fresh process (the cost a user pays): the adapter's values are unchanged and the two packages were never
    imported. Seen failing with `lean_transformers` replaced by `contextlib.nullcontext` (both imported)."""
    script = (
        "import sys\n"
        "from ropecheck.numeric.audit import _lean_import\n"
        "_lean_import.own_this_process()  # as the audit-config command does\n"
        "from ropecheck.numeric.audit.model_config import audit_config\n"
        "audit = audit_config('tests/model_configs/llama3.1-8b', ['transformers'])\n"
        "print(audit.engines[0].verdict, 'scipy' in sys.modules, 'torchao' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=SUBPROCESS_BUDGET, check=False)
    assert done.stdout.split() == ["conforms", "False", "False"], done.stderr[-2000:]


def test_the_collector_is_paused_inside_and_running_after(stand_in: str) -> None:
    """The imports inside run without cyclic-GC scans (issue #32's cost); the collector runs again afterwards.
    Seen failing before `collection_paused` (the collector ran inside)."""
    assert gc.isenabled()
    with lean_transformers():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_left_alone_in_a_process_that_is_not_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the API or the pytest plugin the process is the user's: the collector is theirs to manage (seen
    failing with the ownership check removed), and one they paused stays paused (seen failing with an unconditional
    `gc.enable()` at the end)."""
    monkeypatch.setattr(_lean_import, "_PROCESS_IS_OURS", False)
    with collection_paused():
        assert gc.isenabled()
    monkeypatch.setattr(_lean_import, "_PROCESS_IS_OURS", True)
    gc.disable()
    try:
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
