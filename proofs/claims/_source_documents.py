"""The source documents the ledger quotes, each under a stable key, with its own title, kind and what it covers.

Pages, reports and `claims --json` cite a source by its key (`seed-001`, `roformer-2021`) and its record: title,
author, date and URL where the document gives them (none of the five seeds names its author or its own URL; the
papers' are their arXiv pages). The seed file name (under `shared/seeds/` beside the repository, not shipped with
this package) is internal: only the tests that check each quote against the seed text read it (`seed_file`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ._source_literature import LITERATURE_RECORDS


@dataclass(frozen=True)
class SourceDocument:
    """One source document.

    **Arguments:**

    - `key`: the stable key claims cite it by (`seed-001`, `roformer-2021`).
    - `title`: the document's own title (or, where it has none, its first heading, said so in `kind`).
    - `kind`: what sort of document it is (lecture note, blog post, summary, interactive explainer, paper).
    - `covers`: the topics it makes claims about.
    - `label`: a short label for tables (`Note 2024-09-08`, `Su et al. 2021`).
    - `date`, `author`, `url`: as the document gives them (empty where it does not).
    - `file`: for a seed, its file name in `shared/seeds/` (internal: never shown to a user); empty for a paper.
    """

    key: str
    title: str
    kind: str
    covers: str
    label: str = ""
    date: str = ""
    author: str = ""
    url: str = ""
    file: str = ""

    @property
    def short(self) -> str:
        """A short label for tables: the registered label, else the title."""
        return self.label or self.title

    @property
    def citation(self) -> str:
        """How a page or report cites it: `“Title”, author, date, URL` with what the document gives."""
        return ", ".join(part for part in (f"“{self.title}”", self.author, self.date, self.url) if part)

    def to_json(self) -> dict[str, str]:
        """The record `claims --json` carries in each source: key, title, author, date, URL (never the file)."""
        return {"key": self.key, "title": self.title, "author": self.author, "date": self.date, "url": self.url}


SEED_DOCUMENTS: tuple[SourceDocument, ...] = (
    SourceDocument(
        "seed-000",
        "Permutation equivariance",
        "lecture note (untitled: its first heading; the text of “A Note on Positional Encoding” without its front "
        "matter)",
        "permutation equivariance of attention; absolute sinusoidal encodings; relative encodings (Shaw, T5 "
        "biases); RoPE in complex and matrix form; long-term decay",
        label="Lecture note",
        file="000_8078a0c1f020e996.txt",
    ),
    SourceDocument(
        "seed-001",
        "A Note on Positional Encoding",
        "note (blog post with front matter)",
        "the same material as the lecture note: permutation equivariance, sinusoidal and relative encodings, RoPE, "
        "decay",
        label="Note 2024-09-08",
        date="2024-09-08",
        file="001_afbb0d2f324815b3.txt",
    ),
    SourceDocument(
        "seed-002",
        "Reading notes on RoFormer",
        "summary (untitled study notes on the RoFormer paper; first heading: Introduction)",
        "motivation for RoPE, the rotation matrix form, linear attention, long-term decay",
        label="RoFormer summary",
        file="002_cba16600f21d3552.txt",
    ),
    SourceDocument(
        "seed-003",
        "Transformer Geometry",
        "interactive explainer on RoPE (the text of its figures)",
        "pairwise rotations, relative phase, shift invariance, KV-cache size and reuse",
        label="Transformer Geometry",
        file="003_01b24b0b213f8711.txt",
    ),
    SourceDocument(
        "seed-004",
        "RoPE - Is Attention All You Really Need?",
        "blog post",
        "integer, one-hot and binary encodings; sinusoidal encodings and their frequencies; RoPE; linear attention",
        label="Blog 2025-09-09",
        date="2025-09-09",
        file="004_db2e29ffdfaeda9e.txt",
    ),
)

PAPER_DOCUMENTS: tuple[SourceDocument, ...] = (
    SourceDocument(
        "roformer-2021",
        "RoFormer: Enhanced Transformer with Rotary Position Embedding",
        "paper (arXiv:2104.09864)",
        "rotary position embedding, its relative property, long-term decay, linear attention",
        label="Su et al. 2021",
        date="2021",
        author="Jianlin Su, Yu Lu, Shengfeng Pan, Ahmed Murtadha, Bo Wen, Yunfeng Liu",
        url="https://arxiv.org/abs/2104.09864",
    ),
    SourceDocument(
        "vaswani-2017",
        "Attention Is All You Need",
        "paper (arXiv:1706.03762; the sinusoidal encoding is §3.5)",
        "the Transformer; the sinusoidal positional encoding",
        label="Vaswani et al. 2017",
        date="2017",
        author="Ashish Vaswani et al.",
        url="https://arxiv.org/abs/1706.03762",
    ),
    SourceDocument(
        "shaw-2018",
        "Self-Attention with Relative Position Representations",
        "paper (arXiv:1803.02155)",
        "relative position representations with clipping",
        label="Shaw et al. 2018",
        date="2018",
        author="Peter Shaw, Jakob Uszkoreit, Ashish Vaswani",
        url="https://arxiv.org/abs/1803.02155",
    ),
    SourceDocument(
        "katharopoulos-2020",
        "Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention",
        "paper (arXiv:2006.16236)",
        "linear attention with the feature map φ(x) = elu(x) + 1",
        label="Katharopoulos et al. 2020",
        date="2020",
        author="Angelos Katharopoulos, Apoorv Vyas, Nikolaos Pappas, François Fleuret",
        url="https://arxiv.org/abs/2006.16236",
    ),
)

LITERATURE_DOCUMENTS: tuple[SourceDocument, ...] = tuple(
    SourceDocument(*head, **more) for head, more in LITERATURE_RECORDS
)
"""The context-extension literature (`_source_literature`)."""

SOURCE_DOCUMENTS: tuple[SourceDocument, ...] = SEED_DOCUMENTS + PAPER_DOCUMENTS + LITERATURE_DOCUMENTS


def source_document(key: str) -> SourceDocument | None:
    """The registered document for a source key, if any."""
    for document in SOURCE_DOCUMENTS:
        if document.key == key:
            return document
    return None


def source_title(key: str) -> str:
    """How pages cite a source: its citation (title, author, date, URL as given); an unregistered key as itself."""
    document = source_document(key)
    return document.citation if document is not None else key


def is_seed(key: str) -> bool:
    """Whether a source key names one of the seed documents (rather than a paper)."""
    return any(document.key == key for document in SEED_DOCUMENTS)


def seed_file(key: str) -> str | None:
    """The seed's file name in `shared/seeds/` (internal, for checking quotes against the seed text), or None."""
    document = source_document(key)
    return document.file or None if document is not None else None
