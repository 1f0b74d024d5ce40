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

html_theme = "alabaster"
html_theme_options = {
    "page_width": "1200px",
    "sidebar_width": "240px",
    "font_family": "serif",
    "head_font_family": "serif",
}
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"
html_title = "ropecheck claims"
html_show_sourcelink = False

# The conformance table of real libraries: the committed result of `ropecheck audit --all --json` (regenerated with
# `python -c "from numeric.audit.report.conformance import write_conformance as w; w('docs/conformance.json')"`;
# tests/test_conformance_published.py fails when it no longer matches the installed libraries).
import os  # noqa: E402

ropecheck_conformance_json = os.environ.get("ROPECHECK_CONFORMANCE_JSON") or "conformance.json"
