"""Reading the Coq development's sources without Coq: theorem names, forbidden commands, UNKNOWN notes.

The kernel decides; this module only finds *which* theorems to ask it about (by the naming contract of
ISSUE #10: claim `X` ↦ `x`, `x_negation`, `x_correction`, `x_literal`, and in Printed.v `x_printed`,
`x_printed_negation`, `x_printed_d4`, …) and rejects a development that contains `Admitted`, `admit`,
`Axiom`, `Parameter` or `Conjecture` outside comments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ._defs_policy import refusals

ROLES = ("verdict", "negation", "correction", "literal")
"""The roles a kernel theorem plays for its claim (the `role` field of `kernel_theorems`)."""

FORBIDDEN = ("Admitted", "admit", "Axiom", "Axioms", "Parameter", "Parameters", "Conjecture", "give_up")
"""Commands and tactics that would let a file state something without proving it."""

FORBIDDEN_PHRASES = {
    "Admit Obligations": re.compile(r"(?<![\w'])Admit\s+Obligations(?![\w'])"),
    "Declare Module": re.compile(r"(?<![\w'])Declare\s+Module(?![\w'])"),
    "#[bypass_check]": re.compile(r"#\[[^\]]*bypass_check"),
}
"""Multi-word commands and attributes that state something unproved or switch a kernel check off for one sentence."""

_FORBIDDEN_WORDS = {word: re.compile(rf"(?<![A-Za-z0-9_']){word}(?![A-Za-z0-9_'])") for word in FORBIDDEN}
_ANY_FORBIDDEN = re.compile("|".join([*map(re.escape, FORBIDDEN), *(p.pattern for p in FORBIDDEN_PHRASES.values())]))
"""A line that matches none of these (each word anywhere, each phrase's own pattern) holds none of `FORBIDDEN` and
`FORBIDDEN_PHRASES`: derived from them, so a word added there is never skipped by the one search per line."""

_SECTION_VARIABLES = ("Context", "Hypothesis", "Hypotheses", "Variable", "Variables")
_ANY_HYPOTHESIS = re.compile("|".join(_SECTION_VARIABLES))
"""A line without any of these words declares no section variable (`_HYPOTHESIS`)."""

_HYPOTHESIS = re.compile(
    r"(?:^|(?<=\.\s)|(?<=\.))\s*(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global)\s+)?"
    rf"({'|'.join(_SECTION_VARIABLES)})(?![\w'])"
)
"""A section variable: a project axiom when it is declared outside every `Section`."""

_DECLARATION = re.compile(
    r"(?:^|(?<=[.\s]))(Theorem|Lemma|Example|Corollary|Fact|Proposition|Remark)\s+([A-Za-z_][A-Za-z0-9_']*)"
)
_WITH_PROOF = re.compile(
    r"(?:^|(?<=[.\s]))(Theorem|Lemma|Example|Corollary|Fact|Proposition|Remark)\s+([A-Za-z_][A-Za-z0-9_']*)"
    r"(.*?)\.\s+Proof\.(.*?)(?:Qed|Defined)\.",
    re.DOTALL,
)
_UNKNOWN = re.compile(r"\(\*\s*UNKNOWN\s+([A-Z0-9-]+)\s*:\s*(.*?)\*\)", re.DOTALL)
_REQUIRE = re.compile(r"Ropecheck\.([A-Z][A-Za-z0-9_]*)|From\s+Ropecheck\s+Require\s+(?:Import\s+|Export\s+)?([^.]*)\.")


_COMMENT_OR_STRING = re.compile(r'\(\*|\*\)|"|\n')
"""The only places where `strip_comments` changes state: a comment opens or closes, a string opens or closes, a line
ends. What lies between two of them is kept or blanked as a whole (every `claims` process reads the development's
~470,000 characters: a loop over characters cost 0.1 CPU-s of it)."""


def strip_comments(text: str, keep_strings: bool = False) -> str:
    """The text with (nested) comments and (unless `keep_strings`) string literals replaced by spaces (line
    structure kept). The opening quote of a string is kept, its closing quote blanked (unless `keep_strings`); a
    quote inside a comment opens no string, and `(*` inside a string opens no comment."""
    out: list[str] = []
    depth, in_string, start = 0, False, 0

    def run(end: int) -> None:  # the characters before the next marker, none of them a newline
        if end > start:
            kept = (keep_strings and in_string) or not (in_string or depth)
            out.append(text[start:end] if kept else " " * (end - start))

    for marker in _COMMENT_OR_STRING.finditer(text):
        token, position = marker.group(), marker.start()
        run(position)
        start = marker.end()
        if token == "\n":
            out.append("\n")
        elif in_string:
            if token == '"':
                in_string = False
            out.append(token if keep_strings else " " * len(token))
        elif token == "(*":
            depth += 1
            out.append("  ")
        elif depth:
            if token == "*)":
                depth -= 1
            out.append(" " * len(token))
        elif token == '"':
            in_string = True
            out.append(token)
        else:  # "*)" outside any comment: two ordinary characters
            out.append(token)
    run(len(text))
    return "".join(out)


_SCOPE = re.compile(r"(?m)^\s*(?:(Module|Section)\s+(?!Type\b)([A-Za-z_][\w']*)\s*\.|End\s+([A-Za-z_][\w']*)\s*\.)")


def _qualified_declarations(code: str) -> list[str]:
    """Declared theorem names, prefixed with the `Module`s they sit in (`Big.Rplus_assoc_ssr`): the name that
    `Print Assumptions <file module>.<name>` finds. Sections add no prefix (their theorems keep their names)."""
    events = sorted(
        [(m.start(), "scope", m) for m in _SCOPE.finditer(code)]
        + [(m.start(), "declaration", m) for m in _DECLARATION.finditer(code)],
        key=lambda event: event[0],
    )
    stack: list[tuple[str, str]] = []
    names: list[str] = []
    for _, kind, match in events:
        if kind == "declaration":
            prefix = "".join(name + "." for scope, name in stack if scope == "Module")
            names.append(prefix + match.group(2))
        elif match.group(1):
            stack.append((match.group(1), match.group(2)))
        elif stack and stack[-1][1] == match.group(3):
            stack.pop()
    return names


@dataclass(frozen=True)
class SourceFile:
    """What a `.v` file declares, as read from its text.

    **Arguments:**

    - `module`: the logical name (`Ropecheck.Rope`).
    - `path`: the file.
    - `theorems`: declared theorem/lemma/example names, in order.
    - `forbidden`: forbidden commands found outside comments (`Admitted`, `Axiom`, …), with line numbers.
    - `unknown`: `claim ID → reason` from `(* UNKNOWN X: reason *)` comments.
    - `requires`: the project modules it loads (short names: `Defs`, `Rope`).
    - `texts`: theorem name → `(statement, proof script)` as written (comments removed), for display.
    - `refused`: for a definitions file (`Defs*.v`), the sentences `_defs_policy` does not allow, with their lines.
    """

    module: str
    path: Path
    theorems: tuple[str, ...]
    forbidden: tuple[str, ...]
    unknown: dict[str, str]
    requires: tuple[str, ...]
    texts: dict[str, tuple[str, str]] = field(default_factory=dict, compare=False)
    refused: tuple[str, ...] = ()


def read_source(path: Path, root_name: str = "Ropecheck") -> SourceFile:
    """Scan one `.v` file."""
    text = path.read_text(encoding="utf-8")
    code = strip_comments(text)
    theorems = tuple(dict.fromkeys(_qualified_declarations(code)))
    forbidden = []
    sections: list[str] = []
    for number, line in enumerate(code.splitlines(), start=1):
        if _ANY_FORBIDDEN.search(line):  # most lines hold none: one search instead of one per word and phrase
            for word, pattern in _FORBIDDEN_WORDS.items():
                if pattern.search(line):
                    forbidden.append(f"{word} (line {number})")
            for phrase, pattern in FORBIDDEN_PHRASES.items():
                if pattern.search(line):
                    forbidden.append(f"{phrase} (line {number})")
        for scope in _SCOPE.finditer(line):
            if scope.group(1):
                sections.append(scope.group(1))
            elif sections:
                sections.pop()
        found = _HYPOTHESIS.search(line) if _ANY_HYPOTHESIS.search(line) else None
        if found and "Section" not in sections:
            forbidden.append(f"{found.group(1)} outside a section (line {number})")
    refused = refusals(strip_comments(text, keep_strings=True), path.name) if path.stem.startswith("Defs") else ()
    unknown = {m.group(1): " ".join(m.group(2).split()) for m in _UNKNOWN.finditer(text)}
    requires: list[str] = []
    for match in _REQUIRE.finditer(code):
        names = [match.group(1)] if match.group(1) else match.group(2).split()
        requires.extend(name.split(".")[0] for name in names if name and name != path.stem)
    texts = {
        m.group(2): (f"{m.group(1)} {m.group(2)}{_dedent(m.group(3))}.", _dedent(m.group(4)).strip())
        for m in _WITH_PROOF.finditer(code)
    }
    return SourceFile(
        module=f"{root_name}.{path.stem}",
        path=path,
        theorems=theorems,
        forbidden=tuple(forbidden),
        unknown=unknown,
        requires=tuple(dict.fromkeys(requires)),
        texts=texts,
        refused=refused,
    )


def _dedent(text: str) -> str:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def listed_files(root: Path) -> list[Path]:
    """The `.v` files `_CoqProject` lists (every `.v` in `root` when there is no `_CoqProject`)."""
    project = root / "_CoqProject"
    if not project.exists():
        return sorted(root.glob("*.v"))
    names = [w for line in project.read_text(encoding="utf-8").splitlines() for w in line.split() if w.endswith(".v")]
    return [root / name for name in names if (root / name).exists()]


def read_development(root: Path, root_name: str = "Ropecheck") -> list[SourceFile]:
    """The `.v` files `_CoqProject` lists, in dependency order (a file after the files it requires)."""
    files = {p.stem: read_source(p, root_name) for p in listed_files(root)}
    ordered: list[SourceFile] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name not in files or files[name] in ordered or name in visiting:
            return
        visiting.add(name)
        for dependency in files[name].requires:
            visit(dependency)
        ordered.append(files[name])

    for name in files:
        visit(name)
    return ordered


def theorem_base(claim_id: str) -> str:
    """`ROPE-RELATIVE-MATRIX` → `rope_relative_matrix` (the naming contract)."""
    return claim_id.lower().replace("-", "_")


def role_of(claim_id: str, theorem: str) -> str | None:
    """The role `theorem` plays for `claim_id`, or None when the name is not one of the claim's.

    `x` is the verdict, `x_negation` the negation, `x_correction` (and `x_correction_…`) corrections, `x_literal`
    literal readings (and `x_literal_negation`, a negation of the literal reading, also reported as `literal`).
    Statements printed from SymPy (`x_printed`, `x_printed_negation`, `x_correction_printed`) and explicit
    instances (`x_instance_d8`, `x_printed_d4`) are `instance`s: kernel-checked and reported, but an instance
    never decides a claim (GUIDE §3: explicit instances are corollaries, never evidence on their own).
    """
    base = theorem_base(claim_id)
    if theorem == base:
        return "verdict"
    if not theorem.startswith(base + "_"):
        return None
    rest = theorem[len(base) + 1 :]
    if rest == "negation":
        return "negation"
    if rest in {"printed", "printed_negation", "correction_printed"} or re.fullmatch(r"(printed_|instance_)d\d+", rest):
        return "instance"
    if rest == "correction" or rest.startswith("correction_"):
        return "correction"
    if rest == "literal" or rest.startswith("literal_"):
        return "literal"
    return None
