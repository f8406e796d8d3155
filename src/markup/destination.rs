//! Where a Markdown link's destination is written, and its value decoded
//! with a map back to those bytes.
//!
//! The parser says which links exist and what their destinations are, but
//! not where a destination's bytes are. They are found here by CommonMark's
//! own rules (a destination in `<...>`, or a run of non-space characters
//! with balanced parentheses, after the link text's `](` or a definition's
//! `]:`), decoded here (backslash escapes, character references), and the
//! result is checked against the parser's value: should they differ, the
//! parser's value is kept and mapped as a whole onto the bytes found.

use super::document::{Decoded, Link, LinkSyntax};
use super::html;
use crate::offset_map::OffsetMap;
use crate::span::Span;

/// The longest character reference worth decoding (`&CounterClockwiseContourIntegral;`
/// is the longest name); a `;` further away is not this `&`'s.
const MAX_REFERENCE_LEN: usize = 40;

/// The destination of the inline link or image `link`, whose text ends at
/// or after `text_end`; `dest` is the parser's value.
pub(super) fn inline(source: &str, link: Span, text_end: usize, dest: &str) -> Option<Link> {
    let bytes = source.as_bytes();
    let close = text_end + memchr::memchr(b']', bytes.get(text_end..link.end)?)?;
    if bytes.get(close + 1) != Some(&b'(') {
        return None;
    }
    let at = skip_blank(bytes, close + 2, link.end);
    lexed(source, at, link.end, Some(dest))
}

/// The destination of the reference definition starting with the `[` at
/// `open` (`[label]: dest "title"`, before `end`); `dest` is the parser's
/// value when it knows this definition.
pub(super) fn definition(
    source: &str,
    open: usize,
    end: usize,
    dest: Option<&str>,
) -> Option<Link> {
    let bytes = source.as_bytes();
    if bytes.get(open) != Some(&b'[') {
        return None;
    }
    let mut at = open + 1;
    while at < end && !matches!(bytes[at], b']' | b'[') {
        at += if bytes[at] == b'\\' { 2 } else { 1 };
    }
    if at >= end || bytes[at] != b']' || bytes.get(at + 1) != Some(&b':') {
        return None;
    }
    let at = skip_blank(bytes, at + 2, end);
    lexed(source, at, end, dest)
}

/// Where the reference definitions written in `gap`, source bytes outside
/// every leaf block, start: a `[` opening a line after container markers
/// (block quote `>`, list item markers, indentation), not a footnote's
/// `[^`. A definition makes no event of its own, and the parser keeps only
/// the first of several with one label, so later ones are found here.
pub(super) fn definition_starts(source: &str, gap: Span) -> Vec<usize> {
    let bytes = source.as_bytes();
    let mut starts = Vec::new();
    if memchr::memmem::find(&bytes[gap.range()], b"]:").is_none() {
        return starts;
    }
    let mut line = gap.start;
    while line < gap.end {
        let line_end = memchr::memchr(b'\n', &bytes[line..gap.end]).map_or(gap.end, |i| line + i);
        let at = after_container_markers(bytes, line, line_end);
        let opens = bytes.get(at) == Some(&b'[') && bytes.get(at + 1) != Some(&b'^');
        let labelled = at < line_end && memchr::memmem::find(&bytes[at..line_end], b"]:").is_some();
        if opens && labelled {
            starts.push(at);
        }
        line = line_end + 1;
    }
    starts
}

/// The first byte of a line's content after block quote markers, list item
/// markers and indentation.
fn after_container_markers(bytes: &[u8], mut at: usize, end: usize) -> usize {
    loop {
        let start = at;
        while at < end && matches!(bytes[at], b' ' | b'\t') {
            at += 1;
        }
        if at < end && bytes[at] == b'>' {
            at += 1;
            continue;
        }
        let digits = bytes[at..end]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let marker = match bytes.get(at + digits) {
            Some(b'-' | b'*' | b'+') if digits == 0 => 1,
            Some(b'.' | b')') if digits > 0 => digits + 1,
            _ => 0,
        };
        if marker > 0 && at + marker < end && matches!(bytes[at + marker], b' ' | b'\t') {
            at += marker;
            continue;
        }
        if at == start {
            return at;
        }
    }
}

/// The destination of the autolink `link` (`<scheme:...>`), written as is.
pub(super) fn autolink(source: &str, link: Span, dest: &str) -> Option<Link> {
    let inner = Span::new(link.start + 1, link.end.checked_sub(1)?);
    let written = source.get(inner.range())?;
    let map = if written == dest {
        OffsetMap::identity(inner)
    } else {
        OffsetMap::whole(dest.len(), inner)
    };
    Some(Link {
        value: dest.to_string(),
        map,
        outer: link,
        syntax: LinkSyntax::Markdown,
    })
}

/// Skip blanks (spaces, tabs, vertical tabs and form feeds, as
/// pulldown-cmark does) and at most one line break, with the block quote
/// markers and indentation that open the next line inside a container.
fn skip_blank(bytes: &[u8], mut at: usize, end: usize) -> usize {
    let mut line_break = false;
    while at < end {
        match bytes[at] {
            b' ' | b'\t' | 0x0b | 0x0c => at += 1,
            b'>' if line_break => at += 1,
            b'\n' | b'\r' if !line_break => {
                line_break = true;
                at += if bytes[at..end].starts_with(b"\r\n") {
                    2
                } else {
                    1
                };
            }
            _ => break,
        }
    }
    at
}

/// The destination starting at `at` (before `end`), decoded and checked
/// against the parser's `dest` when it is known. An empty destination is
/// no link.
fn lexed(source: &str, at: usize, end: usize, dest: Option<&str>) -> Option<Link> {
    if dest == Some("") {
        return None;
    }
    let bytes = source.as_bytes();
    let (raw, outer) = if bytes.get(at) == Some(&b'<') {
        let close = angle_end(bytes, at + 1, end).unwrap_or(end);
        (
            Span::new(at + 1, close),
            Span::new(at, (close + 1).min(end)),
        )
    } else {
        let raw = Span::new(at, raw_end(bytes, at, end));
        (raw, raw)
    };
    let decoded = decode(source, raw);
    // Bytes found that read otherwise than the parser's value are still
    // where the destination is written; no bytes at all, and the rest of
    // the link is.
    let (raw, outer) = if raw.is_empty() {
        let rest = Span::new(at, end);
        (rest, rest)
    } else {
        (raw, outer)
    };
    if raw.is_empty() {
        return None;
    }
    let Decoded { text, map } = match dest {
        Some(dest) if dest != decoded.text => Decoded {
            text: dest.to_string(),
            map: OffsetMap::whole(dest.len(), raw),
        },
        _ => decoded,
    };
    if text.is_empty() {
        return None;
    }
    Some(Link {
        value: text,
        map,
        outer,
        syntax: LinkSyntax::Markdown,
    })
}

/// The `>` closing an angle-bracket destination whose content starts at
/// `at`; `None` when a line break or an unescaped `<` comes first.
fn angle_end(bytes: &[u8], mut at: usize, end: usize) -> Option<usize> {
    while at < end {
        match bytes[at] {
            b'\\' if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) => at += 2,
            b'>' => return Some(at),
            b'<' | b'\n' | b'\r' => return None,
            _ => at += 1,
        }
    }
    None
}

/// The end of a destination without angle brackets starting at `at`: the
/// first space or control character, or an unbalanced `)`.
fn raw_end(bytes: &[u8], mut at: usize, end: usize) -> usize {
    let mut depth = 0usize;
    while at < end {
        // Most of a destination is bytes that end nothing: one table
        // look-up each.
        if !SPECIAL_BYTES[usize::from(bytes[at])] {
            at += 1;
            continue;
        }
        match bytes[at] {
            b'\\' if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) => at += 2,
            b'(' => {
                depth += 1;
                at += 1;
            }
            b')' if depth == 0 => break,
            b')' => {
                depth -= 1;
                at += 1;
            }
            byte if byte <= b' ' || byte == 0x7f => break,
            _ => at += 1,
        }
    }
    at.min(end)
}

/// The bytes [`raw_end`] must look at: a backslash, parentheses, spaces
/// and control characters. Any other byte goes on the destination.
const SPECIAL_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = matches!(byte as u8, b'\\' | b'(' | b')' | 0..=b' ' | 0x7f);
        byte += 1;
    }
    table
};

/// The destination written at `raw`, backslash escapes and character
/// references decoded, each decoded piece mapped as a whole.
fn decode(source: &str, raw: Span) -> Decoded {
    let bytes = source.as_bytes();
    let mut decoded = Decoded::default();
    let mut copied_from = raw.start;
    let mut at = raw.start;
    while let Some(offset) = bytes
        .get(at..raw.end)
        .and_then(|rest| memchr::memchr2(b'\\', b'&', rest))
    {
        at += offset;
        let special = match bytes[at] {
            b'\\'
                if bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) && at + 1 < raw.end =>
            {
                Some((source[at + 1..at + 2].to_string(), 2))
            }
            b'&' => reference(&source[at..raw.end]),
            _ => None,
        };
        let Some((text, len)) = special else {
            at += 1;
            continue;
        };
        push(&mut decoded, source, Span::new(copied_from, at), None);
        push(&mut decoded, source, Span::new(at, at + len), Some(&text));
        at += len;
        copied_from = at;
    }
    push(&mut decoded, source, Span::new(copied_from, raw.end), None);
    decoded
}

/// Append the source bytes `raw` to `decoded`, or `text` decoded from them.
fn push(decoded: &mut Decoded, source: &str, raw: Span, text: Option<&str>) {
    let Some(text) = text.or_else(|| source.get(raw.range())) else {
        return;
    };
    let at = decoded.text.len();
    decoded.text.push_str(text);
    let exact = text.len() == raw.len() && source.get(raw.range()) == Some(text);
    decoded
        .map
        .push(Span::new(at, decoded.text.len()), raw, exact);
}

/// The character reference at the start of `text` (CommonMark: an HTML5
/// entity name, or a decimal or hexadecimal code, always closed by `;`):
/// what it stands for and its length.
fn reference(text: &str) -> Option<(String, usize)> {
    let window = &text.as_bytes()[..text.len().min(MAX_REFERENCE_LEN)];
    let len = memchr::memchr(b';', window)? + 1;
    let body = &text[1..len - 1];
    let decoded = match body.strip_prefix('#') {
        Some(number) => numeric(number)?,
        None => {
            let named = body.starts_with(|c: char| c.is_ascii_alphabetic())
                && body.bytes().all(|b| b.is_ascii_alphanumeric());
            if !named {
                return None;
            }
            html::decode_reference(&text[..len])?
        }
    };
    Some((decoded, len))
}

/// The character of a numeric reference's body (`38`, `x26`): 1 to 7
/// decimal or 1 to 6 hexadecimal digits; zero, surrogates and values past
/// Unicode give U+FFFD.
fn numeric(number: &str) -> Option<String> {
    let (digits, radix, max_len) = match number.strip_prefix(['x', 'X']) {
        Some(hex) => (hex, 16, 6),
        None => (number, 10, 7),
    };
    let valid =
        !digits.is_empty() && digits.len() <= max_len && digits.chars().all(|c| c.is_digit(radix));
    if !valid {
        return None;
    }
    let value = u32::from_str_radix(digits, radix).ok()?;
    let c = match value {
        0 => char::REPLACEMENT_CHARACTER,
        value => char::from_u32(value).unwrap_or(char::REPLACEMENT_CHARACTER),
    };
    Some(c.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The destination's value and the source bytes of each of its pieces.
    fn pieces<'s>(source: &'s str, link: &Link) -> (String, Vec<&'s str>) {
        let pieces = link
            .map
            .pieces()
            .iter()
            .map(|piece| &source[piece.raw.range()])
            .collect();
        (link.value.clone(), pieces)
    }

    #[test]
    fn commonmark_6_3_destinations_escapes_and_references_map_piecewise() {
        let cases: &[(&str, &str, &[&str])] = &[
            (
                "[a](http://x.example/)",
                "http://x.example/",
                &["http://x.example/"],
            ),
            (
                "[a](<http://x.example/a b> \"t\")",
                "http://x.example/a b",
                &["http://x.example/a b"],
            ),
            (
                "[a](http://x.example/\\(p\\)&amp;q)",
                "http://x.example/(p)&q",
                &["http://x.example/", "\\(", "p", "\\)", "&amp;", "q"],
            ),
            (
                "[a](http://x.example/(b)c 'title')",
                "http://x.example/(b)c",
                &["http://x.example/(b)c"],
            ),
            (
                "[a](http://x.example/&#x41;&#0;)",
                "http://x.example/A\u{fffd}",
                &["http://x.example/", "&#x41;", "&#0;"],
            ),
            (
                "[a](http://x.example/&eacute;&notit;)",
                "http://x.example/é&notit;",
                &["http://x.example/", "&eacute;", "&notit;"],
            ),
            // A backslash before a letter is itself; `&` without `;` is
            // no reference; parentheses nest, twice.
            (
                "[a](http://x.example/a\\b&c\\*d)",
                "http://x.example/a\\b&c*d",
                &["http://x.example/a\\b&c", "\\*", "d"],
            ),
            (
                "[a](http://x.example/((a))b)",
                "http://x.example/((a))b",
                &["http://x.example/((a))b"],
            ),
        ];
        for &(source, dest, expected) in cases {
            let link = inline(source, Span::new(0, source.len()), 2, dest).expect(source);
            assert_eq!(
                pieces(source, &link),
                (dest.to_string(), expected.to_vec()),
                "{source}"
            );
        }
    }

    #[test]
    fn the_link_text_may_hold_brackets_and_the_destination_may_wrap() {
        let source = "[![b](http://i.example/)](\n> http://l.example/)";
        let link =
            inline(source, Span::new(0, source.len()), 24, "http://l.example/").expect("link");
        assert_eq!(&source[link.outer.range()], "http://l.example/");
    }

    #[test]
    fn commonmark_4_7_definitions() {
        let source = "  [a\\]b]:\n   <http://d.example/x> 'title'";
        let known = Some("http://d.example/x");
        let link = definition(source, 2, source.len(), known).expect("definition");
        assert_eq!(&source[link.outer.range()], "<http://d.example/x>");
        assert_eq!(pieces(source, &link).1, ["http://d.example/x"]);
        let unverified = definition(source, 2, source.len(), None).expect("definition");
        assert_eq!(unverified.value, "http://d.example/x");
        assert_eq!(definition(source, 0, source.len(), None), None);
    }

    #[test]
    fn commonmark_4_7_definitions_start_lines_after_container_markers() {
        let source = "[a]: x\n> [b]: y\n - [c]: z\n12. [d]: w\n[^e]: v\n[f] g\n    [h]: u\n";
        let starts: Vec<char> = definition_starts(source, Span::new(0, source.len()))
            .into_iter()
            .map(|at| char::from(source.as_bytes()[at + 1]))
            .collect();
        assert_eq!(starts, ['a', 'b', 'c', 'd', 'h']);
    }

    #[test]
    fn a_value_the_parser_reads_otherwise_maps_as_a_whole() {
        let source = "[a](http://x.example/)";
        let link = inline(
            source,
            Span::new(0, source.len()),
            2,
            "http://other.example/",
        )
        .expect("link");
        assert_eq!(link.value, "http://other.example/");
        assert_eq!(link.map.pieces().len(), 1);
        assert!(!link.map.pieces()[0].exact);
        assert_eq!(inline(source, Span::new(0, source.len()), 2, ""), None);
    }
}
