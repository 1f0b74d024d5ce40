"""`ropecheck prove`: decide a user identity in a killable worker, under a wall-clock limit.

The statement is parsed by `ropecheck.proofs.parse_identity` (a grammar, never `eval`) and decided by the proof engine
in a forked worker process (the parent has already imported SymPy, so the fork starts warm). The parent
waits at most `--timeout` seconds in all and then kills the worker (`SIGKILL`): running out is
"unknown (time limit)". The worker writes nothing to the terminal (its standard streams go to /dev/null),
may not write files (`RLIMIT_FSIZE = 0`) or start processes (`RLIMIT_NPROC = 0`), and has an address-space
limit; it sends back one JSON object through a pipe.

When the engine proves the identity, a second worker (in its own process group, killed with its `coqc` at
the deadline) asks the Coq kernel (`ropecheck.proofs._kernel.check_identity`) to check the printed theorem; only its
acceptance makes the answer "proved" (exit 0). Otherwise the answer is "proved by the engine only (kernel
could not check: reason)", exit 4 — for instance for complex symbols, side conditions (Coq's division is
total), or functions the printer does not translate.

Exit codes: 0 proved and kernel-checked, 1 refuted (certified counterexample), 2 bad input, 3 unknown
(including the time limit), 4 proved by the engine only (the kernel could not check it). Errors are one line
on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import Any

EXIT_PROVED, EXIT_REFUTED, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_ENGINE_ONLY = 0, 1, 2, 3, 4
DEFAULT_TIMEOUT = 20.0
WORKER_MEMORY_BYTES = 4 * 2**30

_DESCRIPTION = """\
Decide an identity 'LHS == RHS' for all values of its symbols: proved, refuted (with a certified
counterexample) or unknown.

Grammar: numbers, symbol names, + - * / ** ^ ( ) , and one ==; constants pi, E, I, oo; functions sin cos tan
cot sec csc asin acos atan acot sinh cosh tanh coth sech csch asinh acosh atanh exp log sqrt Abs sign floor
ceiling frac Min Max re im conjugate; Sum(body, (k, a, b)) with integer bounds; Matrix([[a, b], [c, d]]).
Nothing is evaluated as Python. Decimal literals are exact rationals: 0.1 means 1/10 (no floating point).
Undeclared symbols are complex; declare domains with --real/--positive/--integer (several names each).
Limits: 4000 characters, 64 nesting levels, 1000-digit literals, exponents up to 10**6, exact numbers up to
2**4096.

Exit codes: 0 proved (the Coq kernel accepted the printed theorem), 4 proved by the engine only (the kernel
could not check it: complex symbols, side conditions, untranslatable functions, --no-kernel), 1 refuted (a
counterexample certified by interval arithmetic), 3 unknown (including the time limit), 2 bad input.
"""


def add_prove_parser(commands: Any) -> None:
    """Register the `prove` subcommand on an argparse subparsers object."""
    from ._help import HelpFormatter

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
        help=f"wall-clock limit for the whole decision (default {DEFAULT_TIMEOUT:g}); running out is unknown",
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
def _decide(args: argparse.Namespace) -> dict[str, Any]:
    """Parse and decide (runs in the worker). Returns a JSON-able summary."""
    from ropecheck.proofs import BadStatement, _procedures, decide_identity, parse_identity

    _procedures.procedure_seconds = max(1.0, args.timeout / 3)
    try:
        parsed = parse_identity(args.statement, real=args.real, positive=args.positive, integer=args.integer)
    except BadStatement as error:
        return {"error": str(error)}
    decision = decide_identity(parsed.lhs, parsed.rhs, denominators=parsed.denominators)
    out: dict[str, Any] = {"verdict": str(decision.verdict), "method": decision.method}
    if decision.counterexample is not None:
        out["counterexample"] = decision.counterexample.point
        out["residual"] = decision.counterexample.residual
        out["interval"] = decision.counterexample.interval
    if decision.conditions:
        out["conditions"] = list(decision.conditions)
    if parsed.hints:
        out["hints"] = list(parsed.hints)
    return out


def _kernel_check(args: argparse.Namespace, budget: float) -> dict[str, Any]:
    """Ask the Coq kernel to check the identity the engine proved (runs in the kernel worker).

    The statement is parsed again here (the decision worker may not start processes or write files, which
    `coqc` needs). `ropecheck.proofs._kernel.check_identity` prints `forall <real binders>, lhs = rhs` and runs coqc;
    only `checked` (compiled, standard axioms only) counts. Coq's division, `sqrt` and `ln` are total
    functions, so a statement that needs side conditions or is about complex numbers is not printed or not
    checked: it stays "proved by the engine only".
    """
    from ropecheck.proofs import parse_identity
    from ropecheck.proofs._kernel import check_identity, coq_available

    if not coq_available():
        return {"accepted": False, "status": "not-run", "reason": "Coq (coqc) is not installed"}
    parsed = parse_identity(args.statement, real=args.real, positive=args.positive, integer=args.integer)
    result = check_identity(parsed.lhs, parsed.rhs, timeout=max(1.0, budget))
    return {
        "accepted": result.checked,
        "status": result.status,
        "reason": result.message,
        "statement": result.statement,
    }


def _confine_worker() -> None:
    """Standard streams to /dev/null; no files written, no processes started, bounded memory."""
    import resource

    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    for limit, value in (
        (resource.RLIMIT_FSIZE, 0),
        (resource.RLIMIT_NPROC, 0),
        (resource.RLIMIT_AS, _current_address_space() + WORKER_MEMORY_BYTES),
        (resource.RLIMIT_CORE, 0),
    ):
        try:
            resource.setrlimit(limit, (value, value))
        except (ValueError, OSError):
            pass
    sys.setrecursionlimit(10_000)
    sys.set_int_max_str_digits(0)


def _current_address_space() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _worker(body: Callable[[], dict[str, Any]], write_fd: int, confine: bool) -> None:
    """The body of a forked child: never returns."""
    payload: dict[str, Any]
    try:
        if confine:
            _confine_worker()
        else:
            os.setpgid(0, 0)  # its own process group, so that coqc dies with it
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
        payload = body()
    except MemoryError:
        payload = {"verdict": "unknown", "method": "the worker ran out of memory"}
    except RecursionError:
        payload = {"verdict": "unknown", "method": "the statement is too deeply nested for the engine"}
    except BaseException as error:  # an engine failure is "unknown", never a traceback
        payload = {"verdict": "unknown", "method": f"internal error in the engine: {type(error).__name__}"}
    try:
        data = json.dumps(payload).encode()
        while data:
            data = data[os.write(write_fd, data) :]
    finally:
        os._exit(0)


def _run_forked(body: Callable[[], dict[str, Any]], timeout: float, confine: bool) -> dict[str, Any] | None:
    """Run `body` in a forked child; its JSON answer, or `None` when it did not answer within `timeout`
    (then it is killed, with its process group when not confined)."""
    if not hasattr(os, "fork"):  # pragma: no cover - no hard limit without fork (not Linux/macOS)
        return body()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; coverage cannot follow it
        os.close(read_fd)
        _worker(body, write_fd, confine)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    finished = False
    try:
        while (remaining := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([read_fd], [], [], remaining)
            if not ready:
                break
            chunk = os.read(read_fd, 1 << 16)
            if not chunk:
                finished = True
                break
            chunks.append(chunk)
    finally:
        os.close(read_fd)
        if not finished:
            _kill(pid, group=not confine)
        _, status = os.waitpid(pid, 0)
    if not finished:
        return None
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return {"verdict": "unknown", "method": f"the worker stopped without an answer (status {status})"}


def _kill(pid: int, group: bool) -> None:
    try:
        if group:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run_in_worker(args: argparse.Namespace) -> dict[str, Any]:
    """Decide in a confined worker, then (when proved) ask the kernel in a second one, all within
    `args.timeout` seconds."""
    # Warm the fork: SymPy, the parser and the engine are imported once, here, before forking.
    import ropecheck.proofs._engine
    import ropecheck.proofs._parse  # noqa: F401

    deadline = time.monotonic() + args.timeout
    result = _run_forked(lambda: _decide(args), args.timeout, confine=True)
    if result is None:
        return {"verdict": "unknown", "method": f"time limit: {args.timeout:g} s", "time_limit": True}
    if result.get("verdict") == "proved" and not args.kernel:
        result["kernel"] = {"accepted": False, "status": "not-run", "reason": "skipped (--no-kernel)"}
    elif result.get("verdict") == "proved":
        budget = deadline - time.monotonic()
        kernel = _run_forked(lambda: _kernel_check(args, budget), budget, confine=False) if budget > 0 else None
        if kernel is None:
            kernel = {"accepted": False, "status": "time-limit", "reason": f"time limit: {args.timeout:g} s"}
        elif "accepted" not in kernel:  # the kernel worker failed
            kernel = {"accepted": False, "status": "error", "reason": kernel.get("method", "kernel worker failed")}
        result["kernel"] = kernel
    return result


# ---------------------------------------------------------------------------------------------- output
def run_prove(args: argparse.Namespace) -> int:
    """Decide the statement in `args` and print the verdict; returns the exit code."""
    result = run_in_worker(args)
    hints = result.get("hints", [])
    if "error" in result:
        hint = f" (hint: {hints[0]})" if hints else ""
        sys.stderr.write(f"ropecheck: bad statement: {result['error']}{hint}\n")
        return EXIT_BAD_INPUT
    verdict = result["verdict"]
    kernel = result.get("kernel", {})
    if verdict == "proved" and not kernel.get("accepted"):
        verdict = "engine-proved"
    result["verdict"] = verdict
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(_text(result) + "\n")
    if hints:
        sys.stderr.write(f"ropecheck: hint: {'; '.join(hints)}\n")
    codes = {
        "proved": EXIT_PROVED,
        "engine-proved": EXIT_ENGINE_ONLY,
        "refuted": EXIT_REFUTED,
        "unknown": EXIT_UNKNOWN,
    }
    return codes[verdict]


def _text(result: dict[str, Any]) -> str:
    verdict = result["verdict"]
    if verdict == "engine-proved":
        reason = result.get("kernel", {}).get("reason", "not checked")
        line = f"proved by the engine only ({result['method']}; kernel could not check: {reason})"
    else:
        line = f"{verdict} ({result['method']})"
    if "counterexample" in result:
        line += f"; counterexample {result['counterexample']}, residual {result['residual']} in {result['interval']}"
    if "conditions" in result:
        line += f"; where {', '.join(result['conditions'])}"
    return line
