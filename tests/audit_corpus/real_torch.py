"""RoPE forms from public PyTorch code, as fn(x, positions) — faithful reproductions, not verbatim copies.

Each function reproduces the computation of the cited source (same dtypes, same operations, same layout, same
table length) inside the corpus's calling convention `fn(x, positions)` with x of shape `(..., L, d)`; the
source's own code is not copied. Buggy variants (`bug_*`) change one thing, named in their docstring.

Sources:
- [meta] meta-llama/llama, llama/model.py @ 8580eb9a896bdb82d376b7040d18a2e7b402b10f (Llama 2 Community
  License): `precompute_freqs_cis` (torch.polar, float32 freqs, a table of max_seq_len·2 = 4096 rows) and
  `apply_rotary_emb` (torch.view_as_complex on x.float(), interleaved pairs, `.type_as(x)`).
- [hf] huggingface/transformers, src/transformers/models/llama/modeling_llama.py (Apache-2.0):
  `LlamaRotaryEmbedding` (inv_freq in float32, freqs = inv_freq ⊗ positions in float32, cos/sin cast to x's
  dtype) and `rotate_half`/`apply_rotary_pos_emb` (half-split); `_compute_llama3_parameters` and
  `_compute_yarn_parameters` in src/transformers/modeling_rope_utils.py for the scaled forms.
- [neox] EleutherAI/gpt-neox, megatron/model/positional_embeddings.py (Apache-2.0): `RotaryEmbedding` with
  `rotary_pct` (partial rotary on the first r dimensions, half-split among them; cos/sin cached for
  `max_seq_len` = 2048 positions).
"""

from __future__ import annotations

import math

import torch


# ------------------------------------------------------------------------------------------ [meta] complex form
def _meta_freqs_cis(dim: int, end: int, theta: float = 10000.0) -> torch.Tensor:
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.polar(torch.ones_like(freqs), freqs)


def _meta_apply(x: torch.Tensor, freqs_cis: torch.Tensor) -> torch.Tensor:
    x_ = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(x_ * freqs_cis).flatten(-2).type_as(x)


class MetaLlamaRope:
    """[meta] Llama 2: a fixed table of 2·max_seq_len = 4096 positions, complex multiplication (interleaved)."""

    def __init__(self, head_dim: int = 128, theta: float = 10000.0, max_seq_len: int = 2048) -> None:
        self.freqs_cis = _meta_freqs_cis(head_dim, max_seq_len * 2, theta)

    def __call__(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        return _meta_apply(x, self.freqs_cis[positions])


class BugMetaConjugate(MetaLlamaRope):
    """[meta] with freqs_cis.conj(): the clockwise rotation."""

    def __call__(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        return _meta_apply(x, self.freqs_cis[positions].conj())


class BugMetaOffByOne(MetaLlamaRope):
    """[meta] indexing the table at start_pos + 1 (positions shifted by one)."""

    def __call__(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        return _meta_apply(x, self.freqs_cis[positions + 1])


# ------------------------------------------------------------------------------------------ [hf] rotate_half
def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def _hf_apply(x: torch.Tensor, inv_freq: torch.Tensor, positions: torch.Tensor, scaling: float = 1.0):
    freqs = inv_freq[None, :].float() * positions[:, None].float()
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = (emb.cos() * scaling).to(x.dtype), (emb.sin() * scaling).to(x.dtype)
    return (x * cos) + (rotate_half(x) * sin)


def _hf_inv_freq(dim: int, base: float) -> torch.Tensor:
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


def _llama3_inv_freq(dim: int, base: float, factor: float, low: float = 1.0, high: float = 4.0, orig: int = 8192):
    inv_freq = _hf_inv_freq(dim, base)
    low_freq_wavelen, high_freq_wavelen = orig / low, orig / high
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth = (orig / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * inv_freq_llama / factor + smooth * inv_freq_llama
    is_medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return torch.where(is_medium, smoothed, inv_freq_llama)


def _yarn_inv_freq(dim: int, base: float, factor: float, orig: int, truncate: bool = True):
    def correction_dim(rotations: float) -> float:
        return (dim * math.log(orig / (rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = correction_dim(32), correction_dim(1)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
    pos_freqs = base ** (torch.arange(0, dim, 2).float() / dim)
    extrapolation, interpolation = 1.0 / pos_freqs, 1.0 / (factor * pos_freqs)
    extrapolation_factor = 1 - ramp
    return interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor


class HFLlamaRope:
    """[hf] Llama: float32 inv_freq and angles for every x dtype, cos/sin cast to x's dtype, rotate_half.

    `rope_type` "default", "linear", "llama3" or "yarn" (with `factor`, `orig`, `truncate`, and the YaRN
    attention factor 0.1·ln F + 1 multiplied into cos/sin unless `attention_in_softmax`).
    """

    def __init__(
        self,
        head_dim: int = 128,
        base: float = 10000.0,
        rope_type: str = "default",
        factor: float = 1.0,
        orig: int = 8192,
        truncate: bool = True,
        attention_in_softmax: bool = False,
    ) -> None:
        self.scaling = 1.0
        if rope_type == "llama3":
            self.inv_freq = _llama3_inv_freq(head_dim, base, factor, orig=orig)
        elif rope_type == "yarn":
            self.inv_freq = _yarn_inv_freq(head_dim, base, factor, orig, truncate)
            if not attention_in_softmax:
                self.scaling = 0.1 * math.log(factor) + 1.0
        elif rope_type == "linear":
            self.inv_freq = _hf_inv_freq(head_dim, base) / factor
        else:
            self.inv_freq = _hf_inv_freq(head_dim, base)

    def __call__(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        return _hf_apply(x, self.inv_freq, positions, self.scaling)


def hf_llama(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """[hf] Llama 2 defaults: base 10000."""
    return _hf_apply(x, _hf_inv_freq(x.shape[-1], 10000.0), positions)


def bug_hf_rotate_half_sign(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """[hf] with rotate_half returning cat(x2, −x1): the clockwise rotation."""
    inv_freq = _hf_inv_freq(x.shape[-1], 10000.0)
    freqs = inv_freq[None, :].float() * positions[:, None].float()
    emb = torch.cat((freqs, freqs), dim=-1)
    half = x.shape[-1] // 2
    return x * emb.cos().to(x.dtype) + torch.cat((x[..., half:], -x[..., :half]), dim=-1) * emb.sin().to(x.dtype)


def bug_hf_angles_in_x_dtype(x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
    """[hf] with inv_freq and positions cast to x's dtype before the product (a module cast to bfloat16)."""
    inv_freq = _hf_inv_freq(x.shape[-1], 10000.0).to(x.dtype)
    freqs = inv_freq[None, :] * positions[:, None].to(x.dtype)
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()


class BugHFYarnNoAttentionFactor(HFLlamaRope):
    """[hf] YaRN without the attention factor in cos/sin (and none applied elsewhere)."""

    def __init__(self, head_dim: int = 128, base: float = 10000.0, factor: float = 8.0, orig: int = 4096) -> None:
        super().__init__(head_dim, base, "yarn", factor, orig, attention_in_softmax=True)


# ------------------------------------------------------------------------------------------ [neox] partial
class NeoXPartialRope:
    """[neox] rotary_pct = 0.25: the first r = d/4 dimensions rotated (half-split among them), a cos/sin cache of
    max_seq_len = 2048 positions in float32, the rest passed through."""

    def __init__(self, head_dim: int = 128, base: float = 10000.0, rotary_pct: float = 0.25, max_seq_len: int = 2048):
        self.rotary_ndims = int(head_dim * rotary_pct)
        inv_freq = 1.0 / (base ** (torch.arange(0, self.rotary_ndims, 2).float() / self.rotary_ndims))
        t = torch.arange(max_seq_len, dtype=inv_freq.dtype)
        freqs = torch.einsum("i,j->ij", t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.cos_cached, self.sin_cached = emb.cos(), emb.sin()

    def __call__(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        x_rot, x_pass = x[..., : self.rotary_ndims], x[..., self.rotary_ndims :]
        cos = self.cos_cached[positions].to(x.dtype)
        sin = self.sin_cached[positions].to(x.dtype)
        x_rot = (x_rot * cos) + (rotate_half(x_rot) * sin)
        return torch.cat((x_rot, x_pass), dim=-1)


class PRope:
    """p-RoPE (Barbero et al. 2024, "Round and round we go"): the [hf] form over the whole head with the lowest
    frequencies removed — pairs (i, i + d/2) for i < r/2 rotated by θᵢ = base^(−2i/d), the rest unrotated."""

    def __init__(self, head_dim: int = 128, base: float = 10000.0, fraction: float = 0.75) -> None:
        inv_freq = _hf_inv_freq(head_dim, base)
        keep = int(fraction * head_dim // 2)
        self.inv_freq = torch.cat([inv_freq[:keep], torch.zeros(head_dim // 2 - keep)])

    def __call__(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        return _hf_apply(x, self.inv_freq, positions)
