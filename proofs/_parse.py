"""Parse a user identity `"LHS == RHS"` for `ropecheck prove`.

Undeclared symbols are complex (SymPy's default); `--real`, `--positive` and `--integer` declare domains.
Anything that is not a single equation of known SymPy functions is rejected with `BadStatement`, a one-line
message suitable for the command line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from tokenize import TokenError

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.parsing.sympy_parser import (
    convert_xor,
    parse_expr,
    standard_transformations,
)

_FORBIDDEN = re.compile(r"__|\blambda\b|\bimport\b|;|\bexec\b|\beval\b|\bopen\b|\bgetattr\b|\bcompile\b")
_TRANSFORMATIONS = (*standard_transformations, convert_xor)


class BadStatement(ValueError):
    """The text is not a decidable equation (the message is one line)."""


@dataclass(frozen=True)
class ParsedIdentity:
    """A parsed `lhs == rhs` with the symbols it uses."""

    lhs: sp.Expr
    rhs: sp.Expr
    symbols: tuple[sp.Symbol, ...]


def _declared(real: Iterable[str], positive: Iterable[str], integer: Iterable[str]) -> dict[str, sp.Symbol]:
    names: dict[str, dict[str, bool]] = {}
    for group, assumption in ((real, "real"), (positive, "positive"), (integer, "integer")):
        for name in group:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise BadStatement(f"not a symbol name: {name!r}")
            names.setdefault(name, {})[assumption] = True
    return {name: sp.Symbol(name, **flags) for name, flags in names.items()}


def parse_identity(
    text: str, real: Iterable[str] = (), positive: Iterable[str] = (), integer: Iterable[str] = ()
) -> ParsedIdentity:
    """Parse `"LHS == RHS"` into SymPy expressions.

    **Arguments:**

    - `text`: the equation, in SymPy syntax (`^` is accepted for powers; `I`, `pi`, `E` are constants).
    - `real`, `positive`, `integer`: names of symbols with that domain; all others are complex.

    **Returns:** a `ParsedIdentity`.

    Raises `BadStatement` for text that is not exactly one equation, does not parse, or uses a function SymPy
    does not know.
    """
    if _FORBIDDEN.search(text):
        raise BadStatement("the statement contains a forbidden construct")
    parts = text.split("==")
    if len(parts) != 2:
        raise BadStatement("not an equation: write exactly one 'LHS == RHS'")
    local = _declared(real, positive, integer)
    sides = []
    for side_text in parts:
        if not side_text.strip():
            raise BadStatement("an equation side is empty")
        try:
            expr = parse_expr(side_text, local_dict=dict(local), transformations=_TRANSFORMATIONS, evaluate=True)
        except (SyntaxError, TypeError, ValueError, AttributeError, sp.SympifyError, TokenError) as error:
            raise BadStatement(f"cannot parse {side_text.strip()!r}: {type(error).__name__}") from None
        if not isinstance(expr, sp.Expr):
            raise BadStatement(f"not an expression: {side_text.strip()!r}")
        unknown = sorted({type(f).__name__ for f in expr.atoms(AppliedUndef)})
        if unknown:
            raise BadStatement(f"unknown function: {', '.join(unknown)}")
        sides.append(expr)
    symbols = tuple(sorted(sides[0].free_symbols | sides[1].free_symbols, key=str))
    return ParsedIdentity(sides[0], sides[1], symbols)  # type: ignore[arg-type]
