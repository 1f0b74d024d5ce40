"""Sphinx extension for the ropecheck claims site.

- Generates, at `builder-inited`, the pages under `docs/generated/` from the claims registry (or from the JSON file
  named by `ropecheck_claims_json`): the ledger, one page per claim, the errata and, for the full site, the plots,
  the audit guide's generated parts, the conformance table and the API reference.
- Adds the `{claim}` role: `` {claim}`ROPE-RELATIVE-MATRIX` `` links to the claim's page; an unknown ID is an
  error that fails the build (with or without `-W`).
- Adds the `ropecheck-markdown` directive, through which autodoc renders the project's Markdown docstrings.

**Configuration** (in `conf.py`):

- `ropecheck_claims_json`: path (relative to `conf.py`) of a `ropecheck claims --json` file; empty: the registry.
- `ropecheck_full_site`: also generate plots, audit pages and API reference (default True).
- `ropecheck_conformance_json`: path of a `ropecheck audit --all --json` result for the conformance table (the
  environment variable `ROPECHECK_CONFORMANCE_JSON` is read when this is empty).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from docutils.utils import new_document
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from . import _pages
from ._data import load_claims
from ._marks_page import mark_lists
from ._pages import claim_docname, claim_page, errata_page, ledger_page
from ._sources_page import sources_page

logger = logging.getLogger(__name__)

GENERATED = "generated"


class UnknownClaimError(ExtensionError):
    """A `{claim}` citation names an ID that is not in the ledger."""


# ------------------------------------------------------------------------------------------------ files
def write_if_changed(path: Path, text: str) -> None:
    """Write `text` unless the file already holds it (an unchanged mtime keeps Sphinx's incremental build)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _remove_stale(directory: Path, keep: set[str], suffix: str) -> None:
    if directory.is_dir():
        for path in directory.glob(f"*{suffix}"):
            if path.name not in keep:
                path.unlink()


def generate(app: Sphinx) -> None:
    """Write every generated page; remember the claim IDs for the `{claim}` role."""
    srcdir = Path(app.srcdir)
    _pages.PIN.update(
        version=str(app.config.release or "?"),
        commit=app.config.ropecheck_commit,
        date=app.config.ropecheck_build_date,
    )
    claims = load_claims(app.config.ropecheck_claims_json, app.confdir)
    app.ropecheck_claims = {claim["id"]: claim for claim in claims}  # type: ignore[attr-defined]
    # The `{claim}` role reads them from the environment it is given (`env.app` is deprecated in Sphinx 9).
    app.env.ropecheck_claims = app.ropecheck_claims  # type: ignore[attr-defined]
    figures: dict[str, list[tuple[str, str]]] = {}
    if app.config.ropecheck_full_site:
        from ._plots import claim_figures, make_plots

        plots = make_plots(srcdir / GENERATED / "plots")
        figures = claim_figures(plots, set(app.ropecheck_claims))  # type: ignore[attr-defined]
        from ._audit_pages import write_audit_pages

        write_audit_pages(app, srcdir / GENERATED, plots)
        from ._api import api_page

        write_if_changed(srcdir / GENERATED / "api.md", api_page())
    claims_dir = srcdir / GENERATED / "claims"
    for claim in claims:
        write_if_changed(claims_dir / f"{claim['id']}.md", claim_page(claim, figures.get(claim["id"], [])))
    _remove_stale(claims_dir, {f"{claim['id']}.md" for claim in claims}, ".md")
    write_if_changed(srcdir / GENERATED / "ledger.md", ledger_page(claims))
    write_if_changed(srcdir / GENERATED / "errata.md", errata_page(claims))
    write_if_changed(srcdir / GENERATED / "sources.md", sources_page(claims))
    if app.config.ropecheck_full_site:  # a fragment docs/numerics.md includes (docs/conf.py excludes _parts)
        write_if_changed(srcdir / GENERATED / "_parts" / "mark_lists.md", mark_lists(claims))
    write_if_changed(
        srcdir / GENERATED / "claims.md",
        "# Claims\n\n```{toctree}\n:maxdepth: 1\n:glob:\n\nclaims/*\n```\n",
    )


# ------------------------------------------------------------------------------------------------ role
def claim_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Inliner,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """`` {claim}`ID` ``: a link to the claim's page; an unknown ID is reported and fails the build."""
    env: BuildEnvironment = inliner.document.settings.env
    claim_id = text.strip()
    known: dict[str, dict[str, Any]] = getattr(env, "ropecheck_claims", {})
    if claim_id not in known:
        unknown = env.ropecheck_unknown_claims  # type: ignore[attr-defined]
        unknown.setdefault(env.docname, []).append((claim_id, lineno))
        message = inliner.reporter.error(
            f"unknown claim ID {claim_id!r} in {{claim}} role (the ledger has {len(known)} claims; see the ledger "
            "page for their IDs)",
            line=lineno,
        )
        problem = inliner.problematic(rawtext, rawtext, message)
        return [problem], [message]
    claim = known[claim_id]
    reference = addnodes.pending_xref(
        rawtext,
        refdomain="std",
        reftype="doc",
        reftarget="/" + claim_docname(claim_id),
        refexplicit=True,
        refwarn=True,
    )
    reference += nodes.literal(rawtext, claim_id, classes=["xref", "claim", f"claim-{claim['verdict']}"])
    return [reference], []


def _init_env(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    if not hasattr(env, "ropecheck_unknown_claims"):
        env.ropecheck_unknown_claims = {}  # type: ignore[attr-defined]


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, "ropecheck_unknown_claims", {}).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    for docname in docnames:
        if docname in getattr(other, "ropecheck_unknown_claims", {}):
            env.ropecheck_unknown_claims[docname] = other.ropecheck_unknown_claims[docname]  # type: ignore[attr-defined]


def _check_unknown(app: Sphinx, env: BuildEnvironment) -> None:
    """Fail the build when any document cites an unknown claim ID (after every document was read)."""
    unknown = getattr(env, "ropecheck_unknown_claims", {})
    if unknown:
        where = "; ".join(
            f"{doc}:{line} {claim_id}" for doc, items in sorted(unknown.items()) for claim_id, line in items
        )
        raise UnknownClaimError(f"unknown claim IDs cited: {where}")


# ------------------------------------------------------------------------------------------------ docstrings
class MarkdownDocstring(SphinxDirective):
    """Parse the directive's content as MyST Markdown (the project's docstrings are Markdown, not RST)."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        from myst_parser.parsers.sphinx_ import MystParser

        text = "\n".join(_demote_headings(list(self.content)))
        document = new_document(self.env.docname, self.state.document.settings)
        document.reporter = self.state.document.reporter
        MystParser().parse(text, document)
        return list(document.children)


def _demote_headings(lines: list[str]) -> list[str]:
    """Markdown headings inside a docstring become bold paragraphs (sections cannot nest in an API entry)."""
    out = []
    in_fence = False
    for line in lines:
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if not in_fence and line.startswith("#"):
            title = line.lstrip("#").strip()
            out.append(f"**{title}**" if title else "")
        else:
            out.append(line)
    return out


def _markdown_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Hand each Markdown docstring to `ropecheck-markdown` instead of the RST parser."""
    if not lines or not app.config.ropecheck_markdown_docstrings:
        return
    body = [".. ropecheck-markdown::", ""] + [("   " + line) if line.strip() else "" for line in lines]
    lines[:] = body


# ------------------------------------------------------------------------------------------------ setup
def _add_static(app: Sphinx, config: Any) -> None:
    config.html_static_path.append(str(Path(__file__).parent / "static"))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register config values, the `{claim}` role, the Markdown docstring directive and the generators."""
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.mathjax")
    app.add_config_value("ropecheck_claims_json", "", "env", [str])
    app.add_config_value("ropecheck_full_site", True, "env", [bool])
    app.add_config_value("ropecheck_conformance_json", os.environ.get("ROPECHECK_CONFORMANCE_JSON", ""), "env", [str])
    app.add_config_value("ropecheck_markdown_docstrings", True, "env", [bool])
    app.add_config_value("ropecheck_commit", "unknown", "env", [str])
    app.add_config_value("ropecheck_build_date", "?", "env", [str])
    app.add_role("claim", claim_role)
    app.add_directive("ropecheck-markdown", MarkdownDocstring)
    app.connect("builder-inited", generate)
    app.connect("env-before-read-docs", _init_env)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-updated", _check_unknown)
    app.connect("autodoc-process-docstring", _markdown_docstring)
    app.connect("config-inited", _add_static)
    app.add_css_file("ropecheck.css")
    from ._search import SearchEnglishOnce

    app.add_search_language(SearchEnglishOnce)  # the same index, each distinct word stemmed once
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
