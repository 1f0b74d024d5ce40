"""Helpers for the mirror tests: what each claim's mirror is expected to show, perturbed comparisons (statement
level) and perturbed compiled programs (one side's program changed: a sign flip, a dropped term, an off-by-one
position), which show that the mirror itself, not only the statement, can fail.

`FINDINGS` lists every (claim, format) whose mark is `~` or `?` (see `numeric.mirrors._evidence`). A finding that
disappears, a mark that changes, or a disagreement not listed here fails the per-claim test.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence

import mpmath
import sympy as sp
from ropecheck.numeric.mirrors import Comparison, Node, NotEvaluable, Program, statement_comparisons

from ._perturb import PERTURBATIONS

#: Every (claim, format) whose mark is not ✓ (nor – for an untested claim), with the mark it must show:
#: `~` the effect is below u·scale (the format cannot resolve it), `?` the bound is too loose to decide (a defect
#: of the model, listed in the docs): mostly bfloat16 refutations whose discrepancy is beyond rounding but less
#: than 100× the bound.
FINDINGS: dict[tuple[str, str], str] = {
    ("ATT-PE-BREAKS-EQUIVARIANCE", "bfloat16"): "~",
    ("SPE-SHIFT-ROTATION-004", "bfloat16"): "?",
    ("SPE-LAST-TERM-RELATIVE", "bfloat16"): "?",
    ("SPE-DOT-NONMONOTONE", "float16"): "?",
    ("SPE-DOT-NONMONOTONE", "bfloat16"): "~",
    # The prose claim refuted at θ₀ = 1: a discrepancy of 0.5–1 against a bfloat16 bound of 0.016–0.044,
    # beyond rounding but under the 100× a refutation mark needs.
    ("ATT-CAUSAL-ROW", "bfloat16"): "?",
    ("ROPE-KV-COS-ONLY", "bfloat16"): "?",
    ("ROPE-SCORE-SINE-TERM-003", "bfloat16"): "?",
    ("ROPE-DECAY-TO-ZERO", "bfloat16"): "?",
    ("ROPE-DECAY-MONOTONE", "float16"): "?",
    ("ROPE-DECAY-MONOTONE", "bfloat16"): "~",
    ("ROPE-LINEAR-ATTENTION-SEED", "float16"): "?",
    ("ROPE-LINEAR-ATTENTION-SEED", "bfloat16"): "?",
}


def perturbed_comparisons(statement: object) -> Iterator[tuple[str, Comparison]]:
    """For each perturbation of `tests._perturb` (flipped sign, dropped term, wrong index): the first evaluable
    `holds` comparison of the statement with its rhs perturbed, and every witness with its own value subtracted
    ("the witness shows nothing"). Works on the comparisons, so symbolic lemmas the mirror skips do not hide
    the perturbation."""
    comparisons = statement_comparisons(statement, "proved", None)
    if not any(c.kind == "holds" for c in comparisons):
        # Every identity has the same expression on both sides (not numerically tested): perturb one identity's
        # rhs in the statement tree; the perturbed identity is a comparison the mirror must reject.
        yield from _perturbed_identities(statement)
    for label, perturb in PERTURBATIONS.items():
        for comparison in comparisons:
            if comparison.kind != "holds":
                continue
            lhs, rhs = comparison.exprs
            changed = perturb(rhs)
            if changed is None or changed == rhs:
                continue
            perturbed = dataclasses.replace(comparison, name=f"{comparison.name} ({label})", exprs=(lhs, changed))
            try:
                perturbed.program  # noqa: B018 - compiling is the check
            except NotEvaluable:
                continue
            yield label, perturbed
            break
    for comparison in comparisons:
        if comparison.kind == "witness":
            (expr,) = comparison.exprs
            value = sp.sympify(expr).xreplace(
                {sp.Symbol(k): sp.sympify(v) for k, v in (comparison.point or {}).items()}
            )
            yield "witness minus its value", dataclasses.replace(comparison, exprs=(expr - value,))


def _identities(statement: object) -> Iterator[object]:
    pending = [statement]
    while pending:
        node = pending.pop(0)
        if hasattr(node, "lhs") and hasattr(node, "rhs"):
            yield node
        for field in ("parts", "steps"):
            pending += list(getattr(node, field, None) or [])
        for field in ("base", "step", "against"):
            child = getattr(node, field, None)
            if child is not None and not isinstance(child, sp.Basic):
                pending.append(child)


def _perturbed_identities(statement: object) -> Iterator[tuple[str, Comparison]]:
    """Per perturbation, the first identity of the tree whose perturbed form the mirror can evaluate."""
    for label, perturb in PERTURBATIONS.items():
        for identity in _identities(statement):
            try:
                changed = perturb(identity.rhs)  # type: ignore[attr-defined]
            except (ValueError, TypeError):
                continue
            if changed is None or changed == identity.rhs:  # type: ignore[attr-defined]
                continue
            name = f"{getattr(identity, 'name', 'identity')} ({label})"
            comparison = Comparison(name, "holds", (identity.lhs, changed))  # type: ignore[attr-defined]
            try:
                comparison.program  # noqa: B018 - compiling is the check
            except (NotEvaluable, ValueError):
                continue
            yield label, comparison
            break


# ------------------------------------------------------------------------------ compiled-program perturbations
def _reachable(program: Program, outputs: Sequence[int]) -> set[int]:
    seen: set[int] = set()
    pending = list(outputs)
    while pending:
        index = pending.pop()
        if index not in seen:
            seen.add(index)
            pending += list(program.nodes[index].args)
    return seen


def _insert_after(program: Program, index: int, make: Callable[[int], list[Node]]) -> Program:
    """A program with nodes inserted right after `index`; users of `index` (other than the new nodes) now read
    the last inserted node. `make(index)` builds the new nodes, which may refer to `index` and to each other."""
    new_nodes = make(index)
    count = len(new_nodes)
    replacement = index + count

    def shift(i: int) -> int:
        return i + count if i > index else i

    nodes: list[Node] = []
    for position, node in enumerate(program.nodes):
        args = tuple(replacement if a == index else shift(a) for a in node.args)
        nodes.append(dataclasses.replace(node, args=args))
        if position == index:
            nodes += new_nodes
    outputs = tuple(replacement if o == index else shift(o) for o in program.outputs)
    return Program(tuple(nodes), outputs, program.symbols)


def _side(program: Program, side: int) -> list[int]:
    half = len(program.outputs) // 2
    return list(program.outputs[half:]) if side else list(program.outputs[:half])


def flip_sign(program: Program, side: int) -> Program | None:
    """The first output of one side multiplied by −1."""
    target = _side(program, side)[0]
    constant = (mpmath.mpf(-1), True)

    def make(index: int) -> list[Node]:
        complex_ = program.nodes[index].complex
        return [Node("const", (), constant, False), Node("mul", (index, index + 1), None, complex_)]

    return _insert_after(program, target, make)


def drop_term(program: Program, side: int) -> Program | None:
    """The last summand of the first sum (of two or more terms) on one side left out."""
    nodes = _reachable(program, _side(program, side))
    for index in sorted(nodes):
        node = program.nodes[index]
        if node.op == "add" and len(node.args) >= 2:
            changed = list(program.nodes)
            changed[index] = dataclasses.replace(node, args=node.args[:-1])
            return Program(tuple(changed), program.outputs, program.symbols)
    return None


def shift_position(program: Program, side: int) -> Program | None:
    """Off by one: the first integer input read by one side replaced by input + 1 (on that side only)."""
    nodes = _reachable(program, _side(program, side))
    for index in sorted(nodes):
        node = program.nodes[index]
        if node.op == "symbol" and node.data.is_integer:

            def make(i: int) -> list[Node]:
                return [Node("const", (), (mpmath.mpf(1), True), False), Node("add", (i, i + 1), None, False)]

            return _insert_after(program, index, make)
    return None


PROGRAM_PERTURBATIONS: dict[str, Callable[[Program, int], Program | None]] = {
    "sign flip": flip_sign,
    "dropped term": drop_term,
    "off-by-one position": shift_position,
}
