"""The `ropecheck` command line: `claims`, `prove` and `audit`.

Exit codes are part of the interface:

| command | 0 | 1 | 2 | 3 |
|---|---|---|---|---|
| `claims` | every claim decided | some claim unknown | bad usage | — |
| `prove` | proved (kernel-checked; 4: by the engine only) | refuted | bad input | unknown |
| `audit` | conforms | a property fails | bad usage / target cannot be loaded or called | — |

Bad input never shows a traceback: one line on stderr and the exit code.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from ._cli_prove import add_prove_parser, run_prove

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line with exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"ropecheck: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ropecheck", description="Verify claims about positional encodings; audit RoPE code.")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    claims = commands.add_parser("claims", help="print the claims ledger with live verdicts")
    claims.add_argument("--json", action="store_true", help="print JSON instead of a table")
    claims.add_argument("--id", dest="ids", action="append", default=[], metavar="ID", help="only these claims")
    claims.add_argument(
        "--no-numeric",
        dest="numeric",
        action="store_false",
        help="skip the numeric evidence (JAX in float16, bfloat16, float32, float64 and mpmath) per claim",
    )

    add_prove_parser(commands)

    commands.add_parser("audit", help="certify a RoPE implementation (see 'ropecheck audit --help')", add_help=False)
    return parser


# ---------------------------------------------------------------------------------------------- claims
def _claims_json(ids: Sequence[str], with_numeric: bool) -> list[dict[str, Any]]:
    from proofs import all_claims, get_claim

    selected = [get_claim(i) for i in ids] if ids else list(all_claims())
    entries = [claim.to_json() for claim in selected]
    if with_numeric:
        from ._evidence import numeric_evidence

        for claim, entry in zip(selected, entries, strict=True):
            entry["numeric"] = numeric_evidence(claim)
    return entries


def _finite_json(value: Any) -> Any:
    """Strict JSON: non-finite floats become the strings "inf", "-inf", "nan"."""
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {k: _finite_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite_json(v) for v in value]
    if hasattr(value, "item") and callable(value.item):  # NumPy scalars
        return _finite_json(value.item())
    return value


def _print_claims_table(entries: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title="ropecheck claims ledger",
        caption="numeric: ✓ confirms the verdict · ~ effect below what the format can resolve · ✗ contradiction",
    )
    table.add_column("ID", style="bold", no_wrap=True)
    table.add_column("verdict")
    table.add_column("kernel (Coq)")
    table.add_column("sources")
    table.add_column("title")
    has_numeric = any("numeric" in e for e in entries)
    if has_numeric:
        table.add_column("numeric f16·bf16·f32·f64·mp")
    colour = {"proved": "green", "refuted": "red", "unknown": "yellow"}  # anything else: engine only
    for entry in entries:
        verdict = entry["verdict"]
        if entry.get("correction"):
            verdict += f" (correction {entry['correction']['verdict']})"
        sources = ", ".join(sorted({_short_source(s["document"]) for s in entry["sources"]}))
        shade = colour.get(entry["verdict"], "magenta")
        row = [entry["id"], f"[{shade}]{verdict}[/]", _kernel_cell(entry), sources, entry["title"]]
        if has_numeric:
            row.append(_numeric_cell(entry.get("numeric", {})))
        table.add_row(*row)
    Console(width=200).print(table)


def _kernel_cell(entry: dict[str, Any]) -> str:
    """`3/3 checked` (theorems of the claim the kernel checked), or why there are none."""
    theorems = entry.get("kernel_theorems", [])
    if not theorems:
        return "no theorem"
    checked = sum(t["status"] == "checked" for t in theorems)
    if {t["status"] for t in theorems} == {"not-run"}:
        return "not run"
    return f"{checked}/{len(theorems)} checked"


def _short_source(document: str) -> str:
    """`001` for a seed file, `Su et al. 2021` for a paper."""
    if re.fullmatch(r"\d{3}_[0-9a-f]+\.txt", document):
        return document[:3]
    return document.split(",")[0]


def _numeric_mark(check: dict[str, Any] | None) -> str:
    """✓ the mirror confirms the verdict; ~ the effect is too small for the format to show (a refutation's
    discrepancy under 100× its rounding bound, or a witness inside rounding); ✗ a proved identity's error
    exceeds its bound (a contradiction to investigate); · not measured."""
    if not check:
        return "·"
    if check.get("agrees"):
        return "✓"
    within = check.get("ratio", math.inf) <= 1
    if check.get("measure") == "discrepancy" or ("witness_margin" in check and within):
        return "~"
    return "✗"


def _numeric_cell(numeric: dict[str, Any]) -> str:
    return "".join(_numeric_mark(numeric.get(key)) for key in ("float16", "bfloat16", "float32", "float64", "mpmath"))


def _run_claims(args: argparse.Namespace) -> int:
    from proofs import claim_ids

    unknown = [i for i in args.ids if i not in claim_ids()]
    if unknown:
        sys.stderr.write(f"ropecheck: error: unknown claim ID: {', '.join(unknown)}\n")
        return EXIT_USAGE
    entries = _claims_json(args.ids, args.numeric)
    if args.json:
        from proofs import kernel_info

        document: dict[str, Any] = {"kernel": kernel_info(), "claims": entries}
        if args.numeric and not args.ids:
            from ._evidence import ledger_numeric_tables

            document.update(ledger_numeric_tables())  # "decay" and "precision_limits"
        json.dump(_finite_json(document), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        _print_claims_table(entries)
    undecided = [e["id"] for e in entries if e["verdict"] == "unknown"]
    return EXIT_FAIL if undecided else EXIT_OK


# ------------------------------------------------------------------------------------------------ main
def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `ropecheck` console script; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "audit":
        from ._audit_cli import main as audit_main

        return audit_main(argv[1:])
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    runners = {"claims": _run_claims, "prove": run_prove}
    try:
        return runners[args.command](args)
    except KeyboardInterrupt:
        sys.stderr.write("ropecheck: interrupted\n")
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into e.g. `head`: not an error of ropecheck
        sys.stderr.close()
        return EXIT_OK
