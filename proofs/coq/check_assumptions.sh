#!/usr/bin/env bash
# Print Assumptions for every Theorem/Lemma/Example of the given .v files (default: Rope.v)
# and fail if any theorem depends on something other than Coq's standard axioms. The accepted
# set is exactly proofs/_kernel.py's STANDARD_AXIOMS (classical reals, excluded middle,
# functional/propositional extensionality, constructive_indefinite_description, eq_rect_eq)
# plus the names under STANDARD_AXIOM_MODULES (PrimFloat., PrimInt63., FloatAxioms., Uint63.:
# the primitive-float/int63 specifications the `interval` tactic relies on). Run from the
# repository root after the build:
#   cd proofs/coq && coq_makefile -f _CoqProject -o Makefile.coq && make -f Makefile.coq -j2 \
#     && ./check_assumptions.sh Defs.v Rope.v
set -euo pipefail
cd "$(dirname "$0")"
files=("${@:-Rope.v}")
standard='^(ClassicalDedekindReals\.sig_forall_dec|ClassicalDedekindReals\.sig_not_dec|FunctionalExtensionality\.functional_extensionality_dep|PropExtensionality\.propositional_extensionality|Classical_Prop\.classic|ClassicalEpsilon\.constructive_indefinite_description|Eqdep\.Eq_rect_eq\.eq_rect_eq)$'
# Interval's primitive 64-bit floats and 63-bit integers and their specifications (prefix match).
primitive='^(PrimFloat|PrimInt63|FloatAxioms|Uint63)\.'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for f in "${files[@]}"; do
  module=${f%.v}
  # Top-level names only (a Module ... End block is skipped: its lemmas feed the public ones).
  names=$(awk '/^Module /{depth++} /^End /{if (depth>0) depth--}
               depth==0 && /^(Theorem|Lemma|Example|Corollary) /{print $2}' "$f")
  {
    echo "From Ropecheck Require Import $module."
    for n in $names; do
      echo "Goal True. idtac \"@@ $n\". Abort."
      echo "Print Assumptions $module.$n."
    done
  } > "$tmp/check.v"
  coqc -R . Ropecheck "$tmp/check.v" > "$tmp/out.txt"
  awk -v std="$standard" -v prim="$primitive" -v file="$f" '
    /^@@ / { name = $2; total++; next }
    /^Closed under the global context/ { closed++; next }
    /^Axioms:/ { next }
    /^[A-Za-z_][A-Za-z0-9_.'"'"']*( :|$)/ {
      ax = $1
      if (ax ~ prim) { if (!(name in primuser)) { primuser[name] = 1; prims++ }; primnames[ax] = 1; next }
      seen[ax]++
      if (ax !~ std) { print "  NON-STANDARD in " name ": " ax; bad++ }
    }
    END {
      printf "%s: %d names checked, %d closed under the global context\n", file, total, closed
      for (a in seen) printf "  axiom %s used by %d theorems\n", a, seen[a]
      if (prims > 0) {
        n = 0; for (a in primnames) n++
        printf "  %d primitive-float/int63 specifications (interval) used by %d theorems:", n, prims
        for (t in primuser) printf " %s", t
        printf "\n"
      }
      exit bad > 0
    }' "$tmp/out.txt" || status=1
done
exit $status
