#!/usr/bin/env bash
# Interleaved whole-process timing of two or more `budget` builds on one
# tree: `pack --budget 100000 --counter o200k` without and with a query,
# each build once per round, the median wall time of each, with empty
# caches (an earlier build ignores them).
#
#   budget-cli/bench/builds.sh [RUNS] BUDGET...   # default 5 rounds
#
#   TREE   `stdlib` (default), `four`, `large` or a directory (see common.sh)
#   QUERY  the query of the second series ["asyncio event loop"]
#
# To compare against an earlier commit, build it in a worktree:
#   git worktree add /tmp/old <rev> && (cd /tmp/old && cargo build --release -p budget-cli)
#   budget-cli/bench/builds.sh 5 /tmp/old/target/release/budget target/release/budget
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/budget-cli/bench/common.sh"
RUNS=5
if [[ ${1:-} =~ ^[0-9]+$ ]]; then RUNS=$1; shift; fi
(($# >= 1)) || { echo "usage: $0 [RUNS] BUDGET..." >&2; exit 2; }
TREE=$(bench_tree "${TREE:-stdlib}")
QUERY=${QUERY:-asyncio event loop}
describe_tree "$TREE"
WALL=$(mktemp)
CACHE=$(mktemp -d)
trap 'rm -rf "$WALL" "$CACHE"' EXIT

for query in "" "$QUERY"; do
    declare -A times=()
    for ((round = 0; round < RUNS; round++)); do
        for budget in "$@"; do
            args=(pack "$TREE" --budget 100000 --counter o200k --no-config -o /dev/null)
            [[ -n $query ]] && args+=(--query "$query")
            # Caches of its own, empty each run: builds compare cold.
            rm -rf "$CACHE" && mkdir "$CACHE"
            BUDGET_CACHE_DIR=$CACHE /usr/bin/time -f %e -o "$WALL" "$budget" "${args[@]}" >/dev/null 2>&1
            times[$budget]="${times[$budget]:-} $(tail -1 "$WALL")"
        done
    done
    for budget in "$@"; do
        median=$(tr ' ' '\n' <<<"${times[$budget]}" | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
        echo "query='$query' $budget: median $median s of $RUNS [${times[$budget]} ]"
    done
    unset times
done
