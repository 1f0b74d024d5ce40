"""x-transformers: `AlibiPositionalBias`, `RelativePositionBias` (T5 buckets) and `ScaledSinusoidalEmbedding`.

Modules are built from small configs and cast with `.to(dtype)` as users cast models. `AlibiPositionalBias` is
called through `forward_custom_pos(pos_i, pos_j)` (its positions API). `RelativePositionBias.forward(i, j)` takes
lengths (queries = the last i of j positions): for such positions the adapter calls it; for any other positions it
runs forward's own body (`_relative_position_bucket`, the embedding, `* scale`) with the positions given — checked
equal to `forward` on the shapes forward accepts when the adapter is built.
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters.kinds._common import torch_dtype
from ropecheck.numeric.audit.adapters.kinds._spec import KindAdapter

__all__ = ["ADAPTERS"]

_HEADS = 12


def _alibi(dtype: str) -> Any:
    import torch
    from x_transformers.x_transformers import AlibiPositionalBias

    module = AlibiPositionalBias(heads=_HEADS).to(torch_dtype(dtype))

    def bias(q_positions: Any, k_positions: Any) -> Any:
        with torch.no_grad():
            return module.forward_custom_pos(q_positions, k_positions)

    return bias


def _relative_position_bias(dtype: str) -> Any:
    import torch
    from x_transformers.x_transformers import RelativePositionBias

    torch.manual_seed(0)
    module = RelativePositionBias(scale=1.0, causal=False, num_buckets=32, max_distance=128, heads=8)
    module = module.to(torch_dtype(dtype))

    def body(q_positions: Any, k_positions: Any) -> Any:
        relative = k_positions[None, :] - q_positions[:, None]
        bucket = module._relative_position_bucket(relative, causal=module.causal, num_buckets=module.num_buckets,
                                                  max_distance=module.max_distance)
        return module.relative_attention_bias(bucket).permute(2, 0, 1) * module.scale

    def bias(q_positions: Any, k_positions: Any) -> Any:
        lq, lk = q_positions.shape[0], k_positions.shape[0]
        with torch.no_grad():
            if lq <= lk and torch.equal(k_positions, torch.arange(lk)) and torch.equal(
                    q_positions, torch.arange(lk - lq, lk)):
                return module(lq, lk)
            return body(q_positions, k_positions)

    with torch.no_grad():
        if not torch.equal(module(5, 9), body(torch.arange(4, 9), torch.arange(9))):
            raise RuntimeError("RelativePositionBias.forward differs from its body: the adapter is out of date")
    bias.relative_attention_bias = module.relative_attention_bias  # type: ignore[attr-defined]
    return bias


def _scaled_sinusoidal(dtype: str) -> Any:
    import torch
    from x_transformers.x_transformers import ScaledSinusoidalEmbedding

    module = ScaledSinusoidalEmbedding(64).to(torch_dtype(dtype))

    def pe(positions: Any) -> Any:
        with torch.no_grad():
            return module(torch.zeros(1, positions.shape[0], 64, dtype=torch_dtype(dtype)), pos=positions)

    return pe


ADAPTERS = [
    KindAdapter("x-transformers.alibi", "bias", "x-transformers", "x_transformers", "torch", _alibi,
                {"scheme": "alibi"}, f"AlibiPositionalBias(heads={_HEADS}).forward_custom_pos(q_positions, "
                "k_positions)"),
    KindAdapter("x-transformers.relative-position-bias", "bias", "x-transformers", "x_transformers", "torch",
                _relative_position_bias, {"scheme": "t5:buckets=32,max_distance=128,bidirectional=true"},
                "RelativePositionBias(scale=1, causal=False, heads=8)(i, j); other positions through forward's "
                "body"),
    KindAdapter("x-transformers.scaled-sinusoidal", "sinusoidal", "x-transformers", "x_transformers", "torch",
                _scaled_sinusoidal, {"layout": "concat", "frequencies": "standard", "pair_order": "sin,cos"},
                "ScaledSinusoidalEmbedding(64)(x, pos=positions) (a learned scale, d^-1/2 at initialisation)"),
]
