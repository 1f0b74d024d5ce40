"""`ropecheck audit TARGET [options]`: certify a RoPE implementation from the command line.

`ropecheck audit --list` lists the built-in targets (real libraries) with their installed versions;
`ropecheck audit --all [--json | --markdown]` audits every installed built-in with its defaults and prints the
conformance table (`numeric.audit.report.conformance`), each failing finding with the claims it breaks and the one-line
command that reproduces it.

Exit codes: 0 the target conforms, 1 a property fails, 2 bad usage or a target that cannot be loaded, called,
or that hangs (one line on stderr, no traceback). `--json` prints one object (the `AuditReport.to_json()`
schema) and nothing else on stdout. While the audit runs, what libraries print (C extensions, Python warnings,
`logging`) is captured (`ropecheck.numeric.audit.function.noise`) and summarised after the report in one stderr line
(`--verbose`
prints it all); a terminal's stderr shows a status line meanwhile. A reader that closes the pipe (`| head`) does
not change the exit code.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from ropecheck.numeric.audit.function.noise import NoiseCapture
from ropecheck.numeric.audit.function.results import EXIT_FAIL, EXIT_OK, EXIT_USAGE
from ropecheck.numeric.audit.report.json import json_safe


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"ropecheck audit: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


#: The declarable conventions, defaults and limits, as `--help` prints them (laid out for the terminal's width by
#: `numeric._help`; docs/audit-reference.md and docs/audit-guide.md say the same).
CONVENTIONS = """\
declarable conventions (each is a real convention, not a bug, when the model was trained with it):

  --direction clockwise  the rotation (x1 cos + x2 sin, -x1 sin + x2 cos): equivalent to counter-clockwise up to
    the sign of W_k; without it a clockwise target fails `direction` (one root cause)
  --rotary-dim R --partial first  partial rotary on the first R coordinates (half-split or interleaved among
    them), theta_i = base^(-2i/R), the rest passed through (GPT-NeoX rotary_pct, Phi)
  --rotary-dim R --partial p-rope  p-RoPE: pairs (i, i + d/2) for i < R/2 with theta_i = base^(-2i/d), the rest
    unrotated
  --scaling yarn:F,orig=N,truncate=false  YaRN without rounding the correction range (HF's `truncate: False`)
  --scaling yarn:F,...,attn=G | attn=softmax  YaRN's attention factor: G overrides 0.1 ln F + 1 in cos/sin;
    `softmax` declares that it is applied in the softmax scale instead, so cos/sin carry none

defaults: the dtypes models run in (float32, bfloat16, float16; float64 with --dtypes, or alone when the target
returns float64 for float32 input); an undeclared base is inferred and said loudly (a failure with --strict); a
target that raises beyond position N-1 (a fixed-length table) is audited on 0...N-1 and the report says so.

limits: --max-position N audits positions 0...N-1, N from 2 to 2^31 (rope), at least 64 for --kind sinusoidal,
260 for --kind scores and 640 for --kind bias.
"""


def build_parser() -> argparse.ArgumentParser:
    """The `ropecheck audit` argument parser."""
    from ropecheck.numeric._help import HelpFormatter
    from ropecheck.numeric.audit.function.policy import DEFAULT_SCORE_BUDGET

    parser = _Parser(
        prog="ropecheck audit",
        formatter_class=HelpFormatter,
        epilog=CONVENTIONS,
        description=(
            "Certify a RoPE implementation fn(x, positions) -> y (x: (..., L, d), positions: (L,) integers) by"
            " extracting its per-position linear map and comparing it with a high-precision reference."
        ),
    )
    parser.add_argument(
        "target", nargs="?", help="package.module:attr, path/to/file.py:attr, or a built-in target name (see --list)"
    )
    parser.add_argument("--list", action="store_true", help="list the built-in targets and exit")
    parser.add_argument(
        "--all",
        action="store_true",
        help="audit every installed built-in with its default base and scaling; print the conformance table",
    )
    parser.add_argument("--markdown", action="store_true", help="with --all: print the table as Markdown")
    parser.add_argument(
        "--module-cast",
        action="store_true",
        help="built-ins only: build the module in float32, then cast it to each audited dtype as users cast models",
    )
    parser.add_argument("--base", type=float, help="expected θ base (default: inferred from the spectrum)")
    parser.add_argument("--layout", help="expected pairing: interleaved or half (default: detected)")
    parser.add_argument(
        "--scaling",
        help="linear:F, ntk:F, dynamic:F[,orig=N], yarn:F[,orig=N], llama3:F[,orig=N,low=1,high=4], "
        "longrope:F[,orig=N,short=a/b/…,long=a/b/…]; orig defaults to 2048 (8192 for llama3); yarn also "
        "truncate=false and attn=G|softmax (see below)",
    )
    parser.add_argument(
        "--direction",
        default="counter-clockwise",
        help="declared direction: counter-clockwise (default, RoFormer) or clockwise (see below)",
    )
    parser.add_argument("--partial", help="partial rotary placement: first or p-rope (default: detected; see below)")
    parser.add_argument(
        "--output-layout", choices=("interleaved",),
        help="a declared fixed output order: interleaved writes the half-split pairs (i, i + d/2) to (2i, 2i + 1)"
        " (keras-hub Gemma); default: any fixed output permutation is detected and reported",
    )
    parser.add_argument(
        "--strict", action="store_true", help="an undeclared base is a failure (the pytest plugin's default)"
    )
    parser.add_argument("--rotary-dim", type=int, help="expected rotary dimension (partial rotary)")
    parser.add_argument(
        "--accept-short-table",
        action="store_true",
        help="a fixed-length table shorter than --max-position passes on its positions (default: it fails)",
    )
    parser.add_argument(
        "--max-position", type=int,
        help="audit positions 0…N−1 (default 32768; 8192 with --all); N at least 2, 64 for --kind sinusoidal, 260"
        " for --kind scores, 640 for --kind bias",
    )
    parser.add_argument(
        "--dtypes",
        help="comma-separated dtypes (default: float32,bfloat16,float16 — float64 on request, or alone for a"
        " float64-native target)",
    )
    parser.add_argument("--framework", default="auto", help="auto (default), numpy, torch or jax")
    parser.add_argument("--head-dim", type=int, help="head dimension d (default: tries 128, 64, …)")
    parser.add_argument(
        "--config", metavar="CONFIG", help="a model's config.json[#LAYER_TYPE]: fills --base, --scaling, --rotary-dim,"
        " --partial and --head-dim (explicit options win)",
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds one call may take (default 30)")
    parser.add_argument(
        "--budget", type=float, default=DEFAULT_SCORE_BUDGET, help="relative score-error budget (default 2^-6)"
    )
    from ropecheck.numeric.audit.kinds.cli_options import add_kind_arguments

    add_kind_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="after the report, print in full what third-party libraries printed during the audit"
        " (by default: one summary line on stderr)",
    )
    parser.add_argument("--report", metavar="DIR", help="write report.md, report.html and plots into DIR")
    return parser


def _usage(message: str) -> int:
    sys.stderr.write(f"ropecheck audit: error: {message}\n")
    return EXIT_USAGE


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
    if args.list:
        if args.target or args.all:
            return _usage("--list takes no target and no --all")
        noise = NoiseCapture()
        code = _list(args.json, noise)
        noise.write_to(sys.stderr, args.verbose)
        return code
    if args.all:
        if args.target:
            return _usage("--all audits every built-in; give no target (or audit one by name without --all)")
        noise = NoiseCapture(status="auditing every installed built-in …")
        code = _all(args, noise)
        noise.write_to(sys.stderr, args.verbose)
        return code
    if not args.target:
        return _usage("the following arguments are required: target (or --list, or --all)")
    if args.markdown:
        return _usage("--markdown applies to --all only")
    from ropecheck.numeric.audit import audit
    from ropecheck.numeric.audit.function.calls import AuditError
    from ropecheck.numeric.audit.function.options import option_keywords
    from ropecheck.numeric.audit.function.wording import cli_wording
    from ropecheck.numeric.audit.kinds.cli_options import kind_keywords, rope_only_flags

    if args.config:
        from ropecheck.numeric.audit.model_config import ConfigError, fill_audit_options

        try:
            fill_audit_options(args.config, vars(args))
        except ConfigError as error:
            return _usage(f"--config: {error}")
    if rope_only_flags(args):
        return _usage(f"--kind {args.kind} takes no {', '.join(rope_only_flags(args))}")
    noise = NoiseCapture(status=None if args.json else f"auditing {args.target} …")
    try:
        with noise, cli_wording():
            # progress stays off: stderr is captured while the audit runs (see numeric.audit.function.noise)
            report = audit(args.target, **kind_keywords(args), **option_keywords(args))
    except AuditError as error:
        noise.write_to(sys.stderr, args.verbose)
        sys.stderr.write(f"ropecheck audit: error: {error}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("ropecheck audit: interrupted\n")
        return EXIT_USAGE
    except Exception as error:  # never a traceback for the user; the message names the failure
        noise.write_to(sys.stderr, args.verbose)
        message = " ".join(str(error).split())
        sys.stderr.write(f"ropecheck audit: error: the audit stopped: {type(error).__name__}: {message}\n")
        return EXIT_USAGE
    if args.report:
        from ropecheck.numeric.audit.report import write_report

        try:
            write_report(report, args.report)
        except OSError as error:
            sys.stderr.write(f"ropecheck audit: error: cannot write the report to {args.report!r}: {error}\n")
            return EXIT_USAGE
    try:
        if args.json:
            json.dump(json_safe(report.to_json()), sys.stdout, ensure_ascii=False)
            sys.stdout.write("\n")
            sys.stdout.flush()
        else:
            from ropecheck.numeric.audit.report.terminal import print_summary

            print_summary(report)
    except BrokenPipeError:  # output piped into e.g. `head`: the verdict stands
        _silence_stdout()
    except SystemExit:  # rich's Console.on_broken_pipe: it pointed stdout at /dev/null and exits 1
        pass
    noise.write_to(sys.stderr, args.verbose)
    return EXIT_OK if report.ok else EXIT_FAIL


def _silence_stdout() -> None:
    """After the reader closed the pipe: point stdout at /dev/null so the interpreter's final flush is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


def format_list(rows: list[dict[str, str]], width: int = 80) -> str:
    """`--list` as text within `width` columns: a header, then per target its name, library and version, and an
    indented line with the defaults `audit NAME` uses and its layout or kind."""
    import textwrap

    lines = [
        "Built-in targets. `ropecheck audit NAME` audits one with the defaults shown;",
        "--base/--scaling override them; --json lists every field (what each wraps).",
        "",
        f"{'NAME':<38} {'LIBRARY':<15} VERSION",
    ]
    for row in rows:
        version = str(row["version"])[: width - 55]
        lines.append(f"{row['name']:<38} {row['library']:<15} {version}".rstrip())
        detail = f"{row['layout']}; defaults: {row.get('defaults') or '—'}"
        lines += textwrap.wrap(detail, width, initial_indent="    ", subsequent_indent="      ")
    return "\n".join(lines) + "\n"


def _list(as_json: bool, noise: NoiseCapture) -> int:
    """Print the built-in targets: name, library, version (or why not), layout, positions, what is called."""
    with noise:
        rows = _list_rows()
    try:
        _print_list(rows, as_json)
    except BrokenPipeError:
        _silence_stdout()
    return EXIT_OK


def _list_rows() -> list[dict[str, str]]:
    """The rows of `--list` (importing the libraries to read their versions)."""
    from ropecheck.numeric.audit.adapters import installed_version, is_available, list_adapters
    from ropecheck.numeric.audit.function.builtin_defaults import list_defaults

    rows = []
    for spec in list_adapters():
        available, reason = is_available(spec)
        status = installed_version(spec) if available else reason
        if not available and reason.startswith("not installed"):
            status = "not installed"
        rows.append(
            {
                "name": spec.name,
                "library": spec.library,
                "version": status,
                "layout": spec.layout,
                "positions": spec.positions,
                "scaling": spec.scaling_kind,
                "wraps": spec.wraps,
                "defaults": list_defaults(spec),
            }
        )
    from ropecheck.numeric.audit.kinds.conformance import kind_list_rows

    return rows + kind_list_rows()


def _print_list(rows: list[dict[str, str]], as_json: bool) -> None:
    if as_json:
        json.dump(rows, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    sys.stdout.write(format_list(rows))
    sys.stdout.flush()


def _all(args: argparse.Namespace, noise: NoiseCapture) -> int:
    """`--all`: audit every built-in with its defaults; print the table (text, --json or --markdown)."""
    from ropecheck.numeric.audit.report.conformance import (
        CONFORMANCE_DTYPES,
        DEFAULT_MAX_POSITION,
        conformance_table,
        render_markdown,
    )

    if args.json and args.markdown:
        return _usage("choose one of --json and --markdown")
    ignored = [
        flag
        for flag, value in (
            ("--base", args.base),
            ("--scaling", args.scaling),
            ("--layout", args.layout),
            ("--rotary-dim", args.rotary_dim),
            ("--head-dim", args.head_dim),
            ("--report", args.report),
        )
        if value is not None
    ]
    if ignored:
        sys.stderr.write(
            f"ropecheck audit: error: --all audits each built-in with its own defaults; {', '.join(ignored)}"
            " applies to one target (ropecheck audit NAME ...)\n"
        )
        return EXIT_USAGE
    max_position = DEFAULT_MAX_POSITION if args.max_position is None else args.max_position
    if max_position < 2:
        return _usage(f"--max-position must be at least 2, got {max_position}")
    from ropecheck.numeric.audit.function.wording import cli_wording

    try:
        with noise, cli_wording():  # a row's reason names flags, as the reproduction commands do
            rows = conformance_table(
                max_position=max_position,
                dtypes=args.dtypes or CONFORMANCE_DTYPES,
                module_cast=args.module_cast,
                timeout=args.timeout,
                progress=None,  # stderr is captured while the audits run
            )
    except (ValueError, KeyboardInterrupt) as error:
        return _usage(str(error) or "interrupted")
    try:
        if args.json:
            document = {"max_position": max_position, "module_cast": args.module_cast, "rows": rows}
            json.dump(json_safe(document), sys.stdout, ensure_ascii=False)
            sys.stdout.write("\n")
        else:
            sys.stdout.write(render_markdown(rows, max_position=max_position))
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    audited = [row for row in rows if row["verdict"] is not None]
    return EXIT_OK if audited and all(row["verdict"] == "pass" for row in audited) else EXIT_FAIL
