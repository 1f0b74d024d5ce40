"""Small MyST writers: escaped text, inline and display math, verdict badges, list-tables.

Everything the generated pages say comes from the registry's JSON; these helpers only make sure that text from it
(titles, quotes with `$…$` math, SymPy output) reaches the page as the reader should see it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_PUNCTUATION = set("\\`*_{}[]<>()#+-.!|$~^&:=\"'")
# Math in quoted source text, longest delimiters first.
_MATH_IN_TEXT = re.compile(r"\$\$(.+?)\$\$|\\\[(.+?)\\\]|\\\((.+?)\\\)|(?<![\\$])\$(?!\s)([^$]+?)(?<!\s)\$", re.DOTALL)
# SymPy's plain-text printer (Matrix([[...]]), x**2) rather than LaTeX: shown as code, not fed to MathJax.
_SYMPY_TEXT = re.compile(r"Matrix\(\[|\*\*")


def escape(text: str) -> str:
    """`text` as literal Markdown: every ASCII punctuation character backslash-escaped, line breaks folded."""
    folded = " ".join(text.split())
    return "".join("\\" + ch if ch in _PUNCTUATION else ch for ch in folded)


def escape_with_names(text: str) -> str:
    """`text` as literal Markdown (`escape`), except that file paths, repository names, identifiers and addresses
    (a word holding `/` or `_`, such as `fairseq/models/transformer.py` or `get_slopes`) are inline code: a phone
    wraps code at its edge, while a prose word that long runs off the page (issue 36)."""
    parts = []
    for word in " ".join(text.split()).split(" "):
        core = word.rstrip(",;:")
        if ("/" in core or "_" in core) and len(core) > 1:
            parts.append(literal(core) + escape(word[len(core):]))
        else:
            parts.append(escape(word))
    return " ".join(parts)


def _fence_for(text: str, minimum: int = 1) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(minimum, longest + 1)


def literal(text: str) -> str:
    """Inline code."""
    fence = _fence_for(text)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def path_literal(path: str) -> str:
    """A file path (`proofs/coq/InterpolationSizes.v:259`) as inline code that may wrap after its folder: the folder
    and the file name are two code spans with a zero-width space between (a code span itself never breaks, and the
    whole path is wider than a narrow table column at 1280 px)."""
    folder, slash, name = path.rpartition("/")
    return f"{literal(folder + slash)}{chr(0x200B)}{literal(name)}" if slash else literal(path)


def looks_like_sympy_text(latex: str) -> bool:
    """Whether a `latex` field holds SymPy's plain-text form instead of LaTeX (it would render as garbage)."""
    return bool(_SYMPY_TEXT.search(latex))


def inline_math(latex: str) -> str:
    """`{math}` role for one formula (line breaks folded)."""
    body = " ".join(latex.split())
    fence = _fence_for(body)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{{math}}{fence}{pad}{body}{pad}{fence}"


def display_math(latex: str) -> str:
    """A `{math}` block; blank lines are dropped because Sphinx would split the formula there."""
    body = "\n".join(line for line in latex.splitlines() if line.strip())
    fence = _fence_for(body, 3)
    return f"{fence}{{math}}\n{body}\n{fence}"


LONG_FORMULA = 8000
"""LaTeX longer than this (characters) is shown cut, as source, not typeset: nobody reads a formula of tens of
thousands of symbols (the engine's d = 128 statement is 174,511 characters, a quarter of a million elements once
MathJax has laid it out — seconds of typesetting on every visit)."""
SHOWN_OF_LONG = 1200


def formula_block(latex: str, whole: str = "`ropecheck claims show ID --json --full`") -> str:
    """Display math, or a code block labelled as SymPy text when the field is not LaTeX; a formula longer than
    `LONG_FORMULA` is shown as the start of its source with its length and `whole`, the command that prints it."""
    if len(latex) > LONG_FORMULA:
        head = latex[:SHOWN_OF_LONG].rstrip() + " …"
        fence = _fence_for(head, 3)
        return (f"{fence}latex\n{head}\n{fence}\n\n*(The first {SHOWN_OF_LONG:,} of {len(latex):,} characters of "
                f"LaTeX: too long to read typeset. {whole} prints it whole.)*")
    if looks_like_sympy_text(latex):
        fence = _fence_for(latex, 3)
        return f"{fence}text\n{latex}\n{fence}\n\n*(SymPy form: the engine recorded no LaTeX for this step.)*"
    return display_math(latex)


# A Coq name in prose: qualified (`Ropecheck.Decay.x`) or a long snake_case theorem name.
_IDENTIFIER = re.compile(r"\bRopecheck(?:\.[A-Za-z0-9_']+)+|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9']+){3,}")


def prose(text: str) -> str:
    """Escaped text whose Coq names are code: on a phone a name such as
    `rope_decay_bound_monotone_literal_every_d_negation` wraps at the edge (code does, ropecheck.css) instead of
    running off the page."""

    def words(piece: str) -> str:  # `escape` folds the spaces at the ends too
        return (" " if piece[:1].isspace() else "") + escape(piece) + (" " if piece[-1:].isspace() else "")

    parts, position = [], 0
    for match in _IDENTIFIER.finditer(text):
        parts += [words(text[position : match.start()]), literal(match.group(0))]
        position = match.end()
    return "".join([*parts, words(text[position:])]).strip()


def rich_text(text: str) -> str:
    """Source text with its `$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]` math kept as math, its Coq names as code
    (`prose`) and the rest escaped."""
    out: list[str] = []
    position = 0
    for match in _MATH_IN_TEXT.finditer(text):
        out.append(prose(text[position : match.start()]))
        latex = next(group for group in match.groups() if group is not None)
        out.append(" " + inline_math(latex) + " ")
        position = match.end()
    out.append(prose(text[position:]))
    return "".join(out).strip()


def verdict_badge(verdict: str) -> str:
    """An inline HTML badge (styled in `_static/ropecheck.css`)."""
    if verdict.startswith("engine only"):
        return '<span class="verdict verdict-unknown">engine only (kernel not run)</span>'
    safe = re.sub(r"[^a-z]", "", verdict.lower()) or "unknown"
    return f'<span class="verdict verdict-{safe}">{safe}</span>'


def claim_ref(claim_id: str) -> str:
    """A `{claim}` citation."""
    return f"{{claim}}`{claim_id}`"


def list_table(
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    widths: Sequence[int] | None = None,
    css_class: str = "ropecheck-table",
) -> str:
    """A MyST `list-table` whose cells are Markdown (math roles with `|` inside are safe here); `css_class` adds
    `ropecheck-formulas` for a table of long formulas (ropecheck.css)."""
    lines = ["````{list-table}", ":header-rows: 1"]
    if widths:
        lines.append(":widths: " + " ".join(str(w) for w in widths))
    lines.append(f":class: {css_class}")
    lines.append("")
    for row in [header, *rows]:
        for index, cell in enumerate(row):
            text = cell if cell.strip() else "—"
            cell_lines = text.splitlines() or [""]
            lines.append(("* - " if index == 0 else "  - ") + cell_lines[0])
            lines.extend("    " + line if line else "" for line in cell_lines[1:])
    lines.append("````")
    return "\n".join(lines)


def format_number(value: object) -> str:
    """Numbers in evidence tables: 3 significant digits, strings (\"inf\") as given."""
    if isinstance(value, bool) or value is None:
        return "—" if value is None else str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.3g}"
    return escape(str(value))
