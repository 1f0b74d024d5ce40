"""SymPy → Coq printer: statements over the reals, with a generic proof script (ISSUE #10 item 3).

The printed *statement* is part of the trusted base (docs/trusted.md): it must say in Coq exactly what the
SymPy expression says. The printed *proof script* is not trusted — the kernel checks it — so it may be any
tactic that happens to work.

Supported: `+ - * /`, integer powers (`x ^ 3`, `/ x ^ 3`), real powers as `Rpower`, `sin cos exp ln sqrt`,
`PI`, integers and rationals (as `IZR`-numerals and `/`), matrices (one equation per entry, joined by `/\\`).
Symbols become binders: an integer symbol is a `Z` binder used through `IZR`, every other real symbol an `R`
binder; positivity and non-negativity assumptions become hypotheses. Complex numbers, `re`, `im`,
`conjugate`, `Abs`, sums with symbolic bounds and undefined functions cannot be printed (`CannotPrint`).

Run `python -m proofs.kernel._coq_print > proofs/coq/Printed.v` to regenerate the printed claim statements (the
committed file is checked against fresh output by tests/test_kernel_print.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import sympy as sp


class CannotPrint(ValueError):
    """The expression uses something the printer does not translate faithfully."""


def coq_name(symbol: sp.Symbol) -> str:
    """A Coq identifier for a SymPy symbol (`theta_0` stays, `x'` or `\\theta` are cleaned, keywords avoided)."""
    raw = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in symbol.name)
    if not raw or not (raw[0].isalpha()):
        raw = "v" + raw
    return raw + "_" if raw in _RESERVED else raw


_RESERVED = {"e", "PI", "R", "Z", "sin", "cos", "exp", "ln", "sqrt", "fun", "forall", "exists", "in", "let", "at"}


def _is_integer_symbol(symbol: sp.Symbol) -> bool:
    return bool(symbol.is_integer)


def print_expr(expr: sp.Basic) -> str:
    """The Coq `R` term for a real SymPy expression (`CannotPrint` for what has no faithful translation)."""
    return _print(sp.sympify(expr))


def _number(value: sp.Rational) -> str:
    if value.is_Integer:
        return f"({int(value)})" if value < 0 else str(int(value))
    p, q = int(value.p), int(value.q)
    return f"({p} / {q})" if p >= 0 else f"(- ({-p} / {q}))"


def _print(e: sp.Basic) -> str:
    if isinstance(e, sp.Symbol):
        return f"(IZR {coq_name(e)})" if _is_integer_symbol(e) else coq_name(e)
    if e.is_Rational:
        return _number(e)  # type: ignore[arg-type]
    if e is sp.pi:
        return "PI"
    if e is sp.E:
        return "(exp 1)"
    if isinstance(e, sp.Add):
        terms = [_print(a) for a in sp.Add.make_args(e)]
        return "(" + " + ".join(terms) + ")"
    if isinstance(e, sp.Mul):
        numerator, denominator = [], []
        for factor in sp.Mul.make_args(e):
            if factor.is_Pow and factor.exp.is_Integer and factor.exp < 0:
                denominator.append(_print(factor.base ** (-factor.exp)))
            elif factor.is_Rational and not factor.is_Integer:
                if factor.p != 1:
                    numerator.append(_number(sp.Integer(factor.p)))
                denominator.append(str(int(factor.q)))
            else:
                numerator.append(_print(factor))
        text = " * ".join(numerator) if numerator else "1"
        for part in denominator:
            text = f"{text} / {part}"
        return f"({text})"
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        if exponent.is_Integer:
            k = int(exponent)
            if k >= 0:
                return f"({_print(base)} ^ {k})"
            return f"(/ ({_print(base)} ^ {-k}))"
        if exponent == sp.Rational(1, 2):
            return f"(sqrt {_print(base)})"
        if exponent == sp.Rational(-1, 2):
            return f"(/ sqrt {_print(base)})"
        return f"(Rpower {_print(base)} {_print(exponent)})"
    functions = {sp.sin: "sin", sp.cos: "cos", sp.exp: "exp", sp.log: "ln"}
    for function, name in functions.items():
        if isinstance(e, function):
            return f"({name} {_print(e.args[0])})"
    raise CannotPrint(f"no faithful Coq translation for {type(e).__name__}: {sp.sstr(e)[:80]}")


def binders(symbols: Iterable[sp.Symbol]) -> tuple[str, list[str]]:
    """`forall` binders and hypotheses (positivity, non-negativity) for the symbols, in a stable order."""
    ordered = sorted(set(symbols), key=lambda s: s.name)
    if any(s.is_real is not True and s.is_integer is not True for s in ordered):
        bad = [s.name for s in ordered if s.is_real is not True and s.is_integer is not True]
        raise CannotPrint(f"symbols not declared real: {', '.join(bad)}")
    names = [coq_name(s) for s in ordered]
    if len(set(names)) != len(names):
        raise CannotPrint("two symbols print to the same Coq name")
    groups: list[str] = []
    integers = [coq_name(s) for s in ordered if _is_integer_symbol(s)]
    reals = [coq_name(s) for s in ordered if not _is_integer_symbol(s)]
    if reals:
        groups.append(f"({' '.join(reals)} : R)")
    if integers:
        groups.append(f"({' '.join(integers)} : Z)")
    hypotheses: list[str] = []
    for s in ordered:
        name = coq_name(s)
        if _is_integer_symbol(s):
            if s.is_positive:
                hypotheses.append(f"(0 < {name})%Z")
            elif s.is_nonnegative:
                hypotheses.append(f"(0 <= {name})%Z")
            if s.is_even:
                hypotheses.append(f"Z.Even {name}")
        elif s.is_positive:
            hypotheses.append(f"0 < {name}")
        elif s.is_nonnegative:
            hypotheses.append(f"0 <= {name}")
    return " ".join(groups), hypotheses


def _entries(lhs: sp.Basic, rhs: sp.Basic) -> list[tuple[sp.Expr, sp.Expr]]:
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        if not (isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase)) or lhs.shape != rhs.shape:
            raise CannotPrint("matrix equation with mismatched shapes")
        return list(zip(list(lhs), list(rhs), strict=True))
    return [(sp.sympify(lhs), sp.sympify(rhs))]


def identity_statement(lhs: sp.Basic, rhs: sp.Basic) -> str:
    """`forall binders, hypotheses -> lhs = rhs` (entry-wise conjunction for matrices), as Coq text."""
    pairs = _entries(lhs, rhs)
    symbols: set[sp.Symbol] = set()
    for a, b in pairs:
        if a.has(sp.I) or b.has(sp.I):
            raise CannotPrint("complex numbers are not printed (state them in Coq over pairs of reals)")
        symbols |= a.free_symbols | b.free_symbols
    body = " /\\ ".join(f"{_print(a)} = {_print(b)}" for a, b in pairs)
    return _quantify(symbols, body)


def _quantify(symbols: set[sp.Symbol], body: str) -> str:
    if not symbols:
        return body
    group, hypotheses = binders(symbols)
    premises = "".join(f"{h} -> " for h in hypotheses)
    return f"forall {group}, {premises}{body}"


# ------------------------------------------------------------------------------------------ proof scripts
def _sum_terms(argument: sp.Expr) -> list[sp.Expr]:
    """Split a trig/exp argument into summands, unfolding small integer multiples (2x → x + x)."""
    terms: list[sp.Expr] = []
    for term in sp.Add.make_args(sp.expand(argument)):
        coefficient, rest = term.as_coeff_Mul()
        if coefficient.is_Integer and 2 <= abs(int(coefficient)) <= 4 and rest != 1:
            sign = 1 if coefficient > 0 else -1
            terms.extend([sign * rest] * abs(int(coefficient)))
        else:
            terms.append(term)
    return terms


def _angle_replacements(expressions: Sequence[sp.Expr]) -> list[str]:
    """`replace (a) with (t1 + t2 + …) by ring` for every sin/cos/exp argument that is a sum."""
    steps: list[str] = []
    seen: set[str] = set()
    for expr in expressions:
        for atom in sorted(expr.atoms(sp.sin, sp.cos, sp.exp), key=sp.default_sort_key):
            argument = atom.args[0]
            terms = _sum_terms(argument)
            if len(terms) < 2:
                continue
            printed = _print(argument)
            if printed in seen:
                continue
            seen.add(printed)
            split = " + ".join(_print_summand(t) for t in terms)
            steps.append(f"replace {printed} with ({split}) by ring")
    return steps


def _print_summand(term: sp.Expr) -> str:
    """A summand with its sign outside (`- (n * t)`), so that `cos_neg`/`sin_neg` apply after `cos_plus`."""
    coefficient, _ = term.as_coeff_Mul()
    return f"(- {_print(-term)})" if coefficient.is_negative else _print(term)


def _leaf(function: type, term: sp.Expr) -> sp.Expr:
    coefficient, _ = term.as_coeff_Mul()
    if coefficient.is_negative:
        return function(-term) if function is sp.cos else -function(-term)
    return function(term)


def _expand_angles(expr: sp.Expr) -> sp.Expr:
    """Angle addition exactly as the printed script performs it (`cos_plus`, `sin_plus`, `cos_neg`, …).

    `cos(Σt) + i·sin(Σt) = Π(cos t + i·sin t)`, so the polynomial in the leaves is the same in any order of
    rewriting; SymPy's `expand_trig` would instead use double-angle forms the script never produces.
    """
    replacements: dict[sp.Expr, sp.Expr] = {}
    for atom in expr.atoms(sp.sin, sp.cos):
        terms = _sum_terms(atom.args[0])
        if len(terms) < 2:
            continue
        product = sp.Integer(1)
        for t in terms:
            product = sp.expand(product * (_leaf(sp.cos, t) + sp.I * _leaf(sp.sin, t)))
        real, imaginary = product.as_real_imag()
        replacements[atom] = real if isinstance(atom, sp.cos) else imaginary
    return sp.expand(expr.xreplace(replacements))


def _pythagorean_combination(lhs: sp.Expr, rhs: sp.Expr) -> str | None:
    """`Σ gᵢ·(sin uᵢ·sin uᵢ + cos uᵢ·cos uᵢ − 1)` equal to `lhs − rhs` after angle expansion (or None)."""
    residual = _expand_angles(sp.expand(lhs - rhs))
    arguments = sorted({a.args[0] for a in residual.atoms(sp.sin, sp.cos)}, key=sp.default_sort_key)
    if not arguments:
        return None
    substitutions, relations, generators = {}, [], []
    for k, u in enumerate(arguments):
        c, s = sp.Dummy(f"c{k}"), sp.Dummy(f"s{k}")
        substitutions[sp.cos(u)], substitutions[sp.sin(u)] = c, s
        relations.append(s * s + c * c - 1)
        generators += [s, c]
    polynomial = sp.expand(residual.xreplace(substitutions))
    others = sorted(polynomial.free_symbols - set(generators), key=str)
    try:
        quotients, remainder = sp.reduced(polynomial, relations, *generators, *others)
    except (sp.PolynomialError, sp.CoercionFailed, sp.GeneratorsNeeded):
        return None
    if sp.expand(remainder) != 0:
        return None
    back = {v: k for k, v in substitutions.items()}
    parts = []
    for u, g in zip(arguments, quotients, strict=True):
        if g == 0:
            continue
        a = _print(u)
        parts.append(f"{_print(sp.sympify(g).xreplace(back))} * (sin {a} * sin {a} + cos {a} * cos {a} - 1)")
    return " + ".join(parts) if parts else None


def _pair_script(lhs: sp.Expr, rhs: sp.Expr) -> str:
    """`first [...]` over a fixed list of tactics for one equation `lhs = rhs`."""
    expand = "; ".join(_angle_replacements([lhs, rhs]))
    rewrite = "repeat rewrite ?cos_plus, ?sin_plus, ?cos_neg, ?sin_neg, ?exp_plus"
    prefix = f"{expand}; {rewrite}" if expand else rewrite
    alternatives = ["solve [ring]", "solve [field; repeat split; lra]", f"solve [{prefix}; ring]"]
    combination = _pythagorean_combination(lhs, rhs) if (lhs - rhs).has(sp.sin, sp.cos) else None
    if combination is not None:
        expanded = _expand_angles(sp.expand(lhs - rhs))
        arguments = sorted({a.args[0] for a in expanded.atoms(sp.sin, sp.cos)}, key=sp.default_sort_key)
        facts = "; ".join(
            f"pose proof (sin2_cos2 {_print(u)}) as P{k}; unfold Rsqr in P{k}" for k, u in enumerate(arguments)
        )
        rewrites = "; ".join(f"try rewrite P{k}" for k in range(len(arguments)))
        alternatives.append(
            f"solve [{prefix}; {facts}; apply Rminus_diag_uniq; match goal with |- ?G = 0 => "
            f"replace G with ({combination}) by ring end; {rewrites}; ring]"
        )
    alternatives.append("solve [nra]")
    return f"first [ {' | '.join(alternatives)} ]"


def proof_script(lhs: sp.Basic, rhs: sp.Basic) -> str:
    """A generic proof script: `ring`, `field`, angle addition + `ring`, a Pythagorean combination, `nra`."""
    pairs = _entries(lhs, rhs)
    scripts = [_pair_script(a, b) for a, b in pairs]
    if len(scripts) == 1:
        return f"intros; {scripts[0]}."
    return "intros; repeat match goal with |- _ /\\ _ => split end; [> " + " | ".join(scripts) + " ]."


HEADER = """Require Import Reals Lra Lia Psatz ZArith.
From Interval Require Import Tactic.
Open Scope R_scope.
"""


def lemma(name: str, statement: str, script: str, kind: str = "Lemma") -> str:
    """A Coq lemma with its proof."""
    return f"{kind} {name} :\n  {statement}.\nProof.\n  {script}\nQed.\n"
