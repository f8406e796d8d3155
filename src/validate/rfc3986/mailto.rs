//! mailto (RFC 6068 section 2):
//! `mailtoURI = "mailto:" [ to ] [ hfields ]`, where `to` is a list of
//! `addr-spec`s separated by `,` and `hfields = "?" hfield *( "&" hfield )`
//! with `hfield = hfname "=" hfvalue`.
//!
//! Characters are checked as written: in an address, gen-delims other than
//! `@` and `:`, and `&`, `;` and `=`, must be percent-encoded; in a header
//! field, only `qchar`s stand unencoded. The structure of an address is
//! checked on its decoded form (RFC 5322 `dot-atom-text` or
//! `quoted-string` `@` `dot-atom-text` or a domain literal), once its
//! characters are known to be right.

use std::ops::Range;

use super::chars::{self, ByteSet, Component};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// An address in `to`: RFC 6068 section 2, rule 1 of the percent-encoding.
const ADDRESS: Component = Component {
    name: "mail address",
    delimiters: ByteSet::of(b"!$'()*+,:@"),
    reference: "RFC 6068 section 2",
    decoded_by: Some("SMTP"),
    iri_private: false,
};

/// A header field name or value: `qchar = unreserved / pct-encoded / some-delims`.
const HFIELD: Component = Component {
    name: "header field",
    delimiters: ByteSet::of(b"!$'()*+,;:@"),
    reference: "RFC 6068 section 2",
    decoded_by: Some("SMTP"),
    iri_private: false,
};

/// The body, where `%0D%0A` is how lines end (RFC 6068 section 5).
const BODY: Component = Component {
    name: "body",
    decoded_by: None,
    ..HFIELD
};

const MAILTO_HELP: &str = "RFC 6068 section 2: mailto:[addr-spec *(\",\" addr-spec)][?hfname=\
     hfvalue *(\"&\" hfname=hfvalue)], each addr-spec an RFC 5322 address local-part@domain \
     without comments or whitespace, percent-encoded where needed";

/// Check the part of a mailto URI after `mailto:`.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>) {
    let question =
        memchr::memchr(b'?', &collector.url().as_bytes()[range.clone()]).map(|at| range.start + at);
    check_to(collector, range.start..question.unwrap_or(range.end));
    if let Some(question) = question {
        check_hfields(collector, question, range.end);
    }
}

/// `to = addr-spec *( "," addr-spec )`, possibly absent.
fn check_to(collector: &mut Collector, to: Range<usize>) {
    if to.is_empty() {
        return;
    }
    chars::check(collector, to.clone(), &ADDRESS);
    let bytes = collector.url().as_bytes();
    let mut start = to.start;
    let mut blamed = None;
    for comma in memchr::memchr_iter(b',', &bytes[to.clone()]).map(|at| to.start + at) {
        if start == comma {
            blamed = Some(comma);
        }
        check_address(collector, start..comma, comma);
        start = comma + 1;
    }
    // A trailing ',' leaves an empty last address, reported at that comma,
    // unless the empty address before it already blamed the same comma.
    let last_comma = start.saturating_sub(1);
    if !(start == to.end && blamed == Some(last_comma)) {
        check_address(collector, start..to.end, last_comma);
    }
}

/// One `addr-spec`; `separator` is the `,` to blame when it is empty.
fn check_address(collector: &mut Collector, address: Range<usize>, separator: usize) {
    let url = collector.url();
    if address.is_empty() {
        let message = "an empty address in the list: one ',' too many";
        return report(collector, Span::new(separator, separator + 1), message);
    }
    let Some(at) =
        memchr::memrchr(b'@', &url.as_bytes()[address.clone()]).map(|at| address.start + at)
    else {
        let message = "the address has no '@domain' after its local part";
        return report(collector, Span::new(address.end, address.end), message);
    };
    let (local, domain) = (address.start..at, at + 1..address.end);
    if local.is_empty() {
        return report(
            collector,
            Span::new(at, at + 1),
            "missing local part before '@'",
        );
    }
    if domain.is_empty() {
        return report(collector, Span::new(at, at + 1), "missing domain after '@'");
    }
    // Characters already reported would only cascade into structure errors.
    if !written_right(url, address.clone()) {
        return;
    }
    let decoded = decode(&url[local.clone()]);
    if let Err(problem) = check_local_part(&decoded) {
        return report(collector, local.into(), problem);
    }
    let decoded = decode(&url[domain.clone()]);
    if let Err(problem) = check_domain(&decoded) {
        report(collector, domain.into(), format!("mail domain: {problem}"));
    }
}

/// True when `url[range]` has only characters [`ADDRESS`] allows and
/// well-formed percent-encodings.
fn written_right(url: &str, range: Range<usize>) -> bool {
    let bytes = &url.as_bytes()[range];
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte == b'%' {
            let hex = |offset| bytes.get(at + offset).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(1) && hex(2)) {
                return false;
            }
            at += 3;
        } else if chars::is_unreserved(byte) || ADDRESS.delimiters.contains(byte) {
            at += 1;
        } else {
            return false;
        }
    }
    true
}

/// The octets `text` stands for, its `%XX` encodings (known to be
/// well-formed) decoded.
fn decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = |byte: u8| char::from(byte).to_digit(16).unwrap_or(0) as u8;
        if bytes[at] == b'%' && at + 2 < bytes.len() {
            decoded.push(hex(bytes[at + 1]) << 4 | hex(bytes[at + 2]));
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    decoded
}

/// RFC 5322 `atext`, with the UTF-8 octets RFC 6532 adds.
fn is_atext(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&byte) || byte >= 0x80
}

/// `local-part = dot-atom-text / quoted-string`, decoded.
fn check_local_part(local: &[u8]) -> Result<(), String> {
    if local.first() == Some(&b'"') {
        return check_quoted_string(local);
    }
    check_dot_atom(local, "local part")
}

/// `dot-atom-text = 1*atext *( "." 1*atext )`.
fn check_dot_atom(text: &[u8], what: &str) -> Result<(), String> {
    if text.split(|&b| b == b'.').any(<[u8]>::is_empty) {
        return Err(format!(
            "a {what}'s words are separated by single dots, with none at either end"
        ));
    }
    match text.iter().find(|&&b| b != b'.' && !is_atext(b)) {
        Some(&bad) => Err(format!(
            "{} cannot appear in a {what}, even percent-encoded, outside a quoted string",
            describe_byte(bad)
        )),
        None => Ok(()),
    }
}

/// `quoted-string = DQUOTE *( qtext / quoted-pair ) DQUOTE`, where
/// whitespace inside the quotes is text.
fn check_quoted_string(text: &[u8]) -> Result<(), String> {
    let inner = match text {
        [b'"', inner @ .., b'"'] => inner,
        _ => return Err("a quoted local part ends with '\"' (%22)".to_string()),
    };
    let mut bytes = inner.iter();
    while let Some(&byte) = bytes.next() {
        match byte {
            b'\\' => match bytes.next() {
                Some(&(0x20..=0x7E | b'\t')) => {}
                _ => {
                    return Err(
                        "'\\' (%5C) in a quoted local part escapes one printable character".into(),
                    )
                }
            },
            b'"' => {
                return Err("'\"' (%22) inside a quoted local part must be escaped as \\\"".into())
            }
            b' ' | b'\t' | 0x21..=0x7E | 0x80..=0xFF => {}
            _ => {
                return Err(format!(
                    "{} cannot appear in a quoted local part",
                    describe_byte(byte)
                ))
            }
        }
    }
    Ok(())
}

/// `domain = dot-atom-text / "[" *dtext-no-obs "]"`, decoded.
fn check_domain(domain: &[u8]) -> Result<(), String> {
    match domain {
        [b'[', inner @ .., b']'] => {
            match inner.iter().find(|&&b| !matches!(b, 33..=90 | 94..=126)) {
                Some(&bad) => Err(format!(
                    "{} cannot appear in a domain literal",
                    describe_byte(bad)
                )),
                None => Ok(()),
            }
        }
        _ => check_dot_atom(domain, "domain"),
    }
}

/// A decoded octet for a message: `'('`, or `%0A` for one without a glyph.
fn describe_byte(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("'{}'", char::from(byte))
    } else {
        format!("%{byte:02X}")
    }
}

/// `hfields = "?" hfield *( "&" hfield )` from the `?` at `question`.
fn check_hfields(collector: &mut Collector, question: usize, end: usize) {
    let bytes = collector.url().as_bytes();
    if question + 1 == end {
        let message = "'?' is not followed by a header field";
        let diagnostic = Diagnostic::new(
            Rule::MailtoAddress,
            Span::new(question, question + 1),
            message,
        );
        // No header field either way: the same message is composed.
        let diagnostic = diagnostic.with_fix("", Applicability::MachineApplicable);
        return collector.push(diagnostic.with_help(MAILTO_HELP));
    }
    let mut separator = question;
    let ampersands: Vec<usize> = memchr::memchr_iter(b'&', &bytes[question + 1..end])
        .map(|at| question + 1 + at)
        .collect();
    for next in ampersands.into_iter().chain([end]) {
        check_hfield(collector, separator, separator + 1..next);
        separator = next;
    }
}

/// `hfield = hfname "=" hfvalue`, after the `?` or `&` at `separator`.
fn check_hfield(collector: &mut Collector, separator: usize, field: Range<usize>) {
    let url = collector.url();
    if field.is_empty() {
        let message = "an empty header field: one '&' too many";
        return report(collector, Span::new(separator, separator + 1), message);
    }
    let Some(equals) =
        memchr::memchr(b'=', &url.as_bytes()[field.clone()]).map(|at| field.start + at)
    else {
        let message = format!(
            "header field '{}' has no '=' and value",
            &url[field.clone()]
        );
        chars::check(collector, field.clone(), &HFIELD);
        return report(collector, Span::new(field.end, field.end), message);
    };
    let value_component = match url[field.start..equals].eq_ignore_ascii_case("body") {
        true => &BODY,
        false => &HFIELD,
    };
    chars::check(collector, field.start..equals, &HFIELD);
    chars::check(collector, equals + 1..field.end, value_component);
}

fn report(collector: &mut Collector, span: Span, message: impl Into<String>) {
    collector.push(Diagnostic::new(Rule::MailtoAddress, span, message).with_help(MAILTO_HELP));
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_rfc3986_cases, Expect};

    /// RFC 6068 section 2: `to`, `hfields` and what must be encoded where;
    /// the '?' that RFC 2368 already called wrong is data in a header value.
    #[test]
    fn rfc6068_2_mailto() {
        let cases: &[(&str, Expect)] = &[
            ("mailto:", &[]),
            ("mailto:?to=a@h.example", &[]),
            ("mailto:a@h.example,b@h.example", &[]),
            ("mailto:first.last+tag@h.example", &[]),
            ("mailto:list-request@h.example?subject=help", &[]),
            ("mailto:a@h.example?subject=a%20b&body=x%0D%0Ay", &[]),
            ("mailto:a@h.example?=x", &[]),
            (
                "mailto:a@[192.0.2.1]",
                &[
                    (ReservedChar, "[", Some("%5B")),
                    (ReservedChar, "]", Some("%5D")),
                ],
            ),
            ("mailto:a@%5B192.0.2.1%5D", &[]),
            ("mailto:%22john%20doe%22@h.example", &[]),
            ("mailto:webmaster", &[(MailtoAddress, "", None)]),
            ("mailto:@h.example", &[(MailtoAddress, "@", None)]),
            ("mailto:u@", &[(MailtoAddress, "@", None)]),
            ("mailto:a@h.example,", &[(MailtoAddress, ",", None)]),
            // A lone ',' is blamed once, not as both the empty first and the
            // empty last address.
            ("mailto:,", &[(MailtoAddress, ",", None)]),
            (
                "mailto:,,",
                &[(MailtoAddress, ",", None), (MailtoAddress, ",", None)],
            ),
            (
                "mailto:a@h.example,,b@h.example",
                &[(MailtoAddress, ",", None)],
            ),
            ("mailto:.u@h.example", &[(MailtoAddress, ".u", None)]),
            ("mailto:u..v@h.example", &[(MailtoAddress, "u..v", None)]),
            (
                "mailto:u@h..example",
                &[(MailtoAddress, "h..example", None)],
            ),
            (
                "mailto:john(x)@h.example",
                &[(MailtoAddress, "john(x)", None)],
            ),
            ("mailto:a%2Cb@h.example", &[(MailtoAddress, "a%2Cb", None)]),
            ("mailto:%22a@h.example", &[(MailtoAddress, "%22a", None)]),
            ("mailto:a&b@h.example", &[(ReservedChar, "&", Some("%26"))]),
            ("mailto:a;b@h.example", &[(ReservedChar, ";", Some("%3B"))]),
            ("mailto:a/b@h.example", &[(ReservedChar, "/", Some("%2F"))]),
            ("mailto:a b@h.example", &[(UnsafeChar, " ", Some("%20"))]),
            ("mailto:a%zz@h.example", &[(BadEscape, "%", None)]),
            (
                "mailto:jos\u{e9}@h.example",
                &[(NonAscii, "\u{e9}", Some("%C3%A9"))],
            ),
            ("mailto:jos%C3%A9@h.example", &[]),
            ("mailto:a@h.example?", &[(MailtoAddress, "?", Some(""))]),
            ("mailto:a@h.example?subject", &[(MailtoAddress, "", None)]),
            ("mailto:a@h.example?a=1&&b=2", &[(MailtoAddress, "&", None)]),
            (
                "mailto:a@h.example?subject=a/b?c=d",
                &[
                    (ReservedChar, "/", Some("%2F")),
                    (ReservedChar, "?", Some("%3F")),
                    (ReservedChar, "=", Some("%3D")),
                ],
            ),
            (
                "mailto:a@h.example?subject=x%0D%0ABcc:y",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
            (
                "mailto:u%0D%0A@h.example",
                &[
                    (MailtoAddress, "u%0D%0A", None),
                    (EncodedNewline, "%0D", None),
                    (EncodedNewline, "%0A", None),
                ],
            ),
        ];
        assert_rfc3986_cases(cases);
    }

    /// RFC 6068 section 6: every example is a valid mailto URI.
    #[test]
    fn rfc6068_6_examples() {
        let examples = [
            "mailto:chris@example.com",
            "mailto:infobot@example.com?subject=current-issue",
            "mailto:infobot@example.com?body=send%20current-issue",
            "mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
            "mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
            "mailto:majordomo@example.com?body=subscribe%20bamboo-l",
            "mailto:joe@example.com?cc=bob@example.com&body=hello",
            "mailto:?to=joe@example.com&cc=bob@example.com&body=hello",
            "mailto:gorby%25kremvax@example.com",
            "mailto:unlikely%3Faddress@example.com?blat=foop",
            "mailto:Mike%26family@example.org",
            "mailto:%22not%40me%22@example.org",
            "mailto:%22oh%5C%5Cno%22@example.org",
            "mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
            "mailto:user@example.org?subject=caf%C3%A9",
            "mailto:user@example.org?subject=%3D%3Futf-8%3FQ%3Fcaf%3DC3%3DA9%3F%3D",
            "mailto:user@example.org?subject=%3D%3Fiso-8859-1%3FQ%3Fcaf%3DE9%3F%3D",
            "mailto:user@example.org?subject=caf%C3%A9&body=caf%C3%A9",
            "mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
            "mailto:addr1@an.example,addr2@an.example",
            "mailto:?to=addr1@an.example,addr2@an.example",
            "mailto:addr1@an.example?to=addr2@an.example",
        ];
        let cases: Vec<(&str, Expect)> = examples.iter().map(|url| (*url, &[][..])).collect();
        assert_rfc3986_cases(&cases);
    }
}
