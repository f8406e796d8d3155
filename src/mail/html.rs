//! HTML parts turned into text in which the scanner finds URLs.
//!
//! The output is the visible text, entities decoded, with each URL-bearing
//! attribute value (`href`, `src`, ...) placed on a line of its own where the
//! tag was, so a link reads as a bare URL. Tags are dropped, block-level tags
//! become line breaks, scripts, styles and comments vanish. Every output byte
//! that came from the input maps back to it; the inserted line breaks map
//! nowhere.

use super::offset_map::OffsetMap;
use crate::span::Span;

/// Attributes whose value is a URL (HTML 4.01 `%URI;` attributes in mail use).
const URL_ATTRIBUTES: &[&str] = &["href", "src", "action", "cite", "background", "longdesc"];

/// Tags that end a line of visible text.
const BLOCK_TAGS: &[&str] = &[
    "br",
    "p",
    "div",
    "li",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "pre",
    "hr",
    "table",
    "ul",
    "ol",
    "dl",
    "dt",
    "dd",
];

/// Elements whose content is not text.
const RAW_TEXT_ELEMENTS: &[&str] = &["script", "style"];

/// Named character references that occur in mail; others are left as written.
const NAMED_ENTITIES: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", '\u{A0}'),
    ("copy", '©'),
    ("reg", '®'),
    ("trade", '™'),
    ("hellip", '…'),
    ("ndash", '–'),
    ("mdash", '—'),
    ("lsquo", '‘'),
    ("rsquo", '’'),
    ("ldquo", '“'),
    ("rdquo", '”'),
    ("laquo", '«'),
    ("raquo", '»'),
    ("middot", '·'),
    ("bull", '•'),
];

/// Text extracted from an HTML document and its map onto the document.
pub struct HtmlText {
    /// Visible text and attribute URLs.
    pub text: String,
    /// Text spans to document byte spans.
    pub map: OffsetMap,
}

/// Extract the scanner's text from `html`.
pub fn extract(html: &str) -> HtmlText {
    let mut out = HtmlText {
        text: String::with_capacity(html.len()),
        map: OffsetMap::new(),
    };
    let mut at = 0;
    while at < html.len() {
        let next = memchr::memchr(b'<', &html.as_bytes()[at..]).map_or(html.len(), |i| at + i);
        decode_entities(html, Span::new(at, next), &mut out);
        if next >= html.len() {
            break;
        }
        at = markup(html, next, &mut out);
    }
    out
}

/// Handle the markup starting with the `<` at `at`; returns where text resumes.
fn markup(html: &str, at: usize, out: &mut HtmlText) -> usize {
    let rest = &html[at..];
    if rest.starts_with("<!--") {
        return rest.find("-->").map_or(html.len(), |end| at + end + 3);
    }
    let name_len = rest[1..]
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'/' || *b == b'!')
        .count();
    if name_len == 0 {
        // A `<` that opens no tag is text.
        decode_entities(html, Span::new(at, at + 1), out);
        return at + 1;
    }
    let name = rest[1..1 + name_len]
        .trim_start_matches('/')
        .to_ascii_lowercase();
    let attributes_start = at + 1 + name_len;
    let tag_end = tag_end(html, attributes_start);
    let attributes_end = if html[..tag_end].ends_with('>') {
        tag_end - 1
    } else {
        tag_end
    };
    attributes(
        html,
        Span::new(attributes_start, attributes_end.max(attributes_start)),
        out,
    );
    if BLOCK_TAGS.contains(&name.as_str()) {
        out.text.push('\n');
    }
    if RAW_TEXT_ELEMENTS.contains(&name.as_str()) && !rest[1..].starts_with('/') {
        return skip_raw_text(html, tag_end, &name);
    }
    tag_end
}

/// The offset just past the `>` closing a tag whose attributes start at `at`,
/// skipping `>` inside quoted values.
fn tag_end(html: &str, at: usize) -> usize {
    let bytes = html.as_bytes();
    let mut quote = None;
    for (index, &byte) in bytes[at..].iter().enumerate() {
        match (quote, byte) {
            (None, b'"' | b'\'') => quote = Some(byte),
            (Some(q), _) if q == byte => quote = None,
            (None, b'>') => return at + index + 1,
            _ => {}
        }
    }
    html.len()
}

/// Skip the content of a `<script>` or `<style>` element up to its end tag
/// (matched without regard to case, without copying the document).
fn skip_raw_text(html: &str, at: usize, name: &str) -> usize {
    let bytes = html.as_bytes();
    let mut from = at;
    while let Some(found) = memchr::memmem::find(&bytes[from..], b"</") {
        let name_start = from + found + 2;
        let name_end = name_start + name.len();
        if bytes
            .get(name_start..name_end)
            .is_some_and(|candidate| candidate.eq_ignore_ascii_case(name.as_bytes()))
        {
            return tag_end(html, name_end);
        }
        from = name_start;
    }
    html.len()
}

/// Emit the URL-bearing attribute values among the attributes in `span`.
fn attributes(html: &str, span: Span, out: &mut HtmlText) {
    let bytes = html.as_bytes();
    let mut at = span.start;
    while at < span.end {
        while at < span.end && !bytes[at].is_ascii_alphabetic() {
            at += 1;
        }
        let name_start = at;
        while at < span.end && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'-') {
            at += 1;
        }
        let name = &html[name_start..at];
        let Some(value) = attribute_value(bytes, at, span.end) else {
            continue;
        };
        at = value.end
            + usize::from(value.end < span.end && matches!(bytes[value.end], b'"' | b'\''));
        if URL_ATTRIBUTES.iter().any(|a| a.eq_ignore_ascii_case(name)) {
            out.text.push('\n');
            decode_entities(html, trim_span(html, value), out);
            out.text.push('\n');
        }
    }
}

/// The value after an attribute name ending at `at`, quotes excluded.
fn attribute_value(bytes: &[u8], mut at: usize, end: usize) -> Option<Span> {
    while at < end && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    if at >= end || bytes[at] != b'=' {
        return None;
    }
    at += 1;
    while at < end && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    match bytes.get(at) {
        Some(&quote @ (b'"' | b'\'')) if at < end => {
            let close = memchr::memchr(quote, &bytes[at + 1..end]).map_or(end, |i| at + 1 + i);
            Some(Span::new(at + 1, close))
        }
        _ => {
            let stop = bytes[at..end]
                .iter()
                .position(|b| b.is_ascii_whitespace())
                .map_or(end, |i| at + i);
            Some(Span::new(at, stop))
        }
    }
}

/// `span` without surrounding ASCII whitespace (HTML strips it from URLs).
fn trim_span(html: &str, span: Span) -> Span {
    let value = &html[span.range()];
    let start = span.start + (value.len() - value.trim_start().len());
    Span::new(start, start.max(span.start + value.trim_end().len()))
}

/// Append `html[span]` with character references decoded.
fn decode_entities(html: &str, span: Span, out: &mut HtmlText) {
    let mut at = span.start;
    while at < span.end {
        let amp = memchr::memchr(b'&', &html.as_bytes()[at..span.end]).map_or(span.end, |i| at + i);
        copy(html, Span::new(at, amp), out);
        if amp >= span.end {
            break;
        }
        match entity(&html[amp..span.end]) {
            Some((ch, len)) => {
                let start = out.text.len();
                out.text.push(ch);
                out.map.push(
                    Span::new(start, out.text.len()),
                    Span::new(amp, amp + len),
                    false,
                );
                at = amp + len;
            }
            None => {
                copy(html, Span::new(amp, amp + 1), out);
                at = amp + 1;
            }
        }
    }
}

/// Copy `html[span]` unchanged.
fn copy(html: &str, span: Span, out: &mut HtmlText) {
    let start = out.text.len();
    out.text.push_str(&html[span.range()]);
    out.map.push(Span::new(start, out.text.len()), span, true);
}

/// The character a reference at the start of `text` stands for, and the
/// reference's length including `&` and `;`.
fn entity(text: &str) -> Option<(char, usize)> {
    // The longest reference worth decoding is well under 32 bytes; a `;`
    // further away belongs to the text, not to this `&`.
    let window = &text.as_bytes()[..text.len().min(32)];
    let semicolon = memchr::memchr(b';', window)?;
    let body = &text[1..semicolon];
    let ch = match body.strip_prefix('#') {
        Some(number) => {
            let value = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse().ok()?,
            };
            char::from_u32(value)?
        }
        None => NAMED_ENTITIES.iter().find(|(name, _)| *name == body)?.1,
    };
    Some((ch, semicolon + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn href_value_is_decoded_and_mapped_to_the_attribute() {
        let html = r#"<p>See <a href="http://a.example/?x=1&amp;y=2">here</a>.</p>"#;
        let out = extract(html);
        assert_eq!(out.text, "\nSee \nhttp://a.example/?x=1&y=2\nhere.\n");
        let url = "http://a.example/?x=1&y=2";
        let start = out.text.find(url).unwrap();
        let raw = out
            .map
            .raw_span(Span::new(start, start + url.len()))
            .unwrap();
        assert_eq!(&html[raw.range()], "http://a.example/?x=1&amp;y=2");
    }

    #[test]
    fn scripts_styles_and_comments_are_not_text() {
        let out = extract("a<style>p{}</style>b<!-- c -->d<SCRIPT>x</y</Script >e");
        assert_eq!(out.text, "abde");
        assert_eq!(extract("a<script>never closed").text, "a");
    }

    #[test]
    fn entities_numeric_named_and_unknown() {
        let out = extract("&lt;&#65;&#x42;&hellip;&bogus;&");
        assert_eq!(out.text, "<AB…&bogus;&");
    }

    #[test]
    fn unquoted_and_single_quoted_values() {
        let out = extract("<img src=http://a.example/i.png alt='x'><a HREF='ftp://b.example/'>");
        assert_eq!(out.text, "\nhttp://a.example/i.png\n\nftp://b.example/\n");
    }

    #[test]
    fn stray_angle_bracket_and_unclosed_tag_do_not_panic() {
        assert_eq!(extract("1 < 2").text, "1 < 2");
        assert_eq!(
            extract("<a href=\"http://x.example").text,
            "\nhttp://x.example\n"
        );
    }
}
