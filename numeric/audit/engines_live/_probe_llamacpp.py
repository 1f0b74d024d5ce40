"""llama.cpp probe (run in `.venv-engines/llamacpp`, llama-cpp-python built from source): the saved tiny model gets
a tokenizer trained in the run (a SentencePiece model on a few hundred made-up words; the converter needs one), is
converted to GGUF in float32 by llama.cpp's own vendored `convert_hf_to_gguf.py` (so the converter's rope metadata
mapping is part of what is tested), loaded with `llama_cpp.Llama`, and each window decoded as one `llama_batch` with
explicit positions (start … start + T − 1) in a fresh KV cache. Twice: with llama.cpp's default float16 KV cache,
and with a float32 one (`type_k = type_v = f32`), so the cache's share of the difference is measured, not assumed.
`n_ctx` is the largest window end, rounded up to 256 (llama.cpp picks LongRoPE's factor set from it).

Faults (only the broken-engine tests set one), injected into the converter in this process: `base` (the converter
writes `rope.freq_base` doubled).
"""

from __future__ import annotations

import io
import os
import random
import runpy
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

common = runpy.run_path(str(Path(__file__).with_name("_probe_common.py")))

# Where `bash .ci/bootstrap engines` puts the vendored converter (ROPECHECK_LLAMACPP_CONVERTER names another).
CONVERTER = Path(os.environ.get("ROPECHECK_LLAMACPP_CONVERTER")
                 or Path(sys.prefix) / "share" / "llama.cpp" / "convert_hf_to_gguf.py")
_F32 = 0  # GGML_TYPE_F32
#: Model types whose converter reads the tokenizer through transformers' fast tokenizer only (no SentencePiece
#: path: gpt-oss; Qwen3-MoE, whose converter class inherits Qwen2-MoE's `_set_vocab_gpt2`, conversion/base.py:1403-1404,
#: conversion/qwen.py:268-274, where dense Qwen2/Qwen3 try SentencePiece first, qwen.py:60-64; DeepSeek-V3, whose
#: GGUF gets a gpt2 vocabulary that llama.cpp refuses without merges — "cannot find tokenizer merges in model file" —
#: and the merges are read from a tokenizer.json; DeepSeek-V2 the same; Qwen3-VL-MoE, whose text converter is
#: Qwen3-MoE's); they get a tokenizer.json made from the same SentencePiece model.
FAST_TOKENIZER_ONLY = {"gpt_oss", "qwen3_moe", "deepseek_v3", "deepseek_v2", "qwen3_vl_moe"}


def _tokenizer(directory: Path, vocabulary: int) -> None:
    """A SentencePiece BPE model of at most `vocabulary` pieces, trained here on made-up words."""
    import sentencepiece

    generator = random.Random(0)
    words = ["".join(generator.choice("abcdefghij") for _ in range(generator.randint(2, 7))) for _ in range(400)]
    sentences = [" ".join(generator.sample(words, 8)) for _ in range(200)]
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences), model_writer=model, vocab_size=min(vocabulary, 40), model_type="bpe",
        character_coverage=1.0, unk_id=0, bos_id=1, eos_id=2, pad_id=-1, hard_vocab_limit=False,
        minloglevel=2)
    (directory / "tokenizer.model").write_bytes(model.getvalue())


def _convert(model_dir: str, work: Path, fault: str | None) -> Path:
    import json

    copy = work / "hf"
    shutil.copytree(model_dir, copy)
    config = json.loads((copy / "config.json").read_text())
    _tokenizer(copy, config.get("vocab_size", 48))
    if config.get("model_type") in FAST_TOKENIZER_ONLY:
        from transformers import LlamaTokenizerFast

        LlamaTokenizerFast(vocab_file=str(copy / "tokenizer.model"), legacy=True).save_pretrained(copy)
    out = work / "model.gguf"
    # The converter names a BPE tokenizer's pre-tokenizer by hashing its tokens of a fixed text, and refuses one it
    # does not know (DeepSeek-V3 and gpt-oss read the BPE path): the tokenizer trained here is named "default". The
    # audit feeds token ids, never text, so no tokenization depends on it.
    patch = ("import conversion.base as _base; "
             "_base.TextModel.get_vocab_base_pre = lambda self, tokenizer: 'default'; ")
    if fault == "base":
        patch += ("import gguf; _o = gguf.GGUFWriter.add_rope_freq_base; "
                 "gguf.GGUFWriter.add_rope_freq_base = lambda self, v: _o(self, 2 * v); ")
    code = (f"import runpy, sys; sys.path.insert(0, {str(CONVERTER.parent)!r}); {patch}"
            f"sys.argv = ['convert_hf_to_gguf.py', {str(copy)!r}, '--outfile', {str(out)!r}, '--outtype', 'f32']; "
            f"runpy.run_path({str(CONVERTER)!r}, run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        raise common["EngineFailure"](f"convert_hf_to_gguf.py failed: {lines[-1] if lines else 'no output'}"[:300])
    return out


#: llama.cpp's error-level log lines since the last model load began (`_log_errors`): its loader says why a model
#: does not load there, while llama-cpp-python raises only "Failed to load model from file".
_LOADER_ERRORS: list[str] = []


def _log_errors() -> None:
    """Route llama.cpp's log through a callback that keeps its error lines (and, as llama-cpp-python's own callback
    does when not verbose, prints them to stderr)."""
    import ctypes

    import llama_cpp

    @llama_cpp.llama_log_callback
    def keep(level: int, text: bytes, user_data: Any) -> None:
        if level == 4:  # GGML_LOG_LEVEL_ERROR (ggml/include/ggml.h:657; llama-cpp-python's _logger maps it as DEBUG)
            line = text.decode("utf-8", "replace").strip()
            _LOADER_ERRORS.append(line)
            print(line, file=sys.stderr)

    _log_errors.callback = keep  # type: ignore[attr-defined]  # ctypes keeps no reference of its own
    llama_cpp.llama_log_set(keep, ctypes.c_void_p(0))


def _load(path: Path, **settings: Any) -> Any:
    """`llama_cpp.Llama` on the GGUF; a model llama.cpp refuses is the engine's failure, with its loader's words."""
    from llama_cpp import Llama

    _LOADER_ERRORS.clear()
    try:
        return Llama(model_path=str(path), **settings)
    except ValueError as error:
        said = next((line for line in _LOADER_ERRORS if "error loading model" in line), None) or \
            next(iter(_LOADER_ERRORS), "")
        raise common["EngineFailure"](f"{error}: llama.cpp: {said}" if said else str(error)) from error


def _decode(llm: Any, tokens: list[int], start: int) -> list[list[float]]:
    import llama_cpp

    ctx = llm._ctx.ctx
    llama_cpp.llama_memory_clear(llama_cpp.llama_get_memory(ctx), True)
    batch = llama_cpp.llama_batch_init(len(tokens), 0, 1)
    try:
        for i, token in enumerate(tokens):
            batch.token[i] = token
            batch.pos[i] = start + i
            batch.n_seq_id[i] = 1
            batch.seq_id[i][0] = 0
            batch.logits[i] = True
        batch.n_tokens = len(tokens)
        status = llama_cpp.llama_decode(ctx, batch)
        if status != 0:
            raise common["EngineFailure"](
                f"llama_decode returned {status} at positions {start}–{start + len(tokens) - 1}")
        vocabulary = llm.n_vocab()
        rows = []
        for i in range(len(tokens)):
            pointer = llama_cpp.llama_get_logits_ith(ctx, i)
            rows.append(common["log_softmax"]([float(pointer[j]) for j in range(vocabulary)]))
        return rows
    finally:
        llama_cpp.llama_batch_free(batch)


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    began = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="ropecheck-gguf-"))
    try:
        gguf = _convert(job["model_dir"], work, job.get("fault"))
        converted = time.perf_counter() - began
        ends = [w["start"] + len(w["tokens"]) for w in job["windows"]]
        n_ctx = -(-max(ends) // 256) * 256
        models = {}
        for label, kv in (("default", None), ("float32_cache", _F32)):
            settings = {"type_k": kv, "type_v": kv} if kv is not None else {}
            models[label] = _load(gguf, n_ctx=n_ctx, n_batch=64, n_ubatch=64, n_threads=1, logits_all=True,
                                  verbose=False, **settings)
        loaded = time.perf_counter() - began
        windows = []
        for window in job["windows"]:
            windows.append({"logprobs": _decode(models["default"], window["tokens"], window["start"]),
                            "logprobs_float32_cache": _decode(models["float32_cache"], window["tokens"],
                                                              window["start"])})
        notes = [f"GGUF f32 by the vendored convert_hf_to_gguf.py ({converted:.1f} s); n_ctx {n_ctx}; default KV "
                 "cache float16, flash attention off (llama-cpp-python's default); explicit batch positions"]
        return {"load_s": loaded, "run_s": time.perf_counter() - began - loaded, "windows": windows, "notes": notes}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    import llama_cpp

    os.environ.setdefault("OMP_NUM_THREADS", "1")
    _log_errors()
    common["serve"]("llama.cpp", llama_cpp.__version__, run_job)


if __name__ == "__main__":
    main()
