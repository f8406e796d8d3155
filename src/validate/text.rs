//! The URL text as both profiles see it: character spans, how messages
//! name a character, and percent-encoding.

use crate::span::Span;

/// The `%XX` encoding of every byte of `text`.
pub(crate) fn percent_encode(text: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut encoded = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        encoded.push('%');
        encoded.push(char::from(HEX[usize::from(byte >> 4)]));
        encoded.push(char::from(HEX[usize::from(byte & 0xF)]));
    }
    encoded
}

/// The span of the character starting at byte `at`, which callers keep on a
/// char boundary; a stray continuation byte yields a one-byte span.
pub(crate) fn char_span(url: &str, at: usize) -> Span {
    let len = url
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(1, char::len_utf8);
    Span::new(at, (at + len).min(url.len()))
}

/// The character at byte `at` written for a message: `'~'`, `' ' (space)`,
/// `U+000A` for control characters.
pub(crate) fn describe_char(url: &str, at: usize) -> String {
    let text = url.get(char_span(url, at).range()).unwrap_or("");
    match text.chars().next() {
        Some(' ') => "' ' (space)".to_string(),
        Some(c) if c.is_control() => format!("U+{:04X}", c as u32),
        Some(c) => format!("'{c}'"),
        None => "a byte".to_string(),
    }
}

/// "CR" or "LF" when `escape` (three bytes `%XX`) encodes one of them.
pub(crate) fn line_break_name(escape: &[u8]) -> Option<&'static str> {
    match escape {
        [b'%', b'0', b'd' | b'D'] => Some("CR (%0D)"),
        [b'%', b'0', b'a' | b'A'] => Some("LF (%0A)"),
        _ => None,
    }
}
