"""Mutants of the development's proved statements, for the kernel meta-tests (ISSUE #10 item 6).

For a proved theorem `Theorem x <signature>. Proof. <script> Qed.`, three mutants change the statement and
keep the proof: a **flipped sign** (the last `+` becomes `-`, else the last `-` becomes `+`), a **dropped
term** (the last `+ t` / `- t` removed) and an **off-by-one index** (the last index-like variable `v` of the
statement becomes `(S v)`, or `(v + 1)` when `S v` does not type-check); the kernel must reject its proof. A
mutant that does not type-check is not counted as a rejection. Witnesses (`v <> 0`, `v > 0` with no equation
or `<=` in the statement) are left out: a perturbed number is usually still non-zero, so the mutant may be
true. A control (the unmodified statement in the same harness) must be accepted, or the theorem is reported
as not testable in isolation.

**One coqtop session per file of the development** (per `BATCH_SIZE` candidates; two sessions at a time)
checks the candidates of that file — controls, mutants, every off-by-one variant — after the file's own header
and `Require Import` of the file, on top of the compiled development: loading the libraries is almost all of a
coqc run's second, the candidates themselves are nearly free. coqtop goes on after an error,
so each candidate is `Theorem <fresh name> <signature>. Proof. <script> Qed. Abort All.` followed by a mark (a
`Check` of an unknown name, an error of its own that cuts the error stream into one segment per candidate),
and `Locate` of every fresh name comes at the end. A candidate is **accepted** when it is defined and its
segment has no error (as coqc, which stops at the first error, would accept it), **ill-typed** when its first
error is on its `Theorem` line, **rejected** when it is not defined and `Qed` or the script failed in its proof
(`(in proof <name>)`). Anything else — coqtop dying or timing out, a mark or a `Locate` answer missing, an error
in the header, a candidate defined despite an error — raises `HarnessError`; nothing is rejected by default.

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
"""Seconds one coqtop session may run (a hang guard: a session of `BATCH_SIZE` candidates takes seconds)."""
BATCH_SIZE = 25
"""Candidates in one coqtop session at most (a file with more gets several, which also run side by side)."""
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
_PROMPT = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_']* < )+")
_LOCATE = re.compile(rf"^(Constant (?:\S+\.)?|No object of basename )({CANDIDATE}\d+)$", re.MULTILINE)


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


def _script(module: str, header: str, candidates: list[Candidate]) -> str:
    """One coqtop input: the file's header, then each candidate and a marker; `Locate` of each at the end.

    The marker (`Check` of an unknown name) is an error of its own, so coqtop's error stream is cut into one
    segment per candidate. `Abort All.` closes a proof that a failing tactic left open.
    """
    lines = [header, f"Require Import {module}.", f"Check {_MARK}0."]
    for number, candidate in enumerate(candidates, start=1):
        text = " ".join((header, candidate.signature, candidate.theorem.proof))
        if CANDIDATE in text or _MARK in text or "\n" in candidate.signature:
            raise HarnessError(f"{candidate.theorem.name}: cannot be batched (uses {CANDIDATE} or spans lines)")
        lines += [f"Theorem {CANDIDATE}{number} {candidate.signature}.", "Proof.", candidate.theorem.proof, "Qed."]
        lines += ["Abort All.", f"Check {_MARK}{number}."]
    lines += [f"Locate {CANDIDATE}{number}." for number in range(1, len(candidates) + 1)]
    lines.append(f"Check {_MARK}end.")
    return "\n".join(lines) + "\n"


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
    """Compile `candidates` (all from one file) in one coqtop session on top of the development in `build`."""
    module, header = candidates[0].theorem.module, candidates[0].theorem.header
    assert all((c.theorem.module, c.theorem.header) == (module, header) for c in candidates), "one file a batch"
    coqc = coqc_path()
    if coqc is None:
        raise HarnessError("coqc is not installed")
    command = [str(Path(coqc).with_name("coqtop")), "-q", "-R", ".", COQ_ROOT_NAME]
    try:
        done = subprocess.run(
            command,
            input=_script(module, header, candidates),
            cwd=build,
            capture_output=True,
            text=True,
            timeout=MUTANT_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise HarnessError(f"coqtop timed out after {MUTANT_TIMEOUT:g} s on {module}") from error
    names = [f"{CANDIDATE}{number}" for number in range(1, len(candidates) + 1)]
    segments = _segments(_errors(done.stderr), len(candidates))
    answers = _LOCATE.findall(done.stdout)
    if done.returncode != 0 or segments is None or [name for _, name in answers] != names:
        raise HarnessError(
            f"coqtop on {module}: exit {done.returncode}, the error stream "
            f"{'cut as written' if segments else 'not cut by its marks'}, {len(answers)} of {len(names)} Locate "
            f"answers; last errors: {_errors(done.stderr)[-3:]}"
        )
    located = [answer.startswith("Constant") for answer, _ in answers]
    return [_judge(*judged) for judged in zip(names, located, segments, strict=True)]


def _segments(errors: list[tuple[str, str]], count: int) -> list[list[tuple[str, str]]] | None:
    """Each candidate's errors (those between its marks), or None unless every mark came, in order, and nothing
    went wrong outside the candidates (the header, the `Locate`s)."""
    segments: list[list[tuple[str, str]]] = [[]]
    marks = [*map(str, range(count + 1)), "end"]
    for echo, message in errors:
        expected = marks[len(segments) - 1] if len(segments) <= len(marks) else None
        if message == f"The reference {_MARK}{expected} was not found in the current environment.":
            segments.append([])
        else:
            segments[-1].append((echo, message))
    if len(segments) != len(marks) + 1 or segments[0] or segments[-2] or segments[-1]:
        return None
    return segments[1:-2]


def check_candidates(build: Path, candidates: list[Candidate], jobs: int = 2) -> list[Verdict]:
    """One coqtop session per file of the development and `BATCH_SIZE` candidates (`jobs` sessions at a time).

    **Returns:** the verdicts in `candidates`' order.
    """
    by_file: dict[tuple[str, str], list[int]] = {}
    for index, candidate in enumerate(candidates):
        by_file.setdefault((candidate.theorem.module, candidate.theorem.header), []).append(index)
    batches: list[list[int]] = []
    for indices in by_file.values():
        size = math.ceil(len(indices) / math.ceil(len(indices) / BATCH_SIZE))  # the fewest sessions, evenly filled
        batches += [indices[at : at + size] for at in range(0, len(indices), size)]
    verdicts: dict[int, Verdict] = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        done = pool.map(lambda indices: check_batch(build, [candidates[i] for i in indices]), batches)
        for indices, batch in zip(batches, done, strict=True):
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
    """Compile the development once (cached), then every control and mutant, one coqtop session per file."""
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
