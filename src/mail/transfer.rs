//! Quoted-printable decoding that remembers where each output byte came from.
//!
//! mail-parser decodes quoted-printable too, but returns only the decoded
//! text; diagnostics must point into the archive, so this decoder records an
//! [`OffsetMap`] as it goes. Base64 needs no such decoder: its output bytes
//! have no raw byte of their own, so mail-parser's result maps as a whole.

use crate::offset_map::OffsetMap;
use crate::span::Span;

/// Decode a quoted-printable body (RFC 2045 section 6.7).
///
/// Soft line breaks (`=` at a line end, even with trailing blanks) are
/// removed so that a URL cut by one is whole again; `=XX` becomes one byte
/// mapped to its three raw bytes; an `=` that starts neither is kept as it is,
/// the lenient reading that mail clients apply to hand-written bodies.
/// The map's raw offsets index `raw`.
pub fn decode_quoted_printable(raw: &[u8]) -> (Vec<u8>, OffsetMap) {
    let mut out = Vec::with_capacity(raw.len());
    let mut map = OffsetMap::new();
    let mut at = 0;
    while at < raw.len() {
        let run_end = memchr::memchr(b'=', &raw[at..]).map_or(raw.len(), |i| at + i);
        copy_run(raw, Span::new(at, run_end), &mut out, &mut map);
        at = run_end;
        if at >= raw.len() {
            break;
        }
        at = match escape_at(raw, at) {
            Escape::SoftBreak(end) => end,
            Escape::Byte(byte) => {
                map.push(
                    Span::new(out.len(), out.len() + 1),
                    Span::new(at, at + 3),
                    false,
                );
                out.push(byte);
                at + 3
            }
            Escape::Literal => {
                copy_run(raw, Span::new(at, at + 1), &mut out, &mut map);
                at + 1
            }
        };
    }
    (out, map)
}

/// What an `=` in a quoted-printable body stands for.
enum Escape {
    /// A soft line break ending just before this offset.
    SoftBreak(usize),
    /// `=XX`, the byte with that hex value.
    Byte(u8),
    /// Neither: the `=` is text.
    Literal,
}

/// Classify the `=` at `at`.
fn escape_at(raw: &[u8], at: usize) -> Escape {
    let rest = &raw[at + 1..];
    let blanks = rest
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    match rest.get(blanks..) {
        Some([]) => return Escape::SoftBreak(raw.len()),
        Some([b'\n', ..]) => return Escape::SoftBreak(at + 1 + blanks + 1),
        Some([b'\r', b'\n', ..]) => return Escape::SoftBreak(at + 1 + blanks + 2),
        _ => {}
    }
    match rest {
        [high, low, ..] => match (hex_value(*high), hex_value(*low)) {
            (Some(high), Some(low)) => Escape::Byte(high << 4 | low),
            _ => Escape::Literal,
        },
        _ => Escape::Literal,
    }
}

/// The value of a hex digit; lower case is accepted as encoders emit it too.
fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        _ => None,
    }
}

/// Copy `raw[span]` unchanged to the output, mapping it exactly.
fn copy_run(raw: &[u8], span: Span, out: &mut Vec<u8>, map: &mut OffsetMap) {
    map.push(Span::new(out.len(), out.len() + span.len()), span, true);
    out.extend_from_slice(&raw[span.range()]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (case, raw, decoded) per RFC 2045 section 6.7.
    const CASES: &[(&str, &str, &str)] = &[
        (
            "plain text is copied",
            "http://a.example/",
            "http://a.example/",
        ),
        ("rule 1 hex escape", "q=3Dv", "q=v"),
        ("rule 1 lower-case hex", "q=3dv", "q=v"),
        ("rule 5 soft break LF", "exam=\nple", "example"),
        ("rule 5 soft break CRLF", "exam=\r\nple", "example"),
        ("rule 3 blanks after soft break", "exam= \t\nple", "example"),
        ("soft break at end of body", "end=", "end"),
        ("bad escape kept literally", "a=ZZb", "a=ZZb"),
        ("truncated escape kept literally", "a=4", "a=4"),
        ("hard line break kept", "a\r\nb", "a\r\nb"),
    ];

    #[test]
    fn rfc2045_6_7_decoding() {
        for (case, raw, decoded) in CASES {
            let (out, _) = decode_quoted_printable(raw.as_bytes());
            assert_eq!(String::from_utf8_lossy(&out), *decoded, "{case}");
        }
    }

    #[test]
    fn rfc2045_6_7_soft_break_maps_to_the_raw_bytes_around_it() {
        let raw = b"see http://exam=\nple.com/ ok";
        let (out, map) = decode_quoted_printable(raw);
        let text = String::from_utf8_lossy(&out);
        let url = "http://example.com/";
        let start = text.find(url).unwrap();
        let span = map.raw_span(Span::new(start, start + url.len())).unwrap();
        assert_eq!(&raw[span.range()], b"http://exam=\nple.com/");
        assert_eq!(
            map.raw_spans(Span::new(start, start + url.len())),
            vec![Span::new(4, 15), Span::new(17, 25)]
        );
    }

    #[test]
    fn rfc2045_6_7_escape_maps_to_its_three_bytes() {
        let raw = b"?a=3Db";
        let (_, map) = decode_quoted_printable(raw);
        assert_eq!(map.raw_span(Span::new(2, 3)), Some(Span::new(2, 5)));
        assert_eq!(map.raw_span(Span::new(0, 4)), Some(Span::new(0, 6)));
    }
}
