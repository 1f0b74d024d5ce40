"""`ropecheck.numeric.audit.engines_live`: the differential audit of engines on identical tiny weights (issue #38).

One tiny random-init model per config (the attention audit's builder: position fields kept, widths shrunk, one
layer of each layer type), saved once in float32; every installed engine (transformers, MLX-LM, llama.cpp, vLLM)
loads it in its own environment and answers through a subprocess (JSON protocol, timeout); its log-probabilities at
windows covering each length regime are compared with a float64 reference whose rotation, attention factor and
softmax scale per layer come from ropecheck's expected table; a difference above the error bound is attributed to
the config key or layer whose switch in the reference explains it.

```python
from ropecheck.numeric.audit.engines_live import audit_engines

runs = audit_engines(["tests/model_configs/llama2-7b"], ["transformers"])
runs[0].engines[0].verdict          # "conforms"
```

Layout: `_model_files` (build, save, windows), `_reference` (the float64 reference and its Jacobians), `_bounds`
(the error model), `_engines` (environments, subprocess), `_probe_*` (one standalone script per engine, run in its
environment), `_attribution` (suspects switched in the reference), `_audit` (the runner), `_report`, `cli`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "audit_engines": "_audit",
    "ConfigRun": "_audit",
    "EngineRun": "_audit",
    "DESIGN_CHOICES": "_audit",
    "ENGINES": "_engines",
    "conformance_markdown": "_report",
    "run_record": "_report",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
