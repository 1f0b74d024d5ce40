"""True real-domain identities for `ropecheck prove` (issue 37): trigonometric, logarithmic and exponential,
powers and roots, rational, floor/abs/min/max, and closed constants. Each entry is `(statement, flags)`; each
holds wherever it is defined on the declared domains — `tests/test_prove_corpus.py` checks that with mpmath at
50 digits at sampled points, independently of the engine and of Coq. `benchmarks/prove_speed.py` reports the
share that reaches exit 0; the default test tier runs `SAMPLE`.
"""

from __future__ import annotations

R, XY = ["--real", "x"], ["--real", "x", "y"]
P, PXY = ["--positive", "x"], ["--positive", "x", "y"]

TRUE_IDENTITIES: list[tuple[str, list[str]]] = [
    # trigonometric
    ("sin(x)**2 + cos(x)**2 == 1", R),
    ("sin(2*x) == 2*sin(x)*cos(x)", R),
    ("cos(2*x) == cos(x)**2 - sin(x)**2", R),
    ("cos(2*x) == 1 - 2*sin(x)**2", R),
    ("sin(3*x) == 3*sin(x) - 4*sin(x)**3", R),
    ("cos(3*x) == 4*cos(x)**3 - 3*cos(x)", R),
    ("sin(x + y) == sin(x)*cos(y) + cos(x)*sin(y)", XY),
    ("cos(x - y) == cos(x)*cos(y) + sin(x)*sin(y)", XY),
    ("sin(x + y)*sin(x - y) == sin(x)**2 - sin(y)**2", XY),
    ("tan(x)**2 + 1 == sec(x)**2", R),
    ("sin(2*x)/sin(x) == 2*cos(x)", R),
    ("cos(pi/2 - x) == sin(x)", R),
    ("sin(pi - x) == sin(x)", R),
    ("cos(x + pi) == -cos(x)", R),
    ("(sin(x) + cos(x))**2 == 1 + sin(2*x)", R),
    ("cos(4*x) == 8*cos(x)**4 - 8*cos(x)**2 + 1", R),
    ("1/cos(x)**2 - tan(x)**2 == 1", R),
    ("sin(x)**4 - cos(x)**4 == sin(x)**2 - cos(x)**2", R),
    ("tan(x)*cos(x) == sin(x)", R),
    ("2*sin(x)*cos(y) == sin(x + y) + sin(x - y)", XY),
    ("cot(x)*sin(x) == cos(x)", R),
    ("csc(x)**2 - cot(x)**2 == 1", R),
    ("tan(x + y) == (tan(x) + tan(y))/(1 - tan(x)*tan(y))", XY),
    ("sin(x)/(1 + cos(x)) == (1 - cos(x))/sin(x)", R),
    # logarithms and exponentials
    ("log(exp(x)) == x", R),
    ("exp(log(x)) == x", P),
    ("exp(x + y) == exp(x)*exp(y)", XY),
    ("exp(2*x) == exp(x)**2", R),
    ("exp(-x)*exp(x) == 1", R),
    ("log(x*y) == log(x) + log(y)", PXY),
    ("log(x/y) == log(x) - log(y)", PXY),
    ("log(x**2) == 2*log(x)", P),
    ("exp(x)/exp(y) == exp(x - y)", XY),
    ("log(exp(x)*exp(y)) == x + y", XY),
    ("cosh(x)**2 - sinh(x)**2 == 1", R),
    ("sinh(2*x) == 2*sinh(x)*cosh(x)", R),
    ("exp(log(x) + log(y)) == x*y", PXY),
    ("x**y == exp(y*log(x))", ["--positive", "x", "--real", "y"]),
    ("tanh(x) == sinh(x)/cosh(x)", R),
    # powers and roots
    ("sqrt(x)**2 == x", P),
    ("sqrt(x*y) == sqrt(x)*sqrt(y)", PXY),
    ("sqrt(x**2) == x", P),
    ("sqrt(4*x**2) == 2*x", P),
    ("x**(1/2)*x**(1/2) == x", P),
    ("(x**3)**2 == x**6", R),
    ("x**2*x**3 == x**5", R),
    ("x**-2*x**3 == x", R),
    ("(1 + sqrt(2))**2 == 3 + 2*sqrt(2)", []),
    ("GoldenRatio**2 == GoldenRatio + 1", []),
    ("sqrt(8) == 2*sqrt(2)", []),
    ("1/(sqrt(2) - 1) == sqrt(2) + 1", []),
    # rational functions and exact numbers
    ("(x**2 - 1)/(x - 1) == x + 1", R),
    ("1/x + 1/y == (x + y)/(x*y)", XY),
    ("(x**3 - y**3)/(x - y) == x**2 + x*y + y**2", XY),
    ("x/(x + 1) + 1/(x + 1) == 1", R),
    ("(x + y)**2 == x**2 + 2*x*y + y**2", XY),
    ("(x - y)*(x + y) == x**2 - y**2", XY),
    ("1/(x*(x + 1)) == 1/x - 1/(x + 1)", R),
    ("Sum(k, (k, 1, 10)) == 55", []),
    ("(x**4 - 1)/(x**2 + 1) == x**2 - 1", R),
    ("0.1 + 0.2 == 0.3", []),
    # floor, abs, min, max, sign
    ("Abs(x*y) == Abs(x)*Abs(y)", XY),
    ("Abs(-x) == Abs(x)", R),
    ("Abs(x)**2 == x**2", R),
    ("Max(x, y) + Min(x, y) == x + y", XY),
    ("Max(x, y) - Min(x, y) == Abs(x - y)", XY),
    ("floor(x + 1) == floor(x) + 1", R),
    ("floor(n) == n", ["--integer", "n"]),
    ("frac(x) == x - floor(x)", R),
    ("ceiling(x) == -floor(-x)", R),
    ("sqrt(x**2) == Abs(x)", R),
    ("floor(x + n) == floor(x) + n", ["--real", "x", "--integer", "n"]),
    ("sign(x)*Abs(x) == x", R),
    # closed constants
    ("sin(pi/6) == 1/2", []),
    ("cos(pi/3) == 1/2", []),
    ("cos(pi/4) == sqrt(2)/2", []),
    ("tan(pi/4) == 1", []),
    # harder: known to be out of the tactic layer's reach, kept so that the share is not a share of easy cases
    ("sin(pi/10) == (sqrt(5) - 1)/4", []),
    ("cos(pi/7) - cos(2*pi/7) + cos(3*pi/7) == 1/2", []),
    ("floor(x) + floor(x + 1/2) == floor(2*x)", R),
    ("atan(x) + atan(1/x) == pi/2", P),
    ("asin(x) + acos(x) == pi/2", R),
    ("cos(x/2)**2 == (1 + cos(x))/2", R),
    ("tan(2*x) == 2*tan(x)/(1 - tan(x)**2)", R),
    ("exp(x)**3 == exp(3*x)", R),
]

# Three kinds (angles and nsatz, square roots, Int_part) for the default test tier; the whole corpus runs in
# the benchmark and with --deep.
_SAMPLED = ("sin(3*x) == 3*sin(x) - 4*sin(x)**3", "(1 + sqrt(2))**2 == 3 + 2*sqrt(2)",
            "floor(x + 1) == floor(x) + 1")
SAMPLE = [identity for identity in TRUE_IDENTITIES if identity[0] in _SAMPLED]
