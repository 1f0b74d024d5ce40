"""Engine adapters for `audit-config`: one module per engine, each with `NAME`, `version()` (raises
`EngineUnavailable` when not installed) and `observe(model, expected)` (one `Observation` per expected entry).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from ._base import EngineUnavailable, Observation, source_line

__all__ = ["ENGINES", "EngineUnavailable", "Observation", "engine_module", "source_line"]

#: Engine name → module, in report order.
ENGINES = {
    "transformers": "ropecheck.numeric.audit.model_config.engines.transformers",
    "mlx-lm": "ropecheck.numeric.audit.model_config.engines.mlx_lm",
    "vllm": "ropecheck.numeric.audit.model_config.engines.vllm",
}


def engine_module(name: str) -> ModuleType:
    """The adapter module of engine `name` (a key of `ENGINES`)."""
    return import_module(ENGINES[name])
