//! RFC 1738 section 2.2 character classes, and the check every URL part
//! whose characters are percent-encodable goes through, in the words of
//! section 2.2.

use std::ops::Range;

use crate::rules::Rule;
pub(crate) use crate::validate::chars::ByteSet;
use crate::validate::chars::{self, Classes, Met};
use crate::validate::collector::Collector;

/// `alpha | digit | safe | extra`, always allowed unencoded.
const UNRESERVED: ByteSet =
    ByteSet::of(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789$-_.+!*'(),");

/// `reserved = ";" | "/" | "?" | ":" | "@" | "=" | "&"`: allowed only where
/// the scheme gives them a role.
const RESERVED: ByteSet = ByteSet::of(b";/?:@=&");

/// Section 2.2's classes: besides the two sets, `%` starts an escape, and
/// space, `< > " #`, the "national" characters, controls and octets 80-FF
/// must be encoded.
static CLASSES: Classes = Classes::new(UNRESERVED, RESERVED);

/// One part of a URL's grammar, as far as its characters are concerned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part {
    /// How messages name the part ("http path").
    pub name: &'static str,
    /// Reserved characters the part uses for their reserved purpose.
    pub reserved: ByteSet,
    /// The protocol that decodes this part and treats CR LF as a command end,
    /// when there is one (section 6's encoded-delimiter warning).
    pub decoded_by: Option<&'static str>,
}

impl Part {
    /// A part of `*xchar` that no protocol decodes line by line.
    pub(crate) const fn xchar(name: &'static str) -> Part {
        Part {
            name,
            reserved: RESERVED,
            decoded_by: None,
        }
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

/// Check every character of `range` against section 2.2 for `part`.
/// (Non-ASCII text is encoded as UTF-8, the form RFC 3986 section 2.5 and
/// RFC 3987 give and browsers send.)
pub(crate) fn check(collector: &mut Collector, range: Range<usize>, part: &Part) {
    let url = collector.url();
    let encodable = |at, rule, what: &str| {
        chars::encodable(url, at, rule, |char, encoded| {
            format!("{what} {char} must be encoded as {encoded}")
        })
    };
    chars::walk(url, range, &CLASSES, part.reserved, |met| {
        let diagnostic = match met {
            Met::Delimiter(at) => chars::reserved(url, at, part.name).with_help(RESERVED_HELP),
            Met::Excluded(at) => {
                encodable(at, Rule::UnsafeChar, "unsafe character").with_help(UNSAFE_HELP)
            }
            Met::Control(at) => {
                encodable(at, Rule::ControlChar, "control character").with_help(CONTROL_HELP)
            }
            Met::NonAscii(at) => {
                encodable(at, Rule::NonAscii, "non-ASCII character").with_help(NON_ASCII_HELP)
            }
            Met::BadEscape(at) => chars::bad_escape(at).with_help(ESCAPE_HELP),
            Met::Escape(at) => match chars::encoded_newline(url, at, part.name, part.decoded_by) {
                Some(newline) => newline.with_help(NEWLINE_HELP),
                None => return,
            },
        };
        collector.push_char(diagnostic);
    });
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
