"""Replace closed `floor`, `ceiling`, `frac` and `sign` atoms by their values, certified by intervals.

`floor(v)` becomes the integer `n` only when an interval enclosure of `v` lies inside `[n, n + 1)` (for
`ceiling`, `(n − 1, n]`; for `sign`, strictly on one side of 0): a certified value, never a rounded one.
Atoms that cannot be certified at up to `MAX_BITS` bits are left alone (the statement then stays unknown).
"""

from __future__ import annotations

import sympy as sp
from mpmath import iv

from . import _box as bx
from ._box import NotEnclosable
from ._functions import Ceiling, Floor, Frac, Sign
from ._interval import enclose

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


def resolve_integer_valued(expr: sp.Expr) -> tuple[sp.Expr, bool]:
    """Substitute certified values for closed `floor`/`ceiling`/`frac`/`sign` atoms, innermost first.

    **Returns:** `(expression, changed)`.
    """
    changed = False
    while True:
        closed = [
            a
            for a in expr.atoms(Floor, Ceiling, Frac, Sign)
            if not a.free_symbols and not a.args[0].has(Floor, Ceiling, Frac, Sign)
        ]
        values: dict[sp.Expr, sp.Expr] = {}
        for atom in closed:
            if isinstance(atom, Frac):
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
