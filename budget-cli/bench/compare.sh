#!/usr/bin/env bash
# Side-by-side, whole-process comparison of `budget pack` against code2prompt
# and repomix on one large real tree: wall time, peak memory (max RSS) and
# each output's exact o200k_base token count (counted by `budget count
# --counter o200k`, the same exact counter for every output).
#
#   budget-cli/bench/compare.sh [RUNS]        # default 3 runs per tool, interleaved
#
# Environment (defaults in brackets):
#   TREE        the tree to pack, made under /tmp/budget-bench on first use
#               [`stdlib`: the Python standard library without site-packages
#               and __pycache__]; `four`: four copies of it side by side;
#               `large`: the whole library with site-packages (no __pycache__);
#               or any directory
#   BUDGET      budget binary [target/release/budget, built here]
#   CODE2PROMPT code2prompt binary [code2prompt on PATH; `cargo install code2prompt`]
#   REPOMIX     repomix command [repomix on PATH; `npm install -g repomix@1.18.1`]
#   OUT         where outputs and timings go [/tmp/budget-bench/out]
#   QUERY       a `--query` for `budget` (the other tools have none and do
#               the same work either way) [none]
#
# Nothing third-party is committed: the tools and their outputs stay outside
# the repository.
set -euo pipefail

RUNS=${1:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$ROOT/budget-cli/bench/common.sh"
OUT=${OUT:-/tmp/budget-bench/out}
BUDGET=${BUDGET:-}
CODE2PROMPT=${CODE2PROMPT:-code2prompt}
REPOMIX=${REPOMIX:-repomix}
mkdir -p "$OUT"

TREE=$(bench_tree "${TREE:-stdlib}")
[[ -n $BUDGET ]] || BUDGET=$(release_budget "$ROOT")
describe_tree "$TREE"
# `budget` runs without the caches (cold: the first pack of a
# tree), `budget-warm` with the caches one earlier run of the same command
# filled (a tree packed again, no file changed).
CACHE=$OUT/caches
TOOLS=(budget:budget.md budget-warm:budget-warm.md)
if command -v "$CODE2PROMPT" >/dev/null; then TOOLS+=(code2prompt:code2prompt.md); else echo "code2prompt not found: skipped"; fi
if command -v "${REPOMIX%% *}" >/dev/null; then TOOLS+=(repomix:repomix.xml); else echo "repomix not found: skipped"; fi
echo "versions: $("$BUDGET" --version)"

# run NAME OUTPUT COMMAND...: one timed run; appends "wall_s max_rss_kb" to $OUT/NAME.times
run() {
    local name=$1 output=$2
    shift 2
    rm -f "$output"
    # The previous tool's output (up to 200 MB) is written back first, so
    # that its writeback is not timed as part of this tool's run.
    sync
    # Wall time to the millisecond and peak memory, as `time` gives them
    # (`time` rounds to 10 ms, a twentieth of a cold pack).
    python3 - "$OUT/$name.stdout" "$OUT/$name.stderr" "$@" >>"$OUT/$name.times" <<'PY' ||
import os, subprocess, sys, time
stdout, stderr, command = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(stdout, "wb") as out, open(stderr, "wb") as err:
    start = time.perf_counter()
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
sys.exit(1) if status else print(f"{wall:.3f} {usage.ru_maxrss}")
PY
        { echo "$name failed:"; tail -5 "$OUT/$name.stderr"; exit 1; }
}

rm -f "$OUT"/*.times
PACK=(pack "$TREE" --budget 100000 --counter o200k --no-config)
if [[ -n ${QUERY:-} ]]; then PACK+=(--query "$QUERY"); echo "query: $QUERY"; fi
rm -rf "$CACHE"
BUDGET_CACHE_DIR=$CACHE "$BUDGET" "${PACK[@]}" -o /dev/null 2>/dev/null
for ((i = 1; i <= RUNS; i++)); do
    run budget "$OUT/budget.md" "$BUDGET" "${PACK[@]}" --no-cache -o "$OUT/budget.md"
    BUDGET_CACHE_DIR=$CACHE run budget-warm "$OUT/budget-warm.md" "$BUDGET" "${PACK[@]}" -o "$OUT/budget-warm.md"
    if [[ " ${TOOLS[*]} " == *" code2prompt:"* ]]; then
        run code2prompt "$OUT/code2prompt.md" "$CODE2PROMPT" "$TREE" --output-file "$OUT/code2prompt.md" --quiet
    fi
    if [[ " ${TOOLS[*]} " == *" repomix:"* ]]; then
        run repomix "$OUT/repomix.xml" $REPOMIX "$TREE" -o "$OUT/repomix.xml" --token-count-encoding o200k_base
    fi
done

cmp -s "$OUT/budget.md" "$OUT/budget-warm.md" || { echo "the warm cache changed the payload"; exit 1; }

# median of column $2 in file $1
median() { sort -n -k"$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print v[int((NR+1)/2)]}'; }
range() { sort -n -k"$2" "$1" | awk -v c="$2" 'NR==1{lo=$c} {hi=$c} END {print lo "-" hi}'; }

printf '\n| tool | wall s (median, range of %s) | peak RSS MB (median) | output bytes | output o200k tokens | within 100,000 |\n|---|--:|--:|--:|--:|:-:|\n' "$RUNS"
for pair in "${TOOLS[@]}"; do
    name=${pair%%:*}
    output=$OUT/${pair#*:}
    tokens=$("$BUDGET" count "$output" --counter o200k --no-cache --max-file-bytes 100000000000 --format json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["total_tokens"])')
    within=$([[ $tokens -le 100000 ]] && echo yes || echo no)
    printf '| %s | %s (%s) | %s | %s | %s | %s |\n' "$name" "$(median "$OUT/$name.times" 1)" "$(range "$OUT/$name.times" 1)" \
        "$(($(median "$OUT/$name.times" 2) / 1024))" "$(stat -c %s "$output")" "$tokens" "$within"
done
echo
for other in code2prompt repomix; do
    [[ -f $OUT/$other.times ]] || continue
    for mine in budget budget-warm; do
        awk -v a="$(median "$OUT/$other.times" 1)" -v b="$(median "$OUT/$mine.times" 1)" -v o=$other -v m=$mine \
            'BEGIN {printf "%s ÷ %s (medians): %.1f×\n", o, m, a / b}'
    done
done
