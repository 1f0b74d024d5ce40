"""Audit speed: a float32-angle half-split NumPy RoPE at d = 128, every position 0…131071, all four dtypes.

Prints `{"seconds", "target_seconds", "overhead_ratio"}` with `--json` (a sentence otherwise): `seconds` is the
whole audit, `target_seconds` the time spent inside the audited function, `overhead_ratio` their ratio
(goal: ≤ 2.5, issue 34; measure it several times on an idle machine: it is a ratio of wall times).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ropecheck.numeric.audit import audit

from tests.audit_corpus.numpy_impls import rope_float32_angles


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--max-position", type=int, default=131072)
    args = parser.parse_args()
    report = audit(
        rope_float32_angles,
        base=10000,
        layout="half",
        head_dim=128,
        max_position=args.max_position,
        dtypes="float32,bfloat16,float16,float64",
        name="rope_float32_angles",
    )
    result = {
        "seconds": report.seconds,
        "target_seconds": report.target_seconds,
        "overhead_ratio": report.seconds / report.target_seconds,
        "verdict": report.verdict,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"audit of {args.max_position} positions × 4 dtypes: {result['seconds']:.1f} s, of which"
            f" {result['target_seconds']:.1f} s inside the target (overhead ratio {result['overhead_ratio']:.2f});"
            f" verdict {report.verdict}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
