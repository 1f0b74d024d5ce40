"""How long the numeric mirrors take: every claim's comparisons per format, and the worst-case precision scan.

Reports, in one run, the seconds spent on the whole ledger in each format (float16, bfloat16, float32, float64,
mpmath; the bounds of the error model included) and on the certified float32 precision limit (every position
scanned), with the ratio of the slowest format to float32.

    python benchmarks/mirror_speed.py          # a short table
    python benchmarks/mirror_speed.py --json   # one JSON object
"""

from __future__ import annotations

import argparse
import json
import time

from ropecheck.numeric.mirrors import FORMATS, claim_outcomes
from ropecheck.numeric.mirrors._worst_case_scan import worst_case_limit
from ropecheck.proofs import all_claims


def measure() -> dict[str, float]:
    """Run the benchmark.

    **Returns:**

    `seconds_<format>` per format, `seconds_worst_case_float32`, `slowest_over_float32`, `comparisons`.
    """
    claims = list(all_claims())
    for claim in claims:
        claim.decide()  # decisions are memoised; not part of the mirrors' time
    figures: dict[str, float] = {}
    count = 0
    for fmt in FORMATS:
        start = time.perf_counter()
        count = sum(len(claim_outcomes(claim, fmt)) for claim in claims)
        figures[f"seconds_{fmt}"] = time.perf_counter() - start
    start = time.perf_counter()
    worst_case_limit("float32", "angles_in_dtype", 1e-3)
    figures["seconds_worst_case_float32"] = time.perf_counter() - start
    slowest = max(figures[f"seconds_{fmt}"] for fmt in FORMATS)
    figures["slowest_over_float32"] = slowest / figures["seconds_float32"]
    figures["comparisons"] = count
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    arguments = parser.parse_args()
    figures = measure()
    if arguments.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:<28} {value:>10.3f}")


if __name__ == "__main__":
    main()
