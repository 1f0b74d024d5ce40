"""The layout probe of the docs browser test fails on layout: each check is seen failing on a page broken on
purpose (a 30 px column, a word broken mid-word, a block wider than the viewport, text cut off by
`overflow: hidden`), and the same page built correctly passes — at both widths the docs are checked at."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests._browser import CHROMIUM, WIDTHS, Browser

pytestmark = pytest.mark.browser

TABLE_WORDS = "positional encodings transformers rotation"
GOOD = f"""<html><body><div class="bd-main" style="font: 16px sans-serif">
<p>A paragraph of ordinary words that wraps between words only.</p>
<div style="overflow-x: auto"><table><tr><th>target</th><th>kind</th></tr>
<tr><td>{TABLE_WORDS}</td><td>rope</td></tr></table></div>
<div style="overflow-x: auto"><pre>{"x" * 400}</pre></div>
</div></body></html>"""
BROKEN = {
    # The conformance table as it was: a column 31 px wide that wraps "transformers" letter by letter.
    "narrow": GOOD.replace("<td>rope</td>", '<td style="width: 30px; max-width: 30px; overflow-wrap: anywhere">'
                           "transformers</td>"),
    "broken": GOOD.replace("<p>A paragraph", '<p style="width: 60px; word-break: break-all">A paragraph'),
    "overflow": GOOD.replace("<p>A paragraph", '<p style="width: 2000px">A paragraph'),
    "clipped": GOOD.replace("<p>A paragraph", '<p style="width: 200px; overflow: hidden; white-space: nowrap">'
                            "A paragraph"),
    # The theme's article frame scrolls as a whole; a line running off the page inside it is still an overflow.
    "overflow-in-frame": GOOD.replace("<p>A paragraph", '<div class="bd-article-container" style="overflow-x: auto">'
                                      '<p style="width: 2000px">A paragraph').replace("</div></body>",
                                                                                       "</div></div></body>"),
    # The page's contents column with a name that does not wrap: it ran under the column's edge.
    "clipped-column": GOOD.replace("</div></body>", '</div><div class="bd-sidebar-secondary" style="width: 150px; '
                                   'overflow-y: auto"><code style="white-space: nowrap">'
                                   "rotary-embedding-torch.linear (rotary-embedding-torch 0.9.1)</code></div></body>"),
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH (apt-get install chromium)")
    pytest.importorskip("playwright", reason="pip install playwright (the test extras)")
    opened = Browser()
    try:
        yield opened
    finally:
        opened.close()


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_layout_probe_passes_a_page_that_reads_well(browser: Browser, width: int) -> None:
    visit = browser.visit("about:blank", width=width, html=GOOD)
    assert visit.layout_problems() == [], visit.report


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
@pytest.mark.parametrize("defect", BROKEN)
def test_layout_probe_fails_on_a_broken_page(browser: Browser, defect: str, width: int) -> None:
    visit = browser.visit("about:blank", width=width, html=BROKEN[defect])
    check = defect.split("-")[0]
    assert visit.report[check], f"the probe missed a deliberately {defect} page: {visit.report}"
    assert visit.layout_problems(), "a broken page must read as broken"


def test_visit_records_requests_off_the_machine(browser: Browser) -> None:
    page = GOOD.replace("</body>", '<img src="https://example.com/tracker.png"></body>')
    visit = browser.visit("about:blank", html=page)
    assert visit.outside == ["https://example.com/tracker.png"]
