#!/usr/bin/env python3
"""Download the pinned packages of the accuracy set and unpack the files we measure.

Usage: fetch.py [--jobs N] [--only crates|npm|pypi]

Reads packages/{crates,npm,pypi}.txt beside this script and writes into
$URLINT_ACCURACY_DIR (default: target/accuracy under the repository):

  downloads/<registry>/...            the archives, as the registry serves them
  files/<registry>/<name>-<version>/  the selected files, paths as in the archive
                                      (its top folder stripped), plus a .done marker

A package whose .done marker exists is skipped, so a second run downloads
nothing. Only the package registries are contacted: crates through the
crates.io download host (the one cargo uses), npm through `npm pack`, Python
through `pip download --no-binary NAME --no-deps`.

Which files are kept (the README of benches/accuracy explains why):
  docs  *.md *.markdown *.rst *.html *.htm, at most 1 MiB each
  code  *.rs *.py *.js *.mjs *.cjs *.ts *.mts *.cts *.pl *.pm, at most
        512 KiB each and not minified (*.min.js); Cargo.lock,
        package-lock.json, npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml
  never under a folder named fixtures, testdata, test-data, test_data,
        __fixtures__, __snapshots__ or node_modules; docs never under test,
        tests, __tests__, spec or specs (parser test suites are not documents)
  at most 300 code files and 300 doc files per package, in path order.
"""

import argparse
import concurrent.futures
import io
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
REGISTRIES = ("crates", "npm", "pypi")

DOC_SUFFIXES = (".md", ".markdown", ".rst", ".html", ".htm")
CODE_SUFFIXES = (".rs", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".pl", ".pm")
LOCK_FILES = ("Cargo.lock", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml")
NEVER_UNDER = {"fixtures", "testdata", "test-data", "test_data", "__fixtures__", "__snapshots__", "node_modules"}
DOCS_NEVER_UNDER = {"test", "tests", "__tests__", "spec", "specs"}
MAX_DOC_BYTES = 1 << 20
MAX_CODE_BYTES = 512 << 10
MAX_FILES_PER_KIND = 300


def work_dir():
    """The data directory: $URLINT_ACCURACY_DIR or target/accuracy in the repository."""
    configured = os.environ.get("URLINT_ACCURACY_DIR")
    return pathlib.Path(configured).resolve() if configured else REPO / "target" / "accuracy"


def read_list(registry):
    """(name, version) pairs of one registry's pinned list, comments skipped."""
    separator = "==" if registry == "pypi" else "@"
    pairs = []
    for line in (HERE / "packages" / f"{registry}.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, version = line.rpartition(separator) if registry != "pypi" else line.partition(separator)
        if not name or not version:
            raise SystemExit(f"packages/{registry}.txt: cannot read {line!r}")
        pairs.append((name, version))
    return pairs


def folder_name(name, version):
    """A file-system name for a package (npm scopes lose their @ and /)."""
    return f"{name.lstrip('@').replace('/', '__')}-{version}"


def kind_of(relative, size):
    """'doc', 'code' or None for a path inside a package (top folder stripped)."""
    parts = relative.split("/")
    base = parts[-1]
    folders = {part.lower() for part in parts[:-1]}
    if folders & NEVER_UNDER:
        return None
    lower = base.lower()
    if lower.endswith(DOC_SUFFIXES):
        if folders & DOCS_NEVER_UNDER or size > MAX_DOC_BYTES:
            return None
        return "doc"
    if base in LOCK_FILES:
        return "code"
    if lower.endswith(CODE_SUFFIXES) and not lower.endswith(".min.js") and size <= MAX_CODE_BYTES:
        return "code"
    return None


def strip_top(path):
    """The member path without the archive's top folder (package/, NAME-VERSION/)."""
    path = path.lstrip("./")
    _, _, rest = path.partition("/")
    return rest


def archive_members(archive):
    """(relative path, size, reader) for every regular file of a .tar.gz/.tgz/.crate/.zip."""
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zipped:
            for info in zipped.infolist():
                if not info.is_dir():
                    yield strip_top(info.filename), info.file_size, lambda info=info, z=zipped: z.read(info)
        return
    with tarfile.open(archive, "r:*") as tarred:
        for member in tarred:
            if member.isfile():
                yield strip_top(member.name), member.size, lambda m=member, t=tarred: t.extractfile(m).read()


def unpack(archive, destination):
    """Writes the selected files of `archive` under `destination`; returns (docs, code)."""
    chosen = {"doc": [], "code": []}
    readers = {}
    for relative, size, reader in archive_members(archive):
        if not relative or ".." in relative.split("/"):
            continue
        kind = kind_of(relative, size)
        if kind:
            chosen[kind].append(relative)
            readers[relative] = reader
    kept = {kind: sorted(paths)[:MAX_FILES_PER_KIND] for kind, paths in chosen.items()}
    wanted = set(kept["doc"]) | set(kept["code"])
    for relative, _, reader in archive_members(archive):
        if relative in wanted:
            target = destination / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(reader())
    return len(kept["doc"]), len(kept["code"])


def download_crate(name, version, folder):
    """The .crate file from the crates.io download host, as cargo fetches it."""
    target = folder / f"{name}-{version}.crate"
    if not target.exists():
        url = f"https://static.crates.io/crates/{name}/{name}-{version}.crate"
        with urllib.request.urlopen(url, timeout=120) as response:
            data = response.read()
        partial = target.with_suffix(".part")
        partial.write_bytes(data)
        partial.rename(target)
    return target


def run_quietly(command, cwd):
    """Runs a registry client; raises with its last lines of output on failure."""
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-4:])
        raise RuntimeError(f"{' '.join(command)} failed:\n{tail}")


def single_archive(folder):
    """The one archive a client left in `folder`, or None."""
    found = [p for p in folder.iterdir() if p.name.endswith((".tgz", ".tar.gz", ".zip", ".tar.bz2"))]
    return found[0] if len(found) == 1 else None


def download_npm(name, version, folder):
    """The tarball `npm pack NAME@VERSION` writes."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = single_archive(folder)
    if archive is None:
        run_quietly(["npm", "pack", "--silent", "--pack-destination", str(folder), f"{name}@{version}"], cwd=folder)
        archive = single_archive(folder)
    if archive is None:
        raise RuntimeError("npm pack left no single tarball")
    return archive


def download_pypi(name, version, folder):
    """The sdist `pip download --no-binary NAME --no-deps NAME==VERSION` saves.

    `--no-binary NAME` rather than `:all:`: the latter also refuses wheels of
    the build backends pip installs to read the sdist's metadata, and then
    compiles them (Cython, for one) from source.

    Requires-Python is ignored: the set pins current releases, which may need a
    newer Python than the one running pip, and only their files are read.
    """
    folder.mkdir(parents=True, exist_ok=True)
    archive = single_archive(folder)
    if archive is None:
        run_quietly(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-binary", name, "--no-deps",
             "--ignore-requires-python", "--dest", str(folder), f"{name}=={version}"],
            cwd=folder,
        )
        archive = single_archive(folder)
    if archive is None:
        raise RuntimeError("pip download left no single sdist")
    return archive


def fetch_one(root, registry, name, version):
    """Downloads and unpacks one package unless its .done marker exists."""
    destination = root / "files" / registry / folder_name(name, version)
    marker = destination / ".done"
    if marker.exists():
        docs, code = marker.read_text().split()
        return "kept", int(docs), int(code)
    downloads = root / "downloads" / registry
    downloads.mkdir(parents=True, exist_ok=True)
    if registry == "crates":
        archive = download_crate(name, version, downloads)
    elif registry == "npm":
        archive = download_npm(name, version, downloads / folder_name(name, version))
    else:
        archive = download_pypi(name, version, downloads / folder_name(name, version))
    if destination.exists():
        shutil.rmtree(destination)
    destination.mkdir(parents=True)
    docs, code = unpack(archive, destination)
    marker.write_text(f"{docs} {code}\n")
    return "new", docs, code


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=4, help="downloads at once (default 4)")
    parser.add_argument("--only", choices=REGISTRIES, action="append", help="registries to fetch")
    args = parser.parse_args()
    root = work_dir()
    registries = args.only or REGISTRIES
    failures = []
    print(f"accuracy data: {root}")
    for registry in registries:
        packages = read_list(registry)
        counts = {"new": 0, "kept": 0, "docs": 0, "code": 0}
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = {pool.submit(fetch_one, root, registry, n, v): (n, v) for n, v in packages}
            for future in concurrent.futures.as_completed(futures):
                name, version = futures[future]
                try:
                    state, docs, code = future.result()
                except Exception as error:  # one bad package must not stop the rest
                    failures.append((registry, name, version, str(error)))
                    print(f"  FAILED {registry} {name} {version}: {error}", file=sys.stderr)
                    continue
                counts[state] += 1
                counts["docs"] += docs
                counts["code"] += code
        print(
            f"{registry:6} {len(packages):4} listed, {counts['new']:4} fetched, {counts['kept']:4} already there, "
            f"{len(packages) - counts['new'] - counts['kept']:3} failed; {counts['docs']:5} doc files, "
            f"{counts['code']:6} code files"
        )
    if failures:
        print(f"{len(failures)} package(s) failed; rerun to retry them", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
