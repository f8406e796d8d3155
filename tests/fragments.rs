//! RFC 1738 section 2.2: `#` delimits a URL from a fragment identifier that
//! may follow it. Wherever the URL appears (bare, after `URL:`, in angle
//! brackets, in a wrapper broken over lines, in a mail body), the first `#`
//! starts the fragment in both profiles, and only a second `#` is reported,
//! at its exact place in the source.

use urlint::mail::{self, MailKind};
use urlint::{lint, LintOptions, Linted, Profile, Rule};

/// The URL and the rule and source text of each finding, per URL.
fn findings(text: &str, profile: Profile) -> Vec<(String, Vec<(Rule, String)>)> {
    let options = LintOptions {
        profile,
        ..LintOptions::default()
    };
    lint(text, &options)
        .filter_map(Linted::into_url)
        .map(|report| {
            let findings = report
                .findings
                .iter()
                .map(|finding| {
                    let spelled: String = finding
                        .source_spans
                        .iter()
                        .map(|span| &text[span.range()])
                        .collect();
                    (finding.diagnostic.rule, spelled)
                })
                .collect();
            (report.found.url, findings)
        })
        .collect()
}

#[test]
fn a_fragment_is_part_of_the_url_in_every_form() {
    let text = "Bare http://h.example/page#intro, prefixed URL:http://h.example/a#b,\n\
                angle <http://h.example/c#d>, wrapped <URL:http://h.example/e#f>,\n\
                and broken <URL:http://h.example/long/\n    path#section-2>.\n";
    let expected = [
        "http://h.example/page#intro",
        "http://h.example/a#b",
        "http://h.example/c#d",
        "http://h.example/e#f",
        "http://h.example/long/path#section-2",
    ];
    for profile in Profile::ALL {
        let found = findings(text, profile);
        let urls: Vec<&str> = found.iter().map(|(url, _)| url.as_str()).collect();
        assert_eq!(urls, expected, "{profile}");
        for (url, findings) in &found {
            assert!(findings.is_empty(), "{profile}: {url}: {findings:?}");
        }
    }
}

#[test]
fn a_second_hash_is_reported_where_it_is() {
    let text = "See http://h.example/a#b#c and <URL:http://h.example/x#y\n  #z>.";
    let rfc1738 = findings(text, Profile::Rfc1738);
    assert_eq!(rfc1738[0].1, [(Rule::UnsafeChar, "#".to_string())]);
    assert_eq!(rfc1738[1].1, [(Rule::UnsafeChar, "#".to_string())]);
    let rfc3986 = findings(text, Profile::Rfc3986);
    assert_eq!(rfc3986[0].1, [(Rule::ReservedChar, "#".to_string())]);
    assert_eq!(rfc3986[1].1, [(Rule::ReservedChar, "#".to_string())]);
}

#[test]
fn a_fragment_in_a_mail_body_is_part_of_the_url() {
    let message = b"From: a@h.example\r\nSubject: notes\r\nContent-Type: text/plain\r\n\
                    Content-Transfer-Encoding: quoted-printable\r\n\r\n\
                    Read http://h.example/notes.html#part=\r\n-2 today.\r\n";
    let texts: Vec<String> = mail::read(&message[..], MailKind::Eml)
        .map(|message| message.expect("an in-memory message reads"))
        .flat_map(|message| message.texts.into_iter().map(|text| text.text))
        .collect();
    assert_eq!(texts.len(), 1);
    let found = findings(&texts[0], Profile::Rfc1738);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].0, "http://h.example/notes.html#part-2");
    assert_eq!(found[0].1, []);
}
