"""`AuditContext`: the state one audit shares between its properties — the session, the options, the findings so
far, and the few measurements later properties reuse (contract outputs, the certified context, angle errors).

A property module receives the context, makes its calls through `ctx.call` (a raise becomes "could not call",
never a mathematical failure) and records its result with `ctx.add`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from ropecheck.numeric.audit.function.calls import CallFailed
from ropecheck.numeric.audit.function.extract import entry_bound
from ropecheck.numeric.audit.function.options import Options
from ropecheck.numeric.audit.function.results import Finding
from ropecheck.numeric.audit.function.session import SEED, Session
from ropecheck.numeric.audit.properties import claims_of

__all__ = ["AuditContext"]


class AuditContext:
    """The shared state of one audit (see the module docstring).

    **Arguments:**

    - `session`: the target.
    - `options`: the validated options.
    """

    def __init__(self, session: Session, options: Options) -> None:
        self.session = session
        self.options = options
        self.d = session.head_dim
        self.findings: list[Finding] = []
        self.dtype_info: dict[str, dict[str, Any]] = {}
        self.contract_outputs: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.rng = np.random.default_rng(SEED)
        self.n = options.max_position
        self.certified: dict[str, Any] = {}
        self.angle_error: dict[str, np.ndarray] = {}
        self.theta_units = 1.0
        self.base_source = "declared"
        #: dtype → the precision class the sweep found (`policy.PrecisionClass`; the policy when it holds).
        self.precision_class: dict[str, Any] = {}
        #: Loud remarks for the summary that are not findings (an undeclared base, a table length).
        self.notes: list[str] = []
        #: A constant gain ρ ≠ g found by the norm property's root-cause check, else None.
        self.gain_measured: float | None = None
        #: dtype → the first position whose output the sweep found non-finite (its own `contract` finding); the
        #: properties after the sweep judge positions below it only, so a NaN explains nothing else.
        self.nonfinite_from: dict[str, int] = {}
        #: The position offset δ the identity property found (position p rotated as p + δ), else 0.
        self.position_offset = 0
        #: The fixed output permutation read back before every property (`kinds.rope.read_output_order`): its
        #: description for the pairing finding, and a mismatch with `--output-layout` (a pairing problem).
        self.output_order_text = ""
        self.output_order_problem = ""

    def add(
        self,
        prop: str,
        ok: bool,
        detail: str,
        *,
        fix: str | None = None,
        status: str = "",
        explained_by: str | None = None,
        **numbers: Any,
    ) -> Finding:
        """Record a finding of property `prop` (numbers: dtype, max_error, bound, position); a failing one with
        its fix in words. A passing finding judged at a detected precision class (see `policy.PrecisionClass`)
        reads "ok at <class> precision"."""
        clean = {
            k: v if v is None or k == "dtype" else (int(v) if k == "position" else float(v)) for k, v in numbers.items()
        }
        dtype = clean.get("dtype")
        precision = self.precision_class.get(dtype) if dtype else None
        if ok and not status and precision is not None and not precision.is_policy and prop != "precision":
            status, explained_by = "explained", "precision"
            detail = f"ok at {precision.name} precision (see precision): {detail}"
        finding = Finding(
            prop,
            bool(ok),
            detail,
            claims_of(prop),
            status=status,
            fix=None if ok else fix,
            explained_by=explained_by,
            **clean,
        )
        self.findings.append(finding)
        return finding

    def finite_n(self, dtype: str) -> int:
        """How many positions (0…n−1) the later properties may probe in `dtype`: those before the first
        non-finite output the sweep found (all n when none)."""
        return max(2, min(self.n, self.nonfinite_from.get(dtype, self.n)))

    @property
    def attention_factor(self) -> float:
        """g of the declared scaling (1 when none)."""
        return 1.0 if self.options.scaling is None else self.options.scaling.attention_factor()

    def call(self, dtype: str, x: np.ndarray, positions: np.ndarray, prop: str) -> np.ndarray | None:
        """A checked call: a raise or bad output becomes a failed finding of `prop` (None returned)."""
        try:
            y, _ = self.session.caller(dtype).call(x, positions, dtype)
        except CallFailed as error:
            where = f"positions {int(positions.min())}…{int(positions.max())}"
            self.add(
                prop,
                False,
                f"Could not call the target on this property's probe (x of shape {x.shape}, {where}): it raised"
                f" {error.reason}. This says nothing about the mathematics of {prop}.",
                status="could not call",
                fix="make fn(x, positions) accept any contiguous x of shape (..., L, d) and any integer positions",
                dtype=dtype,
            )
            return None
        return y

    def loose_bound(self, x: np.ndarray, positions: np.ndarray, dtype: str) -> tuple[None, np.ndarray]:
        """A layout-free bound for comparing two outputs of the target with each other (θ = 1 per entry, so
        generous): twice the policy bound of a pair holding the largest |x| of the vector twice."""
        weight = 2 * np.abs(x).max(axis=-1, keepdims=True)
        beta = entry_bound(positions, dtype, self.theta_units, self.attention_factor)
        return None, 2 * weight * beta[:, np.newaxis]
