#!/usr/bin/env bash
# Where a cold pack's time goes, stage by stage, for one or more `budget`
# builds side by side: `pack --budget 100000 --counter o200k --no-cache
# --timings`, each build once per round (interleaved), the median of each
# stage's wall time in milliseconds, and the median of the whole process
# under /usr/bin/time.
#
#   budget-cli/bench/stages.sh [RUNS] BUDGET...   # default 7 rounds
#
#   TREE   `stdlib` (default), `four`, `large` or a directory (see common.sh)
#   QUERY  a `--query` [none]
#   CORES  a `taskset -c` list to run on [all cores]
#
# A build needs `--timings` (from this commit on); to time an earlier
# commit, cherry-pick the commit that added it onto a worktree of it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/budget-cli/bench/common.sh"
RUNS=7
if [[ ${1:-} =~ ^[0-9]+$ ]]; then RUNS=$1; shift; fi
(($# >= 1)) || { echo "usage: $0 [RUNS] BUDGET..." >&2; exit 2; }
TREE=$(bench_tree "${TREE:-stdlib}")
describe_tree "$TREE"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
args=(pack "$TREE" --budget 100000 --counter o200k --no-config --no-cache --timings -o /dev/null)
[[ -n ${QUERY:-} ]] && args+=(--query "$QUERY")
run=()
[[ -n ${CORES:-} ]] && run=(taskset -c "$CORES")

for ((round = 0; round < RUNS; round++)); do
    for i in $(seq $#); do
        budget=${!i}
        "${run[@]}" /usr/bin/time -f 'process %e' -o "$OUT/time" "$budget" "${args[@]}" 2>"$OUT/stderr" >/dev/null
        # Stage lines are indented `name ms`; the process's wall time joins them.
        { grep -E '^  [a-z]+ +[0-9.]+$' "$OUT/stderr"; awk '{print "  " $1, $2 * 1000}' "$OUT/time"; } \
            >>"$OUT/build$i"
    done
done

python3 - "$RUNS" "$OUT" "$@" <<'EOF'
import statistics, sys
runs, out, builds = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
tables, order = [], []
for i in range(1, len(builds) + 1):
    stages = {}
    for line in open(f"{out}/build{i}"):
        name, ms = line.split()
        stages.setdefault(name, []).append(float(ms))
        if name not in order:
            order.append(name)
    tables.append(stages)
print(f"\nmedians of {runs} interleaved rounds, ms of wall time")
print("| stage | " + " | ".join(builds) + " |")
print("|---|" + "--:|" * len(builds))
for name in order:
    cells = [f"{statistics.median(t[name]):.0f}" if name in t else "" for t in tables]
    print(f"| {name} | " + " | ".join(cells) + " |")
EOF
