//! HTTP (section 3.3): `http://<host>:<port>/<path>?<searchpart>`, also used
//! for `https` (see [`super::scheme`]).

use std::ops::Range;

use super::chars::{self, ByteSet, Part};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// `hpath`: segments separated by `/`, each `*[uchar | ";" | ":" | "@" | "&" | "="]`.
const HPATH: Part = Part {
    name: "http path",
    reserved: ByteSet::of(b"/;:@&="),
    decoded_by: Some("HTTP"),
};

/// `search`: `*[uchar | ";" | ":" | "@" | "&" | "="]`; `/` and `?` have no role.
const SEARCH: Part = Part {
    name: "http search part",
    reserved: ByteSet::of(b";:@&="),
    decoded_by: Some("HTTP"),
};

const SEARCH_HELP: &str = "RFC 1738 section 3.3: an http URL is \
     http://<host>:<port>/<path>?<searchpart>; the '/' before the path comes first";

/// Check what follows the host and port: nothing, `/hpath[?search]`, or a
/// `?search` missing its `/`.
pub(crate) fn check_path(collector: &mut Collector, range: Range<usize>) {
    let bytes = collector.url().as_bytes();
    match bytes.get(range.start) {
        Some(b'/') => {
            let path = range.start + 1..range.end;
            let query = memchr::memchr(b'?', &bytes[path.clone()]).map(|at| path.start + at);
            chars::check(collector, path.start..query.unwrap_or(path.end), &HPATH);
            if let Some(query) = query {
                chars::check(collector, query + 1..range.end, &SEARCH);
            }
        }
        Some(b'?') => {
            let message = "the search part must follow a '/' after the host";
            let span = Span::new(range.start, range.start + 1);
            collector.push(
                Diagnostic::new(Rule::ReservedChar, span, message)
                    .with_help(SEARCH_HELP)
                    // An empty http path is "/" (RFC 9110 section 4.2.3).
                    .with_fix("/?", Applicability::MachineApplicable),
            );
            chars::check(collector, range.start + 1..range.end, &SEARCH);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.3 `httpurl`, `hpath`, `hsegment` and `search`.
    #[test]
    fn rfc1738_3_3_http() {
        let cases: &[(&str, Expect)] = &[
            ("http://h.example", &[]),
            ("http://h.example/", &[]),
            ("http://h.example:80/", &[]),
            ("http://h.example:8080/a/b/c.html", &[]),
            ("http://10.1.2.3/", &[]),
            ("http://h.example/a;b:c@d&e=f/", &[]),
            ("http://h.example//a//", &[]),
            ("http://h.example/cgi?a=1&b=2;c:d@e", &[]),
            ("http://h.example/?", &[]),
            ("http://h.example/a%2Fb?q%3F", &[]),
            ("http://h.example/~u/", &[(UnsafeChar, "~", Some("%7E"))]),
            (
                "http://h.example/a?b/c",
                &[(ReservedChar, "/", Some("%2F"))],
            ),
            (
                "http://h.example/a?b?c",
                &[(ReservedChar, "?", Some("%3F"))],
            ),
            ("http://h.example?q=1", &[(ReservedChar, "?", Some("/?"))]),
            (
                "http://h.example:8080?q/",
                &[
                    (ReservedChar, "?", Some("/?")),
                    (ReservedChar, "/", Some("%2F")),
                ],
            ),
            (
                "http://user@h.example/",
                &[(UserinfoNotAllowed, "user@", None)],
            ),
            (
                "http://u:pw@h.example/",
                &[(UserinfoNotAllowed, "u:pw@", None)],
            ),
            ("http://u~@h.example/", &[(UserinfoNotAllowed, "u~@", None)]),
            ("http://h.example:25/", &[(NondefaultPort, "25", None)]),
            ("http://h.example:8o/", &[(BadPort, "8o", None)]),
            (
                "http://h_x.example/a b",
                &[(BadHost, "_", None), (UnsafeChar, " ", Some("%20"))],
            ),
            (
                "http://h.example/a%0D%0Ab",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
            ("http://h.example/?a%0a", &[(EncodedNewline, "%0a", None)]),
            ("http://h.example/a%zzb", &[(BadEscape, "%", None)]),
            ("https://h.example:443/x?y", &[]),
            ("https://h.example:80/", &[(NondefaultPort, "80", None)]),
            ("https://u@h.example/", &[(UserinfoNotAllowed, "u@", None)]),
        ];
        assert_cases(cases);
    }
}
