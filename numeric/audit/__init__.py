"""`ropecheck.numeric.audit`: black-box certification of positional-encoding implementations by extraction (GUIDE §5).

```python
from ropecheck.numeric.audit import audit

report = audit("tests.audit_corpus.numpy_impls:rope_half", base=10000)
report.verdict, report.summary        # "pass" / "fail", and one paragraph: verdict, root cause(s), fix
```

Layout: `runner` (`audit()`), `session`/`calls`/`targets` (load, call, time out), `extract` (M(p), pairing,
angles), `policy` (the tolerance policy), `scaling` (context-extension references), `properties/` (one module per
property), `kinds/` (what each kind probes), `attribution` (root causes and the summary), `adapters/` (real
libraries), `report/` (json, markdown, html, plots, conformance), `cli` and `pytest_plugin`.

Names load lazily, so importing this package (the pytest plugin does) imports neither NumPy nor torch.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "audit": ("ropecheck.numeric.audit.runner", "audit"),
    "AuditReport": ("ropecheck.numeric.audit.results", "AuditReport"),
    "Finding": ("ropecheck.numeric.audit.results", "Finding"),
    "AuditError": ("ropecheck.numeric.audit.calls", "AuditError"),
    "EXIT_OK": ("ropecheck.numeric.audit.results", "EXIT_OK"),
    "EXIT_FAIL": ("ropecheck.numeric.audit.results", "EXIT_FAIL"),
    "EXIT_USAGE": ("ropecheck.numeric.audit.results", "EXIT_USAGE"),
    "DEFAULT_DTYPES": ("ropecheck.numeric.audit.options", "DEFAULT_DTYPES"),
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
