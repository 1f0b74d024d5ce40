"""The built site as a reader sees it: headless Chromium (driven by Playwright, Debian's `chromium`, no browser
download) opens every page from a loopback HTTP server, waits for MathJax, and checks that math rendered, that nothing
was logged as an error, that no request left the machine, and that the layout reads at 1280 px and on a 390 px phone:
no overflow outside a scroll box, nothing cut off, no word broken mid-word, no table column narrower than its longest
word, no empty side column, and at 1280 px no table that must be scrolled sideways (the probe and its checks:
`tests/_browser.py`; each seen failing in `test_browser_layout_checks.py`).

Each page is loaded (and its math typeset, most of the cost) once: it is probed at 1280 px, then switched to the
phone and probed again — the same reports as a fresh load at 390 px (`Browser.visit`).

Screenshots of the ledger, the conformance table, one claim page and the model-config page at both widths are
left in `docs/_build/screenshots/` for a reviewer to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._browser import CHROMIUM, WIDTHS, Browser, serve
from tests._docs_build import SCREENSHOTS, DocsBuild, build_docs

pytestmark = pytest.mark.browser

# Page → whether it has formulas (Sphinx loads MathJax only on pages with math): checked in the sweep below, which
# also checks that every page that loads MathJax rendered its formulas without an error.
PAGES = {
    "index.html": True,
    "generated/ledger.html": True,  # claim titles with formulas
    "generated/errata.html": True,
    "generated/claims/ROPE-DECAY-TO-ZERO.html": True,
    "generated/claims/ROPE-RELATIVE-MATRIX.html": True,
    "generated/claims/SPE-SHIFT-ROTATION-004.html": True,
    "generated/claims/ATT-SOFTMAX-PERMUTATION.html": True,
    "audit-guide.html": True,
    "generated/conformance.html": False,
    "generated/api.html": False,
}
SCREENSHOT_PAGES = (
    "generated/ledger.html",
    "generated/conformance.html",
    "generated/claims/ROPE-DECAY-TO-ZERO.html",
    "config-conformance.html",
)


@pytest.fixture(scope="module")
def site() -> DocsBuild:
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH (apt-get install chromium)")
    pytest.importorskip("playwright", reason="pip install playwright (the test extras)")
    built = build_docs()
    if built.returncode != 0:
        pytest.fail(f"the docs build failed (exit {built.returncode}):\n{built.output[-6000:]}")
    return built


@pytest.fixture(scope="module")
def server(site: DocsBuild) -> Iterator[str]:
    with serve(site.html) as url:
        yield url


def _all_pages(site: DocsBuild) -> list[str]:
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    return sorted(
        str(path.relative_to(site.html)) for path in site.html.rglob("*.html")
        if path.name not in skip and "_static" not in path.parts and "_sources" not in path.parts
    )


# The site's pages in a few interleaved shares, so that `pytest -n 2` spreads them over both cores.
SHARES = 6
# The 77 claim pages share one template: the default tier probes every other page, the claim pages `PAGES` names and
# those most likely to break the layout (the longest unbreakable word, the longest display formula: the two widest by
# each measure, each page ~1.3 CPU-s, most of it loading; the next ones are narrower by that measure); `--deep` probes
# every page (issue 36: the suite's CPU-seconds).
_WIDEST_CLAIM_PAGES = 2


def _text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.DOTALL))


def _claim_page_widths(site: DocsBuild, page: str) -> tuple[int, int]:
    """(longest unbreakable word, longest display formula) of a built page, in characters."""
    html = (site.html / page).read_text(encoding="utf-8")
    words = max((len(word) for word in _text_of(html).split()), default=0)
    formulas = re.findall(r'<div class="math[^"]*">(.*?)</div>', html, flags=re.DOTALL)
    return words, max((len(formula) for formula in formulas), default=0)


def _pages_to_probe(site: DocsBuild, deep: bool) -> list[str]:
    pages = _all_pages(site)
    claims = [page for page in pages if page.startswith("generated/claims/")]
    if deep or not claims:
        return pages
    widths = {page: _claim_page_widths(site, page) for page in claims}
    chosen = {page for page in claims if page in PAGES or page in SCREENSHOT_PAGES}
    for measure in (0, 1):
        chosen |= set(sorted(claims, key=lambda page: (-widths[page][measure], page))[:_WIDEST_CLAIM_PAGES])
    return [page for page in pages if page not in claims or page in chosen]


@pytest.mark.parametrize("share", range(SHARES), ids=[f"share-{n + 1}-of-{SHARES}" for n in range(SHARES)])
def test_every_page_fits_its_width_without_raw_markup(share: int, site: DocsBuild, server: str,
                                                      browser: Browser, request: pytest.FixtureRequest) -> None:
    problems = []
    for page in _pages_to_probe(site, request.config.getoption("--deep"))[share::SHARES]:
        shots = {width: SCREENSHOTS / f"{Path(page).stem}-{width}.png" for width in WIDTHS.values()}
        visit = browser.visit(server + page, widths=WIDTHS.values(), screenshots=shots if page in SCREENSHOT_PAGES
                              else None)
        if visit.outside:
            problems.append(f"{page}: requests off the machine: {visit.outside[:3]}")
        if visit.errors:
            problems.append(f"{page}: {visit.errors[:3]}")
        problems += [f"{page}: {problem}" for problem in _math_problems(page, visit.reports[WIDTHS["desktop-1280"]])]
        problems += [f"{page} at {width}px: {problem}" for width in WIDTHS.values()
                     for problem in visit.layout_problems(width)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def _math_problems(page: str, report: dict) -> list[str]:
    """MathJax loaded where the page has formulas (`PAGES` says which must and must not), rendered every formula
    it loaded for, and reported no error."""
    problems = []
    if page in PAGES and report["mathjax"] != PAGES[page]:
        problems.append(f"MathJax {'did not load' if PAGES[page] else 'loaded on a page without formulas'}")
    if report["mathjax"] and report["rendered"] == 0:
        problems.append("MathJax loaded but no formula was rendered")
    if report["math_errors"]:
        problems.append(f"MathJax could not typeset: {report['math_errors']}")
    return problems


def test_the_pages_expected_with_and_without_formulas_exist(site: DocsBuild) -> None:
    """`PAGES` names real pages, so the sweep's check of where MathJax loads is not vacuous."""
    assert set(PAGES) <= set(_all_pages(site)), set(PAGES) - set(_all_pages(site))


@pytest.mark.parametrize(
    ("page", "report", "expected"),
    [
        ("index.html", {"mathjax": False, "rendered": 0, "math_errors": []}, "MathJax did not load"),
        ("generated/api.html", {"mathjax": True, "rendered": 3, "math_errors": []}, "loaded on a page without"),
        ("other.html", {"mathjax": True, "rendered": 0, "math_errors": []}, "no formula was rendered"),
        ("other.html", {"mathjax": True, "rendered": 2, "math_errors": ["Undefined control sequence"]}, "typeset"),
    ],
)
def test_the_math_checks_fail_on_a_page_that_did_not_render(page: str, report: dict, expected: str) -> None:
    assert any(expected in problem for problem in _math_problems(page, report))
    assert _math_problems(page, {**report, "mathjax": PAGES.get(page, True), "rendered": 1, "math_errors": []}) == []
