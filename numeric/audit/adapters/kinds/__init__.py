"""Built-in targets of the sinusoidal, bias and scores kinds: real libraries' modules built from small configs.

Each `KindAdapter` names its library, the kind, how to build a callable per dtype, and the options its defaults
declare (e.g. `layout="concat", frequencies="t2t", offset=2` for fairseq-style tables). No weights are
downloaded. `list_kind_adapters()` feeds `ropecheck audit --list` and `--all`.
"""

from __future__ import annotations

from ropecheck.numeric.audit.adapters.kinds._registry import find_adapter, list_kind_adapters
from ropecheck.numeric.audit.adapters.kinds._spec import KindAdapter

__all__ = ["KindAdapter", "find_adapter", "list_kind_adapters"]
