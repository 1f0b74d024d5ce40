"""The `ropecheck` command line: `claims`, `prove` and `audit`.

Exit codes are part of the interface:

| command | 0 | 1 | 2 | 3 |
|---|---|---|---|---|
| `claims` | every claim checked (a recorded unknown is a verdict) | a theorem failed or has none | bad usage | — |
| `prove` | proved (kernel-checked; 4: by the engine only) | refuted | bad input | unknown |
| `audit` | conforms | a property fails | bad usage / target cannot be loaded or called | — |

Bad input never shows a traceback: one line on stderr and the exit code.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ..numeric._json import finite_json
from ._prove import add_prove_parser, arrange_arguments, json_error, run_prove, usage_error

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line with exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"ropecheck: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


# Exit codes per command, as the table in `ropecheck --help` and the README state them.
EXIT_CODES = {
    "claims": "0 every claim checked (proved, refuted, or unknown for a reason the development records) · 1 a "
    "theorem failed or a claim has none · 2 bad usage",
    "prove": "0 proved (kernel-checked) · 4 proved by the engine only · 1 refuted · 3 unknown · 2 bad input",
    "audit": "0 conforms · 1 a property fails · 2 bad usage, or a target that cannot be loaded or called",
    "audit-attention": "0 every property holds · 1 a property fails · 2 bad usage, or a config that cannot be read",
    "audit-config": "0 every available engine conforms (or does not know the model type) · 1 an engine differs or "
    "cannot build the config · 2 bad input, or an error in ropecheck's own adapter",
    "audit-engines": "0 every engine that ran conforms (or differs by design) · 1 an engine differs or could not run · "
    "2 bad input · 3 ropecheck's adapter failed",
}


def commands_table() -> str:
    """The command table of `ropecheck --help` (and, verbatim, of the README): each command's usage line as
    argparse prints it, what it does, and its exit codes.

    **Returns:** a Markdown table, one row per command.
    """
    from ..numeric.audit.function.arguments import build_parser as build_audit_parser
    from ._audit_attention import build_parser as build_attention_parser

    parser = _build_parser(with_epilog=False)
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in subparsers._choices_actions}
    parsers = {name: sub for name, sub in subparsers.choices.items()}
    parsers["audit"] = build_audit_parser()
    parsers["audit-attention"] = build_attention_parser()
    rows = ["| command | what it does | exit codes |", "|---|---|---|"]
    for name in ("claims", "prove", "audit", "audit-config", "audit-attention", "audit-engines"):
        usage = " ".join(parsers[name].format_usage().split())
        usage = usage.removeprefix("usage: ").replace(" [-h]", "").replace("|", "\\|")
        rows.append(f"| `{usage}` | {helps[name]} | {EXIT_CODES[name]} |")
    return "\n".join(rows)


def _build_parser(with_epilog: bool = True) -> argparse.ArgumentParser:
    from ..numeric._help import HelpFormatter

    parser = _Parser(
        prog="ropecheck",
        description="Verify claims about positional encodings; audit RoPE code.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"ropecheck {_version()}")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    commands.add_parser = functools.partial(commands.add_parser, formatter_class=HelpFormatter)  # type: ignore[method-assign]

    claims = commands.add_parser(
        "claims",
        help="the claims ledger with live verdicts ('claims list', 'claims show ID')",
        description="The claims ledger. 'claims' prints the table, 'claims list' one line per claim, "
        "'claims show ID [ID ...]' one claim in full (IDs are case-insensitive).",
    )
    claims.add_argument("view", nargs="?", choices=["list", "show"], help="list the IDs, or show claims in full")
    claims.add_argument("show_ids", nargs="*", metavar="ID", help="with 'show': the claims to show")
    claims.add_argument("--json", action="store_true", help="print JSON instead of text")
    claims.add_argument(
        "--id", dest="ids", nargs="+", action="extend", default=[], metavar="ID", help="only these claims"
    )
    claims.add_argument(
        "--numeric",
        dest="numeric",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the numeric evidence per claim (JAX in float16, bfloat16, float32, float64 and mpmath); on by default",
    )
    claims.add_argument(
        "--full", action="store_true", help="with --json: keep the engine's statements whole (they can be long)"
    )
    claims.add_argument(
        "--wide", action="store_true", help="every column in full (sources, kernel status), wider than 80 columns"
    )
    claims.add_argument(
        "--recheck",
        action="store_true",
        help="decide everything again from nothing: compile the Coq development, run coqchk and Print Assumptions "
        "and compute every entry without reading the kernel's or the ledger's cache (minutes; for CI and reviewers)",
    )

    add_prove_parser(commands)

    commands.add_parser(
        "audit",
        help="certify an implementation: RoPE, sinusoidal table, position bias or scores (see 'audit --help')",
        add_help=False,
    )
    commands.add_parser(
        "audit-attention",
        help="attention-level audit of a model config: KV cache, padding, batches, M-RoPE (see its --help)",
        add_help=False,
    )
    from ._audit_config import add_parser as add_audit_config_parser

    add_audit_config_parser(commands)
    from ..numeric.audit.engines_live.cli import add_parser as add_audit_engines_parser

    add_audit_engines_parser(commands)
    if with_epilog:  # plain text laid out for the terminal; the Markdown table is in docs/reference.md
        codes = "\n".join(f"  {name}  {text}" for name, text in EXIT_CODES.items())
        parser.epilog = f"exit codes:\n\n{codes}\n\n'ropecheck COMMAND --help' shows a command's options."
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ropecheck")
    except PackageNotFoundError:
        return "unknown"


# ---------------------------------------------------------------------------------------------- claims
def _claims_json(
    ids: Sequence[str], with_numeric: bool, progress: Any = None, use_cache: bool = True
) -> list[dict[str, Any]]:
    from ..numeric._ledger_cache import claim_entries

    return claim_entries(ids, with_numeric, progress, use_cache=use_cache)


# An engine statement longer than this is cut in the JSON unless --full is given (one was 174,509 characters).
ENGINE_STATEMENT_CHARS = 2000


def _trim_engine_statements(entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        for holder in (entry, entry.get("correction") or {}):
            text = holder.get("engine_statement")
            if isinstance(text, str) and len(text) > ENGINE_STATEMENT_CHARS:
                holder["engine_statement"] = text[:ENGINE_STATEMENT_CHARS] + " …"
                holder["engine_statement_truncated"] = len(text)


def _run_claims(args: argparse.Namespace) -> int:
    from ropecheck.proofs import claim_ids

    from ._claims_view import print_claim, print_ids, print_table, resolve_ids, terminal_width

    if args.view is None and args.show_ids:
        sys.stderr.write(f"ropecheck: error: unexpected argument {args.show_ids[0]!r} (did you mean 'claims show'?)\n")
        return EXIT_USAGE
    if args.view == "show" and not args.show_ids:
        sys.stderr.write("ropecheck: error: 'claims show' needs at least one claim ID (see 'ropecheck claims list')\n")
        return EXIT_USAGE
    if args.view == "list" and args.show_ids:
        sys.stderr.write("ropecheck: error: 'claims list' takes no IDs (use 'claims show ID')\n")
        return EXIT_USAGE
    from ._claims_topics import find_topic

    topics = [topic for topic in map(find_topic, args.show_ids) if topic is not None]  # `claims show decay`
    typed = [item for item in args.show_ids if find_topic(item) is None]
    requested = [*args.ids, *typed, *(claim_id for topic in topics for claim_id in topic.claim_ids)]
    ids, errors = resolve_ids(requested, claim_ids())
    if errors:
        sys.stderr.write(f"ropecheck: error: {errors[0]}\n")
        return EXIT_USAGE
    if args.view == "list":
        from ropecheck.proofs import all_claims

        listing = [{"id": claim.id, "topic": claim.topic, "title": claim.title} for claim in all_claims()]
        if args.json:
            json.dump({"claims": listing}, sys.stdout, ensure_ascii=False)
            sys.stdout.write("\n")
        else:
            print_ids(listing)
        return EXIT_OK
    from ._claims_terminal import Progress, print_lines, summary_line

    progress = Progress()
    if args.recheck:
        from ropecheck.proofs.claims._verdicts import recheck

        recheck()
        progress.note("--recheck: compiling and checking the Coq development from nothing (no cache is read)")
    else:
        progress.note("loading the kernel's verdicts (the first run compiles the Coq development)")
    entries = _claims_json(ids, args.numeric, progress, use_cache=not args.recheck)
    if args.json:
        if not args.full:
            _trim_engine_statements(entries)
        from ropecheck.proofs import kernel_info

        from ._claims_cite import add_locations, source_commit

        add_locations(entries)  # each theorem's file:line, and the commit they are read from (issue 36)
        document: dict[str, Any] = {"kernel": kernel_info(), "commit": source_commit(), "claims": entries}
        if args.numeric and not ids:
            from ..numeric._ledger_cache import numeric_tables

            # "decay" and "precision_limits", cached like the entries
            document.update(numeric_tables(use_cache=not args.recheck))
        json.dump(finite_json(document), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.view == "show":
        from ._claims_view import print_answer

        for topic in topics:
            print_answer(topic, entries)
        shown = set(resolve_ids([*args.ids, *typed], claim_ids())[0])
        for entry in entries:
            if entry["id"] in shown:
                print_claim(entry)
    else:
        from ropecheck.proofs import kernel_info

        version = kernel_info()["version"] if any(e.get("kernel_theorems") for e in entries) else None
        width = terminal_width(sys.stdout)
        if width is None or args.wide:
            print_table(entries, width=max(width, 200) if args.wide and width is not None else None)
            sys.stdout.write(summary_line(entries, version) + "\n")
        else:
            print_lines(entries, width, version)
    return EXIT_FAIL if unchecked_claims(entries) and args.view != "show" else EXIT_OK


def unchecked_claims(entries: list[dict[str, Any]]) -> list[str]:
    """Claims the kernel could not check: a listed theorem that failed, or an unknown verdict the development
    does not explain. An unknown the development records with its reason (`(* UNKNOWN X: … *)`, e.g. a claim
    that needs π irrational) is an honest verdict, not a failure of the run."""
    out = []
    for entry in entries:
        failed = any(t.get("status") == "failed" for t in entry.get("kernel_theorems", []))
        documented = str(entry.get("verdict_reason", "")).startswith("the kernel cannot close it")
        if failed or (entry["verdict"] == "unknown" and not documented):
            out.append(entry["id"])
    return out


# ------------------------------------------------------------------------------------------------ main
#: The commands that import torch and transformers: in their own process they import them lean (`_lean_import.py`).
OWN_PROCESS_COMMANDS = ("audit-config", "audit-attention", "audit-engines")


def run_console_script() -> int:
    """Entry point of the `ropecheck` console script and of `python -m ropecheck`: `main` on `sys.argv[1:]`, in a
    process that is the command's own. There `audit-config`, `audit-attention` and `audit-engines` may import
    transformers without scipy and torchao and pause the garbage collector while torch imports (`own_this_process`,
    issue #32's cost); `main`, called from someone else's process (a test, a script), changes neither.

    **Returns:** the exit code.
    """
    argv = sys.argv[1:]
    if argv[:1] and argv[0] in OWN_PROCESS_COMMANDS:
        from ..numeric.audit._lean_import import own_this_process

        own_this_process()
    return main(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run `ropecheck ARGV` in this process (default `sys.argv[1:]`), leaving its imports and garbage collector as
    they were; returns the exit code. The console script is `run_console_script`."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "audit":
        from ._audit import main as audit_main

        return audit_main(argv[1:])
    if argv and argv[0] == "audit-attention":
        from ._audit_attention import main as audit_attention_main

        return audit_attention_main(argv[1:])
    if argv and argv[0] == "prove":
        argv = ["prove", *arrange_arguments(argv[1:])]
    parser = _build_parser()
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors):
            args = parser.parse_args(argv)
    except SystemExit as exit_:
        sys.stderr.write(errors.getvalue())
        if argv[:1] == ["prove"] and "--json" in argv and exit_.code == EXIT_USAGE:
            json_error(usage_error(errors.getvalue()))
        return int(exit_.code or 0)
    sys.stderr.write(errors.getvalue())
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    from ..numeric.audit.engines_live.cli import run as run_audit_engines
    from ._audit_config import run as run_audit_config

    runners = {"claims": _run_claims, "prove": run_prove, "audit-config": run_audit_config,
               "audit-engines": run_audit_engines}
    try:
        return runners[args.command](args)
    except KeyboardInterrupt:
        sys.stderr.write("ropecheck: interrupted\n")
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into e.g. `head`: not an error of ropecheck
        sys.stderr.close()
        return EXIT_OK
