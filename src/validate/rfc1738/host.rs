//! Hosts (section 3.1, `host` in section 5): a domain name of labels, or a
//! dotted IPv4 address, told apart by whether the top label starts with a digit.
//!
//! A host is judged as a whole and reports at most one problem: its
//! characters cannot be percent-encoded, so a bad character in a host is a
//! bad host, not a character to encode.

use std::ops::Range;

use crate::span::Span;
use crate::validate::idna;
use crate::validate::text::{char_span, describe_char};

/// What is wrong with a host and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HostProblem {
    /// The offending characters.
    pub span: Span,
    /// What is wrong, naming the part.
    pub message: String,
}

impl HostProblem {
    fn new(span: Span, message: String) -> Self {
        HostProblem { span, message }
    }
}

/// Help text naming the host rules' sources.
pub(crate) const HOST_HELP: &str = "RFC 1738 section 3.1: a host is a fully qualified \
     domain name (labels of letters, digits and inner '-', separated by '.', the last not \
     starting with a digit) or an IPv4 address of four decimal numbers 0-255";

/// The longest label RFC 1034 section 3.1 allows.
const MAX_LABEL: usize = 63;

/// The first problem of the host `url[range]`, if any; callers that allow
/// an empty host (file URLs) check for it first.
pub(crate) fn check(url: &str, range: Range<usize>) -> Option<HostProblem> {
    let bytes = url.as_bytes();
    if bytes.get(range.clone()).is_some_and(is_plain_domain) {
        return None;
    }
    if range.is_empty() {
        return Some(HostProblem::new(range.into(), "missing host".to_string()));
    }
    if bytes[range.start] == b'[' {
        let message = "bracketed IP literals (IPv6) are not part of RFC 1738's host syntax; \
                       they came with RFC 2732 and RFC 3986, which the rfc3986 profile checks";
        return Some(HostProblem::new(range.into(), message.to_string()));
    }
    if let Some(bad) = (range.start..range.end)
        .find(|&at| !(bytes[at].is_ascii_alphanumeric() || matches!(bytes[at], b'-' | b'.')))
    {
        let mut message = format!(
            "character {} is not allowed in a host name",
            describe_char(url, bad)
        );
        if let Some(ascii) = idna::ascii_form(&url[range.clone()]) {
            // An internationalised name has an ASCII form a resolver looks
            // up, and that RFC 1738's host syntax takes.
            message.push_str(&format!("; the name's ASCII form is {ascii}"));
        }
        return Some(HostProblem::new(char_span(url, bad), message));
    }
    if labels(bytes, range.clone()).any(|label| label.is_empty()) {
        return Some(empty_label(bytes, range));
    }
    let top_start =
        memchr::memrchr(b'.', &bytes[range.clone()]).map_or(range.start, |at| range.start + at + 1);
    if bytes[top_start].is_ascii_digit() {
        return check_ipv4(url, top_start..range.end, range);
    }
    labels(bytes, range).find_map(|label| check_label(url, label))
}

/// True for a host that is certainly a valid domain name, decided in one
/// pass: nearly every host is one, and the checks below, which find and word
/// a problem, take several passes and a label iterator each.
fn is_plain_domain(host: &[u8]) -> bool {
    let mut label_start = 0;
    for (at, &byte) in host.iter().enumerate() {
        if byte == b'.' {
            if !is_plain_label(&host[label_start..at]) {
                return false;
            }
            label_start = at + 1;
        } else if !(byte.is_ascii_alphanumeric() || byte == b'-') {
            return false;
        }
    }
    let top = &host[label_start..];
    is_plain_label(top) && !top[0].is_ascii_digit()
}

/// A non-empty label of at most [`MAX_LABEL`] bytes that neither starts nor
/// ends with '-' (its bytes are checked by the caller).
fn is_plain_label(label: &[u8]) -> bool {
    match (label.first(), label.last()) {
        (Some(&first), Some(&last)) => first != b'-' && last != b'-' && label.len() <= MAX_LABEL,
        _ => false,
    }
}

/// The byte ranges of the dot-separated labels of `bytes[range]`.
fn labels(bytes: &[u8], range: Range<usize>) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = range.start;
    bytes[range].split(|&byte| byte == b'.').map(move |label| {
        let label = start..start + label.len();
        start = label.end + 1;
        label
    })
}

/// The dot that creates the first empty label.
fn empty_label(bytes: &[u8], range: Range<usize>) -> HostProblem {
    let host = &bytes[range.clone()];
    let offset = if host.first() == Some(&b'.') {
        0
    } else {
        host.windows(2)
            .position(|pair| pair == b"..")
            .map_or(host.len().saturating_sub(1), |at| at + 1)
    };
    let at = range.start + offset;
    let message = if offset + 1 == host.len() {
        "a host name does not end with '.'".to_string()
    } else {
        "empty label in host name".to_string()
    };
    HostProblem::new(Span::new(at, at + 1), message)
}

/// A label's hyphens and length (its characters are already known to be
/// alphanumerics and '-').
fn check_label(url: &str, label: Range<usize>) -> Option<HostProblem> {
    let bytes = url.as_bytes();
    let text = &url[label.clone()];
    if bytes[label.start] == b'-' {
        let message = format!("host label '{text}' starts with '-'");
        return Some(HostProblem::new(
            Span::new(label.start, label.start + 1),
            message,
        ));
    }
    if bytes[label.end - 1] == b'-' {
        let message = format!("host label '{text}' ends with '-'");
        return Some(HostProblem::new(
            Span::new(label.end - 1, label.end),
            message,
        ));
    }
    if label.len() > MAX_LABEL {
        let message = format!(
            "host label is {} characters long; the limit is {MAX_LABEL}",
            label.len()
        );
        return Some(HostProblem::new(label.into(), message));
    }
    None
}

/// A host whose top label starts with a digit must be a dotted IPv4 address.
fn check_ipv4(url: &str, top: Range<usize>, host: Range<usize>) -> Option<HostProblem> {
    let bytes = url.as_bytes();
    let numeric = |label: &Range<usize>| bytes[label.clone()].iter().all(u8::is_ascii_digit);
    if !numeric(&top) {
        let message = format!(
            "top label '{}' starts with a digit but the host is not an IPv4 address",
            &url[top.clone()]
        );
        return Some(HostProblem::new(top.into(), message));
    }
    let count = labels(bytes, host.clone()).count();
    if let Some(label) = labels(bytes, host.clone()).find(|label| !numeric(label)) {
        // Four parts read as a mistyped address; otherwise as a domain name
        // whose top label wrongly starts with a digit.
        let (span, message) = match count {
            4 => (
                label.clone(),
                format!(
                    "'{}' is not a decimal number in an IPv4 address",
                    &url[label]
                ),
            ),
            _ => (
                top.clone(),
                format!(
                    "top label '{}' starts with a digit but the host is not an IPv4 address",
                    &url[top]
                ),
            ),
        };
        return Some(HostProblem::new(span.into(), message));
    }
    if count != 4 {
        let message = format!("IPv4 address has {count} numbers instead of four");
        return Some(HostProblem::new(host.into(), message));
    }
    labels(bytes, host).find_map(|label| {
        let text = &url[label.clone()];
        // Leading zeros are digits like any other; only the value is bounded.
        let too_big = text.len() > 9 || text.parse::<u32>().map_or(true, |n| n > 255);
        too_big.then(|| {
            let message = format!("IPv4 number {text} is greater than 255");
            HostProblem::new(label.into(), message)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Section 3.1 `host`: each case names the spanned text of the problem.
    #[test]
    fn rfc1738_3_1_hosts() {
        let cases: &[(&str, Option<&str>)] = &[
            ("host.example", None),
            ("a", None),
            ("a-b.c-d.example", None),
            ("123.example", None),
            ("HOST.Example.COM", None),
            ("10.0.0.255", None),
            ("0.0.0.0", None),
            ("host_1.example", Some("_")),
            ("h\u{e9}.example", Some("\u{e9}")),
            ("host..example", Some(".")),
            (".example", Some(".")),
            ("host.example.", Some(".")),
            ("-a.example", Some("-")),
            ("a-.example", Some("-")),
            ("a.-b", Some("-")),
            ("host.4example", Some("4example")),
            ("1.2.3", Some("1.2.3")),
            ("1.2.3.4.5", Some("1.2.3.4.5")),
            ("1.2.3.256", Some("256")),
            ("1.2.3.0255", None),
            ("1.2.3.99999999999", Some("99999999999")),
            ("1.x.3.4", Some("x")),
            ("a.b.c.d.1", Some("1")),
            ("host.example.42", Some("42")),
            ("ab%41.example", Some("%")),
            ("[::1]", Some("[::1]")),
        ];
        for (host, expected) in cases {
            let problem = check(host, 0..host.len());
            let spanned = problem.map(|problem| &host[problem.span.range()]);
            assert_eq!(spanned, *expected, "{host}");
        }
    }

    /// The one-pass check accepts only hosts the full checks accept, and
    /// takes the common ones.
    #[test]
    fn rfc1738_3_1_plain_domains_take_the_one_pass_check() {
        let cases: &[(&str, bool)] = &[
            ("host.example", true),
            ("a", true),
            ("a-b.c-d.example", true),
            ("123.example", true),
            ("HOST.Example.COM", true),
            // Valid, but left to the full checks.
            ("10.0.0.255", false),
            // Invalid: the full checks word the problem.
            ("", false),
            ("host_1.example", false),
            ("h\u{e9}.example", false),
            ("host..example", false),
            (".example", false),
            ("host.example.", false),
            ("-a.example", false),
            ("a-.example", false),
            ("a.-b", false),
            ("host.4example", false),
            ("a.b.c.d.1", false),
            ("[::1]", false),
        ];
        for &(host, plain) in cases {
            assert_eq!(is_plain_domain(host.as_bytes()), plain, "{host}");
            if plain {
                assert_eq!(check(host, 0..host.len()), None, "{host}");
            }
        }
        let long = format!("{}.example", "a".repeat(MAX_LABEL + 1));
        assert!(!is_plain_domain(long.as_bytes()));
    }

    #[test]
    fn rfc1034_label_length_limit() {
        let long = format!("{}.example", "a".repeat(64));
        let problem = check(&long, 0..long.len()).map(|p| p.span);
        assert_eq!(problem, Some(Span::new(0, 64)));
        let ok = format!("{}.example", "a".repeat(63));
        assert_eq!(check(&ok, 0..ok.len()), None);
    }
}
