"""Print the statement the user typed to Coq, with every partial function's real domain as a hypothesis.

`ropecheck prove` must never let Coq check SymPy's simplified residue (`x/x == 1` became `1 = 1`). This printer
walks the grammar's own parse tree (`ropecheck.proofs.prove._grammar`: nothing is evaluated or simplified) and prints
each node as it stands. Coq's functions are total (`x / 0 = 0`, `sqrt` of a negative is 0, `ln` of a
non-positive is 0), so each partial function contributes a hypothesis of the theorem, and these hypotheses are
exactly the side conditions `prove` reports:

| user             | Coq                                   | hypothesis                        |
|------------------|---------------------------------------|-----------------------------------|
| `a/b`, `b**-n`   | `a / b`, `/ b ^ n`                    | `b <> 0`                          |
| `log(a)`         | `ln a`                                | `0 < a`                           |
| `sqrt(a)`, `a**(1/2)` | `sqrt a`                         | `0 <= a`                          |
| `a**n`, integer n, abs(n) > 256 | `powerRZ a (n)%Z` (binary, never a unary `nat`) | `a <> 0` |
| `a**b` (b not an integer constant) | `Rpower a b` (`powerRZ a b` for integer `b`) | `0 < a` (`a <> 0`) |
| `tan`, `sec` / `cot`, `csc` | `tan a`, `/ cos a` / `cos a / sin a`, `/ sin a` | `cos a <> 0` / `sin a <> 0` |
| `coth`, `csch`   | `cosh a / sinh a`, `/ sinh a`         | `sinh a <> 0`                     |
| `asin`, `acos`   | `asin a`, `acos a`                    | `-1 <= a <= 1`                    |

Total functions print directly: `sin cos atan exp sinh cosh tanh`, `sech` (as `/ cosh a`), `Abs` (`Rabs`),
`Min`/`Max` (`Rmin`/`Rmax`), `floor` (`IZR (Int_part a)`), `ceiling` (`- IZR (Int_part (- a))`), `frac`
(`frac_part a`), `sign` (a case split on `Rlt_dec`), `Sum` with integer bounds (expanded term by term).
Constants: `pi` is `PI`, `E` is `(exp 1)`, `GoldenRatio` is `((1 + sqrt 5) / 2)`, `TribonacciConstant` its
formula by cube roots. What Coq's reals cannot state raises `CannotState`: `EulerGamma`, `Catalan` (no
definition in Coq's standard library), undeclared (complex) symbols, `I`, `re`/`im`/`conjugate`,
`acot`, the inverse hyperbolic functions, matrices.

A hypothesis is left out only when exact arithmetic or a declared domain implies it (a non-zero rational, a
`--positive` symbol), never on SymPy's word: a false hypothesis left out would let Coq's total conventions in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import sympy as sp

from ..kernel._coq_print import binders, coq_name
from ._grammar import Node, parse_tree
from ._parse import CONSTANTS, BadStatement, _Builder, _declared

__all__ = ["CannotState", "CoqStatement", "Hypothesis", "state_identity", "unparse"]


class CannotState(ValueError):
    """The statement uses something Coq's real numbers cannot state faithfully (the message says what)."""


@dataclass(frozen=True)
class Hypothesis:
    """One domain condition of the theorem.

    **Arguments:**

    - `kind`: `"nonzero"`, `"positive"`, `"nonnegative"` or `"unit"` (in [−1, 1]).
    - `coq`: the Coq proposition (`x <> 0`).
    - `text`: the same condition in the user's syntax (`x != 0`).
    - `value`: the constrained expression as a SymPy expression (to look for a point where it holds).
    """

    kind: str
    coq: str
    text: str
    value: sp.Expr


@dataclass(frozen=True)
class CoqStatement:
    """The Coq theorem for a user statement: `forall binders, symbol hypotheses -> domain hypotheses -> lhs = rhs`.

    **Arguments:** `proposition` (the whole Coq text), `lhs` and `rhs` (Coq terms), `binders` (Coq binder
    groups), `symbol_hypotheses` (from `--positive`/`--integer`), `hypotheses` (the partial functions'
    domains, in order of appearance), `symbols`, `functions` (the user's function names that occur).
    """

    proposition: str
    lhs: str
    rhs: str
    binders: str
    symbol_hypotheses: tuple[str, ...]
    hypotheses: tuple[Hypothesis, ...]
    symbols: tuple[sp.Symbol, ...]
    functions: tuple[str, ...]

    @property
    def conditions(self) -> tuple[str, ...]:
        """The domain hypotheses in the user's syntax: the side conditions `prove` reports."""
        return tuple(h.text for h in self.hypotheses)


_DIRECT = {"sin": "sin", "cos": "cos", "atan": "atan", "exp": "exp", "sinh": "sinh", "cosh": "cosh",
           "tanh": "tanh", "Abs": "Rabs", "asin": "asin", "acos": "acos", "tan": "tan", "log": "ln", "sqrt": "sqrt"}
# function name → (kind of hypothesis, the constrained term as a Coq format, as a user-syntax format)
_DOMAIN = {
    "tan": ("nonzero", "cos {0}", "cos({0})"),
    "sec": ("nonzero", "cos {0}", "cos({0})"),
    "cot": ("nonzero", "sin {0}", "sin({0})"),
    "csc": ("nonzero", "sin {0}", "sin({0})"),
    "coth": ("nonzero", "sinh {0}", "sinh({0})"),
    "csch": ("nonzero", "sinh {0}", "sinh({0})"),
    "log": ("positive", "{0}", "{0}"),
    "sqrt": ("nonnegative", "{0}", "{0}"),
    "asin": ("unit", "{0}", "{0}"),
    "acos": ("unit", "{0}", "{0}"),
}
_DEFINED_AS = {
    "sec": "(/ cos {0})",
    "csc": "(/ sin {0})",
    "cot": "(cos {0} / sin {0})",
    "coth": "(cosh {0} / sinh {0})",
    "csch": "(/ sinh {0})",
    "sech": "(/ cosh {0})",
    "floor": "(IZR (Int_part {0}))",
    "ceiling": "(- IZR (Int_part (- {0})))",
    "frac": "(frac_part {0})",
    "sign": "(if Rlt_dec 0 {0} then 1 else if Rlt_dec {0} 0 then (-1) else 0)",
}
# Names the printed statement may use: a binder of that name would shadow them (and coq_name keeps them as is).
_COQ_NAMES = frozenset(
    {*_DIRECT.values(), "Rmin", "Rmax", "Rpower", "powerRZ", "IZR", "Int_part", "frac_part", "Rlt_dec", "if",
     "then", "else", "match", "with", "end", "as", "return", "fun", "Type", "Prop", "Set", "True", "False", "I",
     "not", "Qed", "Proof", "Lemma", "exists", "forall"}
)
# Constants Coq defines by a closed form (the golden ratio, the real root of x³ = x² + x + 1), and those it
# does not define at all (the statement is then "proved by the engine only" at best).
_CONSTANT_TERMS = {
    "GoldenRatio": "((1 + sqrt 5) / 2)",
    "TribonacciConstant": "((1 + Rpower (19 + 3 * sqrt 33) (1 / 3) + Rpower (19 - 3 * sqrt 33) (1 / 3)) / 3)",
}
_UNDEFINED_CONSTANTS = ("EulerGamma", "Catalan")
# Above this an integer exponent is printed `powerRZ b (n)%Z`: Coq reads `b ^ n` with a unary `nat` n, which
# overflows its stack (and warns) for n in the thousands.
MAX_NAT_EXPONENT = 256
_SYMPY_OF = {"cos": sp.cos, "sin": sp.sin, "sinh": sp.sinh}
_NOT_REAL = {
    "re": "re/im/conjugate are about complex numbers",
    "im": "re/im/conjugate are about complex numbers",
    "conjugate": "re/im/conjugate are about complex numbers",
    "acot": "acot's branch at 0 has no Coq counterpart here",
    "asinh": "the inverse hyperbolic functions are not in Coq's standard library",
    "acosh": "the inverse hyperbolic functions are not in Coq's standard library",
    "atanh": "the inverse hyperbolic functions are not in Coq's standard library",
    "Matrix": "matrix statements are not printed to Coq by prove",
}


def _number(value: sp.Rational) -> str:
    if value.is_Integer:
        return f"({int(value)})" if value < 0 else str(int(value))
    p, q = int(value.p), int(value.q)
    return f"({p} / {q})" if p >= 0 else f"(- ({-p} / {q}))"


@dataclass
class _Printer:
    builder: _Builder
    hypotheses: list[Hypothesis] = field(default_factory=list)
    functions: set[str] = field(default_factory=set)
    symbols: set[sp.Symbol] = field(default_factory=set)

    def value(self, node: Node, bound: dict[str, sp.Integer]) -> sp.Expr:
        built = self.builder.build(node, bound)
        if isinstance(built, sp.MatrixBase):
            raise CannotState(_NOT_REAL["Matrix"])
        return built

    def assume(self, kind: str, coq: str, text: str, value: sp.Expr) -> None:
        if _holds_for_sure(kind, value):
            return
        forms = {"nonzero": (f"{coq} <> 0", f"{text} != 0"), "positive": (f"0 < {coq}", f"{text} > 0"),
                 "nonnegative": (f"0 <= {coq}", f"{text} >= 0"), "unit": (f"-1 <= {coq} <= 1", f"-1 <= {text} <= 1")}
        proposition, user = forms[kind]
        if all(h.text != user for h in self.hypotheses):  # the same condition, however parenthesised
            self.hypotheses.append(Hypothesis(kind, proposition, user, value))

    # ------------------------------------------------------------------------------------------- nodes
    def term(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        return getattr(self, f"_{node.kind}")(node, bound)

    def _number(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        return _number(self.value(node, bound))

    def _name(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        if node.text in bound:
            return _number(bound[node.text])
        if node.text == "pi":
            return "PI"
        if node.text == "E":
            return "(exp 1)"
        if node.text in _CONSTANT_TERMS:
            return _CONSTANT_TERMS[node.text]
        if node.text in _UNDEFINED_CONSTANTS:
            raise CannotState(f"{node.text} has no definition in Coq's standard library")
        if node.text in CONSTANTS:
            raise CannotState(f"{node.text} is not a real number")
        symbol = self.value(node, bound)
        if coq_name(symbol) in _COQ_NAMES:
            raise CannotState(f"the symbol name {node.text} is a Coq name the statement uses (rename it)")
        self.symbols.add(symbol)
        if symbol.is_integer:
            return f"(IZR {coq_name(symbol)})"
        if symbol.is_real:
            return coq_name(symbol)
        raise CannotState(f"the symbol {node.text} is complex (declare it with --real, --positive or --integer)")

    def _neg(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        return f"(- {self.term(node.children[0], bound)})"

    def _add(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        parts = [self.term(child, bound) for child in node.children]
        text = parts[0] if node.ops[0] == "+" else f"(- {parts[0]})"
        for op, part in zip(node.ops[1:], parts[1:], strict=True):
            text += f" {op} {part}"
        return f"({text})"

    def _mul(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        text = self.term(node.children[0], bound)
        for op, child in zip(node.ops[1:], node.children[1:], strict=True):
            part = self.term(child, bound)
            if op == "/":
                self.assume("nonzero", part, unparse(child, bound), self.value(child, bound))
            text = f"({text} {op} {part})"
        return text

    def _pow(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        base_node, exponent_node = node.children
        base = self.term(base_node, bound)
        exponent = self.value(exponent_node, bound)
        base_value, base_text = self.value(base_node, bound), unparse(base_node, bound)
        if exponent.is_Integer and abs(exponent) > MAX_NAT_EXPONENT:  # a binary Z, never a unary nat literal
            if exponent < 0:
                self.assume("nonzero", base, base_text, base_value)
            return f"(powerRZ {base} ({int(exponent)})%Z)"
        if exponent.is_Integer:
            if exponent >= 0:
                return f"({base} ^ {int(exponent)})"
            self.assume("nonzero", base, base_text, base_value)
            return f"(/ ({base} ^ {-int(exponent)}))"
        if exponent == sp.Rational(1, 2):
            self.assume("nonnegative", base, base_text, base_value)
            return f"(sqrt {base})"
        integer_exponent = _integer_term(exponent_node, bound, self.builder)
        if integer_exponent is not None:
            self.term(exponent_node, bound)  # binds its symbols
            self.assume("nonzero", base, base_text, base_value)
            return f"(powerRZ {base} {integer_exponent})"
        self.assume("positive", base, base_text, base_value)
        return f"(Rpower {base} {self.term(exponent_node, bound)})"

    def _call(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        name = node.text
        self.functions.add(name)
        if name in _NOT_REAL:
            raise CannotState(f"{name}: {_NOT_REAL[name]}")
        if name == "Sum":
            return self._sum(node, bound)
        arguments = [self.term(child, bound) for child in node.children]
        if name in ("Min", "Max"):
            text = arguments[0]
            for argument in arguments[1:]:
                text = f"(R{name.lower()} {text} {argument})"
            return text
        (argument,) = arguments
        if name in _DOMAIN:
            kind, coq_form, text_form = _DOMAIN[name]
            value = self.value(node.children[0], bound)
            text = unparse(node.children[0], bound)
            head = coq_form.split(" ")[0]
            if head in _SYMPY_OF:
                value, text = _SYMPY_OF[head](value), text_form.format(text)
            self.assume(kind, coq_form.format(argument), text, value)
        if name in _DEFINED_AS:
            return _DEFINED_AS[name].format(argument)
        return f"({_DIRECT[name]} {argument})"

    def _sum(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        self.value(node, bound)  # the builder checks the form and the expansion budget
        body, (variable, low, high) = node.children[0], node.children[1].children
        a, b = int(self.value(low, bound)), int(self.value(high, bound))
        terms = [self.term(body, {**bound, variable.text: sp.Integer(k)}) for k in range(a, b + 1)]
        return "(" + " + ".join(terms) + ")" if terms else "0"

    def _list(self, node: Node, bound: dict[str, sp.Integer]) -> str:
        raise CannotState(_NOT_REAL["Matrix"])

    _tuple = _list


def _holds_for_sure(kind: str, value: sp.Expr) -> bool:
    """The condition holds by exact arithmetic (a rational) or by a declared domain (a `--positive` symbol).

    Nothing else is left out: were SymPy wrong about, say, a closed expression being non-zero, Coq's `x / 0 = 0`
    could make an undefined statement provable. A condition kept needlessly only costs a line of output.
    """
    if value.is_Rational:
        checks = {"nonzero": value != 0, "positive": value > 0, "nonnegative": value >= 0, "unit": -1 <= value <= 1}
        return bool(checks[kind])
    if isinstance(value, sp.Symbol) and kind != "unit":
        return value.is_positive is True  # only from --positive (or --positive with --integer)
    return False


def _integer_term(node: Node, bound: dict[str, sp.Integer], builder: _Builder) -> str | None:
    """The exponent as a Coq `Z` term when it is built from integer symbols and integer literals with `+ - *` and
    non-negative literal powers (so `(-1)**n` is `powerRZ (-1) n`); otherwise None."""
    if node.kind == "number":
        value = builder.build(node, bound)
        return f"({int(value)})%Z" if value.is_Integer else None
    if node.kind == "name":
        if node.text in bound:
            return f"({int(bound[node.text])})%Z"
        symbol = builder.build(node, bound)
        return coq_name(symbol) if isinstance(symbol, sp.Symbol) and symbol.is_integer else None
    if node.kind == "neg":
        inner = _integer_term(node.children[0], bound, builder)
        return None if inner is None else f"(- {inner})%Z"
    if node.kind in ("add", "mul"):
        if "/" in node.ops:
            return None
        parts = [_integer_term(child, bound, builder) for child in node.children]
        if any(p is None for p in parts):
            return None
        ops = node.ops if node.kind == "add" else ("*",) * len(parts)
        text = parts[0] if ops[0] != "-" else f"(- {parts[0]})"
        for op, part in zip(ops[1:], parts[1:], strict=True):
            text += f" {op} {part}"
        return f"({text})%Z"
    if node.kind == "pow":
        base = _integer_term(node.children[0], bound, builder)
        exponent = builder.build(node.children[1], bound)
        if base is None or not (exponent.is_Integer and exponent >= 0):
            return None
        return f"({base} ^ {int(exponent)})%Z"
    return None


_PRECEDENCE = {"add": 1, "neg": 2, "mul": 2, "pow": 3}


def unparse(node: Node, bound: dict[str, sp.Integer] | None = None) -> str:
    """The user-syntax text of a parse tree (Sum indices replaced by their values), for side conditions."""
    bound = bound or {}

    def wrap(child: Node, level: int) -> str:
        text = unparse(child, bound)
        return f"({text})" if _PRECEDENCE.get(child.kind, 9) <= level else text

    if node.kind == "number":
        return node.text
    if node.kind == "name":
        return str(bound[node.text]) if node.text in bound else node.text
    if node.kind == "neg":
        return "-" + wrap(node.children[0], 2)
    if node.kind == "add":
        first = unparse(node.children[0], bound)
        text = first if node.ops[0] == "+" else f"-{wrap(node.children[0], 2)}"
        for op, child in zip(node.ops[1:], node.children[1:], strict=True):
            text += f" {op} {wrap(child, 1) if op == '-' else unparse(child, bound)}"
        return text
    if node.kind == "mul":
        text = wrap(node.children[0], 1)
        for op, child in zip(node.ops[1:], node.children[1:], strict=True):
            text += f"{op}{wrap(child, 2)}"
        return text
    if node.kind == "pow":
        return f"{wrap(node.children[0], 3)}**{wrap(node.children[1], 2)}"
    inner = ", ".join(unparse(child, bound) for child in node.children)
    if node.kind == "call":
        return f"{node.text}({inner})"
    return f"[{inner}]" if node.kind == "list" else f"({inner})"


def state_identity(
    text: str, real: Iterable[str] = (), positive: Iterable[str] = (), integer: Iterable[str] = ()
) -> CoqStatement:
    """The Coq theorem that states `text` (`"LHS == RHS"`) over the reals, with its domain as hypotheses.

    **Arguments:**

    - `text`: the statement, in the grammar of `ropecheck.proofs.prove._grammar`.
    - `real`, `positive`, `integer`: declared symbols (as for `parse_identity`).

    **Returns:** a `CoqStatement`.

    Raises `CannotState` when Coq's reals cannot state it, `BadStatement` for text outside the grammar.
    """
    try:
        lhs_tree, rhs_tree = parse_tree(text)
    except ValueError as error:
        raise BadStatement(str(error)) from None
    printer = _Printer(_Builder(_declared(real, positive, integer)))
    for tree in (lhs_tree, rhs_tree):  # the builder refuses what the grammar admits but prove does not
        printer.builder.build(tree, {})
    lhs, rhs = printer.term(lhs_tree, {}), printer.term(rhs_tree, {})
    ordered = tuple(sorted(printer.symbols, key=lambda s: s.name))
    group, symbol_hypotheses = binders(ordered) if ordered else ("", [])
    premises = [*symbol_hypotheses, *(h.coq for h in printer.hypotheses)]
    body = "".join(f"{p} -> " for p in premises) + f"{lhs} = {rhs}"
    proposition = f"forall {group}, {body}" if group else body
    return CoqStatement(
        proposition, lhs, rhs, group, tuple(symbol_hypotheses), tuple(printer.hypotheses), ordered,
        tuple(sorted(printer.functions)),
    )
