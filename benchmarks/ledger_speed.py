"""How long deciding the whole ledger takes, and the explicit d = 4096 cross-check of ROPE-RELATIVE-MATRIX.

`python benchmarks/ledger_speed.py --json` prints
`{"claims", "seconds", "per_claim_max", "slowest", "d4096_blocks", "d4096_seconds", "verdicts"}`.
Goal (Foundation issue): the whole ledger in ≤ 30 s on the 2-core machine. The d = 4096 instance is measured
separately because the ledger itself carries the d = 1024 block-by-block instance.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--skip-4096", action="store_true", help="skip the d = 4096 cross-check")
    args = parser.parse_args()

    start = time.perf_counter()
    from ropecheck.proofs import all_claims

    timings: dict[str, float] = {}
    for claim in all_claims():
        t0 = time.perf_counter()
        claim.decide()
        claim.decide_correction()
        timings[claim.id] = time.perf_counter() - t0
    seconds = time.perf_counter() - start
    slowest = max(timings, key=timings.__getitem__)
    result = {
        "claims": len(timings),
        "seconds": round(seconds, 2),
        "per_claim_max": round(timings[slowest], 2),
        "slowest": slowest,
        "verdicts": dict(Counter(str(c.decide().verdict) for c in all_claims())),
    }
    if not args.skip_4096:
        import sympy as sp
        from ropecheck.proofs.engine._formulas import m, n, rotation
        from ropecheck.proofs.engine._statements import BlockInstances

        blocks = BlockInstances(
            lambda t: (rotation(m * t).T * rotation(n * t), rotation((n - m) * t)),
            sp.symbols("theta_0:2048", positive=True),
        )
        t0 = time.perf_counter()
        decision = blocks.decide()
        result["d4096_blocks"] = 2048
        result["d4096_seconds"] = round(time.perf_counter() - t0, 2)
        result["d4096_verdict"] = str(decision.verdict)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>16}: {value}")


if __name__ == "__main__":
    main()
