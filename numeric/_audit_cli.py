"""`ropecheck audit TARGET [options]`: certify a RoPE implementation from the command line.

Exit codes: 0 the target conforms, 1 a property fails, 2 bad usage or a target that cannot be loaded, called,
or that hangs (one line on stderr, no traceback). `--json` prints one object (the `AuditReport.to_json()`
schema) and nothing else on stdout; progress is shown on a terminal's stderr only, never with `--json`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"ropecheck audit: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The `ropecheck audit` argument parser."""
    from numeric._audit_policy import DEFAULT_SCORE_BUDGET

    parser = _Parser(
        prog="ropecheck audit",
        description=(
            "Certify a RoPE implementation fn(x, positions) -> y (x: (..., L, d), positions: (L,) integers) by"
            " extracting its per-position linear map and comparing it with a high-precision reference."
        ),
    )
    parser.add_argument("target", help="package.module:attr, path/to/file.py:attr, or a built-in target name")
    parser.add_argument("--base", type=float, help="expected θ base (default: inferred from the spectrum)")
    parser.add_argument("--layout", help="expected pairing: interleaved or half (default: detected)")
    parser.add_argument(
        "--scaling",
        help="linear:F, ntk:F, dynamic:F[,orig=N], yarn:F[,orig=N], llama3:F[,orig=N,low=1,high=4], "
        "longrope:F[,orig=N,short=a/b/…,long=a/b/…]",
    )
    parser.add_argument("--rotary-dim", type=int, help="expected rotary dimension (partial rotary)")
    parser.add_argument("--max-position", type=int, default=32768, help="audit positions 0…N−1 (default 32768)")
    parser.add_argument("--dtypes", default="float32,bfloat16,float16,float64", help="comma-separated dtypes")
    parser.add_argument("--framework", default="auto", help="auto (default), numpy, torch or jax")
    parser.add_argument("--head-dim", type=int, help="head dimension d (default: tries 128, 64, …)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds one call may take (default 30)")
    parser.add_argument(
        "--budget", type=float, default=DEFAULT_SCORE_BUDGET, help="relative score-error budget (default 2^-6)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--report", metavar="DIR", help="write report.md, report.html and plots into DIR")
    return parser


def _json_safe(value: Any) -> Any:
    """Non-finite floats as strings ("inf", "nan"), so the output is strict JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(item) for item in value]
    return value


def main(argv: Sequence[str] | None = None) -> int:
    """Run `ropecheck audit` with these arguments (without the word `audit`); returns the exit code.

    **Arguments:**

    - `argv`: the arguments after `audit`; default `sys.argv[1:]`.

    **Returns:**

    0 conforms, 1 a property fails, 2 bad usage / target cannot be loaded or called.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from numeric._audit import audit
    from numeric._targets import AuditError

    try:
        report = audit(
            args.target,
            base=args.base,
            layout=args.layout,
            scaling=args.scaling,
            rotary_dim=args.rotary_dim,
            max_position=args.max_position,
            dtypes=args.dtypes,
            framework=args.framework,
            head_dim=args.head_dim,
            timeout=args.timeout,
            budget=args.budget,
            progress=not args.json and sys.stderr.isatty(),
        )
    except AuditError as error:
        sys.stderr.write(f"ropecheck audit: error: {error}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("ropecheck audit: interrupted\n")
        return EXIT_USAGE
    except Exception as error:  # never a traceback for the user; the message names the failure
        message = " ".join(str(error).split())
        sys.stderr.write(f"ropecheck audit: error: the audit stopped: {type(error).__name__}: {message}\n")
        return EXIT_USAGE
    if args.report:
        from numeric._audit_report import write_report

        try:
            write_report(report, args.report)
        except OSError as error:
            sys.stderr.write(f"ropecheck audit: error: cannot write the report to {args.report!r}: {error}\n")
            return EXIT_USAGE
    try:
        if args.json:
            json.dump(_json_safe(report.to_json()), sys.stdout, ensure_ascii=False)
            sys.stdout.write("\n")
            sys.stdout.flush()
        else:
            from numeric._audit_report import print_summary

            print_summary(report)
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
    return EXIT_OK if report.ok else EXIT_FAIL
