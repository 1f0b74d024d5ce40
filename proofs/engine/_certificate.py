"""Verdicts and the certificates that back them.

A verdict is never stored by hand: every `Decision` is produced by the engine in `_engine.py` from a
statement, and carries the evidence (method, steps, counterexample, certified residual) that justifies it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Verdict(StrEnum):
    """The three outcomes of deciding a statement (GUIDE.md §3)."""

    PROVED = "proved"
    REFUTED = "refuted"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Counterexample:
    """A point at which a statement fails, with a certified non-zero residual.

    **Arguments:**

    - `point`: symbol name → exact value (as a SymPy string, e.g. `"1/2"`, `"-1 + I"`).
    - `residual`: the exact residual at the point, as SymPy text.
    - `interval`: an mpmath interval (real part, and imaginary part where present) that encloses the
      residual and excludes 0, as strings `"[lo, hi]"`.
    - `precision_bits`: the interval working precision that was needed.
    - `description`: for witnesses, what the point shows (e.g. "the score at distance 12 exceeds 11").
    """

    point: dict[str, str]
    residual: str
    interval: dict[str, str]
    precision_bits: int
    description: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "point": dict(self.point),
            "residual": self.residual,
            "interval": dict(self.interval),
            "precision_bits": self.precision_bits,
        }
        if self.description:
            out["description"] = self.description
        return out


@dataclass(frozen=True)
class Step:
    """One step of a derivation: a named sub-statement and how it was decided."""

    name: str
    latex: str
    verdict: Verdict
    method: str
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "latex": self.latex,
            "verdict": str(self.verdict),
            "method": self.method,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Decision:
    """The engine's answer for one statement.

    **Arguments:**

    - `verdict`: proved, refuted or unknown.
    - `method`: the decision procedure that closed it (e.g. `"groebner-trig"`, `"exp-rational"`,
      `"interval-counterexample"`, `"induction"`), or why it stayed unknown.
    - `steps`: the sub-statements decided on the way (derivations, per-block lemmas, cross-checks).
    - `counterexample`: for refuted statements (or for proved existence statements, the witness).
    - `conditions`: side conditions under which a proved identity holds (non-vanishing denominators).
    """

    verdict: Verdict
    method: str
    steps: tuple[Step, ...] = ()
    counterexample: Counterexample | None = None
    conditions: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": str(self.verdict), "method": self.method}
        if self.steps:
            out["steps"] = [s.to_json() for s in self.steps]
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample.to_json()
        if self.conditions:
            out["conditions"] = list(self.conditions)
        if self.notes:
            out["notes"] = list(self.notes)
        return out
