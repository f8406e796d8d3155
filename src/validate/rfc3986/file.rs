//! file (RFC 8089 section 2):
//! `file-URI = "file:" ( "//" [ file-auth ] path-absolute / path-absolute )`,
//! where `file-auth = "localhost" / host`: no user information, no port,
//! no query.
//!
//! The variations of Appendix E that are valid URIs are accepted as the
//! appendix describes them: a DOS drive letter at the start of the path
//! (`file:c:/path`, E.2) and UNC paths after an empty authority
//! (`file:////host/share`, E.3). The `|` of a drive letter (`file:c|/`,
//! E.2.2) is not a URI character; it is reported with `:` as the fix.

use std::ops::Range;

use super::authority::Authority;
use super::chars::{self, Component, PATH};
use super::host;
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// The path: `pchar`s and `/`; a file URI has no query, so `?` is data.
const FILE_PATH: Component = Component {
    name: "file path",
    reference: "RFC 8089 section 2",
    ..PATH
};

const FILE_HELP: &str = "RFC 8089 section 2: a file URI is file:///path, file:/path or \
     file://host/path, where the host is 'localhost', empty or a host name, without user \
     name, password or port";
const DRIVE_HELP: &str = "RFC 8089 Appendix E.2.2: 'c|' is the historical spelling of the \
     drive letter 'c:'; '|' is not a URI character";

/// Check the part of a file URI after `file:`.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>) {
    let url = collector.url();
    let bytes = url.as_bytes();
    let path = if bytes[range.clone()].starts_with(b"//") {
        let authority = Authority::split(url, range.start + 2, range.end);
        check_authority(collector, &authority);
        let path = authority.end()..range.end;
        if path.is_empty() {
            let message = "a file URI needs a '/' and a path after the host";
            return collector.push(file_host(Span::new(path.end, path.end), message));
        }
        path
    } else if range.is_empty() {
        let message = "a file URI needs a path: file:///path or file:/path";
        return collector.push(file_host(Span::new(range.end, range.end), message));
    } else if bytes[range.start] != b'/' && drive_letter(bytes, range.start).is_none() {
        let message = "a file URI's path is absolute: file:///path or file:/path";
        collector.push(file_host(Span::new(range.start, range.start), message));
        range
    } else {
        range
    };
    check_path(collector, path);
}

/// The host is empty, `localhost` or a host; user information and port
/// have no meaning for files.
fn check_authority(collector: &mut Collector, authority: &Authority) {
    if let Some(userinfo) = &authority.userinfo {
        let span = Span::new(userinfo.start, userinfo.end + 1);
        collector.push(file_host(span, "a file URI names a host, not a user"));
    }
    host::check(collector, authority.host.clone(), false);
    if let Some(port) = &authority.port {
        let span = Span::new(authority.host.end, port.end);
        // Dropping the port drops what the author wrote: a suggestion.
        let no_port = file_host(span, "a file URI has no port");
        collector.push(no_port.with_fix("", Applicability::Suggestion));
    }
}

/// The path's characters, with the drive letter's `|` of Appendix E.2.2
/// reported once, with its fix.
fn check_path(collector: &mut Collector, path: Range<usize>) {
    let bytes = collector.url().as_bytes();
    let letter = match bytes.get(path.start) {
        Some(b'/') => drive_letter(bytes, path.start + 1),
        _ => drive_letter(bytes, path.start),
    };
    match letter.filter(|&letter| bytes[letter + 1] == b'|') {
        Some(letter) => {
            let bar = letter + 1;
            chars::check(collector, path.start..bar, &FILE_PATH);
            let message = "'|' after a drive letter is the old spelling of ':'";
            collector.push_char(
                Diagnostic::new(Rule::UnsafeChar, Span::new(bar, bar + 1), message)
                    .with_help(DRIVE_HELP)
                    // RFC 8089 Appendix E.2.2: the same drive, spelled anew.
                    .with_fix(":", Applicability::MachineApplicable),
            );
            chars::check(collector, bar + 1..path.end, &FILE_PATH);
        }
        None => chars::check(collector, path, &FILE_PATH),
    }
}

/// The position of a drive letter at `at`: a letter, then `:` or `|`, then
/// `/` or the end.
fn drive_letter(bytes: &[u8], at: usize) -> Option<usize> {
    let letter = bytes.get(at)?.is_ascii_alphabetic();
    let colon = matches!(bytes.get(at + 1), Some(b':' | b'|'));
    let after = matches!(bytes.get(at + 2), None | Some(b'/'));
    (letter && colon && after).then_some(at)
}

/// A `file-host` finding, with the section's help.
fn file_host(span: Span, message: &str) -> Diagnostic {
    Diagnostic::new(Rule::FileHost, span, message).with_help(FILE_HELP)
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_rfc3986_cases, Expect};

    /// RFC 8089 section 2 `file-URI`.
    #[test]
    fn rfc8089_2_file_uri() {
        let cases: &[(&str, Expect)] = &[
            ("file:///etc/motd", &[]),
            ("file:/etc/motd", &[]),
            ("file://localhost/etc/motd", &[]),
            ("file://h.example/~u/a;b,c", &[]),
            ("file://[2001:db8::1]/x", &[]),
            ("file:", &[(FileHost, "", None)]),
            ("file://h.example", &[(FileHost, "", None)]),
            ("file:etc/motd", &[(FileHost, "", None)]),
            ("file://u@h.example/x", &[(FileHost, "u@", None)]),
            ("file://h.example:21/x", &[(FileHost, ":21", Some(""))]),
            ("file://h x/x", &[(BadHost, " ", None)]),
            ("file:///a?b", &[(ReservedChar, "?", Some("%3F"))]),
            ("file:///a b", &[(UnsafeChar, " ", Some("%20"))]),
        ];
        assert_rfc3986_cases(cases);
    }

    /// RFC 8089 Appendix B's examples and Appendix E's variations.
    #[test]
    fn rfc8089_appendix_b_and_e_examples() {
        let cases: &[(&str, Expect)] = &[
            ("file:///path/to/file", &[]),
            ("file:/path/to/file", &[]),
            ("file://host.example.com/path/to/file", &[]),
            ("file:c:/path/to/file", &[]),
            ("file:///c:/path/to/file", &[]),
            ("file:/c:/path/to/file", &[]),
            ("file://host.example.com/Share/path/to/file.txt", &[]),
            ("file:////host.example.com/path/to/file", &[]),
            ("file://///host.example.com/path/to/file", &[]),
            ("file:///c|/path/to/file", &[(UnsafeChar, "|", Some(":"))]),
            ("file:/c|/path/to/file", &[(UnsafeChar, "|", Some(":"))]),
            ("file:c|/path/to/file", &[(UnsafeChar, "|", Some(":"))]),
            ("file:///a|b", &[(UnsafeChar, "|", Some("%7C"))]),
        ];
        assert_rfc3986_cases(cases);
    }
}
