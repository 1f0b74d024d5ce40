"""The verdicts the kernel gives the context-extension literature's claims (`proofs/claims/_claims_scaling.py`),
merged into `test_claims.EXPECTED` so that each claim gets its `test_<id>`."""

SCALING_EXPECTED = {
    "NTK-ENDPOINTS": "proved",
    "NTK-OUT-OF-BOUND": "proved",
    "YARN-TEMPERATURE": "proved",
    "YARN-RAMP-CODE": "refuted",
    "YARN-EQ17-BASE": "refuted",
    "YARN-DYNAMIC-RULE": "refuted",
    "DEEPSEEK-V2-MSCALE": "proved",
    "DEEPSEEK-V3-MSCALE": "proved",
    "LLAMA3-BAND-EDGES": "proved",
    "LLAMA3-IS-BY-PARTS": "proved",
    "LONGROPE-ATTENTION-SCALE": "proved",
    "ALIBI-SLOPES-GENERAL": "refuted",
    "MROPE-TEXT-REDUCES": "proved",
    "T5-BUCKET-SATURATION": "proved",
    "CRITICAL-DIMENSION-LIU": "proved",
    "XIONG-SCORE-DECAY": "refuted",
    "XPOS-RELATIVE-DECAY": "proved",
    "XPOS-FP16-RANGE": "proved",
    "PI-INTERPOLATION-BOUND": "unknown",
}
