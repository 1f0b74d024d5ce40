"""A real browser for the docs tests: Playwright driving Debian's `chromium` (no browser download), offline.

Every page is opened in a context that aborts any request to a host other than loopback (and records it), with
console errors, page exceptions and failed requests collected per visit. The layout probe (`LAYOUT_PROBE`) reports
what a reader would see as broken, and each of its checks is seen failing on a deliberately broken page in
`test_browser_layout_checks.py`:

- **overflow**: an element that sticks out of the viewport without a scrolling ancestor (a scroll box is fine:
  wide math and tables scroll inside their own box), or the page itself wider than the viewport;
- **clipped**: an element whose content is cut off by its own `overflow: hidden`/`clip` (text lost for good), or a
  side column (contents, navigation) wider than itself — it scrolls only vertically;
- **broken words**: a run of letters and digits laid out over two lines (broken mid-word: "tr/a/n/sf/or/m/er/s");
- **narrow columns**: a table cell narrower than the longest word it holds;
- **raw markup**: Markdown/MyST syntax left in the visible text.

Time budget: no check here waits on wall time in a way a slow machine can fail. Playwright's waits (navigation,
MathJax's first typeset) get `BUDGET_MS` = 5 minutes each — a hundred times what they take on an idle machine —
so only a hung browser trips them.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
BUDGET_MS = 300_000
WIDTHS = {"desktop-1280": 1280, "phone-390": 390}

# Waits for MathJax's first typeset (on pages that load it), then measures the page as laid out.
LAYOUT_PROBE = """
async () => {
  const loads = document.querySelector('script[src*="mathjax"]') !== null;
  while (loads && !(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
    await new Promise(r => setTimeout(r, 50));
  }
  if (loads) await MathJax.startup.promise;
  const width = document.documentElement.clientWidth;
  const root = document.querySelector('.bd-main') || document.body;
  // The theme's page frame (article, main, content) scrolls as a whole: it is no scroll box for a line of text.
  const frame = '.bd-article-container, .bd-article, .bd-main, .bd-content, .bd-container, .bd-page-width';
  const ancestor = (el, kinds) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (kinds.includes(getComputedStyle(a).overflowX) && !a.matches(frame)) return a;
    }
    return null;
  };
  const visible = el => {
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none' &&
      !el.closest('[aria-hidden="true"], .visually-hidden, .sr-only');
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const snippet = el => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 60);
  const overflow = [], clipped = [];
  for (const el of root.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || !visible(el)) continue;
    if (el.closest('mjx-assistive-mml')) continue;  // MathJax's copy for screen readers, clipped on purpose
    const scroller = ancestor(el, ['auto', 'scroll']);
    if (r.right > width + 1 && !scroller) {
      overflow.push(name(el) + ' right=' + Math.round(r.right) + ' "' + snippet(el) + '"');
    }
    const s = getComputedStyle(el);
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
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const broken = [], narrow = [];
  const canvas = document.createElement('canvas').getContext('2d');
  const cellWords = new Map();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    // Identifiers (inline code, API signatures) and the contents column wrap at the edge on purpose
    // (ropecheck.css) rather than run off the page; prose words never do. Their overflow still counts.
    const wraps = parent && parent.closest('code, dt.sig') && !parent.closest('td, th');
    if (!parent || wraps || parent.closest('script, style, pre, mjx-container, mjx-assistive-mml, ' +
                                           '.visually-hidden, .bd-sidebar-secondary')) continue;
    if (!visible(parent)) continue;
    const cell = parent.closest('td, th');
    canvas.font = getComputedStyle(parent).font;
    for (const m of node.data.matchAll(/[\\p{L}\\p{N}_]+/gu)) {
      if (m[0].length < 2) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      // Pieces of one line can differ in top by a few px (fallback fonts); a new line starts below the first.
      const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
      const first = rects.reduce((a, r) => (!a || r.top < a.top ? r : a), null);
      const split = first && rects.some(r => r.top >= first.bottom - 2);
      if (split) broken.push('"' + m[0] + '" in ' + name(parent));
      if (cell) {
        const w = split ? canvas.measureText(m[0]).width : range.getBoundingClientRect().width;
        const best = cellWords.get(cell);
        if (!best || w > best[1]) cellWords.set(cell, [m[0], w]);
      }
    }
  }
  for (const [cell, [word, w]] of cellWords) {
    const s = getComputedStyle(cell);
    const inner = cell.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    if (inner + 1 < w) {
      narrow.push(name(cell) + ' is ' + Math.round(inner) + 'px, "' + word + '" needs ' + Math.round(w) + 'px');
    }
  }
  const article = document.querySelector('.bd-article') || document.body;
  const copy = article.cloneNode(true);
  copy.querySelectorAll('code, pre, mjx-container, .math').forEach(e => e.remove());
  const text = copy.textContent;
  const raw = ['{claim}', '{doc}', '](', '$$', ':::', '```', '\\\\(', '\\\\)'].filter(d => text.includes(d));
  return {
    width: width, page_width: document.documentElement.scrollWidth, overflow: overflow.slice(0, 8),
    clipped: clipped.slice(0, 8), broken: broken.slice(0, 8), narrow: narrow.slice(0, 8), raw: raw,
    mathjax: loads, rendered: document.querySelectorAll('mjx-container').length,
    math_errors: Array.from(document.querySelectorAll('mjx-merror'))
      .map(e => e.getAttribute('data-mjx-error') || e.textContent).slice(0, 5),
  };
}
"""


@dataclass
class Visit:
    """What one page showed: the probe's report, console/page errors, and requests that tried to leave."""

    report: dict[str, Any]
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def layout_problems(self) -> list[str]:
        """Each layout failure the probe found, in words (empty when the page reads well)."""
        r, out = self.report, []
        if r["page_width"] > r["width"] + 1:
            out.append(f"page is {r['page_width']}px wide in a {r['width']}px viewport")
        for key, words in (
            ("overflow", "sticks out without a scroll box"),
            ("clipped", "cut off"),
            ("broken", "word broken mid-word"),
            ("narrow", "column narrower than its longest word"),
        ):
            out += [f"{words}: {item}" for item in r[key]]
        out += [f"raw markup in the text: {token}" for token in r["raw"]]
        return out


def _loopback(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or parts.hostname in LOOPBACK


class Browser:
    """One headless Chromium (Playwright) for a test session; `visit` opens a page at a width."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        self._manager = sync_playwright()
        self._playwright = self._manager.start()
        self._browser = self._playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
            timeout=BUDGET_MS,
        )
        self._contexts: dict[int, Any] = {}

    def _context(self, width: int) -> Any:
        """One browser context per width, kept for the session: pages share its HTTP cache, so MathJax and the
        theme's scripts are fetched and compiled once per width rather than once per page."""
        if width not in self._contexts:
            context = self._browser.new_context(
                viewport={"width": width, "height": 900}, is_mobile=width < 600, device_scale_factor=1
            )
            context.set_default_timeout(BUDGET_MS)
            self._contexts[width] = context
        return self._contexts[width]

    def visit(self, url: str, width: int = 1280, screenshot: Path | None = None, html: str | None = None) -> Visit:
        """Open `url` (or serve `html` as its content) `width` px wide; probe it; optionally save a screenshot.

        Every request that leaves the machine is recorded in `outside` (the browser cannot reach it anyway: its host
        resolver maps every name but 127.0.0.1 to nothing); errors in the console, exceptions and failed loopback
        requests are recorded in `errors`.
        """
        visit = Visit(report={})
        page = self._context(width).new_page()

        def request(r: Any) -> None:
            if not _loopback(r.url) and r.url not in visit.outside:  # a blocked image may be asked for twice
                visit.outside.append(r.url)

        page.on("request", request)
        page.on("console", lambda m: m.type in ("error", "assert") and visit.errors.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: visit.errors.append(f"exception: {e}"))
        page.on(
            "requestfailed",
            lambda r: None if not _loopback(r.url) else visit.errors.append(f"network: {r.failure} {r.url}"),
        )
        try:
            if html is not None:
                page.set_content(html, wait_until="load")
            else:
                page.goto(url, wait_until="load")
            visit.report = page.evaluate(LAYOUT_PROBE)
            if screenshot is not None:
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(screenshot))  # the first screenful, as a reader opens it
        finally:
            page.close()
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
