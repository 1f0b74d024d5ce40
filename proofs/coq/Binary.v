(** * Binary.v: the binary encoding of seed 004.

    One theorem per claim of proofs/claims/_claims_binary.py, named after its ID: the bits that flip from
    3 to 4, and the 8-bit table of positions with its fast-changing lowest bit.  The definitions live in
    DefsBinary.v. *)

From Coq Require Import ZArith Reals Lia Lra List Bool.
From Ropecheck Require Import Defs DefsBinary.

Import ListNotations.

(** ** BINARY-3-TO-4-FLIPS-004 and BINARY-TABLE-004 *)

Local Open Scope nat_scope.

(* "going from position 3 (binary 011) to 4 (binary 100) flips all bits":
   in the three-bit strings the sentence writes, all three bits flip. *)
Theorem binary_3_to_4_flips_004 : flipped_bits 3 3 4 = 3%nat.
Proof. vm_compute; reflexivity. Qed.

(* In the 8-bit representation of the blog's table, 3 of the 8 bits flip. *)
Theorem binary_3_to_4_flips_004_literal_negation : flipped_bits 8 3 4 <> 8%nat.
Proof. vm_compute; discriminate. Qed.

(* Every row of the table is its position in 8-bit binary, and over the
   positions 0 .. 120 of the blog's figure the lowest bit changes at every
   step while the highest never does ("the lowest bit ... varies a lot
   compared to the higher indices"). *)
Theorem binary_table_004 :
  table_004_rows = map eight_bits (seq 0 12)
  /\ bit_changes 0 120 = 120%nat /\ bit_changes 7 120 = 0%nat.
Proof. vm_compute; repeat split; reflexivity. Qed.

(* The definitions live in DefsBinary.v; these abbreviations keep `Binary.name` working for importers. *)
Notation flipped_bits := DefsBinary.flipped_bits (only parsing).
Notation table_004_rows := DefsBinary.table_004_rows (only parsing).
Notation eight_bits := DefsBinary.eight_bits (only parsing).
Notation bit_changes := DefsBinary.bit_changes (only parsing).
