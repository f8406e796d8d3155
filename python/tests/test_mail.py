"""urlint.extract_mail: archive offsets, lines, message data; slices of an
mbox read apart give what the whole archive gives; the same URLs and
positions as `urlint extract`."""

import io
import json
import warnings

import pytest
import urlint
from conftest import FIXTURES, run_cli

MAIL = sorted((FIXTURES / "mail").iterdir())


def test_urls_carry_their_message_and_archive_position():
    data = (FIXTURES / "mail" / "list.mbox").read_bytes()
    urls = urlint.extract_mail(data)
    assert all(isinstance(u, urlint.MailUrl) and isinstance(u, urlint.Url) for u in urls)
    soft_break = next(u for u in urls if u.url == "http://ftp.example.org/pub/mirrors.txt")
    assert data[soft_break.start : soft_break.end] == b"http://ftp.exam=\nple.org/pub/mirrors.txt"
    assert (soft_break.message, soft_break.message_id) == (1, "mbox-1@example.org")
    assert soft_break.subject == "Mirrors"
    assert soft_break.date == "2024-01-01T10:00:00Z"
    assert soft_break.part == "1"
    assert [u.message for u in urls] == sorted(u.message for u in urls)
    assert {u.message for u in urls} == {1, 2, 3}


def test_latin1_archive_offsets_are_archive_bytes():
    data = (FIXTURES / "mail" / "latin1.eml").read_bytes()
    urls = urlint.extract_mail(data)
    for url in urls:
        assert data[url.start : url.end].decode("latin-1") == url.url
    (tilde,) = [f for u in urls for f in u.findings if f.rule == "unsafe-char"]
    assert data[tilde.start : tilde.end] == b"~"


@pytest.mark.parametrize("path", MAIL, ids=lambda p: p.name)
def test_the_same_urls_and_positions_as_the_command_line(urlint_bin, path):
    cli = run_cli(urlint_bin, "extract", "--isolated", "--format", "jsonl", str(path))
    expected = [
        (r["url"], r["line"], r["column"], r["mail"]["message"])
        for r in map(json.loads, cli.stdout.splitlines())
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", urlint.MailWarning)
        urls = urlint.extract_mail(path.read_bytes())
    assert [(u.url, u.line, u.column, u.message) for u in urls] == expected


def test_malformed_messages_are_warnings_and_reading_goes_on():
    data = (FIXTURES / "mail" / "broken_then_good.mbox").read_bytes()
    with pytest.warns(urlint.MailWarning) as warned:
        urls = urlint.extract_mail(data)
    assert [u.message for u in urls] == [1, 2]
    # Data in memory has no name: a warning says where in it, and the caller
    # names the file (see examples/spark), not "<memory>".
    assert [str(w.message) for w in warned] == [
        "message 1 (line 1) <broken-2@example.org>: multipart has no closing '--cut--' line; "
        "read up to the end of the message",
        "message 1 (line 1) <broken-2@example.org>, part 1: base64 body does not decode; read as raw text",
    ]


def archive(messages: int) -> bytes:
    parts = []
    for number in range(1, messages + 1):
        parts.append(
            f"From m{number}@example.org Mon Jan  1 00:00:00 2024\n"
            f"Subject: message {number}\nMessage-ID: <m{number}@example.org>\n\n"
            f"see http://host.example/{number}/~x and\nhttp://host.example/{number}/ok\n\n"
        )
    return "".join(parts).encode()


@pytest.mark.parametrize("target_len", [1, 150, 1000, 10**9])
def test_slices_read_apart_give_the_whole_archive(target_len):
    data = archive(12)
    slices = urlint.split_mbox(io.BytesIO(data), target_len)
    assert slices[0].start == 0 and slices[-1].end == len(data)
    assert all(a.end == b.start for a, b in zip(slices, slices[1:]))
    whole = urlint.extract_mail(data)
    pieces = [
        url
        for piece in slices
        for url in urlint.extract_mail(data[piece.start : piece.end], at=piece)
    ]
    fields = lambda u: (u.url, u.start, u.end, u.line, u.column, u.message, u.message_id)
    assert [fields(u) for u in pieces] == [fields(u) for u in whole]
    assert len(whole) == 24


def test_a_file_whose_read_gives_bytearray_or_memoryview_is_cut_alike():
    data = archive(5)

    class Reader:
        def __init__(self, wrap):
            self.file, self.wrap = io.BytesIO(data), wrap

        def read(self, n):
            return self.wrap(self.file.read(n))

    expected = urlint.split_mbox(io.BytesIO(data), 150)
    assert len(expected) > 1
    assert urlint.split_mbox(Reader(bytearray), 150) == expected
    assert urlint.split_mbox(Reader(memoryview), 150) == expected
    with pytest.raises(OSError, match="returned no bytes"):
        urlint.split_mbox(Reader(bytes.decode), 150)


MBOX_ONE = b"From a@b.example Mon Jan  1 00:00:00 2024\nSubject: x\n\nsee http://a.example/\n"


def test_slices_pickle_and_compare():
    import pickle

    piece = urlint.ArchiveSlice(10, 20, 3, 1)
    assert pickle.loads(pickle.dumps(piece)) == piece
    with pytest.raises(ValueError):
        urlint.ArchiveSlice(20, 10, 1, 0)


def test_slice_numbers_that_would_wrap_are_refused():
    largest = 2**64 - 1
    # Numbers near the top are fine while nothing read from them can pass it.
    (url,) = urlint.extract_mail(
        MBOX_ONE, at=urlint.ArchiveSlice(0, len(MBOX_ONE), 2**63, 2**63)
    )
    assert (url.message, url.line) == (2**63 + 1, 2**63 + 3)
    for numbers in [(0, 10, largest - 5, 0), (0, 10, 1, largest - 5)]:
        with pytest.raises(OverflowError, match="would number past"):
            urlint.ArchiveSlice(*numbers)
    # Slices whose numbers fit their own length, given more bytes than that.
    for short in [urlint.ArchiveSlice(largest - 1, largest, 1, 0), urlint.ArchiveSlice(0, 1, 1, largest - 2)]:
        with pytest.raises(OverflowError, match="would number past"):
            urlint.extract_mail(MBOX_ONE, at=short)


def test_kinds_for_mail_and_detection():
    assert urlint.detect_kind(b"From a@x Mon Jan  1 00:00:00 2024\n") == "mbox"
    assert urlint.detect_kind(b"plain words", "notes.eml") == "eml"
    assert urlint.detect_kind(b"plain words") == "text"
    with pytest.raises(ValueError, match="unknown mail kind 'text': expected one of auto, mail, mbox, eml"):
        urlint.extract_mail(b"x", kind="text")
    with pytest.raises(ValueError, match="does not look like mail"):
        urlint.extract_mail(b"just words http://a.example/")
    (url,) = urlint.extract_mail(b"Note: x\n\nwords http://a.example/", kind="eml")
    assert (url.message, url.line, url.column) == (1, 3, 7)
    with pytest.raises(ValueError, match="as bytes"):
        urlint.extract_mail("From a", at=urlint.ArchiveSlice(0, 6, 1, 0))


def test_mail_read_as_text_kind_through_extract():
    data = (FIXTURES / "mail" / "reply.eml").read_bytes()
    as_mail = [(u.url, u.line, u.column) for u in urlint.extract_mail(data)]
    assert [(u.url, u.line, u.column) for u in urlint.extract(data, kind="eml")] == as_mail
