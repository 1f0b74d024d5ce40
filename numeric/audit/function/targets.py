"""Audit targets: what a `TARGET` string names (a module attribute, a file's attribute, a built-in adapter) and
which framework a callable is likely to use.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import importlib.util
import inspect
import re
import sys
import types
from pathlib import Path
from typing import Any

from ropecheck.numeric.audit.function.calls import FRAMEWORKS, AuditError, one_line

__all__ = ["LoadedTarget", "did_you_mean", "framework_hints", "load_target"]


@dataclasses.dataclass
class LoadedTarget:
    """What a `TARGET` string resolved to.

    **Fields:**

    - `name`: the string as given (or the callable's qualified name for the Python API).
    - `obj`: the attribute: a callable `fn(x, positions)`, or a class (a factory of such callables).
    - `adapter`: the built-in `AdapterSpec` when the name is a built-in target, else None.
    """

    name: str
    obj: Any
    adapter: Any = None

    @property
    def is_factory(self) -> bool:
        """Whether the target is a class whose instances are the RoPE callables."""
        return inspect.isclass(self.obj) and self.adapter is None


def load_target(spec: str) -> LoadedTarget:
    """Resolve `package.module:attr`, `path/to/file.py:attr` or a built-in adapter name.

    **Arguments:**

    - `spec`: the TARGET string.

    **Returns:**

    A `LoadedTarget`.

    **Raises:**

    `AuditError` with a one-line reason (module not found, attribute missing, not callable, unknown built-in).
    """
    module_part, colon, attribute = spec.rpartition(":")
    if not colon or not module_part or not attribute:
        return _load_builtin(spec)
    try:
        if module_part.endswith(".py") or "/" in module_part or "\\" in module_part:
            module = _load_file(Path(module_part))
        else:
            if str(Path.cwd()) not in sys.path and "" not in sys.path:
                sys.path.insert(0, str(Path.cwd()))
            module = importlib.import_module(module_part)
    except AuditError:
        raise
    except Exception as error:  # the user's module may raise anything at import
        raise AuditError(f"cannot import {module_part!r}: {one_line(error)}") from None
    obj: Any = module
    for part in attribute.split("."):
        if not hasattr(obj, part):
            public = [name for name in dir(obj) if not name.startswith("_") and callable(getattr(obj, name, None))]
            raise AuditError(f"{module_part!r} has no attribute {attribute!r}{did_you_mean(part, public)}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise AuditError(f"{spec!r} is a {type(obj).__name__}, not a callable fn(x, positions)")
    return LoadedTarget(name=spec, obj=obj)


def package_root(path: Path) -> tuple[Path, str]:
    """Where pytest's default import mode (prepend) imports a file from: walk up while the folder holds an
    `__init__.py`; the first folder that does not is the root put on `sys.path`, and the module's name is its dotted
    path from there (`tests/audit_corpus/real_alibi.py` → `tests.audit_corpus.real_alibi`).

    **Returns:** `(root folder, dotted module name)`; a file outside any package gives its own folder and stem.
    """
    path = path.resolve()
    parts = [path.stem]
    folder = path.parent
    while (folder / "__init__.py").is_file() and folder.parent != folder:
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts)


def _load_file(path: Path) -> types.ModuleType:
    if not path.is_file():
        raise AuditError(f"no such file: {str(path)!r}")
    root, dotted = package_root(path)
    if "." in dotted and dotted.split(".")[-1].isidentifier():
        # A file inside a package imports its own package (`from tests.corpus import x`): import it as pytest does.
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        try:
            module = importlib.import_module(dotted)
        except Exception as error:
            raise AuditError(
                f"cannot import {str(path)!r} (as {dotted}, from {str(root)!r}): {one_line(error)}"
            ) from None
        if Path(getattr(module, "__file__", "") or "").resolve() != path.resolve():
            raise AuditError(f"cannot import {str(path)!r}: the name {dotted} is already taken by"
                             f" {getattr(module, '__file__', None)!r}")
        return module
    name = f"_ropecheck_target_{abs(hash(str(path.resolve())))}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise AuditError(f"cannot load {str(path)!r} as a Python module")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    directory = str(path.resolve().parent)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise AuditError(f"cannot import {str(path)!r}: {one_line(error)}") from None
    return module


def _load_builtin(name: str) -> LoadedTarget:
    if importlib.util.find_spec("ropecheck.numeric.audit.adapters") is None:
        raise AuditError(f"unknown target {name!r} (expected package.module:attr or path/to/file.py:attr)")
    from ropecheck.numeric.audit.adapters import get_adapter, is_available

    try:
        spec = get_adapter(name)
    except KeyError:
        raise AuditError(
            f"unknown target {name!r}: not a built-in adapter, and not package.module:attr or path/to/file.py:attr"
            f"{did_you_mean(name, _builtin_names()) or _defined_here(name)}"
        ) from None
    available, reason = is_available(spec)
    if not available:
        raise AuditError(f"built-in target {name!r} cannot run here: {reason}")
    return LoadedTarget(name=name, obj=spec, adapter=spec)


def did_you_mean(word: str, candidates: list[str]) -> str:
    """`" (did you mean 'x'?)"` for the closest candidates (difflib, case-insensitive), or `""`.

    **Arguments:**

    - `word`: what the user typed.
    - `candidates`: the names that exist.

    **Returns:**

    The suffix to append to an error message.
    """
    folded = {candidate.lower(): candidate for candidate in candidates}
    close = difflib.get_close_matches(word.lower(), list(folded), n=3, cutoff=0.6)
    if close:  # the best match, and others only when about as close
        best = difflib.SequenceMatcher(None, word.lower(), close[0]).ratio()
        close = [key for key in close if difflib.SequenceMatcher(None, word.lower(), key).ratio() >= best - 0.05]
    close += [key for key in folded if key.startswith(word.lower()) and key not in close][: 3 - len(close)]
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(folded[key]) for key in close) + "?)"


def _defined_here(name: str) -> str:
    """`" (did you mean 'rope.py:NAME'?)"` when a Python file in the working directory (or one below it) defines
    a function or class `NAME` (read as text, never imported), else a reminder of the TARGET forms."""
    if not name.isidentifier():
        return ""
    pattern = re.compile(rf"^\s*(?:async\s+def|def|class)\s+{re.escape(name)}\b", re.MULTILINE)
    found = []
    for path in sorted([*Path.cwd().glob("*.py"), *Path.cwd().glob("*/*.py")])[:500]:
        try:
            if pattern.search(path.read_text(encoding="utf-8", errors="replace")):
                found.append(f"{path.relative_to(Path.cwd()).as_posix()}:{name}")
        except OSError:
            continue
    if found:
        return " (did you mean " + " or ".join(repr(target) for target in found[:3]) + "?)"
    return f" (a function in a file is path/to/file.py:{name})"


def _builtin_names() -> list[str]:
    """Every built-in target name: RoPE adapters and the other kinds' built-ins."""
    from ropecheck.numeric.audit.adapters import list_adapters

    names = [spec.name for spec in list_adapters()]
    try:
        from ropecheck.numeric.audit.adapters.kinds._registry import list_kind_adapters

        names += [adapter.name for adapter in list_kind_adapters()]
    except ImportError:
        pass
    return names


def framework_hints(obj: Any) -> list[str]:
    """Frameworks in the order worth trying: those the callable's module (or class) imports first.

    **Arguments:**

    - `obj`: the callable or class.

    **Returns:**

    A permutation of `FRAMEWORKS`.
    """
    found: list[str] = []
    candidates = [obj, type(obj), getattr(obj, "__func__", None), getattr(obj, "func", None)]
    for candidate in candidates:
        module = sys.modules.get(getattr(candidate, "__module__", "") or "")
        if module is None:
            continue
        for value in vars(module).values():
            root = getattr(value, "__name__", "").split(".")[0] if isinstance(value, types.ModuleType) else ""
            root = root or (getattr(value, "__module__", "") or "").split(".")[0]
            if root in ("torch", "jax", "jaxlib") and ("jax" if root == "jaxlib" else root) not in found:
                found.append("jax" if root == "jaxlib" else root)
    if any(cls.__module__.startswith("torch") for cls in type(obj).__mro__):
        found.insert(0, "torch")
    return [*found, *(name for name in FRAMEWORKS if name not in found)]
