//! Parts of a URL that another syntax reads before the URL is used, so
//! that encoding their characters would change what they do rather than
//! spell the same octets: template placeholders, which a template engine
//! or format string replaces (`{{ version }}`, `{% url 'x' %}`, `${HOST}`,
//! `{owner}` as RFC 6570 and format strings write it), the `:~:` that
//! opens a fragment directive (`#:~:text=...`), which browsers look for
//! literally, and HTML numeric character references (`&#52;`) in a URL
//! copied out of HTML into other text, which HTML would decode. (In an
//! HTML input they are decoded before the validator sees the URL.)
//!
//! The validator still reports their characters; only the fix becomes a
//! suggestion (see `Collector::push_char`).

use crate::span::Span;

/// The literal parts of `url`, in order. An opened `{{`, `{%` or `${`
/// with no close runs to the end of the URL: the markup around it ended
/// the value inside the placeholder (`href="/{{ a or "b" }}"`).
pub(super) fn literal_parts(url: &str) -> Vec<Span> {
    let bytes = url.as_bytes();
    let mut parts = Vec::new();
    let mut at = 0;
    while let Some(offset) = memchr::memchr3(b'{', b':', b'&', &bytes[at..]) {
        let start = at + offset;
        let end = match &bytes[start..] {
            [b'{', b'{', ..] => closed_by(url, start + 2, "}}"),
            [b'{', b'%', ..] => closed_by(url, start + 2, "%}"),
            [b'{', ..] if start > 0 && bytes[start - 1] == b'$' => closed_by(url, start + 1, "}"),
            [b'{', ..] => variable_end(bytes, start + 1),
            [b':', b'~', b':', ..] if url[..start].contains('#') => Some(start + 3),
            [b'&', b'#', ..] => reference_end(bytes, start + 2),
            _ => None,
        };
        match end {
            Some(end) => {
                let start = if bytes[start] == b'{' && start > 0 && bytes[start - 1] == b'$' {
                    start - 1
                } else {
                    start
                };
                parts.push(Span::new(start, end));
                at = end;
            }
            None => at = start + 1,
        }
    }
    parts
}

/// The end of a placeholder whose body starts at `from` and that `close`
/// ends, or the end of `url` when nothing closes it.
fn closed_by(url: &str, from: usize, close: &str) -> Option<usize> {
    Some(
        url[from..]
            .find(close)
            .map_or(url.len(), |at| from + at + close.len()),
    )
}

/// The end of `&#NNN;` or `&#xHH;` whose digits start at `from`.
fn reference_end(bytes: &[u8], from: usize) -> Option<usize> {
    let (digits, hex) = match bytes.get(from) {
        Some(b'x' | b'X') => (from + 1, true),
        _ => (from, false),
    };
    let end = digits
        + bytes[digits..]
            .iter()
            .take_while(|b| match hex {
                true => b.is_ascii_hexdigit(),
                false => b.is_ascii_digit(),
            })
            .count();
    (end > digits && bytes.get(end) == Some(&b';')).then_some(end + 1)
}

/// The end of `{name}` whose body starts at `from`: an RFC 6570 expression
/// (an optional operator, then variable names with `.`, `,`, `:` and `*`)
/// or a format-string field (`{0}`, `{}`, `{user.name}`, `{items[0]}`).
fn variable_end(bytes: &[u8], from: usize) -> Option<usize> {
    let body = match bytes.get(from) {
        Some(b'+' | b'#' | b'.' | b'/' | b';' | b'?' | b'&') => from + 1,
        _ => from,
    };
    let name_end = body
        + bytes[body..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b"_.,:*%[]-".contains(&b))
            .count();
    (bytes.get(name_end) == Some(&b'}')).then_some(name_end + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(url: &str) -> Vec<&str> {
        literal_parts(url)
            .into_iter()
            .map(|span| &url[span.range()])
            .collect()
    }

    #[test]
    fn template_placeholders_are_literal() {
        let cases: &[(&str, &[&str])] = &[
            (
                "https://docs.example/en/{{ version }}/x",
                &["{{ version }}"],
            ),
            ("https://h.example/{% url 'a' %}", &["{% url 'a' %}"]),
            ("https://${HOST}/api", &["${HOST}"]),
            (
                "https://api.example/repos/{owner}/{repo}{?page,per_page}",
                &["{owner}", "{repo}", "{?page,per_page}"],
            ),
            (
                "http://h.example/{}/{0}/{items[0]}",
                &["{}", "{0}", "{items[0]}"],
            ),
            ("https://h.example/?mode={{ a or ", &["{{ a or "]),
        ];
        for (url, expected) in cases {
            assert_eq!(parts(url), *expected, "{url}");
        }
    }

    #[test]
    fn braces_around_other_text_are_url_characters() {
        for url in [
            "http://h.example/a{b c}",
            "http://h.example/q={\"a\":1}",
            "http://h.example/}{",
            "http://h.example/{unclosed",
        ] {
            assert_eq!(parts(url), Vec::<&str>::new(), "{url}");
        }
    }

    #[test]
    fn numeric_character_references_are_literal() {
        assert_eq!(
            parts("mailto:abc&#37;&#x34;0&amp;x&#;y"),
            ["&#37;", "&#x34;"]
        );
    }

    #[test]
    fn a_fragment_directive_delimiter_is_literal() {
        assert_eq!(parts("https://h.example/p#intro:~:text=tides"), [":~:"]);
        assert_eq!(parts("https://h.example/p#:~:text=a"), [":~:"]);
        // Outside the fragment it is path text.
        assert_eq!(parts("https://h.example/a:~:b"), Vec::<&str>::new());
    }
}
