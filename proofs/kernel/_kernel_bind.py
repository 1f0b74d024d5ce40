"""Proposing registry bindings for claims proved in the old style (theorems named after the claim, no bound statement).

`python -m ropecheck.proofs.kernel._kernel_bind CLAIM-ID …` compiles the development (cached), asks Coq for the type
of each
of the claim's verdict/negation/correction/literal theorems in the context of its statements file (the reviewed
definitions imported, the proof module only required), and prints registry entries to paste into the matching
`proofs/claims/_bound_*.py` **after reviewing them against the claim's words** — a proposal, never a binding by itself:
until an entry is in the registry the claim is *unknown* ("no bound statement").
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from ._binding import statements_header
from ._coq_sources import read_development, role_of
from ._kernel import COQ_ROOT_NAME, DEVELOPMENT, run_coqc
from ._kernel_build import materialise
from ._kernel_statements import statement_of

_INSTANCE = re.compile(r"_instance_d\d+$")


def propose_bindings(claim_ids: list[str], root: Path = DEVELOPMENT) -> str:
    """Registry entries (Python text) for the claims' theorems, as Coq elaborates their statements.

    **Arguments:**

    - `claim_ids`: the claims to bind.
    - `root`: the development.

    **Returns:** the entries, or a comment saying why a theorem could not be read.
    """
    sources = read_development(root)
    defs = {s.path.stem for s in sources if s.path.stem.startswith("Defs")}
    wanted = [
        (claim, s.path.stem, theorem)
        for claim in claim_ids
        for s in sources
        for theorem in s.theorems
        if role_of(claim, theorem) not in (None, "instance") and not _INSTANCE.search(theorem)
    ]
    out: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ropecheck-bind-") as tmp:
        build = Path(tmp)
        materialise(build, root)
        for claim in claim_ids:
            mine = [(m, t) for c, m, t in wanted if c == claim]
            out.append(f'    "{claim}": (')
            for module, theorem in mine:
                query = build / "RopecheckBind.v"
                lines = [*statements_header(module, defs), f"Check {COQ_ROOT_NAME}.{module}.{theorem}."]
                query.write_text("\n".join(lines) + "\n", encoding="utf-8")
                ok, output = run_coqc(["-q", "-R", ".", COQ_ROOT_NAME, query.name], build, 600.0)
                found = re.search(rf"^\S*\b{theorem}\n", output, re.MULTILINE)
                if not ok or found is None:
                    reason = " ".join(output.split())[:200]
                    out.append(f"        # {module}.{theorem}: coqc could not read it: {reason}")
                    continue
                statement = statement_of(output[found.start() :])
                out.append(f'        ("{module}", "{theorem}", r"""\n{statement}\n"""),')
            out.append("    ),")
    return "\n".join(out)


if __name__ == "__main__":
    print(propose_bindings(sys.argv[1:]))
