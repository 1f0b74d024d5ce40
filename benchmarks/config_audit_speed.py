"""Config audit speed: `audit_config` on each shipped real config with every installed engine (goal: ≤ 60 s for one
config, every engine included, on the 2-core machine).

Prints, per config, the seconds for the expected values alone and for each engine, and the ratio of the whole
audit to the 60 s goal; `--json` prints one object. The first engine call pays its imports (torch, transformers,
the MLX-LM subprocess): `first_seconds` is that call, reported apart.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ropecheck.numeric.audit.model_config import audit_config
from ropecheck.numeric.audit.model_config.engines import ENGINES

GOAL_SECONDS = 60.0
CONFIGS = Path(__file__).resolve().parents[1] / "tests" / "model_configs"


def _seconds(path: Path, engines: list[str]) -> float:
    start = time.perf_counter()
    audit_config(path, engines)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("configs", nargs="*", help="config folders (default: every shipped real config)")
    args = parser.parse_args()
    paths = [Path(p) for p in args.configs] or sorted(p for p in CONFIGS.iterdir() if (p / "config.json").is_file())
    first = {name: _seconds(paths[0], [name]) for name in ENGINES}
    rows = []
    for path in paths:
        row = {"config": path.name, "expected_seconds": _seconds(path, [])}
        row.update({f"{name}_seconds": _seconds(path, [name]) for name in ENGINES})
        row["all_seconds"] = _seconds(path, None)
        row["goal_ratio"] = row["all_seconds"] / GOAL_SECONDS
        rows.append(row)
    result = {"first_seconds": first, "configs": rows, "worst_goal_ratio": max(r["goal_ratio"] for r in rows)}
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"first call per engine (imports): {', '.join(f'{k} {v:.1f} s' for k, v in first.items())}")
        for row in rows:
            engines = ", ".join(f"{k} {row[f'{k}_seconds']:.1f} s" for k in ENGINES)
            print(f"{row['config']:<18} expected {row['expected_seconds']:.2f} s; {engines}; "
                  f"all {row['all_seconds']:.1f} s ({row['goal_ratio']:.2f} of the 60 s goal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
