"""The Spark job in local mode with two executor threads, against `urlint
extract` on the same files: the same multiset of (file, URL, line, column,
message number), with large archives cut into slices and compressed ones
read whole as the archive they hold.

Needs pyspark and a Java runtime (skipped, saying so, without them), the
`urlint` package, and the `urlint` binary (URLINT_BIN). URLINT_SPARK_CORPUS
names more directories of mail to compare on, separated by ':'.
"""

import bz2
import collections
import gzip
import json
import lzma
import os
import pathlib
import shutil
import subprocess
import sys

import warnings

import pytest
import urlint

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
JOB = HERE / "extract_urls.py"

pytest.importorskip("pyspark", reason="pyspark is not installed: pip install 'pyspark>=3.5'")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("no Java runtime: apt-get install openjdk-17-jre-headless", allow_module_level=True)


def message(number: int) -> str:
    """One mbox message with URLs written in the ways mail writes them."""
    body = [
        f"Release {number} is at http://releases.example.org/{number}/notes.html and",
        f"<URL:ftp://ftp.example.org/pub/r{number}/~src;type=x>.",
        ">From the list: see http://lists.example.org/archive/ too.",
    ]
    if number % 3 == 0:
        return (
            f"From dev{number}@example.org Mon Jan  1 10:{number % 60:02d}:00 2024\n"
            f"Subject: =?utf-8?q?R=C3=A9lease_{number}?=\nMessage-ID: <r{number}@example.org>\n"
            "Content-Type: text/plain; charset=iso-8859-1\n"
            "Content-Transfer-Encoding: quoted-printable\n\n"
            f"Caf=E9 mirror http://mirror.example.net/very/long/path/number/{number}/fi=\nle.txt\n\n"
        )
    return (
        f"From dev{number}@example.org Mon Jan  1 10:{number % 60:02d}:00 2024\n"
        f"Subject: release {number}\nMessage-ID: <r{number}@example.org>\n"
        f"Date: Mon, 1 Jan 2024 10:{number % 60:02d}:00 +0000\n\n" + "\n".join(body) + "\n\n"
    )


@pytest.fixture(scope="module")
def archives(tmp_path_factory) -> pathlib.Path:
    """A directory of our own: a large mbox, small archives, text, nesting,
    compressed archives (one past the slice size, stored uncompressed) and
    compressed text."""
    root = tmp_path_factory.mktemp("archives")
    big = "".join(message(n) for n in range(1, 61)).encode()
    (root / "big.mbox").write_bytes(big)
    (root / "big.mbox.gz").write_bytes(gzip.compress(big, compresslevel=0))
    (root / "lists" / "2024").mkdir(parents=True)
    (root / "lists" / "2024" / "small.mbox").write_text(message(1) + message(2))
    (root / "lists" / "2024" / "small.mbox.gz").write_bytes(gzip.compress((message(3) + message(4)).encode()))
    (root / "lists" / "2024-02.txt.xz").write_bytes(lzma.compress((message(5) + message(6)).encode()))
    (root / "notes.md.bz2").write_bytes(bz2.compress(b"# Notes\n\nSee [the guide](http://docs.example/~g).\n"))
    (root / "notes.txt").write_text("See <URL:http://notes.example.org/a\n   b/c> and http://x.example/~y\n")
    (root / "latin1.txt").write_bytes("Caf\xe9 http://caf\xe9.example.fr/\n".encode("latin-1"))
    for fixture in (ROOT / "fixtures" / "mail").iterdir():
        shutil.copy(fixture, root / "lists" / fixture.name)
    return root


def cli_urls(directory: pathlib.Path) -> collections.Counter:
    binary = os.environ.get("URLINT_BIN", str(ROOT / "target" / "debug" / "urlint"))
    out = subprocess.run(
        [binary, "extract", "--isolated", "--format", "jsonl", str(directory)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = collections.Counter()
    for record in map(json.loads, out.splitlines()):
        path = pathlib.Path(record["path"]).relative_to(directory).as_posix()
        number = record.get("mail", {}).get("message")
        found[(path, record["url"], record["line"], record["column"], number)] += 1
    return found


def run_job(source: str, output: pathlib.Path, slice_size: int) -> subprocess.CompletedProcess[str]:
    """The job in local mode with two executor threads."""
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    command = [sys.executable, str(JOB), "--master", "local[2]"]
    command += ["--slice-size", str(slice_size), source, str(output)]
    return subprocess.run(command, env=env, capture_output=True, text=True, check=False)


def spark_urls(directory: pathlib.Path, output: pathlib.Path, slice_size: int) -> collections.Counter:
    run = run_job(str(directory), output, slice_size)
    assert run.returncode == 0, run.stderr[-4000:]
    found = collections.Counter()
    prefix = directory.resolve().as_posix().rstrip("/") + "/"
    for part in output.glob("part-*.json"):
        for record in map(json.loads, part.read_text().splitlines()):
            path = record["path"].removeprefix("file:").removeprefix("//")
            path = path.removeprefix(prefix)
            key = (path, record["url"], record["line"], record["column"], record.get("message"))
            found[key] += 1
    return found


def test_sliced_and_whole_files_give_the_urls_the_command_line_gives(archives, tmp_path):
    size = (archives / "big.mbox").stat().st_size
    expected = cli_urls(archives)
    found = spark_urls(archives, tmp_path / "out", slice_size=size // 5)
    assert found == expected
    # Every third message is quoted-printable Latin-1 with one URL.
    assert sum(n for key, n in expected.items() if key[0] == "big.mbox") == 40 * 3 + 20
    with open(archives / "big.mbox", "rb") as file:
        assert len(urlint.split_mbox(file, size // 5)) >= 4, "the archive was read in slices"
    # The compressed copy, past the slice size, read whole: the same URLs at
    # the same lines, columns and message numbers as the plain archive.
    assert (archives / "big.mbox.gz").stat().st_size > size // 5
    in_file = lambda name: collections.Counter({key[1:]: n for key, n in found.items() if key[0] == name})
    assert in_file("big.mbox.gz") == in_file("big.mbox")
    assert in_file("lists/2024/small.mbox.gz") and in_file("lists/2024-02.txt.xz")
    kinds = {
        (record["path"].rsplit("/", 1)[-1], record["kind"])
        for part in (tmp_path / "out").glob("part-*.json")
        for record in map(json.loads, part.read_text().splitlines())
    }
    assert {("big.mbox.gz", "mbox"), ("small.mbox.gz", "mbox"), ("2024-02.txt.xz", "mbox")} <= kinds
    assert ("notes.md.bz2", "markdown") in kinds


def test_a_missing_input_fails_on_one_line_before_spark_starts(tmp_path):
    missing = tmp_path / "no-such-dir"
    run = run_job(str(missing), tmp_path / "out", slice_size=1 << 20)
    assert run.returncode == 2
    assert run.stderr.splitlines() == [f"extract_urls.py: {missing}: cannot read: no such file or directory"]
    assert run.stdout == "" and not (tmp_path / "out").exists()
    run = run_job(f"file://{missing}", tmp_path / "out", slice_size=1 << 20)
    assert run.stderr.splitlines() == [
        f"extract_urls.py: file://{missing}: cannot read: no such file or directory"
    ]


def test_an_input_hadoop_cannot_read_fails_on_one_line_without_a_java_trace(tmp_path):
    run = run_job("nosuch://host/lists", tmp_path / "out", slice_size=1 << 20)
    assert run.returncode == 2, run.stderr[-4000:]
    ours = [line for line in run.stderr.splitlines() if line.startswith("extract_urls.py")]
    assert ours == ['extract_urls.py: nosuch://host/lists: cannot read: No FileSystem for scheme "nosuch"']
    assert "Traceback" not in run.stderr and "\tat org.apache" not in run.stderr


def test_warnings_name_the_file_and_say_what_is_wrong(tmp_path):
    broken = (ROOT / "fixtures" / "mail" / "broken_then_good.mbox").read_text()
    (tmp_path / "in" / "whole").mkdir(parents=True)
    (tmp_path / "in" / "sliced").mkdir()
    (tmp_path / "in" / "whole" / "broken.mbox").write_text(broken)
    # Past the slice size, so read in slices by the planned reads.
    (tmp_path / "in" / "sliced" / "broken.mbox").write_text(broken + "\n" + "".join(message(n) for n in range(3, 9)))
    # A download cut short: the URLs before the cut, and a warning saying where.
    archive = "".join(message(n) for n in range(1, 400)).encode()
    packed = gzip.compress(archive)
    cut = packed[: len(packed) // 2]
    (tmp_path / "in" / "whole" / "cut.mbox.gz").write_bytes(cut)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        before_cut = urlint.extract_mail(cut)
    (broke,) = [str(w.message) for w in caught]
    assert 0 < len(before_cut) < len(urlint.extract_mail(archive))
    run = run_job(str(tmp_path / "in"), tmp_path / "out", slice_size=len(broken.encode()) + 1)
    assert run.returncode == 0, run.stderr[-4000:]
    warned = sorted(line for line in run.stderr.splitlines() if line.startswith("extract_urls.py: warning: "))
    where = "message 1 (line 1) <broken-2@example.org>"
    assert warned == sorted(
        [
            f"extract_urls.py: warning: file:{tmp_path}/in/{kind}/broken.mbox: {what}"
            for kind in ("sliced", "whole")
            for what in (
                f"{where}, part 1: base64 body does not decode; read as raw text",
                f"{where}: multipart has no closing '--cut--' line; read up to the end of the message",
            )
        ]
        + [f"extract_urls.py: warning: file:{tmp_path}/in/whole/cut.mbox.gz: {broke}"]
    )
    cut_urls = [
        record
        for part in (tmp_path / "out").glob("part-*.json")
        for record in map(json.loads, part.read_text().splitlines())
        if record["path"].endswith("/cut.mbox.gz")
    ]
    assert sorted((r["message"], r["line"], r["column"]) for r in cut_urls) == sorted(
        (u.message, u.line, u.column) for u in before_cut
    )
    assert "<memory>" not in run.stderr


@pytest.mark.parametrize(
    "corpus",
    [pathlib.Path(p) for p in os.environ.get("URLINT_SPARK_CORPUS", "").split(":") if p],
    ids=str,
)
def test_a_mail_corpus_gives_the_urls_the_command_line_gives(corpus, tmp_path):
    if not corpus.is_dir():
        pytest.skip(f"{corpus} is not a directory")
    expected = cli_urls(corpus)
    found = spark_urls(corpus, tmp_path / "out", slice_size=1 << 20)
    assert found == expected
    assert expected, "the corpus has URLs"
