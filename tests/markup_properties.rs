//! Invariants of reading Markdown, reStructuredText and HTML, on generated
//! documents: every
//! URL's segments lie inside the source on character boundaries, cover the
//! URL exactly in order, and the source bytes under them read as the URL
//! (copied bytes equal, an escape or character reference decoding to its
//! piece); arbitrary input never panics.

use proptest::prelude::*;

use urlint::{scan_markup, Found, Markup, ScanOptions};

/// The character references the generators write, and what they stand for.
const REFERENCES: &[(&str, &str)] = &[
    ("&amp;", "&"),
    ("&eacute;", "é"),
    ("&#x41;", "A"),
    ("&#126;", "~"),
    ("&lt;", "<"),
    ("&quot;", "\""),
    ("&nbsp;", "\u{a0}"),
];

/// What a decoded segment's source bytes stand for: a backslash escape or
/// one of [`REFERENCES`].
fn decode(source: &str) -> Option<&str> {
    if let Some(escaped) = source.strip_prefix('\\') {
        return (escaped.len() == 1 && escaped.bytes().all(|b| b.is_ascii_punctuation()))
            .then_some(escaped);
    }
    REFERENCES
        .iter()
        .find(|(reference, _)| *reference == source)
        .map(|&(_, text)| text)
}

/// Check one URL found in `text` against every invariant.
fn check(text: &str, found: &Found) -> Result<(), TestCaseError> {
    let in_text = |start: usize, end: usize| {
        start <= end
            && end <= text.len()
            && text.is_char_boundary(start)
            && text.is_char_boundary(end)
    };
    prop_assert!(
        in_text(found.outer.start, found.outer.end),
        "outer {:?}",
        found.outer
    );
    let mut url_at = 0;
    for segment in &found.segments {
        let source = segment.source;
        prop_assert!(in_text(source.start, source.end), "{segment:?}");
        let url = segment.url();
        prop_assert_eq!(url.start, url_at, "segments cover the URL in order");
        url_at = url.end;
        let piece = found.url.get(url.range());
        let written = &text[source.range()];
        if segment.is_copied() {
            prop_assert_eq!(piece, Some(written), "copied bytes");
        } else {
            prop_assert_eq!(piece, decode(written), "{:?} decodes", written);
        }
    }
    prop_assert_eq!(url_at, found.url.len(), "segments cover the whole URL");
    Ok(())
}

/// Pieces of a URL as Markdown writes them in a destination.
fn destination() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z0-9]{1,6}",
        Just("/".to_string()),
        Just("\\(".to_string()),
        Just("\\)".to_string()),
        Just("\\_".to_string()),
        Just("(x)".to_string()),
        Just("é".to_string()),
        Just("#frag".to_string()),
        prop::sample::select(REFERENCES).prop_map(|(reference, _)| reference.to_string()),
    ];
    prop::collection::vec(piece, 0..6)
        .prop_map(|pieces| format!("http://h.example/{}", pieces.concat()))
}

/// Markdown made of the constructs links hide in.
fn markdown() -> impl Strategy<Value = String> {
    let block = prop_oneof![
        destination().prop_map(|d| format!("[text]({d})")),
        destination().prop_map(|d| format!("[![img]({d})]({d})")),
        destination().prop_map(|d| format!("[a [b] c](<{d} x> \"title\")")),
        destination().prop_map(|d| format!("\n\n[ref]: {d}\n\n")),
        destination().prop_map(|d| format!("see {d} and")),
        destination().prop_map(|d| format!("*{d}*")),
        destination().prop_map(|d| format!("`{d}`")),
        destination().prop_map(|d| format!("\n\n<a href=\"{d}\">x</a>\n\n")),
        destination().prop_map(|d| format!("\n> [q](\n> {d})")),
        Just("<https://auto.example/a>".to_string()),
        Just("<URL:http://w.example/a\n   b>".to_string()),
        Just("\n```\nhttp://code.example/\n```\n".to_string()),
        "[ a-zé\\\\*_\\[\\]()<>&;#\n]{0,12}",
    ];
    prop::collection::vec(block, 0..8).prop_map(|blocks| blocks.join(" "))
}

/// Pieces of a URL as reStructuredText writes them in a target or an
/// embedded URI: escapes, and line breaks with indentation (removed).
fn rst_uri() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z0-9]{1,6}",
        Just("/".to_string()),
        Just("\\_".to_string()),
        Just("\\<".to_string()),
        Just("\n   ".to_string()),
        Just("é".to_string()),
        Just("#frag".to_string()),
    ];
    prop::collection::vec(piece, 0..6)
        .prop_map(|pieces| format!("http://h.example/{}", pieces.concat()))
}

/// reStructuredText made of the constructs links and code hide in.
fn rst() -> impl Strategy<Value = String> {
    let block = prop_oneof![
        rst_uri().prop_map(|u| format!("See `text <{u}>`_ now.")),
        rst_uri().prop_map(|u| format!("`<{u}>`__")),
        rst_uri().prop_map(|u| format!("\n\n.. _name: {u}\n\n")),
        rst_uri().prop_map(|u| format!("\n\n.. |b| image:: {u}\n   :target: {u}\n\n")),
        rst_uri().prop_map(|u| format!("\n\n.. raw:: html\n\n   <a href=\"{u}\">x</a>\n\n")),
        Just("Example::\n\n    http://code.example/\n\n".to_string()),
        Just("``http://lit.example/`` and :code:`x`".to_string()),
        Just("\n.. comment http://c.example/\n".to_string()),
        Just("see http://a.example/x\\_y".to_string()),
        "[ a-zé`_<>:.|\\\\\n-]{0,14}",
    ];
    prop::collection::vec(block, 0..8).prop_map(|blocks| blocks.join(" "))
}

/// HTML made of the constructs attribute values and text hide in.
fn html() -> impl Strategy<Value = String> {
    let block = prop_oneof![
        destination().prop_map(|d| format!("<a href=\"{d}\">x</a>")),
        destination().prop_map(|d| format!("<img src='{d}' srcset=\"{d} 1x, {d} 2x\">")),
        destination().prop_map(|d| format!("<p>see {d}&nbsp;now</p>")),
        destination().prop_map(|d| format!("<meta http-equiv=refresh content=\"0; url={d}\">")),
        Just("<script>var u = 'http://s.example/';</script>".to_string()),
        Just("&lt;URL:http://w.example/&gt;".to_string()),
        "[ a-zé<>&;#=\"'/\r\n]{0,16}",
    ];
    prop::collection::vec(block, 0..8).prop_map(|blocks| blocks.concat())
}

proptest! {
    #[test]
    fn markdown_urls_map_back_to_the_bytes_they_were_written_as(text in markdown()) {
        for found in scan_markup(&text, Markup::Markdown, &ScanOptions::default()) {
            check(&text, &found)?;
        }
    }

    #[test]
    fn rst_urls_map_back_to_the_bytes_they_were_written_as(text in rst()) {
        for found in scan_markup(&text, Markup::Rst, &ScanOptions::default()) {
            check(&text, &found)?;
        }
    }

    #[test]
    fn html_urls_map_back_to_the_bytes_they_were_written_as(text in html()) {
        for found in scan_markup(&text, Markup::Html, &ScanOptions::default()) {
            check(&text, &found)?;
        }
    }

    #[test]
    fn arbitrary_text_read_as_markup_never_panics(text in "\\PC{0,200}|[<>&#;=\"'a-z/\\\\\\[\\]()`*_ \n]{0,200}") {
        for markup in [Markup::Markdown, Markup::Rst, Markup::Html] {
            for found in scan_markup(&text, markup, &ScanOptions::default()) {
                for segment in &found.segments {
                    prop_assert!(text.get(segment.source.range()).is_some(), "{segment:?}");
                }
            }
        }
    }
}
