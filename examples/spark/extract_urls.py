"""Extract every URL from a directory of mail archives and text files with
urlint, on Apache Spark: the same job on a laptop (`--master local[*]`) and
on a cluster; only the master URL changes.

    spark-submit --master 'local[*]' examples/spark/extract_urls.py INPUT OUTPUT

INPUT is a directory or file on any Hadoop filesystem (a local path,
file:, hdfs:, s3a: ...), read recursively; files and directories whose
names start with '.' or '_' are skipped, as Hadoop skips them. OUTPUT gets
one record per URL (JSON lines, or Parquet with --format parquet): path,
kind, url, form, byte offsets, line, column, message number, Message-ID,
date, subject, MIME part and the URL's findings.

How the work is shared out:
- Files smaller than --slice-size are read whole with binaryFiles, many per
  task; each is read as `urlint extract` reads it (mbox, eml or text,
  decided by urlint.detect_kind from the name and the first bytes).
- Compressed files (.gz, .bz2, .xz, .zst, or told by their first bytes) are
  read as the file they hold, each whole by one task, a large one too (it
  is never cut: slices are of a plain archive, and a compressed stream is
  read from its start). Their kind is that of the name without the
  compression's extension (a.mbox.gz is an mbox) and of the decompressed
  head; lines and columns count in the decompressed text, as `urlint
  extract` counts them. --slice-size weighs them by their compressed
  size.
- Larger mbox archives are cut at message boundaries: a first pass (one
  task per archive) streams the archive once through urlint.split_mbox into
  slices of whole messages of about --slice-size bytes; then each slice is
  a task of its own that reads only its bytes and keeps the whole archive's
  offsets, lines and message numbers (urlint.extract_mail(..., at=slice)).
  Larger files of other kinds are read whole by one task each.
  Slices are read by the Python workers themselves: local and NFS paths
  with open(), other filesystems through pyarrow.fs (install pyarrow on the
  nodes, as pyspark[sql] does).

An INPUT that does not exist is an error on one line (exit status 2),
before Spark starts for a local path. Malformed messages are warnings on
the executors' standard error, one line each, naming the file and where in
it: `extract_urls.py: warning: PATH: message 3 (line 120) <id>: ...`; so is
a compressed file whose stream breaks (its URLs before the break are
kept), and one in a format this urlint was built without (skipped).

No URL logic is in this file: finding, decoding, placing and linting are
urlint's, the same code as the command line's.
"""

import argparse
import contextlib
import io
import os
import sys
import urllib.parse
import warnings
from typing import Iterable, Iterator

import urlint

PROG = "extract_urls.py"

MAIL_KINDS = ("mbox", "eml")
HEAD_LEN = 8192
DEFAULT_SLICE_SIZE = 64 << 20


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input", help="directory or file (any Hadoop path)")
    parser.add_argument("output", help="output directory (overwritten)")
    parser.add_argument("--format", choices=("json", "parquet"), default="json")
    parser.add_argument("--profile", default=None, choices=urlint.PROFILES)
    parser.add_argument("--config", help="urlint.toml or pyproject.toml, read on the driver")
    parser.add_argument(
        "--slice-size",
        type=int,
        default=DEFAULT_SLICE_SIZE,
        metavar="BYTES",
        help="files from this size on are read apart; mbox slices are about this long "
        f"(default {DEFAULT_SLICE_SIZE})",
    )
    parser.add_argument("--master", help="Spark master, when not given to spark-submit")
    return parser.parse_args(argv)


class InputError(Exception):
    """An input the job cannot read: "PATH: cannot read: why"."""


def local_path(path: str) -> str | None:
    """The local file name of `path` (no scheme, or file:), else None."""
    parsed = urllib.parse.urlparse(path)
    if parsed.scheme == "":
        return path
    if parsed.scheme == "file":
        return urllib.parse.unquote(parsed.path)
    return None


def check_local_input(path: str) -> None:
    """Fail before Spark starts when `path` is local and absent."""
    name = local_path(path)
    if name is not None and not os.path.exists(name):
        raise InputError(f"{path}: cannot read: no such file or directory")


def list_files(spark, path: str) -> list[tuple[str, int]]:
    """Every file under `path` with its length, through the JVM's Hadoop
    FileSystem, so that any Hadoop path works."""
    from py4j.protocol import Py4JJavaError

    jvm = spark.sparkContext._jvm
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    root = jvm.org.apache.hadoop.fs.Path(path)
    try:
        filesystem = root.getFileSystem(conf)
        exists = filesystem.exists(root)
    except Py4JJavaError as err:
        # The Java exception's message, not its trace: an unknown scheme, a
        # host that does not answer, a permission.
        raise InputError(f"{path}: cannot read: {err.java_exception.getMessage()}") from None
    if not exists:
        raise InputError(f"{path}: cannot read: no such file or directory")
    found = []
    pending = [filesystem.getFileStatus(root)]
    while pending:
        status = pending.pop()
        name = status.getPath().getName()
        if status.getPath() != root and name.startswith((".", "_")):
            continue
        if status.isDirectory():
            pending.extend(filesystem.listStatus(status.getPath()))
        else:
            found.append((status.getPath().toString(), status.getLen()))
    return sorted(found)


def open_input(path: str):
    """A binary file object for `path` on a Python worker."""
    name = local_path(path)
    if name is not None:
        return open(name, "rb")
    from pyarrow import fs

    filesystem, inner = fs.FileSystem.from_uri(path)
    return filesystem.open_input_file(inner)


def records(path: str, kind: str, urls: Iterable[urlint.Url]) -> Iterator[dict]:
    """One output record per URL."""
    for url in urls:
        mail = isinstance(url, urlint.MailUrl)
        yield {
            "path": path,
            "kind": kind,
            "url": url.url,
            "form": url.form,
            "start_byte": url.start_byte,
            "end_byte": url.end_byte,
            "line": url.line,
            "column": url.column,
            "message": url.message if mail else None,
            "message_id": url.message_id if mail else None,
            "date": url.date if mail else None,
            "subject": url.subject if mail else None,
            "part": url.part if mail else None,
            "findings": [
                {
                    "rule": f.rule,
                    "severity": f.severity,
                    "message": f.message,
                    "line": f.line,
                    "column": f.column,
                }
                for f in url.findings
            ],
        }


@contextlib.contextmanager
def warnings_naming(path: str) -> Iterator[None]:
    """Write the MailWarnings of reading `path` to standard error, one line
    each naming it (urlint reads bytes in memory, which have no name)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", urlint.MailWarning)
        yield
    for warning in caught:
        if issubclass(warning.category, urlint.MailWarning):
            print(f"{PROG}: warning: {path}: {warning.message}", file=sys.stderr)
        else:
            warnings.showwarning(warning.message, warning.category, warning.filename, warning.lineno)


def extract_whole(path: str, data: bytes, profile, config) -> Iterator[dict]:
    """The URLs of one whole file, read as `urlint extract` reads it (a
    compressed file as the file it holds, inflated by urlint)."""
    name = urllib.parse.urlparse(path).path
    kind = urlint.detect_kind(data[:HEAD_LEN], name)
    with warnings_naming(path):
        try:
            if kind in MAIL_KINDS:
                urls = urlint.extract_mail(data, profile, kind, config)
            else:
                urls = urlint.extract(data, profile, kind, config)
        except ValueError as err:
            # Only a compression format this urlint lacks: the kind was told.
            if urlint.detect_compression(data[:HEAD_LEN], name) is None:
                raise
            print(f"{PROG}: warning: {path}: {err}", file=sys.stderr)
            urls = []
    return records(path, kind, urls)


def plan_large(path: str, slice_size: int) -> list[tuple[str, urlint.ArchiveSlice | None]]:
    """The reads of one large file: slices of whole messages for a plain
    mbox (the archive streamed once), the whole file otherwise (a
    compressed mbox too: slices' offsets are of a plain archive)."""
    name = urllib.parse.urlparse(path).path
    with open_input(path) as file:
        head = file.read(HEAD_LEN)
    if urlint.detect_compression(head, name) is not None or urlint.detect_kind(head, name) != "mbox":
        return [(path, None)]
    with open_input(path) as file:
        return [(path, piece) for piece in urlint.split_mbox(io.BufferedReader(file, 1 << 20), slice_size)]


def extract_planned(path: str, piece, profile, config) -> Iterator[dict]:
    """The URLs of one planned read: an mbox slice, or a whole large file."""
    with open_input(path) as file:
        if piece is None:
            yield from extract_whole(path, file.read(), profile, config)
            return
        file.seek(piece.start)
        data = file.read(piece.end - piece.start)
    with warnings_naming(path):
        urls = urlint.extract_mail(data, profile, "mbox", config, at=piece)
    yield from records(path, "mbox", urls)


def schema():
    from pyspark.sql.types import (
        ArrayType,
        LongType,
        StringType,
        StructField,
        StructType,
    )

    finding = StructType(
        [
            StructField("rule", StringType()),
            StructField("severity", StringType()),
            StructField("message", StringType()),
            StructField("line", LongType()),
            StructField("column", LongType()),
        ]
    )
    text = [("path", StringType()), ("kind", StringType()), ("url", StringType())]
    text += [("form", StringType())]
    text += [(name, LongType()) for name in ("start_byte", "end_byte", "line", "column", "message")]
    text += [(name, StringType()) for name in ("message_id", "date", "subject", "part")]
    return StructType(
        [StructField(name, kind) for name, kind in text]
        + [StructField("findings", ArrayType(finding))]
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        check_local_input(args.input)
        run(args)
    except InputError as err:
        print(f"{PROG}: {err}", file=sys.stderr)
        return 2
    return 0


def run(args: argparse.Namespace) -> None:
    """The job: list the input, read it in tasks, write the records."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("urlint extract_urls")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    try:
        extract_to_output(spark, args)
    finally:
        spark.stop()


def extract_to_output(spark, args: argparse.Namespace) -> None:
    """Read every file under the input and write one record per URL."""
    context = spark.sparkContext
    # Parsed once here (errors surface before any task runs), pickled to tasks.
    config = urlint.Config.from_file(args.config) if args.config else None
    profile, slice_size = args.profile, args.slice_size

    files = list_files(spark, args.input)
    small = [path for path, length in files if length < slice_size]
    large = [path for path, length in files if length >= slice_size]
    parts = []
    if small:
        whole = context.binaryFiles(",".join(small), minPartitions=context.defaultParallelism)
        parts.append(
            whole.mapPartitions(
                lambda pairs: (
                    record
                    for path, data in pairs
                    for record in extract_whole(path, data, profile, config)
                )
            )
        )
    if large:
        planned = context.parallelize(large, len(large)).flatMap(
            lambda path: plan_large(path, slice_size)
        )
        planned = planned.repartition(max(context.defaultParallelism, 1))
        parts.append(
            planned.mapPartitions(
                lambda reads: (
                    record
                    for path, piece in reads
                    for record in extract_planned(path, piece, profile, config)
                )
            )
        )
    rows = context.union(parts) if parts else context.emptyRDD()
    frame = spark.createDataFrame(rows, schema())
    writer = frame.write.mode("overwrite")
    if args.format == "parquet":
        writer.parquet(args.output)
    else:
        writer.json(args.output)


if __name__ == "__main__":
    sys.exit(main())
