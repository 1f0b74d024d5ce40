"""MLX-LM (on CPU through `mlx[cpu]`), live, in its own environment: its pins (a newer transformers) clash with the
project's, so `bash .ci/bootstrap test` installs it into `.venv-engines/mlx` and this adapter drives
`_mlx_probe.py` there through a subprocess that prints JSON. `ROPECHECK_MLX_PYTHON` names another interpreter.

Observed: the spectrum MLX-LM's model passes to `mx.fast.rope` for each layer type (base·scale, or its `freqs`),
the attention factor as the norm of a unit vector rotated at position 0, and the attention module's `scale`.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from .._expected import Expected
from .._parse import ModelConfig
from ._base import EngineUnavailable, Observation

__all__ = ["NAME", "observe", "version"]

NAME = "mlx-lm"
_ROOT = Path(__file__).resolve().parents[4]
_TIMEOUT_S = 120


def _python() -> Path:
    configured = os.environ.get("ROPECHECK_MLX_PYTHON")
    return Path(configured) if configured else _ROOT / ".venv-engines" / "mlx" / "bin" / "python"


def version() -> str:
    """MLX-LM's version in its environment; raises `EngineUnavailable` when that environment is missing."""
    python = _python()
    if not python.exists():
        raise EngineUnavailable(f"no MLX-LM environment at {python} (bash .ci/bootstrap test creates it)")
    probe = "import importlib.metadata as m; print(m.version('mlx-lm'), m.version('mlx'))"
    result = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, timeout=_TIMEOUT_S)
    if result.returncode != 0:
        raise EngineUnavailable(f"mlx-lm does not import in {python}")
    lm, core = result.stdout.split()
    return f"{lm} (mlx {core})"


def observe(model: ModelConfig, expected: list[Expected]) -> list[Observation]:
    """MLX-LM's values for each expected (layer type, regime), from one subprocess.

    **Arguments:** `model`, `expected`.

    **Returns:** one `Observation` per entry (with `error` set when MLX-LM cannot build the model).
    """
    request = {
        "config": str(Path(model.path).resolve()),
        "entries": [
            {"layer_type": e.layer.layer_type, "regime": e.regime, "length": e.length, "head_dim": e.layer.head_dim,
             "layer_index": e.layer.layer_indices[0] if e.layer.layer_indices else 0}
            for e in expected
        ],
    }
    script = Path(__file__).with_name("_mlx_probe.py")
    result = subprocess.run(
        [str(_python()), "-I", str(script)], input=json.dumps(request), capture_output=True, text=True,
        timeout=_TIMEOUT_S, env={**os.environ, "PYTHONPATH": ""},
    )
    if result.returncode != 0:
        lines = (result.stderr or "no output").strip().splitlines()
        return [Observation(e.layer.layer_type, e.regime, error=lines[-1][:300]) for e in expected]
    return [Observation(**entry) for entry in json.loads(result.stdout)]
