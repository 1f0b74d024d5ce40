"""Claims about the binary encoding seed 004 sets beside the sinusoidal one (BINARY-*), decided in proofs/coq/Binary.v.

Counting bits is no formula the SymPy engine decides, so each statement is `Claimed`: the Coq kernel decides it by
computation under the reading written in `interpretation`, and the numeric mirrors report it as not numerically tested.
"""

from __future__ import annotations

from ..engine._statements import Claimed
from ._claim import Claim
from ._sources import BLOG_004, quote

CLAIMS = [
    Claim(
        id="BINARY-3-TO-4-FLIPS-004",
        title="From 3 (011) to 4 (100) every bit flips",
        topic="sinusoidal",
        latex=r"011 \to 100:\ 3 \text{ of } 3 \text{ bits flip}",
        statement=Claimed("all three bits of 011 flip on the way to 100"),
        assumptions=("the three-bit strings the sentence writes",),
        sources=(quote(BLOG_004, "going from position 3 (binary $011$) to 4 (binary $100$) flips all bits"),),
        interpretation="Read with the strings the sentence itself writes (011 and 100): all three bits flip — "
        "proved by computation.",
        literal="Another reading, in the 8-bit representation of the blog's table (00000011 → 00000100): 3 of "
        "the 8 bits flip, not all (the kernel refutes 'all 8').",
    ),
    Claim(
        id="BINARY-TABLE-004",
        title="The 8-bit table lists each position in binary, and the lowest bit varies fastest",
        topic="sinusoidal",
        latex=r"PE_{p,0:8} = \mathrm{bin}_8(p)\ (p = 0,\dots,11);\ \text{over } p = 0..120 \text{ bit } 0 "
        r"\text{ changes } 120 \text{ times, bit } 7 \text{ never}",
        statement=Claimed("the table rows are the 8-bit binary positions; the lowest bit changes most often"),
        assumptions=("rows as printed, most significant digit first", "positions 0 … 120 of the blog's figure"),
        sources=(
            quote(BLOG_004, "Consider these binary encodings assuming 8-bit representation"),
            quote(BLOG_004, "the lowest bit (i.e. $PE_{p,0}$) varies a lot compared to the higher indices"),
        ),
        interpretation="Read as: each printed row is its position in 8-bit binary (most significant digit first, "
        "as binary is written), and the lowest bit changes far more often than the higher ones. Proved by "
        "computation. Note: with the rows printed most-significant first, the text's PE_{p,0} (the lowest bit) "
        "is the rightmost digit, not the first one the subscript 0:8 suggests.",
    ),
]
