"""Compressed data (gzip, bzip2, xz, zstd, told by its magic bytes) is read
as the data it holds: the same URLs at the same offsets as the plain bytes,
offsets indexing the decompressed data; a broken stream keeps the URLs
before the break and warns; slices are of plain archives only."""

import bz2
import gzip
import io
import json
import lzma
import re
import shutil
import subprocess
import warnings

import pytest
import urlint
from conftest import FIXTURES, run_cli


def zstd(data: bytes) -> bytes:
    """`data` compressed by the zstd command (Python's standard library
    has no Zstandard before 3.14); the test is skipped without it."""
    binary = shutil.which("zstd")
    if binary is None:
        pytest.skip("no zstd command to compress with")
    return subprocess.run([binary, "-q", "-c"], input=data, capture_output=True, check=True).stdout


COMPRESS = {
    "gzip": gzip.compress,
    "bzip2": bz2.compress,
    "xz": lambda data: lzma.compress(data, format=lzma.FORMAT_XZ),
    "zstd": zstd,
}

TEXT = "Caf\xe9 notes: <URL:http://cafe.example/a/\n   ~chef> and http://b.example/x\n".encode("latin-1")
MBOX = (FIXTURES / "mail" / "list.mbox").read_bytes()


def lines_with_urls(count: int) -> bytes:
    return "".join(f"line {n} see http://host.example/{n}/~x today\n" for n in range(1, count + 1)).encode()


@pytest.mark.parametrize("name", COMPRESS)
def test_each_format_gives_the_urls_of_the_plain_bytes(name):
    packed = COMPRESS[name](TEXT)
    assert urlint.detect_compression(packed) == name
    urls = urlint.extract(packed)
    assert urls == urlint.extract(TEXT) and len(urls) == 2
    # Offsets index the decompressed data, Latin-1 byte and line break included.
    assert [TEXT[u.start : u.end] for u in urls] == [b"http://cafe.example/a/\n   ~chef", b"http://b.example/x"]
    (finding,) = urlint.check(packed)
    assert TEXT[finding.start : finding.end] == b"~"
    assert urlint.check(packed) == urlint.check(TEXT)
    assert urlint.extract(bytearray(packed), kind="markdown") == urlint.extract(TEXT, kind="markdown")


@pytest.mark.parametrize("name", COMPRESS)
def test_each_format_gives_the_mail_urls_of_the_plain_archive(name):
    packed = COMPRESS[name](MBOX)
    urls = urlint.extract_mail(packed)
    assert urls == urlint.extract_mail(MBOX) and urls
    soft_break = next(u for u in urls if u.url == "http://ftp.example.org/pub/mirrors.txt")
    assert MBOX[soft_break.start : soft_break.end] == b"http://ftp.exam=\nple.org/pub/mirrors.txt"
    assert urlint.extract(memoryview(packed), kind="mail") == urlint.extract(MBOX, kind="mail")


def test_a_gzip_of_several_members_reads_as_their_concatenation():
    data = lines_with_urls(300)
    cut = data.index(b"http://host.example/150/") + 5  # inside a URL: members are bytes, not lines
    members = gzip.compress(data[:cut]) + gzip.compress(data[cut:]) + gzip.compress(b"")
    assert urlint.extract(members) == urlint.extract(data)
    assert len(urlint.extract(members)) == 300
    first, second = MBOX[: len(MBOX) // 2], MBOX[len(MBOX) // 2 :]
    assert urlint.extract_mail(gzip.compress(first) + gzip.compress(second)) == urlint.extract_mail(MBOX)


def test_a_compressed_archive_gives_what_the_command_line_gives(urlint_bin):
    path = FIXTURES / "compressed" / "2024-January.txt.gz"
    cli = run_cli(urlint_bin, "extract", "--isolated", "--format", "jsonl", str(path))
    assert cli.returncode == 0, cli.stderr
    expected = [
        (r["url"], r["line"], r["column"], r["outer"]["start"], r["mail"]["message"])
        for r in map(json.loads, cli.stdout.splitlines())
    ]
    urls = urlint.extract_mail(path.read_bytes())
    assert [(u.url, u.line, u.column, u.start, u.message) for u in urls] == expected
    assert expected, "the fixture has URLs"


BREAK = re.compile(
    r"the gzip stream breaks after (\d+) bytes of text, in line (\d+): the file ends inside the "
    r"compressed stream \(truncated\?\); the URLs before the break are reported"
)


def test_a_truncated_gzip_keeps_the_urls_before_the_break_and_warns():
    data = lines_with_urls(20_000)
    packed = gzip.compress(data)
    with pytest.warns(urlint.MailWarning) as warned:
        urls = urlint.extract(packed[: len(packed) // 2])
    (warning,) = warned
    match = BREAK.fullmatch(str(warning.message))
    assert match, str(warning.message)
    text_len, line = int(match[1]), int(match[2])
    assert len(data) // 4 < text_len < len(data)
    assert line == data[:text_len].count(b"\n") + 1
    whole = urlint.extract(data)
    # Every URL before the break, at its place; the one it cut, if any, cut.
    before = [u for u in whole if u.end <= text_len]
    assert urls[: len(before)] == before
    assert len(urls) - len(before) <= 1 and all(u.end <= text_len for u in urls)
    assert len(before) > 5_000


def test_a_truncated_compressed_archive_keeps_the_messages_before_the_break():
    archive = b"".join(
        f"From m{n}@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <m{n}@example.org>\n\n"
        f"see http://host.example/{n}/page and more words {n * 'x'}\n\n".encode()
        for n in range(1, 2_000)
    )
    packed = lzma.compress(archive, format=lzma.FORMAT_XZ)
    with pytest.warns(urlint.MailWarning, match=r"^the xz stream breaks after \d+ bytes of text"):
        urls = urlint.extract_mail(packed[: len(packed) // 2])
    whole = urlint.extract_mail(archive)
    assert 0 < len(urls) < len(whole)
    assert urls[:-1] == whole[: len(urls) - 1]


def test_a_corrupt_stream_warns_and_keeps_what_came_before():
    data = lines_with_urls(2_000)
    # A wrong checksum in the trailer: the text is all there, and told broken.
    packed = bytearray(gzip.compress(data))
    packed[-6] ^= 0xFF
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        urls = urlint.extract(bytes(packed))
    assert [w.category for w in caught] == [urlint.MailWarning]
    assert str(caught[0].message).startswith(f"the gzip stream breaks after {len(data)} bytes of text, in line 2001: ")
    assert urls == urlint.extract(data)
    # A flipped byte inside a bzip2 block: the block is lost.
    packed = bytearray(bz2.compress(data))
    packed[len(packed) // 2] ^= 0xFF
    with pytest.warns(urlint.MailWarning, match=r"^the bzip2 stream breaks after \d+ bytes of text"):
        urlint.extract(bytes(packed))


def test_a_slice_is_of_a_plain_archive_and_compressed_data_is_read_whole():
    (piece, *_) = urlint.split_mbox(io.BytesIO(MBOX), 10)
    packed = gzip.compress(MBOX)
    with pytest.raises(ValueError, match=r"^the data is gzip compressed, and at= is a slice of a plain archive"):
        urlint.extract_mail(packed, at=piece)
    with pytest.raises(ValueError, match=r"^the file is xz compressed, and split_mbox cuts a plain mbox"):
        urlint.split_mbox(io.BytesIO(lzma.compress(MBOX)), 10)


def test_the_kind_and_compression_of_a_compressed_input_are_told():
    packed = gzip.compress(MBOX)
    assert urlint.detect_kind(packed[:8192]) == "mbox"
    assert urlint.detect_kind(packed[:8192], "lists/2024-January.txt.gz") == "mbox"
    notes = bz2.compress(b"# Notes\n\nsee http://a.example/\n")
    assert urlint.detect_kind(notes, "notes.md.bz2") == "markdown"
    assert urlint.detect_kind(notes) == "text"
    assert urlint.detect_kind(b"", "message.eml.xz") == "eml"
    assert urlint.detect_compression(b"plain", "notes.md.zst") == "zstd"
    assert urlint.detect_compression(packed[:4]) == "gzip"
    assert urlint.detect_compression(MBOX, "list.mbox") is None


def test_text_that_opens_like_a_magic_number_is_text():
    (url,) = urlint.extract("BZh91AY&SY http://a.example/")
    assert url.start == 11
