"""Sources are cited by a stable key and a record (title, author, date, URL as the document gives them); a seed's
hashed file name (`000_8078a0c1f020e996.txt`) is internal — no output a user sees names it — and every quote a
claim takes from a seed is in that seed's text."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from ropecheck.proofs import all_claims
from ropecheck.proofs.claims._source_documents import SOURCE_DOCUMENTS, is_seed, seed_file, source_document
from ropecheck.proofs.claims._source_literature import LITERATURE_RECORDS

from ropecheck.cli import _main as _cli
from ropecheck.cli._claims_view import print_claim

HASHED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}")
SEEDS_DIR = Path(__file__).resolve().parents[2] / "shared" / "seeds"
KEYS = (
    *("seed-000", "seed-001", "seed-002", "seed-003", "seed-004"),
    *("roformer-2021", "vaswani-2017", "shaw-2018", "katharopoulos-2020"),
    *(head[0] for head, _ in LITERATURE_RECORDS),  # the context-extension literature (ISSUE #33)
)


def test_every_source_has_a_stable_key_and_a_record() -> None:
    assert tuple(document.key for document in SOURCE_DOCUMENTS) == KEYS
    for document in SOURCE_DOCUMENTS:
        assert document.title and document.kind and not HASHED_NAME.search(json.dumps(document.to_json()))
        assert bool(document.file) == is_seed(document.key), "a seed has a file, a paper none"
        if not is_seed(document.key):
            # a paper by its arXiv page; reference code (ISSUE #33's literature) by its repository, on GitHub or, for
            # code released only with the weights (Qwen-1's modeling_qwen.py), on the Hugging Face Hub
            code = document.kind.startswith("reference code")
            prefixes = ("https://github.com/", "https://huggingface.co/") if code else ("https://arxiv.org/abs/",)
            assert document.url.startswith(prefixes) and document.author and document.date
    assert source_document("seed-001").date == "2024-09-08"  # type: ignore[union-attr]
    assert source_document("seed-004").date == "2025-09-09"  # type: ignore[union-attr]


def test_every_claim_cites_registered_keys() -> None:
    for claim in all_claims():
        for source in claim.sources:
            assert source_document(source.key) is not None, (claim.id, source.key)


def test_claims_json_sources_carry_key_title_date_and_no_file_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli.main(["claims", "--json", "--no-numeric"]) in (0, 1)
    output = capsys.readouterr().out
    assert not HASHED_NAME.search(output), HASHED_NAME.search(output)
    entries = json.loads(output)
    entries = entries["claims"] if isinstance(entries, dict) else entries
    for entry in entries:
        for source in entry["sources"]:
            assert set(source) >= {"key", "title", "author", "date", "url", "quote"}, source
            assert source_document(source["key"]) is not None
    note = next(s for e in entries for s in e["sources"] if s["key"] == "seed-001")
    assert note["title"] == "A Note on Positional Encoding" and note["date"] == "2024-09-08"


def test_claims_show_names_no_seed_file_for_any_claim() -> None:
    for claim in all_claims():
        out = io.StringIO()
        entry = claim.to_json()
        print_claim(entry, out)
        text = out.getvalue()
        assert not HASHED_NAME.search(text), (claim.id, HASHED_NAME.search(text))
        for source in claim.sources:
            assert source_document(source.key).title in text  # type: ignore[union-attr]


def test_the_no_file_name_check_fails_on_a_leaked_name() -> None:
    """The pattern the checks above use does catch a hashed name, as a source key or inside a citation."""
    out = io.StringIO()
    print_claim(
        {
            "id": "X",
            "title": "t",
            "verdict": "proved",
            "statement": "s",
            "sources": [{"key": "001_afbb0d2f324815b3.txt", "quote": "q"}],
        },
        out,
    )
    assert HASHED_NAME.search(out.getvalue())


def quote_in_text(quote: str, text: str) -> bool:
    """Whether every part of `quote` (parts joined by `...` or `…`) is in `text`, in order, whitespace aside."""
    text = " ".join(text.split())
    position = 0
    for part in re.split(r"\s*(?:\.\.\.|…)\s*", quote):
        fragment = " ".join(part.split())
        if not fragment:
            continue
        found = text.find(fragment, position)
        if found < 0:
            return False
        position = found + len(fragment)
    return True


def test_the_quote_check_fails_on_a_changed_or_reordered_quote() -> None:
    text = "Old methods add it directly to token representations, making them incompatible."
    assert quote_in_text("add it directly ... making them", text)
    assert not quote_in_text("add it directly ... making it", text)
    assert not quote_in_text("making them ... add it directly", text)


@pytest.mark.skipif(not SEEDS_DIR.is_dir(), reason="the seeds (shared/seeds beside the repository) are not here")
def test_every_seed_quote_is_in_the_seed_text() -> None:
    missing = [
        (claim.id, source.key, source.quote[:80])
        for claim in all_claims()
        for source in claim.sources
        if (file := seed_file(source.key)) is not None
        and not quote_in_text(source.quote, (SEEDS_DIR / file).read_text(encoding="utf-8"))
    ]
    assert not missing, missing
