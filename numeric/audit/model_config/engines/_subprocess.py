"""Engines whose pins clash with the project's run in their own environment (`.venv-engines/NAME`, made by
`bash .ci/bootstrap test`): a standalone probe script there reads a JSON request on stdin and prints one JSON list
of observations.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
from pathlib import Path
from typing import Any

from .._expected import Expected
from .._parse import ModelConfig
from ._base import EngineUnavailable, Observation

__all__ = ["environment_python", "environment_versions", "run_probe", "run_probes"]

_ROOT = Path(__file__).resolve().parents[4]
#: Seconds one probe may run (importing torch and building a model on a busy 2-core machine).
TIMEOUT_S = 300


def environment_python(name: str, variable: str) -> Path:
    """The interpreter of engine environment `name`: `$variable` if set, else `.venv-engines/NAME/bin/python`."""
    configured = os.environ.get(variable)
    return Path(configured) if configured else _ROOT / ".venv-engines" / name / "bin" / "python"


def _own_site_packages(python: Path) -> Path | None:
    """The one site-packages folder of the virtual environment whose interpreter is `python` (`ENV/bin/python`,
    `ENV/pyvenv.cfg` without the system's packages); None when `python` is not such an interpreter."""
    environment = python.parent.parent
    try:
        settings = (environment / "pyvenv.cfg").read_text(encoding="utf-8")
    except OSError:
        return None
    if "include-system-site-packages = true" in settings.lower():
        return None
    found = list(environment.glob("lib/python*/site-packages"))
    return found[0] if len(found) == 1 else None


def environment_versions(
    python: Path, distributions: tuple[str, ...], how: str = "bash .ci/bootstrap test"
) -> list[str]:
    """The installed versions of `distributions` in that environment; raises `EngineUnavailable` when missing
    (`how` says what creates it). Read from the environment's own site-packages when `python` is a virtual
    environment's interpreter that has them all there (the metadata its `importlib.metadata` reads: no interpreter
    started, issue #32's cost); otherwise that interpreter is asked."""
    if not python.exists():
        raise EngineUnavailable(f"no environment at {python} ({how} creates it)")
    site = _own_site_packages(python)
    if site is not None:
        found = [next(iter(importlib.metadata.distributions(name=d, path=[str(site)])), None) for d in distributions]
        if all(found):
            return [str(d.version) for d in found]  # type: ignore[union-attr]
    probe = f"import importlib.metadata as m; print(*[m.version(d) for d in {list(distributions)!r}])"
    result = subprocess.run([str(python), "-I", "-c", probe], capture_output=True, text=True, timeout=TIMEOUT_S)
    if result.returncode != 0:
        raise EngineUnavailable(f"{distributions[0]} is not installed in {python}")
    return result.stdout.split()


def _request(model: ModelConfig, expected: list[Expected]) -> dict:
    return {
        "config": str(Path(model.path).resolve()),
        "entries": [
            {"layer_type": e.layer.layer_type, "regime": e.regime, "length": e.length, "head_dim": e.layer.head_dim,
             "rope_type": e.layer.rope_type,
             "layer_index": e.layer.layer_indices[0] if e.layer.layer_indices else 0}
            for e in expected
        ],
    }


def _run(python: Path, script: str, request: dict) -> tuple[Any, str]:
    """(the probe's JSON answer, "") or (None, the last line it wrote on stderr)."""
    # -I: the probe's own folder must not shadow the engine's packages (this folder has mlx_lm.py, vllm.py).
    result = subprocess.run(
        [str(python), "-I", str(Path(__file__).with_name(script))], input=json.dumps(request), capture_output=True,
        text=True, timeout=TIMEOUT_S,
    )
    if result.returncode != 0:
        return None, (result.stderr or "no output").strip().splitlines()[-1][:300]
    return json.loads(result.stdout), ""


def run_probe(python: Path, script: str, model: ModelConfig, expected: list[Expected]) -> list[Observation]:
    """Run `script` (a file beside this module) in `python` on the config; one `Observation` per expected entry.

    **Arguments:** `python`, `script`, `model`, `expected`.

    **Returns:** the observations (each with `error` set when the probe itself failed).
    """
    answer, error = _run(python, script, _request(model, expected))
    if answer is None:
        return [Observation(e.layer.layer_type, e.regime, error=error) for e in expected]
    return [Observation(**entry) for entry in answer]


def run_probes(python: Path, script: str, configs: list[tuple[ModelConfig, list[Expected]]]
               ) -> list[list[Observation]]:
    """`run_probe` for several configs in one process (the probe must accept `{"requests": [...]}`): the engine's
    import is paid once. If that process fails, each config is probed alone, so one config that crashes the engine
    is reported on that config only.

    **Arguments:** `python`, `script`, `configs` (each parsed config with its expected entries).

    **Returns:** the observations of each config, in order.
    """
    if len(configs) > 1:
        answer, _ = _run(python, script, {"requests": [_request(m, e) for m, e in configs]})
        if answer is not None:
            return [[Observation(**entry) for entry in one] for one in answer]
    return [run_probe(python, script, model, expected) for model, expected in configs]
