"""ropecheck's numeric side: mirrors of the ledger in JAX and mpmath, tolerances, the fast high-precision
reference and the auditor (`ropecheck.numeric.audit`: `from numeric.audit import audit`).

Subpackages: `ropecheck.numeric.reference` (double-double arithmetic, the fast reference, the tolerance model and its
Gappa proofs) and `ropecheck.numeric.mirrors` (compile, run per dtype, evidence, decay, precision limits).

Heavy modules (JAX, torch) load only when a name that needs them is first used, so `import numeric` and the
pytest plugin stay light. Importing never changes JAX's global configuration: float64 is enabled only inside the
numeric checks (`ropecheck.numeric.mirrors.x64_enabled`).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "audit": (".audit", None),
    "AuditReport": (".audit.function.results", "AuditReport"),
    "numeric_evidence": (".mirrors", "numeric_evidence"),
    "inverse_frequencies": (".reference", "inverse_frequencies"),
    "angles_mod_2pi": (".reference", "angles_mod_2pi"),
    "reference_cos_sin": (".reference", "reference_cos_sin"),
    "DoubleDouble": (".reference", "DoubleDouble"),
    "worst_case_relative_error": (".reference", "worst_case_relative_error"),
    "tolerances": (".reference.tolerances", None),
    "main": ("._cli", "main"),
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'numeric' has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    module = import_module(module_name, __name__)
    return module if attribute is None else getattr(module, attribute)
