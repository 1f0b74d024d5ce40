(** * DefsPositions: the definitions Positions.v states its claims with (definition-only, reviewed:
    see docs/trusted.md).  Positions.v adds no definition of its own: its statements read the
    seeds' encoding (DefsSinusoidal) and RoFormer's spectrum (DefsRope). *)

From Coq Require Import ZArith Reals Lia Lra.
From Ropecheck Require Import Defs DefsRope DefsSinusoidal.
