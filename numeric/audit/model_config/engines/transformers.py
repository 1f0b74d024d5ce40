"""Hugging Face transformers, live: the config loaded with `AutoConfig`, the model's own rotary module built from it
and called on positions of each length regime (so `dynamic_rope_update` and the LongRoPE switch run), and the
model's attention module built on the meta device (no weights, no memory) for its softmax scale.

- spectrum: the rotary module's `inv_freq` buffer (or `<layer_type>_inv_freq`) after the call, as fp32;
- attention factor: cos at position 0 (cos 0 = 1 times the factor), from the module's output;
- softmax scale: the attention module's `scaling`;
- the factor on q per position (Llama 4's NoPE layers, Ministral 3): the attention layer's own forward at the
  table's positions, with q made a unit vector and no rotation (`_query_factors`).

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

from ..._lean_import import lean_transformers
from .._errors import AdapterError
from .._expected import Expected
from .._layer_rules import NO_ROPE
from .._parse import ModelConfig
from ._base import EngineUnavailable, Observation, source_line

__all__ = ["NAME", "observe", "version"]

NAME = "transformers"


def version() -> str:
    """The installed version; raises `EngineUnavailable` when transformers or torch is missing."""
    try:
        with lean_transformers():
            import torch  # noqa: F401
            import transformers
    except ImportError as error:
        raise EngineUnavailable(str(error)) from None
    return str(transformers.__version__)


def _module_for(text: Any, top_model_type: str) -> Any:
    names = [getattr(text, "model_type", "") or "", top_model_type]
    for model_type in names:
        for name in (model_type, model_type.removesuffix("_text")):
            if not name:
                continue
            with contextlib.suppress(ImportError):
                return importlib.import_module(f"transformers.models.{name}.modeling_{name}")
    raise LookupError(f"no transformers modeling module for model type {names[0] or top_model_type!r}")


def _classes(module: Any, suffix: str) -> list[type]:
    found = [
        obj for name, obj in vars(module).items()
        if inspect.isclass(obj) and name.endswith(suffix) and "Vision" not in name and "Audio" not in name
        and obj.__module__ == module.__name__
    ]
    return sorted(found, key=lambda c: ("Text" not in c.__name__, len(c.__name__)))


class UnknownModelType(Exception):
    """transformers has no config class for the config's `model_type` (remote code is never run)."""


def _load(model: ModelConfig) -> tuple[Any, str]:
    """(the text config transformers builds, the top-level model type). Remote code is refused, never asked for."""
    from transformers import AutoConfig
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING_NAMES

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    top = str(model.raw.get("model_type") or model.model_type)
    if top not in CONFIG_MAPPING_NAMES:
        raise UnknownModelType(f"does not know model_type {top!r} (remote code is never trusted)")
    file = Path(model.path)
    config = AutoConfig.from_pretrained(str(file.parent if file.name == "config.json" else file),
                                        trust_remote_code=False)
    text = config.get_text_config()
    if isinstance(text, dict):  # a composite config that keeps its text part as a plain dict
        text = AutoConfig.for_model(**text)
    return text, str(config.model_type)


def _rotary(module: Any, text: Any) -> Any:
    """The first rotary class of `module` that builds from `text`. When every one raises, the first class's own
    error is raised again (with its traceback inside transformers: the engine could not build the config — never
    ropecheck's adapter error, which a LookupError raised here would have been)."""
    failures: list[Exception] = []
    for cls in _classes(module, "RotaryEmbedding"):
        try:
            return cls(config=text)
        except Exception as error:
            failures.append(error)
    if failures:
        raise failures[0]
    raise LookupError(f"no rotary module class in {module.__name__}")


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
    with lean_transformers():  # scipy and torchao are never reached here: not imported (issue #32's cost)
        version()
        with _quiet():
            return _observe(model, expected)


def _observe(model: ModelConfig, expected: list[Expected]) -> list[Observation]:
    try:
        text, top_model_type = _load(model)
        module = _module_for(text, top_model_type)
    except UnknownModelType as unknown:
        return [Observation(e.layer.layer_type, e.regime, error=str(unknown), unknown_model_type=True)
                for e in expected]
    except Exception as error:
        _raise_if_adapter_bug(error)
        return [Observation(e.layer.layer_type, e.regime, error=_one_line(error)) for e in expected]
    out = []
    for entry in expected:
        layer = entry.layer
        index = layer.layer_indices[0] if layer.layer_indices else 0
        observation = Observation(layer.layer_type, entry.regime)
        try:
            if layer.rope_type != NO_ROPE:  # a NoPE layer's spectrum is not applied: only whether it rotates counts
                with contextlib.redirect_stderr(io.StringIO()):
                    rotary = _rotary(module, text)  # fresh per regime: dynamic NTK caches what it grew to
                    observation.inv_freq, observation.attention_factor = _call(rotary, entry, text)
                where = _where(text, rotary, layer.layer_type)
                observation.where = {"spectrum": where, "attention_factor": where}
            observation.softmax_scale, observation.where["softmax_scale"] = _softmax_scale(module, text, index)
            observation.rotates, observation.where["rotates"] = _applies_rotation(module, text, index)
            if entry.query_scaling is not None:  # Llama 4's NoPE layers, Ministral 3: a factor on q per position
                positions = [int(p) for p in entry.query_scaling["factors"]]
                observation.query_factors, observation.where["query_scaling"] = _query_factors(
                    module, text, index, positions)
        except Exception as error:
            _raise_if_adapter_bug(error)
            observation.error = _one_line(error)
        out.append(observation)
    return out


def _applies_rotation(module: Any, text: Any, layer_index: int) -> tuple[bool | None, str]:
    """Whether attention layer `layer_index` applies the rotation: its forward run on the meta device (no weights,
    no arithmetic) with the module's `apply_rotary*` functions replaced by a recorder. None when the layer cannot be
    run that way (then nothing is claimed)."""
    import torch

    names = [name for name in vars(module) if name.startswith("apply_rotary") and callable(vars(module)[name])]
    if not names:
        return None, ""
    calls: list[str] = []
    originals = {name: vars(module)[name] for name in names}

    def recorder(name: str) -> Any:
        def record(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return originals[name](*args, **kwargs)
        return record

    built = _meta_attention(module, text, layer_index)
    if built is None or not built[2] or not built[3]:
        return None, ""
    cls, attention, head, hidden = built
    try:
        for name in names:
            setattr(module, name, recorder(name))
        with torch.device("meta"), torch.no_grad():
            states = torch.zeros(1, 2, hidden)
            cos = torch.ones(1, 2, head)
            embeddings = torch.ones(1, 2, head // 2, dtype=torch.complex64) if "llama4" in module.__name__ \
                else (cos, cos)
            attention(hidden_states=states, position_embeddings=embeddings, attention_mask=None,
                      cache_position=torch.arange(2))
    except Exception:  # the meta run is a probe: a layer that needs more than it gives says nothing
        return None, ""
    finally:
        for name, original in originals.items():
            setattr(module, name, original)
    return bool(calls), source_line(cls, "apply_rotary", _package_root())


def _meta_attention(module: Any, text: Any, layer_index: int) -> tuple[type, Any, int, int] | None:
    """The first attention class of `module` that builds for layer `layer_index` on the meta device (no weights, no
    memory): (class, the module, its head_dim, the config's hidden_size); None when none builds."""
    import torch

    for cls in _classes(module, "Attention"):
        try:
            with torch.device("meta"):
                attention = cls(text, layer_index)
        except Exception:  # a class that is not this layer's attention
            continue
        return cls, attention, int(getattr(attention, "head_dim", 0) or 0), int(getattr(text, "hidden_size", 0) or 0)
    return None


class _QueryCaptured(Exception):
    """Raised by the recorder once the attention layer has handed q to its attention function."""


def _query_factors(module: Any, text: Any, layer_index: int, positions: list[int]
                   ) -> tuple[dict[str, float] | None, str]:
    """The factor attention layer `layer_index` puts on q at each of `positions`: its own forward, run with
    `cache_position = positions`, an identity rotation (cos 1, sin 0), and projections that make q the unit vector
    e₀ of head 0 (no weights are built: the layer lives on the meta device, its q, k, v projections replaced); the
    query its attention function receives, at head 0, dim 0, is the factor. None when the layer cannot be run so."""
    import torch

    if not callable(vars(module).get("eager_attention_forward")):
        return None, ""

    class Projection(torch.nn.Module):
        def __init__(self, features: int, unit: bool) -> None:
            super().__init__()
            self.features, self.unit = features, unit

        def forward(self, hidden: Any) -> Any:
            out = torch.zeros(*hidden.shape[:-1], self.features)
            if self.unit:
                out[..., 0] = 1.0
            return out

    def recorder(_module: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        captured.append(query)
        raise _QueryCaptured

    captured: list[Any] = []
    original, implementation = module.eager_attention_forward, getattr(text, "_attn_implementation", None)
    built = _meta_attention(module, text, layer_index)
    if built is None:
        return None, ""
    cls, attention, head, hidden = built
    projections = [getattr(attention, name, None) for name in ("q_proj", "k_proj", "v_proj")]
    if not head or not hidden or not all(isinstance(p, torch.nn.Linear) for p in projections):
        return None, ""
    for name, projection in zip(("q_proj", "k_proj", "v_proj"), projections, strict=True):
        setattr(attention, name, Projection(projection.out_features, name == "q_proj"))
    count = len(positions)
    embeddings = torch.ones(1, count, head // 2, dtype=torch.complex64) if "llama4" in module.__name__ \
        else (torch.ones(1, count, head), torch.zeros(1, count, head))
    try:
        module.eager_attention_forward = recorder
        text._attn_implementation = "eager"  # the module's own attention function: the recorder
        with torch.no_grad():
            attention(hidden_states=torch.zeros(1, count, hidden), position_embeddings=embeddings,
                      attention_mask=None, cache_position=torch.tensor(positions))
    except _QueryCaptured:
        pass
    except Exception:  # the layer needs more than this probe gives: nothing is claimed
        return None, ""
    finally:
        module.eager_attention_forward = original
        text._attn_implementation = implementation
    if not captured:
        return None, ""
    query = captured[0]  # (batch, heads, positions, head_dim)
    factors = {str(p): float(query[0, 0, i, 0]) for i, p in enumerate(positions)}
    return factors, source_line(cls, "cache_position", _package_root())


def _raise_if_adapter_bug(error: BaseException) -> None:
    """An exception raised in ropecheck's own adapter code (not inside transformers or torch) is ropecheck's bug."""
    import traceback

    engine_roots = [Path(_package_root())]
    with contextlib.suppress(ImportError):
        import torch

        engine_roots.append(Path(torch.__file__).parent)
    own = Path(__file__).resolve().parent.parent
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        path = Path(frame.filename).resolve()
        if any(path.is_relative_to(root) for root in engine_roots):
            return
        if path.is_relative_to(own):
            raise AdapterError(f"transformers adapter ({path.name}:{frame.lineno}): {type(error).__name__}: "
                               f"{str(error).strip().splitlines()[0] if str(error).strip() else ''}") from error


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
