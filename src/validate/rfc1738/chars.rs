//! RFC 1738 section 2.2 character classes, and the check every URL part
//! whose characters are percent-encodable goes through.
//!
//! One lookup table classifies every byte, so a part is checked in a single
//! pass without branching on character lists.

use std::ops::Range;

use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;
use crate::validate::text::{char_span, describe_char, line_break_name, percent_encode};

/// What section 2.2 says about one byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// alpha, digit, safe and extra: always allowed unencoded.
    Unreserved,
    /// `; / ? : @ = &`: allowed only where the scheme gives them a role.
    Reserved,
    /// `%`: starts an escape.
    Percent,
    /// Space, `< > " #` and the "national" characters: must be encoded.
    Unsafe,
    /// 00-1F and 7F: must be encoded.
    Control,
    /// 80-FF: not US-ASCII, must be encoded.
    NonAscii,
}

/// The class of every byte.
static CLASSES: [Class; 256] = classify_all();

const fn classify_all() -> [Class; 256] {
    let mut table = [Class::NonAscii; 256];
    let mut byte = 0;
    while byte < 0x80 {
        table[byte] = classify_ascii(byte as u8);
        byte += 1;
    }
    table
}

const fn classify_ascii(byte: u8) -> Class {
    match byte {
        0x00..=0x1F | 0x7F => Class::Control,
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => Class::Unreserved,
        b'$' | b'-' | b'_' | b'.' | b'+' => Class::Unreserved,
        b'!' | b'*' | b'\'' | b'(' | b')' | b',' => Class::Unreserved,
        b';' | b'/' | b'?' | b':' | b'@' | b'=' | b'&' => Class::Reserved,
        b'%' => Class::Percent,
        _ => Class::Unsafe,
    }
}

/// A set of reserved characters a URL part gives a role to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reserved(u8);

impl Reserved {
    /// No reserved character is allowed unencoded.
    pub(crate) const NONE: Reserved = Reserved(0);
    /// Every reserved character is allowed (`xchar` parts).
    pub(crate) const ALL: Reserved = Reserved(0x7F);

    /// The set holding exactly the characters of `chars`; other bytes are ignored.
    pub(crate) const fn of(chars: &[u8]) -> Reserved {
        let mut bits = 0;
        let mut index = 0;
        while index < chars.len() {
            bits |= Self::bit(chars[index]);
            index += 1;
        }
        Reserved(bits)
    }

    const fn bit(byte: u8) -> u8 {
        match byte {
            b';' => 1,
            b'/' => 2,
            b'?' => 4,
            b':' => 8,
            b'@' => 16,
            b'=' => 32,
            b'&' => 64,
            _ => 0,
        }
    }

    /// True when `byte` is a reserved character in this set.
    pub(crate) const fn contains(self, byte: u8) -> bool {
        self.0 & Self::bit(byte) != 0
    }
}

/// One part of a URL's grammar, as far as its characters are concerned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part {
    /// How messages name the part ("http path").
    pub name: &'static str,
    /// Reserved characters the part uses for their reserved purpose.
    pub reserved: Reserved,
    /// The protocol that decodes this part and treats CR LF as a command end,
    /// when there is one (section 6's encoded-delimiter warning).
    pub decoded_by: Option<&'static str>,
}

impl Part {
    /// A part of `*xchar` that no protocol decodes line by line.
    pub(crate) const fn xchar(name: &'static str) -> Part {
        Part {
            name,
            reserved: Reserved::ALL,
            decoded_by: None,
        }
    }
}

/// Check every character of `range` against section 2.2 for `part`.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>, part: &Part) {
    let bytes = collector.url().as_bytes();
    let end = range.end.min(bytes.len());
    let mut at = range.start;
    while at < end {
        let byte = bytes[at];
        at = match CLASSES[usize::from(byte)] {
            Class::Unreserved => at + 1,
            Class::Reserved => {
                if !part.reserved.contains(byte) {
                    report_reserved(collector, at, part);
                }
                at + 1
            }
            Class::Percent => check_escape(collector, at, end, part),
            Class::Unsafe => {
                report_encodable(collector, at, Rule::UnsafeChar, "unsafe character");
                at + 1
            }
            Class::Control => {
                report_encodable(collector, at, Rule::ControlChar, "control character");
                at + 1
            }
            Class::NonAscii => {
                let span = char_span(collector.url(), at);
                if collector.url().is_char_boundary(at) {
                    report_encodable(collector, at, Rule::NonAscii, "non-ASCII character");
                }
                span.end
            }
        };
    }
}

/// Help texts for the character rules, each naming its section.
const UNSAFE_HELP: &str = "RFC 1738 section 2.2: unsafe characters may be changed or \
     dropped by gateways, typesetting or the text around the URL, so they must always be \
     percent-encoded";
const CONTROL_HELP: &str = "RFC 1738 section 2.2: URLs are written only with graphic \
     US-ASCII characters; control characters 00-1F and 7F must be percent-encoded";
const NON_ASCII_HELP: &str = "RFC 1738 section 2.2: octets 80-FF are not US-ASCII and \
     must be percent-encoded (here, the character's UTF-8 octets)";
const ESCAPE_HELP: &str = "RFC 1738 section 2.2: '%' always starts an escape of two \
     hexadecimal digits; a literal percent sign is written %25";
const RESERVED_HELP: &str = "RFC 1738 section 2.2: a reserved character must be encoded \
     wherever the scheme does not use it for its reserved purpose (sections 3 and 5)";
const NEWLINE_HELP: &str = "RFC 1738 section 6: an encoded delimiter such as CR or LF \
     may be decoded before transmission and run as an extra protocol command";

/// Report the character at `at`, which percent-encoding always repairs:
/// the encoding names the same octets, so the fix is applied unasked.
/// (Non-ASCII text is encoded as UTF-8, the form RFC 3986 section 2.5 and
/// RFC 3987 give and browsers send.)
fn report_encodable(collector: &mut Collector, at: usize, rule: Rule, what: &str) {
    let url = collector.url();
    let span = char_span(url, at);
    let encoded = percent_encode(url.get(span.range()).unwrap_or(""));
    let help = match rule {
        Rule::UnsafeChar => UNSAFE_HELP,
        Rule::ControlChar => CONTROL_HELP,
        _ => NON_ASCII_HELP,
    };
    let message = format!(
        "{what} {} must be encoded as {encoded}",
        describe_char(url, at)
    );
    collector.push_char(
        Diagnostic::new(rule, span, message)
            .with_help(help)
            .with_fix(encoded, Applicability::MachineApplicable),
    );
}

/// Report a reserved character that `part` gives no role. Encoding it is
/// only a suggestion: a URL with a reserved character encoded is another
/// URL (RFC 1738 section 2.2), and the author may have meant the delimiter
/// (a `;type=` in the wrong place) rather than the data.
fn report_reserved(collector: &mut Collector, at: usize, part: &Part) {
    let byte = collector.url().as_bytes()[at];
    let encoded = percent_encode(char::from(byte).encode_utf8(&mut [0; 4]));
    let message = format!(
        "reserved character '{}' has no role in the {}; encode it as {encoded}",
        char::from(byte),
        part.name
    );
    collector.push_char(
        Diagnostic::new(Rule::ReservedChar, Span::new(at, at + 1), message)
            .with_help(RESERVED_HELP)
            .with_fix(encoded, Applicability::Suggestion),
    );
}

/// Check the escape starting with the `%` at `at`; returns where checking resumes.
fn check_escape(collector: &mut Collector, at: usize, end: usize, part: &Part) -> usize {
    let bytes = collector.url().as_bytes();
    let hex = |offset: usize| at + offset < end && bytes[at + offset].is_ascii_hexdigit();
    if !(hex(1) && hex(2)) {
        let message = "'%' is not followed by two hexadecimal digits";
        collector.push_char(
            Diagnostic::new(Rule::BadEscape, Span::new(at, at + 1), message).with_help(ESCAPE_HELP),
        );
        return at + 1;
    }
    if let Some(protocol) = part.decoded_by {
        if let Some(name) = line_break_name(&bytes[at..at + 3]) {
            let message = format!(
                "encoded {name} in the {} would be decoded into the {protocol} command stream",
                part.name
            );
            collector.push_char(
                Diagnostic::new(Rule::EncodedNewline, Span::new(at, at + 3), message)
                    .with_help(NEWLINE_HELP),
            );
        }
    }
    at + 3
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 2.2: each class, in a part (an ftp path) where only `/` and
    /// the fsegment characters have a role.
    #[test]
    fn rfc1738_2_2_character_classes() {
        let cases: &[(&str, Expect)] = &[
            ("ftp://h.example/az-AZ_09.$+!*'(),", &[]),
            ("ftp://h.example/~u", &[(UnsafeChar, "~", Some("%7E"))]),
            ("ftp://h.example/a b", &[(UnsafeChar, " ", Some("%20"))]),
            (
                "ftp://h.example/a{b}",
                &[
                    (UnsafeChar, "{", Some("%7B")),
                    (UnsafeChar, "}", Some("%7D")),
                ],
            ),
            (
                "ftp://h.example/|\\^[]`\"<>",
                &[
                    (UnsafeChar, "|", Some("%7C")),
                    (UnsafeChar, "\\", Some("%5C")),
                    (UnsafeChar, "^", Some("%5E")),
                    (UnsafeChar, "[", Some("%5B")),
                    (UnsafeChar, "]", Some("%5D")),
                    (UnsafeChar, "`", Some("%60")),
                    (UnsafeChar, "\"", Some("%22")),
                    (UnsafeChar, "<", Some("%3C")),
                    (UnsafeChar, ">", Some("%3E")),
                ],
            ),
            ("ftp://h.example/a\tb", &[(ControlChar, "\t", Some("%09"))]),
            (
                "ftp://h.example/a\u{7f}",
                &[(ControlChar, "\u{7f}", Some("%7F"))],
            ),
            (
                "ftp://h.example/caf\u{e9}",
                &[(NonAscii, "\u{e9}", Some("%C3%A9"))],
            ),
            (
                "ftp://h.example/\u{1F600}",
                &[(NonAscii, "\u{1F600}", Some("%F0%9F%98%80"))],
            ),
            ("ftp://h.example/a%2Fb%7e", &[]),
            ("ftp://h.example/100%", &[(BadEscape, "%", None)]),
            ("ftp://h.example/%4", &[(BadEscape, "%", None)]),
            ("ftp://h.example/%G1", &[(BadEscape, "%", None)]),
            ("ftp://h.example/%%41", &[(BadEscape, "%", None)]),
            ("ftp://h.example/a;b/c", &[(ReservedChar, ";", Some("%3B"))]),
        ];
        assert_cases(cases);
    }
}
