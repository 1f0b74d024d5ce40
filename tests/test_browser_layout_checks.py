"""The layout probe of the docs browser test fails on layout: each check is seen failing on a page broken on
purpose (a 30 px column, a word broken mid-word, a block wider than the viewport, text cut off by
`overflow: hidden`), and the same page built correctly passes — at both widths the docs are checked at, the way they
are checked: loaded at 1280 px, probed, switched to a 390 px phone and probed again (`Browser.visit`). A fault at one
width only is seen at that width alone, in either order, so the switch lays the page out anew; and the phone is
a phone (its meta viewport is honoured, as by the docs' pages)."""

from __future__ import annotations

import pytest

from tests._browser import WIDTHS, Browser

pytestmark = pytest.mark.browser

TABLE_WORDS = "positional encodings transformers rotation"
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'  # as on every page of the docs
GOOD = f"""<html><head>{VIEWPORT}</head><body><div class="bd-main" style="font: 16px sans-serif">
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
    # Issue 36: a long Coq name in a paragraph ran off a phone's edge while its paragraph fit.
    "overflow-text": GOOD.replace("<p>A paragraph", "<p>kernel-checked Ropecheck.StatementsDecay." + "x" * 200
                                  + " A paragraph"),
    # Issue 36: the theme's "Section Navigation" column, shown and empty.
    "empty-column": GOOD.replace("</div></body>", '</div><div class="bd-sidebar-primary" style="width: 300px; '
                                 'height: 100px"><p>Section Navigation</p></div></body>'),
}
# Issue 36: at 1280 px the conformance table scrolled inside its box; every column must be in view on a desktop.
WIDE_TABLE = GOOD.replace("<table>", '<table style="width: 1600px">')
# Faults at one width only: a block too wide for a phone; a rule for wide screens that runs off them.
ONE_WIDTH = {
    "phone-390": GOOD.replace("<p>A paragraph", '<p style="min-width: 600px">A paragraph'),
    "desktop-1280": GOOD.replace("</head>", "<style>@media (min-width: 1000px) { p { width: 1500px } }</style></head>"),
}
ORDERS = {"desktop-then-phone": tuple(WIDTHS.values()), "phone-then-desktop": tuple(reversed(WIDTHS.values()))}


def test_layout_probe_passes_a_page_that_reads_well(browser: Browser) -> None:
    visit = browser.visit("about:blank", widths=WIDTHS.values(), html=GOOD)
    for width in WIDTHS.values():
        assert visit.reports[width]["width"] == width, visit.reports  # laid out at that width
        assert visit.layout_problems(width) == [], visit.reports[width]


@pytest.mark.parametrize("defect", BROKEN)
def test_layout_probe_fails_on_a_broken_page(browser: Browser, defect: str) -> None:
    visit = browser.visit("about:blank", widths=WIDTHS.values(), html=BROKEN[defect])
    check = {"empty-column": "empty"}.get(defect, defect.split("-")[0])
    for width in WIDTHS.values():
        report = visit.reports[width]
        assert report["width"] == width, report
        assert report[check], f"the probe missed a deliberately {defect} page at {width}px: {report}"
        assert visit.layout_problems(width), f"a broken page must read as broken at {width}px"


@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
@pytest.mark.parametrize("bad", ONE_WIDTH)
def test_layout_probe_sees_a_fault_at_its_width_only(browser: Browser, bad: str, order: tuple[int, ...]) -> None:
    visit = browser.visit("about:blank", widths=order, html=ONE_WIDTH[bad])
    for name, width in WIDTHS.items():
        problems = visit.layout_problems(width)
        assert bool(problems) == (name == bad), f"at {width}px (order {order}): {problems or visit.reports[width]}"


def test_phone_ignores_width_of_a_page_without_meta_viewport(browser: Browser) -> None:
    """Without a meta viewport a phone lays a page out 980 px wide: the phone width is shown as on a phone, also
    after a switch from the desktop."""
    page = GOOD.replace(VIEWPORT, "")
    for order in ORDERS.values():
        visit = browser.visit("about:blank", widths=order, html=page)
        assert visit.reports[WIDTHS["phone-390"]]["width"] == 980, visit.reports
        assert visit.reports[WIDTHS["desktop-1280"]]["width"] == 1280, visit.reports


def test_visit_records_requests_off_the_machine(browser: Browser) -> None:
    page = GOOD.replace("</body>", '<img src="https://example.com/tracker.png"></body>')
    visit = browser.visit("about:blank", html=page)
    assert visit.outside == ["https://example.com/tracker.png"]


def test_each_visit_records_its_own_errors(browser: Browser) -> None:
    """Console errors and exceptions are recorded on the visit that caused them, and not on the next visit in the
    same tab (every visit reuses one tab)."""
    page = GOOD.replace("</body>", "<script>console.error('boom'); throw new Error('bang');</script></body>")
    visit = browser.visit("about:blank", html=page)
    assert any("boom" in error for error in visit.errors) and any("bang" in error for error in visit.errors), visit
    assert browser.visit("about:blank", html=GOOD).errors == []


def test_a_failed_visit_leaves_the_next_one_a_fresh_tab(browser: Browser) -> None:
    """A visit that fails (here: a page that cannot be reached) closes its tab; the next visit opens a new one and
    is probed as usual."""
    browser.visit("about:blank", html=GOOD)
    failed_tab = browser._page
    with pytest.raises(Exception, match="ERR_"):
        browser.visit("http://127.0.0.1:9/unreachable")
    assert failed_tab.is_closed()
    visit = browser.visit("about:blank", widths=WIDTHS.values(), html=GOOD)
    assert all(visit.layout_problems(width) == [] for width in WIDTHS.values()), visit.reports


def test_a_table_may_scroll_on_a_phone_but_not_on_a_desktop(browser: Browser) -> None:
    visit = browser.visit("about:blank", widths=WIDTHS.values(), html=WIDE_TABLE)
    assert visit.reports[WIDTHS["desktop-1280"]]["scrolls"], visit.reports
    assert visit.layout_problems(WIDTHS["phone-390"]) == [], visit.reports
