"""transformers: T5's relative attention bias (encoder and decoder), the ALiBi builders of Bloom, Falcon and MPT,
and the sinusoidal tables of Marian, M2M100 and Speech2Text — all from tiny configs, no weights downloaded.

- T5: `T5Attention(T5Config(...), has_relative_attention_bias=True).compute_bias(Lq, Lk, cache_position=q)` when
  the keys are 0…Lk−1 (its API); other key positions run compute_bias's body with the positions given (checked equal
  to compute_bias when built). The table is exposed as `relative_attention_bias`, as the module does.
- Bloom/Falcon `build_alibi_tensor(mask, heads, dtype)` and MPT `build_mpt_alibi_tensor(heads, L)` return one
  row per head over key positions 0…L−1 (broadcast over queries: the row constant softmax ignores); the adapter
  builds them for L = max(k) + 1 and takes the columns of the key positions given. 12 heads (not a power of two).
- Marian: `MarianSinusoidalPositionalEmbedding(N, 64)` with its weight set by `create_weight()` (as
  `MarianPreTrainedModel._init_weights` does), called with `position_ids`. M2M100/Speech2Text take input ids and
  `past_key_values_length`: one call per run of consecutive positions, past = the run's start (offset 2 =
  padding_idx + 1, tensor2tensor frequencies, concat layout).
"""

from __future__ import annotations

from typing import Any

from ropecheck.numeric.audit.adapters.kinds._common import by_runs, torch_dtype
from ropecheck.numeric.audit.adapters.kinds._spec import KindAdapter

__all__ = ["ADAPTERS"]

_HEADS = 12
_TABLE_POSITIONS = 8256


def _t5(dtype: str, decoder: bool) -> Any:
    import torch
    from transformers import T5Config
    from transformers.models.t5.modeling_t5 import T5Attention

    torch.manual_seed(0)
    config = T5Config(d_model=32, d_kv=8, num_heads=4, relative_attention_num_buckets=32,
                      relative_attention_max_distance=128, is_decoder=decoder)
    module = T5Attention(config, has_relative_attention_bias=True).to(torch_dtype(dtype)).eval()

    def body(q_positions: Any, k_positions: Any) -> Any:
        relative = k_positions[None, :] - q_positions[:, None]
        bucket = module._relative_position_bucket(relative, bidirectional=not module.is_decoder,
                                                  num_buckets=module.relative_attention_num_buckets,
                                                  max_distance=module.relative_attention_max_distance)
        return module.relative_attention_bias(bucket).permute([2, 0, 1])

    def bias(q_positions: Any, k_positions: Any) -> Any:
        with torch.no_grad():
            if torch.equal(k_positions, torch.arange(k_positions.shape[0])):
                return module.compute_bias(q_positions.shape[0], k_positions.shape[0],
                                           cache_position=q_positions)[0]
            return body(q_positions, k_positions)

    with torch.no_grad():
        q = torch.tensor([0, 3, 7])
        if not torch.equal(module.compute_bias(3, 9, cache_position=q)[0], body(q, torch.arange(9))):
            raise RuntimeError("T5Attention.compute_bias differs from its body: the adapter is out of date")
    bias.relative_attention_bias = module.relative_attention_bias  # type: ignore[attr-defined]
    return bias


def _key_columns(rows: Any, q_positions: Any, k_positions: Any) -> Any:
    """(H, L) rows over key positions 0…L−1 → (H, Lq, Lk) at the key positions given."""
    return rows[:, k_positions][:, None, :].expand(rows.shape[0], q_positions.shape[0], k_positions.shape[0])


def _bloom_like(module_name: str) -> Any:
    def build(dtype: str) -> Any:
        import importlib

        import torch

        builder = importlib.import_module(module_name).build_alibi_tensor

        def bias(q_positions: Any, k_positions: Any) -> Any:
            length = int(k_positions.max()) + 1
            mask = torch.ones(1, length, dtype=torch.long)
            rows = builder(mask, _HEADS, torch_dtype(dtype))[:, 0, :]
            return _key_columns(rows, q_positions, k_positions)

        return bias

    return build


def _mpt(dtype: str) -> Any:
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    def bias(q_positions: Any, k_positions: Any) -> Any:
        rows = build_mpt_alibi_tensor(_HEADS, int(k_positions.max()) + 1)[:, 0, :].to(torch_dtype(dtype))
        return _key_columns(rows, q_positions, k_positions)

    return bias


def _marian(dtype: str) -> Any:
    import torch
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    module = MarianSinusoidalPositionalEmbedding(_TABLE_POSITIONS, 64)
    with torch.no_grad():
        module.weight.copy_(module.create_weight())
    module = module.to(torch_dtype(dtype))

    def pe(positions: Any) -> Any:
        return module((1, positions.shape[0]), position_ids=positions)

    return pe


def _fairseq_style(module_path: str, class_name: str) -> Any:
    def build(dtype: str) -> Any:
        import importlib

        import torch

        cls = getattr(importlib.import_module(module_path), class_name)
        module = cls(64, 64, padding_idx=1).to(torch_dtype(dtype))

        def run(start: int, length: int) -> Any:
            ids = torch.full((1, length), 2, dtype=torch.long)
            return module(ids, past_key_values_length=start)[0]

        return lambda positions: by_runs(positions, run)

    return build


_M2M = "transformers.models.m2m_100.modeling_m2m_100"
_S2T = "transformers.models.speech_to_text.modeling_speech_to_text"
_FAIRSEQ = {"layout": "concat", "frequencies": "t2t", "pair_order": "sin,cos", "offset": 2}

ADAPTERS = [
    KindAdapter("transformers.t5-bias", "bias", "transformers", "transformers", "torch",
                lambda dtype: _t5(dtype, False), {"scheme": "t5:buckets=32,max_distance=128,bidirectional=true"},
                "T5Attention(T5Config(num_heads=4), has_relative_attention_bias=True).compute_bias(Lq, Lk, "
                "cache_position=q_positions); other key positions through compute_bias's body"),
    KindAdapter("transformers.t5-bias-decoder", "bias", "transformers", "transformers", "torch",
                lambda dtype: _t5(dtype, True), {"scheme": "t5:buckets=32,max_distance=128,bidirectional=false"},
                "as transformers.t5-bias with is_decoder=True (bidirectional=False)"),
    KindAdapter("transformers.bloom-alibi", "bias", "transformers", "transformers", "torch",
                _bloom_like("transformers.models.bloom.modeling_bloom"), {"scheme": "alibi"},
                f"bloom build_alibi_tensor(ones(1, max(k)+1), {_HEADS}, dtype) at the key positions given"),
    KindAdapter("transformers.falcon-alibi", "bias", "transformers", "transformers", "torch",
                _bloom_like("transformers.models.falcon.modeling_falcon"), {"scheme": "alibi"},
                f"falcon build_alibi_tensor(ones(1, max(k)+1), {_HEADS}, dtype) at the key positions given"),
    KindAdapter("transformers.mpt-alibi", "bias", "transformers", "transformers", "torch", _mpt,
                {"scheme": "alibi"}, f"build_mpt_alibi_tensor({_HEADS}, max(k)+1).to(dtype) at the key positions "
                "given"),
    KindAdapter("transformers.marian-sinusoidal", "sinusoidal", "transformers", "transformers", "torch", _marian,
                {"layout": "concat", "frequencies": "standard", "pair_order": "sin,cos"},
                f"MarianSinusoidalPositionalEmbedding({_TABLE_POSITIONS}, 64) with create_weight(), called with "
                "position_ids", table_positions=_TABLE_POSITIONS),
    KindAdapter("transformers.m2m100-sinusoidal", "sinusoidal", "transformers", "transformers", "torch",
                _fairseq_style(_M2M, "M2M100SinusoidalPositionalEmbedding"), _FAIRSEQ,
                "M2M100SinusoidalPositionalEmbedding(64, 64, padding_idx=1)(input_ids, past_key_values_length) per "
                "run of consecutive positions (grows its table on demand)"),
    KindAdapter("transformers.speech2text-sinusoidal", "sinusoidal", "transformers", "transformers", "torch",
                _fairseq_style(_S2T, "Speech2TextSinusoidalPositionalEmbedding"), _FAIRSEQ,
                "Speech2TextSinusoidalPositionalEmbedding(64, 64, padding_idx=1)(input_ids, past_key_values_length) "
                "per run of consecutive positions"),
]
