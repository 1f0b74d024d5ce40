"""MLX-LM (on CPU through `mlx[cpu]`), live, in its own environment: its pins (a newer transformers) clash with the
project's, so `bash .ci/bootstrap test` installs it into `.venv-engines/mlx` and this adapter drives
`_mlx_probe.py` there (`ROPECHECK_MLX_PYTHON` names another interpreter).

Observed: the spectrum MLX-LM's model passes to `mx.fast.rope` for each layer type (base·scale, or its `freqs`),
the attention factor as the norm of a unit vector rotated at position 0, and the attention module's `scale`.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

from .._expected import Expected
from .._parse import ModelConfig
from ._base import Observation
from ._subprocess import environment_python, environment_versions, run_probe, run_probes

__all__ = ["NAME", "observe", "observe_many", "version"]

NAME = "mlx-lm"


def version() -> str:
    """MLX-LM's version in its environment; raises `EngineUnavailable` when that environment is missing."""
    lm, core = environment_versions(environment_python("mlx", "ROPECHECK_MLX_PYTHON"), ("mlx-lm", "mlx"))
    return f"{lm} (mlx {core})"


def observe(model: ModelConfig, expected: list[Expected]) -> list[Observation]:
    """MLX-LM's values for each expected (layer type, regime), from one subprocess."""
    return run_probe(environment_python("mlx", "ROPECHECK_MLX_PYTHON"), "_mlx_probe.py", model, expected)


def observe_many(configs: list[tuple[ModelConfig, list[Expected]]]) -> list[list[Observation]]:
    """`observe` for several configs from one subprocess (MLX-LM's import, about 1 CPU-s, paid once)."""
    return run_probes(environment_python("mlx", "ROPECHECK_MLX_PYTHON"), "_mlx_probe.py", configs)
