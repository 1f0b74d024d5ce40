"""Read a Coq statement printed by `ropecheck prove` back into SymPy, to compare it with what the user typed.

A small parser for the printed subset (it shares no code with the printer, so a printer that drops a hypothesis
or swaps a function is seen): `forall binders, H1 -> … -> lhs = rhs`, terms with `+ - * / ^`, prefix `- a` and
`/ a`, application `f a b`, `%Z` scopes, and the functions the printer uses, mapped back to the user's names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

_FUNCTIONS = {
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "exp": sp.exp, "ln": sp.log, "sqrt": sp.sqrt, "Rabs": sp.Abs,
    "atan": sp.atan, "asin": sp.asin, "acos": sp.acos, "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
    "Rpower": sp.Pow, "powerRZ": sp.Pow, "IZR": lambda a: a, "Rmin": sp.Min, "Rmax": sp.Max, "Int_part": sp.floor,
    "frac_part": sp.frac,
}
USER_NAMES = {"ln": "log", "Rabs": "Abs", "Rmin": "Min", "Rmax": "Max", "Int_part": "floor", "frac_part": "frac"}
_TOKEN = re.compile(r"\s*(%Z|<>|<=|->|[()+\-*/^=<,:]|[A-Za-z_][A-Za-z0-9_']*|\d+)")


@dataclass
class CoqReading:
    """`hypotheses`: (kind, SymPy expression) pairs; `lhs`, `rhs`: SymPy; `functions`: user names used."""

    hypotheses: list[tuple[str, sp.Expr]]
    lhs: sp.Expr
    rhs: sp.Expr
    functions: set[str]


class _Reader:
    def __init__(self, text: str, symbols: dict[str, sp.Symbol]) -> None:
        self.tokens = [t for t in _TOKEN.findall(text) if t != "%Z"]
        self.index = 0
        self.symbols = symbols
        self.functions: set[str] = set()

    def peek(self) -> str:
        return self.tokens[self.index] if self.index < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if expected is not None and token != expected:
            raise ValueError(f"expected {expected!r}, found {token!r}")
        self.index += 1
        return token

    def sum(self) -> sp.Expr:
        value = self.product()
        while self.peek() in ("+", "-"):
            value = value + self.product() if self.take() == "+" else value - self.product()
        return value

    def product(self) -> sp.Expr:
        value = self.unary()
        while self.peek() in ("*", "/"):
            value = value * self.unary() if self.take() == "*" else value / self.unary()
        return value

    def unary(self) -> sp.Expr:
        if self.peek() == "-":
            self.take()
            return -self.unary()
        if self.peek() == "/":
            self.take()
            return 1 / self.unary()
        value = self.application()
        if self.peek() == "^":
            self.take()
            value = value ** int(self.take())
        return value

    def application(self) -> sp.Expr:
        if self.peek() in _FUNCTIONS:
            name = self.take()
            arity = 2 if name in ("Rpower", "powerRZ", "Rmin", "Rmax") else 1
            arguments = [self.atom() for _ in range(arity)]
            if name not in ("IZR", "Rpower", "powerRZ"):
                self.functions.add(USER_NAMES.get(name, name))
            return _FUNCTIONS[name](*arguments)
        return self.atom()

    def atom(self) -> sp.Expr:
        token = self.take()
        if token == "(":
            value = self.sum()
            self.take(")")
            return value
        if token.isdigit():
            return sp.Integer(int(token))
        if token == "PI":
            return sp.pi
        if token in self.symbols:
            return self.symbols[token]
        raise ValueError(f"unexpected {token!r}")


def read_statement(text: str, symbols: dict[str, sp.Symbol]) -> CoqReading:
    """Parse a printed `prove` statement (`symbols`: the user's symbols by name)."""
    body = text.split(", ", 1)[1] if text.startswith("forall") else text
    *premises, equation = body.split(" -> ")
    hypotheses: list[tuple[str, sp.Expr]] = []
    functions: set[str] = set()
    for premise in premises:
        reader = _Reader(premise, symbols)
        if premise.startswith("-1 <= "):
            reader.take("-"), reader.take("1"), reader.take("<=")
            hypotheses.append(("unit", reader.sum()))
        elif premise.startswith("0 <"):
            reader.take("0")
            kind = "positive" if reader.take() == "<" else "nonnegative"
            hypotheses.append((kind, reader.sum()))
        else:
            value = reader.sum()
            reader.take("<>")
            hypotheses.append(("nonzero", value))
        functions |= reader.functions
    reader = _Reader(equation, symbols)
    lhs = reader.sum()
    reader.take("=")
    rhs = reader.sum()
    if reader.peek():
        raise ValueError(f"trailing text {reader.peek()!r}")
    return CoqReading(hypotheses, lhs, rhs, functions | reader.functions)
