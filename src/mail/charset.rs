//! Charset conversion to UTF-8 that keeps an offset map.
//!
//! mail-parser's decoders do the conversion; this module only decides how
//! finely the result can be mapped back. UTF-8 maps byte for byte. Other
//! charsets are decoded one line at a time (every charset mail uses keeps line
//! breaks as line breaks), and a line whose every byte became one character —
//! all single-byte charsets, iso-8859-*, windows-125x, koi8-r — maps character
//! by character; a multi-byte line maps as a whole.

use mail_parser::decoders::charsets::map::charset_decoder;

use crate::offset_map::OffsetMap;
use crate::span::Span;

/// Labels that name UTF-8 or its ASCII subset, decoded here byte for byte.
const UTF8_LABELS: &[&str] = &["utf-8", "utf8", "us-ascii", "ascii"];

/// A decoded text, its map onto the input bytes, and whether the charset
/// label was understood.
pub(super) struct Decoded {
    /// The text in UTF-8.
    pub text: String,
    /// Text spans to input byte spans.
    pub map: OffsetMap,
    /// False when the label named no known charset and UTF-8 was assumed.
    pub known_charset: bool,
}

/// What a charset label asks for.
enum Label {
    /// No label, or UTF-8 or ASCII: decoded here.
    Utf8,
    /// A charset one of mail-parser's decoders handles.
    Decoder(fn(&[u8]) -> String),
    /// A label no decoder knows.
    Unknown,
}

/// Classify a charset label (surrounding blanks and case ignored).
fn label(charset: Option<&str>) -> Label {
    match charset.map(str::trim).filter(|label| !label.is_empty()) {
        None => Label::Utf8,
        Some(label) if UTF8_LABELS.iter().any(|u| u.eq_ignore_ascii_case(label)) => Label::Utf8,
        Some(label) => charset_decoder(label.as_bytes()).map_or(Label::Unknown, Label::Decoder),
    }
}

/// True when `charset` names a charset that can be decoded.
pub(super) fn is_known(charset: Option<&str>) -> bool {
    !matches!(label(charset), Label::Unknown)
}

/// Convert `bytes` labelled `charset` (none: UTF-8) to UTF-8.
pub(super) fn decode(bytes: &[u8], charset: Option<&str>) -> Decoded {
    let (known_charset, (text, map)) = match label(charset) {
        Label::Decoder(decoder) => (true, decode_lines(bytes, decoder)),
        Label::Utf8 => (true, decode_utf8_lossy(bytes)),
        Label::Unknown => (false, decode_utf8_lossy(bytes)),
    };
    Decoded {
        text,
        map,
        known_charset,
    }
}

/// UTF-8 with each invalid sequence replaced by U+FFFD mapped to its bytes.
pub fn decode_utf8_lossy(bytes: &[u8]) -> (String, OffsetMap) {
    let mut text = String::with_capacity(bytes.len());
    let mut map = OffsetMap::new();
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid();
        map.push(
            Span::new(text.len(), text.len() + valid.len()),
            Span::new(at, at + valid.len()),
            true,
        );
        text.push_str(valid);
        at += valid.len();
        let invalid = chunk.invalid();
        if !invalid.is_empty() {
            map.push(
                Span::new(text.len(), text.len() + '\u{FFFD}'.len_utf8()),
                Span::new(at, at + invalid.len()),
                false,
            );
            text.push('\u{FFFD}');
            at += invalid.len();
        }
    }
    (text, map)
}

/// Decode line by line with one of mail-parser's charset decoders.
fn decode_lines(bytes: &[u8], decoder: fn(&[u8]) -> String) -> (String, OffsetMap) {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut map = OffsetMap::new();
    let mut at = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let decoded = decoder(line);
        if decoded.chars().count() == line.len() {
            map_char_per_byte(&decoded, text.len(), at, &mut map);
        } else {
            map.push(
                Span::new(text.len(), text.len() + decoded.len()),
                Span::new(at, at + line.len()),
                false,
            );
        }
        text.push_str(&decoded);
        at += line.len();
    }
    (text, map)
}

/// Map each character of `decoded` to the one input byte it came from.
fn map_char_per_byte(decoded: &str, text_start: usize, raw_start: usize, map: &mut OffsetMap) {
    for (index, (offset, ch)) in decoded.char_indices().enumerate() {
        let text = Span::new(text_start + offset, text_start + offset + ch.len_utf8());
        map.push(
            text,
            Span::new(raw_start + index, raw_start + index + 1),
            ch.is_ascii(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_8859_1_maps_each_character_to_its_byte() {
        let bytes = b"caf\xe9 http://a.example/";
        let decoded = decode(bytes, Some("ISO-8859-1"));
        assert_eq!(decoded.text, "café http://a.example/");
        let url = decoded.text.find("http").unwrap();
        assert_eq!(
            decoded.map.raw_span(Span::new(url, decoded.text.len())),
            Some(Span::new(5, bytes.len()))
        );
        assert_eq!(decoded.map.raw_span(Span::new(3, 5)), Some(Span::new(3, 4)));
    }

    #[test]
    fn koi8_r_decodes_cyrillic() {
        // "привет" in KOI8-R.
        let decoded = decode(b"\xd0\xd2\xc9\xd7\xc5\xd4 x", Some("koi8-r"));
        assert_eq!(decoded.text, "привет x");
        assert!(decoded.known_charset);
    }

    #[test]
    fn multi_byte_lines_map_as_whole_lines() {
        // "中文" in GB 2312, then a URL, then a second, ASCII-only line.
        let bytes = b"\xd6\xd0\xce\xc4 http://a.example/\nhttp://b.example/\n";
        let decoded = decode(bytes, Some("gb2312"));
        assert_eq!(decoded.text, "中文 http://a.example/\nhttp://b.example/\n");
        let a = decoded.text.find("http://a").unwrap();
        assert_eq!(
            decoded.map.raw_span(Span::new(a, a + 8)),
            Some(Span::new(0, 23))
        );
        let b = decoded.text.find("http://b").unwrap();
        assert_eq!(
            decoded.map.raw_span(Span::new(b, b + 8)),
            Some(Span::new(23, 31))
        );
    }

    #[test]
    fn bad_utf8_is_replaced_and_mapped() {
        let decoded = decode(b"a\xffb", Some("utf-8"));
        assert_eq!(decoded.text, "a\u{FFFD}b");
        assert_eq!(decoded.map.raw_span(Span::new(4, 5)), Some(Span::new(2, 3)));
    }

    #[test]
    fn unknown_label_falls_back_to_utf8() {
        let decoded = decode(b"abc", Some("x-no-such-charset"));
        assert_eq!(decoded.text, "abc");
        assert!(!decoded.known_charset);
    }
}
