"""What the functions return: URLs, mail URLs, findings and fixes read as
their text, and say what they are in their repr."""

import io

import urlint

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
