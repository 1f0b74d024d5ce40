"""`ropecheck audit-attention CONFIG [--model MODULE:FACTORY] [--json] [--seed N]`: the attention-level audit of one
model config.

CONFIG is a `config.json` path or a built-in name (`ropecheck audit-attention --list`). `--model` audits your own
model: `package.module:function` or `path/to/file.py:function`, a function that returns a torch module built from
the (shrunk) transformers config it is given; the module is imported, nothing typed is evaluated. Exit codes: 0 every
property holds, 1 a property fails or the model raised on a probe (verdict `incomplete`), 2 bad usage, a config
that cannot be read or built, or a factory that cannot be loaded or fails (one line on stderr, never a traceback).
The config file is only read.

Claims served: those of the properties it runs (see `ropecheck.numeric.audit.attention`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from ._pipes import reader_may_close

if TYPE_CHECKING:
    from ..numeric.audit.attention import AttentionReport

__all__ = ["build_parser", "main", "print_report"]

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"ropecheck audit-attention: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `ropecheck audit-attention`."""
    parser = _Parser(
        prog="ropecheck audit-attention",
        description="Build a tiny random-init model from a config (rope fields kept, widths shrunk, no weights) and "
        "check prefill = decode with the KV cache, padding, batches, offsets, per-layer bases, sliding windows, "
        "the softmax scale and M-RoPE.",
    )
    parser.add_argument("config", nargs="?", help="a config.json path or a built-in name")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--model", metavar="MODULE:FACTORY",
                        help="audit your own model: a function (package.module:function or path/to/file.py:function) "
                        "that returns a torch module built from the config it is given")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random initialisation (default 0)")
    parser.add_argument("--list", action="store_true", help="list the built-in configs and exit")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    from ..numeric.audit._lean_import import collection_paused, one_torch_thread
    from ..numeric.audit.attention import BUILTIN_CONFIGS, ConfigError, load_config

    if args.list:
        with reader_may_close():
            print("\n".join(BUILTIN_CONFIGS))
        return EXIT_OK
    if not args.config:
        sys.stderr.write("ropecheck audit-attention: error: give a config.json path or a built-in name (--list)\n")
        return EXIT_USAGE
    from ._audit_config import quiet_engines  # torch logs load warnings with the environment's paths (issue 36)

    try:
        load_config(args.config)  # bad input is told before torch is imported (5 CPU-s, issue #32)
        with quiet_engines():
            with collection_paused():  # torch's import: nothing to collect yet (issue #32's cost)
                import torch  # noqa: F401  (imported here, before the audit imports it)

            from ..numeric.audit.attention import audit_attention

            with one_torch_thread():  # tiny models: threads only contend
                report = audit_attention(args.config, seed=args.seed, model=args.model)
    except ConfigError as error:
        sys.stderr.write(f"ropecheck audit-attention: error: {error}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("ropecheck audit-attention: interrupted\n")
        return EXIT_USAGE
    with reader_may_close():
        if args.json:
            from ..numeric._json import finite_json

            json.dump(finite_json(report.to_json()), sys.stdout, indent=2, ensure_ascii=False)
            sys.stdout.write("\n")
        else:
            print_report(report)
    return EXIT_OK if report.verdict == "pass" else EXIT_FAIL  # fail, or incomplete (a probe raised)


def print_report(report: AttentionReport) -> None:
    """Print the text report: on a terminal wrapped at spaces to its width (80 columns when it says nothing), each
    finding's detail on continuation lines under its property; piped, one record per line (for `grep`)."""
    print(report.to_text(shutil.get_terminal_size().columns if sys.stdout.isatty() else None))
