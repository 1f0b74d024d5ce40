"""Topic answers (`claims show decay`) are generated from the claims' verdicts, and one sentence says what decides
a verdict wherever a reader meets it (issue 36, items 3 and 5)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from ropecheck.proofs import claim_ids

from ropecheck.cli._claims_topics import TOPICS, answer_paragraph, find_topic
from ropecheck.cli._claims_view import WHO_DECIDES, print_claim

ROOT = Path(__file__).resolve().parent.parent


def test_every_topic_names_registry_claims_and_is_found_by_name_and_alias() -> None:
    known = set(claim_ids())
    for topic in TOPICS:
        assert set(topic.claim_ids) <= known, topic.name
        assert find_topic(topic.name.upper()) is topic
        assert all(find_topic(alias) is topic for alias in topic.aliases)
    assert find_topic("ROPE-DECAY-TO-ZERO") is None


def _entries(verdict: str) -> list[dict[str, Any]]:
    topic = find_topic("decay")
    assert topic is not None
    return [{"id": claim_id, "title": f"title of {claim_id}", "verdict": verdict} for claim_id in topic.claim_ids]


@pytest.mark.parametrize("verdict", ["proved", "refuted", "unknown"])
def test_the_answer_follows_the_verdicts(verdict: str) -> None:
    """The paragraph is built from the verdicts it is given: flip them and the answer flips (nothing is written by
    hand), and a proved correction is quoted."""
    topic = find_topic("decay")
    assert topic is not None
    entries = _entries(verdict)
    entries[0]["correction"] = {"verdict": "proved", "explanation": "The bound holds instead. More words."}
    text = answer_paragraph(topic, entries)
    assert text.startswith(topic.question)
    assert f"({len(entries)} {verdict})" in text
    assert text.count(f"{verdict}: “title of") == len(entries)
    assert ("proved instead: The bound holds instead" in text) == (verdict == "refuted")


def test_one_sentence_says_what_decides_everywhere() -> None:
    """README, the docs' index, the ledger page and `claims show` carry the same sentence; the index no longer says
    the SymPy engine decides and Coq re-checks."""
    import sys

    flat = " ".join(WHO_DECIDES.split())
    for page in (ROOT / "README.md", ROOT / "docs" / "index.md"):
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert flat in text, page.name
        assert "re-checks" not in text and "engine (SymPy) whose verdicts" not in text, page.name
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from ropecheck_docs._pages import ledger_page
    finally:
        sys.path.remove(str(ROOT / "docs" / "_ext"))
    claim = {"id": "X", "title": "t", "verdict": "proved", "topic": "rope", "sources": []}
    assert flat in " ".join(ledger_page([claim]).split())
    out = io.StringIO()
    print_claim({**claim, "statement": "s"}, out)
    assert flat in " ".join(out.getvalue().split())
