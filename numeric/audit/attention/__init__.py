"""`ropecheck.numeric.audit.attention`: the attention-level audit (issue #22).

A tiny random-init model is built from a config (rope fields kept, widths shrunk, no weights) and driven like
`generate`: prefill and token-by-token decode with the KV cache, left and right padding with positions from
the mask, a position offset, batches of requests, per-layer bases, sliding windows, the softmax scale and M-RoPE.
Each check is a named property with the ledger claims it transfers.

```python
from ropecheck.numeric.audit.attention import audit_attention

report = audit_attention("gemma-3")          # or a config.json path, or a dict
report = audit_attention("gemma-3", model="my_models.py:build")   # your own model (a factory(config))
report.verdict, report.failed()              # "pass" / "fail", and the failing properties
print(report.to_text())
```

Layout: `_configs` (built-in configs, shrinking: one layer of each type, NoPE kept), `_model` (the tiny model, its
`step`, the per-layer expected table of `audit-config`, a user's model factory), `_applied` (q and k before and
after the rotation inside each layer: rope-presence, per-layer-spectrum, attention-factor, softmax-scale),
`_switch` (switch-point across the lengths of a length-dependent spectrum), `_sensitivity` (∂logits/∂cos-sin by
autodiff), one module per property group (`_cache`, `_padding`, `_offset`, `_layers`, `_mrope`), `_mrope_index`
(3-D position ids against reference tables), `_report` and `_audit` (the runner); its command line is
`ropecheck/cli/_audit_attention.py`. Every expected value (θᵢ, attention factor, softmax scale, which layers
rotate) comes from `ropecheck.numeric.audit.model_config`.
"""

from __future__ import annotations

from ._audit import CHECKS, audit_attention, audit_model
from ._configs import BUILTIN_CONFIGS, ConfigError, load_config, shrink_config
from ._model import ModelFactoryError, TinyModel, build_tiny_model, load_model_factory
from ._mrope_index import audit_position_ids, check_position_ids, reference_positions
from ._report import AttentionFinding, AttentionReport

__all__ = [
    "BUILTIN_CONFIGS",
    "CHECKS",
    "AttentionFinding",
    "AttentionReport",
    "ConfigError",
    "ModelFactoryError",
    "TinyModel",
    "audit_attention",
    "audit_model",
    "audit_position_ids",
    "build_tiny_model",
    "check_position_ids",
    "load_config",
    "load_model_factory",
    "reference_positions",
    "shrink_config",
]
