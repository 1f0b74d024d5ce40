"""`ropecheck claims` in a terminal: one line per claim that fits the width, a legend, a summary, progress.

Each claim is one line — ID, verdict, the kernel's count of checked theorems, the numeric marks, and the title cut
at a word with "…" — so 46 claims fill 46 lines of an 80-column terminal. `--wide` prints every column in full
(`_claims_view.print_table`); piped output stays one tab-separated record per line.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from ._claims_view import kernel_cell, numeric_cell, plain_title

VERDICT_WIDTH = 8
ID_WIDTH = 26
LEGEND = (
    "verdict: proved / refuted by a theorem the Coq kernel checked; * the corrected statement is proved too; "
    "unknown: not decided (claims show ID says why) · Coq: theorems the kernel checked / stated (– not run) · "
    "num(eric) f16 bf16 f32 f64 mp: ✓ confirms · ~ below what the format resolves · ? bound too loose · "
    "✗ contradiction · – not tested · details: ropecheck claims show ID, or --wide"
)


def short_verdict(entry: dict[str, Any]) -> str:
    """`proved`, `refuted`, `refuted*` (its correction proved), `unknown`, or `engine` (kernel not run)."""
    verdict = str(entry["verdict"])
    if verdict.startswith("engine only"):
        return "engine"
    correction = entry.get("correction") or {}
    return verdict + ("*" if correction.get("verdict") == "proved" else "")


def kernel_count(entry: dict[str, Any]) -> str:
    """`3/3` (theorems the kernel checked / theorems stated), `–` when the kernel did not run, `none`."""
    cell = kernel_cell(entry)
    return {"no theorem": "none", "not run": "–"}.get(cell, cell.removesuffix(" checked"))


def cut_at_word(text: str, width: int) -> str:
    """`text` in at most `width` characters, cut at a word boundary with "…" when it is longer."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if space >= width // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:—–-") + "…"


def summary_line(entries: Sequence[dict[str, Any]], kernel_version: str | None) -> str:
    """`46 claims: 27 proved, 17 refuted, 2 unknown — kernel: Coq 8.16.1` (or why the kernel did not run)."""
    counts = Counter(str(entry["verdict"]) for entry in entries)
    parts = [f"{counts[v]} {v}" for v in ("proved", "refuted", "unknown") if counts[v]]
    parts += [f"{n} {v}" for v, n in counts.items() if v not in ("proved", "refuted", "unknown")]
    kernel = f"Coq {kernel_version}" if kernel_version else "not run (Coq is not installed)"
    noun = "claim" if len(entries) == 1 else "claims"
    return f"{len(entries)} {noun}: {', '.join(parts)} — kernel: {kernel}"


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width=width, break_long_words=False, break_on_hyphens=False) or [""]


def print_lines(
    entries: Sequence[dict[str, Any]], width: int, kernel_version: str | None, stream: TextIO | None = None
) -> None:
    """The ledger at `width` columns: a header, one line per claim, the legend and the summary.

    **Arguments:**

    - `entries`: claims as `Claim.to_json()` gives them (with `numeric` when measured).
    - `width`: the terminal's columns; no line printed is wider.
    - `kernel_version`: the Coq version for the summary (`None` when the kernel did not run).
    - `stream`: where to write (standard output by default).
    """
    stream = sys.stdout if stream is None else stream
    has_numeric = any("numeric" in entry for entry in entries)
    id_width = min(ID_WIDTH, max((len(entry["id"]) for entry in entries), default=2))
    header = ["ID".ljust(id_width), "verdict".ljust(VERDICT_WIDTH), "Coq "]
    if has_numeric:
        header.append("num. ")
    header.append("title")
    stream.write(" ".join(header)[:width] + "\n")
    for entry in entries:
        cells = [entry["id"].ljust(id_width), short_verdict(entry).ljust(VERDICT_WIDTH), kernel_count(entry).ljust(4)]
        if has_numeric:
            cells.append(numeric_cell(entry.get("numeric")).ljust(5))
        line = " ".join(cells)
        room = width - len(line) - 1
        title = plain_title(entry["title"])
        stream.write(line + (" " + cut_at_word(title, room) if room >= 8 else "") + "\n")
    stream.write("\n" + "\n".join(_wrap(LEGEND if has_numeric else LEGEND.split(" · num(eric)")[0], width)) + "\n")
    stream.write("\n".join(_wrap(summary_line(entries, kernel_version), width)) + "\n")


class Progress:
    """`checking claims 12/46: ROPE-DECAY-TO-ZERO` on one line of standard error while the ledger is computed;
    silent when standard error is not a terminal (a CI log gets no progress noise), cleared at the end."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.active = self.stream.isatty()

    def __call__(self, done: int, total: int, claim_id: str) -> None:
        if not self.active:
            return
        if done >= total:
            self.stream.write("\r\x1b[K")
        else:
            self.stream.write(f"\r\x1b[Kropecheck: checking claims {done + 1}/{total}: {claim_id}"[:79])
        self.stream.flush()

    def note(self, text: str) -> None:
        """A step before the per-claim loop (loading the registry, the kernel)."""
        if self.active:
            self.stream.write(f"\r\x1b[Kropecheck: {text}"[:79])
            self.stream.flush()
