"""Replace closed `floor`, `ceiling`, `frac`, `sign`, `Abs`, `Min`, `Max` atoms by values certified by intervals.

`floor(v)` becomes the integer `n` only when an interval enclosure of `v` lies inside `[n, n + 1)` (for
`ceiling`, `(n − 1, n]`; for `sign`, strictly on one side of 0): a certified value, never a rounded one.
`Abs(v)` becomes `v` or `−v` when `v` is certified real and strictly positive or negative; `Max(a, b, …)`
becomes the argument certified strictly larger than all others (`Min`: smaller).
Atoms that cannot be certified at up to `MAX_BITS` bits are left alone (the statement then stays unknown).
"""

from __future__ import annotations

import sympy as sp
from mpmath import iv

from . import _box as bx
from ._box import NotEnclosable
from ._functions import Ceiling, Floor, Frac, Max, Min, Sign
from ._interval import certify_positive, enclose

MAX_BITS = 4096


def _certified_integer(atom: sp.Expr) -> sp.Integer | None:
    rule = {Floor: bx.floor_box, Ceiling: bx.ceiling_box, Sign: bx.sign_box}[type(atom)]
    saved = iv.prec
    try:
        bits = 64
        while bits <= MAX_BITS:
            iv.prec = bits
            try:
                box = rule(enclose(atom.args[0]))
            except NotEnclosable:
                bits *= 4
                continue
            if not box.is_real():
                return None
            lo, hi = bx.endpoints(box.re)
            if lo == hi and lo == int(lo):
                return sp.Integer(int(lo))
            return None
        return None
    finally:
        iv.prec = saved


def _certified_choice(atom: sp.Expr) -> sp.Expr | None:
    if isinstance(atom, sp.Abs):
        if certify_positive(atom.args[0]) is not None:
            return atom.args[0]
        if certify_positive(-atom.args[0]) is not None:
            return -atom.args[0]
        return None
    for candidate in atom.args:
        others = [a for a in atom.args if a != candidate]
        gaps = [(a - candidate) if isinstance(atom, Min) else (candidate - a) for a in others]
        if all(certify_positive(gap) is not None for gap in gaps):
            return candidate
    return None


def resolve_integer_valued(expr: sp.Expr) -> tuple[sp.Expr, bool]:
    """Substitute certified values for closed `floor`/`ceiling`/`frac`/`sign` atoms, innermost first.

    **Returns:** `(expression, changed)`.
    """
    changed = False
    while True:
        watched = (Floor, Ceiling, Frac, Sign, sp.Abs, Min, Max)
        closed = [a for a in expr.atoms(*watched) if not a.free_symbols and not any(b.has(*watched) for b in a.args)]
        values: dict[sp.Expr, sp.Expr] = {}
        for atom in closed:
            if isinstance(atom, sp.Abs | Min | Max):
                choice = _certified_choice(atom)
                if choice is not None:
                    values[atom] = choice
            elif isinstance(atom, Frac):
                floor = _certified_integer(Floor(atom.args[0]))
                if floor is not None:
                    values[atom] = atom.args[0] - floor
            else:
                value = _certified_integer(atom)
                if value is not None:
                    values[atom] = value
        if not values:
            return expr, changed
        expr = expr.xreplace(values)
        changed = True
