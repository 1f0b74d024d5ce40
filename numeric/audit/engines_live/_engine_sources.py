"""Where each engine reads a rule the audit attributed a difference to: (engine, key) → the engine's file and line
in the installed engine's own source, read there (llama.cpp: the tree vendored in the llama-cpp-python 0.3.36
sdist, commit 0c1e5709, and its `convert_hf_to_gguf.py` conversion package; MLX-LM 0.32.2 and vLLM 0.32.0 from
their environments' site-packages). An entry whose engine documents the departure as its choice sits in
`DESIGN_CHOICES`, in the engine's own words.

Claims served: ROPE-FREQUENCIES (the rule each attribution names).
"""

from __future__ import annotations

__all__ = ["DESIGN_CHOICES", "ENGINE_SOURCES"]

#: Departures an engine documents as its choice: (engine, key) → the engine's own words, with file and line.
DESIGN_CHOICES = {
    ("vllm", "short_factor"): (
        "vLLM chooses the LongRoPE factor set once, at start-up, from max_model_len: \"Force long factors if "
        "max_model_len (runtime max length) exceeds original_max_position_embeddings to prevent KV cache "
        "invalidation when sequences cross this threshold during generation\" "
        "(vllm/model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py:51-55)"),
    ("llama.cpp", "short_factor"): (
        "llama.cpp chooses the LongRoPE factor set from the context size, not the sequence: \"choose long/short freq "
        "factors based on the context size\" — `if (n_ctx_seq > hparams.n_ctx_orig_yarn) return "
        "layers[il].rope_long;` (src/llama-model.cpp:2340-2347, llama.cpp 0c1e5709 vendored in llama-cpp-python "
        "0.3.36)"),
}

#: Where the engine reads (or skips) the rule of an attributed difference that is not a documented choice:
#: (engine, key), or (engine, key, model_type) for a key that names a layer.
ENGINE_SOURCES = {
    ("mlx-lm", "short_factor"): (
        "MLX-LM's SuScaledRoPE builds its frequencies from long_factor alone, at every length: `self._freqs = "
        "mx.array(long_factor, dtype=mx.float32) * freqs` (mlx_lm/models/rope_utils.py:49-50); short_factor is "
        "taken (rope_utils.py:17, documented at :36-38 as the factors for sequences shorter than "
        "original_max_position_embeddings) and never used; Phi-3 builds it at mlx_lm/models/phi3.py:66-74"),
    ("llama.cpp", "sliding_window"): (
        "llama.cpp converts MistralForCausalLM to its LLaMA architecture (conversion/__init__.py:189), whose "
        "hyper-parameters read no sliding-window key (src/models/llama.cpp:3-7) and whose graph builds the plain "
        "KV-cache attention input, `inp_attn = build_attn_inp_kv();` (src/models/llama.cpp:119), not the "
        "sliding-window one (`build_attn_inp_kv_iswa`, Gemma 2: src/models/gemma2.cpp:74)"),
    ("llama.cpp", "sliding_window_pattern"): (
        "llama.cpp's Gemma 3 takes which layers slide from the GGUF key sliding_window_pattern, else a hard-coded "
        "pattern of 6 (five sliding, one full): `load_swa_pattern(ml, 6);` (src/models/gemma3.cpp:7; "
        "src/llama-model.cpp:3434-3441), and a sliding layer also takes the local base (rope_freq_base_swa); the "
        "converter writes the window and never the pattern or layer_types (conversion/gemma.py:156-157), so a Gemma 3 "
        "whose layer_types differ from 5:1 runs its full layers as sliding ones"),
    ("llama.cpp", "layer 1", "smollm3"): (
        "llama.cpp's SmolLM3 leaves every 4th layer without RoPE whatever the config says: "
        "`hparams.n_no_rope_layer_step = 4;` (src/models/smollm3.cpp:5) and `const bool use_rope = (il + 1) % "
        "hparams.n_no_rope_layer_step != 0;` (src/models/smollm3.cpp:69); the converter writes no no_rope_layers "
        "(conversion/llama.py:427), so a SmolLM3 whose NoPE layers are not every 4th (the tiny one: layer 1) is "
        "rotated there"),
    ("llama.cpp", "truncate"): (
        "llama.cpp always rounds YaRN's correction range: `float start = floorf(ggml_rope_yarn_corr_dim(...)); "
        "float end = ceilf(ggml_rope_yarn_corr_dim(...));` (ggml/src/ggml.c:4482-4487, ggml_rope_yarn_corr_dims); "
        "the converter writes no `truncate` key for YaRN (conversion/base.py:1470-1483), so `truncate: false` "
        "has nowhere to go"),
    ("mlx-lm", "truncate"): (
        "MLX-LM's YarnRoPE always rounds the correction range: `low = math.floor(yarn_find_correction_dim(beta_fast))"
        "`, `high = math.ceil(yarn_find_correction_dim(beta_slow))` (mlx_lm/models/rope_utils.py:150-153); "
        "initialize_rope passes only original_max_position_embeddings, beta_fast, beta_slow, mscale and "
        "mscale_all_dim to it (rope_utils.py:326-338): `truncate` is never read"),
    ("llama.cpp", "attention_factor"): (
        "llama.cpp's converter writes HF `attention_factor` as rope.scaling.yarn_attn_factor "
        "(conversion/base.py:1477-1478), but only Grok reads that key (src/models/grok.cpp:25); for every model "
        "with YaRN the context sets `cparams.yarn_attn_factor = get_mscale(factor, 1.0f);` — the default "
        "0.1·ln s + 1 (src/llama-context.cpp:203, ahead of the cancellation of rope_yarn's own factor at :211)"),
    ("llama.cpp", "beta_fast"): (
        "llama.cpp ignores rope_scaling.beta_fast/beta_slow for this architecture and uses 32/1: the converter writes "
        "them as rope.scaling.yarn_beta_fast/yarn_beta_slow (conversion/base.py:1479-1482), but only Grok and "
        "Mistral 3 read those keys (src/models/grok.cpp:26-27, src/models/mistral3.cpp:7-8); every other loader, "
        "DeepSeek-V2/V3's among them (src/models/deepseek2.cpp:3-53), leaves `float yarn_beta_fast = 32.0f;` and "
        "`float yarn_beta_slow = 1.0f;` (src/llama-hparams.h:161-162), which the context hands to every rope unless "
        "the caller gives its own (src/llama-context.cpp:116-117); llama-cpp-python, which the audit drives, gives "
        "its own 32.0 and 1.0 for every model (`yarn_beta_fast: float = 32.0`, `yarn_beta_slow: float = 1.0`, "
        "llama_cpp/llama.py:89-90, set at :344-349)"),
    ("llama.cpp", "rope_type"): (
        "llama.cpp's converter writes no scaling for HF dynamic NTK: `elif rope_type == \"dynamic\": # HunYuan, "
        "handled in model class` / `pass` (conversion/base.py:1487-1489), so the GGUF declares no rope scaling and "
        "the model runs plain RoPE at every length"),
    ("llama.cpp", "rms_norm_eps"): (
        "llama.cpp's Qwen2-VL loader reads the M-RoPE sections and nothing else: `void "
        "llama_model_qwen2vl::load_arch_hparams(llama_model_loader & ml) { ml.get_key_or_arr("
        "LLM_KV_ROPE_DIMENSION_SECTIONS, hparams.rope_sections, 4, true); }` (src/models/qwen2vl.cpp:3-5, followed by "
        "a stale `// fall through` at :6 from the switch it was split out of); Qwen2's loader reads "
        "`LLM_KV_ATTENTION_LAYERNORM_RMS_EPS` (src/models/qwen2.cpp:4). So f_norm_rms_eps keeps its zero from "
        "`llama_hparams hparams = {};` (src/llama-model.h:637) although the GGUF holds qwen2vl.attention."
        "layer_norm_rms_epsilon (the load log prints `f_norm_rms_eps = 0.0e+00`)"),
    ("mlx-lm", "sliding_window", "mistral"): (
        "MLX-LM runs Mistral with its Llama module (`\"mistral\": \"llama\"`, mlx_lm/utils.py:49), which slides "
        "only the layers `layer_types` marks `sliding_attention` and defaults that list to full attention everywhere: "
        "`if self.layer_types is None: self.layer_types = [\"full_attention\"] * self.num_hidden_layers` "
        "(mlx_lm/models/llama.py:41-42, used at :161-163 and :187-195); Mistral's config has a `sliding_window` and no "
        "`layer_types`, so the window is never applied"),
    ("mlx-lm", "attention_factor"): (
        "MLX-LM's YaRN never reads `attention_factor`: initialize_rope hands YarnRoPE only "
        "original_max_position_embeddings, beta_fast, beta_slow, mscale and mscale_all_dim "
        "(mlx_lm/models/rope_utils.py:326-338), and YarnRoPE's factor is `yarn_get_mscale(scaling_factor, mscale) / "
        "yarn_get_mscale(scaling_factor, mscale_all_dim)` (rope_utils.py:169-171), the default 0.1·ln s + 1"),
    ("mlx-lm", "sliding_window", "gemma2"): (
        "MLX-LM's Gemma 2 has no sliding window: ModelArgs reads no `sliding_window` (mlx_lm/models/gemma2.py:12-28) "
        "and the model builds one causal mask for every layer, `mask = create_attention_mask(h, cache[0], "
        "return_array=True)` (gemma2.py:176)"),
    ("mlx-lm", "sliding_window", "phi3"): (
        "MLX-LM's Phi-3 has no sliding window: ModelArgs reads no `sliding_window` (mlx_lm/models/phi3.py:15-31) "
        "and the model builds one causal mask for every layer, `mask = create_attention_mask(h, cache[0])` "
        "(phi3.py:182)"),
    ("transformers", "softmax scale", "deepseek_v2"): (
        "transformers 5.3.0's DeepSeek-V2 attention scales scores by `self.scaling = self.qk_head_dim ** (-0.5)` "
        "alone (transformers/models/deepseek_v2/modeling_deepseek_v2.py:335), without YaRN's g(s, mscale_all_dim)², "
        "which DeepSeek-V3's applies (modeling_deepseek_v3.py:408-414)"),
    ("vllm", "rotary kernel"): (
        "vLLM's CPU build rotates through its C++ kernel, `RotaryEmbedding.forward_cpu` → `ops.rotary_embedding` "
        "(vllm/model_executor/layers/rotary_embedding/base.py:298-318), which takes `int num_tokens = "
        "query.numel() / query.size(-1);`, `int num_heads = query.size(-1) / head_size;` and the token strides "
        "`key.stride(-2)`, `query.stride(-2)` (csrc/cpu/pos_encoding.cpp:173-178 at vllm-project/vllm 282a7038; the "
        "wheel ships no C++ source) and reads `positions[token_idx]` for every row (:116, :144). MLA hands it 3-D "
        "views, `q[..., self.qk_nope_head_dim :]` (tokens, heads, rope dim) and `k_pe.unsqueeze(1)` "
        "(vllm/model_executor/layers/mla.py:219, 227-230): head h of token t is rotated at positions[t·heads + h] "
        "(past the prompt's own entries for the later rows), and k_pe's rows are taken 64 elements apart instead of "
        "a token apart. YaRN MLA models (DeepSeek-V3, Kimi-K2) rotate through DeepseekScalingRotaryEmbedding, a "
        "RotaryEmbeddingBase whose forward_cpu is CustomOp's forward_native (vllm/model_executor/custom_op.py:"
        "156-159), and conform; an MLA model with plain RoPE (GLM-4.7-Flash) reaches the kernel"),
    # Keyed (engine, "rotary cache", class): the cos/sin cache a live run's non-finite answers began at the end of.
    ("vllm", "rotary cache", "DynamicNTKScalingRotaryEmbedding"): (
        "vLLM's DynamicNTKScalingRotaryEmbedding fills its cos/sin cache for max_position_embeddings positions only, "
        "`t = torch.arange(self.max_position_embeddings, dtype=torch.float)` "
        "(vllm/model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py:67), though its own comment says "
        "the length after scaling is max_position_embeddings × scaling_factor (:54-57), and its base stays the "
        "config's when max_trained_positions defaults to max_position_embeddings (:58-65, rotary_embedding/"
        "__init__.py:225-228); vLLM itself serves max_model_len up to max_position_embeddings × factor for dynamic "
        "NTK (vllm/config/model.py:2595-2616). On CPU, forward_cpu hands the positions to the compiled kernel "
        "`ops.rotary_embedding` (rotary_embedding/base.py:310-317), which reads past the cache without a check "
        "(row 32 of a 32-row cache gave NaN here); forward_native raises IndexError instead (base.py:173)"),
}
