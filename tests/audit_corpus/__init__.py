"""A corpus of RoPE implementations for the auditor's tests: correct ones (no finding may fail) and buggy ones,
each of a named bug class that some property must catch. Every function follows the audit contract
`fn(x, positions) -> y`, x of shape `(..., L, d)`."""
