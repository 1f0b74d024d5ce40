"""`ropecheck prove`: decide a user identity in a killable worker, under a wall-clock limit.

The statement is parsed by `proofs.parse_identity` (a grammar, never `eval`) and decided by the proof engine
in a forked worker process (the parent has already imported SymPy, so the fork starts warm). The parent
waits at most `--timeout` seconds and then kills the worker (`SIGKILL`): running out is
"unknown (time limit)". The worker writes nothing to the terminal (its standard streams go to /dev/null),
may not write files (`RLIMIT_FSIZE = 0`) or start processes (`RLIMIT_NPROC = 0`), and has an address-space
limit; it sends back one JSON object through a pipe.

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

Exit codes: 0 proved (checked by the Coq kernel), 4 proved by the engine only (the kernel could not check
it), 1 refuted, 3 unknown (including the time limit), 2 bad input.
"""


def add_prove_parser(commands: Any) -> None:
    """Register the `prove` subcommand on an argparse subparsers object."""
    prove = commands.add_parser(
        "prove",
        help="decide an identity 'LHS == RHS' with the proof engine",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
    from proofs import BadStatement, _procedures, decide_identity, parse_identity

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
    if decision.verdict == "proved":
        out["kernel"] = _kernel_check(parsed, args.timeout)
    return out


def _kernel_check(parsed: Any, timeout: float) -> dict[str, Any]:
    """Ask the Coq kernel to check the proved identity: `{"accepted": bool, "reason": str}`."""
    try:
        from proofs import _kernel  # type: ignore[attr-defined]
    except ImportError:
        return {"accepted": False, "reason": "no kernel check is available in this build"}
    return _kernel.check_for_cli(parsed, timeout=timeout)  # pragma: no cover - wired when the kernel lands


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


def _worker(args: argparse.Namespace, write_fd: int) -> None:
    """The body of the forked child: never returns."""
    payload: dict[str, Any]
    try:
        _confine_worker()
        payload = _decide(args)
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


def run_in_worker(args: argparse.Namespace) -> dict[str, Any]:
    """Fork a worker, wait at most `args.timeout` seconds, kill it if it is still running."""
    # Warm the fork: SymPy, the parser and the engine are imported once, here, before forking.
    import proofs._engine
    import proofs._parse  # noqa: F401

    if not hasattr(os, "fork"):  # pragma: no cover - no hard limit without fork (not Linux/macOS)
        return _decide(args)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; coverage cannot follow it
        os.close(read_fd)
        _worker(args, write_fd)
    os.close(write_fd)
    chunks: list[bytes] = []
    deadline = time.monotonic() + args.timeout
    finished = False
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
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
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if not finished:
        return {"verdict": "unknown", "method": f"time limit: {args.timeout:g} s", "time_limit": True}
    try:
        return json.loads(b"".join(chunks))
    except ValueError:
        return {"verdict": "unknown", "method": f"the worker stopped without an answer (status {status})"}


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
