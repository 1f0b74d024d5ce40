"""Decide one user statement for `ropecheck prove`: the engine searches, the printed theorem is what Coq checks.

`decide_statement` runs in the confined worker (`ropecheck._worker`). It parses the text, lets the engine
(`decide_identity`) look for a proof or a certified counterexample, prints the statement the user typed to Coq
with its domain as hypotheses (`ropecheck.proofs.prove._prove_print`), and looks for a point of that domain
(`ropecheck.proofs.prove._prove_search`). The answer is a JSON-able dict; `ropecheck.proofs.prove._prove_kernel` then
lets
`coqc` check `(exists point in the domain) /\\ (forall x, hypotheses -> lhs = rhs)`.

- An engine proof whose domain has no certified point is *unknown* ("undefined everywhere" when a denominator
  is shown to vanish identically) — a theorem with unsatisfiable hypotheses proves nothing.
- The side conditions reported are the printed theorem's hypotheses (or, when Coq cannot state the statement,
  the engine's).
- A counterexample must lie in the printed domain: outside it the statement is not about real numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sympy as sp
from mpmath.libmp import NoConvergence

from ..engine import _procedures
from ..engine._certificate import Counterexample, Decision, Verdict
from ..engine._engine import decide_identity, denominators_of, residuals_of
from ..engine._procedures import vanishes_identically
from ..kernel._coq_print import _angle_replacements, _pair_script
from ._parse import BadStatement, parse_identity
from ._prove_print import CannotState, CoqStatement, Hypothesis, state_identity
from ._prove_search import defined_point, holds_at, search_wide
from ._prove_tactics import TACTICS

__all__ = ["decide_statement", "decision_from", "proof_script"]

_CLOSE = "first [assumption | lra | nra | interval | (simpl; lra) | lia]"
_GENERIC = [
    "solve [reflexivity]",
    "solve [f_equal; ring]",  # (a)^30 = (b)^30 from a = b, without expanding the powers
    "solve [ring]",
    f"solve [field; repeat split; {_CLOSE}]",
    f"solve [unfold tan in *; field; repeat split; {_CLOSE}]",
    "solve [repeat first [rewrite exp_ln by assumption | rewrite ln_exp | rewrite sqrt_sqrt by lra "
    "| rewrite pow2_sqrt by lra]; "
    f"first [ring | field; repeat split; {_CLOSE}]]",
    "solve [unfold Rpower in *; repeat rewrite <- exp_plus; rewrite <- exp_0; f_equal; ring]",
    "solve [repeat match goal with |- context [Rlt_dec ?a ?b] => destruct (Rlt_dec a b) end; lra]",
    "solve [lra]",
    *TACTICS,  # the tactic layer (angles, sqrt, ln/exp, cases, Int_part), after the cheap generic ones
    "solve [nra]",
]


def proof_script(parsed_lhs: Any, parsed_rhs: Any) -> str:
    """Tactics for the printed goal: generic ones, then SymPy's suggestion (angle addition, a Pythagorean
    combination). Untrusted: the kernel checks whatever closes the goal."""
    alternatives = list(_GENERIC)
    try:
        alternatives.insert(2, f"solve [repeat rewrite Rmult_1_l; {_pair_script(parsed_lhs, parsed_rhs)}]")
        expand = "; ".join(_angle_replacements([parsed_lhs, parsed_rhs]))
        if expand:  # angle addition, then a field identity (sin(2*x)/sin(x) == 2*cos(x))
            rewrite = "repeat rewrite ?cos_plus, ?sin_plus, ?cos_neg, ?sin_neg"
            alternatives.insert(3, f"solve [{expand}; {rewrite}; field; repeat split; {_CLOSE}]")
    except Exception:  # a suggestion that cannot be printed (CannotPrint, …) is simply not offered
        pass
    return f"intros; first [ {' | '.join(alternatives)} ]"


def _coq_witness(statement: CoqStatement, point: dict[sp.Symbol, sp.Expr]) -> list[str]:
    from ._prove_print import _number

    reals = [s for s in statement.symbols if not s.is_integer]
    integers = [s for s in statement.symbols if s.is_integer]
    return [_number(point[s]) for s in reals] + [f"({int(point[s])})%Z" for s in integers]


def _undefined_reason(hypotheses: Iterable[Hypothesis]) -> str:
    for hypothesis in hypotheses:
        if hypothesis.kind == "nonzero" and vanishes_identically(hypothesis.value):
            return f"undefined everywhere: {hypothesis.text} never holds (the denominator vanishes identically)"
    return "undefined everywhere as far as the search can tell: no point was found where " + ", ".join(
        h.text for h in hypotheses
    )


def _engine_hypotheses(parsed_denominators: Iterable[sp.Expr], residuals: list[sp.Expr]) -> list[Hypothesis]:
    found: list[sp.Expr] = list(parsed_denominators)
    for residual in residuals:
        found += [d for d in denominators_of(residual) if d not in found]
    return [Hypothesis("nonzero", "", f"{sp.sstr(d)} != 0", d) for d in found]


def decide_statement(
    text: str,
    real: Iterable[str] = (),
    positive: Iterable[str] = (),
    integer: Iterable[str] = (),
    procedure_seconds: float | None = None,
) -> dict[str, Any]:
    """Decide `"LHS == RHS"` and prepare the Coq check.

    **Arguments:** `text` and the declared symbols, as for `parse_identity`; `procedure_seconds`: the budget of
    each exact procedure (so that one slow procedure cannot starve the others; None: unlimited).

    **Returns:** a dict with `verdict` (`proved`, `refuted`, `unknown`), `method`, `conditions` (the theorem's
    hypotheses in the user's syntax), `counterexample`/`residual`/`interval` for a refutation, `hints`, and for
    a proof either `coq` (`statement`, `script`, `witness`, `hypotheses`, `functions`) or `cannot_state` (why Coq
    cannot state it). An `unknown` (no proof, no counterexample) whose statement Coq can state on a domain with
    a certified point carries `coq` too: the tactic layer may close what the engine could not, and only the
    kernel's acceptance makes it proved. `{"error": …}` for bad input.
    """
    real, positive, integer = list(real), list(positive), list(integer)
    _procedures.procedure_seconds = procedure_seconds
    try:
        parsed = parse_identity(text, real=real, positive=positive, integer=integer)
    except BadStatement as error:
        return {"error": str(error)}
    out: dict[str, Any] = {"hints": list(parsed.hints)} if parsed.hints else {}
    try:
        statement: CoqStatement | None = state_identity(text, real=real, positive=positive, integer=integer)
        cannot_state = ""
    except CannotState as error:
        statement, cannot_state = None, str(error)
    except Exception as error:  # a printer failure leaves the proof to the engine (exit 4 at best)
        statement, cannot_state = None, f"the Coq printer failed ({type(error).__name__})"
    residuals = residuals_of(parsed.lhs, parsed.rhs)
    hypotheses = (
        list(statement.hypotheses) if statement else _engine_hypotheses(parsed.denominators, residuals)
    )
    try:
        decision = decide_identity(parsed.lhs, parsed.rhs, denominators=parsed.denominators)
    except (ArithmeticError, ValueError, TypeError, NoConvergence) as error:  # say which step gave up, and why
        decision = Decision(Verdict.UNKNOWN, f"the engine's exact procedures gave up ({type(error).__name__}: "
                                             f"{str(error).splitlines()[0][:120] if str(error) else 'no message'})")
    symbols = statement.symbols if statement else parsed.symbols
    if decision.verdict is Verdict.REFUTED and decision.counterexample is not None:
        point = {s: _exact(decision.counterexample.point.get(str(s))) for s in symbols}
        if statement is None or (all(v is not None for v in point.values()) and all(
            holds_at(h, point) for h in hypotheses  # type: ignore[arg-type]
        )):
            counterexample = decision.counterexample
            return {**out, "verdict": "refuted", "method": decision.method, "counterexample": counterexample.point,
                    "residual": counterexample.residual, "interval": counterexample.interval}
        decision = decision.__class__(Verdict.UNKNOWN, "the engine's counterexample lies outside the domain")
    if decision.verdict is Verdict.UNKNOWN:
        found = search_wide(residuals, symbols, hypotheses)
        if found is None:
            out.update(verdict="unknown", method=decision.method)
            witness = defined_point(hypotheses, symbols) if statement is not None else None
            if statement is not None and witness is not None:  # the kernel may still close it: let it try
                out.update(conditions=[h.text for h in hypotheses], coq=_coq_entry(statement, witness, parsed))
            return out
        point, certified = found
        return {**out, "verdict": "refuted", "method": "interval-counterexample (wide sampling)",
                "counterexample": certified.point, "residual": certified.residual, "interval": certified.interval}
    witness = defined_point(hypotheses, symbols)
    if witness is None:
        return {**out, "verdict": "unknown", "method": _undefined_reason(hypotheses)}
    conditions = [h.text for h in hypotheses]
    out.update(verdict="proved", method=decision.method, conditions=conditions)
    if statement is None:
        out["cannot_state"] = cannot_state
        return out
    out["coq"] = _coq_entry(statement, witness, parsed)
    return out


def _coq_entry(statement: CoqStatement, witness: dict[sp.Symbol, sp.Expr], parsed: Any) -> dict[str, Any]:
    """What `_prove_kernel.kernel_check` needs: the printed statement, its domain and witness, the script."""
    return {
        "statement": statement.proposition,
        "binders": statement.binders,
        "hypotheses": [*statement.symbol_hypotheses, *(h.coq for h in statement.hypotheses)],
        "witness": _coq_witness(statement, witness),
        "script": proof_script(parsed.lhs, parsed.rhs),
        "functions": list(statement.functions),
    }


def _exact(text: str | None) -> sp.Expr | None:
    """A counterexample coordinate back as an exact number (the engine reports exact SymPy text)."""
    if text is None:
        return None
    try:
        return parse_identity(f"{text} == 0").lhs  # the safe grammar, never sympify
    except BadStatement:
        return None



def decision_from(answer: dict[str, Any] | None, timeout: float) -> Decision:
    """`decide_statement`'s answer from the worker (None: it ran out of `timeout` seconds) as a `Decision`.

    Raises `BadStatement` for an answer that reports bad input.
    """
    if answer is None:
        return Decision(Verdict.UNKNOWN, f"time limit: {timeout:g} s")
    if "error" in answer:
        raise BadStatement(answer["error"])
    counterexample = None
    if "counterexample" in answer:
        counterexample = Counterexample(answer["counterexample"], answer["residual"], answer["interval"], 0)
    notes = (f"Coq cannot state it: {answer['cannot_state']}",) if "cannot_state" in answer else ()
    return Decision(Verdict(answer["verdict"]), answer["method"], counterexample=counterexample,
                    conditions=tuple(answer.get("conditions", ())), notes=notes)
