#!/usr/bin/env bash
# Whole-process cost of an exact budget: `budget pack --counter o200k`
# against `budget pack --counter calibrated` on one tree of 5,000+ files,
# side by side in one hyperfine run, and (BEFORE set) against a build from
# before exact counting on demand, which counted every file exactly. Also
# checks that the exact payload is within the budget and (BEFORE set) that
# both builds render the same payload, byte for byte.
#
#   budget-cli/bench/exact_vs_estimate.sh [RUNS]   # default 5 runs per command
#
# Environment (defaults in brackets):
#   TREE    the tree to pack [built under /tmp/budget-bench/exact-tree: the
#           Python standard library without site-packages and __pycache__,
#           plus the sources of the crates in CRATES from ~/.cargo/registry]
#   CRATES  crates whose newest version in the cargo registry is copied
#           [see below]
#   BUDGET  budget binary [target/release/budget, built here]
#   BEFORE  an older budget binary to compare with [none]
#   TOKENS  --budget [25000]
#   OUT     where outputs go [/tmp/budget-bench/exact-out]
set -euo pipefail

RUNS=${1:-5}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/budget-cli/bench/common.sh"
OUT=${OUT:-/tmp/budget-bench/exact-out}
TOKENS=${TOKENS:-25000}
BUDGET=${BUDGET:-}
BEFORE=${BEFORE:-}
CRATES=${CRATES:-"tokio libc syn regex-automata regex-syntax serde_json clap_builder chrono rayon
    proptest criterion ignore rustix async-openai serde-saphyr clap"}
mkdir -p "$OUT"
command -v hyperfine >/dev/null || { echo "hyperfine not found (apt-get install hyperfine)"; exit 1; }

if [[ -z ${TREE:-} ]]; then
    TREE=/tmp/budget-bench/exact-tree
    if [[ ! -d $TREE ]]; then
        copy_python_stdlib "$TREE/python"
        mkdir -p "$TREE/crates"
        registry=$(echo ~/.cargo/registry/src/index.crates.io-*)
        for crate in $CRATES; do
            newest=$(ls -d "$registry/$crate"-[0-9]* 2>/dev/null | sort -V | tail -1)
            [[ -n $newest ]] || { echo "$crate not in $registry: set CRATES"; exit 1; }
            cp -r "$newest" "$TREE/crates/"
        done
    fi
fi
[[ -n $BUDGET ]] || BUDGET=$(release_budget "$ROOT")
describe_tree "$TREE"
echo "budget: $BUDGET ($("$BUDGET" --version))${BEFORE:+; before: $BEFORE}"

# One run of each outside the timing: outputs, summaries, checks.
"$BUDGET" pack "$TREE" --budget "$TOKENS" --counter calibrated -o "$OUT/calibrated.md" 2>"$OUT/calibrated.stderr"
"$BUDGET" pack "$TREE" --budget "$TOKENS" --counter o200k -o "$OUT/o200k.md" 2>"$OUT/o200k.stderr"
cat "$OUT/o200k.stderr"
exact=$("$BUDGET" count "$OUT/o200k.md" --counter o200k --format json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["total_tokens"])')
echo "o200k payload: $exact tokens counted again by 'budget count --counter o200k' (budget $TOKENS)"
[[ $exact -le $TOKENS ]] || { echo "over the budget"; exit 1; }
commands=(
    "$BUDGET pack $TREE --budget $TOKENS --counter calibrated -o $OUT/calibrated.md"
    "$BUDGET pack $TREE --budget $TOKENS --counter o200k -o $OUT/o200k.md"
    "$BUDGET count $TREE --counter o200k"
)
names=(calibrated o200k "count o200k (every file exactly)")
if [[ -n $BEFORE ]]; then
    "$BEFORE" pack "$TREE" --budget "$TOKENS" --counter o200k -o "$OUT/before.md" 2>/dev/null
    if cmp -s "$OUT/before.md" "$OUT/o200k.md"; then
        echo "before and after render the same o200k payload ($(stat -c %s "$OUT/o200k.md") bytes)"
    else
        echo "before and after o200k payloads differ"; exit 1
    fi
    commands+=("$BEFORE pack $TREE --budget $TOKENS --counter o200k -o $OUT/before.md")
    names+=("o200k before")
fi

args=()
for i in "${!commands[@]}"; do args+=(--command-name "${names[$i]}" "${commands[$i]}"); done
hyperfine --warmup 1 --runs "$RUNS" --style basic --export-markdown "$OUT/times.md" "${args[@]}" 2>/dev/null
cat "$OUT/times.md"
