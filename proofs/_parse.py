"""Parse a user identity `"LHS == RHS"` for `ropecheck prove` (filled in below)."""
