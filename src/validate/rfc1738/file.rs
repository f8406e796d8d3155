//! FILE (section 3.10): `file://<host>/<path>`, where the host may be empty
//! or `localhost` and nothing else of a login is allowed.

use std::ops::Range;

use super::chars::{self, ByteSet, Part};
use super::host::{self, HOST_HELP};
use super::login::{self, Login};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// `fpath` of a file URL: as for ftp, without a typecode or a protocol.
const FILE_PATH: Part = Part {
    name: "file path",
    reserved: ByteSet::of(b"/?:@&="),
    decoded_by: None,
};

const FILE_HELP: &str = "RFC 1738 section 3.10: a file URL is file://<host>/<path>, where \
     <host> is a domain name, 'localhost' or empty (file:///path), with no user name, \
     password or port";

/// Check the scheme-specific part of a file URL.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>) {
    let url = collector.url();
    if !url.as_bytes()[range.clone()].starts_with(b"//") {
        return report_missing_slashes(collector, range);
    }
    let login = login::split(url, range.start, range.end, false);
    check_login(collector, &login);
    if login.end() == range.end {
        let span = Span::new(range.end, range.end);
        return collector.push(file_host(
            span,
            "a file URL needs a '/' and a path after the host",
        ));
    }
    chars::check(collector, login.end() + 1..range.end, &FILE_PATH);
}

/// A file URL's login is a host, possibly empty, and nothing else.
fn check_login(collector: &mut Collector, login: &Login) {
    let url = collector.url();
    if let Some(userinfo) = &login.userinfo {
        let span = Span::new(userinfo.start, userinfo.end + 1);
        collector.push(file_host(span, "a file URL names a host, not a user"));
    }
    let host = login.host(url);
    if host.end < login.hostport.end {
        let span = Span::new(host.end, login.hostport.end);
        // Dropping the port drops what the author wrote: a suggestion.
        let no_port = file_host(span, "a file URL has no port");
        collector.push(no_port.with_fix("", Applicability::Suggestion));
    }
    if host.is_empty() {
        return;
    }
    if let Some(problem) = host::check(url, host) {
        let diagnostic = Diagnostic::new(Rule::BadHost, problem.span, problem.message);
        collector.push(diagnostic.with_help(HOST_HELP));
    }
}

/// `file:/path` and `file:path`: the `//` and the host are missing.
fn report_missing_slashes(collector: &mut Collector, range: Range<usize>) {
    let bytes = collector.url().as_bytes();
    let one_slash = bytes.get(range.start) == Some(&b'/');
    let message = "a file URL needs '//' before its (possibly empty) host";
    // file:/etc/motd can only mean the local file /etc/motd, so its fix is
    // applied unasked; file:etc/motd could be a host or a relative path.
    let diagnostic = match one_slash {
        true => file_host(Span::new(range.start, range.start + 1), message)
            .with_fix("///", Applicability::MachineApplicable),
        false => file_host(Span::new(range.start, range.start), message),
    };
    collector.push(diagnostic);
    let rest = range.start + usize::from(one_slash)..range.end;
    chars::check(collector, rest, &FILE_PATH);
}

/// A `file-host` finding, with the section's help.
fn file_host(span: Span, message: &str) -> Diagnostic {
    Diagnostic::new(Rule::FileHost, span, message).with_help(FILE_HELP)
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

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
            ("file:etc/motd", &[(FileHost, "", None)]),
            (
                "file:/a b",
                &[(FileHost, "/", Some("///")), (UnsafeChar, " ", Some("%20"))],
            ),
            ("file://h.example", &[(FileHost, "", None)]),
            ("file://", &[(FileHost, "", None)]),
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
