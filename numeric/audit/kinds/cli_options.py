"""The `ropecheck audit` options of the sinusoidal, bias and scores kinds (`--kind` and its settings).

`numeric.audit.function.arguments` adds these arguments and passes `kind_keywords(args)` to `audit()`; flags of the RoPE
kind are
refused with another kind in one line (`rope_only_flags`).
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_kind_arguments", "kind_keywords", "rope_only_flags"]


def add_kind_arguments(parser: argparse.ArgumentParser) -> None:
    """Add `--kind`, `--frequencies`, `--offset`, `--scheme` and `--clip`."""
    parser.add_argument(
        "--kind",
        default="rope",
        choices=("rope", "sinusoidal", "bias", "scores"),
        help="what TARGET is: rope fn(x, positions) (default); sinusoidal pe(positions) -> (L, d) or a class built "
        "with (num_positions, dim); bias bias(q_positions, k_positions) -> (H, Lq, Lk); scores scores(q, k, "
        "q_positions, k_positions) -> (..., Lq, Lk)",
    )
    parser.add_argument(
        "--frequencies", choices=("standard", "t2t"),
        help="sinusoidal: base^(−2i/d) or tensor2tensor's log-spaced timescales (default: detected)",
    )
    parser.add_argument(
        "--pair-order", choices=("sin,cos", "cos,sin"),
        help="sinusoidal: the order within each pair, sin,cos (Vaswani et al.) or cos,sin (diffusion timestep "
        "embeddings, flip_sin_to_cos) (default: detected; a cos-first table fails shift unless declared)",
    )
    parser.add_argument("--offset", type=int, default=0, help="sinusoidal: row of position p is PE(p + K) (default 0)")
    parser.add_argument(
        "--scheme",
        help="bias: t5 or alibi (default: detected); t5 settings follow a colon, comma-separated, e.g."
        " t5:buckets=32,max_distance=128 (also bidirectional=true|false)",
    )
    parser.add_argument("--clip", type=int, help="scores: the declared Shaw clipping distance (default: detected)")


def rope_only_flags(args: argparse.Namespace) -> list[str]:
    """RoPE flags given with another `--kind` (refused: they would be ignored silently)."""
    if args.kind == "rope":
        given = (("--frequencies", args.frequencies), ("--pair-order", getattr(args, "pair_order", None)),
                 ("--offset", args.offset or None), ("--scheme", args.scheme), ("--clip", args.clip))
        return [flag for flag, value in given if value is not None]
    flags = (("--scaling", args.scaling), ("--rotary-dim", args.rotary_dim), ("--partial", args.partial),
             ("--module-cast", args.module_cast or None), ("--strict", args.strict or None),
             ("--direction", None if args.direction == "counter-clockwise" else args.direction),
             ("--output-layout", getattr(args, "output_layout", None)))
    return [flag for flag, value in flags if value is not None]


def kind_keywords(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords `audit()` takes for the kind's own options."""
    return {"kind": args.kind, "frequencies": args.frequencies, "pair_order": getattr(args, "pair_order", None),
            "offset": args.offset, "scheme": args.scheme, "clip": args.clip}
