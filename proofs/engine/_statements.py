"""Statement kinds the ledger is written in; each one knows how the engine decides it.

- `Identity`: `lhs == rhs` for all values of its symbols (scalars or matrices).
- `Witness`: an existence statement `∃ point: expr ≠ 0` (or `> 0`), proved by a certified value at an
  explicit point. The *negation* of a universal claim is a witness; so is "adding X breaks Y".
- `NonPositive`: a universal inequality `expr ≤ 0` for all values; refuted by a certified positive value at
  a hinted point; never proved on its own (inequalities are proved through a `Derivation`).
- `AllOf`: a conjunction; proved if every part is, refuted if any part is.
- `Induction`: a statement about every length `n ≥ n0`, with an exact base case and an exact step identity.
  The engine checks both identities but cannot check that they *are* the base and step of the claim, so it
  never proves the claim (the kernel's induction does).
- `Derivation`: steps that are each decided, and a `rule` that names the closing inference *for people*.
  A rule name is a label, not a proof: the engine never proves (or refutes) a derivation; the Coq kernel
  decides the claim (ISSUE #10).
- `Refutation`: the universal statement `inner` with `against`, a certified witness of its negation, shown
  as the engine's derivation. It is refuted by the engine only when `inner` itself is refuted; a witness of
  a different statement is never taken as the negation (the kernel's `x_negation` theorem is).
- `Claimed`: a claim with no formula the engine can decide ("X is impossible"); it is never decided.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import sympy as sp

from ._certificate import Counterexample, Decision, Step, Verdict
from ._engine import counterexample_from, decide_identity
from ._interval import certify_nonzero, certify_positive


def _latex(expr: object) -> str:
    return sp.latex(expr) if isinstance(expr, sp.Basic | sp.MatrixBase) else str(expr)


@dataclass(frozen=True)
class Identity:
    """`lhs == rhs` for every value of the free symbols (their assumptions are their domains)."""

    lhs: sp.Basic
    rhs: sp.Basic
    name: str = "identity"
    hints: Sequence[Mapping[sp.Symbol, sp.Expr]] = ()

    @property
    def latex(self) -> str:
        return f"{_latex(self.lhs)} = {_latex(self.rhs)}"

    def decide(self) -> Decision:
        return decide_identity(self.lhs, self.rhs, hints=self.hints)


@dataclass(frozen=True)
class Witness:
    """`expr ≠ 0` (relation `"nonzero"`) or `expr > 0` (`"positive"`) at an explicit exact point."""

    expr: sp.Expr
    point: Mapping[sp.Symbol, sp.Expr]
    relation: str = "nonzero"
    name: str = "witness"
    description: str = ""

    @property
    def latex(self) -> str:
        rel = r"\neq 0" if self.relation == "nonzero" else "> 0"
        return f"{_latex(self.expr)} {rel}"

    def value(self) -> sp.Expr:
        return sp.sympify(self.expr).xreplace(dict(self.point))

    def decide(self) -> Decision:
        value = self.value()
        certify = certify_nonzero if self.relation == "nonzero" else certify_positive
        certified = certify(value) if not value.free_symbols else None
        if certified is None:
            return Decision(Verdict.UNKNOWN, f"witness value not certified {self.relation}")
        box, bits = certified
        witness = counterexample_from(self.point, value, box, bits, self.description)
        return Decision(Verdict.PROVED, f"certified-witness ({self.relation})", counterexample=witness)


@dataclass(frozen=True)
class NonPositive:
    """`expr ≤ 0` for all values; refuted by a certified positive value at one of `hints`."""

    expr: sp.Expr
    hints: Sequence[Mapping[sp.Symbol, sp.Expr]]
    name: str = "inequality"
    terms: Mapping[str, sp.Expr] = field(default_factory=dict)
    """Named quantities the inequality compares (`{"B(18)": …, "B(19)": …}`): their values are shown with a
    counterexample, in words, for readers (display only; the certificate is the enclosure of `expr`)."""

    @property
    def latex(self) -> str:
        return f"{_latex(self.expr)} \\le 0"

    def _describe(self, hint: Mapping[sp.Symbol, sp.Expr]) -> str:
        values = []
        for label, term in self.terms.items():
            value = sp.sympify(term).xreplace(dict(hint))
            values.append(f"{label} = {sp.N(value, 12)}")
        return ", ".join(values)

    def decide(self) -> Decision:
        for hint in self.hints:
            value = sp.sympify(self.expr).xreplace(dict(hint))
            if value.free_symbols:
                continue
            certified = certify_positive(value)
            if certified is not None:
                box, bits = certified
                return Decision(
                    Verdict.REFUTED,
                    "interval-counterexample",
                    counterexample=counterexample_from(hint, value, box, bits, self._describe(hint)),
                )
        return Decision(Verdict.UNKNOWN, "no certified positive value at the hinted points")


def _step(name: str, statement: Statement, decision: Decision) -> Step:
    detail = ""
    if decision.counterexample is not None:
        detail = f"at {decision.counterexample.point}: {decision.counterexample.residual}"
    elif decision.conditions:
        detail = "where " + ", ".join(decision.conditions)
    return Step(name=name, latex=statement.latex, verdict=decision.verdict, method=decision.method, detail=detail)


@dataclass(frozen=True)
class AllOf:
    """A conjunction of named parts."""

    parts: Sequence[Statement]
    name: str = "all of"

    @property
    def latex(self) -> str:
        return r" \quad\wedge\quad ".join(p.latex for p in self.parts)

    def decide(self) -> Decision:
        steps, refuting = [], None
        for part in self.parts:
            decision = part.decide()
            steps.append(_step(part.name, part, decision))
            if decision.verdict is Verdict.REFUTED and refuting is None:
                refuting = decision
        if refuting is not None:
            return Decision(Verdict.REFUTED, refuting.method, tuple(steps), refuting.counterexample)
        if all(s.verdict is Verdict.PROVED for s in steps):
            return Decision(Verdict.PROVED, "conjunction", tuple(steps))
        return Decision(Verdict.UNKNOWN, "some part is undecided", tuple(steps))


@dataclass(frozen=True)
class Induction:
    """`P(n)` for all integers `n ≥ n0`: exact base case `P(n0)` and exact step `P(n) ⇒ P(n+1)`.

    The step is given as an identity that is *equivalent* to the implication for this kind of statement
    (e.g. for `Σ_{i<n} a_i = F(n)`, the step identity is `F(n) + a_n = F(n+1)`).
    """

    base: Identity
    step: Identity
    name: str = "induction"
    description: str = ""

    @property
    def latex(self) -> str:
        return f"\\text{{base: }} {self.base.latex};\\quad \\text{{step: }} {self.step.latex}"

    def decide(self) -> Decision:
        base, step = self.base.decide(), self.step.decide()
        steps = (_step("base case", self.base, base), _step("inductive step", self.step, step))
        if base.verdict is Verdict.PROVED and step.verdict is Verdict.PROVED:
            method = "base and step identities proved; that they are the claim's base and step is checked by the kernel"
            return Decision(Verdict.UNKNOWN, method, steps)
        if base.verdict is Verdict.REFUTED:
            return Decision(Verdict.REFUTED, "base case refuted", steps, base.counterexample)
        return Decision(Verdict.UNKNOWN, "induction not closed", steps)


RULE_NOTES = {
    "triangle-inequality": "|Σ a_i| ≤ Σ |a_i| and |a·b| = |a|·|b|",
    "reindexing": "a sum over a finite index set is unchanged by a bijection of the index set",
    "bound-by-maximum": "Σ |a_i|·|b_i| ≤ (max_i |a_i|)·Σ |b_i|",
    "substitution": "equal expressions may replace each other inside any expression",
    "limit-of-bounded-over-n": "if |a_N| ≤ C/N for all N ≥ 1 with C independent of N, then a_N → 0",
    "not-tending-to-zero": "if every window of k consecutive integers holds a point with |f| ≥ c > 0, "
    "then f(Δ) does not tend to 0 as Δ → ∞",
    "dimension-count": "an invertible linear map of R^d keeps d numbers per vector",
    "blockwise": "sums, products and transposes of block-diagonal matrices with equal block sizes act block by "
    "block, so a per-block identity for a generic block holds for every even d",
    "termwise": "two finite sums are equal when their terms are equal index by index",
    "cauchy-schwarz": "|a·cos x − b·sin x| ≤ sqrt(a² + b²) for real a, b, x",
}
"""What each rule name means, for the reader of a derivation. Nothing is ever closed by a rule name."""


@dataclass(frozen=True)
class Derivation:
    """Steps that are each decided, with the closing inference named for people (never trusted)."""

    steps: Sequence[Statement]
    rule: str
    conclusion: str
    name: str = "derivation"

    @property
    def latex(self) -> str:
        return self.conclusion

    def decide(self) -> Decision:
        steps, witness = [], None
        for part in self.steps:
            decision = part.decide()
            steps.append(_step(part.name, part, decision))
            if decision.verdict is not Verdict.PROVED:
                break  # the derivation is open; later steps cannot close it
            if isinstance(part, Witness) and decision.counterexample is not None:
                witness = decision.counterexample
        note = RULE_NOTES.get(self.rule, self.rule)
        if len(steps) == len(self.steps) and all(s.verdict is Verdict.PROVED for s in steps):
            method = f"derivation steps proved; closing step '{self.rule}' is not checked by the engine"
            return Decision(Verdict.UNKNOWN, method, tuple(steps), witness, notes=(note,))
        return Decision(Verdict.UNKNOWN, "a step of the derivation is not proved", tuple(steps), notes=(note,))


# TeX's special characters in text mode, as MathJax's textmacros (and LaTeX) accept them.
_TEXT_ESCAPES = {"_": "\\_", "&": "\\&", "%": "\\%", "#": "\\#", "$": "\\$", "{": "\\{", "}": "\\}", "^": "\\^{}",
                 "~": "\\~{}"}


@dataclass(frozen=True)
class Claimed:
    """A claim that has no universal formula the engine can decide directly (e.g. "X is impossible").

    It is decided only through a `Refutation` whose witness is a proved construction or certified value.
    """

    text: str
    name: str = "claim as stated"

    @property
    def latex(self) -> str:
        """The prose as TeX text: its special characters escaped (`R_m` in `\\text{}` is a MathJax error)."""
        return "\\text{" + "".join(_TEXT_ESCAPES.get(char, char) for char in self.text) + "}"

    def decide(self) -> Decision:
        return Decision(Verdict.UNKNOWN, "no formula the engine can decide (the kernel decides the claim)")


@dataclass(frozen=True)
class Refutation:
    """A universal claim `inner` refuted by a proved existence statement `against` of its negation.

    `inner` is kept for display and for the numeric mirrors; the engine first tries to decide `inner`
    directly, and falls back to the witness only when that is inconclusive.
    """

    inner: Statement
    against: Statement
    name: str = "refutation"

    @property
    def latex(self) -> str:
        return self.inner.latex

    def decide(self) -> Decision:
        direct = self.inner.decide()
        if direct.verdict is not Verdict.UNKNOWN:
            return direct
        witness = self.against.decide()
        steps = (_step("claim as stated", self.inner, direct), _step("negation witness", self.against, witness))
        if witness.verdict is Verdict.PROVED:
            counterexample = witness.counterexample or Counterexample(
                point={},
                residual="0",
                interval={},
                precision_bits=0,
                description=f"construction proved by {witness.method}: {self.against.latex}",
            )
            method = "witness of the negation certified by the engine; the refutation is the kernel's negation theorem"
            return Decision(Verdict.UNKNOWN, method, steps, counterexample)
        return Decision(Verdict.UNKNOWN, "negation witness not certified", steps)


def check_certificate(decision: Decision) -> None:
    """Internal consistency: a refuted decision must carry a counterexample, a proved one must not be empty."""
    if decision.verdict is Verdict.REFUTED and decision.counterexample is None:
        raise AssertionError("refuted without a counterexample")


__all__ = [
    "RULE_NOTES",
    "AllOf",
    "BlockInstances",
    "Claimed",
    "Derivation",
    "Identity",
    "Induction",
    "NonPositive",
    "Refutation",
    "Statement",
    "Witness",
    "check_certificate",
]


@dataclass(frozen=True)
class BlockInstances:
    """An explicit-size cross-check of a per-block statement: every 2×2 block of a `d × d` instance.

    `build(θ)` gives `(lhs, rhs)` for the block with frequency `θ`; each of the `len(frequencies)` blocks is
    built and decided on its own (block-diagonal algebra makes the full matrix identity the conjunction of these),
    which keeps `d = 4096` fast. A block that is another block with its frequency symbol renamed (same
    assumptions) is the same identity: its decision is reused, so independent symbolic θᵢ cost one decision, while a
    block built differently is decided afresh. The decision reports how many blocks each method closed.
    """

    build: Callable[[sp.Expr], tuple[sp.Basic, sp.Basic]]
    frequencies: Sequence[sp.Expr]
    name: str = "explicit instance"

    @property
    def latex(self) -> str:
        lhs, rhs = self.build(sp.Symbol(r"\theta_i"))
        return f"{_latex(lhs)} = {_latex(rhs)},\\ i = 0,\\dots,{len(self.frequencies) - 1}"

    def decide(self) -> Decision:
        methods: dict[str, int] = {}
        decided: dict[tuple[sp.Basic, sp.Basic], Decision] = {}
        renamed: dict[frozenset, sp.Dummy] = {}
        for index, frequency in enumerate(self.frequencies):
            lhs, rhs = self.build(frequency)
            key = _with_frequency_renamed(lhs, rhs, frequency, renamed)
            decision = decided.get(key)
            if decision is None:
                decision = decided[key] = decide_identity(lhs, rhs, search=False)
            if decision.verdict is not Verdict.PROVED:
                return Decision(Verdict.UNKNOWN, f"block {index} not proved: {decision.method}")
            methods[decision.method] = methods.get(decision.method, 0) + 1
        summary = ", ".join(f"{count} blocks by {method}" for method, count in methods.items())
        return Decision(Verdict.PROVED, "blockwise instance", notes=(summary,))


def _with_frequency_renamed(
    lhs: sp.Basic, rhs: sp.Basic, frequency: sp.Expr, renamed: dict[frozenset, sp.Dummy]
) -> tuple[sp.Basic, sp.Basic]:
    """`(lhs, rhs)` hashable, a symbolic `frequency` replaced by the `Dummy` of `renamed` with the same assumptions
    (a Dummy equals no other symbol): two blocks with the same key are the same identity up to the name of their
    (free, universally read) frequency."""
    if isinstance(frequency, sp.Symbol):
        assumptions = frequency.assumptions0
        dummy = renamed.setdefault(frozenset(assumptions.items()), sp.Dummy("frequency", **assumptions))
        lhs, rhs = lhs.xreplace({frequency: dummy}), rhs.xreplace({frequency: dummy})
    return tuple(sp.ImmutableMatrix(x) if isinstance(x, sp.MatrixBase) else x for x in (lhs, rhs))  # type: ignore[return-value]


Statement = Identity | Witness | NonPositive | AllOf | Induction | Derivation | Refutation | Claimed | BlockInstances
