#!/usr/bin/env bash
# End-to-end timings of the release `urlint` binary (issue 6): throughput of
# `check` and `extract` on generated corpora and on the shared big corpus,
# peak RSS for a large stdin, -j1 against -j2 on a tree of many files, a
# tree of Markdown files read as Markdown against the same bytes as text,
# and the ratios issue 19 sets, each measured against its peer (ripgrep, a
# read + memchr2 floor, linkify, the same bytes read as text) in one run,
# with the tree's CommonMark parse alone (pulldown-cmark) as context.
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
#   URLINT_E2E_SKIP            space-separated steps to skip: files big stdin tree markdown targets
#   URLINT_E2E_ONLY            space-separated steps to run, the others skipped [all]
#   URLINT_E2E_RACE_REPS       runs per side of a targets ratio, alternating [5]
#   URLINT_E2E_TREE_COPIES     copies of the shared docs and rfc in the targets tree [10]
#   URLINT_E2E_MBOX_SIZE       bytes of the targets mbox (the shared archives repeated) [200M]
#   URLINT_E2E_BIN             the urlint binary to time [target/release/urlint, built]
#   URLINT_E2E_RG              ripgrep [rg]
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
only=" ${URLINT_E2E_ONLY:-} "
race_reps=${URLINT_E2E_RACE_REPS:-5}
tree_copies=${URLINT_E2E_TREE_COPIES:-10}
mbox_size=${URLINT_E2E_MBOX_SIZE:-200M}
rg=${URLINT_E2E_RG:-rg}

shared=${URLINT_SHARED:-}
if [[ -z $shared ]]; then
  for candidate in "$repo/../shared" /work/shared; do
    [[ -d $candidate/corpus ]] && { shared=$(cd "$candidate" && pwd); break; }
  done
fi

urlint=${URLINT_E2E_BIN:-$repo/target/release/urlint}
corpus=$repo/target/release/examples/corpus
peer=$repo/target/release/examples/peer
results=$work/results.txt

die() { echo "e2e: $*" >&2; exit 1; }
skipped() { [[ $skip == *" $1 "* || ( $only != "  " && $only != *" $1 "* ) ]]; }

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
  local targets=(--example corpus --example peer)
  [[ -n ${URLINT_E2E_BIN:-} ]] || targets+=(--bin urlint)
  (cd "$repo" && cargo build --release "${targets[@]}") || die "release build failed"
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

# The shared big corpus, built in the work directory if the shared one has
# not been: sets $big (empty when there is none).
find_big() {
  big=""
  if [[ -n $shared && -s $shared/corpus/big/big.txt ]]; then
    big=$shared/corpus/big/big.txt
  elif [[ -n $shared && -x $shared/corpus/make-big.sh ]]; then
    big=$work/big.txt
    [[ -s $big ]] || "$shared/corpus/make-big.sh" "$big" >/dev/null || { say "big corpus: make-big.sh failed"; big=""; }
  else
    say "big corpus: no shared corpus found (set URLINT_SHARED), skipped"
  fi
}

big_step() {
  local big
  find_big
  [[ -n $big ]] || return
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

# run_timed REPORT CMD... : run CMD once, output discarded. Sets run_wall
# (seconds, from bash's microsecond clock), run_cpu (user + sys), run_rss
# (KB) and run_status.
run_timed() {
  local report=$1; shift
  local start=$EPOCHREALTIME
  /usr/bin/time -f '%U %S %M' -o "$report" "$@" >/dev/null 2>"$report.err"
  run_status=$?
  local end=$EPOCHREALTIME
  local user system
  read -r user system run_rss < <(tail -n 1 "$report")
  run_wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f", b - a }')
  run_cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
}

# race LABEL_A LABEL_B TARGET CMD_A CMD_B : run the commands in the arrays
# named CMD_A and CMD_B alternately, $race_reps times each, so that a burst
# of load hits both alike; print each side's fastest wall time (with its CPU
# time and the largest peak RSS), then A's time over B's against TARGET, the
# most the ratio may be (a space-separated list for several targets; empty
# for a ratio given as context only). The ratio of the sides' median times
# is printed beside it: on a noisy machine one lucky fastest run can decide
# the first, and the second shows whether it did.
race() {
  local label_a=$1 label_b=$2 target=$3
  local -n cmd_a=$4 cmd_b=$5
  local best_a="" best_b="" cpu_a="" cpu_b="" rss_a=0 rss_b=0 rep side
  local walls_a=() walls_b=()
  for ((rep = 1; rep <= race_reps; rep++)); do
    for side in a b; do
      if [[ $side == a ]]; then run_timed "$work/race.time" "${cmd_a[@]}"
      else run_timed "$work/race.time" "${cmd_b[@]}"; fi
      if ((run_status > 1)); then
        cp "$work/race.time.err" "$work/race-failed.err"
        say "$(printf '%-44s FAILED (exit %d, see %s)' "$([[ $side == a ]] && echo "$label_a" || echo "$label_b")" \
          "$run_status" "$work/race-failed.err")"
        return
      fi
      if [[ $side == a ]]; then
        walls_a+=("$run_wall")
        if [[ -z $best_a ]] || awk -v x="$run_wall" -v y="$best_a" 'BEGIN { exit !(x < y) }'; then
          best_a=$run_wall; cpu_a=$run_cpu
        fi
        ((run_rss > rss_a)) && rss_a=$run_rss
      else
        walls_b+=("$run_wall")
        if [[ -z $best_b ]] || awk -v x="$run_wall" -v y="$best_b" 'BEGIN { exit !(x < y) }'; then
          best_b=$run_wall; cpu_b=$run_cpu
        fi
        ((run_rss > rss_b)) && rss_b=$run_rss
      fi
    done
  done
  say "$(printf '%-44s %8.3f s  cpu %6.2f s  %8.1f MB RSS' "$label_a" "$best_a" "$cpu_a" "$(awk -v r="$rss_a" 'BEGIN { print r / 1024 }')")"
  say "$(printf '%-44s %8.3f s  cpu %6.2f s  %8.1f MB RSS' "$label_b" "$best_b" "$cpu_b" "$(awk -v r="$rss_b" 'BEGIN { print r / 1024 }')")"
  local limit median_ratio
  median_ratio=$(awk -v a="$(median "${walls_a[@]}")" -v b="$(median "${walls_b[@]}")" \
    'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')
  if [[ -z $target ]]; then
    say "$(awk -v a="$best_a" -v b="$best_b" -v m="$median_ratio" 'BEGIN {
      printf "  %-42s %7.2fx   (context, no target; medians %s)\n", "ratio", (b > 0 ? a / b : 0), m }')"
  fi
  for limit in $target; do
    say "$(awk -v a="$best_a" -v b="$best_b" -v t="$limit" -v m="$median_ratio" 'BEGIN {
      r = (b > 0 ? a / b : 0)
      printf "  %-42s %7.2fx   target <= %.2fx: %s (medians %s)\n", "ratio", r, t, (r <= t ? "met" : "MISSED"), m }')"
  done
}

# median TIME... : the middle of the times (the mean of the two middle ones
# for an even count).
median() {
  printf '%s\n' "$@" | sort -g | awk '{ t[NR] = $1 } END {
    if (NR == 0) { print 0; exit }
    print (NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2) }'
}

# The issue 19 inputs, built from the shared corpus in the work directory:
# $tree (docs and rfc, $tree_copies times) and $mbox (the corpus's mbox
# archives one after another, repeated to $mbox_size bytes).
make_target_inputs() {
  tree=$work/corpus-tree-$tree_copies
  if [[ ! -d $tree ]]; then
    rm -rf "$tree.partial" && mkdir -p "$tree.partial" || die "cannot create $tree"
    local copy
    for ((copy = 0; copy < tree_copies; copy++)); do
      mkdir -p "$tree.partial/copy$copy"
      cp -r "$shared/corpus/docs" "$shared/corpus/rfc" "$tree.partial/copy$copy/" || die "cannot copy the corpus"
    done
    mv "$tree.partial" "$tree"
  fi
  mbox=$work/list-$mbox_size.mbox
  if [[ ! -s $mbox ]]; then
    local once=$work/list-once.mbox target
    : >"$once"
    while IFS= read -r -d '' archive; do
      cat "$archive" >>"$once"
      # Each archive ends its last line, so the next `From ` opens a message.
      [[ $(tail -c 1 "$once" | od -An -c | tr -d ' ') == '\n' ]] || echo >>"$once"
    done < <(find "$shared/corpus/mail" -name '*.mbox' -print0 | LC_ALL=C sort -z)
    target=$(numfmt --from=si "$mbox_size")
    : >"$mbox.partial"
    while (($(stat -c %s "$mbox.partial") < target)); do cat "$once" >>"$mbox.partial"; done
    mv "$mbox.partial" "$mbox"
    rm -f "$once"
  fi
}

targets_step() {
  if [[ -z $shared ]]; then
    say "targets: no shared corpus found (set URLINT_SHARED), skipped"
    return
  fi
  local big tree mbox
  find_big
  [[ -n $big ]] || return
  make_target_inputs
  # Warm the page cache, so that no side pays for the first read.
  find "$tree" -type f -exec cat {} + >/dev/null
  cat "$big" "$mbox" >/dev/null
  say "== issue 19 targets: fastest of $race_reps alternating runs per side (ratio of medians beside); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  say "   tree: $(find "$tree" -type f | wc -l) files, $(bytes_of "$tree") bytes; mbox: $(bytes_of "$mbox") bytes; big.txt: $(bytes_of "$big") bytes"
  local regex='https?://[^[:space:]<>"]+'
  local a b
  if command -v "$rg" >/dev/null; then
    a=("$urlint" extract "$tree"); b=("$rg" -c "$regex" "$tree")
    race "tree: urlint extract" "tree: ripgrep -c URL-regex" 1.30 a b
    a=("$urlint" extract --input text "$tree")
    race "tree: urlint extract --input text" "tree: ripgrep -c URL-regex" 1.30 a b
  else
    say "tree: ripgrep ($rg) not found, its ratio skipped"
  fi
  a=("$urlint" extract -j2 "$tree"); b=("$urlint" extract -j1 "$tree")
  race "tree: extract -j2" "tree: extract -j1" 0.70 a b
  # Context, no target: the CommonMark parse issue 15 asks for, alone over
  # the tree's Markdown files on one thread, against urlint on one thread.
  a=("$urlint" extract -j1 "$tree"); b=("$peer" markdown "$tree")
  race "tree: extract -j1" "tree: pulldown-cmark over its .md (1 thread)" "" a b
  a=("$urlint" check --format short "$tree"); b=("$urlint" extract "$tree")
  race "tree: check --format short" "tree: extract" 1.20 a b
  a=("$urlint" extract "$mbox"); b=("$urlint" extract --input text "$mbox")
  race "mbox: extract (mail reader)" "mbox: extract --input text" 3.00 a b
  a=("$urlint" check --format sarif "$big"); b=("$urlint" check --format json "$big")
  race "big.txt: check --format sarif" "big.txt: check --format json" 1.50 a b
  # The floor of issue 19: the file read whole, then one memchr2 pass.
  a=("$urlint" extract "$big"); b=("$peer" floor-whole "$big")
  race "big.txt: extract" "big.txt: read whole + memchr2 (1 thread)" "0.80 2.50" a b
  # The tighter floor: 1 MiB reads into one buffer, no page faults.
  b=("$peer" floor "$big")
  race "big.txt: extract" "big.txt: 1 MiB reads + memchr2 (1 thread)" 2.50 a b
  a=("$urlint" extract -j2 "$big"); b=("$urlint" extract -j1 "$big")
  race "big.txt: extract -j2" "big.txt: extract -j1" 0.65 a b
  a=("$urlint" extract "$big"); b=("$peer" linkify "$big")
  race "big.txt: extract" "big.txt: linkify (1 thread)" 0.50 a b
  say "   load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
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
  skipped targets || targets_step
  echo "results kept in $results"
}

main
