//! RFC 3986 character classes (section 2, Appendix A), and the check every
//! component whose characters may be percent-encoded goes through.
//!
//! A URI is written with unreserved characters, percent-encodings and the
//! 18 reserved delimiters; each component allows some delimiters as data.
//! Everything else (space, `" < > \ ^ ` { | }`, controls, non-ASCII) must be
//! percent-encoded wherever it appears, and a delimiter that its component
//! does not allow must be encoded as well.

use std::ops::Range;

use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
pub(crate) use crate::validate::chars::ByteSet;
pub(crate) use crate::validate::chars::Met;
use crate::validate::chars::{self, Classes};
use crate::validate::collector::Collector;
use crate::validate::text::{char_span, describe_char, percent_encode};

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`: data everywhere.
const UNRESERVED: ByteSet =
    ByteSet::of(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~");

/// `sub-delims`, allowed as data in every component of the generic syntax.
pub(crate) const SUB_DELIMS: ByteSet = ByteSet::of(b"!$&'()*+,;=");

/// `reserved = gen-delims / sub-delims`: data only where the component
/// allows it.
const RESERVED: ByteSet = SUB_DELIMS.with(b":/?#[]@");

/// Section 2's classes: besides the two sets, `%` starts a percent-encoding,
/// and printable US-ASCII that no production includes, controls and octets
/// 80-FF must be encoded.
static CLASSES: Classes = Classes::new(UNRESERVED, RESERVED);

/// True for `unreserved` bytes.
pub(crate) fn is_unreserved(byte: u8) -> bool {
    CLASSES.is_unreserved(byte)
}

/// True for `sub-delims`.
pub(crate) fn is_sub_delim(byte: u8) -> bool {
    SUB_DELIMS.contains(byte)
}

/// One component of a URI, as far as its characters are concerned.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Component {
    /// How messages name the component ("path").
    pub name: &'static str,
    /// The delimiters the component takes as data.
    pub delimiters: ByteSet,
    /// Where the component's grammar is ("RFC 3986 section 3.3").
    pub reference: &'static str,
    /// The protocol that decodes this component into a line-based command
    /// stream, when there is one (RFC 3986 section 7.2).
    pub decoded_by: Option<&'static str>,
    /// Whether an IRI allows private-use characters here (`iquery` only).
    pub iri_private: bool,
}

/// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`.
const PCHAR: ByteSet = SUB_DELIMS.with(b":@");

/// `userinfo` (section 3.2.1).
pub(crate) const USERINFO: Component = Component {
    name: "user information",
    delimiters: SUB_DELIMS.with(b":"),
    reference: "RFC 3986 section 3.2.1",
    decoded_by: None,
    iri_private: false,
};

/// A path of any of the five forms, `/` between segments (section 3.3).
pub(crate) const PATH: Component = Component {
    name: "path",
    delimiters: PCHAR.with(b"/"),
    reference: "RFC 3986 section 3.3",
    decoded_by: None,
    iri_private: false,
};

/// `query = *( pchar / "/" / "?" )` (section 3.4).
pub(crate) const QUERY: Component = Component {
    name: "query",
    delimiters: PCHAR.with(b"/?"),
    reference: "RFC 3986 section 3.4",
    decoded_by: None,
    iri_private: true,
};

/// `fragment = *( pchar / "/" / "?" )` (section 3.5).
pub(crate) const FRAGMENT: Component = Component {
    name: "fragment",
    delimiters: PCHAR.with(b"/?"),
    reference: "RFC 3986 section 3.5",
    decoded_by: None,
    iri_private: false,
};

/// Check every character of `range` for `component`.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>, component: &Component) {
    let url = collector.url();
    let excluded = |at, rule, what: &str| {
        chars::encodable(url, at, rule, |char, encoded| {
            format!("{what} {char} is not allowed in a URI and must be encoded as {encoded}")
        })
    };
    walk(url, range, component.delimiters, |met| {
        let diagnostic = match met {
            Met::Delimiter(at) => chars::reserved(url, at, component.name).with_help(format!(
                "{}: a reserved character that the component does not allow as data must \
                     be percent-encoded (RFC 3986 section 2.2)",
                component.reference
            )),
            Met::Excluded(at) => {
                excluded(at, Rule::UnsafeChar, "character").with_help(EXCLUDED_HELP)
            }
            Met::Control(at) => {
                excluded(at, Rule::ControlChar, "control character").with_help(CONTROL_HELP)
            }
            Met::NonAscii(at) => {
                return report_non_ascii(
                    collector,
                    at,
                    component.iri_private,
                    Applicability::MachineApplicable,
                )
            }
            Met::BadEscape(at) => chars::bad_escape(at).with_help(ESCAPE_HELP),
            Met::Escape(at) => {
                match chars::encoded_newline(url, at, component.name, component.decoded_by) {
                    Some(newline) => newline.with_help(NEWLINE_HELP),
                    None => return,
                }
            }
        };
        collector.push_char(diagnostic);
    });
}

/// Walk `range` of `url` under section 2's classes, where the component
/// allows `delimiters` as data (see [`chars::walk`]).
pub(crate) fn walk(url: &str, range: Range<usize>, delimiters: ByteSet, meet: impl FnMut(Met)) {
    chars::walk(url, range, &CLASSES, delimiters, meet);
}

/// Report the `%` at `at` that starts no percent-encoding.
pub(crate) fn report_bad_escape(collector: &mut Collector, at: usize) {
    collector.push_char(chars::bad_escape(at).with_help(ESCAPE_HELP));
}

const EXCLUDED_HELP: &str = "RFC 3986 section 2: a URI is written with unreserved characters, \
     percent-encodings and the reserved delimiters only; space, '\"', '<', '>', '\\', '^', \
     '`', '{', '|' and '}' appear in no production of Appendix A and must be percent-encoded";
const CONTROL_HELP: &str = "RFC 3986 section 2: control characters 00-1F and 7F appear in no \
     production of Appendix A and must be percent-encoded";
const ESCAPE_HELP: &str = "RFC 3986 section 2.1: '%' always starts a percent-encoding of two \
     hexadecimal digits; a literal percent sign is written %25";
const NEWLINE_HELP: &str = "RFC 3986 section 7.2: percent-encoded delimiters of the protocol \
     that dereferences the URI, such as CR and LF, must not be decoded before transmission; \
     a client that does decode them sends extra commands";

/// Report the non-ASCII character at `at`, with its UTF-8 percent-encoding
/// (RFC 3987 section 3.1's mapping of an IRI to a URI) and whether an IRI
/// would take it as it is; `applicability` is the encoding's.
pub(crate) fn report_non_ascii(
    collector: &mut Collector,
    at: usize,
    iri_private: bool,
    applicability: Applicability,
) {
    report_non_ascii_with(collector, at, iri_private, applicability, "");
}

/// [`report_non_ascii`] with `more` said after the help (the ASCII form of
/// an internationalised host name).
pub(crate) fn report_non_ascii_with(
    collector: &mut Collector,
    at: usize,
    iri_private: bool,
    applicability: Applicability,
    more: &str,
) {
    let url = collector.url();
    let span = char_span(url, at);
    let text = url.get(span.range()).unwrap_or("");
    let encoded = percent_encode(text);
    let message = format!(
        "non-ASCII character {} must be percent-encoded as {encoded} in a URI",
        describe_char(url, at)
    );
    let iri = match text.chars().next() {
        Some(c) if is_iri_char(c, iri_private) => "as written, the character would be valid in \
             an IRI (RFC 3987 section 2.2), the internationalized form that some tools \
             accept and URI-only tools do not"
            .to_string(),
        Some(c) => format!(
            "U+{:04X} is not allowed in an IRI either (RFC 3987 section 2.2)",
            c as u32
        ),
        None => String::new(),
    };
    let help = format!(
        "RFC 3986 section 2.5: a URI holds US-ASCII characters only; other characters are \
         written as the percent-encoded octets of their UTF-8 form; {iri}{more}"
    );
    collector.push_char(
        Diagnostic::new(Rule::NonAscii, span, message)
            .with_help(help)
            .with_fix(encoded, applicability),
    );
}

/// RFC 3987 `ucschar`, and `iprivate` where `private` allows it.
fn is_iri_char(c: char, private: bool) -> bool {
    let code = c as u32;
    let plane_end = code & 0xFFFF;
    let ucschar = matches!(code, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF)
        || (0x10000..=0xDFFFD).contains(&code) && plane_end <= 0xFFFD
        || (0xE1000..=0xEFFFD).contains(&code);
    let iprivate = matches!(code, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD);
    ucschar || (private && iprivate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_rfc3986_cases, Expect};

    /// Section 2.3 `unreserved` and section 2.2 `sub-delims`: data in a path
    /// and a query; `gen-delims` only where the component allows them.
    #[test]
    fn rfc3986_2_character_classes() {
        let cases: &[(&str, Expect)] = &[
            ("example:az-AZ_09.~", &[]),
            ("example:/!$&'()*+,;=:@/", &[]),
            ("example:/p?!$&'()*+,;=:@/?", &[]),
            ("example:/a%2Fb%7e%C3%A9", &[]),
            (
                "example:/a[b]",
                &[
                    (ReservedChar, "[", Some("%5B")),
                    (ReservedChar, "]", Some("%5D")),
                ],
            ),
            (
                "example:/q?a[1]",
                &[
                    (ReservedChar, "[", Some("%5B")),
                    (ReservedChar, "]", Some("%5D")),
                ],
            ),
            ("example:/a b", &[(UnsafeChar, " ", Some("%20"))]),
            (
                "example:/\"<>\\^`{|}",
                &[
                    (UnsafeChar, "\"", Some("%22")),
                    (UnsafeChar, "<", Some("%3C")),
                    (UnsafeChar, ">", Some("%3E")),
                    (UnsafeChar, "\\", Some("%5C")),
                    (UnsafeChar, "^", Some("%5E")),
                    (UnsafeChar, "`", Some("%60")),
                    (UnsafeChar, "{", Some("%7B")),
                    (UnsafeChar, "|", Some("%7C")),
                    (UnsafeChar, "}", Some("%7D")),
                ],
            ),
            ("example:/a\tb", &[(ControlChar, "\t", Some("%09"))]),
            ("example:/a\u{7f}", &[(ControlChar, "\u{7f}", Some("%7F"))]),
            (
                "example:/caf\u{e9}",
                &[(NonAscii, "\u{e9}", Some("%C3%A9"))],
            ),
            (
                "example:/\u{1F600}",
                &[(NonAscii, "\u{1F600}", Some("%F0%9F%98%80"))],
            ),
        ];
        assert_rfc3986_cases(cases);
    }

    /// Section 2.1 `pct-encoded = "%" HEXDIG HEXDIG`.
    #[test]
    fn rfc3986_2_1_percent_encoding() {
        let cases: &[(&str, Expect)] = &[
            ("example:%41%7a%Ff", &[]),
            ("example:100%", &[(BadEscape, "%", None)]),
            ("example:%4", &[(BadEscape, "%", None)]),
            ("example:%G1", &[(BadEscape, "%", None)]),
            ("example:%%41", &[(BadEscape, "%", None)]),
            ("example:/?q=%", &[(BadEscape, "%", None)]),
        ];
        assert_rfc3986_cases(cases);
    }

    /// RFC 3987 section 2.2: a non-ASCII character's help says whether an
    /// IRI would take it (private use only in a query).
    #[test]
    fn rfc3987_2_2_iri_characters() {
        assert!(is_iri_char('\u{e9}', false));
        assert!(is_iri_char('\u{1F600}', false));
        assert!(!is_iri_char('\u{85}', false));
        assert!(!is_iri_char('\u{FFFE}', false));
        assert!(!is_iri_char('\u{1FFFE}', false));
        assert!(!is_iri_char('\u{E000}', false));
        assert!(is_iri_char('\u{E000}', true));
        let options = crate::validate::ValidateOptions {
            profile: crate::validate::Profile::Rfc3986,
            ..Default::default()
        };
        let help = |url| crate::validate::validate(url, &options)[0].help.clone();
        assert!(help("example:caf\u{e9}").contains("would be valid in an IRI"));
        assert!(help("example:a\u{85}").contains("not allowed in an IRI either"));
        assert!(help("example:a\u{E000}").contains("not allowed in an IRI either"));
        assert!(help("example:?a\u{E000}").contains("would be valid in an IRI"));
    }

    #[test]
    fn delimiter_sets() {
        assert!(SUB_DELIMS.contains(b'!') && SUB_DELIMS.contains(b'='));
        assert!(!SUB_DELIMS.contains(b':') && !SUB_DELIMS.contains(b'a'));
        let query = QUERY.delimiters;
        assert!(query.contains(b'/') && query.contains(b'?') && !query.contains(b'#'));
        assert!(!SUB_DELIMS.without(b"&").contains(b'&'));
    }
}
