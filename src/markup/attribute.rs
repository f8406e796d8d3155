//! Which HTML attributes hold URLs, and where the URLs are in their values:
//! the whole value (`href`, `src`, ...), each candidate of a `srcset`, the
//! target of a `<meta http-equiv=refresh>`.

use super::document::{Decoded, Link, LinkSyntax};
use crate::span::Span;

/// Attributes whose whole value is a URL (HTML's URL-valued attributes,
/// and the legacy ones mail still uses).
const URL_ATTRIBUTES: &[&[u8]] = &[
    b"href",
    b"src",
    b"action",
    b"formaction",
    b"cite",
    b"poster",
    b"background",
    b"longdesc",
];

/// One attribute of a start tag, its value decoded.
#[derive(Debug, Clone)]
pub(super) struct Attribute {
    /// The name, lower case (the tokenizer folds it).
    pub name: Vec<u8>,
    /// The value.
    pub value: Decoded,
}

/// The URLs in the attributes of a start tag named `tag`, in source order.
pub(super) fn links(tag: &[u8], attributes: &[Attribute]) -> Vec<Link> {
    // A refresh names its target in the first `content` attribute.
    let refresh = tag == b"meta" && is_refresh(attributes);
    let content = attributes
        .iter()
        .position(|a| a.name == b"content")
        .filter(|_| refresh);
    let mut links = Vec::new();
    for (at, attribute) in attributes.iter().enumerate() {
        let name = attribute.name.as_slice();
        let value = &attribute.value;
        if URL_ATTRIBUTES.contains(&name) {
            links.extend(trimmed(value));
        } else if name == b"srcset" {
            links.extend(srcset(&value.text).map(|url| value.slice(url)));
        } else if content == Some(at) {
            let url = refresh_url(&value.text).map(|url| value.slice(url));
            links.extend(url.as_ref().and_then(trimmed));
        }
    }
    links
        .into_iter()
        .map(|value| value.into_link(LinkSyntax::Html))
        .collect()
}

/// True for `http-equiv="refresh"`, in any case.
fn is_refresh(attributes: &[Attribute]) -> bool {
    attributes
        .iter()
        .any(|a| a.name == b"http-equiv" && a.value.text.trim().eq_ignore_ascii_case("refresh"))
}

/// `value` without leading and trailing ASCII whitespace, which URL
/// parsing strips; `None` when nothing is left.
fn trimmed(value: &Decoded) -> Option<Decoded> {
    let text = &value.text;
    let start = text.len() - text.trim_start_matches(is_html_space).len();
    let end = text.trim_end_matches(is_html_space).len().max(start);
    (start < end).then(|| value.slice(Span::new(start, end)))
}

/// ASCII whitespace as HTML defines it.
fn is_html_space(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\u{c}' | '\r' | ' ')
}

/// The candidate URLs of a `srcset` value (HTML's "parse a srcset
/// attribute"): each a run of non-whitespace, separated by commas, with
/// optional descriptors (`2x`, `300w`) after it.
fn srcset(value: &str) -> impl Iterator<Item = Span> + '_ {
    let bytes = value.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || loop {
        while at < bytes.len() && (is_html_space(char::from(bytes[at])) || bytes[at] == b',') {
            at += 1;
        }
        if at >= bytes.len() {
            return None;
        }
        let start = at;
        while at < bytes.len() && !is_html_space(char::from(bytes[at])) {
            at += 1;
        }
        let mut end = at;
        if bytes[start..end].ends_with(b",") {
            while end > start && bytes[end - 1] == b',' {
                end -= 1;
            }
        } else {
            at = descriptors_end(bytes, at);
        }
        if start < end {
            return Some(Span::new(start, end));
        }
    })
}

/// Where the descriptors after a `srcset` candidate end: at the next comma
/// outside parentheses.
fn descriptors_end(bytes: &[u8], mut at: usize) -> usize {
    let mut depth = 0usize;
    while at < bytes.len() {
        match bytes[at] {
            b'(' => depth += 1,
            b')' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => return at + 1,
            _ => {}
        }
        at += 1;
    }
    at
}

/// The URL in a refresh `content` value (`5; url=http://...`, HTML's
/// "shared declarative refresh steps"): after the delay, a `;` or `,`, an
/// optional `url=`, and optional quotes.
fn refresh_url(content: &str) -> Option<Span> {
    let bytes = content.as_bytes();
    let skip_spaces = |mut at: usize| {
        while at < bytes.len() && is_html_space(char::from(bytes[at])) {
            at += 1;
        }
        at
    };
    let mut at = skip_spaces(0);
    while at < bytes.len() && (bytes[at].is_ascii_digit() || bytes[at] == b'.') {
        at += 1;
    }
    at = skip_spaces(at);
    if at < bytes.len() && matches!(bytes[at], b';' | b',') {
        at = skip_spaces(at + 1);
    }
    if bytes.len() >= at + 3 && bytes[at..at + 3].eq_ignore_ascii_case(b"url") {
        let after = skip_spaces(at + 3);
        if bytes.get(after) == Some(&b'=') {
            at = skip_spaces(after + 1);
        }
    }
    let mut end = bytes.len();
    if let Some(&quote @ (b'"' | b'\'')) = bytes.get(at) {
        at += 1;
        end = memchr::memchr(quote, &bytes[at..]).map_or(end, |i| at + i);
    }
    (at < end).then(|| Span::new(at, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(value: &str, spans: impl Iterator<Item = Span>) -> Vec<&str> {
        spans.map(|span| &value[span.range()]).collect()
    }

    #[test]
    fn whatwg_srcset_candidates_and_descriptors() {
        let cases: &[(&str, &[&str])] = &[
            ("a.png", &["a.png"]),
            (
                "a.png 1x, http://x.example/b.png 2x",
                &["a.png", "http://x.example/b.png"],
            ),
            (" a.png,b.png ,  c.png 100w", &["a.png,b.png", "c.png"]),
            ("a.png,, b.png", &["a.png", "b.png"]),
            ("a.png (x, y) 2x, b.png", &["a.png", "b.png"]),
            ("", &[]),
        ];
        for &(value, expected) in cases {
            assert_eq!(parts(value, srcset(value)), expected, "{value:?}");
        }
    }

    #[test]
    fn whatwg_refresh_content_names_its_target() {
        let cases: &[(&str, Option<&str>)] = &[
            ("0; url=http://a.example/", Some("http://a.example/")),
            ("5;URL='http://b.example/x'", Some("http://b.example/x")),
            ("3, http://c.example/", Some("http://c.example/")),
            ("0; url = \"http://d.example/\" ", Some("http://d.example/")),
            ("10", None),
        ];
        for &(content, expected) in cases {
            let url = refresh_url(content).map(|span| &content[span.range()]);
            assert_eq!(url, expected, "{content:?}");
        }
    }
}
