//! PROSPERO (section 3.11): `prospero://<host>:<port>/<hsoname>;<field>=<value>`.

use std::ops::Range;

use super::chars::{self, ByteSet, Part};
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// `ppath`: `psegment`s of `*[uchar | "?" | ":" | "@" | "&" | "="]` and `/`.
const HSONAME: Part = Part {
    name: "prospero hsoname",
    reserved: ByteSet::of(b"/?:@&="),
    decoded_by: None,
};

/// `fieldname` and `fieldvalue`: `*[uchar | "?" | ":" | "@" | "&"]`.
const fn field(name: &'static str) -> Part {
    Part {
        name,
        reserved: ByteSet::of(b"?:@&"),
        decoded_by: None,
    }
}

const FIELD_HELP: &str = "RFC 1738 section 3.11: a prospero URL is \
     prospero://<host>:<port>/<hsoname>, optionally followed by ';<field>=<value>' pairs";

/// Check what follows a prospero URL's host and port.
pub(crate) fn check_path(collector: &mut Collector, range: Range<usize>) {
    if range.is_empty() {
        let after_host = Span::new(range.start, range.start);
        return report(collector, after_host, "missing '/<hsoname>' after the host");
    }
    let bytes = collector.url().as_bytes();
    let path = range.start + 1..range.end;
    let mut fields = memchr::memchr_iter(b';', &bytes[path.clone()]).map(|at| path.start + at);
    let first = fields.next();
    chars::check(collector, path.start..first.unwrap_or(path.end), &HSONAME);
    let Some(first) = first else { return };
    let mut start = first;
    for next in fields.chain(std::iter::once(path.end)) {
        check_field(collector, start, next);
        start = next;
    }
}

/// The field spec from the `;` at `semicolon` to `end`.
fn check_field(collector: &mut Collector, semicolon: usize, end: usize) {
    let spec = semicolon + 1..end;
    let bytes = collector.url().as_bytes();
    let Some(equals) = memchr::memchr(b'=', &bytes[spec.clone()]).map(|at| spec.start + at) else {
        let (span, message) = if spec.is_empty() {
            (
                Span::new(semicolon, semicolon + 1),
                "empty field spec after ';'".to_string(),
            )
        } else {
            let text = &collector.url()[spec.clone()];
            (
                spec.clone().into(),
                format!("field spec '{text}' has no '=<value>'"),
            )
        };
        return report(collector, span, message);
    };
    chars::check(collector, spec.start..equals, &field("prospero field name"));
    chars::check(
        collector,
        equals + 1..spec.end,
        &field("prospero field value"),
    );
}

fn report(collector: &mut Collector, span: Span, message: impl Into<String>) {
    collector.push(Diagnostic::new(Rule::ProsperoField, span, message).with_help(FIELD_HELP));
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.11 `prosperourl`, `ppath` and `fieldspec`.
    #[test]
    fn rfc1738_3_11_prospero() {
        let cases: &[(&str, Expect)] = &[
            ("prospero://h.example//pros/name", &[]),
            ("prospero://h.example:1525/a/b", &[]),
            ("prospero://h.example/", &[]),
            ("prospero://h.example/a?b:c@d&e=f", &[]),
            ("prospero://h.example/obj;OBJECT-VERSION=2", &[]),
            ("prospero://h.example/obj;a=1;b=x?y:z@w&v", &[]),
            ("prospero://h.example/obj;=", &[]),
            ("prospero://h.example", &[(ProsperoField, "", None)]),
            (
                "prospero://h.example/obj;version",
                &[(ProsperoField, "version", None)],
            ),
            ("prospero://h.example/obj;", &[(ProsperoField, ";", None)]),
            (
                "prospero://h.example/obj;;a=1",
                &[(ProsperoField, ";", None)],
            ),
            (
                "prospero://h.example/obj;a=1=2",
                &[(ReservedChar, "=", Some("%3D"))],
            ),
            (
                "prospero://h.example/obj;a/b=1",
                &[(ReservedChar, "/", Some("%2F"))],
            ),
            (
                "prospero://h.example/o~bj",
                &[(UnsafeChar, "~", Some("%7E"))],
            ),
            (
                "prospero://u@h.example/x",
                &[(UserinfoNotAllowed, "u@", None)],
            ),
            ("prospero://h.example:80/x", &[(NondefaultPort, "80", None)]),
            ("prospero:x", &[(MissingSlashes, "", None)]),
        ];
        assert_cases(cases);
    }
}
