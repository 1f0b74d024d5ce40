"""`ropecheck audit-config CONFIG`: the expected spectrum, attention factor and softmax scale per layer type, and a
verdict per engine.

Exit codes: 0 every available engine conforms (engines not installed are "not available", and an engine that has no
class for the config's model type "does not know model_type": neither is a failure) · 1 an engine differs or cannot
build the config · 2 bad input (missing file, invalid JSON, unknown rope type, bad option), or an error inside
ropecheck's own engine adapter ("please report").

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ..numeric.audit._lean_import import quiet_engines
from ..numeric.audit.model_config import AdapterError, ConfigError
from ..numeric.audit.model_config.engines import ENGINES

if TYPE_CHECKING:
    from ..numeric.audit.model_config import ConfigAudit

__all__ = ["EXIT_CODES", "add_parser", "build_parser", "main", "quiet_engines", "run"]

EXIT_OK, EXIT_DIFFERS, EXIT_USAGE = 0, 1, 2
EXIT_CODES = (
    "0 every available engine conforms (or does not know the model type) · 1 an engine differs or cannot build the"
    " config · 2 bad input, or an error in ropecheck's own adapter"
)
_HELP = (
    "a model's config.json: expected per-layer spectrum (layers without RoPE included), attention factor, softmax"
    " scale by the family's rule, length sweeps; a verdict per engine"
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"ropecheck audit-config: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def _configure(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument(
        "config", metavar="CONFIG", nargs="+", help="a config.json, a directory holding one, or a .gguf file"
    )
    parser.add_argument(
        "--engine", dest="engines", action="append", choices=[*ENGINES, "none"], metavar="NAME",
        help=f"only this engine (repeatable; one of {', '.join(ENGINES)}, or 'none' for the expected values only)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object: config, layers, engines (a list for several)"
    )
    parser.add_argument("--markdown", action="store_true", help="print the configs × engines conformance table")
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The standalone parser of `ropecheck audit-config`."""
    return _configure(_Parser(prog="ropecheck audit-config", description=_HELP + ". Exit codes: " + EXIT_CODES))


def add_parser(commands: Any) -> None:
    """Register `audit-config` on the `ropecheck` subcommand table (its help line in `ropecheck --help`)."""
    _configure(commands.add_parser("audit-config", help=_HELP, description=_HELP + ". Exit codes: " + EXIT_CODES))


def _ranges(indices: tuple[int, ...]) -> str:
    """The layer indices, compressed: `0-2,4-6,8` for (0, 1, 2, 4, 5, 6, 8); a progression of three or more with a
    step above 1 as `3-47/4` (every 4th layer from 3 to 47: Llama 4's and SmolLM3's NoPE layers)."""
    if len(indices) >= 3:
        step = indices[1] - indices[0]
        if step > 1 and all(b - a == step for a, b in itertools.pairwise(indices)):
            return f"{indices[0]}-{indices[-1]}/{step}"
    parts: list[str] = []
    for index in indices:
        if parts and parts[-1].split("-")[-1] == str(index - 1):
            parts[-1] = f"{parts[-1].split('-')[0]}-{index}"
        else:
            parts.append(str(index))
    return ",".join(parts)


def _layers_cell(indices: tuple[int, ...]) -> str:
    """The table's 9-character `layers` cell: the ranges when they fit, else the count (the whole list is then
    printed under the table: a cut list would hide layers, as it once showed 4 of Llama 4 Scout's 12 NoPE layers)."""
    ranges = _ranges(indices)
    return ranges if len(ranges) <= 9 else f"{len(indices)} layers"[:9]


def _print_table(audit: ConfigAudit) -> None:
    model = audit.model
    print(f"config: {model.path} ({model.model_type})")
    # 80 columns (issue 36): a terminal's default width
    print(f"{'layer type':<17} {'layers':<9} {'rope':<8} {'regime':<6} {'d':>4} {'base':>7} {'θ last':>8}"
          f" {'attn':>6} {'softmax':>7}")
    for entry in audit.expected:
        layer = entry.layer
        rotates = layer.rope_type != "none"
        base = f"{layer.base:>7.3g}" if rotates else f"{'—':>7}"
        last = f"{entry.inv_freq[-1]:>8.3g}" if entry.inv_freq else f"{'—':>8}"
        print(f"{layer.layer_type[:17]:<17} {_layers_cell(layer.layer_indices):<9} {layer.rope_type[:8]:<8}"
              f" {str(entry.regime)[:6]:<6} {layer.rotary_dim:>4} {base} {last}"
              f" {entry.attention_factor:>6.4g} {entry.softmax_scale:>7.4g}")
    from ..numeric.audit.model_config import layer_scaling

    for layer in model.layers:
        if _layers_cell(layer.layer_indices) != _ranges(layer.layer_indices):
            ranges = _ranges(layer.layer_indices).replace(",", ", ")
            listed = f"  layers ({layer.layer_type}, {layer.rope_type}): {ranges}"
            print(textwrap.fill(listed, width=80, subsequent_indent="    ", break_on_hyphens=False))
        scaling = layer_scaling(layer)  # the factor and band parameters read (issue 36)
        if scaling is not None:
            spec = re.sub(r"(short|long)=([^,]+)", lambda m: f"{m[1]}=[{m[2].count('/') + 1} values]", scaling.spec())
            print(f"  scaling ({layer.layer_type}): {spec}")
        for reading in layer.readings:
            print(f"  reading ({layer.layer_type}): {reading}")
    if model.unread_keys:
        print(f"  keys no formula reads: {', '.join(model.unread_keys)}")
    print()
    for engine in audit.engines:
        print(f"{engine.name}: {engine.verdict}" + (f" ({engine.version})" if engine.version != "not available" else
                                                     f" — {engine.reason}" if engine.reason else ""))
        for finding in engine.findings:
            where = f" [{finding.where}]" if finding.where else ""
            key = f" (key `{finding.key}`)" if finding.key else ""
            print(f"  - {finding.layer_type}/{finding.regime} {finding.quantity}: {finding.message}{key}{where}")


def run(args: argparse.Namespace) -> int:
    """Run a parsed `audit-config` command; returns the exit code."""
    from ..numeric.audit.model_config import audit_configs, literature_lines, literature_markdown

    engines = [] if args.engines and "none" in args.engines else args.engines
    try:
        with quiet_engines():
            audits = audit_configs(args.config, engines)  # each engine started once for all configs
    except ConfigError as error:
        sys.stderr.write(f"ropecheck audit-config: error: {error}\n")
        return EXIT_USAGE
    except AdapterError as error:
        sys.stderr.write(f"ropecheck audit-config: internal error in ropecheck's {error} — a ropecheck bug, not the "
                         "engine's: please report it\n")
        return EXIT_USAGE
    if args.json:
        from ..numeric._json import finite_json  # strict JSON, as every other command prints it

        documents = [{**a.to_json(), "literature": literature_lines(a.model)} for a in audits]
        json.dump(finite_json(documents[0] if len(documents) == 1 else documents), sys.stdout, indent=2,
                  ensure_ascii=False)
        sys.stdout.write("\n")
    elif args.markdown:
        from ..numeric.audit.model_config import conformance_markdown

        sys.stdout.write(conformance_markdown(audits))
        for audit in audits:  # what the literature's claims imply for each config (ISSUE #33)
            sys.stdout.write(literature_markdown(audit.model))
    else:
        for number, audit in enumerate(audits):
            if number:
                print()
            _print_table(audit)
            for line in literature_lines(audit.model):  # ISSUE #33: findings about the config, not the engines
                print(_wrapped(f"{line['claim']} ({line['layer']}): {line['text']}"))
    failed = any(e.verdict in ("differs", "could not be built") for a in audits for e in a.engines)
    return EXIT_DIFFERS if failed else EXIT_OK


def _wrapped(text: str) -> str:
    """`text` indented by two spaces and, on a terminal, wrapped to its width (continuation lines by four)."""
    if not sys.stdout.isatty():
        return f"  {text}"
    import shutil
    import textwrap

    width = max(40, shutil.get_terminal_size().columns)
    return textwrap.fill(text, width=width, initial_indent="  ", subsequent_indent="    ")


def main(argv: Sequence[str] | None = None) -> int:
    """`ropecheck audit-config ARGS`; returns the exit code."""
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return run(args)
