"""Compiling the generated `Statements<Module>.v` files, one bound theorem at a time when one is rejected.

coqc stops at the first error, so a statements file whose bound theorem does not check (its proof lemma has
another type, was deleted, or its proof file failed) is compiled again without that theorem: the rejection is
recorded with coqc's error and the other claims of the module are still decided. Each statement is printed by Coq
itself (`Print` of its `<theorem>_statement` definition, with notations) into `el_<theorem>.out`: the *elaborated*
statement the ledger shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from ._binding import failing_line
from ._kernel import read_verified, store, write_verified

Compile = Callable[[str], tuple[bool, str]]


def compile_statements(
    path: Path, owner: dict[int, str], compile_file: Compile, excerpt: Callable[[str], str]
) -> tuple[bool, str, dict[str, str], dict[str, str]]:
    """Compile `path` (in its build directory), dropping each bound theorem coqc rejects.

    **Arguments:**

    - `path`: the generated file, already written in the build directory.
    - `owner`: line number → proof-lemma name (from `statements_file`).
    - `compile_file`: runs coqc on a file name in the build directory → `(succeeded, output)`.
    - `excerpt`: turns coqc's output into a one-line message.

    **Returns:** `(compiled, message, rejected, elaborated)`: `rejected` maps a proof lemma to coqc's error,
    `elaborated` maps it to the statement Coq printed for its `_verdict` theorem.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    rejected: dict[str, str] = {}
    while True:
        text = _with_checks(lines, owner, rejected)
        path.write_text(text, encoding="utf-8")
        ok, output = compile_file(path.name)
        if ok:
            break
        line = failing_line(output, path.name)
        theorem = owner.get(line) if line is not None else None
        if theorem is None or theorem in rejected:
            return False, excerpt(output), rejected, {}
        rejected[theorem] = excerpt(output)
    elaborated = {}
    for theorem in dict.fromkeys(owner.values()):
        out = path.parent / f"el_{theorem}.out"
        if theorem not in rejected and out.exists():
            elaborated[theorem] = definition_body(out.read_text(encoding="utf-8"))
            out.unlink()
    return True, "compiled", rejected, elaborated


def _with_checks(lines: list[str], owner: dict[int, str], rejected: dict[str, str]) -> str:
    """The file without the rejected theorems' lines (blank lines keep the numbering coqc reports)."""
    return "\n".join("" if owner.get(number) in rejected else line for number, line in enumerate(lines, 1)) + "\n"


def definition_body(print_output: str) -> str:
    """`name =\n<body>\n     : Prop` (Coq's `Print` of a definition) → the body, dedented."""
    text = re.sub(r"\n\s*:\s*Prop\s*$", "", print_output.rstrip())
    _, _, body = text.partition("=")
    lines = body.strip("\n").splitlines()
    if lines and not lines[0].strip():
        lines = lines[1:]
    return "\n".join(line.rstrip() for line in lines).strip()


def statement_of(check_output: str) -> str:
    """`name\\n     : statement` (Coq's `Check` output) → the statement, dedented."""
    _, _, rest = check_output.partition("\n")
    body = rest.rstrip().splitlines()
    if not body or not body[0].startswith("     : "):
        return check_output.strip()
    first = body[0][len("     : ") :]
    lines = [first] + [line[7:] if line.startswith("       ") else line.strip() for line in body[1:]]
    return "\n".join(line.rstrip() for line in lines)


def save_cached(cached: Path, stem: str, build: Path, rejected: dict[str, str], elaborated: dict[str, str]) -> None:
    """Keep the `.vo` with what the run learnt (rejections, elaborated statements) under the file's key."""
    cached.mkdir(parents=True, exist_ok=True)
    write_verified(cached / "statements.json", {"rejected": rejected, "elaborated": elaborated})
    store(build / f"{stem}.vo", cached / f"{stem}.vo")  # last: a reader takes the .vo as "the record is there"


def load_cached(cached: Path) -> tuple[dict[str, str], dict[str, str]] | None:
    """`(rejected, elaborated)` from a cached statements build, or None when there is none."""
    data = read_verified(cached / "statements.json")
    if not isinstance(data, dict):
        return None
    return dict(data["rejected"]), dict(data["elaborated"])
