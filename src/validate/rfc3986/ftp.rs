//! ftp: RFC 1738 section 3.2's structure (`ftp://<login>/<cwd>/.../<name>`
//! with an optional `;type=<typecode>`) written with RFC 3986's characters.
//! FTP has no query: a `?` is path data and must be encoded.

use std::ops::Range;

use super::authority::{self, Authority, AuthorityRules, UserinfoUse};
use super::chars::{self, Component, SUB_DELIMS};
use super::http::report_missing_slashes;
use crate::validate::collector::Collector;
use crate::validate::rfc1738::ftp::{check_typecode, split_typecode};

/// A path of `/`-separated names; `;` is reserved for the typecode
/// (RFC 1738 section 3.2.2), the rest are `pchar`s.
const FTP_PATH: Component = Component {
    name: "ftp path",
    delimiters: SUB_DELIMS.without(b";").with(b":@/"),
    reference: "RFC 1738 section 3.2.2",
    decoded_by: Some("FTP"),
    iri_private: false,
};

/// Check the part of an ftp URL after its scheme.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>) {
    let url = collector.url();
    if !url.as_bytes()[range.clone()].starts_with(b"//") {
        report_missing_slashes(collector, "ftp", range.start);
        return chars::check(collector, range, &FTP_PATH);
    }
    let authority = Authority::split(url, range.start + 2, range.end);
    let rules = AuthorityRules {
        scheme: "ftp",
        host_required: Some("an ftp URL names the server to connect to (RFC 1738 section 3.2)"),
        userinfo: UserinfoUse::Allowed,
        decoded_by: Some("FTP"),
        default_port: Some(21),
    };
    authority::check(collector, &authority, &rules);
    let path = authority.end()..range.end;
    if collector.url().as_bytes().get(path.start) != Some(&b'/') {
        // Nothing, or a '?' that the path check reports.
        return chars::check(collector, path, &FTP_PATH);
    }
    let (names, typecode) = split_typecode(collector.url(), path.start + 1..path.end);
    chars::check(collector, names, &FTP_PATH);
    if let Some(code) = typecode {
        check_typecode(collector, code);
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_rfc3986_cases, Expect};

    /// RFC 1738 sections 3.2 and 3.2.2 with RFC 3986 characters.
    #[test]
    fn rfc1738_3_2_ftp_with_rfc3986_characters() {
        let cases: &[(&str, Expect)] = &[
            ("ftp://ftp.is.co.za/rfc/rfc1808.txt", &[]),
            ("ftp://h.example", &[]),
            ("ftp://u:@h.example/~u/a,b!/", &[]),
            ("ftp://[2001:db8::1]/pub/", &[]),
            ("ftp://h.example/dir;type=d", &[]),
            ("ftp://h.example/f;type=x", &[(FtpTypecode, "x", None)]),
            ("ftp://h.example/a;b", &[(ReservedChar, ";", Some("%3B"))]),
            ("ftp://h.example/a?b", &[(ReservedChar, "?", Some("%3F"))]),
            ("ftp://h.example?b", &[(ReservedChar, "?", Some("%3F"))]),
            ("ftp://u:pw@h.example/", &[(PasswordInUrl, "pw", None)]),
            ("ftp://h.example:2121/", &[]),
            ("ftp://h.example:22/", &[(NondefaultPort, "22", None)]),
            ("ftp://h.example:70000/", &[(BadPort, "70000", None)]),
            ("ftp:///pub", &[(BadHost, "", None)]),
            ("ftp:h.example/f", &[(MissingSlashes, "", None)]),
            (
                "ftp://h.example/a%0D%0ADELE",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
        ];
        assert_rfc3986_cases(cases);
    }
}
