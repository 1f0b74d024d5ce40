"""vLLM probe (run in `.venv-engines/vllm`, vLLM's CPU build): the saved tiny model loaded by vLLM's own engine
(`LLM(model=DIR, skip_tokenizer_init=True, dtype="float32", enforce_eager=True)`, in this process:
`VLLM_ENABLE_V1_MULTIPROCESSING=0`), each window given as a prompt of token ids from position 0 (vLLM's API takes
no positions), every log-probability read back: `prompt_logprobs` for positions 0 … T − 2 and the sampled position's
`logprobs` for T − 1, with `max_logprobs` = the vocabulary. `max_model_len` is the config's
`max_position_embeddings`, the whole context the config declares, with the KV cache it needs (`_served_length`;
vLLM's default except for LongRoPE, where vLLM defaults to L₀, `vllm/config/model.py:2625-2631`; the served length
fixes LongRoPE's factor set at start-up).

When vLLM cannot inspect an architecture (its `ModelConfig` raises a ValidationError that says only "failed to be
inspected"), the probe re-imports vLLM's model module for it and reports why, with files and lines: Qwen2-VL's and
Qwen2.5-VL's import transformers' image processor, which needs torchvision (`vllm/model_executor/models/
qwen2_vl.py:43` → `transformers/models/qwen2_vl/image_processing_qwen2_vl.py:26`); `bash .ci/bootstrap engines`
removes torchvision, as the only build reachable here (0.28.0 from PyPI) is a CUDA one that does not load with torch
2.13.0+cpu (`_C.so` needs libc10_cuda.so) — a limit of this environment, not vLLM's defect.

The rotary kernel vLLM's CPU build runs (`RotaryEmbedding.forward_cpu` → `ops.rotary_embedding`) takes each row of
the last dimension for a token, at the tensor's stride(-2) (csrc/cpu/pos_encoding.cpp:170-178): the probe records the
layout of every query and key it is handed, and where one breaks that contract (MLA's 3-D views, vllm/model_executor/
layers/mla.py:219, 227-230) the windows are decoded a second time, in the same engine, with the rotation computed by
`forward_native` (`logprobs_native_rotary`), so the audit can measure what the kernel alone changes.

Faults (only the broken-engine tests set one): `base` (vLLM's `RotaryEmbedding` built with the base doubled).
"""

from __future__ import annotations

import json
import os
import runpy
import time
from pathlib import Path
from typing import Any

common = runpy.run_path(str(Path(__file__).with_name("_probe_common.py")))


def _double_base() -> None:
    from vllm.model_executor.layers.rotary_embedding import base

    original = base.RotaryEmbedding._compute_inv_freq

    def doubled(self: Any, value: float) -> Any:
        return original(self, 2 * value)
    base.RotaryEmbedding._compute_inv_freq = doubled


def _rows(output: Any, tokens: list[int], vocabulary: int) -> list[list[float]]:
    rows = []
    for entry in [*output.prompt_logprobs[1:], output.outputs[0].logprobs[0]]:
        row = [float("-inf")] * vocabulary
        for token, logprob in entry.items():
            if token < vocabulary:
                row[token] = float(logprob.logprob)
        rows.append(row)
    return rows


def kernel_misreads(tokens: int, shape: tuple[int, ...], stride: tuple[int, ...]) -> bool:
    """Whether vLLM's CPU rotary kernel misreads a query or key of this layout for `tokens` positions: it takes
    numel / size(-1) rows, one per token, each stride(-2) apart (csrc/cpu/pos_encoding.cpp:173, 177-178), so a
    tensor is read right only when it has one row per token at the token stride (2-D, or 3-D with one head)."""
    rows = 1
    for size in shape[:-1]:
        rows *= size
    return rows != tokens or (len(shape) > 2 and stride[-2] != stride[0])


def _record_kernel_layouts(base: Any, state: dict[str, Any]) -> None:
    """Wrap `RotaryEmbedding.forward_cpu` (before the model is built: vLLM binds the method at construction) to
    record the layouts that break the kernel's contract, and to rotate with `forward_native` when `state["native"]`."""
    import functools

    original = base.RotaryEmbedding.forward_cpu

    @functools.wraps(original)  # its name stays what `_rotary_caches` reports
    def recorded(self: Any, positions: Any, query: Any, key: Any = None) -> Any:
        tokens = int(positions.numel())
        for name, tensor in (("query", query), ("key", key)):
            if tensor is not None and kernel_misreads(tokens, tuple(tensor.shape), tuple(tensor.stride())):
                state["misread"].setdefault(
                    f"{type(self).__name__} {name} {tuple(tensor.shape)}, strides {tuple(tensor.stride())}", None)
        if state["native"]:
            return self.forward_native(positions, query, key)
        return original(self, positions, query, key)
    base.RotaryEmbedding.forward_cpu = recorded


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    from vllm.model_executor.layers.rotary_embedding import base

    saved = base.RotaryEmbedding._compute_inv_freq, base.RotaryEmbedding.forward_cpu
    try:
        return _run(job, base)
    finally:  # a fault never leaks into the next job
        base.RotaryEmbedding._compute_inv_freq, base.RotaryEmbedding.forward_cpu = saved


def _run(job: dict[str, Any], base: Any) -> dict[str, Any]:
    from vllm import LLM, SamplingParams
    from vllm.inputs import TokensPrompt

    began = time.perf_counter()
    if job.get("fault") == "base":
        _double_base()
    kernel: dict[str, Any] = {"misread": {}, "native": False}
    _record_kernel_layouts(base, kernel)
    config = json.loads((Path(job["model_dir"]) / "config.json").read_text())
    vocabulary = int(config.get("vocab_size") or config.get("text_config", {}).get("vocab_size"))
    served, notes = _served_length(config, job)
    try:
        llm = _start(LLM, job["model_dir"], vocabulary, served, notes)
    except Exception as error:
        cause = _inspection_cause(config) if "failed to be inspected" in str(error) else None
        if cause is None:
            raise
        raise common["EngineFailure"](f"ModelConfig's ValidationError: {cause}") from error
    loaded = time.perf_counter() - began
    caches = _rotary_caches(llm)
    params = SamplingParams(max_tokens=1, temperature=0.0, prompt_logprobs=vocabulary, logprobs=vocabulary,
                            detokenize=False)
    prompts = [TokensPrompt(prompt_token_ids=list(w["tokens"])) for w in job["windows"]]
    outputs = llm.generate(prompts, params, use_tqdm=False)
    windows = [{"logprobs": _rows(out, w["tokens"], vocabulary)} for out, w in zip(outputs, job["windows"],
                                                                                      strict=True)]
    if kernel["misread"]:
        kernel["native"] = True
        again = llm.generate(prompts, params, use_tqdm=False)
        for window, out, w in zip(windows, again, job["windows"], strict=True):
            window["logprobs_native_rotary"] = _rows(out, w["tokens"], vocabulary)
        notes.append("the CPU rotary kernel was handed " + "; ".join(kernel["misread"]) + ", a layout it misreads "
                     "(csrc/cpu/pos_encoding.cpp:173-178): the windows were decoded again with forward_native")
    del llm  # the next job builds its own engine in this process
    import gc

    gc.collect()
    return {"load_s": loaded, "run_s": time.perf_counter() - began - loaded, "windows": windows,
            "rotary_caches": caches,
            "notes": [f"float32, enforce_eager; max_model_len {served}; log-probabilities as vLLM returns them "
                      "(float32)", *notes,
                      *(f"rotary cache: {c['class']}, {c['rows']} rows of cos/sin (positions 0–{c['rows'] - 1}), "
                        f"run by {c['forward'] or 'forward'}" for c in caches)]}


def _start(engine: Any, model_dir: str, vocabulary: int, served: int, notes: list[str]) -> Any:
    """vLLM's `LLM` for the job; only when vLLM refuses `served` as longer than the length it derives from the config
    (`vllm/config/model.py:2639-2666`; for dynamic NTK it allows max_position_embeddings × factor itself, :2595-2616)
    is it started again with its own override, `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`, and the note says so."""
    arguments = {"model": model_dir, "skip_tokenizer_init": True, "dtype": "float32", "enforce_eager": True,
                 "max_logprobs": vocabulary, "seed": 0, "max_model_len": served}
    try:
        return engine(**arguments)
    except ValueError as error:
        if "VLLM_ALLOW_LONG_MAX_MODEL_LEN" not in str(error):
            raise
    os.environ["VLLM_ALLOW_LONG_MAX_MODEL_LEN"] = "1"
    notes.append(f"max_model_len {served} is past the length vLLM derives from the config, which it refused: "
                 "started with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1")
    try:
        return engine(**arguments)
    finally:
        del os.environ["VLLM_ALLOW_LONG_MAX_MODEL_LEN"]


def _rotary_caches(llm: Any) -> list[dict[str, Any]]:
    """The rotary embeddings of the model as the engine loaded it (`LLM.apply_model`): class, rows of its cos/sin
    cache (the positions it covers) and the forward method vLLM dispatched to (`forward_cpu`: its C++ kernel,
    which indexes the cache by position without a bounds check; `forward_native` raises IndexError instead)."""

    def read(model: Any) -> list[dict[str, Any]]:
        found: dict[tuple[str, int, str], None] = {}
        for module in model.modules():
            cache = getattr(module, "cos_sin_cache", None)
            if cache is not None:
                method = getattr(getattr(module, "_forward_method", None), "__name__", "")
                found[(type(module).__name__, int(cache.shape[0]), method)] = None
        return [{"class": name, "rows": rows, "forward": method} for name, rows, method in found]

    return llm.apply_model(read)[0]


def _inspection_cause(config: dict[str, Any]) -> str | None:
    """Why vLLM could not inspect the config's architecture (its `ModelConfig` says only "failed to be inspected"):
    the import of vLLM's model module for it, re-run here, with the chain of files and lines that failed."""
    import importlib
    import traceback

    from vllm.model_executor.models.registry import _VLLM_MODELS

    for architecture in config.get("architectures") or []:
        if architecture not in _VLLM_MODELS:
            continue
        module = f"vllm.model_executor.models.{_VLLM_MODELS[architecture][0]}"
        try:
            importlib.import_module(module)
        except Exception as error:
            frames = [f"{f.filename.rsplit('/site-packages/', 1)[-1]}:{f.lineno}"
                      for f in traceback.extract_tb(error.__traceback__) if "/site-packages/" in f.filename]
            return (f"{architecture} not inspected, its module does not import: {type(error).__name__}: {error} "
                    f"({' → '.join(frames[-2:])})")
    return None


#: The most KV cache the probe gives vLLM (GiB): the machine's 24 GiB are shared with the other engines.
KV_CACHE_LIMIT_GIB = 4


def _served_length(config: dict[str, Any], job: dict[str, Any]) -> tuple[int, list[str]]:
    """`max_model_len` and the KV cache (`VLLM_CPU_KVCACHE_SPACE`, read when the engine starts) for one job: the
    config's whole context when its float32 KV cache fits in `KV_CACHE_LIMIT_GIB` (vLLM refuses to start when one
    request of that length does not fit; 1 GiB is the probe's default), else the longest prompt of the job; and at
    least the longest prompt (past `max_position_embeddings`: dynamic NTK's regime, which vLLM serves up to
    max_position_embeddings × factor; `_start` uses vLLM's override only where vLLM refuses the length)."""
    import math

    text = config.get("text_config") or config
    declared = int(text["max_position_embeddings"])
    longest = max(len(w["tokens"]) for w in job["windows"]) + 1  # + the one sampled token vLLM requires
    heads = int(text.get("num_key_value_heads") or text["num_attention_heads"])
    head = int(text.get("head_dim") or int(text["hidden_size"]) // int(text["num_attention_heads"]))
    per_token = 2 * int(text["num_hidden_layers"]) * heads * head * 4
    notes = []
    served = declared
    need = math.ceil(per_token * served * 1.25 / 2**30)
    if need > KV_CACHE_LIMIT_GIB:
        served = longest
        need = 1
        notes.append(f"max_model_len {longest} (the longest prompt): the whole context {declared} needs "
                     f"{per_token * declared / 2**30:.1f} GiB of float32 KV cache, over the probe's "
                     f"{KV_CACHE_LIMIT_GIB} GiB")
    if longest > served:
        notes.append(f"max_model_len {longest} > max_position_embeddings {declared}")
        served = longest
    os.environ["VLLM_CPU_KVCACHE_SPACE"] = str(max(1, need))
    if need > 1:
        notes.append(f"KV cache {need} GiB (VLLM_CPU_KVCACHE_SPACE) for {served} positions")
    return served, notes


def main() -> None:
    import importlib.metadata as metadata

    os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    common["serve"]("vllm", metadata.version("vllm-cpu"), run_job)


if __name__ == "__main__":
    main()
