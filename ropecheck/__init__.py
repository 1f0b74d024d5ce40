"""ropecheck: claims about positional encodings (sinusoidal, relative, RoPE), decided by a proof kernel, mirrored in
four floating-point formats, and an auditor for real implementations.

```python
import ropecheck

ropecheck.ledger()                      # every claim, in ledger order (`Claim` objects)
ropecheck.get_claim("ROPE-RELATIVE-MATRIX").to_json()["verdict"]
ropecheck.prove("sin(x)**2 + cos(x)**2 == 1", real=["x"]).verdict
ropecheck.audit(my_rope, base=10000, layout="half").verdict
```

The package keeps the repository's layout: the proof side is `ropecheck.proofs` (the `proofs/` folder: SymPy and
the Coq development, never importing the numerics) and the numeric side is `ropecheck.numeric` (the `numeric/`
folder: JAX, NumPy, mpmath, the audit). Names load on first use, so `import ropecheck` imports neither SymPy nor
JAX, and importing never changes JAX's global configuration.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

# In a source checkout `proofs/` and `numeric/` sit beside this folder (an installed wheel puts them inside it):
# let `ropecheck.proofs` and `ropecheck.numeric` resolve to them there.
_HERE = Path(__file__).resolve().parent
if not (_HERE / "proofs").is_dir() and (_HERE.parent / "proofs" / "__init__.py").is_file():
    __path__.append(str(_HERE.parent))  # type: ignore[name-defined]

if TYPE_CHECKING:
    from .numeric.audit import AuditReport, Finding, audit
    from .proofs import Claim, Decision, Verdict, claim_ids, get_claim

__version__ = "0.2.0"

_LAZY: dict[str, tuple[str, str]] = {
    "Claim": (".proofs", "Claim"),
    "Decision": (".proofs", "Decision"),
    "Verdict": (".proofs", "Verdict"),
    "all_claims": (".proofs", "all_claims"),
    "claim_ids": (".proofs", "claim_ids"),
    "get_claim": (".proofs", "get_claim"),
    "audit": (".numeric.audit", "audit"),
    "AuditReport": (".numeric.audit", "AuditReport"),
    "Finding": (".numeric.audit", "Finding"),
}

__all__ = ["AuditReport", "Claim", "Decision", "Finding", "Verdict", "audit", "claim_ids", "get_claim", "ledger",
           "prove"]


def ledger(use_cache: bool = True) -> tuple[Claim, ...]:
    """Every claim of the ledger, in ledger order (verdicts are decided when asked: `claim.to_json()`).

    **Arguments:** `use_cache`: False decides everything again from nothing in this process — the Coq development
    is compiled and checked (coqchk, `Print Assumptions`, the pinned elaborated terms) without reading the kernel's
    cache, now (minutes), as `ropecheck claims --recheck` does.

    **Returns:** a tuple of `Claim`.
    """
    from .proofs import all_claims

    if not use_cache:
        from .proofs.claims._verdicts import kernel_report, recheck

        recheck()
        kernel_report()
    return all_claims()


def prove(
    statement: str,
    *,
    real: tuple[str, ...] | list[str] = (),
    positive: tuple[str, ...] | list[str] = (),
    integer: tuple[str, ...] | list[str] = (),
    timeout: float = 60.0,
) -> Decision:
    """Decide `"LHS == RHS"` with the same parser, engine and domain rules as `ropecheck prove`, in a confined
    worker started from a fixed entry point (`python -I -m ropecheck._worker`: it never re-runs the calling script,
    so no `if __name__ == "__main__":` guard is needed; safe after JAX started its threads, and from threads);
    no Coq step here (the CLI adds it).
    The statement is parsed by the safe grammar: nothing in it is ever evaluated as Python.

    **Arguments:**

    - `statement`: the identity, e.g. `"sin(x)**2 + cos(x)**2 == 1"`.
    - `real`, `positive`, `integer`: symbol names with that domain (undeclared symbols are complex).
    - `timeout`: seconds before the worker is killed (the answer is then unknown).

    **Returns:** the engine's `Decision` (`verdict`, `method`, `counterexample`, `conditions`: the domain
    hypotheses under which it holds).

    **Raises:** `ropecheck.proofs.BadStatement` for input the grammar refuses.
    """
    from ._worker import DECIDE, run_confined
    from .proofs.prove._prove import decision_from

    answer = run_confined(DECIDE, (statement, list(real), list(positive), list(integer)), timeout)
    return decision_from(answer, timeout)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        module, attribute = _LAZY[name]
        value = getattr(import_module(module, __name__), attribute)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ropecheck' has no attribute {name!r}")
