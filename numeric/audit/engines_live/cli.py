"""`ropecheck audit-engines CONFIG [CONFIG ...]`: the same tiny weights in every installed engine, logits against
ropecheck's float64 reference.

Exit codes: 0 every engine that ran conforms (or differs only by its documented design) · 1 an engine differs or
could not run · 2 bad input (a config that cannot be read or built) · 3 ropecheck's own adapter failed.

Claims served: ROPE-FREQUENCIES, ROPE-QK-RELATIVE.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from ._engines import ENGINES

__all__ = ["EXIT_CODES", "add_parser", "main", "run"]

EXIT_OK, EXIT_DIFFERS, EXIT_USAGE, EXIT_ADAPTER = 0, 1, 2, 3
EXIT_CODES = ("0 every engine that ran conforms (or differs by its documented design) · 1 an engine differs or could "
              "not run · 2 bad input · 3 ropecheck's adapter failed")
_HELP = ("run the same tiny random-init model of a config in every installed engine (transformers, MLX-LM, "
         "llama.cpp, vLLM) and compare its log-probabilities with ropecheck's float64 reference")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"ropecheck audit-engines: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _configure(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("config", metavar="CONFIG", nargs="+", help="a config.json or a directory holding one")
    parser.add_argument("--engine", dest="engines", action="append", choices=list(ENGINES), metavar="NAME",
                        help=f"only this engine (repeatable; one of {', '.join(ENGINES)})")
    parser.add_argument("--json", action="store_true", help="print the run as JSON (date, machine, configs)")
    parser.add_argument("--markdown", action="store_true", help="print the conformance table")
    parser.add_argument("--record", metavar="FILE", help="also write the run's JSON record to FILE (the conformance "
                        "page is generated from these: docs/engines-runs/)")
    parser.add_argument("--work", metavar="DIR", help="keep the tiny models here (default: a temporary folder)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random weights (default 0)")
    return parser


def add_parser(commands: Any) -> None:
    """Register `audit-engines` on the `ropecheck` subcommand table."""
    _configure(commands.add_parser("audit-engines", help=_HELP, description=_HELP + ". Exit codes: " + EXIT_CODES))


def run(args: argparse.Namespace) -> int:
    """Run a parsed `audit-engines` command; returns the exit code."""
    from .._lean_import import quiet_engines
    from ..attention import ConfigError as BuildError
    from ..model_config import ConfigError
    from ._audit import audit_engines
    from ._reference import ReferenceError
    from ._report import conformance_markdown, run_record, to_text

    for config in args.config:
        path = Path(config)
        if not (path.is_file() or (path / "config.json").is_file()):
            sys.stderr.write(f"ropecheck audit-engines: error: no config file at {config!r}\n")
            return EXIT_USAGE
    try:
        with quiet_engines():  # torch and torchao log load warnings with the environment's paths (issue 36)
            import transformers

            transformers.logging.set_verbosity_error()
            transformers.utils.logging.disable_progress_bar()  # "Writing model shards" on every saved tiny model
            runs = audit_engines(args.config, args.engines, Path(args.work) if args.work else None, seed=args.seed)
    except (ConfigError, BuildError) as error:
        sys.stderr.write(f"ropecheck audit-engines: error: {error}\n")
        return EXIT_USAGE
    except ReferenceError as error:
        sys.stderr.write(f"ropecheck audit-engines: ropecheck error: {error}\n")
        return EXIT_ADAPTER
    record = run_record(runs)
    if args.record:
        from ..._json import finite_json

        Path(args.record).write_text(json.dumps(finite_json(record), indent=1, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    if args.json:
        from ..._json import finite_json

        json.dump(finite_json(record), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.markdown:
        sys.stdout.write(conformance_markdown([record]))
    else:
        sys.stdout.write(to_text(runs))
    verdicts = [e.verdict for r in runs for e in r.engines]
    if "ropecheck error" in verdicts:
        return EXIT_ADAPTER
    return EXIT_DIFFERS if any(v in ("differs", "could not run") for v in verdicts) else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """`ropecheck audit-engines ARGS`; returns the exit code."""
    parser = _configure(_Parser(prog="ropecheck audit-engines", description=_HELP))
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return run(args)
