"""What a definitions file (`Defs*.v`) may say: the reviewed definitions every bound statement is elaborated over.

A statement's meaning is fixed by the definitions it reads, and a definitions file is imported by the generated
`Statements<Module>.v` *before* the statement is elaborated; so a command that changes how a statement reads (a
`Module` whose contents are `Export`ed over a definition, an `Infix "*" := Rplus`, a `Notation score := score'`, a
`Tactic Notation "exact"`, a `Coercion`, a `Canonical` instance, an `Ltac`) has no place there. A definitions file
holds only:

- `Definition`, `Fixpoint`, `Inductive`, `Record` (and `Lemma`/`Theorem` … `Proof.` … `Qed.` blocks: opaque proofs,
  which no statement's meaning can depend on — `Defs.v` keeps its `sum_*` API beside `sum`);
- the imports, settings and notations of the allow-list below (`ALLOWED_SENTENCES`, `ALLOWED_PATTERNS`).

Anything else is refused with its file and line (`refusals`); the file then counts as not compiled, so every claim
whose statements read it is *unknown* with that reason. The pinned elaborated forms (`_kernel_terms`) catch any change
of meaning that gets past this list; the list keeps the files readable and the attack surface small.
"""

from __future__ import annotations

import re

__all__ = ["ALLOWED_PATTERNS", "ALLOWED_SENTENCES", "refusals"]

_LIBRARIES = r"(?:Coq|Coquelicot|mathcomp|Interval|Flocq)"
_NAMES = r"[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*"

ALLOWED_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a definition", re.compile(r"(?:Definition|Fixpoint|Inductive|Record)\s+[A-Za-z_][\w']*\b.*", re.DOTALL)),
    ("a library import", re.compile(rf"From\s+{_LIBRARIES}\s+Require(?:\s+Import)?(?:\s+{_NAMES})+")),
    ("a definitions import", re.compile(r"From\s+Ropecheck\s+Require(?:\s+Import)?(?:\s+Defs[\w']*)+")),
    ("a scope", re.compile(r"(?:Local\s+)?Open\s+Scope\s+(?:R_scope|nat_scope|Z_scope)")),
    ("a warning setting", re.compile(r'(?:Local\s+)?Set\s+Warnings\s+"[-+]?[\w-]+"')),
    (
        "implicit arguments cleared",
        re.compile(r"Arguments\s+[A-Za-z_][\w']*(?:\s+[A-Za-z_][\w']*)*\s*:\s*clear\s+implicits"),
    ),
)
"""Sentence shapes a definitions file may use (matched against the whole sentence, without its final dot)."""

ALLOWED_SENTENCES: frozenset[str] = frozenset(
    {
        # mathcomp's implicit-argument conventions (DefsAttention.v)
        "Set Implicit Arguments",
        "Unset Strict Implicit",
        "Unset Printing Implicit Defensive",
        # notations for the libraries' own list and ssreflect syntax
        "Import ListNotations",
        "Import ssreflect ssrfun ssrbool eqtype ssrnat seq bigop",
        # DefsAttention.v: real sums written as mathcomp big operators
        'Notation "\\rsum_ ( i < n ) F" := (\\big[Rplus/0]_(i < n) F) '
        "(at level 41, F at level 41, i, n at level 50) : R_scope",
        'Notation "\\rsum_ ( m <= i < n ) F" := (\\big[Rplus/0]_(m <= i < n) F) '
        "(at level 41, F at level 41, i, m, n at level 50) : R_scope",
        # Defs.v: the bigop monoid structure of Rplus, confined to the module Big (never exported)
        "Module Big",
        "End Big",
        "Canonical Rplus_monoid := Monoid.Law Rplus_assoc_ssr Rplus_0_l Rplus_0_r",
        "Canonical Rplus_comoid := Monoid.ComLaw Rplus_comm",
    }
)
"""Exact sentences (whitespace normalised) a definitions file may use beyond `ALLOWED_PATTERNS`: reviewed one by one."""

_PROOF_OPENERS = re.compile(r"(?:Lemma|Theorem|Fact|Remark|Corollary|Proposition)\s+[A-Za-z_][\w']*\b.*", re.DOTALL)
_SENTENCE_END = re.compile(r"\.(?=\s|$)")


def sentences(code: str) -> list[tuple[int, str]]:
    """`(line, sentence)` for each Coq sentence of `code` (comments already removed), whitespace normalised,
    without the final dot. A sentence ends at a dot followed by white space or the end of the text."""
    out: list[tuple[int, str]] = []
    start = 0
    for match in _SENTENCE_END.finditer(code):
        text = code[start : match.start()]
        stripped = text.strip()
        if stripped:
            offset = start + len(text) - len(text.lstrip())
            out.append((code.count("\n", 0, offset) + 1, " ".join(stripped.split())))
        start = match.end()
    if code[start:].strip():
        offset = start + len(code[start:]) - len(code[start:].lstrip())
        out.append((code.count("\n", 0, offset) + 1, " ".join(code[start:].split())))
    return out


def refusals(code: str, file_name: str) -> tuple[str, ...]:
    """Every sentence of a definitions file that the policy does not allow, as `"<file> line <n>: <sentence>"`.

    **Arguments:**

    - `code`: the file's text with comments removed (string literals kept: notations are compared exactly).
    - `file_name`: for the messages (`DefsRope.v`).

    **Returns:** the refusals, in file order (empty: the file is a definitions file).
    """
    refused: list[str] = []
    in_proof = False
    for line, sentence in sentences(code):
        if in_proof:
            if sentence == "Qed":
                in_proof = False
            elif sentence in {"Defined", "Admitted", "Abort"}:
                refused.append(f"{file_name} line {line}: `{sentence}` ends a proof (only Qed is allowed here)")
                in_proof = False
            continue
        if _PROOF_OPENERS.fullmatch(sentence):
            in_proof = True
            continue
        if sentence in ALLOWED_SENTENCES or any(p.fullmatch(sentence) for _, p in ALLOWED_PATTERNS):
            continue
        if sentence == "Proof":
            refused.append(f"{file_name} line {line}: `Proof` without a Lemma (a definition by tactics)")
            continue
        shown = sentence if len(sentence) <= 80 else sentence[:77] + "..."
        refused.append(
            f"{file_name} line {line}: `{shown}` is not allowed in a definitions file "
            "(only Definition/Fixpoint/Inductive/Record, Lemma…Qed and proofs/kernel/_defs_policy.py's allow-list)"
        )
    if in_proof:
        refused.append(f"{file_name}: a proof is not closed by Qed")
    return tuple(refused)
