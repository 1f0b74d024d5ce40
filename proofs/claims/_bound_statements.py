"""Statement binding: the registry's Coq statement of every verdict theorem, printed into `Statements<Module>.v`.

A verdict follows a statement, never a theorem's name (ISSUE #18). For each claim the registry (`_bound_<topic>`:
`_bound_rope`, `_bound_attention`, …) holds `(module, theorem, statement)` for its verdict, negation, correction and
literal-reading theorems. At build time every module's entries are printed into a generated file that imports only
the reviewed definitions (`Defs.v`, `Defs<Module>.v`) and the libraries,
elaborates every statement as a definition *before* the proof module is loaded (nothing a proof file declares can
change how a statement reads), then `Require`s (never imports) the proof module and closes each bound theorem with
the proof lemma by its fully qualified name:

    Definition rope_qk_relative_statement : Prop := <registry statement>.   (before Rope is loaded)
    From Ropecheck Require Rope.
    Definition rope_qk_relative_verdict : rope_qk_relative_statement := Ropecheck.Rope.rope_qk_relative.

Coq then rejects a proof lemma whose type is not (convertible to) the registry's statement: a restated lemma,
a `~ False` negation or a definition shadowed inside a `Section` fails to bind, and the claim is *unknown*.
Each statement's fully elaborated term (`Set Printing All`: qualified names, no notations) must also equal its pin in
`pinned_terms.json` (`_pins`), so a Defs-file change that alters what a statement means turns the claim *unknown*.
A claim with no entry here is *unknown* ("no bound statement"), never proved.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ..kernel._binding import BoundTheorem, statements_file

__all__ = ["BoundTheorem", "all_bound", "bound_theorems", "write_statements"]


@cache
def all_bound() -> tuple[BoundTheorem, ...]:
    """Every bound theorem of the registry, in registry order."""
    from . import (
        _bound_attention,
        _bound_binary,
        _bound_cache,
        _bound_decay,
        _bound_relative,
        _bound_rope,
        _bound_scaling,
        _bound_sinusoidal,
    )

    out: list[BoundTheorem] = []
    tables = (
        _bound_attention,
        _bound_sinusoidal,
        _bound_rope,
        _bound_decay,
        _bound_relative,
        _bound_binary,
        _bound_cache,
        _bound_scaling,
    )
    for table in (t.BOUND for t in tables):
        for claim_id, entries in table.items():
            out.extend(BoundTheorem(claim_id, m, t, s.strip()) for m, t, s in entries)
    names = [b.theorem for b in out]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RuntimeError(f"a theorem is bound twice: {repeated}")
    return tuple(out)


def bound_theorems(claim_id: str) -> tuple[BoundTheorem, ...]:
    """The claim's bound theorems (empty: the claim has no bound statement and stays *unknown*)."""
    return tuple(b for b in all_bound() if b.claim_id == claim_id)


def write_statements(root: Path) -> list[Path]:
    """Write every `Statements<Module>.v` into the development `root` (to check the binding by hand with coqc).

    **Returns:** the files written (compile them after the development: `coqc -R . Ropecheck StatementsRope.v`).
    """
    modules = {path.stem for path in root.glob("*.v")}
    defs = {m for m in modules if m.startswith("Defs")}
    written = []
    for module in dict.fromkeys(b.module for b in all_bound()):
        if module in modules:
            text, _ = statements_file(module, [b for b in all_bound() if b.module == module], defs)
            path = root / f"Statements{module}.v"
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":  # python -m ropecheck.proofs.claims._bound_statements proofs/coq
    import sys

    for written_file in write_statements(Path(sys.argv[1] if len(sys.argv) > 1 else "proofs/coq")):
        print(written_file)
