"""The claims site (issue #6): it builds with warnings as errors, every claim has its page, the errata list every
refuted claim, plots exist, and the `{claim}` role fails the build on an unknown ID."""

from __future__ import annotations

import contextlib
import html
import io
import json
import re
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests._docs_build import DOCS, DocsBuild, build_docs, sphinx_command

from ._cli_in_process import CliResult


@pytest.fixture(scope="session")
def site() -> DocsBuild:
    built = build_docs()
    if built.returncode != 0:
        pytest.fail(f"the docs build failed (exit {built.returncode}):\n{built.output[-6000:]}")
    return built


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.hrefs.append(values["href"] or "")
        for key in ("src", "href"):
            url = values.get(key) or ""
            if tag in ("script", "link", "img", "iframe") and re.match(r"(https?:)?//", url):
                self.external.append(f"<{tag} {key}={url}>")


def _links(path: Path) -> _Links:
    parser = _Links()
    parser.feed(_text(path))
    return parser


def test_docs_build_with_warnings_as_errors(site: DocsBuild) -> None:
    assert (site.html / "index.html").is_file()


def test_every_claim_has_a_page_with_its_statement_sources_and_verdict(site: DocsBuild) -> None:
    from ropecheck.proofs.claims._source_documents import source_document

    from ropecheck import proofs

    for claim in proofs.all_claims():
        page = site.html / "generated" / "claims" / f"{claim.id}.html"
        assert page.is_file(), f"no page for {claim.id}"
        text = _text(page)
        assert claim.id in text
        assert claim.verdict.split()[0] in text
        assert "Kernel (Coq)" in text and "Engine certificate" in text
        if claim.verdict in ("proved", "refuted"):
            assert "kernel-checked (Coq" in text and "Print Assumptions" in text
        for source in claim.sources:  # cited by title (a seed's file name is never shown)
            registered = source_document(source.key)
            named = registered.title if registered is not None else source.key
            # as a reader sees it: paths and identifiers in a title are code spans (tags between the words), and
            # Sphinx typesets a title's apostrophes as typographic ones (smartquotes)
            visible = html.unescape(re.sub(r"<[^>]+>", "", text))
            typeset = named.replace("'", "\u2019")
            assert typeset in visible or named in visible, f"{claim.id}: source {named!r} not named"
        assert "Numeric evidence" in text


def test_ledger_links_every_claim_grouped_by_topic(site: DocsBuild) -> None:
    from ropecheck import proofs

    ledger = site.html / "generated" / "ledger.html"
    hrefs = _links(ledger).hrefs
    for claim_id in proofs.claim_ids():
        assert f"claims/{claim_id}.html" in hrefs, f"the ledger does not link {claim_id}"
    assert "Long-term decay" in _text(ledger)


def test_errata_list_every_refuted_claim_with_its_correction(site: DocsBuild) -> None:
    from ropecheck import proofs

    errata = site.html / "generated" / "errata.html"
    hrefs = _links(errata).hrefs
    refuted = [claim for claim in proofs.all_claims() if claim.verdict == "refuted"]
    assert refuted
    for claim in refuted:
        assert f"claims/{claim.id}.html" in hrefs, f"the errata miss refuted claim {claim.id}"
    proved_only = [c.id for c in proofs.all_claims() if c.verdict == "proved" and c.correction is None]
    for claim_id in proved_only:
        assert f"claims/{claim_id}.html" not in hrefs, f"the errata list proved claim {claim_id}"


def test_refuted_claim_page_shows_counterexample_or_derivation_and_correction(site: DocsBuild) -> None:
    text = _text(site.html / "generated" / "claims" / "ROPE-DECAY-TO-ZERO.html")
    assert "Correction" in text and "refuted" in text
    assert "Derivation steps" in text
    assert "decay_bound.png" in text and "dot_product_far.png" in text


def test_plots_are_generated(site: DocsBuild) -> None:
    images = {path.name: path.stat().st_size for path in (site.html / "_images").glob("*.png")}
    for name in ("decay_bound", "dot_product_far", "relative_identity", "audit_rope_float32_angles"):
        matches = [size for image, size in images.items() if image.startswith(name)]
        assert matches and matches[0] > 10_000, f"plot {name} missing or empty: {sorted(images)}"


def test_audit_guide_explains_every_property_and_the_policy(site: DocsBuild) -> None:
    from ropecheck.numeric.audit.properties import PROPERTIES

    text = _text(site.html / "audit-guide.html")
    for name in PROPERTIES:
        assert f'<code class="docutils literal notranslate"><span class="pre">{name}</span></code>' in text, name
    assert "Tolerance policy of" in text
    assert "conformance" in text.lower()
    assert (site.html / "generated" / "conformance.html").is_file()


def test_api_reference_documents_proofs_and_numeric(site: DocsBuild) -> None:
    text = _text(site.html / "generated" / "api.html")
    anchors = (
        'id="ropecheck.proofs.get_claim"',
        'id="ropecheck.proofs.Claim"',
        'id="ropecheck.numeric.audit.audit"',
        'id="ropecheck.numeric.reference.tolerances.gamma"',
    )
    for anchor in anchors:
        assert anchor in text, anchor


def test_site_references_nothing_off_the_machine(site: DocsBuild) -> None:
    offenders = []
    for page in site.html.rglob("*.html"):
        offenders += [f"{page.relative_to(site.html)}: {item}" for item in _links(page).external]
    assert not offenders, "\n".join(offenders)
    assert (site.html / "_static" / "mathjax" / "tex-chtml-full.js").is_file()


# ------------------------------------------------------------------------------------------------ the role
FAKE_CLAIMS = {
    "claims": [
        {
            "id": "FAKE-PROVED",
            "title": "A proved fake with a $x^2$ in a quote",
            "topic": "rope",
            "statement": r"R_m^\top R_n = R_{n-m}",
            "engine_statement": r"R_m^\top R_n = R_{n-m}",
            "assumptions": ["m, n integers"],
            "sources": [{"key": "seed-001", "quote": "so $R_m^T R_n = R_{n-m}$ holds"}],
            "interpretation": "",
            "verdict": "proved",
            "method": "derivation (blockwise)",
            "certificate": {
                "verdict": "proved",
                "method": "derivation (blockwise)",
                "steps": [
                    {
                        "name": "2×2 block",
                        "latex": r"\cos^2 + \sin^2 = 1",
                        "verdict": "proved",
                        "method": "groebner-trig",
                        "detail": "",
                    }
                ],
            },
            "test": "test_fake_proved",
            "numeric": {"float32": {"max_error": 1.2e-7, "bound": 4.8e-7, "ratio": 0.25, "cases": 100}},
        },
        {
            "id": "FAKE-REFUTED",
            "title": "A refuted fake",
            "topic": "decay",
            "statement": r"\mathrm{score} \to 0",
            "engine_statement": r"\mathrm{score} \to 0",
            "assumptions": [],
            "sources": [{"key": "seed-004", "quote": "it decays | to zero"}],
            "interpretation": "read as a limit",
            "verdict": "refuted",
            "method": "interval-counterexample",
            "certificate": {
                "verdict": "refuted",
                "method": "interval-counterexample",
                "counterexample": {
                    "point": {"p": "0"},
                    "residual": "2*sin(1)",
                    "interval": {"re": "[1.68, 1.69]"},
                    "precision_bits": 64,
                },
            },
            "test": "test_fake_refuted",
            "correction": {
                "statement": r"|\mathrm{score}| \le B(\Delta)",
                "explanation": "only the bound decays",
                "verdict": "proved",
                "method": "expand",
                "certificate": {"verdict": "proved", "method": "expand"},
            },
        },
    ]
}


def _tiny_project(tmp_path: Path, body: str) -> Path:
    (tmp_path / "claims.json").write_text(json.dumps(FAKE_CLAIMS), encoding="utf-8")
    (tmp_path / "conf.py").write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path[:0] = [{str(DOCS / "_ext")!r}, {str(DOCS.parent)!r}]
            extensions = ["myst_parser", "ropecheck_docs"]
            myst_enable_extensions = ["dollarmath", "colon_fence"]
            ropecheck_claims_json = "claims.json"
            ropecheck_full_site = False
            html_theme = "basic"
            mathjax_path = "mathjax.js"
            """
        ),
        encoding="utf-8",
    )
    toctree = "```{toctree}\ngenerated/ledger\ngenerated/errata\ngenerated/claims\n```\n"
    (tmp_path / "index.md").write_text(f"# Tiny\n\n{body}\n\n{toctree}", encoding="utf-8")
    return tmp_path


def _build(project: Path, *leave_out: str) -> CliResult:
    """Build `project` with the site's command line less the options in `leave_out`, in this process (Sphinx's
    `build_main`, the function `python -m sphinx` runs): a subprocess each cost about 3 CPU-s of start-up and imports
    for a three-page project, in-process 0.1–0.3 after the first (issue 36). The site itself is built as the user
    builds it, in a subprocess (`tests/_docs_build.py`). The project's conf.py puts the extension on `sys.path`:
    restored afterwards."""
    from sphinx.cmd.build import build_main

    _python, _m, _sphinx, *arguments = sphinx_command(project, project / "_build")
    out, err, saved_path = io.StringIO(), io.StringIO(), sys.path[:]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            returncode = build_main([part for part in arguments if part not in leave_out])
    finally:
        sys.path[:] = saved_path
    return CliResult(returncode, out.getvalue(), err.getvalue())


def test_claim_role_links_to_the_claim_page(tmp_path: Path) -> None:
    project = _tiny_project(tmp_path, "See {claim}`FAKE-PROVED` and {claim}`FAKE-REFUTED`.")
    completed = _build(project)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    index = _links(project / "_build" / "index.html").hrefs
    assert "generated/claims/FAKE-PROVED.html" in index
    claim = _text(project / "_build" / "generated" / "claims" / "FAKE-PROVED.html")
    # The seed is cited by its title and date, never by its file name.
    assert "A Note on Positional Encoding" in claim and "2024-09-08" in claim and "001_afbb0d2f324815b3" not in claim
    assert "groebner-trig" in claim and "0.25" in claim
    words = html.unescape(re.sub(r"<[^>]+>", "", claim))  # the BibTeX is highlighted: spans inside it
    assert "@misc{ropecheck-fake-proved," in words and "ropecheck claims show FAKE-PROVED" in words
    refuted = _text(project / "_build" / "generated" / "claims" / "FAKE-REFUTED.html")
    assert "Not yet measured" in refuted and "Correction" in refuted and "1.68" in refuted and "1.69" in refuted
    errata_links = _links(project / "_build" / "generated" / "errata.html").hrefs
    assert "claims/FAKE-REFUTED.html" in errata_links and "claims/FAKE-PROVED.html" not in errata_links


@pytest.mark.parametrize("warnings_as_errors", [True, False], ids=["-W", "without -W"])
def test_unknown_claim_id_fails_the_build(tmp_path: Path, warnings_as_errors: bool) -> None:
    project = _tiny_project(tmp_path, "See {claim}`FAKE-PROVED` and {claim}`NO-SUCH-CLAIM`.")
    completed = _build(project, *([] if warnings_as_errors else ["-W"]))
    output = completed.stdout + completed.stderr
    assert completed.returncode != 0, output
    assert "NO-SUCH-CLAIM" in output


def test_a_formula_too_long_to_read_is_shown_cut_with_the_command_that_prints_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine's d = 128 statement (174,511 characters of LaTeX) is not typeset on its claim page: its start is
    shown as source with its length and the command that prints it whole; a short formula is still display math."""
    monkeypatch.syspath_prepend(str(DOCS / "_ext"))
    from ropecheck_docs import _markdown

    short = r"\sin^2 x + \cos^2 x = 1"
    assert _markdown.formula_block(short) == _markdown.display_math(short)
    long = " + ".join([r"\frac{\left|{e^{i}}\right|}{64}"] * 400)
    assert len(long) > _markdown.LONG_FORMULA
    shown = _markdown.formula_block(long, "`ropecheck claims show X --json --full`")
    assert "$$" not in shown and "```{math}" not in shown and "```latex" in shown
    assert long[: _markdown.SHOWN_OF_LONG] in shown and long not in shown
    assert f"of {len(long):,} characters" in shown
    assert "`ropecheck claims show X --json --full` prints it whole" in shown


def test_a_prose_statement_escapes_what_tex_reads_as_markup() -> None:
    """`Claimed` prose is shown in `\\text{}`: `R_m` there was a MathJax error on ROPE-ABS-AND-REL's page (found by
    the browser sweep's math check); TeX's specials are escaped."""
    from ropecheck.proofs.engine._statements import Claimed

    assert Claimed("R_m x & 5% of #1 {a} $b").latex == r"\text{R\_m x \& 5\% of \#1 \{a\} \$b}"
