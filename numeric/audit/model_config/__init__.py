"""`ropecheck.numeric.audit.model_config`: audit a model's `config.json` — the per-layer spectrum θᵢ, the attention
factor on cos/sin and the softmax scale it implies (computed here from the papers' formulas, independently of
every engine), and what each installed engine (transformers, …) builds from it.

```python
from ropecheck.numeric.audit.model_config import audit_config

report = audit_config("tests/model_configs/gpt-oss-20b")
report.to_json()["layers"][0]["attention_factor"]      # 1.3465735902799727 (YaRN, s = 32)
{e.name: e.verdict for e in report.engines}             # {"transformers": "conforms", …}
```

Layout: `_parse` (config → one `RopeLayer` per layer type and rotation), `_layer_rules` (each family's rule for
layers without RoPE: rope type "none"), `_expected` (the expected values per length regime),
`_readings` (known misreadings, to name the key an engine misread), `_compare` (error model, findings),
`engines/` (one module per engine), `_run` (`audit_config`), `_literature` (what the literature's claims
imply), `_conformance` (the configs × engines table); its command line (`ropecheck audit-config`) is
`ropecheck/cli/_audit_config.py`.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# Names load lazily, so `ropecheck --help` (which registers the subcommand) imports neither mpmath nor torch.
_LAZY = {
    "ROPE_TYPES": "_parse",
    "ConfigError": "_parse",
    "AdapterError": "_errors",
    "NO_ROPE": "_layer_rules",
    "rotating_layers": "_layer_rules",
    "ModelConfig": "_parse",
    "RopeLayer": "_parse",
    "load_config": "_parse",
    "parse_config": "_parse",
    "Expected": "_expected",
    "expected_values": "_expected",
    "layer_scaling": "_expected",
    "per_layer_table": "_expected",
    "Finding": "_compare",
    "spectrum_bound": "_compare",
    "ConfigAudit": "_run",
    "EngineResult": "_run",
    "audit_config": "_run",
    "audit_configs": "_run",
    "audit_options": "_audit_options",
    "fill_audit_options": "_audit_options",
    "literature_lines": "_literature",
    "literature_markdown": "_literature",
    "conformance_markdown": "_conformance",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
