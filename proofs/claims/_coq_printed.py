"""Generate `proofs/coq/Printed.v`: every printable ledger statement, printed from its SymPy form.

For each claim whose statement (or correction) is an `Identity`, a conjunction of identities, or an
explicit-point `Witness`, the SymPy statement is printed (`ropecheck.proofs.kernel._coq_print`) as

- `x_printed` — the identity the engine proved (or the witness value, `≠ 0` / `> 0`, for existence claims);
- `x_printed_negation` — `~ (forall …, lhs = rhs)`, closed at the engine's counterexample with `interval`;
- `x_correction_printed` — the correction's identity.

so the formula the engine and the numeric mirrors use is the formula the kernel checks. A lemma that the
kernel does not accept (when generated with `--check`) is left out with a `(* NOT PRINTED … *)` note.

    python -m proofs.claims._coq_printed --check > proofs/coq/Printed.v
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator

import sympy as sp

from ..engine._statements import AllOf, Identity, Witness
from ..kernel._coq_print import HEADER, CannotPrint, _print, binders, identity_statement, lemma, proof_script
from ..kernel._coq_sources import theorem_base

Verify = Callable[[str, str, str], str | None]
"""`verify(name, statement, script)` → None when the kernel accepts it, else the reason."""


def _witness_lemma(witness: Witness) -> tuple[str, str]:
    value = witness.value()
    if value.free_symbols or value.has(sp.I):
        raise CannotPrint("the witness value is not a closed real number")
    relation = "<>" if witness.relation == "nonzero" else ">"
    return f"{_print(value)} {relation} 0", "interval."


def _witnesses_lemma(statement: object) -> tuple[str, str]:
    """One witness, or a conjunction of witnesses, closed by `interval`."""
    if isinstance(statement, Witness):
        return _witness_lemma(statement)
    if isinstance(statement, AllOf) and statement.parts and all(isinstance(p, Witness) for p in statement.parts):
        parts = [_witness_lemma(p) for p in statement.parts]  # type: ignore[arg-type]
        text = " /\\ ".join(f"({s})" for s, _ in parts)
        return text, "repeat match goal with |- _ /\\ _ => split end; interval."
    raise CannotPrint(f"{type(statement).__name__} is not a witness")


def _negation_lemma(identity: Identity, point: dict[str, str]) -> tuple[str, str]:
    """`~ (forall …, lhs = rhs)`, instantiated at `point` and closed by `interval`."""
    lhs, rhs = sp.sympify(identity.lhs), sp.sympify(identity.rhs)
    if isinstance(lhs, sp.MatrixBase):
        raise CannotPrint("negations of matrix identities are stated in Coq by hand")
    statement = identity_statement(lhs, rhs)
    symbols = sorted(lhs.free_symbols | rhs.free_symbols, key=lambda s: s.name)
    if {s.name for s in symbols} - set(point):
        raise CannotPrint("the counterexample does not fix every symbol")
    reals = [s for s in symbols if not s.is_integer]
    integers = [s for s in symbols if s.is_integer]
    values = [_value(point[s.name]) for s in reals] + [f"({sp.Integer(point[s.name])})%Z" for s in integers]
    binders(symbols)  # raises CannotPrint for symbols that are not real
    script = (
        f"intro H; pose proof (H {' '.join(values)}) as E; repeat (specialize (E ltac:(first [lra | lia]))); "
        "match type of E with ?a = ?b => assert (N : a - b <> 0) by interval end; "
        "apply N; apply Rminus_diag_eq; exact E."
    )
    return f"~ ({statement})", script


def _value(text: str) -> str:
    value = sp.sympify(text)
    if not value.is_Rational:
        raise CannotPrint(f"counterexample value {text} is not rational")
    return _print(value)


def _is_reflexive(identity: Identity) -> bool:
    """Both sides are the same expression: SymPy reduced the statement while building it, so a Coq proof of
    `X = X` would be evidence of nothing (GUIDE §3)."""
    return bool(sp.sympify(identity.lhs) == sp.sympify(identity.rhs))


def _identity_lemma(statement: object) -> tuple[str, str]:
    if isinstance(statement, Identity):
        if _is_reflexive(statement):
            raise CannotPrint("both sides are the same expression after SymPy built them (X = X is not evidence)")
        return identity_statement(statement.lhs, statement.rhs), proof_script(statement.lhs, statement.rhs)
    if isinstance(statement, AllOf) and all(isinstance(p, Identity) for p in statement.parts):
        informative = [p for p in statement.parts if not _is_reflexive(p)]  # type: ignore[arg-type]
        if not informative:
            raise CannotPrint("every part is the same expression on both sides (X = X is not evidence)")
        if len(informative) == 1:
            return _identity_lemma(informative[0])
        parts = [_identity_lemma(p) for p in informative]
        text = " /\\ ".join(f"({s})" for s, _ in parts)
        scripts = " | ".join(f"({script.rstrip('.')})" for _, script in parts)
        split = "repeat match goal with |- _ /\\ _ => split end"
        return text, f"{split}; [> {scripts} ]."
    raise CannotPrint(f"{type(statement).__name__} is not an identity")


def printed_lemmas() -> Iterator[tuple[str, str, str, str]]:
    """`(claim id, lemma name, statement, script)` for every printable statement, in ledger order."""
    from ._ledger import all_claims

    for claim in all_claims():
        base = theorem_base(claim.id)
        decision = claim.decide()
        candidates: list[tuple[str, Callable[[], tuple[str, str]]]] = []
        statement = claim.statement
        if isinstance(statement, Witness) or (
            isinstance(statement, AllOf) and all(isinstance(p, Witness) for p in statement.parts)
        ):
            candidates.append((f"{base}_printed", lambda s=statement: _witnesses_lemma(s)))
        elif str(decision.verdict) == "refuted" and isinstance(statement, Identity) and decision.counterexample:
            point = decision.counterexample.point
            candidates.append((f"{base}_printed_negation", lambda s=statement, p=point: _negation_lemma(s, p)))
        elif str(decision.verdict) == "proved":
            candidates.append((f"{base}_printed", lambda s=statement: _identity_lemma(s)))
        if claim.correction is not None:
            corrected = claim.correction.statement
            candidates.append((f"{base}_correction_printed", lambda s=corrected: _identity_lemma(s)))
        for name, build in candidates:
            try:
                text, script = build()
            except CannotPrint as error:
                yield claim.id, name, "", f"cannot print: {error}"
                continue
            yield claim.id, name, text, script


def render(verify: Verify | None = None) -> str:
    """The text of Printed.v; with `verify`, lemmas the kernel rejects become `NOT PRINTED` notes."""
    out = [
        "(* Generated by `python -m proofs.claims._coq_printed --check`; do not edit. Each lemma is a ledger\n"
        "   statement printed from its SymPy form by proofs/kernel/_coq_print.py (ISSUE #10 item 3). *)\n",
        HEADER,
    ]
    for claim_id, name, text, script in printed_lemmas():
        if not text:
            out.append(f"(* NOT PRINTED {name} ({claim_id}): {script} *)\n")
            continue
        reason = verify(name, text, script) if verify is not None else None
        if reason is not None:
            out.append(f"(* NOT PRINTED {name} ({claim_id}): the kernel rejected the generic script: {reason} *)\n")
            continue
        out.append(f"(* {claim_id} *)\n" + lemma(name, text, script))
    return "\n".join(out)


def _kernel_verify(name: str, text: str, script: str) -> str | None:
    from ..kernel._kernel import check_statement

    result = check_statement(text, script, timeout=300, name=name)
    return None if result.checked else " ".join(result.message.replace("*)", "* )").split())[:200]


def main(argv: list[str] | None = None) -> int:
    """Print Printed.v to stdout (`--check`: keep only the lemmas coqc accepts)."""
    parser = argparse.ArgumentParser(prog="python -m proofs.claims._coq_printed", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check each lemma with coqc; leave out rejected ones")
    args = parser.parse_args(argv)
    sys.stdout.write(render(_kernel_verify if args.check else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
