"""Reports travel (issue #24): report.html and report.md link each cited claim to its entry inside the report,
never to a `file://` path of the machine that wrote it; the published docs are linked only when named."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from ropecheck.cli._audit import main

BUGGY = ["tests/audit_corpus/numpy_impls.py:bug_clockwise", "--base", "10000", "--max-position", "256",
         "--head-dim", "16", "--dtypes", "float32"]
ROOT = Path(__file__).resolve().parents[1]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("href"):
            self.hrefs.append(str(values["href"]))
        if values.get("id"):
            self.ids.add(str(values["id"]))


def _write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, docs: str | None) -> tuple[str, str]:
    monkeypatch.chdir(ROOT)
    if docs is None:
        monkeypatch.delenv("ROPECHECK_DOCS_URL", raising=False)
    else:
        monkeypatch.setenv("ROPECHECK_DOCS_URL", docs)
    out = tmp_path / "out"
    assert main([*BUGGY, "--report", str(out)]) == 1
    return (out / "report.html").read_text(encoding="utf-8"), (out / "report.md").read_text(encoding="utf-8")


def test_claim_links_point_inside_the_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page, markdown = _write(tmp_path, monkeypatch, None)
    links = _Links()
    links.feed(page)
    assert links.hrefs and not [href for href in links.hrefs if not href.startswith("#")], links.hrefs
    assert {href[1:] for href in links.hrefs} <= links.ids  # every link has its target in the page
    assert "rope-pair-formula" in links.ids and "ropecheck claims show ROPE-PAIR-FORMULA" in page
    assert "file:" not in page and "file:" not in markdown
    assert "[ROPE-PAIR-FORMULA](#rope-pair-formula)" in markdown
    assert re.search(r"(?m)^### ROPE-PAIR-FORMULA$", markdown)


def test_published_docs_are_linked_when_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page, markdown = _write(tmp_path, monkeypatch, "https://docs.example.org/ropecheck/")
    url = "https://docs.example.org/ropecheck/generated/claims/ROPE-PAIR-FORMULA.html"
    assert f'href="{url}"' in page and f"]({url})" in markdown
    page, markdown = _write(tmp_path / "again", monkeypatch, "file:///home/someone/docs")
    assert "file:" not in page and "file:" not in markdown
