"""Shared by every engine probe (copied into the probe's process by `runpy`: it imports nothing from ropecheck,
whose environment the engines do not share): the request/answer protocol, timing, the float64 log-softmax.

Protocol. Request on stdin: `{"jobs": [{"id", "model_dir", "gguf"?, "windows": [{"start", "tokens"}],
"fault"?, "options"?}]}`. Answer on stdout, one JSON object: `{"engine", "version", "jobs": [{"id", "load_s",
"run_s", "windows": [{"logprobs": [[float]]}] | "error": "...", "notes": [...]}]}`. A job the engine cannot load
or run carries `error` (the engine's message, one line); a probe that cannot parse its request exits non-zero.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any


class EngineFailure(Exception):
    """Raised by a probe for a failure that is the engine's (its converter, its loader), not the probe's."""


def log_softmax(row: list[float]) -> list[float]:
    """log-softmax of one row of logits, in float64 (the logits are the engine's, exactly)."""
    top = max(row)
    total = math.fsum(math.exp(v - top) for v in row)
    shift = top + math.log(total)
    return [v - shift for v in row]


def one_line(error: BaseException) -> str:
    """The engine's error in one line, with the innermost frame."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/site-packages/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    text = str(error).strip().splitlines()
    return (f"{type(error).__name__}: {text[0] if text else ''}"[:300] + where)[:400]


def serve(engine: str, version: str, run_job: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Read the request, run each job (timing it), print the answer."""
    request = json.load(sys.stdin)
    # The answer goes to the original stdout; the engine's own prints (and anything that replaces sys.stdout) go to
    # stderr, so they can neither corrupt nor swallow the answer.
    answer_stream = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    out = []
    for job in request["jobs"]:
        began = time.perf_counter()
        try:
            answer = run_job(job)
        except Exception as error:
            # Raised in the probe's own code: ropecheck's adapter failed; raised inside the engine: the engine's.
            frames = traceback.extract_tb(error.__traceback__)
            ours = bool(frames) and "/engines_live/_probe" in frames[-1].filename
            ours = ours and type(error).__name__ != "EngineFailure"
            answer = {"adapter_error" if ours else "error": one_line(error)}
        answer.setdefault("run_s", time.perf_counter() - began)
        answer["id"] = job["id"]
        out.append(answer)
    json.dump({"engine": engine, "version": version, "jobs": out}, answer_stream)
    answer_stream.flush()
    answer_stream.close()
