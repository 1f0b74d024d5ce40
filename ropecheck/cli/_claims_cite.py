"""How a claim is cited: its Coq theorem's `file:line`, the commit of the checkout, and a BibTeX entry that LaTeX
typesets (shared by `claims show` and the docs' claim pages, `docs/_ext/ropecheck_docs/_cite.py`).

The title is written in plain ASCII for BibTeX: a claim title's `$…$` math stays LaTeX math, every other special
character is escaped, and Unicode symbols become LaTeX kernel commands (`ℝ` → `$\\mathbf{R}$`, `θ` →
`$\\theta$`), so `pdflatex` + `bibtex` compile it with no package beyond LaTeX itself. The entry carries a `url`
only when the docs have an absolute address (`$ROPECHECK_DOCS_URL`): a relative URL cites nothing.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path
from typing import Any

__all__ = ["add_locations", "bibtex_entry", "claim_url", "latex_title", "source_commit", "theorem_location"]

COQ_ROOT_NAME = "Ropecheck"


def _coq_root() -> Path:
    import ropecheck.proofs

    return Path(ropecheck.proofs.__file__).resolve().parent / "coq"


@functools.cache
def _declarations(module: str) -> dict[str, int]:
    """Theorem name → line number in the `.v` file of `module` (`Ropecheck.Rope` → `proofs/coq/Rope.v`)."""
    if not module.startswith(COQ_ROOT_NAME + "."):
        return {}
    path = _coq_root() / (module.removeprefix(COQ_ROOT_NAME + ".").replace(".", "/") + ".v")
    if not path.is_file():
        return {}
    declaration = re.compile(r"^\s*(?:Theorem|Lemma|Example|Corollary|Proposition|Fact|Remark)\s+([A-Za-z0-9_']+)")
    found: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = declaration.match(line)
        if match:
            found.setdefault(match.group(1), number)
    return found


def theorem_location(module: str, theorem: str) -> str | None:
    """`proofs/coq/Rope.v:42` for a theorem declared in the reviewed development, else None (a theorem printed
    from the registry at build time lives in no file of the repository).

    **Arguments:**

    - `module`: the Coq module (`Ropecheck.Rope`).
    - `theorem`: the theorem's short name.

    **Returns:** the repository-relative `file:line`, or None.
    """
    line = _declarations(module).get(theorem)
    if line is None:
        return None
    return f"proofs/coq/{module.removeprefix(COQ_ROOT_NAME + '.').replace('.', '/')}.v:{line}"


@functools.cache
def source_commit() -> str:
    """The commit of the checkout ropecheck runs from (12 hex digits), or `unknown` outside a git checkout."""
    try:
        done = subprocess.run(
            ["git", "-C", str(_coq_root().parent), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


def claim_url(claim_id: str, anchor: str) -> str | None:
    """The claim page's absolute address under `$ROPECHECK_DOCS_URL`, or None when the docs have none."""
    base = os.environ.get("ROPECHECK_DOCS_URL", "").strip()
    if not re.match(r"https?://", base):
        return None
    return f"{base.rstrip('/')}/generated/claims/{claim_id}.html#{anchor}"


# Unicode in claim titles → LaTeX kernel math (no package needed); ASCII stand-ins for typography.
_MATH = {
    "·": r"\cdot",
    "×": r"\times",
    "Δ": r"\Delta",
    "Σ": r"\Sigma",
    "δ": r"\delta",
    "θ": r"\theta",
    "π": r"\pi",
    "ω": r"\omega",
    "φ": r"\phi",
    "α": r"\alpha",
    "ᵀ": r"^{\top}",
    "ᵈ": "^{d}",
    "ᵢ": "_{i}",
    "ⱼ": "_{j}",
    "₁": "_{1}",
    "₂": "_{2}",
    "ℝ": r"\mathbf{R}",
    "→": r"\to",
    "∈": r"\in",
    "∞": r"\infty",
    "⟂": r"\perp",
    "⟨": r"\langle",
    "⟩": r"\rangle",
    "≤": r"\le",
    "≥": r"\ge",
    "≠": r"\ne",
    "√": r"\surd",
}
_TEXT = {"…": r"\ldots{}", "−": "-", "–": "--", "—": "---", "“": "``", "”": "''", "’": "'"}
_SPECIAL = re.compile(r"([{}%&#_$^~\\])")


def _escape_text(text: str) -> str:
    out = []
    for character in text:
        if character in _MATH:
            out.append(f"${_MATH[character]}$")
        elif character in _TEXT:
            out.append(_TEXT[character])
        elif _SPECIAL.fullmatch(character):
            out.append({"\\": r"\textbackslash{}", "^": r"\^{}", "~": r"\~{}"}.get(character, "\\" + character))
        elif ord(character) < 128:
            out.append(character)
        else:
            out.append("?")
    return "".join(out)


def _math(text: str) -> str:
    return "".join(_MATH.get(c, "-" if c == "−" else c if ord(c) < 128 else "?") for c in text)


def latex_title(title: str) -> str:
    """A claim title as plain-ASCII LaTeX: `$…$` math kept (its Unicode mapped to commands), text escaped.

    **Arguments:**

    - `title`: the registry's title (`Rotating q and k by $e^{im\\theta}$ … ⟨q, k⟩`).

    **Returns:** ASCII text that `pdflatex` typesets with the LaTeX kernel alone.
    """
    parts = re.split(r"(\$[^$]*\$)", title)
    return "".join(
        f"${_math(part[1:-1])}$"
        if part.startswith("$") and part.endswith("$") and len(part) > 1
        else _escape_text(part)
        for part in parts
    )


def bibtex_entry(claim: dict[str, Any], pin: dict[str, str], anchor: str) -> list[str]:
    """The `@misc` entry citing one claim, pinned to a version, commit and date.

    **Arguments:**

    - `claim`: one entry of the claims payload (`id`, `title`, `verdict`).
    - `pin`: `version`, `commit` and `date` (YYYY-MM-DD).
    - `anchor`: the claim page's label (`claim-rope-relative-matrix`).

    **Returns:** the entry's lines, plain ASCII; a `url` field only for an absolute docs address.
    """
    claim_id = claim["id"]
    verdict = _escape_text(str(claim.get("verdict", "unknown")))
    url = claim_url(claim_id, anchor)
    lines = [
        f"@misc{{ropecheck-{claim_id.lower()},",
        f"  title        = {{{{{claim_id}: {latex_title(str(claim.get('title', '')))}}}}},",
        "  author       = {{ropecheck}},",
        f"  howpublished = {{ropecheck claims ledger, version {_escape_text(pin['version'])}, "
        f"commit {_escape_text(pin['commit'])}}},",
        f"  note         = {{Verdict: {verdict}. Claim {claim_id}}},",
        f"  year         = {{{pin['date'][:4]}}},",
        f"  date         = {{{pin['date']}}},",
    ]
    if url is not None:
        lines.append(f"  url          = {{{url}}},")
    return [*lines, "}"]


def add_locations(entries: list[dict[str, Any]]) -> None:
    """Give each kernel theorem of each claim its `location` (`file:line`, or None when it
    is printed from the registry at build time), for `claims --json`.

    **Arguments:** `entries`: claims as `Claim.to_json()` gives them; changed in place.
    """
    for entry in entries:
        for theorem in entry.get("kernel_theorems") or []:
            if isinstance(theorem, dict) and "module" in theorem and "theorem" in theorem:
                theorem["location"] = theorem_location(str(theorem["module"]), str(theorem["theorem"]))
