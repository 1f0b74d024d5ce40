"""Names of the source documents (the seed files in `shared/seeds/` and the papers claims originate in)."""

from __future__ import annotations

from ._claim import Source

NOTE_000 = "000_8078a0c1f020e996.txt"
NOTE_001 = "001_afbb0d2f324815b3.txt"
SUMMARY_002 = "002_cba16600f21d3552.txt"
EXPLAINER_003 = "003_01b24b0b213f8711.txt"
BLOG_004 = "004_db2e29ffdfaeda9e.txt"
SEEDS = (NOTE_000, NOTE_001, SUMMARY_002, EXPLAINER_003, BLOG_004)

ROFORMER = "Su et al. 2021, RoFormer: Enhanced Transformer with Rotary Position Embedding (arXiv:2104.09864)"
VASWANI = "Vaswani et al. 2017, Attention Is All You Need, §3.5"
SHAW = "Shaw et al. 2018, Self-Attention with Relative Position Representations"
KATHAROPOULOS = "Katharopoulos et al. 2020, Transformers are RNNs (linear attention, φ(x) = elu(x) + 1)"


def quote(document: str, passage: str) -> Source:
    """A source with the passage it is quoted from (only the passage the claim needs)."""
    return Source(document=document, quote=passage)
