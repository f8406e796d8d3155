//! `host = IP-literal / IPv4address / reg-name` (RFC 3986 section 3.2.2).
//!
//! An IP literal is judged as a whole and reports one `bad-host`; a
//! registered name may be percent-encoded, so its non-ASCII characters get
//! the UTF-8 encoding as a fix, and a character that no encoding makes a
//! name of (a space, a bracket) is one `bad-host`.

use std::ops::Range;

use super::chars::{self, is_sub_delim, is_unreserved, ByteSet, Met, SUB_DELIMS};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;
use crate::validate::idna;
use crate::validate::text::{char_span, describe_char};

/// Help text naming the host grammar.
pub(crate) const HOST_HELP: &str = "RFC 3986 section 3.2.2: a host is an IP literal in \
     brackets ([IPv6address] or [vX.future]), an IPv4 address of four decimal numbers \
     0-255, or a registered name of unreserved characters, sub-delims and percent-encodings";

/// Check the host `url[range]`; an empty host is a valid (empty) `reg-name`,
/// so callers that need a host check for one first. With `dns_names`, a
/// registered name must also be a DNS host name (RFC 3986 section 3.2.2
/// for names looked up in the DNS: RFC 1034 section 3.5, RFC 1123 section
/// 2.1).
pub(crate) fn check(collector: &mut Collector, range: Range<usize>, dns_names: bool) {
    let url = collector.url();
    let problem = if url.as_bytes().get(range.start) == Some(&b'[') {
        check_ip_literal(url, range)
    } else if check_reg_name(collector, range.clone()) && dns_names {
        check_dns_name(url, range)
    } else {
        Ok(())
    };
    if let Err((span, message)) = problem {
        push_bad_host(collector, span, message);
    }
}

/// Report a host that no encoding repairs.
pub(crate) fn push_bad_host(collector: &mut Collector, span: Span, message: String) {
    collector.push(Diagnostic::new(Rule::BadHost, span, message).with_help(HOST_HELP));
}

/// `reg-name = *( unreserved / pct-encoded / sub-delims )`; an IPv4
/// address matches it too. False when a character made it a bad host.
fn check_reg_name(collector: &mut Collector, range: Range<usize>) -> bool {
    let url = collector.url();
    let ascii_form = idna::ascii_form(&url[range.clone()])
        .map(|ascii| format!("; a DNS name is best written in its ASCII form, {ascii}"))
        .unwrap_or_default();
    let mut good = true;
    chars::walk(url, range, SUB_DELIMS, |met| match met {
        // Nothing past a character that is no host's is worth a word.
        _ if !good => {}
        Met::Escape(_) => {}
        Met::BadEscape(at) => chars::report_bad_escape(collector, at),
        // Valid URI syntax, but a DNS name is looked up in its IDNA form
        // (RFC 3986 section 3.2.2), which most tools expect to see
        // written: the percent-encoding is only a suggestion.
        Met::NonAscii(at) => chars::report_non_ascii_with(
            collector,
            at,
            false,
            Applicability::Suggestion,
            &ascii_form,
        ),
        Met::Delimiter(at) | Met::Excluded(at) | Met::Control(at) => {
            let message = format!(
                "character {} is not allowed in a host name",
                describe_char(url, at)
            );
            push_bad_host(collector, char_span(url, at), message);
            good = false;
        }
    });
    good
}

/// The longest label RFC 1034 section 3.1 allows.
const MAX_LABEL: usize = 63;

/// A registered name as a DNS host name: labels of letters, digits and
/// inner hyphens (or internationalized, percent-encoded or not), a final
/// '.' allowed, and a top label that is not all digits, so that a mistyped
/// IPv4 address is not taken for a name.
fn check_dns_name(url: &str, range: Range<usize>) -> Result<(), (Span, String)> {
    let host = &url[range.clone()];
    if host.is_empty() || is_ipv4(host) {
        return Ok(());
    }
    let name_end = range.end - usize::from(host.len() > 1 && host.ends_with('.'));
    let mut labels = Vec::new();
    let mut start = range.start;
    for label in url[range.start..name_end].split('.') {
        labels.push(start..start + label.len());
        start += label.len() + 1;
    }
    for label in &labels {
        check_label(url, label.clone())?;
    }
    let numeric = |label: &Range<usize>| url[label.clone()].bytes().all(|b| b.is_ascii_digit());
    let top = labels.last().cloned().unwrap_or(range.clone());
    if !numeric(&top) {
        return Ok(());
    }
    if labels.iter().all(numeric) {
        return Err((range.into(), not_an_ipv4_address(url, &labels)));
    }
    let message = format!(
        "top label '{}' is all digits, which a host name's never is",
        &url[top.clone()]
    );
    Err((top.into(), message))
}

/// One label: not empty, letters, digits and inner hyphens, at most
/// [`MAX_LABEL`] octets; a label with non-ASCII or percent-encoded octets
/// is an internationalized one and only needs to be there.
fn check_label(url: &str, label: Range<usize>) -> Result<(), (Span, String)> {
    let text = &url[label.clone()];
    if text.is_empty() {
        // Point at the dot that makes the empty label.
        let dot = if label.start < url.len() && url.as_bytes()[label.start] == b'.' {
            label.start
        } else {
            label.start - 1
        };
        let span = Span::new(dot, dot + 1);
        return Err((span, "empty label in host name".to_string()));
    }
    if text.bytes().any(|b| b == b'%' || b >= 0x80) {
        return Ok(());
    }
    if let Some(bad) = text
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'-'))
    {
        let at = label.start + bad;
        let message = format!(
            "character {} is not allowed in a DNS host name",
            describe_char(url, at)
        );
        return Err((char_span(url, at), message));
    }
    if text.starts_with('-') || text.ends_with('-') {
        let at = if text.starts_with('-') {
            label.start
        } else {
            label.end - 1
        };
        let message = format!("host label '{text}' starts or ends with '-'");
        return Err((Span::new(at, at + 1), message));
    }
    if text.len() > MAX_LABEL {
        let message = format!(
            "host label is {} characters long; the limit is {MAX_LABEL}",
            text.len()
        );
        return Err((label.into(), message));
    }
    Ok(())
}

/// Why dotted numbers are not an IPv4 address.
fn not_an_ipv4_address(url: &str, labels: &[Range<usize>]) -> String {
    let host = &url[labels[0].start..labels[labels.len() - 1].end];
    let reason = if labels.len() != 4 {
        format!("it has {} numbers instead of four", labels.len())
    } else if let Some(label) = labels
        .iter()
        .find(|l| url[(*l).clone()].starts_with('0') && l.len() > 1)
    {
        format!(
            "'{}' has a leading zero, which some readers take for octal",
            &url[label.clone()]
        )
    } else {
        "each number is at most 255".to_string()
    };
    format!("'{host}' is not an IPv4 address: {reason}")
}

/// `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`, given the host from
/// its `[` to the port's `:` or the authority's end.
fn check_ip_literal(url: &str, range: Range<usize>) -> Result<(), (Span, String)> {
    let host = &url[range.clone()];
    let Some(close) = host.find(']') else {
        let message = "'[' opens an IP literal that no ']' closes".to_string();
        return Err((range.into(), message));
    };
    if close + 1 < host.len() {
        let span = Span::new(range.start + close + 1, range.end);
        let message = "only ':' and a port may follow an IP literal's ']'".to_string();
        return Err((span, message));
    }
    let inner = &host[1..close];
    let problem = match inner.as_bytes().first() {
        Some(b'v' | b'V') => check_ipv_future(inner),
        _ => check_ipv6(inner),
    };
    problem.map_err(|reason| {
        let message = format!("'{host}' is not a valid IP literal: {reason}");
        (range.into(), message)
    })
}

/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
fn check_ipv_future(text: &str) -> Result<(), String> {
    let rest = &text[1..];
    let Some(dot) = rest.find('.') else {
        return Err(
            "an IPvFuture literal is 'v', a hexadecimal version, '.' and the address".into(),
        );
    };
    let (version, address) = (&rest[..dot], &rest[dot + 1..]);
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "'{version}' is not a hexadecimal IPvFuture version"
        ));
    }
    let allowed = ByteSet::of(b":");
    match address
        .bytes()
        .find(|&b| !(is_unreserved(b) || is_sub_delim(b) || allowed.contains(b)))
    {
        _ if address.is_empty() => Err("the IPvFuture address after '.' is empty".into()),
        Some(bad) => Err(format!(
            "'{}' is not allowed in an IPvFuture address",
            char::from(bad).escape_default()
        )),
        None => Ok(()),
    }
}

/// One of the nine `IPv6address` forms: eight 16-bit groups, or fewer
/// around one `::`, the last 32 bits possibly written as an IPv4 address.
pub(crate) fn check_ipv6(text: &str) -> Result<(), String> {
    if text.contains('%') {
        return Err("zone identifiers (RFC 6874) are not part of RFC 3986".into());
    }
    let (head, tail) = match text.find("::") {
        Some(at) => (&text[..at], Some(&text[at + 2..])),
        None => (text, None),
    };
    if tail.is_some_and(|tail| tail.contains("::")) {
        return Err("'::' may stand for zero groups only once".into());
    }
    let head_groups = count_groups(head, tail.is_none())?;
    let tail_groups = match tail {
        Some(tail) => count_groups(tail, true)?,
        None => 0,
    };
    match tail {
        None if head_groups != 8 => Err(format!(
            "{head_groups} groups of 16 bits where eight are needed without '::'"
        )),
        Some(_) if head_groups + tail_groups > 7 => Err(format!(
            "{} groups of 16 bits besides '::', which stands for at least one; at most seven fit",
            head_groups + tail_groups
        )),
        _ => Ok(()),
    }
}

/// The number of 16-bit groups in `text`, ':'-separated `h16`s; an IPv4
/// address counts two and may only come last, when `may_end` says that
/// this part ends the address.
fn count_groups(text: &str, may_end: bool) -> Result<usize, String> {
    if text.is_empty() {
        return Ok(0);
    }
    let pieces: Vec<&str> = text.split(':').collect();
    let mut groups = 0;
    for (index, piece) in pieces.iter().enumerate() {
        let last = index + 1 == pieces.len();
        if piece.is_empty() {
            return Err(
                "a single ':' cannot start or end the address, or stand for a group".into(),
            );
        }
        if piece.contains('.') {
            if !(last && may_end) {
                return Err(format!(
                    "the IPv4 address '{piece}' may only end the address"
                ));
            }
            if !is_ipv4(piece) {
                return Err(format!("'{piece}' is not a dotted IPv4 address"));
            }
            groups += 2;
        } else if piece.len() > 4 || !piece.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!(
                "'{piece}' is not a group of one to four hexadecimal digits"
            ));
        } else {
            groups += 1;
        }
    }
    Ok(groups)
}

/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`,
/// where a `dec-octet` is 0-255 without leading zeros.
pub(crate) fn is_ipv4(text: &str) -> bool {
    let octets: Vec<&str> = text.split('.').collect();
    octets.len() == 4 && octets.iter().all(|octet| is_dec_octet(octet))
}

fn is_dec_octet(text: &str) -> bool {
    let digits = text.bytes().all(|b| b.is_ascii_digit());
    let no_leading_zero = text.len() == 1 || !text.starts_with('0');
    digits
        && no_leading_zero
        && (1..=3).contains(&text.len())
        && text.parse::<u16>().is_ok_and(|n| n <= 255)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Section 3.2.2 `IPv6address`: each of the nine forms, valid, and
    /// each way out of them, invalid.
    #[test]
    fn rfc3986_3_2_2_ipv6address() {
        let valid = [
            // 6( h16 ":" ) ls32, both ls32 forms
            "1:2:3:4:5:6:7:8",
            "2001:db8:0:0:0:0:2:1",
            "1:2:3:4:5:6:192.0.2.1",
            // "::" 5( h16 ":" ) ls32
            "::2:3:4:5:6:7:8",
            "::2:3:4:5:6:192.0.2.1",
            // [ h16 ] "::" 4( h16 ":" ) ls32
            "1::3:4:5:6:7:8",
            "::3:4:5:6:7:8",
            // [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
            "1:2::4:5:6:7:8",
            // [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
            "1:2:3::5:6:7:8",
            // [ *3( h16 ":" ) h16 ] "::" h16 ":" ls32
            "1:2:3:4::6:7:8",
            "1:2:3:4::6:192.0.2.1",
            // [ *4( h16 ":" ) h16 ] "::" ls32
            "1:2:3:4:5::7:8",
            "::ffff:192.0.2.1",
            "::192.0.2.1",
            // [ *5( h16 ":" ) h16 ] "::" h16
            "1:2:3:4:5:6::8",
            "::1",
            // [ *6( h16 ":" ) h16 ] "::"
            "1:2:3:4:5:6:7::",
            "1::",
            "::",
            "2001:DB8::7",
            "ABCD:ef01:2345:6789:abcd:EF01:2345:6789",
            "0:0:0:0:0:0:0:0",
        ];
        for text in valid {
            assert_eq!(check_ipv6(text), Ok(()), "{text}");
        }
        let invalid = [
            "",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7::8",
            "1::2::3",
            ":::",
            "1:::2",
            ":1::",
            "::1:",
            "1:2:3:4:5:6:7:",
            ":2:3:4:5:6:7:8",
            "12345::",
            "g::",
            "::1.2.3",
            "::1.2.3.256",
            "::1.2.3.04",
            "1.2.3.4::",
            "1:2:3:4:5:6:7:1.2.3.4",
            "1:2:3:4:5:6::1.2.3.4",
            "fe80::1%25eth0",
            " ::1",
        ];
        for text in invalid {
            assert!(check_ipv6(text).is_err(), "{text}");
        }
    }

    /// Section 3.2.2: registered names looked up in the DNS (RFC 1123
    /// section 2.1); each case names the spanned text of the problem.
    #[test]
    fn rfc3986_3_2_2_dns_host_names() {
        let cases: &[(&str, Option<&str>)] = &[
            ("host.example", None),
            ("host.example.", None),
            ("a-b.c-d.example", None),
            ("123.example", None),
            ("192.0.2.1", None),
            ("xn--caf-dma.example", None),
            ("caf%C3%A9.example", None),
            ("caf\u{e9}.example", None),
            ("localhost", None),
            ("host..example", Some(".")),
            (".example", Some(".")),
            ("host.example..", Some(".")),
            ("my_host.example", Some("_")),
            ("a!b.example", Some("!")),
            ("-a.example", Some("-")),
            ("a-.example", Some("-")),
            ("host.example.42", Some("42")),
            ("1.2.3.256", Some("1.2.3.256")),
            ("1.2.3", Some("1.2.3")),
            ("010.0.0.1", Some("010.0.0.1")),
        ];
        for &(host, expected) in cases {
            let problem = check_dns_name(host, 0..host.len());
            let spanned = problem.as_ref().err().map(|(span, _)| &host[span.range()]);
            assert_eq!(spanned, expected, "{host}: {problem:?}");
        }
        let long = format!("{}.example", "a".repeat(MAX_LABEL + 1));
        assert!(check_dns_name(&long, 0..long.len()).is_err());
        let message = check_dns_name("010.0.0.1", 0..9).err().map(|(_, m)| m);
        assert_eq!(
            message.as_deref(),
            Some("'010.0.0.1' is not an IPv4 address: '010' has a leading zero, which some readers take for octal")
        );
    }

    /// Section 3.2.2 `IPvFuture`.
    #[test]
    fn rfc3986_3_2_2_ipv_future() {
        for text in ["v1.x", "V7.fe80::a+en1", "vF.a!$&'()*+,;=:-._~"] {
            assert_eq!(check_ipv_future(text), Ok(()), "{text}");
        }
        for text in ["v.x", "v1.", "v1", "vg.x", "v1.a/b", "v1.a%41"] {
            assert!(check_ipv_future(text).is_err(), "{text}");
        }
    }

    /// Section 3.2.2 `IPv4address` and `dec-octet`.
    #[test]
    fn rfc3986_3_2_2_ipv4address() {
        for text in ["0.0.0.0", "192.0.2.1", "255.255.255.255", "10.200.249.99"] {
            assert!(is_ipv4(text), "{text}");
        }
        let invalid = [
            "1.2.3",
            "1.2.3.4.5",
            "256.1.1.1",
            "01.2.3.4",
            "1.2.3.004",
            "1..3.4",
            "a.b.c.d",
            "1.2.3.4.",
            "",
        ];
        for text in invalid {
            assert!(!is_ipv4(text), "{text}");
        }
    }
}
