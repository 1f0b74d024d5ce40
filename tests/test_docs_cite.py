"""A citable ledger: each claim page has a stable address (its anchor), a *Cite* block with BibTeX, the Coq
theorem's fully qualified name and `file:line`, and the `ropecheck claims show ID` command; sources are cited by
title and date, and no seed file name (`000_8078a0c1f020e996.txt`) reaches anything a user reads."""

from __future__ import annotations

import html
import io
import re
from pathlib import Path
from typing import Any

import pytest
from ropecheck.proofs.claims._source_documents import SOURCE_DOCUMENTS

ROOT = Path(__file__).resolve().parent.parent
SEED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
PIN = {"version": "0.2.0", "commit": "abc123def456", "date": "2026-11-24"}


@pytest.fixture
def cite(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT / "docs" / "_ext"))
    from ropecheck_docs import _cite

    return _cite


def _claim(theorem: str = "rope_relative_matrix") -> dict[str, Any]:
    return {
        "id": "ROPE-RELATIVE-MATRIX",
        "title": "$R(m)^\\top R(n) = R(n-m)$ for a 2×2 rotation",
        "verdict": "proved",
        "kernel_theorems": [
            {"role": "verdict", "module": "Ropecheck.Rope", "theorem": theorem, "status": "checked"},
            {"role": "instance", "module": "Ropecheck.Rope", "theorem": theorem + "_instance_d4", "status": "checked"},
        ],
    }


def test_cite_block_names_url_bibtex_theorem_file_line_command(cite: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROPECHECK_DOCS_URL", "https://example.org/ropecheck/")
    text = "\n".join(cite.cite_block(_claim(), PIN, "claim-rope-relative-matrix"))
    url = "https://example.org/ropecheck/generated/claims/ROPE-RELATIVE-MATRIX.html#claim-rope-relative-matrix"
    assert f"url          = {{{url}}}" in text
    assert "@misc{ropecheck-rope-relative-matrix," in text and "commit abc123def456" in text
    assert "version 0.2.0" in text and "date         = {2026-11-24}" in text
    assert "$ ropecheck claims show ROPE-RELATIVE-MATRIX" in text
    location = re.search(r"`Ropecheck\.Rope\.rope_relative_matrix` — `(proofs/coq/Rope\.v):(\d+)`", text)
    assert location, text
    line = (ROOT / location.group(1)).read_text(encoding="utf-8").splitlines()[int(location.group(2)) - 1]
    assert re.match(r"\s*Theorem rope_relative_matrix\b", line), f"file:line points at {line!r}"
    assert "instance_d4" not in text, "instances are corollaries, not the evidence to cite"


@pytest.mark.parametrize("configured", ["", "docs/", "file.html"])
def test_cite_block_without_an_absolute_url_has_no_url(
    configured: str, cite: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36: a relative `url` cites nothing; without an absolute docs address the entry has no `url`."""
    monkeypatch.setenv("ROPECHECK_DOCS_URL", configured)
    text = "\n".join(cite.cite_block(_claim(), PIN, "claim-rope-relative-matrix"))
    assert "@misc{ropecheck-rope-relative-matrix," in text
    assert "url " not in text and "url=" not in text.replace(" ", ""), text


def test_a_theorem_not_in_the_repository_has_no_made_up_location(cite: Any) -> None:
    text = "\n".join(cite.cite_block(_claim("no_such_theorem"), PIN, "claim-rope-relative-matrix"))
    assert "proofs/coq/Rope.v:" not in text
    assert "printed from the registry" in text


def test_sources_are_cited_by_title_and_date_never_by_file_name() -> None:
    citations = {document.label: document.citation for document in SOURCE_DOCUMENTS}
    assert citations["Note 2024-09-08"] == "“A Note on Positional Encoding”, 2024-09-08"
    assert citations["Blog 2025-09-09"] == "“RoPE - Is Attention All You Really Need?”, 2025-09-09"
    assert "Transformer Geometry" in citations["Transformer Geometry"]
    for document in SOURCE_DOCUMENTS:
        assert not SEED_NAME.search(document.citation + document.short)


def test_claims_show_names_no_seed_file() -> None:
    from ropecheck.cli._claims_view import print_claim

    entry = {
        "id": "X",
        "title": "t",
        "verdict": "proved",
        "statement": "s",
        "certificate": {},
        "sources": [{"key": document.key, "quote": "q"} for document in SOURCE_DOCUMENTS],
    }
    out = io.StringIO()
    print_claim(entry, out)
    assert "A Note on Positional Encoding" in out.getvalue()
    assert not SEED_NAME.search(out.getvalue()), out.getvalue()


def test_every_built_claim_page_has_the_cite_block_and_no_seed_file_name() -> None:
    from tests._docs_build import build_docs

    built = build_docs()
    if built.returncode != 0:
        pytest.fail(f"the docs build failed:\n{built.output[-3000:]}")
    pages = sorted((built.html / "generated" / "claims").glob("*.html"))
    assert len(pages) >= 40
    for page in pages:
        markup = page.read_text(encoding="utf-8")
        claim_id = page.stem
        assert f'id="claim-{claim_id.lower()}"' in markup, f"{page.name}: no stable anchor"
        text = html.unescape(re.sub(r"<[^>]+>", "", markup))  # the BibTeX is highlighted: spans inside it
        assert "@misc{ropecheck-" + claim_id.lower() + "," in text, f"{page.name}: no BibTeX"
        assert f"ropecheck claims show {claim_id}" in text
    leaked = [str(p.relative_to(built.html)) for p in built.html.rglob("*.html") if SEED_NAME.search(p.read_text())]
    assert not leaked, f"seed file names shown on {leaked[:5]}"


def _every_claim_bibtex() -> list[str]:
    from ropecheck.proofs import all_claims

    from ropecheck.cli._claims_cite import bibtex_entry

    return [
        "\n".join(bibtex_entry({"id": c.id, "title": c.title, "verdict": "proved"}, PIN, "claim-" + c.id.lower()))
        for c in all_claims()
    ]


# The LaTeX kernel's commands a claim's BibTeX may use (math and escapes): nothing that needs a package.
LATEX_KERNEL = {
    "top",
    "theta",
    "omega",
    "alpha",
    "phi",
    "pi",
    "delta",
    "Delta",
    "Sigma",
    "sum",
    "cos",
    "sin",
    "mathrm",
    "mathbf",
    "langle",
    "rangle",
    "cdot",
    "times",
    "to",
    "in",
    "infty",
    "perp",
    "le",
    "ge",
    "ne",
    "surd",
    "ldots",
    "textbackslash",
    "_",
    "&",
    "%",
    "#",
    "$",
    "{",
    "}",
    "^",
    "~",
}


def bibtex_problems(entry: str) -> list[str]:
    """What keeps an entry from compiling with pdflatex + bibtex: non-ASCII, unbalanced braces or `$`, a command
    outside the LaTeX kernel, an unescaped special character in text."""
    problems = [f"non-ASCII {c!r}" for c in entry if ord(c) > 127]
    depth = 0
    for character in re.sub(r"\\[{}]", "", entry):
        depth += {"{": 1, "}": -1}.get(character, 0)
        problems += ["unbalanced }"] if depth < 0 else []
    problems += ["unbalanced {"] if depth else []
    title = re.search(r"title\s*=\s*\{(.*)\},\n", entry)
    if title is None:
        return [*problems, "no title"]
    text = re.sub(r"\\\$", "", title.group(1))
    if text.count("$") % 2:
        problems.append("unbalanced $")
    problems += [f"\\{name}" for name in re.findall(r"\\([A-Za-z]+|.)", entry) if name not in LATEX_KERNEL]
    outside_math = "".join(re.split(r"\$[^$]*\$", text)[::1])
    problems += [f"unescaped {c!r}" for c in re.findall(r"(?<!\\)[_%&#^~]", outside_math)]
    return problems


def test_every_claim_bibtex_is_latex_kernel_ascii() -> None:
    """Issue 36: the title was Unicode math (`⟨q, k⟩`, `ℝᵈ`) that LaTeX does not typeset; every claim's entry is now
    plain ASCII with `$…$` math in LaTeX kernel commands (pdflatex itself: `test_bibtex_compiles_with_pdflatex`,
    opt-in with --deep)."""
    entries = _every_claim_bibtex()
    assert len(entries) >= 40
    for entry in entries:
        assert bibtex_problems(entry) == [], entry


def test_bibtex_check_notices_unicode_and_a_package_command() -> None:
    """Meta-test: the old title (Unicode, `$` stripped, a bare `\\langle` in text) and a `\\mathbb` both fail."""
    old = "@misc{x,\n  title        = {{X}: Re[\\langle q,k\\rangle] for q, k ∈ ℝᵈ},\n}"
    assert bibtex_problems(old)
    assert bibtex_problems("@misc{x,\n  title        = {{X}: $\\mathbb{R}$},\n}")
    assert bibtex_problems("@misc{x,\n  title        = {{X}: a_b},\n}")


@pytest.mark.deep
def test_bibtex_compiles_with_pdflatex(tmp_path: Path) -> None:
    """Every claim's BibTeX typeset by pdflatex + bibtex (Debian `texlive-latex-base`; opt-in: not in the CI)."""
    import shutil
    import subprocess

    assert shutil.which("pdflatex") and shutil.which("bibtex"), "apt-get install texlive-latex-base"
    (tmp_path / "claims.bib").write_text("\n\n".join(_every_claim_bibtex()), encoding="ascii")
    (tmp_path / "cite.tex").write_text(
        "\\documentclass{article}\\begin{document}\\nocite{*}\\bibliographystyle{plain}\\bibliography{claims}"
        "\\end{document}\n"
    )
    for command in (["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "cite"], ["bibtex", "cite"]) * 2:
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, (command, done.stdout[-3000:])
    assert "Warning--" not in (tmp_path / "cite.blg").read_text()


def test_claims_json_gives_each_theorem_its_file_and_line() -> None:
    """Issue 36: `claims --json` named the theorems without file:line (the document also carries the commit)."""
    from ropecheck.cli._claims_cite import add_locations

    entries = [_claim(), _claim("no_such_theorem")]
    add_locations(entries)
    location = entries[0]["kernel_theorems"][0]["location"]
    line = (ROOT / location.split(":")[0]).read_text(encoding="utf-8").splitlines()[int(location.split(":")[1]) - 1]
    assert re.match(r"\s*Theorem rope_relative_matrix\b", line), location
    assert entries[1]["kernel_theorems"][0]["location"] is None
