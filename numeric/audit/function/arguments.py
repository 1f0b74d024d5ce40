"""The arguments of `ropecheck audit TARGET [options]`: one parser, read by the command line (`ropecheck.cli`) and
by the pytest plugin's `rope_targets` lines (`numeric.audit.function.plugin_targets`), so both accept the same
options with the same defaults and errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from ropecheck.numeric.audit.function.results import EXIT_USAGE

__all__ = ["CONVENTIONS", "build_parser"]


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
