"""The grammar of `ropecheck prove`: a hand-written tokenizer and recursive-descent parser (pure Python).

Nothing here imports SymPy or evaluates anything: the text becomes a small tree of `Node`s that
`ropecheck.proofs.prove._parse` turns into SymPy objects through a fixed whitelist. The language:

```
identity  := expr "==" expr
expr      := term (("+" | "-") term)*
term      := unary (("*" | "/") unary)*
unary     := ("-" | "+") unary | power
power     := atom (("**" | "^") unary)?          (right-associative, as in Python: -x**2 = -(x**2))
atom      := NUMBER | NAME | NAME "(" args ")" | "(" expr ")" | "(" expr "," ... ")" | "[" args "]"
NUMBER    := digits ["." digits] [("e" | "E") ["+" | "-"] digits]     (exact: 0.1 is 1/10)
NAME      := ASCII letter, then letters, digits, "_"
```

Limits (each gives a one-line `GrammarError`): `MAX_LENGTH` characters, `MAX_DEPTH` levels of nesting
(parentheses, calls, unary signs, powers), `MAX_DIGITS` digits in a number literal and `MAX_EXPONENT` for a
decimal exponent. Sums and products are kept flat (a list of operands), so a long sum is not a deep tree.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MAX_LENGTH = 4000  # characters of the whole statement
MAX_DEPTH = 64  # nesting levels: parentheses, calls, unary signs, power chains
MAX_DIGITS = 1000  # digits in one number literal
MAX_EXPONENT = 1000  # |exponent| of a decimal literal such as 1e-20

_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-", strict=True))
_LOOKALIKES = {
    "π": "pi",
    "−": "-",
    "–": "-",
    "·": "*",
    "×": "*",
    "÷": "/",
    "√": "sqrt(...)",
    "∞": "oo",
    "ⅈ": "I",
    "ℯ": "E",
    "≠": "a separate check: only '==' statements are decided",
    "≤": "a separate check: only '==' statements are decided",
    "≥": "a separate check: only '==' statements are decided",
}
_TOKEN = re.compile(
    r"(?P<space>[ \t\r\n]+)"
    r"|(?P<number>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*|==|[-+*/^(),\[\]])"
)


class GrammarError(ValueError):
    """The text is not in the grammar (the message is one line, with a hint where one helps)."""


@dataclass(frozen=True)
class Token:
    kind: str  # "number", "name", "op", "end"
    text: str
    pos: int


@dataclass(frozen=True)
class Node:
    """A parse-tree node.

    `kind` is one of `number` (text), `name` (text), `neg` (one child), `add` (children, with `signs` +1/−1),
    `mul` (children, with `ops` "*" or "/", the first always "*"), `pow` (base, exponent), `call` (text = the
    function name, children = arguments), `list` and `tuple` (children).
    """

    kind: str
    pos: int
    text: str = ""
    children: tuple[Node, ...] = ()
    ops: tuple[str, ...] = ()


def _bad_character(text: str, pos: int) -> GrammarError:
    char = text[pos]
    column = pos + 1
    if char in _SUPERSCRIPTS:
        end = pos
        while end < len(text) and text[end] in _SUPERSCRIPTS:
            end += 1
        digits = "".join(_SUPERSCRIPTS[c] for c in text[pos:end])
        base = _operand_before(text, pos) or "x"
        return GrammarError(f"unexpected character {char!r} at column {column}; did you mean {base}**{digits}?")
    if char in "!<>":
        relation = text[pos : pos + 2] if text[pos + 1 : pos + 2] == "=" else char
        return GrammarError(
            f"{relation!r} at column {column}: prove decides equations 'LHS == RHS' only "
            "(a false equation is refuted with a counterexample)"
        )
    if char == "|":
        return GrammarError(f"'|' at column {column}: write Abs(x) for the absolute value |x|")
    if char in _LOOKALIKES:
        return GrammarError(f"unexpected character {char!r} at column {column}; did you mean {_LOOKALIKES[char]}?")
    if char in "'\"":
        return GrammarError(f"strings are not allowed (quote at column {column})")
    if char == ".":
        return GrammarError(f"'.' at column {column}: only decimal numbers may contain '.' (no attribute access)")
    if char == "=":
        return GrammarError(f"single '=' at column {column}: write the equation with '=='")
    if char == "_":
        return GrammarError(f"names may not start with '_' (column {column})")
    if not char.isascii():
        name = unicodedata.name(char, "unnamed character")
        hint = " (symbol names are ASCII, e.g. theta)" if char.isalpha() else ""
        return GrammarError(f"non-ASCII character {char!r} ({name}) at column {column}{hint}")
    return GrammarError(f"unexpected character {char!r} at column {column}")


def _operand_before(text: str, pos: int) -> str:
    """The operand that ends at `pos`: a name or number, or a bracketed group with the name before it
    (`sin(x)` in `sin(x)²`)."""
    start = pos
    if start > 0 and text[start - 1] == ")":
        depth = 0
        while start > 0:
            start -= 1
            depth += {")": 1, "(": -1}.get(text[start], 0)
            if depth == 0:
                break
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_") and text[start - 1].isascii():
        start -= 1
    return text[start:pos]


def tokenize(text: str) -> list[Token]:
    """Split `text` into tokens; raise `GrammarError` at the first character outside the grammar."""
    if len(text) > MAX_LENGTH:
        raise GrammarError(f"statement too long: {len(text)} characters (limit {MAX_LENGTH})")
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise _bad_character(text, pos)
        kind = match.lastgroup or ""
        value = match.group()
        end = match.end()
        if kind == "number":
            _check_number(value, pos)
            if end < len(text) and (text[end].isalpha() or text[end] == "_") and text[end].isascii():
                raise GrammarError(
                    f"missing operator between {value!r} and {text[end]!r} at column {end + 1} (write {value}*...)"
                )
        if kind != "space":
            tokens.append(Token(kind, value, pos))
        pos = end
    tokens.append(Token("end", "", len(text)))
    return tokens


def _check_number(value: str, pos: int) -> None:
    mantissa, _, exponent = value.lower().partition("e")
    digits = sum(c.isdigit() for c in mantissa)
    if digits > MAX_DIGITS:
        raise GrammarError(f"number at column {pos + 1} has {digits} digits (limit {MAX_DIGITS})")
    if exponent and (len(exponent.lstrip("+-")) > 6 or abs(int(exponent)) > MAX_EXPONENT):
        raise GrammarError(f"decimal exponent at column {pos + 1} out of range (limit ±{MAX_EXPONENT})")


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0
        self.depth = 0

    # -- token helpers
    @property
    def current(self) -> Token:
        return self.tokens[self.index]

    def _advance(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def _at(self, *ops: str) -> bool:
        return self.current.kind == "op" and self.current.text in ops

    def _expect(self, op: str) -> Token:
        if not self._at(op):
            raise self._unexpected(f"expected {op!r}")
        return self._advance()

    def _unexpected(self, what: str = "") -> GrammarError:
        token = self.current
        found = "the end of the statement" if token.kind == "end" else repr(token.text)
        prefix = f"{what}, found " if what else "unexpected "
        return GrammarError(f"{prefix}{found} at column {token.pos + 1}")

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise GrammarError(f"statement nested too deeply (limit {MAX_DEPTH} levels)")

    # -- grammar
    def identity(self) -> tuple[Node, Node]:
        if self.current.kind == "end":
            raise GrammarError("empty statement: write 'LHS == RHS'")
        lhs = self.expression()
        if not self._at("=="):
            if self.current.kind == "end":
                raise GrammarError("not an equation: write exactly one 'LHS == RHS'")
            raise self._missing_operator()
        self._advance()
        if self.current.kind == "end":
            raise GrammarError("the right-hand side of '==' is empty")
        rhs = self.expression()
        if self._at("=="):
            raise GrammarError("not an equation: write exactly one 'LHS == RHS' (no chained '==')")
        if self.current.kind != "end":
            raise self._missing_operator()
        return lhs, rhs

    def _missing_operator(self) -> GrammarError:
        token = self.current
        if token.kind in ("name", "number") or self._at("(", "["):
            before = self.tokens[max(0, self.index - 3) : self.index]
            previous = before[-1] if before else Token("end", "", 0)
            where = f"missing operator before {token.text!r} at column {token.pos + 1}"
            if self._at("(") and len(before) == 3 and before[0].kind == "name" and before[1].text in ("**", "^"):
                name, power = before[0].text, before[2].text  # sin^2(x): the power of a call
                return GrammarError(f"{where}; write {name}(x)**{power} for a power of {name}(x), not {name}^{power}")
            if previous.kind == "name" and token.kind in ("name", "number"):  # sin x
                return GrammarError(
                    f"{where}; write {previous.text}({token.text}) for a function call, or {previous.text}*{token.text}"
                )
            return GrammarError(f"{where} (after {previous.text!r}; write *)")
        return self._unexpected()

    def expression(self) -> Node:
        start = self.current.pos
        terms = [self.term()]
        signs = [1]
        while self._at("+", "-"):
            signs.append(1 if self._advance().text == "+" else -1)
            terms.append(self.term())
        if len(terms) == 1:
            return terms[0]
        return Node("add", start, children=tuple(terms), ops=tuple("+" if s > 0 else "-" for s in signs))

    def term(self) -> Node:
        start = self.current.pos
        factors = [self.unary()]
        ops = ["*"]
        while self._at("*", "/"):
            ops.append(self._advance().text)
            factors.append(self.unary())
        if len(factors) == 1:
            return factors[0]
        return Node("mul", start, children=tuple(factors), ops=tuple(ops))

    def unary(self) -> Node:
        if self._at("-", "+"):
            token = self._advance()
            self._enter()
            operand = self.unary()
            self.depth -= 1
            return Node("neg", token.pos, children=(operand,)) if token.text == "-" else operand
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self._at("**", "^"):
            token = self._advance()
            self._enter()
            exponent = self.unary()
            self.depth -= 1
            return Node("pow", token.pos, children=(base, exponent))
        return base

    def atom(self) -> Node:
        token = self.current
        if token.kind == "number":
            self._advance()
            return Node("number", token.pos, text=token.text)
        if token.kind == "name":
            self._advance()
            if self._at("("):
                self._advance()
                args = self._sequence(")")
                return Node("call", token.pos, text=token.text, children=args)
            return Node("name", token.pos, text=token.text)
        if self._at("("):
            self._advance()
            items = self._sequence(")")
            if not items:
                raise GrammarError(f"empty parentheses at column {token.pos + 1}")
            return items[0] if len(items) == 1 else Node("tuple", token.pos, children=items)
        if self._at("["):
            self._advance()
            return Node("list", token.pos, children=self._sequence("]"))
        raise self._unexpected("expected a number, a name or '('")

    def _sequence(self, close: str) -> tuple[Node, ...]:
        """Comma-separated expressions up to `close` (the opening bracket is already consumed)."""
        self._enter()
        items: list[Node] = []
        if not self._at(close):
            items.append(self.expression())
            while self._at(","):
                self._advance()
                items.append(self.expression())
        if not self._at(close):
            if self.current.kind == "end":
                raise GrammarError(f"unbalanced brackets: missing {close!r} at the end")
            raise self._missing_operator() if not self._at(")", "]", "==") else self._unexpected(f"expected {close!r}")
        self._advance()
        self.depth -= 1
        return tuple(items)


def parse_tree(text: str) -> tuple[Node, Node]:
    """Parse `"LHS == RHS"` into two parse trees.

    **Arguments:**

    - `text`: the statement.

    **Returns:** `(lhs, rhs)` as `Node`s.

    Raises `GrammarError` (one line) for anything outside the grammar or beyond the limits.
    """
    return _Parser(text).identity()
