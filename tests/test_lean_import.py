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
    monkeypatch.setattr(_lean_import, "_PROCESS_IS_OURS", True)  # as the console script sets it
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
        "_lean_import.own_this_process()  # as the console script does for audit-config\n"
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


@pytest.mark.parametrize("command", [
    ["audit-config", "tests/model_configs/llama3.1-8b", "--json", "--engine", "none"],
    ["audit-attention", "--list"],
])
def test_a_command_run_in_process_leaves_the_process_as_it_was(
    command: list[str], stand_in: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test (or a user's script) running a command in its own process (`ropecheck.cli.main`, as
    `tests/_cli_in_process.py` does) keeps that process's imports and garbage collector: afterwards nothing is
    hidden from an import and the collector is not paused for one, in this and every later test. Seen failing on the
    code where `audit-config` and `audit-attention` themselves declared the process ropecheck's own (the stand-in
    hidden and the collector paused after the command had returned)."""
    from ._cli_in_process import run_cli

    monkeypatch.setattr(_lean_import, "_PROCESS_IS_OURS", False)  # the test process; restored after the test
    monkeypatch.delitem(sys.modules, "transformers.utils.import_utils", raising=False)
    hidden_before = sorted(name for name, module in sys.modules.items() if module is None)
    meta_path, path_hooks = list(sys.meta_path), list(sys.path_hooks)
    collector = (gc.isenabled(), gc.get_threshold())

    assert run_cli(*command).returncode == 0
    assert sorted(name for name, module in sys.modules.items() if module is None) == hidden_before
    assert (list(sys.meta_path), list(sys.path_hooks)) == (meta_path, path_hooks)
    assert (gc.isenabled(), gc.get_threshold()) == collector
    with lean_transformers():  # what the next audit in this process does
        assert importlib.util.find_spec(stand_in) is not None
        assert gc.isenabled()


def test_the_console_script_owns_its_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """`python -m ropecheck audit-attention …` (and the `ropecheck` script pyproject.toml installs) is the command's
    own process, so the lean imports stay where the commands' cost is measured (`benchmarks/`); `claims` is not
    concerned. Seen failing with `ropecheck/__main__.py` calling `main()` instead of `run_console_script()`."""
    import tomllib
    from importlib.metadata import EntryPoint

    import ropecheck
    from ropecheck.cli import run_console_script

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert EntryPoint("ropecheck", scripts["ropecheck"], "console_scripts").load() is run_console_script
    # `python -m ropecheck` runs ropecheck/__main__.py (run here without pytest's import hook, which cannot run it)
    command_module = importlib.util.spec_from_file_location("ropecheck.__main__", Path(ropecheck.__file__).parent /
                                                            "__main__.py")
    assert command_module is not None and command_module.loader is not None
    for argv, owned in ((["claims", "list"], False), (["audit-attention", "--list"], True)):
        monkeypatch.setattr(_lean_import, "_PROCESS_IS_OURS", False)  # restored after the test
        monkeypatch.setattr(sys, "argv", ["ropecheck", *argv])
        with pytest.raises(SystemExit) as exit_:
            command_module.loader.exec_module(importlib.util.module_from_spec(command_module))
        assert (exit_.value.code, _lean_import._PROCESS_IS_OURS) == (0, owned)
    assert "llama-3.1" in capsys.readouterr().out
