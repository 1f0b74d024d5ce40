"""Help text that fits the terminal: `--help` of every command wraps at the terminal's width (80 columns and less
included), only at spaces — never inside a word, a flag or a spec such as `bidirectional=true|false`.

Descriptions and epilogs are written as paragraphs and definition items (`  TERM  text`, two spaces after the
term) and laid out here for the width argparse gives; continuation lines stay indented under their item.
"""

from __future__ import annotations

import argparse
import re
import textwrap

__all__ = ["HelpFormatter", "wrap_items"]

#: The column where a definition item's text starts (argparse's own column for option help).
_TEXT_COLUMN = 24
_ITEM = re.compile(r"^(\s+)(\S.*?)(?:\s{2,})(\S.*)$")


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        " ".join(text.split()), width=max(width, len(first) + 20), initial_indent=first, subsequent_indent=rest,
        break_long_words=False, break_on_hyphens=False,
    ) or [first.rstrip()]


def wrap_items(text: str, width: int) -> str:
    """Lay out paragraphs and definition items for `width` columns.

    **Arguments:**

    - `text`: blocks separated by blank lines; a line `  TERM  text` (indented, two spaces after the term) is a
      definition item, an indented line without such a gap continues the item above, any other line belongs
      to the paragraph it is in.
    - `width`: the columns available.

    **Returns:**

    The text wrapped at spaces only, items' text at column 24 (under the term when the term is longer).
    """
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        items: list[list[str]] = []  # [indent, term, text] or ["", "", paragraph]
        for line in block.splitlines():
            match = _ITEM.match(line)
            if match:
                items.append([match.group(1), match.group(2), match.group(3)])
            elif line[:1].isspace() and items and items[-1][1]:
                items[-1][2] += " " + line.strip()
            elif items and not items[-1][1]:
                items[-1][2] += " " + line.strip()
            else:
                items.append(["", "", line.strip()])
        for indent, term, body in items:
            if not term:
                out.extend(_wrap(body, width, "", ""))
                continue
            head = f"{indent}{term}"
            pad = " " * _TEXT_COLUMN
            if len(head) + 2 <= _TEXT_COLUMN:
                out.extend(_wrap(body, width, head.ljust(_TEXT_COLUMN), pad))
            else:
                out.append(head)
                out.extend(_wrap(body, width, pad, pad))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, wrapping descriptions, epilogs and option help at spaces only (`wrap_items`)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return wrap_items(text, width + len(indent))

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_long_words=False, break_on_hyphens=False)
