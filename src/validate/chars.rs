//! The character check both profiles run over every part whose characters
//! may be percent-encoded: one pass over the part, each byte looked up in
//! the profile's table of classes, and the diagnostics the two profiles
//! word alike.
//!
//! A profile says which bytes are data everywhere and which are delimiters
//! (data only where a part allows them); `%` starts an escape, controls and
//! non-ASCII bytes are always encoded, and every other printable byte is
//! excluded. What each profile says about a problem (its section, and for
//! RFC 3986 whether an IRI would take a character) stays with the profile.

use std::ops::Range;

use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::text::{char_span, describe_char, line_break_name, percent_encode};

/// A set of US-ASCII bytes, such as the delimiters a part allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ByteSet(u128);

impl ByteSet {
    /// The empty set.
    pub(crate) const EMPTY: ByteSet = ByteSet(0);

    /// The set holding exactly the bytes of `chars`; non-ASCII bytes are ignored.
    pub(crate) const fn of(chars: &[u8]) -> ByteSet {
        ByteSet::EMPTY.with(chars)
    }

    /// This set and the bytes of `chars`.
    pub(crate) const fn with(self, chars: &[u8]) -> ByteSet {
        let mut bits = self.0;
        let mut index = 0;
        while index < chars.len() {
            bits |= Self::bit(chars[index]);
            index += 1;
        }
        ByteSet(bits)
    }

    /// This set without the bytes of `chars`.
    pub(crate) const fn without(self, chars: &[u8]) -> ByteSet {
        ByteSet(self.0 & !ByteSet::of(chars).0)
    }

    const fn bit(byte: u8) -> u128 {
        if byte < 0x80 {
            1 << byte
        } else {
            0
        }
    }

    /// True when `byte` is in the set.
    pub(crate) const fn contains(self, byte: u8) -> bool {
        self.0 & Self::bit(byte) != 0
    }
}

/// What a profile's grammar says about one byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Data wherever it appears.
    Unreserved,
    /// Data only in the parts that allow it, a delimiter elsewhere.
    Delimiter,
    /// `%`: starts an escape.
    Percent,
    /// Printable US-ASCII that the grammar never takes as written.
    Excluded,
    /// 00-1F and 7F.
    Control,
    /// 80-FF: not US-ASCII.
    NonAscii,
}

/// The class of every byte under one profile.
#[derive(Debug)]
pub(crate) struct Classes([Class; 256]);

impl Classes {
    /// The classes of a profile whose grammar takes `unreserved` as data
    /// everywhere and `delimiters` as data where a part allows them.
    pub(crate) const fn new(unreserved: ByteSet, delimiters: ByteSet) -> Classes {
        let mut table = [Class::NonAscii; 256];
        let mut byte = 0u8;
        while byte < 0x80 {
            table[byte as usize] = if byte < 0x20 || byte == 0x7F {
                Class::Control
            } else if byte == b'%' {
                Class::Percent
            } else if unreserved.contains(byte) {
                Class::Unreserved
            } else if delimiters.contains(byte) {
                Class::Delimiter
            } else {
                Class::Excluded
            };
            byte += 1;
        }
        Classes(table)
    }

    /// True when `byte` is data wherever it appears.
    pub(crate) fn is_unreserved(&self, byte: u8) -> bool {
        self.0[usize::from(byte)] == Class::Unreserved
    }
}

/// A place in a part that the profile has something to say about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Met {
    /// A delimiter the part does not allow as data.
    Delimiter(usize),
    /// A printable character that must always be encoded.
    Excluded(usize),
    /// A control character.
    Control(usize),
    /// The first byte of a non-ASCII character.
    NonAscii(usize),
    /// A `%` not followed by two hexadecimal digits.
    BadEscape(usize),
    /// A well-formed escape, for what it encodes.
    Escape(usize),
}

/// Walk the bytes of `url` in `range` under `classes`, where the part
/// allows `allowed` as data, and tell `meet` of every place worth a word,
/// in order.
pub(crate) fn walk(
    url: &str,
    range: Range<usize>,
    classes: &Classes,
    allowed: ByteSet,
    mut meet: impl FnMut(Met),
) {
    let bytes = url.as_bytes();
    let end = range.end.min(bytes.len());
    let mut at = range.start;
    while at < end {
        let byte = bytes[at];
        at = match classes.0[usize::from(byte)] {
            Class::Unreserved => at + 1,
            Class::Delimiter => {
                if !allowed.contains(byte) {
                    meet(Met::Delimiter(at));
                }
                at + 1
            }
            Class::Percent => {
                let hex =
                    |offset: usize| at + offset < end && bytes[at + offset].is_ascii_hexdigit();
                if hex(1) && hex(2) {
                    meet(Met::Escape(at));
                    at + 3
                } else {
                    meet(Met::BadEscape(at));
                    at + 1
                }
            }
            Class::Excluded => {
                meet(Met::Excluded(at));
                at + 1
            }
            Class::Control => {
                meet(Met::Control(at));
                at + 1
            }
            Class::NonAscii => {
                // A range that starts inside a character has had that
                // character reported by whoever checked the bytes before.
                if url.is_char_boundary(at) {
                    meet(Met::NonAscii(at));
                }
                char_span(url, at).end
            }
        };
    }
}

/// The character at `at`, which percent-encoding always repairs: `message`
/// is given how the character is written in words and its encoding. The
/// encoding names the same octets, so the fix is applied unasked.
pub(crate) fn encodable(
    url: &str,
    at: usize,
    rule: Rule,
    message: impl FnOnce(&str, &str) -> String,
) -> Diagnostic {
    let span = char_span(url, at);
    let encoded = percent_encode(url.get(span.range()).unwrap_or(""));
    let message = message(&describe_char(url, at), &encoded);
    Diagnostic::new(rule, span, message).with_fix(encoded, Applicability::MachineApplicable)
}

/// The reserved character at `at`, which the part called `part` gives no
/// role. Encoding it is only a suggestion: a URL with a reserved character
/// encoded is another URL (RFC 1738 section 2.2, RFC 3986 section 2.2), and
/// the author may have meant the delimiter rather than the data.
pub(crate) fn reserved(url: &str, at: usize, part: &str) -> Diagnostic {
    let byte = url.as_bytes()[at];
    let encoded = percent_encode(char::from(byte).encode_utf8(&mut [0; 4]));
    let message = format!(
        "reserved character '{}' has no role in the {part}; encode it as {encoded}",
        char::from(byte),
    );
    Diagnostic::new(Rule::ReservedChar, Span::new(at, at + 1), message)
        .with_fix(encoded, Applicability::Suggestion)
}

/// The `%` at `at` that starts no escape.
pub(crate) fn bad_escape(at: usize) -> Diagnostic {
    let message = "'%' is not followed by two hexadecimal digits";
    Diagnostic::new(Rule::BadEscape, Span::new(at, at + 1), message)
}

/// The escape at `at` when it encodes CR or LF in the part called `part`
/// and a protocol (`decoded_by`) decodes that part into its command stream.
pub(crate) fn encoded_newline(
    url: &str,
    at: usize,
    part: &str,
    decoded_by: Option<&str>,
) -> Option<Diagnostic> {
    let protocol = decoded_by?;
    let name = line_break_name(url.as_bytes().get(at..at + 3)?)?;
    let message =
        format!("encoded {name} in the {part} would be decoded into the {protocol} command stream");
    Some(Diagnostic::new(
        Rule::EncodedNewline,
        Span::new(at, at + 3),
        message,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASSES: Classes = Classes::new(ByteSet::of(b"ab-"), ByteSet::of(b"/?"));

    fn met(url: &str, allowed: &[u8]) -> Vec<Met> {
        let mut found = Vec::new();
        walk(url, 0..url.len(), &CLASSES, ByteSet::of(allowed), |m| {
            found.push(m)
        });
        found
    }

    #[test]
    fn byte_sets_hold_ascii_only() {
        let set = ByteSet::of(b"/?\xff").with(b"@").without(b"?");
        assert!(set.contains(b'/') && set.contains(b'@'));
        assert!(!set.contains(b'?') && !set.contains(0xFF) && !set.contains(b'a'));
        assert_eq!(ByteSet::of(b""), ByteSet::EMPTY);
    }

    #[test]
    fn a_walk_tells_each_class_once_in_order() {
        assert_eq!(met("ab-/", b"/"), []);
        assert_eq!(met("a?b", b"/"), [Met::Delimiter(1)]);
        assert_eq!(
            met("c\t%4\u{e9}%41", b""),
            [
                Met::Excluded(0),
                Met::Control(1),
                Met::BadEscape(2),
                Met::Excluded(3),
                Met::NonAscii(4),
                Met::Escape(6),
            ]
        );
    }

    #[test]
    fn an_escape_ends_at_the_range_end() {
        let mut found = Vec::new();
        walk("%ab", 0..2, &CLASSES, ByteSet::EMPTY, |m| found.push(m));
        assert_eq!(found, [Met::BadEscape(0)]);
    }

    #[test]
    fn a_range_starting_inside_a_character_skips_its_rest() {
        let url = "\u{e9}a";
        let mut found = Vec::new();
        walk(url, 1..url.len(), &CLASSES, ByteSet::EMPTY, |m| {
            found.push(m)
        });
        assert_eq!(found, []);
    }

    #[test]
    fn only_cr_and_lf_escapes_are_newlines() {
        assert!(encoded_newline("%0d%0A", 0, "path", Some("FTP")).is_some());
        assert!(encoded_newline("%0d%0A", 3, "path", Some("FTP")).is_some());
        assert!(encoded_newline("%20", 0, "path", Some("FTP")).is_none());
        assert!(encoded_newline("%0", 0, "path", Some("FTP")).is_none());
        assert!(encoded_newline("%0d", 0, "path", None).is_none());
    }
}
