"""The source documents the ledger quotes: each one's own title, its kind and what it covers.

Pages and reports cite a source by its title; the seed file name (under `shared/seeds/` of the steering
repository, not shipped with this package) is kept as a detail so a reader with the files can find the passage.
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
    """

    file: str
    title: str
    kind: str
    covers: str

    @property
    def short(self) -> str:
        """A short label for tables: `Note 001` for a seed, the author–year part for a paper."""
        if self.file.endswith(".txt"):
            return f"{self.kind.split()[0].capitalize()} {self.file[:3]}"
        return self.file.split(",")[0]


SOURCE_DOCUMENTS: tuple[SourceDocument, ...] = (
    SourceDocument(
        "000_8078a0c1f020e996.txt",
        "Permutation equivariance (untitled lecture note, first heading)",
        "note (plain-text copy of 001 without its front matter)",
        "permutation equivariance of attention; absolute sinusoidal encodings; relative encodings (Shaw, T5 "
        "biases); RoPE in complex and matrix form; long-term decay",
    ),
    SourceDocument(
        "001_afbb0d2f324815b3.txt",
        "A Note on Positional Encoding (2024-09-08)",
        "note (blog post with front matter)",
        "the same material as 000: permutation equivariance, sinusoidal and relative encodings, RoPE, decay",
    ),
    SourceDocument(
        "002_cba16600f21d3552.txt",
        "Reading notes on RoPE (untitled; first heading: Introduction)",
        "summary (study notes on the RoFormer paper)",
        "motivation for RoPE, the rotation matrix form, linear attention, long-term decay",
    ),
    SourceDocument(
        "003_01b24b0b213f8711.txt",
        "Transformer Geometry (interactive explainer on RoPE)",
        "explainer page (text of an interactive figure)",
        "pairwise rotations, relative phase, shift invariance, KV-cache size and reuse",
    ),
    SourceDocument(
        "004_db2e29ffdfaeda9e.txt",
        "RoPE - Is Attention All You Really Need? (2025-09-09)",
        "blog post",
        "integer, one-hot and binary encodings; sinusoidal encodings and their frequencies; RoPE; linear attention",
    ),
)


def source_document(file: str) -> SourceDocument | None:
    """The registered document for a seed file name or paper citation, if any."""
    for document in SOURCE_DOCUMENTS:
        if document.file == file:
            return document
    return None


def source_title(file: str) -> str:
    """How pages cite a source: its title, or the citation string itself for a paper not registered."""
    document = source_document(file)
    return document.title if document is not None else file
