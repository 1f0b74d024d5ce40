"""The package layout shows the architecture (GUIDE §1, ISSUE #18): each subsystem in its own room, no cycles.

The import graph is read from the source with `ast` (every `import`, at module level or inside a function), so
a cycle hidden in a function body counts. Rules: `proofs/` never imports `numeric/` or the command line;
inside `proofs/` the subsystems depend one way only (`engine` ← `kernel`, `engine`/`kernel` ← `prove`, `claims`);
no module imports itself back through any chain; no module is over 600 lines. Each rule is seen failing on a
graph with the defect.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"proofs": "ropecheck.proofs", "numeric": "ropecheck.numeric", "ropecheck": "ropecheck"}
ALLOWED = {
    "engine": set(),
    "kernel": set(),
    "prove": {"engine", "kernel"},
    "claims": {"engine", "kernel"},
}
MAX_LINES = 600


def _module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = list(relative.parts)
    top = PACKAGES[parts[0]].split(".")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(top + parts[1:])


def _sources() -> dict[str, Path]:
    found = {}
    for folder in PACKAGES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        name = target or ""
        for short, full in PACKAGES.items():
            if name == short or name.startswith(short + "."):
                return full + name[len(short) :]
        return name
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def import_graph(sources: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the project modules it imports (anywhere in its body)."""
    graph: dict[str, set[str]] = {}
    for module, path in sources.items():
        is_package = path.name == "__init__.py"
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [_resolve(module, is_package, 0, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, is_package, node.level, node.module)
                names = [base] + [f"{base}.{alias.name}" for alias in node.names]
            for name in names:
                while name and name not in sources:
                    name = name.rpartition(".")[0]
                if name and name != module and not module.startswith(name + "."):
                    edges.add(name)
        graph[module] = edges
    return graph


def unresolved_relative_imports(sources: dict[str, Path]) -> list[str]:
    """Relative imports (`from ..x import y`) that name no module of the project (a file moved, a stale path)."""
    bad = []
    for module, path in sources.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level > 0:
                base = _resolve(module, is_package, node.level, node.module)
                if base not in sources and not all(f"{base}.{a.name}" in sources for a in node.names):
                    bad.append(f"{module}: from {'.' * node.level}{node.module or ''} import ...")
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layering_violations(graph: dict[str, set[str]]) -> list[str]:
    """Edges that break the rules of the module docstring."""
    bad = []
    for module, edges in graph.items():
        for target in edges:
            if module.startswith("ropecheck.proofs") and not target.startswith("ropecheck.proofs"):
                bad.append(f"{module} -> {target} (proofs/ imports only itself)")
                continue
            mine, theirs = _subsystem(module), _subsystem(target)
            if mine in ALLOWED and theirs in ALLOWED and mine != theirs and theirs not in ALLOWED[mine]:
                bad.append(f"{module} -> {target} ({mine} may not import {theirs})")
    return sorted(bad)


def _subsystem(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[:2] == ["ropecheck", "proofs"] else None


GRAPH = import_graph(_sources())


def test_no_import_cycle() -> None:
    assert cycles(GRAPH) == []


def test_every_relative_import_names_a_module() -> None:
    assert unresolved_relative_imports(_sources()) == []


def test_a_stale_relative_import_is_seen(tmp_path: Path) -> None:
    (tmp_path / "cli.py").write_text("def f():\n    from ..._cli import gone\n", encoding="utf-8")
    assert unresolved_relative_imports({"ropecheck.numeric.audit.x.cli": tmp_path / "cli.py"})


def test_subsystems_depend_one_way() -> None:
    assert layering_violations(GRAPH) == []


def test_modules_stay_small() -> None:
    long = {m: n for m, p in _sources().items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_command_line_is_its_own_package() -> None:
    assert "ropecheck.cli" in GRAPH and "ropecheck.cli._main" in GRAPH
    old_homes = tuple("ropecheck.numeric." + name for name in ("_cli", "_claims", "audit.function.cli"))  # before
    assert not any(m.startswith(old_homes) for m in GRAPH)
    assert "ropecheck.cli._audit" in GRAPH
    # The command line sits on top: nothing below it (the auditor, the pytest plugin) imports it back.
    assert not [m for m, imports in GRAPH.items() if m.startswith("ropecheck.numeric.") and any(
        i.startswith("ropecheck.cli") for i in imports)]


@pytest.mark.parametrize(
    ("graph", "rule"),
    [
        ({"ropecheck.proofs.claims._a": {"ropecheck.proofs.claims._b"}, "ropecheck.proofs.claims._b": {
            "ropecheck.proofs.claims._a"}}, "cycle"),
        ({"ropecheck.proofs.kernel._a": {"ropecheck.proofs.claims._b"}, "ropecheck.proofs.claims._b": set()}, "layer"),
        ({"ropecheck.proofs.engine._a": {"ropecheck.numeric._b"}, "ropecheck.numeric._b": set()}, "layer"),
    ],
)
def test_the_rules_fail_on_a_defect(graph: dict[str, set[str]], rule: str) -> None:
    if rule == "cycle":
        assert cycles(graph) == [sorted(graph)]
    else:
        assert layering_violations(graph)


def test_a_cycle_through_a_function_body_is_seen(tmp_path: Path) -> None:
    package = tmp_path / "proofs"
    (package / "claims").mkdir(parents=True)
    (package / "claims" / "_a.py").write_text("from ._b import x\n", encoding="utf-8")
    (package / "claims" / "_b.py").write_text("def f():\n    from ._a import y\n", encoding="utf-8")
    sources = {
        "ropecheck.proofs.claims._a": package / "claims" / "_a.py",
        "ropecheck.proofs.claims._b": package / "claims" / "_b.py",
    }
    assert cycles(import_graph(sources)) == [sorted(sources)]


# An ID leads to its file by name (ISSUE #35): a claim whose ID names a topic is registered and bound in that
# topic's modules (`_claims_<topic>.py`, `_bound_<topic>.py`); the literature's IDs and the prose claims name none.
TOPIC_OF_PREFIX = {
    "ATT-": "attention",
    "SPE-": "sinusoidal",
    "RPE-": "relative",
    "BINARY-": "binary",
    "ROPE-DECAY-": "decay",
    "ROPE-KV-CACHE-": "cache",
}


def misplaced(modules: dict[str, list[str]]) -> list[tuple[str, str]]:
    """`(claim ID, module)` for each ID held by a module of another topic than its prefix names."""
    out = []
    for module, ids in modules.items():
        topic = module.rsplit("_", 1)[-1]
        for claim_id in ids:
            named = [t for prefix, t in TOPIC_OF_PREFIX.items() if claim_id.startswith(prefix)]
            if named and named[0] != topic and not module.endswith("_prose"):
                out.append((claim_id, module))
    return out


def _registry_modules() -> dict[str, list[str]]:
    import importlib

    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "proofs" / "claims").glob("_*.py")):
        if path.stem.startswith(("_bound_", "_claims_")) and path.stem != "_bound_statements":
            module = importlib.import_module(f"ropecheck.proofs.claims.{path.stem}")
            ids = list(module.BOUND) if path.stem.startswith("_bound_") else [c.id for c in module.CLAIMS]
            found[path.stem] = ids
    return found


def test_a_claim_id_leads_to_its_topic_files() -> None:
    """Seen failing before the move: RPE-SHIFT-INVARIANCE and RPE-KV-CACHE-IMPOSSIBLE in `_bound_rope`,
    ROPE-KV-CACHE-REUSE and ROPE-KV-CACHE-SIZE in `_claims_decay`/`_bound_decay`."""
    modules = _registry_modules()
    assert {"_bound_relative", "_claims_cache", "_bound_cache"} <= set(modules)
    assert misplaced(modules) == []
    assert misplaced({"_bound_rope": ["RPE-SHIFT-INVARIANCE", "ROPE-QK-RELATIVE"]}) == [
        ("RPE-SHIFT-INVARIANCE", "_bound_rope")
    ]
