"""What the functions return: URLs, mail URLs, findings, fixes and archive
slices read as their text, compare by value, hash alike when equal and
pickle (multiprocessing and Spark move them between processes so)."""

import copy
import io
import pickle

import pytest
import urlint
from conftest import FIXTURES

TEXT = "Café <URL:http://cafe.example/~chef> and http://b.example/x"
MBOX = (
    b"From ann@example.org Mon Jan  1 10:00:00 2024\nSubject: Mirrors\n"
    b"Message-ID: <m1@example.org>\n\nsee http://ftp.example.org/~ann/ today\n"
)


def results():
    """One record of every class the module returns, by class name."""
    (url, _) = urlint.extract(TEXT)
    (mail,) = urlint.extract_mail(MBOX)
    (finding,) = url.findings
    assert finding.fix is not None
    (piece,) = urlint.split_mbox(io.BytesIO(MBOX), 10)
    return {
        "Url": url,
        "MailUrl": mail,
        "Finding": finding,
        "Fix": finding.fix,
        "ArchiveSlice": piece,
    }


RESULTS = ["Url", "MailUrl", "Finding", "Fix", "ArchiveSlice"]


def test_str_is_the_text_and_repr_says_where():
    found = results()
    url, mail, finding, fix = found["Url"], found["MailUrl"], found["Finding"], found["Fix"]
    assert str(url) == url.url == "http://cafe.example/~chef"
    assert f"see {url}" == "see http://cafe.example/~chef"
    assert repr(url) == 'Url("http://cafe.example/~chef", line=1, column=11)'
    assert str(mail) == mail.url
    assert repr(mail) == f'MailUrl("{mail.url}", message={mail.message}, line={mail.line}, column={mail.column})'
    assert str(finding) == finding.message == "unsafe character '~' must be encoded as %7E"
    assert repr(finding) == f"Finding(1:31: error[unsafe-char]: {finding.message})"
    assert str(fix) == fix.instruction == "replace `~` with `%7E`"
    assert repr(fix) == 'Fix("replace `~` with `%7E`")'


@pytest.mark.parametrize("name", RESULTS)
def test_the_same_result_found_twice_is_equal_and_hashes_alike(name):
    first, again = results()[name], results()[name]
    assert first is not again
    assert first == again and not first != again
    assert hash(first) == hash(again)
    assert len({first, again}) == 1


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("name", RESULTS)
def test_results_pickle_to_equal_results(name, protocol):
    result = results()[name]
    copied = pickle.loads(pickle.dumps(result, protocol))
    assert copied == result and hash(copied) == hash(result)
    assert type(copied) is type(result)
    assert repr(copied) == repr(result)
    assert copy.deepcopy(result) == result


def test_a_pickled_mail_url_keeps_its_url_findings_and_message():
    mail = results()["MailUrl"]
    copied = pickle.loads(pickle.dumps(mail))
    fields = ("url", "form", "start", "end", "start_byte", "end_byte", "line", "column", "end_line",
              "end_column", "message", "message_id", "date", "subject", "part", "content_type")
    assert [getattr(copied, f) for f in fields] == [getattr(mail, f) for f in fields]
    assert copied.findings == mail.findings and mail.findings


def test_results_differing_in_any_field_are_unequal():
    text = "http://a.example/~x http://a.example/~x\nhttp://a.example/~x"
    first, same_line, next_line = urlint.extract(text)
    assert first.url == same_line.url == next_line.url
    assert first != same_line and first != next_line
    assert first.findings[0] != same_line.findings[0]
    assert urlint.ArchiveSlice(0, 5, 1, 0) != urlint.ArchiveSlice(0, 5, 1, 1)
    assert first != first.url and first.findings[0] != first.findings[0].message


def test_a_url_read_as_mail_is_not_equal_to_the_same_url_read_as_text():
    data = (FIXTURES / "mail" / "reply.eml").read_bytes()
    (as_text, *_) = urlint.extract(data, kind="eml")
    (as_mail, *_) = urlint.extract_mail(data)
    assert (as_text.url, as_text.start, as_text.findings) == (as_mail.url, as_mail.start, as_mail.findings)
    # Equal objects hash alike; a MailUrl has more to compare than a Url.
    assert as_text != as_mail and as_mail != as_text
