"""`ropecheck.numeric.audit.attention`: the attention-level audit (issue #22).

A tiny random-init model is built from a config (rope fields kept, widths shrunk, no weights) and driven like
`generate`: prefill and token-by-token decode with the KV cache, left and right padding with positions from
the mask, a position offset, batches of requests, per-layer bases, sliding windows, the softmax scale and M-RoPE.
Each check is a named property with the ledger claims it transfers.
"""

from __future__ import annotations

from ._configs import BUILTIN_CONFIGS, ConfigError, load_config, shrink_config
from ._model import TinyModel, build_tiny_model

__all__ = ["BUILTIN_CONFIGS", "ConfigError", "TinyModel", "build_tiny_model", "load_config", "shrink_config"]
