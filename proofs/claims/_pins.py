"""The pinned fully elaborated forms of the bound statements: `proofs/claims/pinned_terms.json`.

Each bound statement's term, printed with `Set Printing All` over the definitions files, and the printed definition
of every project constant it reaches (`proofs.kernel._kernel_terms`), generated from the current development by

    python -m ropecheck.proofs.claims._pins

then **reviewed** (`git diff proofs/claims/pinned_terms.json`: a changed term or definition must be one you meant)
and committed. At every build the terms are printed again and compared with these pins: a difference, or a bound
theorem with no pin (a claim added after the pins were generated), fails its binding with a message naming what
changed, and the claim is *unknown* until the pins are regenerated and reviewed. Run it after adding or changing a
bound statement or a definitions file (`Defs*.v`).
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["PINS_FILE", "load_pins", "write_pins"]

PINS_FILE = Path(__file__).resolve().parent / "pinned_terms.json"


@cache
def load_pins() -> dict[str, Any]:
    """The pinned forms (`{"statements": {theorem: {"claim", "term", "depends"}}, "constants": {name: body}}`);
    empty tables when the file is missing (then every bound theorem is *unknown*: "no pinned elaborated form")."""
    if not PINS_FILE.exists():
        return {"statements": {}, "constants": {}}
    data = json.loads(PINS_FILE.read_text(encoding="utf-8"))
    return {"statements": dict(data.get("statements", {})), "constants": dict(data.get("constants", {}))}


def write_pins(path: Path = PINS_FILE) -> tuple[int, str]:
    """Build the development (cached), print every bound statement's elaborated term and write them to `path`.

    **Returns:** `(number of statements pinned, why the terms could not be printed — empty when they were)`.
    """
    from ..kernel._coq_sources import role_of
    from ..kernel._kernel_build import check_development
    from ._bound_statements import all_bound

    bound = all_bound()
    ids = {item.claim_id for item in bound}
    report = check_development(
        wanted=lambda name: any(role_of(claim_id, name) == "instance" for claim_id in ids), bound=bound
    )
    terms = report.terms
    if not terms or terms.get("error"):
        return 0, str(terms.get("error") or "the kernel did not run (is coqc installed?)")
    claim_of = {item.theorem: item.claim_id for item in bound}
    statements = {
        theorem: {"claim": claim_of[theorem], **entry} for theorem, entry in sorted(terms["statements"].items())
    }
    document = {
        "generated_by": "python -m ropecheck.proofs.claims._pins (review the diff before committing)",
        "coq": report.version,
        "statements": statements,
        "constants": dict(sorted(terms["constants"].items())),
    }
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return len(statements), ""


if __name__ == "__main__":
    count, error = write_pins()
    if error:
        sys.stderr.write(f"ropecheck: error: {error}\n")
        raise SystemExit(1)
    print(f"pinned {count} statements in {PINS_FILE}; review `git diff {PINS_FILE.name}` before committing")
