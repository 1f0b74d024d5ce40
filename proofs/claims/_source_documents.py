"""The source documents the ledger quotes: each one's own title, its kind and what it covers.

Pages and reports cite a source by its title, with its date (and author and URL where the document gives them:
none of the five names its author or its own URL); the seed file name (under `shared/seeds/` of the steering
repository, not shipped with this package) is only the key the registry uses — no page or report shows it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SourceDocument:
    """One source document.

    **Arguments:**

    - `file`: the seed file name (`001_afbb0d2f324815b3.txt`) or the paper's citation string.
    - `title`: the document's own title (or, where it has none, its first heading, said so in `kind`).
    - `kind`: what sort of document it is (lecture note, blog post, summary, interactive explainer, paper).
    - `covers`: the topics it makes claims about.
    - `label`: a short label for tables (`Note 2024-09-08`).
    - `date`, `author`, `url`: as the document gives them (empty where it does not).
    """

    file: str
    title: str
    kind: str
    covers: str
    label: str = ""
    date: str = ""
    author: str = ""
    url: str = ""

    @property
    def short(self) -> str:
        """A short label for tables: the registered label, or the author–year part for a paper."""
        return self.label or self.file.split(",")[0]

    @property
    def citation(self) -> str:
        """How a page or report cites it: `“Title”, author, date, URL` with what the document gives."""
        return ", ".join(part for part in (f"“{self.title}”", self.author, self.date, self.url) if part)


SOURCE_DOCUMENTS: tuple[SourceDocument, ...] = (
    SourceDocument(
        "000_8078a0c1f020e996.txt",
        "Permutation equivariance",
        "lecture note (untitled: its first heading; the text of “A Note on Positional Encoding” without its front "
        "matter)",
        "permutation equivariance of attention; absolute sinusoidal encodings; relative encodings (Shaw, T5 "
        "biases); RoPE in complex and matrix form; long-term decay",
        label="Lecture note",
    ),
    SourceDocument(
        "001_afbb0d2f324815b3.txt",
        "A Note on Positional Encoding",
        "note (blog post with front matter)",
        "the same material as the lecture note: permutation equivariance, sinusoidal and relative encodings, RoPE, "
        "decay",
        label="Note 2024-09-08",
        date="2024-09-08",
    ),
    SourceDocument(
        "002_cba16600f21d3552.txt",
        "Reading notes on RoFormer",
        "summary (untitled study notes on the RoFormer paper; first heading: Introduction)",
        "motivation for RoPE, the rotation matrix form, linear attention, long-term decay",
        label="RoFormer summary",
    ),
    SourceDocument(
        "003_01b24b0b213f8711.txt",
        "Transformer Geometry",
        "interactive explainer on RoPE (the text of its figures)",
        "pairwise rotations, relative phase, shift invariance, KV-cache size and reuse",
        label="Transformer Geometry",
    ),
    SourceDocument(
        "004_db2e29ffdfaeda9e.txt",
        "RoPE - Is Attention All You Really Need?",
        "blog post",
        "integer, one-hot and binary encodings; sinusoidal encodings and their frequencies; RoPE; linear attention",
        label="Blog 2025-09-09",
        date="2025-09-09",
    ),
)


def source_document(file: str) -> SourceDocument | None:
    """The registered document for a seed file name or paper citation, if any."""
    for document in SOURCE_DOCUMENTS:
        if document.file == file:
            return document
    return None


def source_title(file: str) -> str:
    """How pages cite a source: its citation (title, author, date, URL as given), or a paper's citation string."""
    document = source_document(file)
    return document.citation if document is not None else file
