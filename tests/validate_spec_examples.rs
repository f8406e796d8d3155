//! Every example URL of RFC 1738 is valid, and the URI draft's "Example 3"
//! URLs are rejected for exactly their bad escapes.
//!
//! The URLs are quoted from the documents, wrapped ones joined as RFC 1738's
//! Appendix says (whitespace at the line break removed).

use urlint::{validate, Rule, Severity, Span, ValidateOptions};

/// Every `<URL:...>` of RFC 1738: sections 1, 3.1, 3.2.2, 3.6, 3.10, 3.11,
/// the Appendix and the references.
const RFC1738_EXAMPLES: &[&str] = &[
    "http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",
    "ftp://@host.com/",
    "ftp://host.com/",
    "ftp://foo:@host.com/",
    "ftp://myname@host.dom/%2Fetc/motd",
    "ftp://myname@host.dom/etc/motd",
    "ftp://myname@host.dom//etc/motd",
    "news:*",
    "file://vms.host.edu/disk$user/my/notes/note12345.txt",
    "prospero://host.dom//pros/name",
    "ftp://info.cern.ch/pub/www/doc;type=d",
    "ftp://ds.internic.net/rfc",
    "http://ds.internic.net/instructions/overview.html#WARNING",
    "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
    "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
    "ftp://ds.internic.net/rfc/rfc1630.txt",
    "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
    "ftp://ds.internic.net/rfc/rfc1123.txt",
    "ftp://ds.internic.net/rfc/rfc822.txt",
    "ftp://quake.think.com/pub/wais/doc/protspec.txt",
    "ftp://ds.internic.net/rfc/rfc1036.txt",
    "ftp://quake.think.com/pub/wais/doc/doc-ids.txt",
    "ftp://ds.internic.net/rfc/rfc977.txt",
    "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
    "ftp://ds.internic.net/rfc/rfc1034.txt",
    "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
    "ftp://ds.internic.net/rfc/rfc959.txt",
    "ftp://ds.internic.net/rfc/rfc1737.txt",
    "ftp://ds.internic.net/rfc/rfc1625.txt",
    "ftp://uu.psi.com/wp/nir.txt",
];

#[test]
fn rfc1738_examples_have_no_errors() {
    for url in RFC1738_EXAMPLES {
        let errors: Vec<_> = validate(url, &ValidateOptions::default())
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{url}: {errors:?}");
    }
}

#[test]
fn rfc1738_examples_have_no_findings_at_all() {
    // None of them has a password, a port or an odd scheme either.
    for url in RFC1738_EXAMPLES {
        assert_eq!(validate(url, &ValidateOptions::default()), [], "{url}");
    }
}

#[test]
fn uri_draft_examples_1_and_2_are_valid() {
    for url in [
        "http://info.cern.ch/albert/bertram/marie-claude",
        "http://info.cern.ch/albert/bertram/marie%2Dclaude",
        "http://info.cern.ch/albert/bertram%2Fmarie-claude",
    ] {
        assert_eq!(validate(url, &ValidateOptions::default()), [], "{url}");
    }
}

#[test]
fn uri_draft_example_3_bad_escapes() {
    let cases = [
        ("fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred", 36),
        ("news:12345667123%asdghfh@info.cern.ch", 16),
    ];
    for (url, percent) in cases {
        assert_eq!(&url[percent..percent + 1], "%");
        let escapes: Vec<_> = validate(url, &ValidateOptions::default())
            .into_iter()
            .filter(|d| d.rule == Rule::BadEscape)
            .collect();
        assert_eq!(escapes.len(), 1, "{url}");
        assert_eq!(escapes[0].span, Span::new(percent, percent + 1), "{url}");
        assert_eq!(escapes[0].severity, Severity::Error);
    }
}
