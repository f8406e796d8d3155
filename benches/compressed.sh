#!/usr/bin/env bash
# Compressed inputs (issue 35): `urlint extract FILE.mbox.EXT` against the
# two figures the issue compares it with, for gzip, bzip2, xz and zstd, in
# one run on one archive:
#   pipe:  `DECOMPRESSOR -dc FILE | urlint extract -`   (target: <= 1.3x)
#   floor: the decompressor alone (`-dc > /dev/null`, one thread) plus
#          urlint on the plain archive, read in parts on every core
#                                                        (target: <= 1.2x)
# and a decompression bomb (highly compressible text, gzip) against the
# same text read plain, with both runs' peak memory.
#
# Usage: benches/compressed.sh    (see docs/benchmarks.md)
#
# The archive is a list archive built here: the shared corpus's real mail
# once, then generated messages (the benchmark corpus's prose, cut into
# messages of about 60 lines with headers of their own) up to
# $URLINT_Z_SIZE bytes, so that no compressor sees the same text twice.
# Every compressed form must give the plain archive's output byte for byte;
# a difference stops the script.
#
# Environment (defaults in brackets):
#   URLINT_Z_DIR        work directory [/tmp/urlint-compressed]
#   URLINT_Z_SIZE       bytes of generated prose in the archive [48M]
#   URLINT_Z_BOMB_SIZE  bytes of text in the bomb [1G]
#   URLINT_Z_REPS       runs per figure, the fastest kept [3]
#   URLINT_Z_BIN        the urlint binary [target/release/urlint, built]
#   URLINT_SHARED       the shared directory [../shared or /work/shared]

set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=${URLINT_Z_DIR:-/tmp/urlint-compressed}
size=${URLINT_Z_SIZE:-48M}
bomb_size=${URLINT_Z_BOMB_SIZE:-1G}
reps=${URLINT_Z_REPS:-3}
shared=${URLINT_SHARED:-}
if [[ -z $shared ]]; then
  for candidate in "$repo/../shared" /work/shared; do
    [[ -d $candidate/corpus ]] && { shared=$(cd "$candidate" && pwd); break; }
  done
fi
mkdir -p "$work"

if [[ -n ${URLINT_Z_BIN:-} ]]; then
  urlint=$URLINT_Z_BIN
else
  (cd "$repo" && cargo build --release --quiet --bin urlint --example corpus)
  urlint=$repo/target/release/urlint
fi
corpus=$repo/target/release/examples/corpus
for tool in gzip bzip2 xz zstd; do
  command -v "$tool" >/dev/null || { echo "compressed.sh: needs $tool (apt-get install $tool)" >&2; exit 2; }
done

# Fastest wall time of $reps runs of "$@", in seconds; output to /dev/null.
fastest() {
  local best="" t
  for ((i = 0; i < reps; i++)); do
    /usr/bin/env time -o "$work/time" -f %e "$@" >/dev/null 2>/dev/null || true
    t=$(tail -1 "$work/time")
    if [[ -z $best ]] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}

# Peak resident memory of one run of "$@", in MB.
peak_mb() {
  /usr/bin/env time -o "$work/time" -f %M "$@" >/dev/null 2>/dev/null || true
  awk '{ printf "%.0f", $1 / 1024 }' "$work/time"
}

archive=$work/list-$size.mbox
if [[ ! -s $archive ]]; then
  echo "building $archive" >&2
  {
    if [[ -n $shared ]]; then
      find "$shared/corpus/mail" -name '*.mbox' -print0 | LC_ALL=C sort -z | xargs -0 cat
    fi
    "$corpus" prose "$size" - | awk '
      NR % 60 == 1 {
        n++
        printf "\nFrom list-%d@gen.example Mon Jan  1 00:00:00 2024\n", n
        printf "From: Poster %d <p%d@gen.example>\nSubject: thread %d\n", n % 97, n % 97, n / 7
        printf "Message-ID: <%d@gen.example>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\n", n
      }
      /^From / { $0 = ">" $0 }
      { print }'
  } >"$archive.partial"
  mv "$archive.partial" "$archive"
fi
declare -A tool=([gz]=gzip [bz2]=bzip2 [xz]=xz [zst]=zstd)
declare -A level=([gz]=-6 [bz2]=-9 [xz]="-6 -T1" [zst]=-3)
for ext in gz bz2 xz zst; do
  # shellcheck disable=SC2086 # the level holds two words for xz
  [[ -s $archive.$ext ]] || ${tool[$ext]} ${level[$ext]} -c -q "$archive" >"$archive.$ext"
done

# URLs, places and message numbers, and the warnings, as the plain file's.
"$urlint" extract --format jsonl "$archive" >"$work/plain.out" 2>"$work/plain.err" || true
for ext in gz bz2 xz zst; do
  "$urlint" extract --format jsonl "$archive.$ext" 2>&1 >"$work/$ext.out" | sed "s|$archive.$ext:|$archive:|" >"$work/$ext.err" || true
  sed -i "s|\"path\":\"$archive.$ext\"|\"path\":\"$archive\"|" "$work/$ext.out"
  cmp -s "$work/plain.err" "$work/$ext.err" || { echo "compressed.sh: $ext warnings differ from the plain archive's" >&2; exit 1; }
  cmp -s "$work/plain.out" "$work/$ext.out" || { echo "compressed.sh: $ext output differs from the plain archive's" >&2; exit 1; }
done

plain=$(fastest "$urlint" extract "$archive")
echo "archive: $(stat -c %s "$archive") bytes, $(grep -c "^From " "$archive") messages, $(wc -l <"$work/plain.out") URLs; urlint extract on the plain archive: $plain s ($(nproc) cores)"
echo
echo "| format | compressed | urlint extract FILE | DEC -dc \| urlint extract - | ratio (<= 1.3) | DEC -dc alone | + plain | ratio (<= 1.2) |"
echo "|---|---|---|---|---|---|---|---|"
for ext in gz bz2 xz zst; do
  file=$archive.$ext
  dec=${tool[$ext]}
  direct=$(fastest "$urlint" extract "$file")
  piped=$(fastest sh -c "$dec -dc '$file' | '$urlint' extract -")
  alone=$(fastest sh -c "$dec -dc '$file'")
  awk -v ext="$ext" -v bytes="$(stat -c %s "$file")" -v d="$direct" -v p="$piped" -v a="$alone" -v pl="$plain" 'BEGIN {
    printf "| %s | %.1f MB | %.2f s | %.2f s | %.2fx | %.2f s | %.2f s | %.2fx |\n",
      ext, bytes / 1e6, d, p, d / p, a, a + pl, d / (a + pl) }'
done

bomb=$work/bomb-$bomb_size.txt
if [[ ! -s $bomb.gz ]]; then
  echo "building $bomb" >&2
  # `yes` ends on the pipe head closes, which pipefail would count.
  yes 'a line of text that repeats, then http://bomb.example/path?q=1 and more' | head -c "$(numfmt --from=iec "$bomb_size")" >"$bomb" || true
  gzip -9 -c "$bomb" >"$bomb.gz"
fi
echo
echo "| bomb ($(stat -c %s "$bomb") bytes of text in $(stat -c %s "$bomb.gz") bytes of gzip) | time | peak memory |"
echo "|---|---|---|"
echo "| urlint extract bomb.txt.gz | $(fastest "$urlint" extract "$bomb.gz") s | $(peak_mb "$urlint" extract "$bomb.gz") MB |"
echo "| urlint extract bomb.txt (plain) | $(fastest "$urlint" extract "$bomb") s | $(peak_mb "$urlint" extract "$bomb") MB |"
