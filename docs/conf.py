"""Sphinx configuration of the ropecheck claims site.

Build: `python -m sphinx -W --keep-going -b html docs docs/_build/html`.

Everything is served from the built site itself: MathJax 3 is vendored under `_static/mathjax/`, and no theme
option loads fonts or scripts from the network.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path[:0] = [str(DOCS / "_ext"), str(DOCS.parent)]

project = "ropecheck"
author = "the ropecheck developers"
copyright = "the ropecheck developers"

extensions = ["myst_parser", "sphinx.ext.autodoc", "ropecheck_docs"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "generated/_parts", "Thumbs.db", ".DS_Store"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

# MathJax from the site itself, never from a CDN (its fonts load from beside the script).
mathjax_path = "mathjax/tex-chtml-full.js"

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"show-inheritance": False}

# pydata-sphinx-theme (the theme of NumPy and SciPy's docs): built-in search, readable at phone width. Nothing it
# shows is fetched from the network: no icon links, no analytics, no version switcher JSON.
html_theme = "pydata_sphinx_theme"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_center": ["ropecheck-pin"],
    "footer_end": [],
    "icon_links": [],
    "use_edit_page_button": False,
    "check_switcher": False,
    "navbar_end": ["theme-switcher", "navbar-icon-links"],
}
# No left "Section Navigation" column: the pages are reached from the top bar (the claims from the ledger), and on
# most pages the column was an empty 300 px strip that pushed wide tables (the conformance table) off the screen.
html_sidebars = {"**": []}
templates_path = ["_templates"]
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"
html_title = "ropecheck claims"

# What a page describes, pinned so that a citation can name it: the package version, the commit the site was
# built from and the build date (SOURCE_DATE_EPOCH when set, for reproducible builds).
import datetime as _datetime  # noqa: E402
import os as _os  # noqa: E402
import subprocess as _subprocess  # noqa: E402


def _commit() -> str:
    try:
        completed = _subprocess.run(
            ["git", "-C", str(DOCS.parent), "rev-parse", "--short=12", "HEAD"],
            capture_output=True, text=True, timeout=10, check=False,
        )
    except OSError:
        return "unknown"
    return completed.stdout.strip() if completed.returncode == 0 else "unknown"


def _build_date() -> str:
    epoch = _os.environ.get("SOURCE_DATE_EPOCH")
    moment = (
        _datetime.datetime.fromtimestamp(int(epoch), tz=_datetime.UTC)
        if epoch and epoch.isdigit()
        else _datetime.datetime.now(tz=_datetime.UTC)
    )
    return moment.strftime("%Y-%m-%d")


def _version() -> str:
    import tomllib

    with open(DOCS.parent / "pyproject.toml", "rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


release = version = _version()
ropecheck_commit = _commit()
ropecheck_build_date = _build_date()
html_context = {
    "ropecheck_commit": ropecheck_commit,
    "ropecheck_build_date": ropecheck_build_date,
    "default_mode": "light",  # pydata-sphinx-theme logs a console error when no mode is set
}
html_show_sourcelink = False

# The conformance table of real libraries: the committed result of `ropecheck audit --all --json` (regenerated with
# `python -c "from numeric.audit.report.conformance import write_conformance as w; w('docs/conformance.json')"`;
# tests/test_conformance_published.py fails when it no longer matches the installed libraries).
import os  # noqa: E402

ropecheck_conformance_json = os.environ.get("ROPECHECK_CONFORMANCE_JSON") or "conformance.json"
