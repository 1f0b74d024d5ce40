"""`ropecheck.numeric.audit`: black-box certification of positional-encoding implementations by extraction (GUIDE §5).

```python
from ropecheck.numeric.audit import audit

report = audit("tests.audit_corpus.numpy_impls:rope_half", base=10000)
report.verdict, report.summary        # "pass" / "fail", and one paragraph: verdict, root cause(s), fix
```

Layout, a room per thing audited: `function/` (the function-level auditor: `runner` with `audit()`,
`session`/`calls`/`targets` to load, call and time out, `extract` for M(p), pairing and angles, `policy` the
tolerance policy, `scaling` the context-extension references, `attribution` root causes and the summary, `cli` and
`pytest_plugin`), `properties/` (one module per property), `kinds/` (what each kind probes), `adapters/` (real
libraries), `report/` (json, markdown, html, plots, conformance), `model_config/` (model configs) and `attention/`
(attention layers and KV caches).

Names load lazily, so importing this package (the pytest plugin does) imports neither NumPy nor torch.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "audit": ("ropecheck.numeric.audit.function.runner", "audit"),
    "AuditReport": ("ropecheck.numeric.audit.function.results", "AuditReport"),
    "Finding": ("ropecheck.numeric.audit.function.results", "Finding"),
    "AuditError": ("ropecheck.numeric.audit.function.calls", "AuditError"),
    "EXIT_OK": ("ropecheck.numeric.audit.function.results", "EXIT_OK"),
    "EXIT_FAIL": ("ropecheck.numeric.audit.function.results", "EXIT_FAIL"),
    "EXIT_USAGE": ("ropecheck.numeric.audit.function.results", "EXIT_USAGE"),
    "DEFAULT_DTYPES": ("ropecheck.numeric.audit.function.options", "DEFAULT_DTYPES"),
    "PROPERTIES": ("ropecheck.numeric.audit.properties", "PROPERTIES"),
    "CLAIMS": ("ropecheck.numeric.audit.properties", "CLAIMS"),
    "KINDS": ("ropecheck.numeric.audit.kinds", "KINDS"),
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'ropecheck.numeric.audit' has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    return getattr(import_module(module_name), attribute)
