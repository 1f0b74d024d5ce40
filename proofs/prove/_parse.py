"""Parse a user identity `"LHS == RHS"` for `ropecheck prove` — a grammar, never an evaluator.

`ropecheck.proofs.prove._grammar` turns the text into a parse tree (pure Python); this module builds SymPy objects
from that
tree through a fixed whitelist, by calling SymPy constructors directly: no `eval`, no `sympify`, no `S()`,
no `parse_expr` ever sees user text. What is admitted:

- numbers: integers and decimals, read **exactly** (`0.1` is `1/10`, `1e-20` is `1/10**20`); no floats;
- SymPy's constants `GoldenRatio`, `TribonacciConstant`, `EulerGamma`, `Catalan` (its other constant names —
  `zoo`, `nan`, `Infinity`, `Exp1`, `ImaginaryUnit`… — are refused with what to write instead);
- symbol names (ASCII letters, digits, `_`, not starting with `_`); undeclared symbols are complex, and
  `real` / `positive` / `integer` declare domains (assumptions come only from these, never from the text);
- `+ - * / ** ^ ( ) ,` and one `==`; constants `pi`, `E`, `I` (`oo` is refused: identities are decided
  between finite values, so `oo**0`, `0*oo` and `cos(oo)*0` are all bad input);
- the functions in `FUNCTIONS` (trigonometric, hyperbolic and their inverses, `exp`, `log`, `sqrt`, `Abs`,
  `sign`, `floor`, `ceiling`, `frac`, `Min`, `Max`, `re`, `im`, `conjugate`), `Sum(body, (k, a, b))` with
  integer bounds (expanded term by term) and `Matrix([[a, b], [c, d]])` literals.


Limits (a one-line `BadStatement`): those of `ropecheck.proofs.prove._grammar` (length, nesting, literal digits),
exponents
of at most `MAX_EXPONENT` in magnitude, exact numbers computed from powers of at most `MAX_NUMBER_BITS` bits,
`MAX_SUM_TERMS` expanded summand nodes, matrices of at most `MAX_MATRIX` rows and columns.

Every denominator the text divides by (`a/b`, `b**-n`, the cosine under `tan`, the argument of `log`) is
recorded *before* SymPy simplifies anything, so `sin(2*x)/sin(x)` keeps its condition `sin(x) ≠ 0`.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import sympy as sp

from ..engine._functions import Ceiling, Floor, Frac, Max, Min, Sign
from ._grammar import MAX_DEPTH, GrammarError, Node, parse_tree

MAX_EXPONENT = 10**6  # |numerator| and denominator of a numeric exponent
MAX_NUMBER_BITS = 4096  # exact numbers computed by powers (10**5000 is refused)
MAX_SUM_TERMS = 20_000  # summand parse-tree nodes built when expanding every Sum
MAX_MATRIX = 10  # rows and columns of a Matrix literal

Value = sp.Expr | sp.ImmutableMatrix


class BadStatement(ValueError):
    """The text is not a decidable equation (the message is one line)."""


@dataclass(frozen=True)
class ParsedIdentity:
    """A parsed `lhs == rhs` with its symbols, the denominators it divides by, and hints for the user."""

    lhs: Value
    rhs: Value
    symbols: tuple[sp.Symbol, ...]
    denominators: tuple[sp.Expr, ...] = ()
    hints: tuple[str, ...] = ()


def _denominator_of(function: Callable[[sp.Expr], sp.Expr]) -> Callable[[sp.Expr], sp.Expr]:
    return lambda u: function(u)


# name → (SymPy constructor, number of arguments, what must not vanish for it to be defined)
FUNCTIONS: dict[str, tuple[Callable[..., sp.Expr], int, Callable[[sp.Expr], sp.Expr] | None]] = {
    "sin": (sp.sin, 1, None),
    "cos": (sp.cos, 1, None),
    "tan": (sp.tan, 1, _denominator_of(sp.cos)),
    "cot": (sp.cot, 1, _denominator_of(sp.sin)),
    "sec": (sp.sec, 1, _denominator_of(sp.cos)),
    "csc": (sp.csc, 1, _denominator_of(sp.sin)),
    "asin": (sp.asin, 1, None),
    "acos": (sp.acos, 1, None),
    "atan": (sp.atan, 1, None),
    "acot": (sp.acot, 1, None),
    "sinh": (sp.sinh, 1, None),
    "cosh": (sp.cosh, 1, None),
    "tanh": (sp.tanh, 1, _denominator_of(sp.cosh)),
    "coth": (sp.coth, 1, _denominator_of(sp.sinh)),
    "sech": (sp.sech, 1, _denominator_of(sp.cosh)),
    "csch": (sp.csch, 1, _denominator_of(sp.sinh)),
    "asinh": (sp.asinh, 1, None),
    "acosh": (sp.acosh, 1, None),
    "atanh": (sp.atanh, 1, None),
    "exp": (sp.exp, 1, None),
    "log": (sp.log, 1, lambda u: u),
    "sqrt": (sp.sqrt, 1, None),
    "Abs": (sp.Abs, 1, None),
    "re": (sp.re, 1, None),
    "im": (sp.im, 1, None),
    "conjugate": (sp.conjugate, 1, None),
    "sign": (Sign, 1, None),
    "floor": (Floor, 1, None),
    "ceiling": (Ceiling, 1, None),
    "frac": (Frac, 1, None),
    "Min": (Min, -2, None),  # −2: two or more
    "Max": (Max, -2, None),
}
CONSTANTS: dict[str, sp.Expr] = {
    "pi": sp.pi, "E": sp.E, "I": sp.I, "oo": sp.oo,
    # by their closed forms, so that the exact procedures see algebraic numbers
    "GoldenRatio": sp.GoldenRatio.expand(func=True),
    "TribonacciConstant": sp.TribonacciConstant.expand(func=True),
    "EulerGamma": sp.EulerGamma,
    "Catalan": sp.Catalan,
}
# SymPy's other names for constants: refused with what to write (a silent variable named GoldenRatio or zoo
# would make `GoldenRatio**2 == GoldenRatio + 1` "refuted" at GoldenRatio = 1).
_REFUSED_CONSTANTS = {
    "zoo": "zoo (complex infinity) is not a number prove accepts",
    "nan": "nan is not a number prove accepts",
    "NaN": "NaN is not a number prove accepts",
    "Infinity": "Infinity is not a number prove accepts (identities are between finite values)",
    "NegativeInfinity": "NegativeInfinity is not a number prove accepts (identities are between finite values)",
    "ComplexInfinity": "ComplexInfinity is not a number prove accepts",
    "Exp1": "Exp1 is SymPy's class for Euler's number: write E",
    "ImaginaryUnit": "ImaginaryUnit is SymPy's class for the imaginary unit: write I",
}
_SPECIAL = ("Sum", "Matrix")
_FUNCTION_HINTS = {
    "ln": "log",
    "abs": "Abs",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "ceil": "ceiling",
    "sgn": "sign",
    "min": "Min",
    "max": "Max",
    "sum": "Sum",
    "matrix": "Matrix",
    "conj": "conjugate",
    "log10": "log(x)/log(10)",
    "log2": "log(x)/log(2)",
}
_NAME_HINTS = {
    "i": "the symbol i is a variable here; did you mean I (the imaginary unit)?",
    "e": "the symbol e is a variable here; did you mean E (Euler's number)?",
    "inf": "the symbol inf is a variable here (infinity, oo, is not a number prove accepts)",
    "infinity": "the symbol infinity is a variable here (infinity, oo, is not a number prove accepts)",
    "Pi": "the symbol Pi is a variable here; did you mean pi?",
    "PI": "the symbol PI is a variable here; did you mean pi?",
    "phi": "the symbol phi is a variable here; for the golden ratio write GoldenRatio",
    "gamma": "the symbol gamma is a variable here; for the Euler–Mascheroni constant write EulerGamma",
}
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _declared(real: Iterable[str], positive: Iterable[str], integer: Iterable[str]) -> dict[str, sp.Symbol]:
    """The declared symbols; a name declared twice must mean one domain (`--positive n --integer n`: a positive
    integer), never two (`--real x --integer x` is refused rather than one flag silently winning)."""
    names: dict[str, dict[str, bool]] = {}
    for group, assumption in ((real, "real"), (positive, "positive"), (integer, "integer")):
        for entry in group:
            for name in (part.strip() for part in entry.split(",")):
                if not name:
                    continue
                if not _NAME.fullmatch(name):
                    raise BadStatement(f"not a symbol name: {name[:40]!r} (names are ASCII letters, digits, _)")
                if name in FUNCTIONS or name in CONSTANTS or name in _SPECIAL or name in _REFUSED_CONSTANTS:
                    raise BadStatement(f"{name} is a function or constant, not a symbol name")
                flags = names.setdefault(name, {})
                if flags and "real" in {*flags, assumption} and assumption not in flags:
                    other = next(iter(flags))
                    raise BadStatement(f"{name} is declared both --{other} and --{assumption}: declare each symbol "
                                       "once (--positive with --integer means a positive integer)")
                flags[assumption] = True
    return {name: sp.Symbol(name, **flags) for name, flags in names.items()}


@dataclass
class _Builder:
    symbols: dict[str, sp.Symbol]
    denominators: list[sp.Expr] = field(default_factory=list)
    hints: list[str] = field(default_factory=list)
    sum_budget: int = MAX_SUM_TERMS

    # ------------------------------------------------------------------ dispatch
    def build(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        method = getattr(self, f"_build_{node.kind}")
        return method(node, bound)

    def scalar(self, node: Node, bound: dict[str, sp.Integer], what: str) -> sp.Expr:
        value = self.build(node, bound)
        if isinstance(value, sp.MatrixBase):
            raise BadStatement(f"{what} must be a scalar, not a matrix (column {node.pos + 1})")
        return value

    # ------------------------------------------------------------------ leaves
    def _build_number(self, node: Node, bound: dict[str, sp.Integer]) -> sp.Expr:
        mantissa, _, exponent = node.text.lower().partition("e")
        whole, _, fraction = mantissa.partition(".")
        numerator = int((whole or "0") + fraction)
        scale = int(exponent or "0") - len(fraction)
        if scale >= 0:
            return sp.Integer(numerator * 10**scale)
        return sp.Rational(numerator, 10**-scale)

    def _build_name(self, node: Node, bound: dict[str, sp.Integer]) -> sp.Expr:
        name = node.text
        if name in bound:
            return bound[name]
        if name == "oo":
            raise BadStatement(
                f"oo (infinity) is not a number: identities are decided between finite values (column {node.pos + 1})"
            )
        if name in CONSTANTS:
            return CONSTANTS[name]
        if name in _REFUSED_CONSTANTS:
            raise BadStatement(f"{_REFUSED_CONSTANTS[name]} (column {node.pos + 1})")
        if name in FUNCTIONS or name in _SPECIAL:
            raise BadStatement(f"{name} is a function: write {name}(...) (column {node.pos + 1})")
        if name in _NAME_HINTS and _NAME_HINTS[name] not in self.hints:
            self.hints.append(_NAME_HINTS[name])
        if name not in self.symbols:
            self.symbols[name] = sp.Symbol(name)
        return self.symbols[name]

    def _build_list(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        raise BadStatement(f"a bracketed list is only allowed inside Matrix(...) (column {node.pos + 1})")

    def _build_tuple(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        raise BadStatement(f"a tuple is only allowed as the range of Sum(...) (column {node.pos + 1})")

    # ------------------------------------------------------------------ operators
    def _build_neg(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        return -self.build(node.children[0], bound)

    def _build_add(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        terms = [self.build(child, bound) for child in node.children]
        signed = [t if op == "+" else -t for t, op in zip(terms, node.ops, strict=True)]
        matrices = [isinstance(t, sp.MatrixBase) for t in signed]
        if all(matrices):
            shapes = {t.shape for t in signed}
            if len(shapes) != 1:
                raise BadStatement(f"cannot add matrices of shapes {sorted(shapes)} (column {node.pos + 1})")
            total = signed[0]
            for t in signed[1:]:
                total = total + t
            return sp.ImmutableMatrix(total)
        if any(matrices):
            raise BadStatement(f"cannot add a matrix and a scalar (column {node.pos + 1})")
        return sp.Add(*signed)

    def _build_mul(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        result: Value = sp.Integer(1)
        for child, op in zip(node.children, node.ops, strict=True):
            value = self.build(child, bound)
            if op == "/":
                if isinstance(value, sp.MatrixBase):
                    raise BadStatement(f"cannot divide by a matrix (column {child.pos + 1})")
                if value == 0:
                    raise BadStatement(f"division by zero (column {child.pos + 1})")
                self._record(value)
                value = sp.Pow(value, -1)
            result = self._product(result, value, child)
        return result

    def _product(self, a: Value, b: Value, child: Node) -> Value:
        if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase):
            if a.shape[1] != b.shape[0]:
                raise BadStatement(f"matrix shapes {a.shape} and {b.shape} do not multiply (column {child.pos + 1})")
            return sp.ImmutableMatrix(a * b)
        if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
            return sp.ImmutableMatrix(a * b)
        return sp.Mul(a, b)

    def _build_pow(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        base = self.build(node.children[0], bound)
        exponent = self.scalar(node.children[1], bound, "an exponent")
        if isinstance(exponent, sp.Rational) and (abs(exponent.p) > MAX_EXPONENT or exponent.q > MAX_EXPONENT):
            raise BadStatement(f"exponent too large at column {node.pos + 1} (limit {MAX_EXPONENT})")
        if isinstance(base, sp.MatrixBase):
            if not (isinstance(exponent, sp.Integer) and 0 <= exponent <= 64 and base.is_square):
                raise BadStatement(f"a matrix power needs a square matrix and an integer 0..64 (column {node.pos + 1})")
            return sp.ImmutableMatrix(base ** int(exponent))
        if base.is_number and exponent.is_number:
            self._check_number_power(base, exponent, node)
        if exponent.is_number and exponent.is_extended_negative:
            if base == 0:
                raise BadStatement(f"division by zero (0 to a negative power, column {node.pos + 1})")
            self._record(base)
        return sp.Pow(base, exponent)

    @staticmethod
    def _check_number_power(base: sp.Expr, exponent: sp.Expr, node: Node) -> None:
        """Refuse a numeric power whose exact value would exceed `MAX_NUMBER_BITS` (before computing it)."""
        sizes = [math.log2(max(abs(int(r.p)), int(r.q))) for r in base.atoms(sp.Rational) if r != 0]
        magnitudes = [abs(r) for r in exponent.atoms(sp.Rational)] or [sp.Integer(1)]
        if max([0.0, *sizes]) * float(max(magnitudes)) > MAX_NUMBER_BITS:
            raise BadStatement(f"number too large at column {node.pos + 1} (limit 2**{MAX_NUMBER_BITS})")

    def _record(self, denominator: sp.Expr) -> None:
        if not (isinstance(denominator, sp.Rational) and denominator != 0) and denominator not in self.denominators:
            self.denominators.append(denominator)

    # ------------------------------------------------------------------ calls
    def _build_call(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        name = node.text
        if name == "Sum":
            return self._build_sum(node, bound)
        if name == "Matrix":
            return self._build_matrix(node, bound)
        if name not in FUNCTIONS:
            if name in CONSTANTS or name in bound or name in self.symbols or len(name) == 1:
                raise BadStatement(f"{name} is not a function (column {node.pos + 1}); for a product, write {name}*(…)")
            close = difflib.get_close_matches(name, [*FUNCTIONS, *_SPECIAL], n=1, cutoff=0.8)
            suggestion = _FUNCTION_HINTS.get(name) or (close[0] if close else None)
            hint = f"; did you mean {suggestion}?" if suggestion else ""
            raise BadStatement(f"unknown function: {name} (column {node.pos + 1}){hint}")
        constructor, arity, denominator = FUNCTIONS[name]
        count = len(node.children)
        if (arity > 0 and count != arity) or (arity < 0 and count < -arity):
            wanted = f"{arity}" if arity > 0 else f"at least {-arity}"
            raise BadStatement(f"{name} takes {wanted} argument(s), got {count} (column {node.pos + 1})")
        args = [self.scalar(child, bound, f"the argument of {name}") for child in node.children]
        if denominator is not None:
            self._record(denominator(args[0]))
        return constructor(*args)

    def _build_sum(self, node: Node, bound: dict[str, sp.Integer]) -> Value:
        if len(node.children) != 2 or node.children[1].kind != "tuple" or len(node.children[1].children) != 3:
            raise BadStatement(f"write Sum(body, (k, a, b)) with integer bounds a, b (column {node.pos + 1})")
        body, (variable, low, high) = node.children[0], node.children[1].children
        if variable.kind != "name" or variable.text in CONSTANTS or variable.text in FUNCTIONS:
            raise BadStatement(f"the summation index must be a name (column {variable.pos + 1})")
        a = self.scalar(low, bound, "a Sum bound")
        b = self.scalar(high, bound, "a Sum bound")
        if not (isinstance(a, sp.Integer) and isinstance(b, sp.Integer)):
            raise BadStatement(f"Sum bounds must be integers, got {a} and {b} (column {node.pos + 1})")
        count = max(0, int(b) - int(a) + 1)
        self.sum_budget -= count * _size(body)
        if self.sum_budget < 0:
            raise BadStatement(f"Sum too long to expand (limit {MAX_SUM_TERMS} summand nodes in all)")
        terms = [self.build(body, {**bound, variable.text: sp.Integer(k)}) for k in range(int(a), int(b) + 1)]
        if terms and isinstance(terms[0], sp.MatrixBase):
            return _matrix_sum(terms, node)
        if any(isinstance(t, sp.MatrixBase) for t in terms):
            raise BadStatement(f"a Sum mixes matrices and scalars (column {node.pos + 1})")
        return sp.Add(*terms)

    def _build_matrix(self, node: Node, bound: dict[str, sp.Integer]) -> sp.ImmutableMatrix:
        usage = f"write Matrix([[a, b], [c, d]]) or Matrix([a, b]) (column {node.pos + 1})"
        if len(node.children) != 1 or node.children[0].kind != "list" or not node.children[0].children:
            raise BadStatement(usage)
        rows_nodes = node.children[0].children
        if all(r.kind == "list" for r in rows_nodes):
            rows = [[self.scalar(c, bound, "a matrix entry") for c in r.children] for r in rows_nodes]
        elif any(r.kind == "list" for r in rows_nodes):
            raise BadStatement(usage)
        else:
            rows = [[self.scalar(c, bound, "a matrix entry")] for c in rows_nodes]
        widths = {len(r) for r in rows}
        if len(widths) != 1 or 0 in widths:
            raise BadStatement(f"matrix rows have different lengths (column {node.pos + 1})")
        if len(rows) > MAX_MATRIX or max(widths) > MAX_MATRIX:
            raise BadStatement(f"matrix larger than {MAX_MATRIX}×{MAX_MATRIX} (column {node.pos + 1})")
        return sp.ImmutableMatrix(rows)


def _matrix_sum(terms: list[Value], node: Node) -> sp.ImmutableMatrix:
    if not all(isinstance(t, sp.MatrixBase) and t.shape == terms[0].shape for t in terms):
        raise BadStatement(f"a Sum mixes matrices of different shapes or scalars (column {node.pos + 1})")
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return sp.ImmutableMatrix(total)


def _size(node: Node) -> int:
    """Number of nodes (iterative: the tree may be wide)."""
    count, stack = 0, [node]
    while stack:
        current = stack.pop()
        count += 1
        stack.extend(current.children)
    return count


def parse_identity(
    text: str, real: Iterable[str] = (), positive: Iterable[str] = (), integer: Iterable[str] = ()
) -> ParsedIdentity:
    """Parse `"LHS == RHS"` into SymPy expressions (or matrices) without evaluating any user text.

    **Arguments:**

    - `text`: the equation in the grammar of `proofs.prove._grammar` (`^` is accepted for powers; decimals are exact).
    - `real`, `positive`, `integer`: names of symbols with that domain (each entry may list several names
      separated by commas); all other symbols are complex.

    **Returns:** a `ParsedIdentity` (with the denominators the text divides by, and hints such as "did you
    mean I?" for a symbol named `i`).

    Raises `BadStatement` (one line) for text outside the grammar, beyond a limit, or undefined as written.
    """
    try:
        lhs_tree, rhs_tree = parse_tree(text)
    except GrammarError as error:
        raise BadStatement(str(error)) from None
    builder = _Builder(_declared(real, positive, integer))
    try:
        lhs = builder.build(lhs_tree, {})
        rhs = builder.build(rhs_tree, {})
    except RecursionError:  # pragma: no cover - MAX_DEPTH keeps the trees shallow
        raise BadStatement(f"statement nested too deeply (limit {MAX_DEPTH} levels)") from None
    if isinstance(lhs, sp.MatrixBase) != isinstance(rhs, sp.MatrixBase):
        raise BadStatement("one side is a matrix and the other is not")
    if isinstance(lhs, sp.MatrixBase) and lhs.shape != rhs.shape:
        raise BadStatement(f"matrix shapes differ: {lhs.shape} vs {rhs.shape}")
    for side in (lhs, rhs):
        if side.has(sp.zoo, sp.nan):
            raise BadStatement("the statement is undefined as written (a division by zero or log(0))")
    free: set[sp.Symbol] = set()
    for side in (lhs, rhs):
        free |= side.free_symbols
    symbols = tuple(sorted(free, key=str))
    return ParsedIdentity(lhs, rhs, symbols, tuple(builder.denominators), tuple(builder.hints))
