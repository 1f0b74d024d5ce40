"""One-paragraph answers to the questions readers ask, generated from the claims' live verdicts
(`claims show decay`, and the *Answers* page of the docs).

A topic is a question and the claims that answer it; the paragraph is built from each claim's title, its verdict
and, for a refuted claim, its proved correction — never from text that states a verdict by hand, so a verdict that
changes changes the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["TOPICS", "Topic", "answer_paragraph", "find_topic"]


@dataclass(frozen=True)
class Topic:
    """A reader's question and the claims whose verdicts answer it.

    **Arguments:**

    - `name`: what `claims show NAME` accepts (aliases in `aliases`).
    - `question`: the question in words.
    - `claim_ids`: the claims, the most direct first.
    """

    name: str
    question: str
    claim_ids: tuple[str, ...]
    aliases: tuple[str, ...] = ()


TOPICS: tuple[Topic, ...] = (
    Topic(
        "decay",
        "Does the RoPE (or sinusoidal) score decay with relative distance?",
        (
            "ROPE-DECAY-TO-ZERO",
            "ROPE-DECAY-MONOTONE",
            "ROPE-DECAY-BOUND",
            "ROPE-DECAY-BOUND-MONOTONE",
            "SPE-DOT-NONMONOTONE",
            "SPE-DOT-AVERAGES-OUT",
        ),
        ("long-term-decay",),
    ),
    Topic(
        "linear-attention",
        "Does RoPE work with linear attention, and do other encodings?",
        (
            "ROPE-LINEAR-ATTENTION-ROFORMER",
            "ROPE-LINEAR-ATTENTION-SEED",
            "ROPE-LINEAR-ATTENTION-004",
            "SPE-LINEAR-ATTENTION-INCOMPATIBLE",
            "RPE-BREAKS-LINEAR-ATTENTION",
        ),
        ("linear",),
    ),
    Topic(
        "kv-cache",
        "Can keys be cached (and a cached prefix moved) with RoPE, relative biases or additive positions?",
        (
            "ROPE-KV-CACHE-REUSE",
            "ROPE-PREFIX-REPHASE",
            "ROPE-CACHED-KEY-POSITIONAL-003",
            "ROPE-KV-CACHE-SIZE",
            "RPE-KV-CACHE-IMPOSSIBLE",
            "APE-PREFIX-STALE-003",
        ),
        ("cache", "kv"),
    ),
    Topic(
        "uniqueness",
        "Does every position get its own encoding, and can offsets be told apart?",
        ("SPE-UNIQUE-POSITION", "SPE-DISTINCT-WAVELENGTHS", "SPE-WAVELENGTH-RANGE", "RPE-CLIP-INDISTINGUISHABLE"),
        ("unique",),
    ),
    Topic(
        "relative",
        "Does the RoPE score depend only on the relative position n − m?",
        (
            "ROPE-RELATIVE-MATRIX",
            "ROPE-QK-RELATIVE",
            "ROPE-SHIFT-INVARIANCE-003",
            "ROPE-ABS-AND-REL",
            "ROPE-KV-COS-ONLY",
            "ROPE-SINE-TERM-WHOLE-SCORE-003",
        ),
        ("relative-position",),
    ),
    Topic(
        "equivariance",
        "Is attention without positions permutation-equivariant, and do positions break it?",
        ("ATT-EQUIVARIANCE", "ATT-SOFTMAX-PERMUTATION", "ATT-PE-BREAKS-EQUIVARIANCE"),
        ("permutation",),
    ),
)


def find_topic(typed: str) -> Topic | None:
    """The topic named (or aliased) by what the user typed, case-insensitively (`_` and `-` alike)."""
    wanted = typed.strip().lower().replace("_", "-")
    for topic in TOPICS:
        if wanted == topic.name or wanted in topic.aliases:
            return topic
    return None


def _first_sentence(text: str) -> str:
    text = " ".join(str(text).split())
    match = re.match(r"(.+?[.;])(\s|$)", text)
    return (match.group(1) if match else text).rstrip(";.") + "."


def answer_paragraph(
    topic: Topic, entries: Sequence[dict[str, Any]], title: Any = None, ref: Any = None, prose: Any = None
) -> str:
    """The topic's answer: its question, then each claim's verdict and title (and a refuted claim's proved
    correction), in one paragraph.

    **Arguments:**

    - `topic`: the question and its claims.
    - `entries`: claims as `Claim.to_json()` gives them, with their verdicts (others are ignored).
    - `title`: how a title is written (default: as given; the terminal passes `plain_title`).
    - `ref`: how a claim ID is written (default: as given; the docs pass a link).
    - `prose`: how the question and a correction's words are written (default: as given; the docs escape them).

    **Returns:** the paragraph, plain text.
    """
    shown = title or (lambda text: text)
    link = ref or (lambda claim_id: claim_id)
    words = prose or (lambda text: text)
    by_id = {entry["id"]: entry for entry in entries}
    present = [by_id[claim_id] for claim_id in topic.claim_ids if claim_id in by_id]
    counts = {v: sum(e["verdict"] == v for e in present) for v in ("proved", "refuted", "unknown")}
    tally = ", ".join(f"{n} {v}" for v, n in counts.items() if n)
    sentences = [f"{words(topic.question)} The ledger's {len(present)} claims on it ({tally}):"]
    for entry in present:
        sentence = f"{entry['verdict']}: “{shown(entry['title'])}” ({link(entry['id'])})"
        correction = entry.get("correction") or {}
        if entry["verdict"] == "refuted" and correction.get("verdict") == "proved":
            what = _first_sentence(correction.get("explanation") or correction.get("statement", ""))
            sentence += f" — proved instead: {words(what.rstrip('.'))}"
        sentences.append(sentence + ";")
    sentences[-1] = sentences[-1].rstrip(";") + "."
    return " ".join(sentences)
