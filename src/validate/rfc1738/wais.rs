//! WAIS (section 3.9): `/database`, `/database?search` or
//! `/database/wtype/wpath` after the host and port.

use std::ops::Range;

use super::chars::{self, ByteSet, Part};
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// `database`, `wtype` and `wpath` are `*uchar`: nothing reserved is allowed.
const fn uchar(name: &'static str) -> Part {
    Part {
        name,
        reserved: ByteSet::EMPTY,
        decoded_by: None,
    }
}

/// `search`, as in http: `*[uchar | ";" | ":" | "@" | "&" | "="]`.
const SEARCH: Part = Part {
    name: "wais search",
    reserved: ByteSet::of(b";:@&="),
    decoded_by: None,
};

const PATH_HELP: &str = "RFC 1738 section 3.9: a wais URL is wais://<host>:<port>/<database>, \
     .../<database>?<search> or .../<database>/<wtype>/<wpath>";

/// Check what follows a wais URL's host and port.
pub(crate) fn check_path(collector: &mut Collector, range: Range<usize>) {
    if range.is_empty() {
        let after_host = Span::new(range.start, range.start);
        return report(
            collector,
            after_host,
            "missing '/<database>' after the host",
        );
    }
    let bytes = collector.url().as_bytes();
    let path = range.start + 1..range.end;
    let mut slashes = memchr::memchr_iter(b'/', &bytes[path.clone()]).map(|at| path.start + at);
    let slashes = (slashes.next(), slashes.next(), slashes.next());
    let query = memchr::memchr(b'?', &bytes[path.clone()]).map(|at| path.start + at);
    match (query, slashes) {
        (Some(query), (first, ..)) if first.is_none_or(|slash| query < slash) => {
            chars::check(collector, path.start..query, &uchar("wais database"));
            chars::check(collector, query + 1..path.end, &SEARCH);
        }
        (_, (None, ..)) => chars::check(collector, path, &uchar("wais database")),
        (_, (Some(wtype), Some(wpath), None)) => {
            chars::check(collector, path.start..wtype, &uchar("wais database"));
            chars::check(collector, wtype + 1..wpath, &uchar("wais type"));
            chars::check(collector, wpath + 1..path.end, &uchar("wais document id"));
        }
        _ => report(
            collector,
            path.into(),
            "a wais path has one part (database), or three (database/wtype/wpath)",
        ),
    }
}

fn report(collector: &mut Collector, span: Span, message: &str) {
    collector.push(Diagnostic::new(Rule::WaisPath, span, message).with_help(PATH_HELP));
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.9 `waisurl`: `waisdatabase`, `waisindex` and `waisdoc`.
    #[test]
    fn rfc1738_3_9_wais() {
        let cases: &[(&str, Expect)] = &[
            ("wais://h.example/db", &[]),
            ("wais://h.example:210/db", &[]),
            ("wais://h.example/", &[]),
            ("wais://h.example/db?query+words;x:y@z&a=b", &[]),
            ("wais://h.example/db/TEXT/0x12%2F34", &[]),
            ("wais://h.example/db//", &[]),
            ("wais://h.example", &[(WaisPath, "", None)]),
            ("wais://0", &[(BadHost, "0", None), (WaisPath, "", None)]),
            ("wais://", &[(BadHost, "", None)]),
            ("wais://h.example/db/TEXT", &[(WaisPath, "db/TEXT", None)]),
            ("wais://h.example/a/b/c/d", &[(WaisPath, "a/b/c/d", None)]),
            (
                "wais://h.example/db?a/b",
                &[(ReservedChar, "/", Some("%2F"))],
            ),
            (
                "wais://h.example/db/t/p?x",
                &[(ReservedChar, "?", Some("%3F"))],
            ),
            ("wais://h.example/d;b", &[(ReservedChar, ";", Some("%3B"))]),
            ("wais://h.example/d~b", &[(UnsafeChar, "~", Some("%7E"))]),
            ("wais://u@h.example/db", &[(UserinfoNotAllowed, "u@", None)]),
            ("wais://h.example:21/db", &[(NondefaultPort, "21", None)]),
            ("wais:db", &[(MissingSlashes, "", None)]),
        ];
        assert_cases(cases);
    }
}
