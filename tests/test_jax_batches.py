"""`run_jax_in_batches` (numeric/mirrors/_jax.py): the ledger's numeric tables run their sweeps in blocks of one
length so that eager JAX compiles each operation once per dtype; the values must be exactly `run_jax`'s."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from ropecheck.numeric.mirrors import compile_program, run_jax, store_in
from ropecheck.numeric.mirrors._jax import SMALL_BATCH, run_jax_in_batches

_m, _theta = sp.Symbol("m", integer=True), sp.Symbol("theta", positive=True)


@pytest.mark.parametrize("dtype", ["float16", "float64"])
def test_batches_give_run_jax_values_case_by_case(dtype: str) -> None:
    """A length that is not a multiple of the batch (the last block padded): every output equals run_jax's
    bit for bit, in order, with the padding dropped."""
    program = compile_program([sp.cos(_m * _theta), sp.sin(_m * _theta)])
    cases = 2 * SMALL_BATCH + 37
    inputs = {
        _m: store_in(np.arange(cases, dtype=np.float64), dtype),
        _theta: store_in(np.linspace(0.01, 1.0, cases), dtype),
    }
    whole = run_jax(program, inputs, dtype)
    batched = run_jax_in_batches(program, inputs, dtype, SMALL_BATCH)
    assert len(batched) == len(whole) == 2
    for plain, blocks in zip(whole, batched, strict=True):
        assert blocks.shape == (cases,)
        assert np.array_equal(plain, blocks)
