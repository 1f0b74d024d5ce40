"""`ropecheck audit TARGET [options]`: certify an implementation from the command line — a thin layer that parses
(`numeric.audit.function.arguments`, shared with the pytest plugin), calls `ropecheck.numeric.audit.audit` and prints.

`ropecheck audit --list` lists the built-in targets (real libraries) with their installed versions;
`ropecheck audit --all [--json | --markdown]` audits every installed built-in with its defaults and prints the
conformance table (`numeric.audit.report.conformance`), each failing finding with the claims it breaks and the
one-line command that reproduces it.

Exit codes: 0 the target conforms, 1 a property fails, 2 bad usage or a target that cannot be loaded, called,
or that hangs (one line on stderr, no traceback). `--json` prints one object (the `AuditReport.to_json()`
schema) and nothing else on stdout. While the audit runs, what libraries print (C extensions, Python warnings,
`logging`) is captured (`ropecheck.numeric.audit.function.noise`) and summarised after the report in one stderr
line (`--verbose` prints it all); a terminal's stderr shows a status line meanwhile. A reader that closes the pipe
(`| head`) does not change the exit code.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ropecheck.numeric.audit.function.arguments import build_parser
from ropecheck.numeric.audit.function.noise import NoiseCapture
from ropecheck.numeric.audit.function.results import EXIT_FAIL, EXIT_OK, EXIT_USAGE
from ropecheck.numeric.audit.report.conformance import builtin_rows
from ropecheck.numeric.audit.report.json import json_safe

from ._pipes import silence_stdout

__all__ = ["build_parser", "format_list", "main"]



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
        silence_stdout()
    except SystemExit:  # rich's Console.on_broken_pipe: it pointed stdout at /dev/null and exits 1
        pass
    noise.write_to(sys.stderr, args.verbose)
    return EXIT_OK if report.ok else EXIT_FAIL


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
        rows = builtin_rows()
    try:
        _print_list(rows, as_json)
    except BrokenPipeError:
        silence_stdout()
    return EXIT_OK


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
        silence_stdout()
    audited = [row for row in rows if row["verdict"] is not None]
    return EXIT_OK if audited and all(row["verdict"] == "pass" for row in audited) else EXIT_FAIL
