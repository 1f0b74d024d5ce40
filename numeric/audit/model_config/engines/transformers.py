"""Hugging Face transformers, live: the config loaded with `AutoConfig`, the model's own rotary module built from it
and called on positions of each length regime (so `dynamic_rope_update` and the LongRoPE switch run), and the
model's attention module built on the meta device (no weights, no memory) for its softmax scale.

- spectrum: the rotary module's `inv_freq` buffer (or `<layer_type>_inv_freq`) after the call, as fp32;
- attention factor: cos at position 0 (cos 0 = 1 times the factor), from the module's output;
- softmax scale: the attention module's `scaling`.

Claims served: ROPE-FREQUENCIES.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import os
from pathlib import Path
from typing import Any

from .._expected import Expected
from .._parse import ModelConfig
from ._base import EngineUnavailable, Observation, source_line

__all__ = ["NAME", "observe", "version"]

NAME = "transformers"


def version() -> str:
    """The installed version; raises `EngineUnavailable` when transformers or torch is missing."""
    try:
        import torch  # noqa: F401
        import transformers
    except ImportError as error:
        raise EngineUnavailable(str(error)) from None
    return str(transformers.__version__)


def _module_for(config: Any) -> Any:
    for model_type in (getattr(config, "model_type", ""), getattr(config, "_top_model_type", "")):
        for name in (model_type, model_type.removesuffix("_text")):
            if not name:
                continue
            with contextlib.suppress(ImportError):
                return importlib.import_module(f"transformers.models.{name}.modeling_{name}")
    raise LookupError(f"no transformers modeling module for model type {getattr(config, 'model_type', '?')!r}")


def _classes(module: Any, suffix: str) -> list[type]:
    found = [
        obj for name, obj in vars(module).items()
        if inspect.isclass(obj) and name.endswith(suffix) and "Vision" not in name and "Audio" not in name
        and obj.__module__ == module.__name__
    ]
    return sorted(found, key=lambda c: ("Text" not in c.__name__, len(c.__name__)))


def _load(model: ModelConfig) -> tuple[Any, Any]:
    from transformers import AutoConfig

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with contextlib.redirect_stderr(io.StringIO()):  # validation warnings are not findings
        file = Path(model.path)
        config = AutoConfig.from_pretrained(str(file.parent if file.name == "config.json" else file))
    text = config.get_text_config()
    text._top_model_type = config.model_type
    return config, text


def _rotary(module: Any, text: Any) -> Any:
    errors = []
    for cls in _classes(module, "RotaryEmbedding"):
        try:
            return cls(config=text)
        except Exception as error:
            errors.append(f"{cls.__name__}: {error}")
    raise LookupError("no rotary module could be built: " + "; ".join(errors))


def _softmax_scale(module: Any, text: Any, layer_index: int) -> tuple[float | None, str]:
    import torch

    for cls in _classes(module, "Attention"):
        try:
            with torch.device("meta"):
                attention = cls(text, layer_index)
        except Exception:
            continue
        if hasattr(attention, "scaling"):
            return float(attention.scaling), source_line(cls, "self.scaling", _package_root())
    return None, ""


def _package_root() -> str:
    import transformers

    return str(Path(transformers.__file__).parent)


def _call(rotary: Any, expected: Expected, text: Any) -> tuple[list[float], float]:
    import torch

    layer = expected.layer
    last = max(expected.length - 1, 1)
    positions = torch.tensor([[0, 1, last]])
    if layer.mrope_section is not None:
        positions = positions.expand(3, 1, 3)
    x = torch.zeros(1, 3, layer.head_dim, dtype=torch.float32)
    kwargs = {}
    if "layer_type" in inspect.signature(rotary.forward).parameters and layer.layer_type != "all":
        kwargs["layer_type"] = layer.layer_type
    with torch.no_grad():
        out = rotary(x, positions, **kwargs)
    # (cos, sin) for most models; DeepSeek-V2 returns one complex tensor, attention factor · e^{iθp}
    cos = out[0] if isinstance(out, tuple) else (out.real if out.is_complex() else out)
    prefix = f"{layer.layer_type}_" if kwargs else ""
    inv_freq = getattr(rotary, f"{prefix}inv_freq")
    return [float(v) for v in inv_freq.double()], float(cos.reshape(-1, cos.shape[-1])[0, 0])


def _where(text: Any, rotary: Any, layer_type: str) -> str:
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    params = text.rope_parameters or {}
    if layer_type in params and isinstance(params[layer_type], dict):
        params = params[layer_type]
    function = ROPE_INIT_FUNCTIONS.get(params.get("rope_type", "default"), rotary.compute_default_rope_parameters)
    return source_line(function, None, _package_root())


@contextlib.contextmanager
def _quiet() -> Any:
    """transformers logs config validation warnings through its own handler: the findings say what matters."""
    from transformers.utils import logging as hf_logging

    level = hf_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            yield
    finally:
        hf_logging.set_verbosity(level)


def observe(model: ModelConfig, expected: list[Expected]) -> list[Observation]:
    """The engine's values for each expected (layer type, regime).

    **Arguments:** `model` (the parsed config; its file is loaded again by transformers), `expected`.

    **Returns:** one `Observation` per entry of `expected` (with `error` set when transformers cannot load or build
    the config).
    """
    version()
    with _quiet():
        return _observe(model, expected)


def _observe(model: ModelConfig, expected: list[Expected]) -> list[Observation]:
    try:
        _, text = _load(model)
        module = _module_for(text)
    except Exception as error:
        return [Observation(e.layer.layer_type, e.regime, error=_one_line(error)) for e in expected]
    out = []
    for entry in expected:
        observation = Observation(entry.layer.layer_type, entry.regime)
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                rotary = _rotary(module, text)  # fresh per regime: dynamic NTK caches what it grew to
                observation.inv_freq, observation.attention_factor = _call(rotary, entry, text)
            where = _where(text, rotary, entry.layer.layer_type)
            observation.where = {"spectrum": where, "attention_factor": where}
            observation.softmax_scale, observation.where["softmax_scale"] = _softmax_scale(
                module, text, entry.layer.layer_indices[0] if entry.layer.layer_indices else 0
            )
        except Exception as error:
            observation.error = _one_line(error)
        out.append(observation)
    return out


def _one_line(error: BaseException) -> str:
    """The error in one line, with the engine's file:line where it was raised."""
    import traceback

    text = str(error).strip().splitlines()
    frames = traceback.extract_tb(error.__traceback__)
    root = Path(_package_root())
    where = ""
    for frame in reversed(frames):
        if Path(frame.filename).is_relative_to(root):
            where = f" at {Path(frame.filename).relative_to(root.parent)}:{frame.lineno}"
            break
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300] + where
