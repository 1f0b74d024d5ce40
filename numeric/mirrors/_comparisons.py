"""What a statement asserts numerically: its comparisons, and the parts that cannot be tested numerically.

`comparisons(claim)` extracts (every claim ID of the ledger):

- `holds`: an identity, lhs and rhs evaluated at sampled points, each side compiled on its own; the residual
  |lhs − rhs| computed in the format must stay within bound(lhs) + bound(rhs).
- `fails`: a refuted identity at its certified counterexample; the computed discrepancy must exceed its bound by
  `REFUTATION_FACTOR`.
- `witness`: a certified value (`Witness`) that must stay within its bound of the exact value *and* be certified
  (positive / non-zero) by the computation itself: |value| > bound. Inside a refutation (a witness of the negation)
  and for a refuted `NonPositive`, the value must exceed `REFUTATION_FACTOR` × bound.

Entries of an identity whose two sides are the same SymPy expression (structurally equal once built) are left out
and counted; an identity with no other entry, a part with no numeric form (symbolic sums, indexed objects) and a
statement kind the mirror does not know are reported by `untested_parts` with the reason, never compared.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from ._program import NotEvaluable, Program, compile_program

__all__ = [
    "MAX_PARTS",
    "REFUTATION_FACTOR",
    "Comparison",
    "Untested",
    "claim_untested_parts",
    "comparisons",
    "statement_comparisons",
    "untested_parts",
]

#: A refutation is numerically solid when the discrepancy exceeds the rounding bound by this factor.
REFUTATION_FACTOR = 100.0
#: At most this many parts of a long conjunction (or blocks of an explicit instance) are mirrored, evenly spread.
MAX_PARTS = 6


@dataclasses.dataclass(frozen=True)
class Untested:
    """A statement part the mirror does not evaluate: `name` and the `reason` in words."""

    name: str
    reason: str


@dataclasses.dataclass(frozen=True)
class Comparison:
    """One numeric assertion taken from a statement.

    **Fields:**

    - `name`: the statement part it comes from.
    - `kind`: `holds` (identity at sampled points), `fails` (refuted identity at its counterexample) or
      `witness` (a certified value).
    - `exprs`: `(lhs, rhs)` for identities, `(value,)` for witnesses.
    - `point`: the exact point (symbol name → SymPy string) for `fails` and `witness`; None to sample.
    - `relation`: for witnesses, `positive` or `nonzero`.
    - `factor`: how far a `fails` discrepancy (or a witness value) must exceed its bound: `REFUTATION_FACTOR`
      when it refutes a claim, 1 for a witness of a proved existence claim.
    - `identical_entries`: for identities, how many entries of the two sides were structurally equal and left
      out (an error of 0 by construction is not evidence); the sides in `exprs` are the remaining entries.
    """

    name: str
    kind: str
    exprs: tuple[sp.Basic, ...]
    point: Mapping[str, str] | None = None
    relation: str = "nonzero"
    factor: float = 1.0
    identical_entries: int = 0

    @property
    def program(self) -> Program:
        return _program_of(self.exprs)


_PROGRAMS: dict[int, tuple[tuple[sp.Basic, ...], Program]] = {}


def _program_of(exprs: tuple[sp.Basic, ...]) -> Program:
    key = id(exprs)
    cached = _PROGRAMS.get(key)
    if cached is None or cached[0] is not exprs:
        cached = (exprs, compile_program(exprs))
        _PROGRAMS[key] = cached
    return cached[1]


def _spread(items: Sequence[Any], limit: int = MAX_PARTS) -> list[Any]:
    if len(items) <= limit:
        return list(items)
    picks = sorted({round(i * (len(items) - 1) / (limit - 1)) for i in range(limit)})
    return [items[i] for i in picks]


def _entries(expr: sp.Basic) -> list[sp.Basic]:
    return list(expr) if isinstance(expr, sp.MatrixBase) else [sp.sympify(expr)]


def _identity(name: str, lhs: sp.Basic, rhs: sp.Basic, untested: list[Untested], **fields: Any) -> list[Comparison]:
    """The comparison of an identity over its entries that differ structurally; the rest is counted as untested."""
    left, right = _entries(lhs), _entries(rhs)
    if len(left) != len(right):
        untested.append(Untested(name, f"the sides have different sizes ({len(left)} and {len(right)} entries)"))
        return []
    kept = [(a, b) for a, b in zip(left, right, strict=True) if a != b]
    identical = len(left) - len(kept)
    if not kept:
        untested.append(Untested(name, "both sides are the same expression once built: an error of 0 by construction"))
        return []
    if identical:
        untested.append(
            Untested(name, f"{identical} of {len(left)} entries are the same expression on both sides (left out)")
        )
    if isinstance(lhs, sp.MatrixBase) or len(kept) > 1:
        sides = (sp.Matrix([a for a, _ in kept]), sp.Matrix([b for _, b in kept]))
    else:
        sides = (kept[0][0], kept[0][1])
    return [Comparison(name, exprs=sides, identical_entries=identical, **fields)]


def _collect(
    statement: Any,
    verdict: str,
    counterexample_point: Mapping[str, str] | None,
    refuting: bool,
    untested: list[Untested],
) -> list[Comparison]:
    from ropecheck.proofs.engine import _statements as kinds

    name = str(getattr(statement, "name", type(statement).__name__))
    out: list[Comparison] = []
    if isinstance(statement, kinds.Identity):
        if verdict == "refuted" and counterexample_point is not None:
            fields = {"kind": "fails", "point": counterexample_point, "factor": REFUTATION_FACTOR}
        else:
            fields = {"kind": "holds"}
        return _identity(name, statement.lhs, statement.rhs, untested, **fields)
    if isinstance(statement, kinds.Witness):
        point = {str(k): str(v) for k, v in statement.point.items()}
        factor = REFUTATION_FACTOR if refuting else 1.0
        return [Comparison(name, "witness", (statement.expr,), point, statement.relation, factor)]
    if isinstance(statement, kinds.NonPositive):
        if verdict == "refuted" and counterexample_point is not None:
            return [Comparison(name, "witness", (statement.expr,), counterexample_point, "positive", REFUTATION_FACTOR)]
        untested.append(Untested(name, "an inequality over a whole domain: no single point to evaluate"))
        return []
    if isinstance(statement, kinds.AllOf):
        refuted_parts = [p for p in statement.parts if verdict == "refuted" and _part_refuted(p)]
        parts = refuted_parts[:1] + _spread([p for p in statement.parts if p not in refuted_parts])
        for part in parts:
            part_verdict = "refuted" if part in refuted_parts else "proved"
            out += _collect(part, part_verdict, counterexample_point, refuting, untested)
        return out
    if isinstance(statement, kinds.Induction):
        out += _collect(statement.base, "proved", None, False, untested)
        out += _collect(statement.step, "proved", None, False, untested)
        return out
    steps = getattr(statement, "steps", None)  # a derivation, where the ledger still has one
    if isinstance(steps, list | tuple) and type(statement).__name__ == "Derivation":
        for step in steps:
            out += _collect(step, "proved", None, refuting, untested)
        return out
    against = getattr(statement, "against", None)  # a refutation by construction, where the ledger has one
    if against is not None and type(statement).__name__ == "Refutation":
        return _collect(against, "proved", None, True, untested)
    build = getattr(statement, "build", None)  # explicit block-by-block instances
    frequencies = getattr(statement, "frequencies", None)
    if callable(build) and frequencies is not None:
        for frequency in _spread(list(frequencies)):
            lhs, rhs = build(frequency)
            out += _identity(f"{name}, block {frequency}", lhs, rhs, untested, kind="holds")
        return out
    untested.append(Untested(name, f"the mirror has no numeric form for a {type(statement).__name__} statement"))
    return out


def statement_comparisons(
    statement: Any, verdict: str, counterexample_point: Mapping[str, str] | None, *, refuting: bool = False
) -> list[Comparison]:
    """The comparisons a statement asserts, given how the engine decided it.

    **Arguments:**

    - `statement`: a `ropecheck.proofs.engine._statements` statement (Identity, Witness, AllOf, Induction,
      NonPositive, …).
    - `verdict`: the engine's verdict for it (`proved`, `refuted`, `unknown`).
    - `counterexample_point`: the decision's counterexample point, for refuted statements.
    - `refuting`: the statement is the witness of a negation: its witnesses must then clear `REFUTATION_FACTOR`.

    **Returns:**

    The comparisons; untested parts (see `untested_parts`) are left out.
    """
    return _split(statement, verdict, counterexample_point, refuting)[0]


def untested_parts(
    statement: Any, verdict: str, counterexample_point: Mapping[str, str] | None, *, refuting: bool = False
) -> list[Untested]:
    """The parts of a statement that are not numerically tested, each with its reason (same arguments as
    `statement_comparisons`)."""
    return _split(statement, verdict, counterexample_point, refuting)[1]


def _split(
    statement: Any, verdict: str, point: Mapping[str, str] | None, refuting: bool
) -> tuple[list[Comparison], list[Untested]]:
    untested: list[Untested] = []
    kept = []
    for comparison in _collect(statement, verdict, point, refuting, untested):
        try:
            _program_of(comparison.exprs)
        except NotEvaluable as error:
            untested.append(Untested(comparison.name, f"no numeric form: {str(error)[:200]}"))
            continue
        kept.append(comparison)
    return kept, untested


def _part_refuted(part: Any) -> bool:
    """Whether a conjunct is the refuted one (decided again: conjuncts are small)."""
    decide = getattr(part, "decide", None)
    return callable(decide) and str(decide().verdict) == "refuted"


def _decision(claim: Any) -> tuple[str, Mapping[str, str] | None]:
    decision = claim.decide()
    counterexample = getattr(decision, "counterexample", None)
    return str(decision.verdict), (counterexample.point if counterexample is not None else None)


_CLAIM_SPLITS: dict[int, tuple[Any, str, Mapping[str, str] | None, list[Comparison], list[Untested]]] = {}


def _claim_split(claim: Any) -> tuple[list[Comparison], list[Untested]]:
    """`_split` of a claim's statement under its decision, once per statement object: the evidence asks for it once
    per format, and each time it rebuilt the comparisons and compiled their programs again (the same ones)."""
    verdict, point = _decision(claim)
    statement = claim.statement
    cached = _CLAIM_SPLITS.get(id(statement))
    if cached is None or cached[0] is not statement or cached[1] != verdict or cached[2] != point:
        cached = (statement, verdict, point, *_split(statement, verdict, point, False))
        _CLAIM_SPLITS[id(statement)] = cached
    return cached[3], cached[4]


def comparisons(claim: Any) -> list[Comparison]:
    """The comparisons of a ledger claim (all claim IDs), using the engine's decision for the verdict."""
    return list(_claim_split(claim)[0])


def claim_untested_parts(claim: Any) -> list[Untested]:
    """The parts of a ledger claim's statement that are not numerically tested, with reasons."""
    return list(_claim_split(claim)[1])
