"""Perturbations of ledger statements for meta-tests: a flipped sign, a dropped term, a wrong index.

Each perturbation rewrites one `Identity` (or one `Witness`) inside a claim's statement tree and returns the
whole perturbed tree, so the engine (and the numeric mirrors) can be shown to reject it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import sympy as sp
from ropecheck.proofs.engine._statements import (
    AllOf,
    BlockInstances,
    Derivation,
    Identity,
    Induction,
    Refutation,
    Witness,
)

Rewrite = Callable[[sp.Basic], sp.Basic | None]


def _first_add(expr: sp.Basic) -> sp.Add | None:
    """The first sum of two or more terms, outside summation limits."""
    limits = {node for s in expr.atoms(sp.Sum) for limit in s.limits for node in sp.preorder_traversal(limit)}
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Add) and len(node.args) >= 2 and node not in limits:
            return node
    return None


def _on_scalar_or_entry(rewrite: Callable[[sp.Expr], sp.Expr | None]) -> Rewrite:
    def apply(expr: sp.Basic) -> sp.Basic | None:
        if isinstance(expr, sp.MatrixBase):
            for index, entry in enumerate(expr):
                changed = rewrite(entry)
                if changed is not None:
                    matrix = sp.Matrix(expr)
                    matrix[index] = changed
                    return matrix
            return None
        return rewrite(sp.sympify(expr))

    return apply


def _flip_sign(expr: sp.Expr) -> sp.Expr | None:
    add = _first_add(expr)
    if add is not None:
        first, *rest = add.args
        return expr.xreplace({add: sp.Add(-first, *rest)})
    if expr != 0:
        return -expr
    return None


def _drop_term(expr: sp.Expr) -> sp.Expr | None:
    add = _first_add(expr)
    if add is None:
        return None
    return expr.xreplace({add: sp.Add(*add.args[:-1])})


def _wrong_index(expr: sp.Basic) -> sp.Basic | None:
    """Off by one: the first integer symbol (else the first symbol) shifted by 1, everywhere in `expr`."""
    bound = {v for s in expr.atoms(sp.Sum) for v in s.variables}
    symbols = sorted(expr.free_symbols - bound, key=lambda s: (not s.is_integer, str(s)))
    if not symbols:
        return None
    return expr.xreplace({symbols[0]: symbols[0] + 1})


PERTURBATIONS: dict[str, Rewrite] = {
    "flipped sign": _on_scalar_or_entry(_flip_sign),
    "dropped term": _on_scalar_or_entry(_drop_term),
    "wrong index": _wrong_index,
}


def _rewrite_first(statement: object, rewrite: Callable[[object], object | None]) -> object | None:
    """Rewrite the first node `rewrite` accepts, depth-first; return the new tree or None."""
    changed = rewrite(statement)
    if changed is not None:
        return changed
    if isinstance(statement, AllOf | Derivation):
        field = "parts" if isinstance(statement, AllOf) else "steps"
        children = list(getattr(statement, field))
        for index, child in enumerate(children):
            new_child = _rewrite_first(child, rewrite)
            if new_child is not None:
                children[index] = new_child
                return dataclasses.replace(statement, **{field: children})
        return None
    if isinstance(statement, Induction):
        for field in ("step", "base"):
            new_child = _rewrite_first(getattr(statement, field), rewrite)
            if new_child is not None:
                return dataclasses.replace(statement, **{field: new_child})
        return None
    if isinstance(statement, Refutation):
        new_child = _rewrite_first(statement.against, rewrite)
        return None if new_child is None else dataclasses.replace(statement, against=new_child)
    return None


def perturbed_statements(statement: object) -> Iterator[tuple[str, object]]:
    """Yield `(label, perturbed statement)` for each perturbation that applies to the statement."""
    for label, perturb in PERTURBATIONS.items():

        def rewrite(node: object, perturb: Rewrite = perturb) -> object | None:
            if isinstance(node, Identity):
                try:
                    new_rhs = perturb(node.rhs)
                except (ValueError, TypeError):  # e.g. a rewrite that would make invalid summation limits
                    return None
                if new_rhs is not None and new_rhs != node.rhs:
                    return dataclasses.replace(node, rhs=new_rhs, hints=())
            if isinstance(node, Witness):
                # "The witness shows nothing": the same expression minus its own value.
                return dataclasses.replace(node, expr=node.expr - node.value())
            if isinstance(node, BlockInstances):
                build = node.build

                def broken(t: sp.Expr, build: Callable = build) -> tuple[sp.Basic, sp.Basic]:
                    lhs, rhs = build(t)
                    return lhs, perturb(rhs) if perturb(rhs) is not None else rhs

                return dataclasses.replace(node, build=broken)
            return None

        changed = _rewrite_first(statement, rewrite)
        if changed is not None:
            yield label, changed
