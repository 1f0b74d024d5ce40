"""Built-in audit targets: the RoPE of real libraries behind the auditor's `fn(x, positions) -> y` contract.

Each adapter calls its library exactly as the library's documentation shows users calling it; where the
library's API takes no positions, the adapter says so in `AdapterSpec.wraps` and `AdapterSpec.positions`
instead of emulating them. Libraries are imported only when an adapter is built.

```python
from ropecheck.numeric.audit.adapters import AdapterConfig, get_adapter, is_available

spec = get_adapter("transformers.yarn")
ok, reason = is_available(spec)
fn = spec.build(AdapterConfig(head_dim=64, dtype="bfloat16", module_cast=True))
y = fn(x, positions)  # x: (..., L, 64); positions: (L,) integers; y: the framework's array
y_numpy = to_numpy(y)  # same dtype, bfloat16 through ml_dtypes
```
"""

from ropecheck.numeric.audit.adapters._common import to_numpy
from ropecheck.numeric.audit.adapters._registry import get_adapter, installed_version, is_available, list_adapters
from ropecheck.numeric.audit.adapters._spec import AdapterConfig, AdapterSpec

__all__ = [
    "AdapterConfig",
    "AdapterSpec",
    "get_adapter",
    "installed_version",
    "is_available",
    "list_adapters",
    "to_numpy",
]
