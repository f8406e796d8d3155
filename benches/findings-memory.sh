#!/usr/bin/env bash
# Memory per finding (issue 34): peak RSS of `urlint check` on text whose
# every line holds one URL with one finding, at N and 4N lines, so that the
# bytes each held finding costs is the slope: (RSS(4N) - RSS(N)) / 3N.
# Each binary given is measured the same way, one right after the other.
#
# Usage: benches/findings-memory.sh [BINARY ...]
#   (default: target/release/urlint, built)
#
# Environment (defaults in brackets):
#   URLINT_FM_LINES  N, lines in the smaller input [250000]
#   URLINT_FM_DIR    work directory [/tmp/urlint-findings-memory]

set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
lines=${URLINT_FM_LINES:-250000}
work=${URLINT_FM_DIR:-/tmp/urlint-findings-memory}
binaries=("$@")
if [[ ${#binaries[@]} -eq 0 ]]; then
  (cd "$repo" && cargo build --release -q)
  binaries=("$repo/target/release/urlint")
fi
mkdir -p "$work"

# One unsafe '~' per URL: one finding each, with a fix and help text.
make_input() {
  local count=$1 path=$2
  [[ -s $path ]] && return
  awk -v n="$count" 'BEGIN { for (i = 0; i < n; i++)
    printf "Line %d cites http://a.example/~user%d/notes.html here.\n", i, i }' > "$path"
}
make_input "$lines" "$work/n.txt"
make_input $((4 * lines)) "$work/4n.txt"

# Peak RSS in KiB; the run exits 1 (findings), which is not a failure here.
peak_kb() {
  { /usr/bin/time -f %M "$@" 2>&1 >/dev/null || true; } | tail -1
}

printf '%-40s %-8s %12s %12s %14s\n' binary format "RSS N (MB)" "RSS 4N (MB)" "bytes/finding"
row() {
  local binary=$1 label=$2 small=$3 large=$4
  printf '%-40s %-8s %12.1f %12.1f %14.0f\n' "$binary" "$label" \
    "$(echo "$small / 1024" | bc -l)" "$(echo "$large / 1024" | bc -l)" \
    "$(echo "($large - $small) * 1024 / (3 * $lines)" | bc -l)"
}
for binary in "${binaries[@]}"; do
  for format in short human json; do
    small=$(peak_kb "$binary" check --isolated -j1 --format "$format" "$work/n.txt")
    large=$(peak_kb "$binary" check --isolated -j1 --format "$format" "$work/4n.txt")
    row "$binary" "$format" "$small" "$large"
  done
  # --fix rewrites the file whole: on a copy, every finding fixed.
  cp "$work/n.txt" "$work/fix-n.txt"
  cp "$work/4n.txt" "$work/fix-4n.txt"
  small=$(peak_kb "$binary" check --isolated -j1 --fix --format short "$work/fix-n.txt")
  large=$(peak_kb "$binary" check --isolated -j1 --fix --format short "$work/fix-4n.txt")
  row "$binary" "--fix" "$small" "$large"
done
