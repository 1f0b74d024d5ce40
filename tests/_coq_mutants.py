"""Mutants of the development's proved statements, for the kernel meta-tests (ISSUE #10 item 6).

For a proved theorem `Theorem x <signature>. Proof. <script> Qed.`, three mutants change the statement and
keep the proof: a **flipped sign** (the last `+` becomes `-`, else the last `-` becomes `+`), a **dropped
term** (the last `+ t` / `- t` removed) and an **off-by-one index** (the last index-like variable `v` of the
statement becomes `(S v)`, or `(v + 1)` when `S v` does not type-check); the kernel must reject its proof. A
mutant that does not type-check is not counted as a rejection. Witnesses (`v <> 0`, `v > 0` with no equation
or `<=` in the statement) are left out: a perturbed number is usually still non-zero, so the mutant may be
true. A control (the unmodified statement in the same harness) must be accepted, or the theorem is reported
as not testable in isolation.

**One coqtop session for many files** (up to `SESSION_SIZE` candidates; two sessions at a time) checks the
candidates — controls, mutants, every off-by-one variant — on top of the compiled development: loading the libraries
is almost all of a session's cost (the 13 files of `test_claim_readings.py`: 14.3 CPU-s loaded each in a session of
its own, 1.2 CPU-s all in one), the candidates themselves are nearly free. Each file's candidates sit in a `Module`
of their own that opens with the file's header and `Require Import` of the file, so a file's imports, scopes,
notations and `Set` options end with its module and never reach the next file's candidates (a file whose header holds
a command that can outlive a module — `Global`, `#[…]`, `Hint`, `Arguments`, … — gets a session of its own). Every
file of a session is first `Require`d at the top (a library first loaded inside a module costs half as much again):
what a file's candidates share with the other files is what those load, never imported.
coqtop goes on after an error, so each candidate is `Theorem <fresh name> <signature>. Proof. <script> Qed.
Abort All.` followed by a mark (a `Check` of an unknown name, an error of its own that cuts the error stream into one
segment per candidate), and each file's prologue is followed by a mark of its own, its segment empty; `Locate` of
every fresh name comes at the end of its module. A candidate is **accepted** when it is defined and its segment has
no error (as coqc, which stops at the first error, would accept it), **ill-typed** when its first error is on its
`Theorem` line, **rejected** when it is not defined and `Qed` or the script failed in its proof (`(in proof
<name>)`). Anything else — coqtop dying or timing out, a mark or a `Locate` answer missing, an error in a file's
prologue (its header, its `Require Import`) or after the last candidate, a candidate defined despite an error —
raises `HarnessError`; nothing is rejected by default.

    python -m tests._coq_mutants [--deep]      # a table; default: every 12th theorem, --deep: all
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ropecheck.proofs.kernel._coq_sources import read_development, role_of, strip_comments
from ropecheck.proofs.kernel._kernel import COQ_ROOT_NAME, DEVELOPMENT, coqc_path
from ropecheck.proofs.kernel._kernel_build import materialise

MUTANT_TIMEOUT = 300.0
"""Seconds one coqtop session may run (a hang guard: a session of `SESSION_SIZE` candidates takes seconds)."""
SESSION_SIZE = 100
"""Candidates in one coqtop session at most (whole files are packed into sessions; a file with more gets several)."""
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


def written_theorems(root: Path = DEVELOPMENT) -> list[Theorem]:
    """Every `Theorem … Proof. … Qed.` (or `Lemma`, …) of the development as written, signature on one line."""
    found: list[Theorem] = []
    for source in read_development(root):
        text = source.path.read_text(encoding="utf-8")
        code = strip_comments(text)
        header = _header(text, code)
        for match in _THEOREM.finditer(code):
            signature = " ".join(match.group(3).split())
            found.append(Theorem(source.module, match.group(2), signature, match.group(4).strip(), header))
    return found


def _header(text: str, code: str) -> str:
    """The file's `Require`/`Set`/… lines: as written when they hold no comment (`strip_comments` also blanks
    strings, and `Set Warnings "-notation-overridden".` must keep its string), else with the comment blanked."""
    kept = []
    for written, stripped in zip(text.splitlines(), code.splitlines(), strict=True):
        if _HEADER.match(stripped):
            kept.append(stripped if "(*" in written else written)
    return "\n".join(kept)


def proved_theorems(claim_ids: list[str], root: Path = DEVELOPMENT) -> list[Theorem]:
    """Positive claim theorems (roles verdict, correction, literal; not negations) with their proofs."""
    found: list[Theorem] = []
    for theorem in written_theorems(root):
        roles = {role_of(claim_id, theorem.name) for claim_id in claim_ids} - {None}
        if not roles or roles == {"negation"} or theorem.name.endswith("_negation"):
            continue
        if " = " not in theorem.signature and " <= " not in theorem.signature:
            continue  # a witness (`v <> 0`, `v > 0`): a perturbed number is often still non-zero
        found.append(theorem)
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
    """Candidates: the last use of each index-like variable (in `INDEX_NAMES` order) as `(S v)`, then `(v + 1)`.

    A variable used once is left alone: `forall v, P v` implies `forall v, P (S v)`, so that mutant is an instance
    of the theorem, true by construction, not a near miss (seen accepted: `rope_norm_preserving_instance_d4`).
    """
    start = _statement_start(signature)
    body = signature[start:]
    candidates: list[str] = []
    for name in INDEX_NAMES:
        uses = [
            match.start()
            for match in re.finditer(rf"(?<![A-Za-z0-9_'.]){name}(?![A-Za-z0-9_'])", body)
            if not body[match.end() :].lstrip().startswith(":")  # a binder, not a use
        ]
        if len(uses) >= 2:
            at = uses[-1]
            for replacement in (f"(S {name})", f"({name} + 1)"):
                candidates.append(signature[:start] + body[:at] + replacement + body[at + len(name) :])
    return candidates


# Mutants that are true statements, not near misses, each with the reason; a listed mutant must be accepted (the
# list cannot hide a rejection) and is then not counted as a defect.
TRUE_MUTANTS = {
    ("rope_cached_key_positional_003", "off-by-one index"): "no store reproduces the rotated key for any index map: "
    "`store k (S j)` is one more store, so the negation stays true with j shifted",
}


CANDIDATE = "ropecheck_batch_candidate_"
"""Prefix of the batch's theorem names (the harness refuses a development that uses it)."""
_MARK = "ropecheck_batch_mark_"
_CONTEXT = "ropecheck_batch_file_"
"""Prefix of the module that holds one file's candidates in a session."""
_PROMPT = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_']* < )+")
_LOCATE = re.compile(rf"^(Constant (?:\S+\.)?|No object of basename )({CANDIDATE}\d+)$", re.MULTILINE)
_SHAREABLE = re.compile(r"\s*(From|Require|Import|Export|Open|Local Open|Set|Unset|Notation|Local Notation|Infix)\b")
"""Header commands whose effect ends with the module they are in: a header of only these can share a session."""


class HarnessError(RuntimeError):
    """coqtop died, timed out, or said something the batch parser cannot attribute: no outcome is reported."""


@dataclass(frozen=True)
class Candidate:
    """A statement to compile with `theorem`'s proof, in the harness of `theorem`'s file."""

    theorem: Theorem
    signature: str


@dataclass(frozen=True)
class Verdict:
    """`accepted` (defined, no error), `rejected` (the proof or `Qed` failed) or `ill-typed` (the statement did)."""

    outcome: str
    detail: str = ""


def _by_file(candidates: list[Candidate]) -> list[list[int]]:
    """The indices of `candidates`, grouped by file (module and header) in the order the files first come."""
    files: dict[tuple[str, str], list[int]] = {}
    for index, candidate in enumerate(candidates):
        files.setdefault((candidate.theorem.module, candidate.theorem.header), []).append(index)
    return list(files.values())


def _shareable(header: str) -> bool:
    """Whether every command of `header` ends with the module it is in (so the file may share a session)."""
    return all(_SHAREABLE.match(line) for line in header.splitlines() if line.strip())


def _script(candidates: list[Candidate]) -> tuple[str, list[int], list[str]]:
    """One coqtop input: `Require` of each file, then per file a module with the file's header and `Require Import`,
    a mark, each candidate and a mark, then `Locate` of each candidate; a last mark after the last module.

    The marker (`Check` of an unknown name) is an error of its own, so coqtop's error stream is cut into one
    segment per candidate, and one per file's prologue. `Abort All.` closes a proof that a failing tactic left open.

    **Returns:** the script, the indices of `candidates` in the order they are numbered (`CANDIDATE`1, 2, …), and
    the marks in the order they come: `file<k>` after the k-th file's prologue, `<n>` after candidate n, `end`.
    """
    files = _by_file(candidates)
    # Each file's module loaded first, at the top (its compiled closure holds every library its header requires):
    # a library first required inside a module costs half as much again to load (Scaling.v: 1.65 CPU-s, not 1.05).
    lines = [f"Require {module}." for module in dict.fromkeys(candidates[i[0]].theorem.module for i in files)]
    order: list[int] = []
    marks: list[str] = []
    for file_number, indices in enumerate(files, start=1):
        module, header = candidates[indices[0]].theorem.module, candidates[indices[0]].theorem.header
        context = f"{_CONTEXT}{file_number}"
        lines += [f"Module {context}.", header, f"Require Import {module}.", f"Check {_MARK}file{file_number}."]
        marks.append(f"file{file_number}")
        first = len(order) + 1
        for index in indices:
            candidate = candidates[index]
            text = " ".join((header, candidate.signature, candidate.theorem.proof))
            if any(word in text for word in (CANDIDATE, _MARK, _CONTEXT)) or "\n" in candidate.signature:
                raise HarnessError(f"{candidate.theorem.name}: cannot be batched (uses {CANDIDATE} or spans lines)")
            order.append(index)
            number = len(order)
            lines += [f"Theorem {CANDIDATE}{number} {candidate.signature}.", "Proof.", candidate.theorem.proof, "Qed."]
            lines += ["Abort All.", f"Check {_MARK}{number}."]
            marks.append(str(number))
        lines += [f"Locate {CANDIDATE}{number}." for number in range(first, len(order) + 1)]
        lines.append(f"End {context}.")
    lines.append(f"Check {_MARK}end.")
    marks.append("end")
    return "\n".join(lines) + "\n", order, marks


def _errors(stderr: str) -> list[tuple[str, str]]:
    """coqtop's errors in order: `(the echoed input line or "", the message)`; prompts and warnings left out."""
    errors: list[tuple[str, str]] = []
    echo, message = "", None
    for raw in [*stderr.splitlines(), ""]:
        line = _PROMPT.sub("", raw)
        if message is not None:
            if line.strip() and not line.startswith(("Toplevel input, characters", "Error:", "Warning:")):
                message.append(line)
                continue
            errors.append((echo, " ".join(" ".join(message).split())))
            echo, message = "", None
        if line.startswith(("Toplevel input, characters", "Warning:")):
            echo = ""
        elif line.startswith("> ") and not echo:
            echo = line[2:]
        elif line.startswith("Error:"):
            message = [line[len("Error:") :]]
    return errors


def _judge(name: str, located: bool, errors: list[tuple[str, str]]) -> Verdict:
    """The verdict from a candidate's own errors; `HarnessError` unless the evidence is positive."""
    if located and not errors:
        return Verdict("accepted")
    if not located and errors and errors[0][0].startswith(f"Theorem {name} "):
        return Verdict("ill-typed", errors[0][1])
    statement_typed = not any(echo.startswith(f"Theorem {name} ") for echo, _ in errors)
    if not located and statement_typed and any(f"(in proof {name})" in message for _, message in errors):
        return Verdict("rejected", errors[0][1])
    raise HarnessError(f"{name}: {'defined' if located else 'not defined'}, errors {errors[:3]}")


def check_batch(build: Path, candidates: list[Candidate]) -> list[Verdict]:
    """Compile `candidates` (of one file or several, each file in a module of its own) in one coqtop session on top
    of the development in `build`; the verdicts in `candidates`' order."""
    script, order, marks = _script(candidates)
    coqc = coqc_path()
    if coqc is None:
        raise HarnessError("coqc is not installed")
    command = [str(Path(coqc).with_name("coqtop")), "-q", "-R", ".", COQ_ROOT_NAME]
    modules = ", ".join(dict.fromkeys(c.theorem.module for c in candidates))
    try:
        done = subprocess.run(
            command, input=script, cwd=build, capture_output=True, text=True, timeout=MUTANT_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired as error:
        raise HarnessError(f"coqtop timed out after {MUTANT_TIMEOUT:g} s on {modules}") from error
    names = [f"{CANDIDATE}{number}" for number in range(1, len(order) + 1)]
    segments = _segments(_errors(done.stderr), marks)
    answers = _LOCATE.findall(done.stdout)
    if done.returncode != 0 or segments is None or [name for _, name in answers] != names:
        raise HarnessError(
            f"coqtop on {modules}: exit {done.returncode}, the error stream "
            f"{'cut as written' if segments else 'not cut by its marks, or an error outside the candidates'}, "
            f"{len(answers)} of {len(names)} Locate answers; last errors: {_errors(done.stderr)[-3:]}"
        )
    located = [answer.startswith("Constant") for answer, _ in answers]
    verdicts: dict[int, Verdict] = {}
    for index, judged in zip(order, zip(names, located, segments, strict=True), strict=True):
        verdicts[index] = _judge(*judged)
    return [verdicts[index] for index in range(len(candidates))]


def _segments(errors: list[tuple[str, str]], marks: list[str]) -> list[list[tuple[str, str]]] | None:
    """Each candidate's errors (those between the mark before it and its own), or None unless every mark came, in
    order, and nothing went wrong outside the candidates (a file's prologue, the `Locate`s, after the last mark)."""
    segments: list[list[tuple[str, str]]] = [[]]
    for echo, message in errors:
        expected = marks[len(segments) - 1] if len(segments) <= len(marks) else None
        if message == f"The reference {_MARK}{expected} was not found in the current environment.":
            segments.append([])
        else:
            segments[-1].append((echo, message))
    if len(segments) != len(marks) + 1 or segments[-1]:
        return None
    ended = list(zip(segments, marks, strict=False))  # segment k ends at mark k; the last (after `end`) is empty
    if any(segment for segment, mark in ended if not mark.isdigit()):
        return None  # a file's prologue, or what follows the last candidate, went wrong
    return [segment for segment, mark in ended if mark.isdigit()]


def _sessions(candidates: list[Candidate]) -> list[list[int]]:
    """The indices of `candidates` in sessions: whole files packed in order up to `SESSION_SIZE` candidates (a
    larger file split evenly over the fewest sessions), a file whose header cannot share a session on its own."""
    sessions: list[list[int]] = []
    open_session: list[int] = []
    for indices in _by_file(candidates):
        if not _shareable(candidates[indices[0]].theorem.header):
            sessions.append(indices)
            continue
        parts = math.ceil(len(indices) / SESSION_SIZE)
        size = math.ceil(len(indices) / parts)
        for part in (indices[at : at + size] for at in range(0, len(indices), size)):
            if len(open_session) + len(part) > SESSION_SIZE:
                sessions.append(open_session)
                open_session = []
            open_session += part
    return [session for session in [*sessions, open_session] if session]


def check_candidates(build: Path, candidates: list[Candidate], jobs: int = 2) -> list[Verdict]:
    """The candidates in the fewest coqtop sessions (`_sessions`), `jobs` sessions at a time.

    **Returns:** the verdicts in `candidates`' order.
    """
    sessions = _sessions(candidates)
    verdicts: dict[int, Verdict] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = pool.map(lambda indices: check_batch(build, [candidates[i] for i in indices]), sessions)
        for indices, batch in zip(sessions, done, strict=True):
            verdicts.update(zip(indices, batch, strict=True))
    return [verdicts[index] for index in range(len(candidates))]


MUTATIONS: tuple[tuple[str, Callable[[str], str | list[str] | None]], ...] = (
    ("flipped sign", flip_sign),
    ("dropped term", drop_term),
    ("off-by-one index", off_by_one),
)


def _variants(theorem: Theorem) -> list[tuple[str, list[str]]]:
    """Each mutation kind with the signatures to try, in order (up to `MAX_TYPING_ATTEMPTS`)."""
    kinds = []
    for kind, mutate in MUTATIONS:
        produced = mutate(theorem.signature)
        variants = produced if isinstance(produced, list) else [produced]
        kinds.append((kind, [v for v in variants if v and v != theorem.signature][:MAX_TYPING_ATTEMPTS]))
    return kinds


def _first_typed(variants: list[str], verdicts: list[Verdict]) -> tuple[str, str]:
    """The outcome of the first variant that type-checks (`ill-typed` when none does)."""
    outcome, detail = "not-applicable", "no place to mutate"
    for signature, verdict in zip(variants, verdicts, strict=True):
        outcome, detail = verdict.outcome, signature
        if outcome != "ill-typed":
            break
    return outcome, detail


def run_mutants(theorems: list[Theorem], jobs: int = 2) -> list[MutantResult]:
    """Compile the development once (cached), then every control and mutant in the fewest coqtop sessions."""
    with tempfile.TemporaryDirectory(prefix="ropecheck-mutants-") as tmp:
        build = Path(tmp)
        files = materialise(build)
        usable = [t for t in theorems if files.get(t.module) is not None and files[t.module].compiled]
        plans = [(t, _variants(t)) for t in usable]
        candidates = [
            Candidate(t, signature)
            for t, kinds in plans
            for signature in [t.signature] + [v for _, vs in kinds for v in vs]
        ]
        verdicts = iter(check_candidates(build, candidates, jobs))
    results = []
    for theorem, kinds in plans:
        control = next(verdicts)
        mutants = [(kind, variants, [next(verdicts) for _ in variants]) for kind, variants in kinds]
        if control.outcome != "accepted":
            results.append(MutantResult(theorem.name, "control", "not-testable", control.detail[-300:]))
            continue
        results += [MutantResult(theorem.name, kind, *_first_typed(variants, vs)) for kind, variants, vs in mutants]
    return results


def sample(theorems: list[Theorem], deep: bool) -> list[Theorem]:
    """All theorems with `deep`, else every 12th in a fixed order (the documented default sample: about 10 of
    118, so that the default tier's cost stays bounded as the ledger grows)."""
    ordered = sorted(theorems, key=lambda t: t.name)
    return ordered if deep else ordered[::12]


def main(argv: list[str]) -> int:
    from ropecheck.proofs import claim_ids

    theorems = sample(proved_theorems(claim_ids()), deep="--deep" in argv)
    results = run_mutants(theorems)
    for result in results:
        print(f"{result.theorem:55s} {result.kind:18s} {result.outcome}")
    defects = [r for r in results if r.outcome == "accepted" and (r.theorem, r.kind) not in TRUE_MUTANTS]
    return 0 if not defects else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
