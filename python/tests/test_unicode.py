"""UTF-16 and UTF-32 data with a byte-order mark is read as the text it
holds, as the command line reads such a file: the same URLs, lines and
columns as the text itself, offsets indexing the text decoded to UTF-8 (as
they index what compressed data holds); without a mark, NUL bytes still make
data binary."""

import gzip
import io
import json

import pytest
import urlint
from conftest import run_cli

TEXT = "Café menu\r\nsee http://a.example/a|b and <URL:http://b.example/\r\n  ~chef> here\r\n"
MBOX = "From a@x Mon Jan  1 00:00:00 2024\nSubject: s\n\nsee http://m.example/~x\n"
ENCODINGS = ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"]


def marked(text: str, encoding: str) -> bytes:
    """`text` in `encoding`, opening with its byte-order mark."""
    return ("\ufeff" + text).encode(encoding)


def places(urls):
    return [(u.url, u.line, u.column, u.end_line, u.end_column, u.form) for u in urls]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_marked_data_gives_the_urls_and_places_of_its_text(encoding):
    urls = urlint.extract(marked(TEXT, encoding))
    assert places(urls) == places(urlint.extract(TEXT))
    assert [u.url for u in urls] == ["http://a.example/a|b", "http://b.example/~chef"]
    decoded = TEXT.encode()
    first = urls[0]
    assert decoded[first.start : first.end] == b"http://a.example/a|b"
    (finding,) = first.findings
    assert decoded[finding.start : finding.end] == b"|"
    assert [f.rule for f in urlint.check(marked(TEXT, encoding))] == ["unsafe-char", "unsafe-char"]


def test_without_a_mark_nul_bytes_make_data_binary():
    assert urlint.extract(TEXT.encode("utf-16-le")) == []


def test_a_utf8_mark_is_not_a_column_either():
    line = "see http://a.example/a|b\n"
    (utf8,) = urlint.check(marked(line, "utf-8"))
    (utf16,) = urlint.check(marked(line, "utf-16-le"))
    assert (utf8.line, utf8.column) == (utf16.line, utf16.column) == (1, 23)
    assert utf8.start == utf16.start + 3, "UTF-8 offsets keep the mark's three bytes"


def test_a_code_unit_that_encodes_no_character_reads_as_a_replacement():
    data = marked("x", "utf-16-le") + b"\x00\xd8" + "see http://a.example/~x\n".encode("utf-16-le")
    (url,) = urlint.extract(data)
    assert (url.url, url.line, url.column) == ("http://a.example/~x", 1, 7)


def test_marked_mail_is_told_and_read_as_mail():
    for encoding in ENCODINGS:
        data = marked(MBOX, encoding)
        assert urlint.detect_kind(data[:8192]) == "mbox"
        (url,) = urlint.extract_mail(data)
        assert (url.url, url.message, url.line) == ("http://m.example/~x", 1, 4)
        assert [f.rule for f in urlint.check(data, kind="mail")] == ["unsafe-char"]
    assert urlint.detect_kind(gzip.compress(marked(MBOX, "utf-16-be"))) == "mbox"


def test_compressed_marked_data_is_inflated_then_decoded():
    urls = urlint.extract(gzip.compress(marked(TEXT, "utf-16-le")))
    assert places(urls) == places(urlint.extract(TEXT))


def test_marked_archives_are_not_sliced():
    data = marked(MBOX, "utf-16-le")
    with pytest.raises(ValueError, match=r"^the file is UTF-16 LE text, and split_mbox cuts"):
        urlint.split_mbox(io.BytesIO(data), 10)
    (piece,) = urlint.split_mbox(io.BytesIO(MBOX.encode()), 10)
    with pytest.raises(ValueError, match=r"^the data is UTF-16 LE text, and at= is a slice"):
        urlint.extract_mail(data, at=piece)


def test_the_command_line_places_a_marked_file_the_same(urlint_bin, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(marked(TEXT, "utf-16-le"))
    done = run_cli(urlint_bin, "check", "--isolated", "--format", "json", str(path))
    assert done.returncode == 1, done.stderr
    (file,) = json.loads(done.stdout)["files"]
    cli = [(u["url"], u["line"], u["column"], u["segments"][0]["start"]) for u in file["urls"]]
    python = [(u.url, u.line, u.column, u.start) for u in urlint.extract(path.read_bytes())]
    assert cli == python
