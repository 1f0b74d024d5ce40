"""The model class's defaults for the keys a released config leaves out (Gemma 3 4B's `text_config` names neither
its head width, its heads, its bases nor its layer pattern: transformers fills them from `Gemma3TextConfig`).

Where they come from, in this order, and the report says which was used:

1. **the installed transformers' config class** for the config's `model_type` (when transformers is installed):
   its `__init__` signature defaults and its `default_theta` (transformers' default `rope_theta`; Gemma 3's is a
   `{"global", "local"}` pair, the second the sliding layers' base) — read from the class's source file with `ast`
   (literal values only), never by importing transformers, whose import costs several CPU-seconds (torch, dynamo);
2. **ropecheck's table** below, for what a class derives outside its signature (Gemma 3's `sliding_window_pattern`
   6 is read from `kwargs`) and for every key when transformers is absent — each value with the file:line of
   transformers 5.3.0 it was read from (a test compares the table with the installed classes).

Only the keys that bear on positions are filled, and only where the config lacks the key: a key present with
`null` stays null, as released. The layer pattern (`sliding_window_pattern`) only builds the layer list when the
config gives none (Gemma 3, Cohere2, EXAONE 4), so it is not filled when the config lists `layer_types` (Gemma 3
270M as released, which writes the old pattern as `_sliding_window_pattern`). A key the reading needs that neither
the config nor a default gives is still a one-line error naming the key (exit 2).

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import importlib.metadata
import importlib.util
from pathlib import Path
from typing import Any

__all__ = ["POSITION_KEYS", "TABLE", "ClassDefaults", "class_defaults"]

#: The keys whose defaults bear on the per-layer table.
POSITION_KEYS = (
    "head_dim", "hidden_size", "num_attention_heads", "num_hidden_layers", "max_position_embeddings",
    "query_pre_attn_scalar", "sliding_window", "sliding_window_pattern", "rope_theta", "rope_local_base_freq",
    "no_rope_layer_interval", "attn_temperature_tuning", "floor_scale", "attn_scale", "partial_rotary_factor",
    "use_sliding_window",
)

#: Keys whose only use is to derive `layer_types` when the config lists none: never filled beside a list.
_LAYER_LIST_ONLY = ("sliding_window_pattern",)

_GEMMA3 = "transformers 5.3.0 models/gemma3/configuration_gemma3.py"
_GEMMA3N = "transformers 5.3.0 models/gemma3n/configuration_gemma3n.py"
_LLAMA4 = "transformers 5.3.0 models/llama4/configuration_llama4.py"

#: model_type → {key: (value, where it was read)}; the fallback when the class cannot be imported, and the
#: defaults a class derives outside its signature (marked "derived").
TABLE: dict[str, dict[str, tuple[Any, str]]] = {
    "gemma3_text": {
        "hidden_size": (2304, f"{_GEMMA3}:138"), "num_hidden_layers": (26, f"{_GEMMA3}:140"),
        "num_attention_heads": (8, f"{_GEMMA3}:141"), "head_dim": (256, f"{_GEMMA3}:143"),
        "max_position_embeddings": (131072, f"{_GEMMA3}:145"), "query_pre_attn_scalar": (256, f"{_GEMMA3}:154"),
        "sliding_window": (4096, f"{_GEMMA3}:155"), "rope_theta": (1_000_000.0, f"{_GEMMA3}:133"),
        "rope_local_base_freq": (10_000.0, f"{_GEMMA3}:133"),
        "sliding_window_pattern": (6, f"{_GEMMA3}:193 (derived: read from kwargs, default 6)"),
    },
    "gemma3n_text": {
        "num_attention_heads": (8, f"{_GEMMA3N}:173"), "head_dim": (256, f"{_GEMMA3N}:175"),
        "max_position_embeddings": (32768, f"{_GEMMA3N}:177"),
    },
    "llama4_text": {
        "no_rope_layer_interval": (4, f"{_LLAMA4}:290"), "attn_temperature_tuning": (True, f"{_LLAMA4}:293"),
        "floor_scale": (8192, f"{_LLAMA4}:294"), "attn_scale": (0.1, f"{_LLAMA4}:295"),
    },
    "smollm3": {"no_rope_layer_interval": (4, "transformers 5.3.0 models/smollm3/configuration_smollm3.py:145")},
    "exaone4": {
        "sliding_window": (4096, "transformers 5.3.0 models/exaone4/configuration_exaone4.py:150"),
        "sliding_window_pattern": (4, "transformers 5.3.0 models/exaone4/configuration_exaone4.py:151"),
    },
    "cohere2": {
        "sliding_window": (4096, "transformers 5.3.0 models/cohere2/configuration_cohere2.py:141"),
        "sliding_window_pattern": (4, "transformers 5.3.0 models/cohere2/configuration_cohere2.py:176 (derived)"),
    },
}


@dataclasses.dataclass(frozen=True)
class ClassDefaults:
    """The defaults used for one config: `values` (key → value, only keys the config lacks), `sources` (key → where
    the value was read: the class, or the table with its file:line), `source` (in words, for the report)."""

    values: dict[str, Any]
    sources: dict[str, str]
    source: str

    def to_json(self) -> dict[str, Any]:
        """The `config.defaults` entry of the JSON report."""
        return {"source": self.source, "keys": {k: {"value": v, "from": self.sources[k]} for k, v in
                                                self.values.items()}}


def _literal_pairs(tree: ast.Module, name: str) -> dict[str, str]:
    """`NAME = OrderedDict[...]([("a", "b"), ...])` (or a dict literal) at the top of a module, as a dict."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value = node.value
            if isinstance(value, ast.Call) and value.args:
                value = value.args[0]
            with contextlib.suppress(ValueError, TypeError, SyntaxError):
                return dict(ast.literal_eval(value))
    return {}


@functools.lru_cache(maxsize=1)
def _transformers_tree() -> tuple[Path, str, dict[str, str], dict[str, str]] | None:
    """(package folder, version, model type → config class name, model type → module name) of the installed
    transformers, read from its source without importing it (the import costs seconds of CPU: torch, dynamo)."""
    spec = importlib.util.find_spec("transformers")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    try:
        version = importlib.metadata.version("transformers")
        tree = ast.parse((root / "models" / "auto" / "configuration_auto.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError, importlib.metadata.PackageNotFoundError):
        return None
    return root, version, _literal_pairs(tree, "CONFIG_MAPPING_NAMES"), _literal_pairs(
        tree, "SPECIAL_MODEL_TYPE_TO_MODULE_NAME")


_ARITHMETIC = {ast.Mult: lambda a, b: a * b, ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
               ast.FloorDiv: lambda a, b: a // b, ast.Pow: lambda a, b: a**b}


def _literal(node: ast.expr) -> Any:
    """A literal, or arithmetic on numeric literals (`4096 * 32`); raises `ValueError` for anything else."""
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
        left, right = _literal(node.left), _literal(node.right)
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (left, right)):
            raise ValueError("not numeric")
        if isinstance(node.op, ast.Pow) and abs(right) > 64:
            raise ValueError("exponent too large")
        return _ARITHMETIC[type(node.op)](left, right)
    return ast.literal_eval(node)


def _class_node(tree: ast.Module, name: str) -> ast.ClassDef | None:
    return next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name), None)


def _node_defaults(tree: ast.Module, node: ast.ClassDef) -> dict[str, Any]:
    """The literal `__init__` defaults and `default_theta` of a class (following bases defined in the same file)."""
    out: dict[str, Any] = {}
    for base in node.bases:  # a base in the same module first, so the class's own values win
        parent = _class_node(tree, base.id) if isinstance(base, ast.Name) else None
        if parent is not None:
            out.update(_node_defaults(tree, parent))
    for item in node.body:
        if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "default_theta"
                                                for t in item.targets):
            with contextlib.suppress(ValueError, TypeError, SyntaxError):
                out["default_theta"] = _literal(item.value)
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            arguments = item.args
            positional = arguments.args[len(arguments.args) - len(arguments.defaults):]
            pairs = [*zip(positional, arguments.defaults, strict=True),
                     *((a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d)]
            for argument, default in pairs:
                with contextlib.suppress(ValueError, TypeError, SyntaxError):
                    out[argument.arg] = _literal(default)
    return out


def _installed_class(model_type: str) -> tuple[str, str, dict[str, Any]] | None:
    """(class name, transformers version, the class's literal defaults) for `model_type` in the installed
    transformers, or None (not installed, no class, or a source the reader cannot follow)."""
    found = _transformers_tree()
    if found is None:
        return None
    root, version, classes, special = found
    name = classes.get(model_type)
    if name is None:
        return None
    module = special.get(model_type, model_type.replace("-", "_"))
    try:
        tree = ast.parse((root / "models" / module / f"configuration_{module}.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return None
    node = _class_node(tree, name)
    if node is None:
        return None
    literals = _node_defaults(tree, node)
    if "default_theta" not in literals:  # inherited from RotaryEmbeddingConfigMixin (modeling_rope_utils.py)
        literals["default_theta"] = _mixin_theta(root)
    return name, version, literals


@functools.lru_cache(maxsize=1)
def _mixin_theta(root: Path) -> Any:
    """transformers' default `rope_theta` for every config class (`RotaryEmbeddingConfigMixin.default_theta`)."""
    with contextlib.suppress(OSError, SyntaxError):
        tree = ast.parse((root / "modeling_rope_utils.py").read_text(encoding="utf-8"))
        node = _class_node(tree, "RotaryEmbeddingConfigMixin")
        if node is not None:
            return _node_defaults(tree, node).get("default_theta")
    return None


def _signature_defaults(literals: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in literals.items() if key in POSITION_KEYS and value is not None}
    theta = literals.get("default_theta")
    if isinstance(theta, dict):
        out["rope_theta"], out["rope_local_base_freq"] = theta.get("global"), theta.get("local")
    elif isinstance(theta, int | float) and not isinstance(theta, bool):
        out["rope_theta"] = float(theta)
    return {k: v for k, v in out.items() if v is not None}


def class_defaults(text: dict[str, Any], model_type: str, *, use_installed: bool = True) -> ClassDefaults:
    """The defaults for the position keys `text` lacks.

    **Arguments:** `text` (the text config), `model_type`, `use_installed` (False: the table only).

    **Returns:** the `ClassDefaults` (empty `values` when the config lacks nothing a source gives).
    """
    found = _installed_class(model_type) if use_installed else None
    table = TABLE.get(model_type, {})
    listed = text.get("layer_types") is not None
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if found is not None:
        name, version, literals = found
        for key, value in _signature_defaults(literals).items():
            if key not in text and not (listed and key in _LAYER_LIST_ONLY):
                values[key] = value
                sources[key] = f"transformers {version} {name}"
    for key, (value, where) in table.items():
        derived = "derived" in where
        if listed and key in _LAYER_LIST_ONLY:
            continue
        if key not in text and (key not in values) and (found is None or derived):
            values[key] = value
            sources[key] = f"ropecheck's table ({where})"
    used = sorted(set(sources.values()))
    if found is not None:
        source = f"transformers {found[1]} {found[0]}" + (" and ropecheck's table" if len(used) > 1 or any(
            s.startswith("ropecheck") for s in used) else "")
    else:
        source = "ropecheck's table (transformers not importable or no class)" if table else "none"
    return ClassDefaults(values, sources, source if values else "none needed")
