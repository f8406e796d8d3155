#!/usr/bin/env bash
# Extraction accuracy of urlint on real documentation and source files:
# fetch the pinned packages (once), install the oracles' parsers (once), run
# the oracles and urlint, print the summary. See README.md beside this file.
#
# Usage: benches/accuracy/run.sh [--urlint PATH] [--skip-fetch]
#
#   --urlint PATH   the binary to measure; default: target/release/urlint,
#                   built with `cargo build --release` when missing
#   --skip-fetch    use the data already downloaded, contact no registry
#
# Environment: URLINT_ACCURACY_DIR  data directory [target/accuracy]
#
# Needs python3 (3.9+, standard library), node (18+) and npm; pip and npm
# install the oracles' packages into the data directory, nothing global.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
data=${URLINT_ACCURACY_DIR:-$repo/target/accuracy}
export URLINT_ACCURACY_DIR=$data
urlint=
fetch=1

while [ $# -gt 0 ]; do
    case $1 in
        --urlint) urlint=$2; shift 2 ;;
        --skip-fetch) fetch=0; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

if [ -z "$urlint" ]; then
    urlint=$repo/target/release/urlint
    if [ ! -x "$urlint" ]; then
        (cd "$repo" && cargo build --release --quiet)
    fi
fi
[ -x "$urlint" ] || { echo "run.sh: $urlint is not an executable" >&2; exit 2; }
mkdir -p "$data"

if [ "$fetch" = 1 ]; then
    # A package that fails is reported and left out; the rest is measured.
    python3 "$here/fetch.py" || echo "run.sh: some packages failed to download; measuring the rest" >&2
fi

# The Markdown/HTML oracle: its lock file pins every module; reinstalled only
# when the lock file changes.
node_dir=$data/node
if ! cmp -s "$here/oracle/package-lock.json" "$node_dir/package-lock.json" || [ ! -d "$node_dir/node_modules" ]; then
    mkdir -p "$node_dir"
    cp "$here/oracle/package.json" "$here/oracle/package-lock.json" "$node_dir/"
    (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
cp "$here/oracle/oracle.mjs" "$node_dir/oracle.mjs"

# The reStructuredText oracle: docutils, pinned.
docutils_version=0.23
py_dir=$data/py
if [ ! -f "$py_dir/docutils-$docutils_version.dist-info/METADATA" ]; then
    rm -rf "$py_dir"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --target "$py_dir" "docutils==$docutils_version"
fi

python3 "$here/score.py" --urlint "$urlint" --data "$data" --node-dir "$node_dir" --python-dir "$py_dir"
