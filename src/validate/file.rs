//! FILE (section 3.10): `file://<host>/<path>`, where the host may be empty
//! or `localhost` and nothing else of a login is allowed.

use std::ops::Range;

use super::chars::{self, Part, Reserved};
use super::collector::Collector;
use super::host::{self, HOST_HELP};
use super::login;
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;

/// `fpath` of a file URL: as for ftp, without a typecode or a protocol.
const FILE_PATH: Part = Part {
    name: "file path",
    reserved: Reserved::of(b"/?:@&="),
    decoded_by: None,
};

const FILE_HELP: &str = "RFC 1738 section 3.10: a file URL is file://<host>/<path>, where \
     <host> is a domain name, 'localhost' or empty (file:///path), with no user name, \
     password or port";

/// Check the scheme-specific part of a file URL.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>) {
    let url = collector.url();
    let bytes = url.as_bytes();
    if !bytes[range.clone()].starts_with(b"//") {
        report_missing_slashes(collector, range);
        return;
    }
    let login = login::split(url, range.start, range.end, false);
    if let Some(userinfo) = &login.userinfo {
        let span = Span::new(userinfo.start, userinfo.end + 1);
        report(
            collector,
            span,
            "a file URL names a host, not a user".to_string(),
            None,
        );
    }
    let host = login.host(url);
    if host.end < login.hostport.end {
        let span = Span::new(host.end, login.hostport.end);
        report(
            collector,
            span,
            "a file URL has no port".to_string(),
            Some(""),
        );
    }
    if !host.is_empty() {
        if let Some(problem) = host::check(url, host.clone()) {
            collector.push(
                Diagnostic::new(Rule::BadHost, problem.span, problem.message).with_help(HOST_HELP),
            );
        }
    }
    if login.end() == range.end {
        let span = if host.is_empty() {
            Span::new(login.slashes, login.slashes + 2)
        } else {
            host.into()
        };
        report(
            collector,
            span,
            "a file URL needs a '/' and a path after the host".to_string(),
            None,
        );
        return;
    }
    chars::check(collector, login.end() + 1..range.end, &FILE_PATH);
}

/// `file:/path` and `file:path`: the `//` and the host are missing.
fn report_missing_slashes(collector: &mut Collector, range: Range<usize>) {
    let bytes = collector.url().as_bytes();
    let one_slash = bytes.get(range.start) == Some(&b'/');
    let message = "a file URL needs '//' before its (possibly empty) host".to_string();
    if one_slash {
        // file:/etc/motd can only mean the local file /etc/motd.
        report(
            collector,
            Span::new(range.start, range.start + 1),
            message,
            Some("///"),
        );
    } else {
        report(
            collector,
            Span::new(range.start - 1, range.start),
            message,
            None,
        );
    }
    let rest = range.start + usize::from(one_slash)..range.end;
    chars::check(collector, rest, &FILE_PATH);
}

fn report(collector: &mut Collector, span: Span, message: String, fix: Option<&str>) {
    let mut diagnostic = Diagnostic::new(Rule::FileHost, span, message).with_help(FILE_HELP);
    if let Some(fix) = fix {
        diagnostic = diagnostic.with_fix(fix);
    }
    collector.push(diagnostic);
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_cases, Expect};
    use crate::rules::Rule::*;

    /// Section 3.10 `fileurl`.
    #[test]
    fn rfc1738_3_10_file() {
        let cases: &[(&str, Expect)] = &[
            ("file://vms.host.edu/disk$user/my/notes/note12345.txt", &[]),
            ("file://localhost/etc/motd", &[]),
            ("file:///etc/motd", &[]),
            ("file:///", &[]),
            ("file://h.example/a?b:c@d&e=f", &[]),
            ("file:/etc/motd", &[(FileHost, "/", Some("///"))]),
            ("file:etc/motd", &[(FileHost, ":", None)]),
            (
                "file:/a b",
                &[(FileHost, "/", Some("///")), (UnsafeChar, " ", Some("%20"))],
            ),
            ("file://h.example", &[(FileHost, "h.example", None)]),
            ("file://", &[(FileHost, "//", None)]),
            ("file://u@h.example/x", &[(FileHost, "u@", None)]),
            ("file://h.example:21/x", &[(FileHost, ":21", Some(""))]),
            ("file://h..example/x", &[(BadHost, ".", None)]),
            ("file:///a;b", &[(ReservedChar, ";", Some("%3B"))]),
            ("file:///a%0D%0A", &[]),
            (
                "file:///~u/caf\u{e9}",
                &[
                    (UnsafeChar, "~", Some("%7E")),
                    (NonAscii, "\u{e9}", Some("%C3%A9")),
                ],
            ),
        ];
        assert_cases(cases);
    }
}
