"""A real browser for the docs tests: Playwright driving Debian's `chromium` (no browser download), offline.

Every page is opened in a context that aborts any request to a host other than loopback (and records it), with
console errors, page exceptions and failed requests collected per visit. Every visit navigates one tab, as a reader
goes from page to page (a new tab per page cost 2.3 times the CPU for the same reports on every page of the docs). A
visit loads the page once and probes it at each width in turn (1280 px, then a 390 px phone), switching the loaded
page's device in between: loading — MathJax typesetting the formulas — is most of the cost, and a switch gives the
same reports as a fresh load at that width (`Browser.visit`). The layout probe (`LAYOUT_PROBE`) reports
what a reader would see as broken, and each of its checks is seen failing on a deliberately broken page in
`test_browser_layout_checks.py`:

- **overflow**: an element that sticks out of the viewport without a scrolling ancestor (a scroll box is fine:
  wide math and tables scroll inside their own box), or the page itself wider than the viewport;
- **clipped**: an element whose content is cut off by its own `overflow: hidden`/`clip` (text lost for good), or a
  side column (contents, navigation) wider than itself — it scrolls only vertically;
- **broken words**: a run of letters and digits laid out over two lines (broken mid-word: "tr/a/n/sf/or/m/er/s");
- **narrow columns**: a table cell narrower than the longest word it holds;
- **raw markup**: Markdown/MyST syntax left in the visible text;
- **empty side column**: a navigation or contents column shown with nothing in it;
- **table scrolls at desktop width** (1000 px and wider): a table whose box must be scrolled sideways to see every
  column (on a phone a table may scroll inside its own box).
An **overflow** is also a word whose line runs past the right edge while its box fits (a long name in a paragraph).

Time budget: no check here waits on wall time in a way a slow machine can fail. Playwright's waits (navigation,
MathJax's first typeset) get `BUDGET_MS` = 5 minutes each — the slowest page of the docs takes about 1.5 s on an idle
machine (2026-11-27) — so only a hung browser trips them.
"""

from __future__ import annotations

import base64
import functools
import http.server
import shutil
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
BUDGET_MS = 300_000
WIDTHS = {"desktop-1280": 1280, "phone-390": 390}
PHONE = 600  # narrower than this, a page is shown as on a phone
HEIGHT = 900

# Waits for MathJax's first typeset (on pages that load it) and for the layout to settle (two animation frames: after a
# width switch the resize events and ResizeObserver callbacks have run), then measures the page as laid out.
#
# Its cost grows with the page, and the largest formulas are a quarter of a million elements: every computed style is
# read once (`style`), the nearest scroll box is looked up only for an element past the right edge and remembered for
# each ancestor on the way (`scrollerFrom`), the subtrees that no check reads (hidden from the reader, MathJax's copy
# for screen readers; for the text checks also code, math and the contents column) are never entered, and the raw
# markup check reads the article's text without copying it.
LAYOUT_PROBE = """
async () => {
  const loads = document.querySelector('script[src*="mathjax"]') !== null;
  while (loads && !(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
    await new Promise(r => setTimeout(r, 50));
  }
  if (loads) await MathJax.startup.promise;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const width = document.documentElement.clientWidth;
  const root = document.querySelector('.bd-main') || document.body;
  // The theme's page frame (article, main, content) scrolls as a whole: it is no scroll box for a line of text.
  const frame = '.bd-article-container, .bd-article, .bd-main, .bd-content, .bd-container, .bd-page-width';
  const styles = new Map();
  const style = el => {
    let s = styles.get(el);
    if (s === undefined) { s = getComputedStyle(el); styles.set(el, s); }
    return s;
  };
  // The nearest ancestor-or-self of `a` below <body> that scrolls sideways (the frame aside), or null.
  const scrollers = new Map();
  const scrollerFrom = a => {
    const path = [];
    let found = null;
    for (; a && a !== document.body; a = a.parentElement) {
      if (scrollers.has(a)) { found = scrollers.get(a); break; }
      path.push(a);
      if (['auto', 'scroll'].includes(style(a).overflowX) && !a.matches(frame)) { found = a; break; }
    }
    for (const p of path) scrollers.set(p, found);
    return found;
  };
  const hidden = '[aria-hidden="true"], .visually-hidden, .sr-only';
  const visible = el => {
    const s = style(el);
    return s.visibility !== 'hidden' && s.display !== 'none' && !el.closest(hidden);
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const snippet = el => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  // The text nodes under `top` in document order, never entering an element below it that matches `skip`.
  const texts = function* (top, skip) {
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, n =>
      n.nodeType === Node.TEXT_NODE ? NodeFilter.FILTER_ACCEPT
        : n.matches(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) yield node;
  };
  const overflow = [], clipped = [];
  // Hidden from the reader, or MathJax's copy for screen readers (clipped on purpose): never measured.
  const unread = hidden + ', mjx-assistive-mml';
  for (const el of root.querySelectorAll(`*:not(${unread}, :is(${unread}) *)`)) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0) continue;
    const s = style(el);
    if (s.visibility === 'hidden' || s.display === 'none') continue;
    if (r.right > width + 1 && !scrollerFrom(el.parentElement)) {
      overflow.push(name(el) + ' right=' + Math.round(r.right) + ' "' + snippet(el) + '"');
    }
    if (['hidden', 'clip'].includes(s.overflowX) && el.scrollWidth > el.clientWidth + 1 && snippet(el)) {
      clipped.push(name(el) + ' shows ' + el.clientWidth + ' of ' + el.scrollWidth + 'px "' + snippet(el) + '"');
    }
  }
  // The side columns scroll vertically; nobody scrolls them sideways, so anything wider than one is cut off.
  for (const column of document.querySelectorAll('.bd-sidebar-primary, .bd-sidebar-secondary')) {
    if (visible(column) && column.clientWidth > 0 && column.scrollWidth > column.clientWidth + 1) {
      clipped.push(name(column) + ' shows ' + column.clientWidth + ' of ' + column.scrollWidth + 'px');
    }
  }
  // Words: runs of letters and digits. A browser breaks inside one only when told to break words
  // (overflow-wrap / word-break); between punctuation (")(", "-", "/", "…") it may break on its own.
  const broken = [], narrow = [];
  const canvas = document.createElement('canvas').getContext('2d');
  let fontOf = null;  // the element whose font the canvas was last given
  const cellWords = new Map();
  const seen = new Map();  // element → whether its text is visible
  const range = document.createRange();
  const skipText = 'script, style, pre, mjx-container, mjx-assistive-mml, .visually-hidden, .bd-sidebar-secondary';
  for (const node of root.closest(skipText) ? [] : texts(root, skipText)) {
    const parent = node.parentElement;
    // Identifiers (inline code, API signatures) and the contents column wrap at the edge on purpose
    // (ropecheck.css) rather than run off the page; prose words never do. Their overflow still counts.
    if (!parent || (parent.closest('code, dt.sig') && !parent.closest('td, th'))) continue;
    if (!seen.has(parent)) seen.set(parent, visible(parent));
    if (!seen.get(parent)) continue;
    const cell = parent.closest('td, th');
    if (fontOf !== parent) { canvas.font = style(parent).font; fontOf = parent; }
    for (const m of node.data.matchAll(/[\\p{L}\\p{N}_]+/gu)) {
      if (m[0].length < 2) continue;
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      // Pieces of one line can differ in top by a few px (fallback fonts); a new line starts below the first.
      const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
      const first = rects.reduce((a, r) => (!a || r.top < a.top ? r : a), null);
      const split = first && rects.some(r => r.top >= first.bottom - 2);
      if (split) broken.push('"' + m[0] + '" in ' + name(parent));
      // A word past the right edge of its line's box: the box itself fits, its text does not (a long name in a
      // paragraph on a phone), and nothing scrolls it into view.
      if (rects.some(r => r.right > width + 1) && !scrollerFrom(parent)) {
        overflow.push('text "' + m[0].slice(0, 40) + '" in ' + name(parent) + ' runs past the right edge');
      }
      if (cell) {
        const w = split ? canvas.measureText(m[0]).width : range.getBoundingClientRect().width;
        const best = cellWords.get(cell);
        if (!best || w > best[1]) cellWords.set(cell, [m[0], w]);
      }
    }
  }
  for (const [cell, [word, w]] of cellWords) {
    const s = style(cell);
    const inner = cell.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    if (inner + 1 < w) {
      narrow.push(name(cell) + ' is ' + Math.round(inner) + 'px, "' + word + '" needs ' + Math.round(w) + 'px');
    }
  }
  // A side column that is shown but holds nothing (the theme's empty "Section Navigation": 300 px of nothing).
  const empty = Array.from(document.querySelectorAll('.bd-sidebar-primary, .bd-sidebar-secondary'))
    .filter(c => visible(c) && c.getBoundingClientRect().width > 0 && !(c.innerText || '').trim().replace(
      /^(Collapse Sidebar|Section Navigation|On this page|\\s)+$/, ''))
    .map(c => name(c) + ' is ' + Math.round(c.getBoundingClientRect().width) + 'px of nothing');
  // On a desktop every column of a table is in view: a table that needs its box scrolled sideways hides the
  // columns that explain a row (the conformance table's failing properties). On a phone it may scroll.
  const scrolls = width < 1000 ? [] : Array.from(document.querySelectorAll('table'))
    .filter(visible).map(table => [table, scrollerFrom(table)])
    .filter(([table, box]) => box && box.scrollWidth > box.clientWidth + 1)
    .map(([table, box]) => 'table "' + snippet(table.querySelector('tr') || table).slice(0, 40) + '" shows ' +
      box.clientWidth + ' of ' + box.scrollWidth + 'px');
  // The article's text as a reader reads it, without code and math (where these tokens are at home).
  const article = document.querySelector('.bd-article') || document.body;
  const text = Array.from(texts(article, 'code, pre, mjx-container, .math'), node => node.data).join('');
  const raw = ['{claim}', '{doc}', '](', '$$', ':::', '```', '\\\\(', '\\\\)'].filter(d => text.includes(d));
  return {
    width: width, page_width: document.documentElement.scrollWidth, overflow: overflow.slice(0, 8),
    clipped: clipped.slice(0, 8), broken: broken.slice(0, 8), narrow: narrow.slice(0, 8), raw: raw,
    empty: empty, scrolls: scrolls.slice(0, 8),
    mathjax: loads, rendered: document.querySelectorAll('mjx-container').length,
    math_errors: Array.from(document.querySelectorAll('mjx-merror'))
      .map(e => e.getAttribute('data-mjx-error') || e.textContent).slice(0, 5),
  };
}
"""


@dataclass
class Visit:
    """What one page showed: the probe's report at each width it was looked at (in that order), console/page
    errors, and requests that tried to leave (both over the whole visit, all widths)."""

    reports: dict[int, dict[str, Any]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    @property
    def report(self) -> dict[str, Any]:
        """The report at the first width the page was looked at."""
        return next(iter(self.reports.values()))

    def layout_problems(self, width: int | None = None) -> list[str]:
        """Each layout failure the probe found at `width` (default: the first), in words (empty when it reads well)."""
        r, out = self.report if width is None else self.reports[width], []
        if r["page_width"] > r["width"] + 1:
            out.append(f"page is {r['page_width']}px wide in a {r['width']}px viewport")
        for key, words in (
            ("overflow", "sticks out without a scroll box"),
            ("clipped", "cut off"),
            ("broken", "word broken mid-word"),
            ("narrow", "column narrower than its longest word"),
            ("empty", "empty side column"),
            ("scrolls", "table scrolls sideways at desktop width"),
        ):
            out += [f"{words}: {item}" for item in r[key]]
        out += [f"raw markup in the text: {token}" for token in r["raw"]]
        return out


def _loopback(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or parts.hostname in LOOPBACK


def _metrics(width: int) -> dict[str, Any]:
    """The device a page is shown on at `width`: what Playwright sends for a context of that viewport, with
    `is_mobile` (meta viewport honoured, portrait screen) below `PHONE` px."""
    mobile = width < PHONE
    return {
        "width": width, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": mobile, "screenWidth": width,
        "screenHeight": HEIGHT, "screenOrientation": {"angle": 0, "type": "portraitPrimary" if mobile else
                                                      "landscapePrimary"},
    }


class Browser:
    """One headless Chromium (Playwright) for a test session; `visit` opens a page and probes it at each width."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._manager = sync_playwright()
        self._playwright = self._manager.start()
        self._browser = self._playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
            timeout=BUDGET_MS,
        )
        # One context for the session: pages share its HTTP cache, so MathJax and the theme's scripts are fetched
        # and compiled once rather than once per page.
        self._context = self._browser.new_context(viewport={"width": 1280, "height": HEIGHT}, device_scale_factor=1)
        self._context.set_default_timeout(BUDGET_MS)
        # One tab for every visit, as a reader goes from page to page: a new tab per page cost 2.3x the CPU (a new
        # renderer process each time, its scripts set up again) for the same reports (`visit`).
        self._page: Any = None
        self._cdp: Any = None
        self._visit = Visit()

    def _tab(self) -> tuple[Any, Any]:
        """The session's tab and its DevTools session, opened on first use (again after a visit that failed: a
        tab that timed out or crashed is closed); its events are recorded in the current visit."""
        if self._page is None or self._page.is_closed():
            page = self._context.new_page()

            def request(r: Any) -> None:
                if not _loopback(r.url) and r.url not in self._visit.outside:  # a blocked image may be asked twice
                    self._visit.outside.append(r.url)

            def console(m: Any) -> None:
                if m.type in ("error", "assert"):
                    self._visit.errors.append(f"console: {m.text}")

            def failed(r: Any) -> None:
                if _loopback(r.url):
                    self._visit.errors.append(f"network: {r.failure} {r.url}")

            page.on("request", request)
            page.on("console", console)
            page.on("pageerror", lambda e: self._visit.errors.append(f"exception: {e}"))
            page.on("requestfailed", failed)
            self._page, self._cdp = page, self._context.new_cdp_session(page)
        return self._page, self._cdp

    @staticmethod
    def _show_at(cdp: Any, width: int) -> None:
        """Show the page of `cdp` on the device of `width` (`_metrics`), phone mode included: the DevTools command a
        context created for that width sends. Playwright is not told: its own resize would first lay the page out
        once more, as a desktop."""
        cdp.send("Emulation.setDeviceMetricsOverride", _metrics(width))

    def visit(
        self,
        url: str,
        widths: Iterable[int] = (1280,),
        screenshots: Mapping[int, Path] | None = None,
        html: str | None = None,
    ) -> Visit:
        """Open `url` (or serve `html` as its content) at the first of `widths` and probe it; then switch the loaded
        page to each further width and probe it again; save a screenshot at each width named in `screenshots`.

        A switch gives the same layout and the same reports as a fresh load at that width, phone mode included:
        the theme lays out by CSS alone, and MathJax 3's CHTML output does not depend on the width. Every page of the
        docs was compared both ways, in both orders: the one difference is the vertical scroll position of the
        navigation column, which keeps the one it had at the first width (no check reads it). The docs go from the
        desktop to the phone, where that column is a hidden drawer, so their screenshots show it as a fresh load.

        Every request that leaves the machine is recorded in `outside` (the browser cannot reach it anyway: its host
        resolver maps every name but 127.0.0.1 to nothing); errors in the console, exceptions and failed loopback
        requests are recorded in `errors`.
        """
        visit = self._visit = Visit()
        page, cdp = self._tab()
        try:
            for n, width in enumerate(widths):
                self._show_at(cdp, width)
                if n == 0 and html is not None:
                    page.goto("about:blank")  # the document `html` replaces, as in a new tab
                    page.set_content(html, wait_until="load")
                elif n == 0:
                    page.goto(url, wait_until="load")
                visit.reports[width] = page.evaluate(LAYOUT_PROBE)
                shot = (screenshots or {}).get(width)
                if shot is not None:
                    shot.parent.mkdir(parents=True, exist_ok=True)
                    # The first screenful, as a reader opens it. DevTools takes it: Playwright's own screenshot would
                    # show the page laid out at the width Playwright last set.
                    shot.write_bytes(base64.b64decode(cdp.send("Page.captureScreenshot", {"format": "png"})["data"]))
        except BaseException:
            page.close()  # the next visit starts in a fresh tab, not in one left mid-load
            raise
        finally:
            self._visit = Visit()  # events after the visit (the page is left as it is) belong to no visit
        return visit

    def close(self) -> None:
        self._browser.close()
        self._manager.__exit__(None, None, None)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve `directory` on a loopback port; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
