"""urlint.extract, check and validate on text: offsets in the units of what
was passed, findings as the command line reports them, names checked."""

import io
import json
import os
import pickle
import threading

import pytest
import urlint
from conftest import FIXTURES, run_cli

WRAPPED = "Café menu: <URL:http://cafe.example/~chef> and http://b.example/x"


def test_str_offsets_are_characters_and_slice_the_url():
    urls = urlint.extract(WRAPPED)
    assert [u.url for u in urls] == ["http://cafe.example/~chef", "http://b.example/x"]
    first = urls[0]
    assert WRAPPED[first.start : first.end] == "http://cafe.example/~chef"
    assert (first.line, first.column, first.form) == (1, 17, "wrapped")
    encoded = WRAPPED.encode()
    assert encoded[first.start_byte : first.end_byte] == "http://cafe.example/~chef".encode()
    assert first.start_byte == first.start + 1, "the é before it is two bytes"


def test_bytes_offsets_are_input_bytes_even_after_latin1_bytes():
    data = "Caf\xe9 see http://b.example/~x".encode("latin-1")
    (url,) = urlint.extract(data)
    assert data[url.start : url.end] == b"http://b.example/~x"
    assert (url.start, url.start_byte) == (9, 9)
    assert url.column == 10, "the Latin-1 byte is one character"
    (finding,) = url.findings
    assert data[finding.start : finding.end] == b"~"


def test_a_url_wrapped_over_lines_spans_its_lines():
    text = "see <URL:http://host.example/a/\n   b/c.html> now"
    (url,) = urlint.extract(text)
    assert url.url == "http://host.example/a/b/c.html"
    assert text[url.start : url.end] == "http://host.example/a/\n   b/c.html"
    assert (url.line, url.end_line) == (1, 2)


def test_check_reports_rule_severity_message_help_and_fix():
    findings = urlint.check(WRAPPED)
    assert [(f.rule, f.severity) for f in findings] == [("unsafe-char", "error")]
    (finding,) = findings
    assert WRAPPED[finding.start : finding.end] == "~"
    assert finding.message == "unsafe character '~' must be encoded as %7E"
    assert finding.help and "RFC 1738" in finding.help
    assert finding.fix is not None
    assert (finding.fix.replacement, finding.fix.instruction) == (
        "%7E",
        "replace `~` with `%7E`",
    )
    assert finding.fix.applicability == "machine-applicable"
    assert finding.url == "http://cafe.example/~chef"
    assert (finding.line, finding.column, finding.end_column) == (1, 37, 38)


def test_check_matches_the_command_line_on_a_fixture(urlint_bin):
    path = FIXTURES / "config" / "notes.md"
    cli = run_cli(urlint_bin, "check", "--isolated", "--format", "jsonl", str(path))
    expected = [
        (r["rule"], r["line"], r["column"], r["message"])
        for r in map(json.loads, cli.stdout.splitlines())
        if r["type"] == "finding"
    ]
    findings = urlint.check(path.read_bytes())
    assert [(f.rule, f.line, f.column, f.message) for f in findings] == expected
    assert expected, "the fixture has findings"


def test_validate_lints_a_url_on_its_own():
    (finding,) = urlint.validate("http://host/~user")
    assert (finding.rule, finding.start, finding.end) == ("unsafe-char", 12, 13)
    assert urlint.validate("http://host.example/") == []
    (padded,) = urlint.validate("  http://host/~user\n")
    assert (padded.start, padded.end, padded.column) == (14, 15, 15)


@pytest.mark.parametrize("text", ["", "   ", "\n\t\r\n"])
def test_validate_of_no_url_is_an_error_not_valid(text):
    with pytest.raises(ValueError, match=r"^validate takes one URL, and the text is empty or all whitespace$"):
        urlint.validate(text)


@pytest.mark.parametrize(
    "text", ["http://a.example/\nhttp://b.example/", "http://a.example/\r\n\r\nhttp://b.example/~x", "a\rb"]
)
def test_validate_of_several_lines_is_an_error_not_their_findings(text):
    with pytest.raises(ValueError, match=r"^validate takes one URL, and the text has 2 non-blank lines"):
        urlint.validate(text)


def test_kind_mail_on_text_is_the_error_extract_mail_gives():
    text = "just words http://a.example/"
    with pytest.raises(ValueError, match="does not look like mail") as from_extract:
        urlint.extract(text, kind="mail")
    with pytest.raises(ValueError) as from_extract_mail:
        urlint.extract_mail(text.encode())
    assert str(from_extract.value) == str(from_extract_mail.value)
    with pytest.raises(ValueError, match="does not look like mail"):
        urlint.check(text.encode(), kind="MAIL")
    with pytest.raises(ValueError, match="does not look like mail"):
        urlint.extract_mail(text.encode(), kind="mail")
    # Asked for by name, a message is read as one, as it is by extract_mail.
    (url,) = urlint.extract("Note: x\n\nwords http://a.example/", kind="eml")
    assert (url.url, url.line) == ("http://a.example/", 3)
    mbox = (FIXTURES / "mail" / "list.mbox").read_bytes()
    assert urlint.extract(mbox, kind="mail") == urlint.extract(mbox, kind="mbox") != []


def test_unknown_profile_and_kind_name_the_accepted_ones():
    assert urlint.PROFILES == ["rfc1738", "rfc3986"]
    assert urlint.KINDS[:2] == ["auto", "text"]
    with pytest.raises(ValueError, match=r"unknown profile 'rfc9999': expected one of rfc1738, rfc3986"):
        urlint.extract("x", profile="rfc9999")
    with pytest.raises(ValueError, match=r"unknown kind 'pdf': expected one of auto, text, markdown, rst, html, mail, mbox, eml"):
        urlint.check("x", kind="pdf")
    assert urlint.extract("http://a.example/", profile="RFC1738", kind="text")


def test_the_profile_decides_what_is_valid_and_the_config_sets_it(tmp_path):
    url = "https://docs.example/~team/guide#install"
    (rfc1738,) = urlint.check(url)
    assert rfc1738.rule == "unsafe-char"
    assert urlint.check(url, profile="rfc3986") == []
    path = tmp_path / "urlint.toml"
    path.write_text('profile = "rfc3986"\n')
    assert urlint.check(url, config=str(path)) == []
    assert [f.rule for f in urlint.check(url, profile="rfc1738", config=str(path))] == ["unsafe-char"]
    assert urlint.validate("mailto:list@lists.example?subject=help", profile="rfc3986") == []


# (what is called, the argument given the wrong type, what it takes, the type given)
WRONG_TYPES = [
    (lambda: urlint.extract(42), "text", "str, bytes, bytearray or memoryview", "int"),
    (lambda: urlint.check(None), "text", "str, bytes, bytearray or memoryview", "NoneType"),
    (lambda: urlint.extract("x", profile=3), "profile", "str or None", "int"),
    (lambda: urlint.extract("x", kind=None), "kind", "str", "NoneType"),
    (lambda: urlint.extract("x", config=3), "config", "urlint.Config, str, os.PathLike or None", "int"),
    (lambda: urlint.extract_mail([]), "data", "str, bytes, bytearray or memoryview", "list"),
    (lambda: urlint.extract_mail(b"x", at=(0, 1)), "at", "urlint.ArchiveSlice or None", "tuple"),
    (lambda: urlint.validate(None), "url", "str", "NoneType"),
    (lambda: urlint.validate(b"http://a.example/"), "url", "str", "bytes"),
    (lambda: urlint.detect_kind("From a"), "head", "bytes, bytearray or memoryview", "str"),
    (lambda: urlint.detect_kind(b"x", 3), "path", "str, os.PathLike or None", "int"),
    (lambda: urlint.split_mbox(io.BytesIO(b""), "1"), "target_len", "int", "str"),
    (lambda: urlint.Config.from_file(None), "path", "str or os.PathLike", "NoneType"),
    (lambda: urlint.Config.from_toml(b""), "text", "str", "bytes"),
    (lambda: urlint.Config.from_toml("", 3), "name", "str or os.PathLike", "int"),
    (lambda: urlint.ArchiveSlice(0, 1.5, 1, 0), "end", "int", "float"),
]


@pytest.mark.parametrize(
    "call, argument, accepted, given", WRONG_TYPES, ids=[f"{n}-{case[1]}" for n, case in enumerate(WRONG_TYPES)]
)
def test_wrong_argument_types_are_type_errors_worded_one_way(call, argument, accepted, given):
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == f"expected {accepted}, got {given}"
    assert raised.value.__notes__ == [f"while processing '{argument}'"]


def test_a_negative_count_is_a_value_error():
    with pytest.raises(ValueError, match=r"^expected an int of 0 or more, got -1\n"):
        urlint.split_mbox(io.BytesIO(b""), -1)
    with pytest.raises(ValueError, match=r"^expected an int of 0 or more, got -3\n"):
        urlint.ArchiveSlice(-3, 1, 1, 0)


@pytest.mark.parametrize("wrap", [bytearray, memoryview], ids=lambda t: t.__name__)
def test_bytearray_and_memoryview_read_as_bytes(wrap):
    data = "Caf\xe9 see http://b.example/~x".encode("latin-1")
    assert urlint.extract(wrap(data)) == urlint.extract(data)
    assert urlint.check(wrap(data)) == urlint.check(data) != []
    assert urlint.extract(wrap(data), kind="markdown") == urlint.extract(data, kind="markdown")
    assert urlint.detect_kind(wrap(b"From a@x Mon Jan  1 00:00:00 2024\n")) == "mbox"
    assert urlint.detect_kind(wrap(b"plain"), "notes.md") == "markdown"
    assert urlint.extract(wrap(b"\0 http://a.example/")) == []


def test_a_memoryview_reads_what_it_views():
    data = b"xx http://a.example/~x yy http://b.example/"
    (url,) = urlint.extract(memoryview(data)[:22])
    assert (url.url, url.start, url.end) == ("http://a.example/~x", 3, 22)


def test_bytes_with_a_nul_are_binary_as_for_files_and_str_is_text():
    assert urlint.extract(b"\0 http://a.example/") == []
    assert [u.url for u in urlint.extract("\0 http://a.example/")] == ["http://a.example/"]


def test_config_levels_schemes_and_excludes_apply(tmp_path):
    config = urlint.Config.from_toml(
        '[rules]\nunsafe-char = "warning"\n[urls]\nexclude = ["^http://b\\\\."]\n'
    )
    urls = urlint.extract(WRAPPED, config=config)
    assert [u.url for u in urls] == ["http://cafe.example/~chef"]
    assert urls[0].findings[0].severity == "warning"
    path = tmp_path / "urlint.toml"
    path.write_text('[rules]\nunsafe-char = "off"\n')
    assert urlint.check(WRAPPED, config=path) == []
    assert urlint.check(WRAPPED, config=str(path)) == []


def test_pyproject_table_is_read(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n[tool.urlint.rules]\nunsafe-char = "off"\n')
    assert urlint.check(WRAPPED, config=urlint.Config.from_file(path)) == []
    path.write_text('[project]\nname = "x"\n')
    with pytest.raises(urlint.ConfigError, match=r"it has no \[tool.urlint\] table"):
        urlint.Config.from_file(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_config_that_is_not_a_regular_file_is_refused_not_waited_for(tmp_path):
    fifo = tmp_path / "urlint.toml"
    os.mkfifo(fifo)
    for read in (lambda: urlint.Config.from_file(fifo), lambda: urlint.check(WRAPPED, config=fifo)):
        with pytest.raises(urlint.ConfigError, match="it is not a regular file"):
            read()
    with pytest.raises(urlint.ConfigError, match="it is not a regular file"):
        urlint.Config.from_file("/dev/zero")


def test_config_errors_carry_the_command_lines_message(urlint_bin, tmp_path):
    path = tmp_path / "urlint.toml"
    path.write_text('[rules]\nunsafe-chr = "off"\n')
    cli = run_cli(urlint_bin, "check", "--config", str(path), str(FIXTURES / "mail.txt"))
    assert cli.returncode == 2
    with pytest.raises(urlint.ConfigError) as raised:
        urlint.check("x", config=path)
    assert isinstance(raised.value, ValueError)
    assert str(raised.value) in cli.stderr
    assert "did you mean 'unsafe-char'?" in str(raised.value)


def test_config_pickles_for_spark_executors():
    config = urlint.Config.from_toml('[rules]\nunsafe-char = "off"\n')
    copy = pickle.loads(pickle.dumps(config))
    assert urlint.check(WRAPPED, config=copy) == []
    assert repr(copy) == 'Config("urlint.toml")'


def test_the_gil_is_released_while_scanning():
    text = "prose http://a.example/~x more words\n" * 200_000
    state = {"inside": False, "done": False}

    def scan():
        state["inside"] = True
        urlint.extract(text)
        state["done"] = True

    worker = threading.Thread(target=scan)
    worker.start()
    while not state["inside"]:
        pass
    beats = 0
    while not state["done"]:
        beats += 1
    worker.join()
    # Holding the GIL, the call would leave this thread no turn at all.
    assert beats > 1000


def test_ctrl_c_ends_a_long_call_at_once():
    import os
    import signal
    import threading
    import time

    line = b"see http://a.example/~x and <URL:http://b.example/a b> too\n"
    small = line * 4_000
    started = time.monotonic()
    urlint.check(small)
    small_took = time.monotonic() - started
    # Twenty times the text: the whole call would take about twenty times as
    # long; Ctrl-C after a moment must end it well before half of that.
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        urlint.check(small * 20)
    took = time.monotonic() - started
    timer.join()
    assert took < max(1.0, 10 * small_took), (took, small_took)
