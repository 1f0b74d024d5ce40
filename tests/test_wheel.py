"""The package as a user installs it: a wheel builds, installs into a fresh virtual environment, adds exactly one
top-level import name (`ropecheck`), and `import ropecheck` and `ropecheck claims` work there.

The fresh environment sees the dependencies (SymPy, JAX, …) of the test environment through a `.pth` line, but not
its editable install of this repository, and runs from a directory outside the checkout: what it imports comes
from the wheel alone.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = ("pyproject.toml", "README.md", "ropecheck", "proofs", "numeric")
"""What the wheel is built from (everything else of the checkout is not in it)."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy of what the wheel is made of: setuptools builds in the source's `build/`, which another
    # xdist worker may be using at the same moment, and where files of an earlier build would be packed too.
    source = tmp_path_factory.mktemp("source")
    for name in PACKAGED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(ROOT / name, source / name)
    completed = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=SUBPROCESS_BUDGET, check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    (built,) = out.glob("ropecheck-*.whl")
    return built


def test_wheel_has_one_top_level_name_and_the_coq_development(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"ropecheck"}, top
    assert "ropecheck/py.typed" in names
    assert "ropecheck/proofs/coq/_CoqProject" in names and "ropecheck/proofs/coq/Rope.v" in names
    assert "ropecheck/numeric/reference/library_accuracy.json" in names


def test_wheel_ships_every_module_and_proof_script_of_the_checkout(wheel: Path) -> None:
    """Every `.py` of proofs/, numeric/ and ropecheck/ and every Gappa/Coq script the numerics check at run time
    (a subpackage missing from pyproject's `packages` would be left out silently)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    where = {"proofs": "ropecheck/proofs", "numeric": "ropecheck/numeric", "ropecheck": "ropecheck"}
    expected = {
        f"{where[path.parts[0]]}/{'/'.join(path.parts[1:])}"
        for folder in where
        for path in (p.relative_to(ROOT) for p in (ROOT / folder).rglob("*"))
        if (path.suffix in {".py", ".g", ".v"} or path.name in {"standard_axioms.txt", "pinned_terms.json"})
        and "__pycache__" not in path.parts
        and not (path.parts[:2] == ("proofs", "coq") and path.name.startswith("Statements"))
    }
    assert sorted(expected - names) == []


def test_wheel_installs_and_runs_in_a_fresh_environment(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip())
    # The dependencies of the test environment, as a plain path (its .pth files, among them the editable install
    # of this checkout, are not processed from there).
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-compile", "-q", "--target", str(site),
         str(wheel)], capture_output=True, text=True, timeout=SUBPROCESS_BUDGET, check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    env = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "PYTHONHOME"}}
    script = "\n".join([
        "import importlib.util, ropecheck",
        "assert importlib.util.find_spec('proofs') is None and importlib.util.find_spec('numeric') is None",
        f"assert ropecheck.__file__.startswith({str(site)!r}), ropecheck.__file__",
        "print(len(ropecheck.ledger()), ropecheck.prove('sin(x)**2 + cos(x)**2 == 1', real=['x']).verdict)",
        # `python -m ropecheck claims list`, in the same process (as -m runs it: runpy): a second interpreter
        # importing ropecheck and SymPy again cost 1.2 CPU-s.
        "import runpy, sys",
        "sys.argv = ['ropecheck', 'claims', 'list']",
        "runpy.run_module('ropecheck', run_name='__main__', alter_sys=True)",
    ])
    run = subprocess.run([str(python), "-c", script], capture_output=True, text=True, timeout=SUBPROCESS_BUDGET,
        cwd=tmp_path,
                         env=env, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    first, listing = run.stdout.split("\n", 1)
    count, verdict = first.split()
    assert int(count) >= 40 and verdict == "proved"
    assert "ROPE-RELATIVE-MATRIX" in listing
