"""Statement binding: the registry's Coq statement of every verdict theorem, printed into `Statements<Module>.v`.

A verdict follows a statement, never a theorem's name (ISSUE #18). For each claim the registry (`_bound_rope`,
`_bound_attention`, `_bound_decay`, `_bound_sinusoidal`, `_bound_round3`) holds `(module, theorem, statement)` for
its verdict, negation, correction and literal-reading theorems. At build time every module's entries are printed into a
generated file that imports only the reviewed definitions (`Defs.v`, `Defs<Module>.v`) and the libraries,
elaborates every statement as a definition *before* the proof module is loaded (nothing a proof file declares can
change how a statement reads), then `Require`s (never imports) the proof module and closes each bound theorem with
the proof lemma by its fully qualified name:

    Definition rope_qk_relative_statement : Prop := <registry statement>.   (before Rope is loaded)
    From Ropecheck Require Rope.
    Theorem rope_qk_relative_verdict : rope_qk_relative_statement.
    Proof. exact Ropecheck.Rope.rope_qk_relative. Qed.

Coq then rejects a proof lemma whose type is not (convertible to) the registry's statement: a restated lemma,
a `~ False` negation or a definition shadowed inside a `Section` fails to bind, and the claim is *unknown*.
A claim with no entry here is *unknown* ("no bound statement"), never proved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ._coq_sources import role_of

COQ_ROOT = "Ropecheck"
VERDICT_SUFFIX = "_verdict"

LIBRARIES: dict[str, tuple[str, ...]] = {
    "Rope": ("From Coq Require Import Reals Lia Lra.", "From Coquelicot Require Import Complex."),
    "Attention": (
        "From Coq Require Import Reals Lra.",
        'Set Warnings "-notation-overridden".',
        "From mathcomp Require Import ssreflect ssrfun ssrbool eqtype ssrnat seq fintype bigop.",
        'Set Warnings "notation-overridden".',
    ),
    "Decay": ("From Coq Require Import ZArith Reals Lra Lia.", "From Coquelicot Require Import Complex."),
    "Decay128": (
        "From Coq Require Import ZArith Reals Lra Lia.",
        "From Coquelicot Require Import Complex.",
        "From Ropecheck Require Import DefsDecay.",
    ),
    "Sinusoidal": ("From Coq Require Import Reals Lia Lra.",),
    "SinusoidalDecay": ("From Coq Require Import Reals Lia Lra.",),
    "Relative": ("From Coq Require Import Reals Lia Lra ZArith List.", "Import ListNotations."),
}
"""The libraries each statements file imports (the same as the module's `Defs<Module>.v`; notations come from here)."""

DEFAULT_LIBRARIES = ("From Coq Require Import ZArith Reals Lia Lra.", "From Coquelicot Require Import Complex.")
"""For a proof module not listed above (a new topic file): its statements read `Defs.v` and `Defs<Module>.v`."""


@dataclass(frozen=True)
class BoundTheorem:
    """One theorem of a claim with the statement the registry binds it to.

    **Arguments:**

    - `claim_id`: the claim (`ROPE-QK-RELATIVE`).
    - `module`: the proof file's module name (`Rope` for `proofs/coq/Rope.v`).
    - `theorem`: the proof lemma (`rope_qk_relative`), by the naming contract of `_coq_sources.role_of`.
    - `statement`: the Coq proposition it must prove, as text over the reviewed definitions.
    """

    claim_id: str
    module: str
    theorem: str
    statement: str

    @property
    def role(self) -> str | None:
        """`verdict`, `negation`, `correction` or `literal` (None: the name does not belong to the claim)."""
        return role_of(self.claim_id, self.theorem)

    @property
    def verdict_name(self) -> str:
        """The generated theorem: `<theorem>_verdict` in `Statements<module>.v`."""
        return self.theorem + VERDICT_SUFFIX

    @property
    def statement_name(self) -> str:
        """The generated definition holding the statement: `<theorem>_statement`."""
        return self.theorem + "_statement"

    @property
    def statements_module(self) -> str:
        return "Statements" + self.module

    @property
    def proof_lemma(self) -> str:
        return f"{COQ_ROOT}.{self.module}.{self.theorem}"


@cache
def all_bound() -> tuple[BoundTheorem, ...]:
    """Every bound theorem of the registry, in registry order."""
    from . import _bound_attention, _bound_decay, _bound_rope, _bound_round3, _bound_sinusoidal

    out: list[BoundTheorem] = []
    tables = (_bound_attention, _bound_sinusoidal, _bound_rope, _bound_decay, _bound_round3)
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


def statements_header(module: str, defs_modules: set[str]) -> list[str]:
    """The libraries, the reviewed definitions (`Defs`, `Defs<module>`) imported, the proof module only required."""
    defs = ["Defs"] + [f"Defs{module}"] * (f"Defs{module}" in defs_modules)
    return [
        *LIBRARIES.get(module, DEFAULT_LIBRARIES),
        f"From {COQ_ROOT} Require Import {' '.join(defs)}.",
        f"From {COQ_ROOT} Require {module}.",
        "Open Scope R_scope.",
    ]


def statements_file(module: str, bound: list[BoundTheorem], defs_modules: set[str]) -> tuple[str, dict[int, str]]:
    """The text of `Statements<module>.v` and, per line, the bound theorem whose sentence it belongs to.

    **Arguments:**

    - `module`: the proof module (`Rope`).
    - `bound`: its bound theorems (already filtered).
    - `defs_modules`: the definition-only modules of the development (`Defs`, `DefsRope`, …); only `Defs` and
      `Defs<module>` are imported.

    **Returns:** `(text, {line number: theorem})`, line numbers 1-based as coqc reports them.
    """
    header = statements_header(module, defs_modules)
    lines = [
        "(* Generated by ropecheck from the claims registry (proofs/_bound_*.py); do not edit. *)",
        *[line for line in header if not line.startswith(f"From {COQ_ROOT} Require {module}.")],
        "(* The statements are elaborated here, before any proof file is loaded: only the definitions above. *)",
    ]
    owner: dict[int, str] = {}

    def add(item: BoundTheorem, sentence: list[str]) -> None:
        start = len(lines) + 1
        lines.extend(sentence)
        for number in range(start, len(lines) + 1):
            owner[number] = item.theorem

    for item in bound:
        body = item.statement.splitlines()
        add(item, [f"Definition {item.statement_name} : Prop :=", *body[:-1], body[-1] + "."])
        add(item, [f'Redirect "el_{item.theorem}" Print {item.statement_name}.'])
    lines.append(f"From {COQ_ROOT} Require {module}.  (* the proofs: required, never imported *)")
    for item in bound:
        add(item, [f"Theorem {item.verdict_name} : {item.statement_name}.", f"Proof. exact {item.proof_lemma}. Qed."])
    return "\n".join(lines) + "\n", owner


def failing_line(output: str, file_name: str) -> int | None:
    """The line coqc reported an error on in `file_name` (None when the error is elsewhere or absent)."""
    match = re.search(rf'File "\./{re.escape(file_name)}", line (\d+)', output)
    return int(match.group(1)) if match else None


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


if __name__ == "__main__":  # python -m ropecheck.proofs._bound_statements proofs/coq
    import sys

    for written_file in write_statements(Path(sys.argv[1] if len(sys.argv) > 1 else "proofs/coq")):
        print(written_file)
