#!/usr/bin/env bash
# End-to-end timings of the release `urlint` binary (issue 6): throughput of
# `check` and `extract` on generated corpora and on the shared big corpus,
# peak RSS for a large stdin, -j1 against -j2 on a tree of many files, and
# a tree of Markdown files read as Markdown against the same bytes as text.
#
# Usage: benches/e2e.sh            (from anywhere; see docs/benchmarks.md)
#
# Everything it writes goes to $URLINT_E2E_DIR (default /tmp/urlint-e2e),
# never into the repository or the shared directory. Generated inputs are
# kept there and reused by later runs of the same sizes.
#
# Environment (defaults in brackets):
#   URLINT_E2E_DIR             work directory [/tmp/urlint-e2e]
#   URLINT_E2E_SIZE            size of each generated corpus file [256M]
#   URLINT_E2E_STDIN_SIZE      prose piped to `urlint check -` [2G]
#   URLINT_E2E_TREE_FILES      files in the directory tree [10000]
#   URLINT_E2E_TREE_FILE_SIZE  bytes per tree file [32K]
#   URLINT_E2E_REPS            runs per figure, the fastest is kept [2]
#   URLINT_E2E_CHECK_ARGS      arguments after `check` [--format short]
#   URLINT_E2E_SKIP            space-separated steps to skip: files big stdin tree markdown
#   URLINT_SHARED              the shared directory [../shared or /work/shared]
#
# A command that exits with 0 or 1 (clean, or problems found) counts as a
# run; any other status is reported as FAILED with its stderr kept in the
# work directory, and the script goes on with the next step. It exits
# non-zero only when the build or the corpus generation fails.

set -uo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=${URLINT_E2E_DIR:-/tmp/urlint-e2e}
size=${URLINT_E2E_SIZE:-256M}
stdin_size=${URLINT_E2E_STDIN_SIZE:-2G}
tree_files=${URLINT_E2E_TREE_FILES:-10000}
tree_file_size=${URLINT_E2E_TREE_FILE_SIZE:-32K}
reps=${URLINT_E2E_REPS:-2}
read -r -a check_args <<<"${URLINT_E2E_CHECK_ARGS:---format short}"
skip=" ${URLINT_E2E_SKIP:-} "

shared=${URLINT_SHARED:-}
if [[ -z $shared ]]; then
  for candidate in "$repo/../shared" /work/shared; do
    [[ -d $candidate/corpus ]] && { shared=$(cd "$candidate" && pwd); break; }
  done
fi

urlint=$repo/target/release/urlint
corpus=$repo/target/release/examples/corpus
results=$work/results.txt

die() { echo "e2e: $*" >&2; exit 1; }
skipped() { [[ $skip == *" $1 "* ]]; }

mkdir -p "$work" || die "cannot create $work"
: >"$results"

# Print a line and keep it in the results file.
say() { echo "$*" | tee -a "$results"; }

# Seconds in /usr/bin/time's "h:mm:ss" or "m:ss.ss" elapsed format.
seconds() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' <<<"$1"; }

# Bytes of a file, or of a directory's regular files.
bytes_of() {
  if [[ -d $1 ]]; then find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'
  else stat -L -c %s "$1"; fi
}

# Set to a file to pipe it (through cat, so urlint sees a pipe, not a
# seekable file) into the timed command.
feed=""

# Run CMD once under /usr/bin/time -v (report in $1), stdout discarded, fed
# from $feed when it is set; returns CMD's own exit status.
run_once() {
  local report=$1 errors=$2; shift 2
  if [[ -n $feed ]]; then
    cat "$feed" | /usr/bin/time -v -o "$report" "$@" >/dev/null 2>"$errors"
    return "${PIPESTATUS[1]}"
  fi
  /usr/bin/time -v -o "$report" "$@" >/dev/null 2>"$errors"
}

# timed LABEL BYTES CMD... : run CMD REPS times and record the fastest wall
# time, its MB/s and the largest peak RSS (of CMD alone, not of cat).
# Sets $best_seconds (empty when the command failed).
timed() {
  local label=$1 bytes=$2; shift 2
  local slug=${label//[^A-Za-z0-9]/_} best="" rss=0 status=0
  for ((rep = 1; rep <= reps; rep++)); do
    run_once "$work/$slug.time" "$work/$slug.err" "$@"
    status=$?
    if ((status > 1)); then
      say "$(printf '%-34s FAILED (exit %d, see %s)' "$label" "$status" "$work/$slug.err")"
      best_seconds=""
      return
    fi
    local elapsed kb
    elapsed=$(seconds "$(awk -F': ' '/Elapsed \(wall clock\)/ { print $2 }' "$work/$slug.time")")
    kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/$slug.time")
    if [[ -z $best ]] || awk -v a="$elapsed" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$elapsed; fi
    ((kb > rss)) && rss=$kb
  done
  best_seconds=$best
  say "$(awk -v l="$label" -v b="$bytes" -v s="$best" -v r="$rss" -v x="$status" 'BEGIN {
    printf "%-34s %9.1f MB %8.2f s %9.1f MB/s %8.1f MB RSS  exit %d\n",
      l, b / 1e6, s, (s > 0 ? b / 1e6 / s : 0), r / 1024, x }')"
}

# Generate a corpus file once; later runs reuse it.
make_corpus() {
  local kind=$1 bytes=$2 path=$3
  [[ -s $path ]] && return
  "$corpus" "$kind" "$bytes" "$path.partial" && mv "$path.partial" "$path" \
    || die "could not generate $path"
}

build() {
  echo "== building release binary and corpus generator"
  (cd "$repo" && cargo build --release --bin urlint --example corpus) || die "release build failed"
}

files_step() {
  say "== check/extract on generated corpora ($size each)"
  for kind in prose rfc dense; do
    local path=$work/$kind-$size.txt
    make_corpus "$kind" "$size" "$path"
    local bytes; bytes=$(bytes_of "$path")
    timed "check $kind" "$bytes" "$urlint" check "${check_args[@]}" "$path"
    timed "extract $kind" "$bytes" "$urlint" extract "$path"
  done
}

big_step() {
  local big=""
  if [[ -n $shared && -s $shared/corpus/big/big.txt ]]; then
    big=$shared/corpus/big/big.txt
  elif [[ -n $shared && -x $shared/corpus/make-big.sh ]]; then
    big=$work/big.txt
    [[ -s $big ]] || "$shared/corpus/make-big.sh" "$big" >/dev/null || { say "big corpus: make-big.sh failed"; return; }
  else
    say "big corpus: no shared corpus found (set URLINT_SHARED), skipped"
    return
  fi
  say "== check/extract on the shared big corpus ($big)"
  local bytes; bytes=$(bytes_of "$big")
  timed "check big.txt" "$bytes" "$urlint" check "${check_args[@]}" "$big"
  timed "extract big.txt" "$bytes" "$urlint" extract "$big"
}

stdin_step() {
  say "== $stdin_size of prose piped to 'urlint check -' (peak RSS target: < 100 MB)"
  local path=$work/prose-$stdin_size.txt
  make_corpus prose "$stdin_size" "$path"
  local bytes; bytes=$(bytes_of "$path")
  feed=$path
  timed "pipe through cat (upper bound)" "$bytes" cat
  timed "check - ($stdin_size stdin)" "$bytes" "$urlint" check "${check_args[@]}" -
  timed "extract - ($stdin_size stdin)" "$bytes" "$urlint" extract -
  feed=""
}

tree_step() {
  local tree=$work/tree-$tree_files-$tree_file_size
  if [[ ! -d $tree ]]; then
    "$corpus" --tree "$tree.partial" --files "$tree_files" --file-size "$tree_file_size" \
      && mv "$tree.partial" "$tree" || die "could not generate $tree"
  fi
  local bytes; bytes=$(bytes_of "$tree")
  say "== tree of $tree_files files x $tree_file_size: -j1 against -j2 (target: close to 2x)"
  # Read every file once so both runs start from a warm page cache.
  find "$tree" -type f -exec cat {} + >/dev/null
  local command one
  for command in check extract; do
    local args=("$command"); [[ $command == check ]] && args+=("${check_args[@]}")
    timed "$command -j1 tree" "$bytes" "$urlint" "${args[@]}" -j1 "$tree"
    one=$best_seconds
    timed "$command -j2 tree" "$bytes" "$urlint" "${args[@]}" -j2 "$tree"
    if [[ -n $one && -n $best_seconds ]]; then
      say "$(awk -v a="$one" -v b="$best_seconds" 'BEGIN { printf "%-34s %9.2fx\n", "  speed-up -j2 over -j1", (b > 0 ? a / b : 0) }')"
    fi
  done
}

markdown_step() {
  local docs=${shared:+$shared/corpus/docs}
  if [[ -z $docs || ! -d $docs ]]; then
    say "markdown tree: no shared docs corpus found (set URLINT_SHARED), skipped"
    return
  fi
  # One run takes tens of milliseconds, below what /usr/bin/time resolves:
  # each figure times 10 runs in a row over the 10x bytes.
  local runs=10 bytes; bytes=$(( $(bytes_of "$docs") * runs ))
  say "== Markdown tree ($docs, $runs runs in a row): as Markdown against --input text (target: at most 2x)"
  find "$docs" -type f -exec cat {} + >/dev/null
  local command text
  for command in check extract; do
    local args=("$command"); [[ $command == check ]] && args+=("${check_args[@]}")
    local loop='for ((i = 0; i < '"$runs"'; i++)); do "$@"; done'
    timed "$command docs --input text" "$bytes" bash -c "$loop" - "$urlint" "${args[@]}" --isolated --input text "$docs"
    text=$best_seconds
    timed "$command docs (markdown)" "$bytes" bash -c "$loop" - "$urlint" "${args[@]}" --isolated "$docs"
    if [[ -n $text && -n $best_seconds ]]; then
      say "$(awk -v a="$best_seconds" -v b="$text" 'BEGIN { printf "%-34s %9.2fx\n", "  markdown over text", (b > 0 ? a / b : 0) }')"
    fi
  done
}

main() {
  build
  say "urlint e2e: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, $(date -u +%FT%TZ)"
  say "$(printf '%-34s %12s %10s %14s %15s' "run" "input" "wall" "throughput" "peak RSS")"
  skipped files || files_step
  skipped big || big_step
  skipped stdin || stdin_step
  skipped tree || tree_step
  skipped markdown || markdown_step
  echo "results kept in $results"
}

main
