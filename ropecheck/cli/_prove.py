"""`ropecheck prove`: decide a user identity in a confined worker; exit 0 only when Coq checked what was typed.

The statement is parsed by `ropecheck.proofs.parse_identity` (a grammar, never `eval`) and decided by the proof
engine in a worker (`ropecheck._worker`: a fresh `python -I -m ropecheck._worker` speaking JSON on a pipe, inside
bubblewrap where it works; confined by `ropecheck.proofs.prove._sandbox`: a seccomp allow-list, no root, no new
processes, no files written, no network, bounded memory and CPU; it dies with this process). The parent waits at
most `--timeout` seconds and then kills it: "unknown (time limit)".

When the engine proves it, the statement *as typed* is printed to Coq (`ropecheck.proofs.prove._prove_print`: every
division, `log`, `sqrt`, real power, `tan`…, `asin`/`acos` contributes its domain as a hypothesis; these are the
side conditions reported) and `coqc` checks it together with a point where the hypotheses hold
(`ropecheck.proofs.prove._prove_kernel`), in its own time budget, under memory and CPU limits. Only its acceptance
is "proved" (exit 0). When Coq cannot state the statement (complex numbers, `re`/`im`, matrices…) or no script
closes it, the answer is "proved by the engine only", exit 4 — never 0.

Exit codes: 0 proved and kernel-checked, 1 refuted (certified counterexample), 2 bad input, 3 unknown
(including the time limit and statements undefined everywhere), 4 proved by the engine only. Errors are one
line on stderr, never a traceback; with `--json` stdout always carries exactly one JSON object.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

EXIT_PROVED, EXIT_REFUTED, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_ENGINE_ONLY = 0, 1, 2, 3, 4
DEFAULT_TIMEOUT = 20.0
COQ_SECONDS = 60.0
KERNEL_ONLY_SECONDS = 20.0  # for a statement the engine could not decide (it may well be false)
OPTIONS = ("-h", "--help", "--real", "--positive", "--integer", "--timeout", "--no-kernel", "--json")

_DESCRIPTION = """\
Decide an identity 'LHS == RHS' for all values of its symbols: proved, refuted (with a certified
counterexample) or unknown.

Grammar: numbers, symbol names, + - * / ** ^ ( ) , and one ==; constants pi, E, I (not oo); functions sin
cos tan cot sec csc asin acos atan acot sinh cosh tanh coth sech csch asinh acosh atanh exp log sqrt Abs sign
floor ceiling frac Min Max re im conjugate; Sum(body, (k, a, b)) with integer bounds; Matrix([[a, b], [c, d]]);
constants also GoldenRatio, TribonacciConstant, EulerGamma, Catalan (zoo, nan, Exp1… are refused).
Nothing is evaluated as Python. Decimal literals are exact rationals: 0.1 means 1/10 (no floating point).
Undeclared symbols are complex; declare domains with --real/--positive/--integer (several names each; a
name in two of them must be --positive and --integer: a positive integer).
Limits: 4000 characters, 64 nesting levels, 1000-digit literals, exponents up to 10**6, exact numbers up to
2**4096.

Exit codes:
  0  proved: the Coq kernel checked the statement as typed, with every partial function's domain as a
     hypothesis (the conditions printed: x/x == 1 --real x is proved "where x != 0"), and a point where
     those hypotheses hold (standard axioms only). Coq's tactic layer is also tried when the engine
     found neither a proof nor a counterexample (Abs(x*y) == Abs(x)*Abs(y), floor(x + 1) == floor(x) + 1).
  4  proved by the engine only: SymPy's exact procedures proved it but Coq did not check it: Coq's reals
     cannot state it (complex symbols, I, re/im, matrices: E**(I*pi) + 1 == 0), no tactic closed it
     (sin(pi/10) == (sqrt(5) - 1)/4), or --no-kernel.
  1  refuted: a counterexample in the domain, certified by interval arithmetic
     (cos(x/2) == sqrt((1 + cos(x))/2) --real x at x = 4).
  3  unknown: no proof and no counterexample, the time limit (--timeout for the engine; Coq has its own
     60 s), or undefined everywhere ((sin(x)**2 + cos(x)**2 - 1)**-1 == 0 --real x).
  2  bad input (one line on stderr; with --json also a JSON object on stdout).
Options may come before or after the statement; a statement starting with '-' may follow '--'.
"""


def add_prove_parser(commands: Any) -> None:
    """Register the `prove` subcommand on an argparse subparsers object."""
    from ..numeric._help import HelpFormatter

    prove = commands.add_parser(
        "prove",
        help="decide an identity 'LHS == RHS' with the proof engine",
        description=_DESCRIPTION,
        formatter_class=HelpFormatter,
    )
    prove.add_argument("statement", help="e.g. 'sin(x)**2 + cos(x)**2 == 1'")
    for domain in ("real", "positive", "integer"):
        prove.add_argument(
            f"--{domain}",
            action="extend",
            nargs="+",
            default=[],
            metavar="SYM",
            help=f"declare symbols {domain} (several names, or comma-separated: a b or a,b)",
        )
    prove.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"wall-clock limit for the engine (default {DEFAULT_TIMEOUT:g}; Coq has its own {COQ_SECONDS:g} s)",
    )
    prove.add_argument(
        "--no-kernel",
        dest="kernel",
        action="store_false",
        help="skip the Coq kernel check (a proof is then 'proved by the engine only', exit 4)",
    )
    prove.add_argument("--json", action="store_true", help="print one JSON object")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError("the timeout must be in (0, 3600] seconds")
    return value


# ------------------------------------------------------------------------------------------------ worker
def run_in_worker(args: argparse.Namespace) -> dict[str, Any]:
    """Decide in a confined worker within `args.timeout` seconds, then (when proved and Coq can state it) let
    `coqc` check the printed statement within its own budget of `max(args.timeout, COQ_SECONDS)` seconds."""
    from ropecheck._worker import DECIDE, run_confined

    each = max(1.0, args.timeout / 3)  # one slow procedure cannot starve the others
    arguments = (args.statement, list(args.real), list(args.positive), list(args.integer), each)
    result = run_confined(DECIDE, arguments, args.timeout)
    if result is None:
        return {"verdict": "unknown", "method": f"time limit: {args.timeout:g} s", "time_limit": True}
    if result.get("verdict") == "unknown" and "coq" in result:
        return _kernel_without_engine(result, args)
    if result.get("verdict") != "proved":
        return result
    coq = result.pop("coq", None)
    if coq is None:
        reason = f"Coq cannot state it: {result.pop('cannot_state', 'not printed')}"
        result["kernel"] = {"accepted": False, "status": "cannot-state", "reason": reason}
    elif not args.kernel:
        result["kernel"] = {"accepted": False, "status": "not-run", "reason": "skipped (--no-kernel)",
                            "statement": coq["statement"]}
    else:
        from ropecheck.proofs.prove._prove_kernel import kernel_check

        result["kernel"] = kernel_check(coq, max(args.timeout, COQ_SECONDS))
    return result


def _kernel_without_engine(result: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The engine found neither a proof nor a counterexample: let Coq's tactic layer try the printed statement
    (within `KERNEL_ONLY_SECONDS`). Accepted by the kernel, it is proved (exit 0); otherwise it stays unknown."""
    coq = result.pop("coq")
    if not args.kernel:
        result.pop("conditions", None)
        return result
    from ropecheck.proofs.prove._prove_kernel import kernel_check

    checked = kernel_check(coq, KERNEL_ONLY_SECONDS)
    if not checked["accepted"]:
        result.pop("conditions", None)
        result["method"] += f"; the Coq tactic layer did not close it either ({checked['reason']})"
        return result
    result.update(verdict="proved", kernel=checked,
                  method=f"Coq's tactic layer (the engine: {result['method']})")
    return result


# ---------------------------------------------------------------------------------------------- output
def arrange_arguments(arguments: list[str]) -> list[str]:
    """`prove`'s arguments with the statement first, so that options may come before or after it.

    `--real x "sin(x)**2 + cos(x)**2 == 1"` would let `--real` (several names) swallow the statement: an
    argument that cannot be a symbol list or an option (it contains `=`, a bracket, an operator, a space) is the
    statement; so is the argument right after `--`, whatever it looks like (so the statement `--` itself is
    written `-- --`). The statement is passed on after argparse's own `--`, so one starting with `-` is not read
    as an option and reaches the grammar as typed (its error columns count from the user's first character).
    """
    positional: list[str] = []
    options: list[str] = []
    if "--" in arguments:  # the next argument is the statement, whatever it looks like
        cut = arguments.index("--")
        positional = arguments[cut + 1 : cut + 2]
        arguments = arguments[:cut] + arguments[cut + 2 :]
    for index, argument in enumerate(arguments):
        previous = arguments[index - 1] if index else ""
        after_timeout = len(previous) > 3 and "--timeout".startswith(previous)
        (positional if _is_statement(argument) and not after_timeout else options).append(argument)
    return [*options, "--", *positional] if positional else options


def _is_statement(argument: str) -> bool:
    if "==" in argument:
        return True
    if argument in OPTIONS or argument.startswith("--"):
        return False
    # `-h` is an option (listed above); any other `-x` is a statement (bad input to the grammar, not to argparse).
    return re.fullmatch(r"[A-Za-z0-9_.,]*", argument) is None


def json_error(message: str) -> None:
    """The one JSON object `--json` prints for bad input."""
    answer = {"verdict": "bad-input", "error": message, "exit_code": EXIT_BAD_INPUT}
    json.dump(answer, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


def usage_error(stderr_text: str) -> str:
    """argparse's one-line message (`ropecheck prove: error: …`) from what it printed, without the usage lines."""
    for line in reversed(stderr_text.splitlines()):
        if ": error: " in line:
            return line.split(": error: ", 1)[1].strip()
    return stderr_text.strip().splitlines()[-1] if stderr_text.strip() else "invalid arguments for prove"


def run_prove(args: argparse.Namespace) -> int:
    """Decide the statement in `args` and print the verdict; returns the exit code."""
    waiting = sys.stderr.isatty()  # say what runs: Coq may take tens of seconds with nothing on the screen
    if waiting:
        then = ", then checking with Coq (can take a minute)" if getattr(args, "kernel", True) else ""
        sys.stderr.write(f"ropecheck: searching with the SymPy engine{then}…")
        sys.stderr.flush()
    try:
        result = run_in_worker(args)
    finally:
        if waiting:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
    hints = result.get("hints", [])
    if "error" in result:
        hint = f" (hint: {hints[0]})" if hints else ""
        sys.stderr.write(f"ropecheck: bad statement: {result['error']}{hint}\n")
        if args.json:
            json_error(result["error"] + hint)
        return EXIT_BAD_INPUT
    verdict = result["verdict"]
    kernel = result.get("kernel", {})
    if verdict == "proved" and not kernel.get("accepted"):
        verdict = "engine-proved"
    result["verdict"] = verdict
    if verdict == "proved":
        result["coq_statement"] = kernel["statement"]
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(_text(result) + "\n")
    if hints:
        sys.stderr.write(f"ropecheck: hint: {'; '.join(hints)}\n")
    missing = [part for part in ("bubblewrap", "seccomp") if part not in result.get("confinement", [part])]
    if missing:  # say so: never claim more
        what = {"bubblewrap": "bubblewrap (no read-only file system view, no PID namespace)",
                "seccomp": "a seccomp filter"}
        applied = ", ".join(result["confinement"])
        sys.stderr.write(f"ropecheck: note: the worker ran without {' and '.join(what[m] for m in missing)} here "
                         f"(applied: {applied})\n")
    codes = {
        "proved": EXIT_PROVED,
        "engine-proved": EXIT_ENGINE_ONLY,
        "refuted": EXIT_REFUTED,
        "unknown": EXIT_UNKNOWN,
    }
    return codes[verdict]


def _text(result: dict[str, Any]) -> str:
    verdict = result["verdict"]
    kernel = result.get("kernel", {})
    if verdict == "engine-proved":
        reason = kernel.get("reason", "not checked")
        if kernel.get("status") != "cannot-state":
            reason = f"the kernel did not check it: {reason}"
        line = f"proved by the engine only ({result['method']}; {reason})"
    elif verdict == "proved":
        line = f"proved ({result['method']}; Coq checked: {kernel['statement']})"
    else:
        line = f"{verdict} ({result['method']})"
    if "counterexample" in result:
        line += "; " + _counterexample_words(result)
    if result.get("conditions"):
        line += f"; where {', '.join(result['conditions'])}"
    return line


def _counterexample_words(result: dict[str, Any]) -> str:
    """`counterexample x = 1, y = -1: left − right = -1 + cos(1)**2, certified in [-0.708…, -0.708…]` — the point,
    the residual and its enclosure in words (they were printed as Python dicts)."""
    point = result.get("counterexample")
    where = ", ".join(f"{name} = {value}" for name, value in point.items()) if isinstance(point, dict) else str(point)
    interval = result.get("interval")
    if isinstance(interval, dict):
        parts = {"re": "real part", "im": "imaginary part"}
        enclosure = "; ".join(f"{parts.get(key, key)} in {value}" for key, value in interval.items())
    else:
        enclosure = f"in {interval}"
    return f"counterexample {where}: left − right = {result.get('residual')}, certified {enclosure}"
