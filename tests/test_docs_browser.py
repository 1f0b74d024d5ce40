"""The built site as a reader sees it: headless Chromium opens pages from a loopback HTTP server, waits for MathJax,
and checks that math rendered, that nothing was logged as an error and that no request left the machine.

Chromium is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`, NUL-separated JSON on file
descriptors 3 and 4), so the test needs nothing beyond the standard library and Debian's `chromium`.
"""

from __future__ import annotations

import base64
import functools
import http.server
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests._docs_build import SCREENSHOTS, DocsBuild, build_docs

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
# Page → whether it has formulas (Sphinx loads MathJax only on pages with math).
PAGES = {
    "index.html": True,
    "generated/ledger.html": False,
    "generated/errata.html": True,
    "generated/claims/ROPE-DECAY-TO-ZERO.html": True,
    "generated/claims/ROPE-RELATIVE-MATRIX.html": True,
    "generated/claims/SPE-SHIFT-ROTATION-004.html": True,
    "generated/claims/ATT-SOFTMAX-PERMUTATION.html": True,
    "audit-guide.html": True,
    "generated/conformance.html": False,
    "generated/api.html": False,
}
SCREENSHOT_PAGE = "generated/claims/ROPE-DECAY-TO-ZERO.html"
# After MathJax typeset: elements that stick out of the viewport without a scrolling ancestor (a scroll box is
# fine: wide math and tables scroll inside their own box), and Markdown/MyST syntax left in the visible text.
LAYOUT_PROBE = """
(async () => {
  for (let i = 0; i < 200 && document.querySelector('script[src*="mathjax"]') &&
       !(window.MathJax && MathJax.startup && MathJax.startup.promise); i++) {
    await new Promise(r => setTimeout(r, 50));
  }
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const width = document.documentElement.clientWidth;
  const scrolls = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
    }
    return false;
  };
  const over = [];
  for (const el of document.querySelectorAll('.bd-main *')) {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1 && !scrolls(el)) {
      over.push(el.tagName.toLowerCase() + '.' + el.className + ' right=' + Math.round(r.right));
      if (over.length > 5) break;
    }
  }
  // Syntax shown on purpose (inline code, code blocks, formulas) is not raw markup.
  const article = document.querySelector('.bd-article');
  let text = '';
  if (article) {
    const copy = article.cloneNode(true);
    copy.querySelectorAll('code, pre, mjx-container, .math').forEach(e => e.remove());
    text = copy.textContent;
  }
  const raw = ['{claim}', '{doc}', '](', '$$', ':::', '```'].filter(d => text.includes(d));
  return {page_width: document.documentElement.scrollWidth, width: width, overflow: over, raw: raw};
})()
"""
# Waits for MathJax's first typeset, then reports what the reader would see.
PROBE = """
(async () => {
  const loads = document.querySelector('script[src*="mathjax"]') !== null;
  for (let i = 0; loads && i < 200 && !(window.MathJax && MathJax.startup && MathJax.startup.promise); i++) {
    await new Promise(r => setTimeout(r, 50));
  }
  const ready = !!(window.MathJax && MathJax.startup && MathJax.startup.promise);
  if (ready) await MathJax.startup.promise;
  const text = document.body.innerText;
  return {
    loads: loads,
    mathjax: ready,
    rendered: document.querySelectorAll('mjx-container').length,
    errors: Array.from(document.querySelectorAll('mjx-merror'))
      .map(e => e.getAttribute('data-mjx-error') || e.textContent),
    raw: ['$$', '\\\\(', '\\\\)', '\\\\['].filter(d => text.includes(d)),
  };
})()
"""


class DevTools:
    """A minimal DevTools-protocol client over Chromium's debugging pipe."""

    def __init__(self, user_data_dir: str) -> None:
        to_chrome_read, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_write = os.pipe()

        def wire_fds() -> None:  # the pipe protocol reads commands on fd 3 and writes replies on fd 4
            os.dup2(to_chrome_read, 3)
            os.dup2(from_chrome_write, 4)

        self.process = subprocess.Popen(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-default-apps",
                "--hide-scrollbars",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
                f"--user-data-dir={user_data_dir}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=wire_fds,
            close_fds=False,
        )
        os.close(to_chrome_read)
        os.close(from_chrome_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply from chromium")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the debugging pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None, timeout: float = 30.0
    ) -> dict[str, Any]:
        """Send a command and return its result, recording every event that arrives meanwhile."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        """Wait for an event (already recorded ones count)."""
        deadline = time.monotonic() + timeout
        for event in self.events:
            if event.get("method") == method:
                self.events.remove(event)
                return event
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method:
                return event
            self.events.append(event)

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=5)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self._to_chrome)
        os.close(self._from_chrome)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> DocsBuild:
    if CHROMIUM is None:
        pytest.skip("chromium is not on PATH (apt-get install chromium)")
    built = build_docs()
    if built.returncode != 0:
        pytest.fail(f"the docs build failed (exit {built.returncode}):\n{built.output[-6000:]}")
    return built


@pytest.fixture(scope="module")
def server(site: DocsBuild) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site.html))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[DevTools]:
    with tempfile.TemporaryDirectory(prefix="ropecheck-chromium-") as profile:
        tools = DevTools(profile)
        try:
            yield tools
        finally:
            tools.close()


def _visit(
    tools: DevTools, url: str, screenshot: Path | None = None, width: int = 1280, probe: str = PROBE
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Open `url` in a fresh tab `width` pixels wide; return the probe's report and the events (console, log,
    network) of the visit."""
    target = tools.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = tools.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    tools.events.clear()
    for domain in ("Page", "Runtime", "Log", "Network"):
        tools.send(f"{domain}.enable", session=session)
    tools.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 2000, "deviceScaleFactor": 1, "mobile": width < 600},
        session=session,
    )
    tools.send("Page.navigate", {"url": url}, session=session)
    tools.wait_for("Page.loadEventFired")
    probe = tools.send(
        "Runtime.evaluate",
        {"expression": probe, "awaitPromise": True, "returnByValue": True},
        session=session,
        timeout=60,
    )
    if screenshot is not None:
        image = tools.send("Page.captureScreenshot", {"format": "png"}, session=session)["data"]
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(base64.b64decode(image))
    events = list(tools.events)
    tools.send("Target.closeTarget", {"targetId": target})
    return probe.get("result", {}).get("value", {}), events


def _problems(events: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """(console/log errors, requests to a host other than loopback) among the visit's events."""
    errors, outside = [], []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append(
                "console: " + " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"])
            )
        elif method == "Runtime.exceptionThrown":
            errors.append("exception: " + json.dumps(params.get("exceptionDetails", {}))[:500])
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            errors.append(f"log: {entry.get('text')} {entry.get('url', '')}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            errors.append(f"network: {params.get('errorText')} (request {params.get('requestId')})")
        elif method == "Network.requestWillBeSent":
            url = params.get("request", {}).get("url", "")
            parts = urlsplit(url)
            if parts.scheme not in ("data", "blob", "about") and parts.hostname not in LOOPBACK:
                outside.append(url)
    return errors, outside


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_offline_without_errors(page: str, server: str, browser: DevTools) -> None:
    screenshot = SCREENSHOTS / (Path(page).stem + ".png") if page == SCREENSHOT_PAGE else None
    report, events = _visit(browser, server + page, screenshot)
    errors, outside = _problems(events)
    assert not outside, f"{page} requested hosts off the machine: {outside}"
    assert not errors, f"{page} logged errors:\n" + "\n".join(errors)
    assert not report["raw"], f"{page}: raw math delimiters left in the text: {report['raw']}"
    if not PAGES[page]:
        return
    assert report["loads"] and report["mathjax"], f"{page}: MathJax did not load ({report})"
    assert report["rendered"] > 0, f"{page}: no formula was rendered"
    assert not report["raw"], f"{page}: raw math delimiters left in the text: {report['raw']}"
    assert not report["errors"], f"{page}: MathJax could not typeset: {report['errors'][:5]}"
    if screenshot is not None:
        assert screenshot.stat().st_size > 20_000, "the screenshot is (nearly) empty"


def _all_pages(site: DocsBuild) -> list[str]:
    skip = {"genindex.html", "search.html", "py-modindex.html"}
    return sorted(
        str(path.relative_to(site.html)) for path in site.html.rglob("*.html")
        if path.name not in skip and "_static" not in path.parts and "_sources" not in path.parts
    )


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop-1280", "phone-390"])
def test_every_page_fits_its_width_without_raw_markup(width: int, site: DocsBuild, server: str,
                                                      browser: DevTools) -> None:
    problems = []
    for page in _all_pages(site):
        report, events = _visit(browser, server + page, width=width, probe=LAYOUT_PROBE)
        errors, outside = _problems(events)
        if outside:
            problems.append(f"{page}: requests off the machine: {outside[:3]}")
        if errors:
            problems.append(f"{page}: {errors[:3]}")
        if report.get("page_width", 0) > report.get("width", width) + 1 or report.get("overflow"):
            problems.append(f"{page}: wider than {width}px: {report.get('overflow')}")
        if report.get("raw"):
            problems.append(f"{page}: raw markup in the text: {report['raw']}")
    assert not problems, f"{len(problems)} problems at {width}px:\n" + "\n".join(problems[:30])
