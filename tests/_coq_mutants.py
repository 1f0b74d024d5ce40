"""Mutants of the development's proved statements, for the kernel meta-tests (ISSUE #10 item 6).

For a proved theorem `Theorem x <signature>. Proof. <script> Qed.`, three mutants change the statement and
keep the proof: a **flipped sign** (the last `+` becomes `-`, else the last `-` becomes `+`), a **dropped
term** (the last `+ t` / `- t` removed) and an **off-by-one index** (the last index-like variable `v` of the
statement becomes `(S v)`, or `(v + 1)` when `S v` does not type-check). Each mutant is compiled on top of
the compiled development in its own coqc run (two at a time); the kernel must reject its proof. A mutant
that does not type-check is not counted as a rejection. Witnesses (`v <> 0`, `v > 0` with no equation or
`<=` in the statement) are left out: a perturbed number is usually still non-zero, so the mutant may be
true. A control file (the unmodified statement in the same harness) must be accepted first, or the theorem
is reported as not testable in isolation.

    python -m tests._coq_mutants [--deep]      # a table; default: every 6th theorem, --deep: all
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ropecheck.proofs.kernel._coq_sources import read_development, role_of, strip_comments
from ropecheck.proofs.kernel._kernel import COQ_ROOT_NAME, DEVELOPMENT, run_coqc
from ropecheck.proofs.kernel._kernel_build import materialise

MUTANT_TIMEOUT = 300.0
INDEX_NAMES = ("i", "j", "n", "m", "t", "N", "c", "h", "l", "k", "p", "d")
MAX_TYPING_ATTEMPTS = 4
_THEOREM = re.compile(
    r"(?:^|(?<=[.\s]))(Theorem|Lemma|Example|Corollary|Fact|Proposition|Remark)\s+([A-Za-z_][A-Za-z0-9_']*)"
    r"(.*?)\.\s+Proof\.(.*?)(?:Qed|Defined)\.",
    re.DOTALL,
)
_HEADER = re.compile(
    r"^\s*(From|Require|Import|Export|Open|Local Open|Set|Unset|Global|Declare|Delimit|Bind|Arguments|Notation"
    r"|Local Notation|Infix|Hint|#\[)",
)


@dataclass(frozen=True)
class Theorem:
    """A proved theorem as written: its module, name, signature (after the name) and proof script."""

    module: str
    name: str
    signature: str
    proof: str
    header: str


@dataclass(frozen=True)
class MutantResult:
    """`rejected` (the kernel refused the proof), `accepted` (a defect), `ill-typed`, or `not-testable`."""

    theorem: str
    kind: str
    outcome: str
    detail: str = ""


def proved_theorems(claim_ids: list[str], root: Path = DEVELOPMENT) -> list[Theorem]:
    """Positive claim theorems (roles verdict, correction, literal; not negations) with their proofs."""
    found: list[Theorem] = []
    for source in read_development(root):
        code = strip_comments(source.path.read_text(encoding="utf-8"))
        header = "\n".join(line for line in code.splitlines() if _HEADER.match(line))
        for match in _THEOREM.finditer(code):
            name = match.group(2)
            roles = {role_of(claim_id, name) for claim_id in claim_ids} - {None}
            if not roles or roles == {"negation"} or name.endswith("_negation"):
                continue
            signature = " ".join(match.group(3).split())
            if " = " not in signature and " <= " not in signature:
                continue  # a witness (`v <> 0`, `v > 0`): a perturbed number is often still non-zero
            found.append(Theorem(source.module, name, signature, match.group(4).strip(), header))
    return found


def _statement_start(signature: str) -> int:
    """Index just after the top-level `:` that separates binders from the statement."""
    depth = 0
    for index, char in enumerate(signature):
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == ":" and depth == 0 and signature[index + 1 : index + 2] != "=":
            return index + 1
    return 0


def _operand_end(text: str, start: int) -> int:
    """End of the operand that starts at `start` (stops at a top-level operator, `)`, `,` or the end)."""
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return index
            depth -= 1
        elif depth == 0 and (text.startswith((" + ", " - ", " = ", " <= ", " < ", " /\\ "), index) or char == ","):
            return index
        index += 1
    return index


def flip_sign(signature: str) -> str | None:
    start = _statement_start(signature)
    body = signature[start:]
    for old, new in ((" + ", " - "), (" - ", " + ")):
        at = body.rfind(old)
        if at >= 0:
            return signature[:start] + body[:at] + new + body[at + len(old) :]
    return None


def drop_term(signature: str) -> str | None:
    start = _statement_start(signature)
    body = signature[start:]
    at = max(body.rfind(" + "), body.rfind(" - "))
    if at < 0:
        return None
    end = _operand_end(body, at + 3)
    return signature[:start] + body[:at] + body[end:]


def off_by_one(signature: str) -> list[str]:
    """Candidates: the last use of each index-like variable (in `INDEX_NAMES` order) as `(S v)`, then `(v + 1)`."""
    start = _statement_start(signature)
    body = signature[start:]
    candidates: list[str] = []
    for name in INDEX_NAMES:
        uses = [
            match.start()
            for match in re.finditer(rf"(?<![A-Za-z0-9_'.]){name}(?![A-Za-z0-9_'])", body)
            if not body[match.end() :].lstrip().startswith(":")  # a binder, not a use
        ]
        if uses:
            at = uses[-1]
            for replacement in (f"(S {name})", f"({name} + 1)"):
                candidates.append(signature[:start] + body[:at] + replacement + body[at + len(name) :])
    return candidates


def _file(theorem: Theorem, name: str, signature: str) -> tuple[str, int]:
    """The harness text and the line the statement is on (errors there mean: ill-typed)."""
    lines = [theorem.header, f"Require Import {theorem.module}.", f"Theorem {name} {signature}."]
    statement_line = sum(part.count("\n") + 1 for part in lines)
    lines += ["Proof.", theorem.proof, "Qed."]
    return "\n".join(lines) + "\n", statement_line


def _compile(build: Path, stem: str, text: str) -> tuple[bool, str]:
    (build / f"{stem}.v").write_text(text, encoding="utf-8")
    return run_coqc(["-q", "-R", ".", COQ_ROOT_NAME, f"{stem}.v"], build, MUTANT_TIMEOUT)


def _error_line(output: str) -> int | None:
    match = re.search(r'File "\./[^"]+", line (\d+)', output)
    return int(match.group(1)) if match else None


def check_theorem(build: Path, theorem: Theorem, index: int) -> list[MutantResult]:
    """The control and three mutants of one theorem."""
    text, _ = _file(theorem, f"{theorem.name}_control", theorem.signature)
    ok, output = _compile(build, f"Control_{index}", text)
    if not ok:
        return [MutantResult(theorem.name, "control", "not-testable", output.strip()[-300:])]
    results = []
    mutations: tuple[tuple[str, Callable[[str], str | list[str] | None]], ...] = (
        ("flipped sign", flip_sign),
        ("dropped term", drop_term),
        ("off-by-one index", off_by_one),
    )
    for kind, mutate in mutations:
        produced = mutate(theorem.signature)
        variants = produced if isinstance(produced, list) else [produced]
        variants = [v for v in variants if v and v != theorem.signature][:MAX_TYPING_ATTEMPTS]
        outcome, detail = "not-applicable", "no place to mutate"
        for variant_number, signature in enumerate(variants):
            text, statement_line = _file(theorem, f"{theorem.name}_mutant", signature)
            ok, output = _compile(build, f"Mutant_{index}_{kind[:4]}_{variant_number}", text)
            if ok:
                outcome, detail = "accepted", signature
                break
            if _error_line(output) == statement_line:
                outcome, detail = "ill-typed", signature
                continue
            outcome, detail = "rejected", signature
            break
        results.append(MutantResult(theorem.name, kind, outcome, detail))
    return results


def run_mutants(theorems: list[Theorem], jobs: int = 2) -> list[MutantResult]:
    """Compile the development once (cached), then every control and mutant, `jobs` at a time."""
    with tempfile.TemporaryDirectory(prefix="ropecheck-mutants-") as tmp:
        build = Path(tmp)
        files = materialise(build)
        usable = [t for t in theorems if files.get(t.module) is not None and files[t.module].compiled]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            batches = pool.map(lambda pair: check_theorem(build, pair[1], pair[0]), enumerate(usable))
            return [result for batch in batches for result in batch]


def sample(theorems: list[Theorem], deep: bool) -> list[Theorem]:
    """All theorems with `deep`, else every 6th in a fixed order (the documented default sample)."""
    ordered = sorted(theorems, key=lambda t: t.name)
    return ordered if deep else ordered[::6]


def main(argv: list[str]) -> int:
    from ropecheck.proofs import claim_ids

    theorems = sample(proved_theorems(claim_ids()), deep="--deep" in argv)
    results = run_mutants(theorems)
    for result in results:
        print(f"{result.theorem:55s} {result.kind:18s} {result.outcome}")
    return 0 if not [r for r in results if r.outcome == "accepted"] else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
