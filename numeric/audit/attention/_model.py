"""A tiny random-init transformers model built from a config, driven one call at a time like `generate`.

`TinyModel.step(input_ids, attention_mask, position_ids, past)` is the attention-level target: logits for the
new tokens and the KV cache to thread into the next call. Positions default to what `generate` derives from the
attention mask (`cumsum − 1`, pads at 0), so left padding, right padding and batches exercise the real cache and
masks. The model runs in float64; transformers forms its angles in float32 (`pos.float() · inv_freq.float()`),
which the bounds of `ropecheck.numeric.reference.tolerances` account for.

Claims served: ROPE-KV-CACHE-REUSE, ROPE-QK-RELATIVE (through the checks that drive this model).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ._configs import (
    EXPERT_COUNT_KEYS,
    KEEP_VISION,
    SAME_ARCHITECTURE,
    TINY_EXPERTS,
    TINY_EXPERTS_PER_TOKEN,
    ConfigError,
    load_config,
    shrink_config,
)

__all__ = ["ModelFactoryError", "TinyModel", "build_tiny_model", "expected_per_layer", "load_model_factory"]

# Model types whose attention derives head_dim from hidden_size // heads (the width must follow the head).
_HEAD_DIM_FROM_WIDTH = {"qwen2_vl", "qwen2_5_vl", "phi3"}
# Length-dependent spectra are shrunk so that their switch point is reachable by a tiny model.
SWITCH_LENGTH = 32
# Token ids of the vision markers in the tiny vocabulary.
VISION_TOKENS = {"image_token_id": 40, "video_token_id": 41, "vision_start_token_id": 42, "vision_end_token_id": 43}


@dataclass
class TinyModel:
    """A tiny random-init model and what the checks need to know about it.

    **Fields:** `name`; `model` (the torch module, float64, eval); `config` (the text config the model reads);
    `rope` (the rope parameters per layer type, as transformers standardised them); `notes` (what was changed
    from the given config, in words).
    """

    name: str
    model: Any
    config: Any
    rope: dict[str, dict[str, Any]]
    notes: list[str] = field(default_factory=list)
    takes_positions: bool = True
    dtype: str = "float64"
    window: int | None = None  # the sliding window the config declares (kept apart from what the model uses)
    #: Per layer index, the expected values of `audit-config`'s table at short lengths (an `Expected`: rope type,
    #: θᵢ, attention factor, softmax scale), computed from the config the model was built from; empty when the
    #: table cannot read it (`expected_error` says why).
    expected: list[Any] = field(default_factory=list)
    expected_error: str = ""
    #: What each layer applied in the last observation (`_applied.observe_layers`), shared by the properties of one
    #: audit; `audit_model` clears it first.
    layer_views: list[Any] | None = None

    # -------------------------------------------------------------------------------------- the target
    def positions_from_mask(self, attention_mask: Any) -> Any:
        """Positions as `generate` derives them: the number of real tokens before each one (pads at 0)."""
        return (attention_mask.long().cumsum(-1) - 1).clamp(min=0)

    def step(self, input_ids: Any, attention_mask: Any = None, position_ids: Any = None, past: Any = None
             ) -> tuple[Any, Any]:
        """One forward call with the KV cache.

        **Arguments:**

        - `input_ids`: `[B, T]` new tokens.
        - `attention_mask`: `[B, past + T]` (1 real, 0 pad), all ones when omitted.
        - `position_ids`: `[B, T]` or `[3, B, T]` (M-RoPE); from the mask when omitted.
        - `past`: the cache returned by the previous call, or None.

        **Returns:**

        `(logits [B, T, V] float64, cache)`.
        """
        import torch
        from transformers import DynamicCache

        batch, length = input_ids.shape
        seen = 0 if past is None else past.get_seq_length()
        if attention_mask is None:
            attention_mask = torch.ones(batch, seen + length, dtype=torch.long)
        if position_ids is None:
            position_ids = self.positions_from_mask(attention_mask)[:, -length:]
        cache = past if past is not None else DynamicCache(config=self.config)
        inputs = {"input_ids": input_ids, "attention_mask": attention_mask, "past_key_values": cache,
                  "cache_position": torch.arange(seen, seen + length), "use_cache": True}
        if self.takes_positions:  # BLOOM derives its ALiBi positions from the mask and takes none
            inputs["position_ids"] = position_ids
        with torch.no_grad():
            out = self.model(**inputs)
        return out.logits.to(torch.float64), out.past_key_values

    # ------------------------------------------------------------------------------------ grey-box views
    def attention_modules(self) -> list[Any]:
        """The decoder's self-attention modules, in layer order."""
        layers = getattr(self.text_model(), "layers", None) or self.text_model().h  # BLOOM: transformer.h
        return [getattr(layer, "self_attn", None) or layer.self_attention for layer in layers]

    def text_model(self) -> Any:
        inner = getattr(self.model, "model", None) or self.model.transformer
        return getattr(inner, "language_model", inner)

    def layer_types(self) -> list[str]:
        types = getattr(self.config, "layer_types", None)
        return list(types) if types else ["full_attention"] * len(self.attention_modules())

    @contextlib.contextmanager
    def record_attention(self) -> Iterator[list[dict[str, Any]]]:
        """Record, per attention call, the rotated query and key, the mask, the scale argument, the returned
        weights and the `position_embeddings` (cos, sin) the layer received (run with eager attention, whose
        softmax is float32)."""
        records: list[dict[str, Any]] = []
        handles = []
        implementation = self.config._attn_implementation
        self.model.set_attn_implementation("eager")  # the only one that returns its weights
        patched: dict[Any, Any] = {}
        for index, module in enumerate(self.attention_modules()):
            def pre_hook(mod: Any, args: Any, kwargs: Any, index: int = index) -> None:
                records.append({"layer": index, "position_embeddings": kwargs.get("position_embeddings")})
            handles.append(module.register_forward_pre_hook(pre_hook, with_kwargs=True))
            source = sys.modules[type(module).__module__]
            if source not in patched and hasattr(source, "eager_attention_forward"):
                patched[source] = source.eager_attention_forward

        def wrap(original: Any) -> Any:
            def recorded(module: Any, query: Any, key: Any, value: Any, attention_mask: Any, **kwargs: Any) -> Any:
                output, weights = original(module, query, key, value, attention_mask, **kwargs)
                records[-1].update(query=query, key=key, mask=attention_mask, weights=weights,
                                   scaling=kwargs.get("scaling"))
                return output, weights
            return recorded

        for source, original in patched.items():
            source.eager_attention_forward = wrap(original)
        try:
            yield records
        finally:
            for source, original in patched.items():
                source.eager_attention_forward = original
            for handle in handles:
                handle.remove()
            self.model.set_attn_implementation(implementation)


def _hf_config(config: dict[str, Any]) -> Any:
    from transformers import AutoConfig

    settings = dict(config)
    model_type = settings.pop("model_type")
    settings.pop("architectures", None)
    settings.pop("torch_dtype", None)
    settings.pop("dtype", None)
    if model_type in KEEP_VISION:
        vision = settings.pop("vision_config", {}) or {}
        vision = {**vision, "depth": 1, "hidden_size": 32, "intermediate_size": 32, "num_heads": 2,
                  "out_hidden_size": settings["hidden_size"], "fullatt_block_indexes": [0]}
        for key in ("image_token_id", "video_token_id", "vision_start_token_id", "vision_end_token_id"):
            settings.pop(key, None)
        top = dict(VISION_TOKENS)  # the released ids lie beyond the tiny vocabulary
        made = AutoConfig.for_model(model_type, text_config=settings, vision_config=vision, **top)
    else:
        made = AutoConfig.for_model(model_type, **settings)
    # sdpa keeps the softmax in float64; eager's float32 softmax turns float64's mask minimum into −inf, so a
    # fully masked pad row is NaN and 0·NaN spreads to every token of a left-padded batch (measured, 5.3.0).
    made._attn_implementation = "sdpa"
    made._experts_implementation = "eager"  # grouped_mm has no float64 kernel
    made.tie_word_embeddings = False
    return made


#: The routing fields filled when a MoE config lacks them, and the expert counts shrunk with them.
_ROUTING = {"num_experts_per_tok": TINY_EXPERTS_PER_TOKEN, "moe_intermediate_size": 32, "n_group": 1, "topk_group": 1}


def _complete_routing(made: Any, given: dict[str, Any]) -> str:
    """Fill the routing fields a MoE config omits where its transformers class defaults leave the model unable to
    run: DeepSeek-V2's class builds 64 routed experts by default but routes `num_experts_per_tok` = None of them
    (`topk(k=None)` in its forward; transformers 5.3.0 `configuration_deepseek_v2.py`), so a config with the rope
    keys and no routing fields (the case `deepseek-v2-lite-mscale`) builds a model that cannot run. The routing
    decides no position: the fields are filled as the builder shrinks them (`_shrink_experts`): 2 experts per
    token, at most 4 experts, one expert group (DeepSeek-V2-Lite's released `n_group` = `topk_group` = 1; vLLM's
    CPU router asserts both are set, vllm/model_executor/layers/fused_moe/router/cpu_router.py:211-212). A field
    the config sets, even to null, is kept as given.

    **Arguments:** `made` (the transformers config, changed in place), `given` (the shrunk config dict).

    **Returns:** a note saying what was filled, or "" when nothing was.
    """
    text = made.get_text_config()
    if getattr(text, "num_experts_per_tok", 0) is not None or "num_experts_per_tok" in given:
        return ""
    counts = [key for key in EXPERT_COUNT_KEYS if getattr(text, key, None)]
    if not counts:
        return ""
    filled = {key: min(int(getattr(text, key)), TINY_EXPERTS) for key in counts if key not in given}
    filled.update({key: value for key, value in _ROUTING.items() if hasattr(text, key) and key not in given})
    for key, value in filled.items():
        setattr(text, key, value)
    return "routing fields the config lacks filled (its class would route None experts): " + ", ".join(
        f"{key} {value}" for key, value in filled.items())


def expected_per_layer(config: dict[str, Any], count: int) -> tuple[list[Any], str]:
    """The expected table of `audit-config` (`ropecheck.numeric.audit.model_config`) per layer index, at the
    shortest length regime (the one the tiny model's probes stay in).

    **Arguments:** `config` (the config dict the tiny model is built from), `count` (its layers).

    **Returns:** `(one Expected per layer, "")`, or `([], the reason)` when the table cannot read the config.
    """
    from ..model_config import ConfigError as TableError
    from ..model_config import expected_values, parse_config

    try:
        parsed = parse_config(config)
        table: list[Any] = [None] * count
        for layer in parsed.layers:
            first = expected_values(layer)[0]
            for index in layer.layer_indices:
                if index < count:
                    table[index] = first
    except (TableError, ValueError, TypeError, KeyError, ZeroDivisionError) as error:
        return [], f"the expected table cannot read this config: {error}"
    if any(entry is None for entry in table):
        return [], "the expected table does not cover every layer"
    return table, ""


def build_tiny_model(source: str | dict[str, Any], seed: int = 0, factory: Callable[[Any], Any] | None = None
                     ) -> TinyModel:
    """Build the tiny float64 model of a config (a built-in name, a `config.json` path, or a dict).

    **Arguments:**

    - `source`: see `load_config`.
    - `seed`: the torch seed of the random initialisation.
    - `factory`: builds the model instead of transformers' auto class: called with the shrunk transformers config,
      it returns a torch module with the causal-LM interface (`input_ids`, `position_ids`, `attention_mask`,
      `past_key_values` → `.logits`), e.g. a patched copy of the library class (`--model MODULE:FACTORY`).

    **Returns:**

    A `TinyModel`; raises `ConfigError` (one line) when transformers cannot build it, and `ModelFactoryError`
    (one line) when the factory raises or returns something that is not such a module.
    """
    import torch
    import transformers

    transformers.logging.set_verbosity_error()  # its config warnings are not findings of this audit
    name, raw = load_config(source)
    config = shrink_config(raw)
    notes = ["widths, depth and vocabulary shrunk; rope fields kept"]
    if raw.get("model_type") in SAME_ARCHITECTURE:
        notes.append(f"model_type {raw['model_type']!r} built as {config['model_type']!r}, the transformers class "
                     f"its released `architectures` names")
    if config["model_type"] in _HEAD_DIM_FROM_WIDTH and config.get("head_dim"):
        config["hidden_size"] = int(config["head_dim"]) * config["num_attention_heads"]
    scaling = config.get("rope_scaling") or config.get("rope_parameters") or {}
    kind = scaling.get("rope_type", scaling.get("type")) if isinstance(scaling, dict) else None
    if kind in {"longrope", "dynamic", "su"}:
        factor = config["max_position_embeddings"] / config.get(
            "original_max_position_embeddings", scaling.get("original_max_position_embeddings", 1)) \
            if kind != "dynamic" else scaling.get("factor", 2.0)
        for holder in (config, scaling):
            if "original_max_position_embeddings" in holder:
                holder["original_max_position_embeddings"] = SWITCH_LENGTH
        config["max_position_embeddings"] = int(SWITCH_LENGTH * factor) if kind != "dynamic" else SWITCH_LENGTH
        notes.append(f"{kind}: switch length shrunk to {SWITCH_LENGTH} so a tiny model reaches it")
    try:
        hf_config = _hf_config(config)
        filled = _complete_routing(hf_config, config)
        if filled:
            notes.append(filled)
        from transformers import AutoModelForCausalLM, AutoModelForImageTextToText

        torch.manual_seed(seed)
        dtype = "float64"
        builder = AutoModelForImageTextToText if config["model_type"] in KEEP_VISION else AutoModelForCausalLM
        if factory is not None:
            builder = _FactoryBuilder(factory)
        try:
            model = builder.from_config(hf_config).to(torch.float64).eval()
        except ValueError as error:
            if "attention implementation" not in str(error):
                raise
            # e.g. BLOOM: no sdpa path. Eager's float32 softmax turns float64's mask minimum into −inf (NaN for a
            # fully masked pad row, spread by 0·NaN), so such a model runs in float32, where the minimum is finite.
            hf_config._attn_implementation = "eager"
            torch.manual_seed(seed)
            model = builder.from_config(hf_config).to(torch.float32).eval()
            dtype = "float32"
            notes.append("eager attention in float32 (the model has no sdpa path)")
    except ModelFactoryError:
        raise
    except (ValueError, KeyError, TypeError, RuntimeError, AttributeError, AssertionError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        first = first.split(". ")[0][:200]  # transformers appends the list of every model type
        raise ConfigError(f"transformers cannot build {config['model_type']!r} from this config: {first}") from None
    text = hf_config.get_text_config()
    count = int(getattr(text, "num_hidden_layers", 0) or 0)
    expected, expected_error = expected_per_layer(config, count)
    import inspect

    takes_positions = "position_ids" in inspect.signature(model.forward).parameters
    parameters = dict(getattr(text, "rope_parameters", None) or {})
    if not parameters:
        notes.append("no rotary embedding: the rotation checks do not apply; padding and cache checks do")
        return TinyModel(name=name, model=model, config=text, rope={}, notes=notes, takes_positions=takes_positions,
                         dtype=dtype, expected=expected, expected_error=expected_error)
    types = getattr(text, "layer_types", None) or ["full_attention"]
    rope = {t: dict(parameters[t]) for t in set(types)} if set(types) <= set(parameters) else \
        {t: parameters for t in set(types)}
    return TinyModel(name=name, model=model, config=text, rope=rope, notes=notes, takes_positions=takes_positions,
                     dtype=dtype, window=getattr(text, "sliding_window", None), expected=expected,
                     expected_error=expected_error)


class ModelFactoryError(ConfigError):
    """A user's model factory that cannot be loaded, raised, or returned something unusable (one line)."""


def load_model_factory(spec: str) -> Callable[[Any], Any]:
    """Resolve `package.module:function` or `path/to/file.py:function` to the user's model factory. Importing the
    named module is what the user asked for (it is their code); nothing in `spec` is evaluated.

    **Arguments:** `spec` (`MODULE:FACTORY`).

    **Returns:** the factory; raises `ModelFactoryError` (one line) when it cannot be loaded or is not callable.
    """
    from ..function.calls import AuditError
    from ..function.targets import load_target

    module, colon, attribute = spec.rpartition(":")
    if not colon or not module or not attribute:
        raise ModelFactoryError(f"--model {spec!r}: expected MODULE:FACTORY (package.module:function or "
                                "path/to/file.py:function)")
    try:
        return load_target(spec).obj
    except AuditError as error:
        reason = str(error).replace("not a callable fn(x, positions)", "not a callable factory(config)")
        raise ModelFactoryError(f"--model {spec!r}: {reason}") from None


class _FactoryBuilder:
    """`from_config` over a user's factory, so the factory's model is seeded, cast and checked like the auto class's."""

    def __init__(self, factory: Callable[[Any], Any]) -> None:
        self.factory = factory

    def from_config(self, hf_config: Any) -> Any:
        import torch

        name = getattr(self.factory, "__qualname__", repr(self.factory))
        try:
            model = self.factory(hf_config)
        except Exception as error:  # the user's code: any failure is theirs, reported in one line
            raise ModelFactoryError(f"the model factory {name} raised {type(error).__name__}: "
                                    f"{str(error).strip().splitlines()[0] if str(error).strip() else ''}") from None
        if not isinstance(model, torch.nn.Module):
            raise ModelFactoryError(f"the model factory {name} returned {type(model).__name__}, not a torch module")
        return model
