"""MLX-LM probe, run by `mlx_lm.py` in MLX-LM's own environment (its pins differ from the project's): builds the
model MLX-LM would build from the config (no weights: MLX arrays are lazy, nothing is evaluated but the rope
calls), and for each requested (layer type, length) calls that layer's rope module while recording what it hands
to the `mx.fast.rope` kernel (base, scale, freqs, dims). Prints one JSON list of observations on stdout.

Standalone on purpose: it imports nothing from ropecheck (which is not installed in that environment).
Request on stdin: `{"config": PATH, "entries": [{"layer_type", "regime", "layer_index", "length", "head_dim",
"rope_type"}]}` (rope type "none": a layer without RoPE, whose spectrum is not read), answered by one list; or
`{"requests": [REQUEST, ...]}` for several configs in one process (MLX-LM's import, most of a probe's cost, is then
paid once), answered by one list per request.
"""

from __future__ import annotations

import inspect
import json
import math
import sys
from pathlib import Path


def _layers(model):
    for path in ("layers", "model.layers", "language_model.layers", "language_model.model.layers"):
        node = model
        try:
            for part in path.split("."):
                node = getattr(node, part)
        except AttributeError:
            continue
        return node
    raise LookupError("no decoder layers found on the MLX-LM model")


def _attention(layer):
    for name in ("self_attn", "attention", "attn"):
        if hasattr(layer, name):
            return getattr(layer, name)
    raise LookupError("no attention module on the layer")


def _where(obj, needle=None):
    try:
        lines, start = inspect.getsourcelines(obj)
        file = Path(inspect.getsourcefile(obj))
    except (OSError, TypeError):
        return ""
    import mlx_lm

    line = start + next((i for i, text in enumerate(lines) if needle and needle in text), 0)
    try:
        file = file.relative_to(Path(mlx_lm.__file__).parent.parent)
    except ValueError:
        pass
    return f"{file}:{line}"


_WIDTHS = {"intermediate_size": 64, "rms_norm_eps": 1e-6, "vocab_size": 64}


def _fill_widths(config, args_class):
    """The shipped configs keep the rope-relevant keys only: give the width and vocabulary fields MLX-LM's
    `ModelArgs` insists on a small value (they do not bear on positions; nothing is evaluated)."""
    import dataclasses

    filled = dict(config)
    for holder in (filled, filled.get("text_config")):
        if isinstance(holder, dict):
            for key, value in _WIDTHS.items():
                holder.setdefault(key, value)
    for field in dataclasses.fields(args_class):
        if field.name in filled or field.default is not dataclasses.MISSING:
            continue
        if field.default_factory is not dataclasses.MISSING or "dict" in str(field.type).lower():
            continue
        filled[field.name] = 1e-6 if "eps" in field.name else 64
    return filled


def main() -> None:
    import mlx.core as mx

    request = json.load(sys.stdin)
    calls = []
    kernel = mx.fast.rope

    def spy(x, dims, *, traditional, base, scale, offset, freqs=None, **rest):
        calls.append({"dims": dims, "base": base, "scale": scale, "freqs": freqs})
        return kernel(x, dims, traditional=traditional, base=base, scale=scale, offset=offset, freqs=freqs, **rest)

    mx.fast.rope = spy  # once: every model built below calls the kernel through it
    if "requests" in request:
        json.dump([_observe(one, calls) for one in request["requests"]], sys.stdout)
    else:
        json.dump(_observe(request, calls), sys.stdout)


def _observe(request, calls):
    """The observations for one request (one config): a list with one entry per requested layer and length."""
    import mlx.core as mx
    from mlx_lm.utils import _get_classes

    config = json.loads(Path(request["config"]).read_text())
    try:
        model_class, args_class = _get_classes(config)
    except ValueError as error:  # "Model type X not supported": MLX-LM has no class for it (remote code never runs)
        message = f"does not know model_type {config.get('model_type')!r} ({str(error).strip()})"
        return [{"layer_type": e["layer_type"], "regime": e["regime"], "error": message,
                 "unknown_model_type": True} for e in request["entries"]]
    try:  # a config MLX-LM cannot build (Qwen3-VL as released) is that config's error, not the batch process's
        layers = _layers(model_class(args_class.from_dict(_fill_widths(config, args_class))))
    except Exception as error:
        message = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        return [{"layer_type": e["layer_type"], "regime": e["regime"], "error": message} for e in request["entries"]]
    out = []
    for entry in request["entries"]:
        observation = {"layer_type": entry["layer_type"], "regime": entry["regime"], "dtype": "float32", "where": {}}
        try:
            attention = _attention(layers[entry["layer_index"]])
            if entry.get("rope_type") == "none":  # a NoPE layer: its spectrum is not applied, only its scale counts
                if hasattr(attention, "scale"):
                    observation["softmax_scale"] = float(attention.scale)
                    observation["where"] = {"softmax_scale": _where(type(attention), "self.scale")}
                out.append(observation)
                continue
            rope = attention.rope if hasattr(attention, "rope") else attention.rotary_emb  # modules are dicts: no `or`
            head = entry["head_dim"]
            unit = mx.zeros((1, 1, 1, head), dtype=mx.float32).at[..., 0].add(1.0)
            calls.clear()
            at_zero = rope(unit, offset=0)
            factor = float(mx.sqrt(mx.sum(at_zero * at_zero)).item())
            calls.clear()
            rope(unit, offset=max(entry["length"] - 1, 0))  # the last position of the regime's length
            call = calls[-1]
            half = call["dims"] // 2
            if call["freqs"] is not None:
                periods = [float(v) for v in call["freqs"].tolist()]
                inv = [call["scale"] / p if p else 0.0 for p in periods]
            else:
                inv = [call["scale"] * call["base"] ** (-2 * i / call["dims"]) for i in range(half)]
            observation.update(
                inv_freq=[v if math.isfinite(v) else 0.0 for v in inv],
                attention_factor=factor,
                softmax_scale=float(attention.scale) if hasattr(attention, "scale") else None,
            )
            observation["where"] = {"spectrum": _where(type(rope)), "attention_factor": _where(type(rope)),
                                    "softmax_scale": _where(type(attention), "self.scale")}
        except Exception as error:
            observation["error"] = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
        out.append(observation)
    return out


if __name__ == "__main__":
    main()
