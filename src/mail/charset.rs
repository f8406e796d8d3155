//! Charset conversion to UTF-8 that keeps an offset map.
//!
//! mail-parser's decoders do the conversion; this module only decides how
//! finely the result can be mapped back. UTF-8 maps byte for byte. Other
//! charsets are decoded one line at a time (every charset mail uses keeps line
//! breaks as line breaks), and a line whose every byte became one character —
//! all single-byte charsets, iso-8859-*, windows-125x, koi8-r — maps character
//! by character; a multi-byte line maps as a whole.
//!
//! Some labels have decoders that erase text: the WHATWG "replacement"
//! decoder that `iso-2022-kr`, `iso-2022-cn` and `hz-gb-2312` name turns a
//! whole body into one U+FFFD, and a UTF-16 decoder turns ASCII into CJK.
//! Such bodies (usually ASCII in practice) are read byte by byte instead,
//! ASCII as ASCII and other bytes as Latin-1, so URLs survive and map exactly.

use std::sync::OnceLock;

use mail_parser::decoders::charsets::map::charset_decoder;

use crate::offset_map::OffsetMap;
use crate::source::for_each_run;
use crate::span::Span;

/// Labels that name UTF-8 or its ASCII subset, decoded here byte for byte.
const UTF8_LABELS: &[&str] = &["utf-8", "utf8", "us-ascii", "ascii"];

/// Why a text was not decoded as its label says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CharsetProblem {
    /// The label names no known charset; the text was read as UTF-8.
    Unknown,
    /// The label's decoder erases any text; it was read byte by byte.
    Undecodable,
    /// The bytes cannot be in the labelled charset (UTF-16 without a NUL
    /// byte); they were read byte by byte.
    Mislabelled,
}

/// A decoded text, its map onto the input bytes, and why it was not decoded
/// as labelled, if it was not.
pub(super) struct Decoded {
    /// The text in UTF-8.
    pub text: String,
    /// Text spans to input byte spans.
    pub map: OffsetMap,
    /// Set when the label was not followed.
    pub problem: Option<CharsetProblem>,
}

/// A mail-parser charset decoder.
type Decoder = fn(&[u8]) -> String;

/// What a charset label asks for.
enum Label {
    /// No label, or UTF-8 or ASCII: decoded here.
    Utf8,
    /// A decoder that leaves ASCII as it is and line breaks as line breaks:
    /// run one line at a time.
    AsciiCompatible(Decoder),
    /// A decoder of two-byte units (UTF-16): run on the whole text.
    Wide(Decoder),
    /// A decoder that erases any text.
    Replacement,
    /// A label no decoder knows.
    Unknown,
}

/// Classify a charset label (surrounding blanks and case ignored), its
/// decoder by what it makes of a short ASCII line.
fn label(charset: Option<&str>) -> Label {
    let label = match charset.map(str::trim).filter(|label| !label.is_empty()) {
        None => return Label::Utf8,
        Some(label) if UTF8_LABELS.iter().any(|u| u.eq_ignore_ascii_case(label)) => {
            return Label::Utf8
        }
        Some(label) => label,
    };
    let Some(decoder) = charset_decoder(label.as_bytes()) else {
        return Label::Unknown;
    };
    match decoder(b"Az\n").as_str() {
        "Az\n" => Label::AsciiCompatible(decoder),
        "\u{FFFD}" => Label::Replacement,
        _ => Label::Wide(decoder),
    }
}

/// True when `charset` names a charset that can be decoded.
pub(super) fn is_known(charset: Option<&str>) -> bool {
    !matches!(label(charset), Label::Unknown)
}

/// True when `charset` decodes ASCII as ASCII, so that mail-parser's
/// decoding of a whole body is the text this module would give.
pub(super) fn is_ascii_compatible(charset: Option<&str>) -> bool {
    matches!(
        label(charset),
        Label::Utf8 | Label::AsciiCompatible(_) | Label::Unknown
    )
}

/// Convert `bytes` labelled `charset` (none: UTF-8) to UTF-8.
pub(super) fn decode(bytes: &[u8], charset: Option<&str>) -> Decoded {
    let (problem, (text, map)) = match label(charset) {
        Label::AsciiCompatible(decoder) => (None, decode_lines(bytes, decoder)),
        Label::Wide(decoder) if is_wide(bytes) => (None, decode_wide(bytes, decoder)),
        Label::Wide(_) => (Some(CharsetProblem::Mislabelled), decode_bytes(bytes)),
        Label::Replacement => (Some(CharsetProblem::Undecodable), decode_bytes(bytes)),
        Label::Utf8 => (None, decode_utf8_lossy(bytes)),
        Label::Unknown => (Some(CharsetProblem::Unknown), decode_utf8_lossy(bytes)),
    };
    Decoded { text, map, problem }
}

/// True when `bytes` can be UTF-16: a byte order mark, or a NUL byte, which
/// every UTF-16 text with a line break, a space or any ASCII letter has.
fn is_wide(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xFE, 0xFF]) || bytes.starts_with(&[0xFF, 0xFE]) || bytes.contains(&0)
}

/// Decode UTF-16 `bytes` with `decoder`, in the byte order their NUL bytes
/// show when they have no byte order mark and the label does not say it
/// (`utf-16`, `unicode`): mail-parser's decoder then reads them as
/// little-endian, which RFC 2781 (section 4.3) says is big-endian, and
/// either reading of the other's ASCII is CJK, its URLs lost. The NUL
/// bytes of ASCII characters are their high bytes: first in big-endian.
fn decode_wide(bytes: &[u8], decoder: Decoder) -> (String, OffsetMap) {
    let sniffs_mark = decoder(b"\xfe\xff\0A") == "A";
    let marked = bytes.starts_with(&[0xFE, 0xFF]) || bytes.starts_with(&[0xFF, 0xFE]);
    if sniffs_mark && !marked {
        let nuls = |from: usize| {
            bytes
                .iter()
                .skip(from)
                .step_by(2)
                .filter(|&&b| b == 0)
                .count()
        };
        if nuls(0) > nuls(1) {
            // The big-endian mark this decoder reads and drops.
            let text = decoder(&[&[0xFE, 0xFF], bytes].concat());
            let map = OffsetMap::whole(text.len(), Span::new(0, bytes.len()));
            return (text, map);
        }
    }
    decode_whole(bytes, decoder)
}

/// Decode the whole of `bytes` at once, mapped as a whole.
fn decode_whole(bytes: &[u8], decoder: Decoder) -> (String, OffsetMap) {
    let text = decoder(bytes);
    let map = OffsetMap::whole(text.len(), Span::new(0, bytes.len()));
    (text, map)
}

/// Each byte one character: ASCII as ASCII, others as Latin-1.
fn decode_bytes(bytes: &[u8]) -> (String, OffsetMap) {
    let text: String = bytes.iter().map(|&b| char::from(b)).collect();
    let mut map = OffsetMap::new();
    map_char_per_byte(&text, 0, 0, &mut map);
    (text, map)
}

/// UTF-8 with each invalid sequence replaced by U+FFFD mapped to its bytes.
pub fn decode_utf8_lossy(bytes: &[u8]) -> (String, OffsetMap) {
    let mut text = String::with_capacity(bytes.len());
    let mut map = OffsetMap::new();
    let mut at = 0;
    for_each_run(bytes, |valid, invalid| {
        map.push(
            Span::new(text.len(), text.len() + valid.len()),
            Span::new(at, at + valid.len()),
            true,
        );
        text.push_str(valid);
        at += valid.len();
        if !invalid.is_empty() {
            map.push(
                Span::new(text.len(), text.len() + '\u{FFFD}'.len_utf8()),
                Span::new(at, at + invalid.len()),
                false,
            );
            text.push('\u{FFFD}');
            at += invalid.len();
        }
    });
    (text, map)
}

/// Decode line by line with one of mail-parser's charset decoders.
///
/// Most lines of list mail in a single-byte charset are plain ASCII, which
/// such a decoder gives back as it is: asking the decoder (a new string
/// per line, then a map piece per character) cost more than the rest of
/// reading the text. A plain line is copied instead, once the decoder has
/// been seen to keep every plain byte (see [`is_plain_ascii`]); the text
/// and the map are the same.
fn decode_lines(bytes: &[u8], decoder: Decoder) -> (String, OffsetMap) {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut map = OffsetMap::new();
    let mut at = 0;
    let mut keeps_plain = None;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let is_plain = line.iter().all(|&byte| is_plain_ascii(byte))
            && *keeps_plain.get_or_insert_with(|| keeps_plain_ascii(decoder));
        if is_plain {
            map.push(
                Span::new(text.len(), text.len() + line.len()),
                Span::new(at, at + line.len()),
                true,
            );
            // Plain bytes are ASCII, which is UTF-8.
            text.push_str(std::str::from_utf8(line).expect("ASCII is UTF-8"));
        } else {
            push_decoded_line(line, at, decoder, &mut text, &mut map);
        }
        at += line.len();
    }
    (text, map)
}

/// Decode `line`, at `at` in the bytes, with `decoder` onto the end of
/// `text`, mapped by character where each came from one byte, else whole.
fn push_decoded_line(
    line: &[u8],
    at: usize,
    decoder: Decoder,
    text: &mut String,
    map: &mut OffsetMap,
) {
    let decoded = decoder(line);
    if decoded.chars().count() == line.len() {
        map_char_per_byte(&decoded, text.len(), at, map);
    } else {
        map.push(
            Span::new(text.len(), text.len() + decoded.len()),
            Span::new(at, at + line.len()),
            false,
        );
    }
    text.push_str(&decoded);
}

/// True for the bytes of plain ASCII text: printable ASCII, tabs and line
/// breaks, but not the bytes with which a stateful charset switches modes
/// (`+` in UTF-7, `~` in HZ; ESC, SO and SI in ISO-2022 are control
/// bytes), so that a line of them decodes byte by byte.
fn is_plain_ascii(byte: u8) -> bool {
    matches!(byte, b' '..=b'}' | b'\t' | b'\r' | b'\n') && byte != b'+'
}

/// True when `decoder` gives every plain ASCII byte back as it is.
fn keeps_plain_ascii(decoder: Decoder) -> bool {
    static PLAIN: OnceLock<String> = OnceLock::new();
    let plain = PLAIN.get_or_init(|| {
        (0..=u8::MAX)
            .filter(|&byte| is_plain_ascii(byte))
            .map(char::from)
            .collect()
    });
    decoder(plain.as_bytes()) == *plain
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
        assert_eq!(decoded.problem, None);
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
        assert_eq!(decoded.problem, Some(CharsetProblem::Unknown));
    }

    #[test]
    fn replacement_labels_are_read_byte_by_byte() {
        for label in ["iso-2022-kr", "ISO-2022-CN", "hz-gb-2312", "replacement"] {
            let decoded = decode(b"\x1b$)C http://a.example/\n", Some(label));
            assert_eq!(decoded.text, "\u{1b}$)C http://a.example/\n", "{label}");
            assert_eq!(decoded.problem, Some(CharsetProblem::Undecodable));
            assert_eq!(decoded.map.raw_span(Span::new(5, 9)), Some(Span::new(5, 9)));
        }
    }

    #[test]
    fn utf16_needs_a_byte_order_mark_or_a_nul() {
        let ascii = decode(b"http://a.example/\n", Some("utf-16"));
        assert_eq!(ascii.text, "http://a.example/\n");
        assert_eq!(ascii.problem, Some(CharsetProblem::Mislabelled));
        let wide = decode(b"\xff\xfeh\0t\0\n\0", Some("utf-16"));
        assert_eq!((wide.text.as_str(), wide.problem), ("ht\n", None));
        let little = decode(b"h\0t\0", Some("UTF-16LE"));
        assert_eq!(little.text, "ht");
    }

    /// RFC 2781 section 4.3: `utf-16` text without a byte order mark is
    /// big-endian; what its NUL bytes show wins, so that the little-endian
    /// text some senders label so reads too.
    #[test]
    fn utf16_without_a_mark_is_read_in_the_order_its_nuls_show() {
        let url = "see http://a.example/~x \u{1D11E}\r\n";
        let big: Vec<u8> = url.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let little: Vec<u8> = url.encode_utf16().flat_map(u16::to_le_bytes).collect();
        for label in ["utf-16", "UTF-16", "unicode"] {
            for bytes in [&big, &little] {
                let decoded = decode(bytes, Some(label));
                assert_eq!((decoded.text.as_str(), decoded.problem), (url, None));
                assert_eq!(
                    decoded.map.raw_span(Span::new(0, url.len())),
                    Some(Span::new(0, bytes.len()))
                );
            }
        }
        // A label that names the order is followed.
        let named = decode(&big, Some("utf-16le"));
        assert_ne!(named.text, url);
    }

    /// The line-by-line decoding without the plain-line copy: every line
    /// asked of the decoder.
    fn decode_every_line(bytes: &[u8], decoder: Decoder) -> (String, OffsetMap) {
        let mut text = String::new();
        let mut map = OffsetMap::new();
        let mut at = 0;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            push_decoded_line(line, at, decoder, &mut text, &mut map);
            at += line.len();
        }
        (text, map)
    }

    /// Labels of ASCII-compatible charsets of every kind: single-byte,
    /// multi-byte, and stateful ones that switch modes with ASCII bytes.
    const ASCII_COMPATIBLE: &[&str] = &[
        "iso-8859-1",
        "windows-1252",
        "koi8-r",
        "iso-8859-7",
        "shift_jis",
        "euc-jp",
        "gb18030",
        "big5",
        "euc-kr",
        "iso-2022-jp",
        "utf-7",
        "x-user-defined",
    ];

    proptest::proptest! {
        #[test]
        fn plain_lines_decode_as_the_decoder_decodes_them(
            bytes in proptest::collection::vec(proptest::prop_oneof![
                proptest::prelude::Just(b'\n'),
                proptest::prelude::Just(b'+'),
                proptest::prelude::Just(b'~'),
                proptest::prelude::Just(0x1b),
                proptest::prelude::Just(b'$'),
                proptest::prelude::Just(b'B'),
                0x20u8..0x7f,
                proptest::prelude::any::<u8>(),
            ], 0..80),
        ) {
            for name in ASCII_COMPATIBLE {
                let Label::AsciiCompatible(decoder) = label(Some(name)) else {
                    continue;
                };
                let (text, map) = decode_lines(&bytes, decoder);
                let (expected_text, expected_map) = decode_every_line(&bytes, decoder);
                proptest::prop_assert_eq!(&text, &expected_text, "{}", name);
                proptest::prop_assert_eq!(map.pieces(), expected_map.pieces(), "{}", name);
            }
        }
    }

    #[test]
    fn stateful_charsets_are_decoded_by_their_decoder() {
        // ISO-2022-JP's escapes and UTF-7's shifts are ASCII bytes that are
        // not plain: such lines still go to the decoder.
        for (name, bytes, expected) in [
            (
                "iso-2022-jp",
                &b"\x1b$B$H\x1b(B http://a/\n"[..],
                "\u{3068} http://a/\n",
            ),
            ("utf-7", b"caf+AOk- http://a/\n", "caf\u{e9} http://a/\n"),
            ("iso-8859-1", b"plain http://a/\n", "plain http://a/\n"),
        ] {
            let Label::AsciiCompatible(decoder) = label(Some(name)) else {
                panic!("{name} is ASCII-compatible");
            };
            assert_eq!(decode_lines(bytes, decoder).0, expected, "{name}");
        }
    }
}
