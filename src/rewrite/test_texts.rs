//! Generated documents for the rewrite properties: prose with bare URLs and
//! wrappers broken over lines under mail-quote, comment and indentation
//! leaders, with the characters fixes are about (unsafe, reserved,
//! non-ASCII, upper-case schemes) and text that is nearly a URL; Markdown
//! and HTML with those URLs in every place the markup puts links, some of
//! their characters written as character references or escapes.

use proptest::prelude::*;

use crate::scan::{self, Found, ScanOptions};
use crate::source::Markup;

/// A URL with problems worth fixing somewhere in it, or none.
fn url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![
            "http", "HTTP", "Http", "ftp", "FTP", "gopher", "file", "news", "nntp", "mailto",
        ]),
        "[a-z][a-z0-9-]{0,6}(\\.[a-z]{2,4}){1,2}",
        prop::option::of(prop::sample::select(vec!["", "80", "21", "x"])),
        prop::collection::vec("[A-Za-z0-9._~%;=?&#+$!*'(),@:{}|^é\\[\\]-]{0,10}", 0..4),
    )
        .prop_map(|(scheme, host, port, path)| {
            let port = port.map(|port| format!(":{port}")).unwrap_or_default();
            match scheme {
                "mailto" | "news" => format!("{scheme}:{}@{host}{}", path.join(""), port),
                _ => format!("{scheme}://{host}{port}/{}", path.join("/")),
            }
        })
}

/// What starts each line of a broken wrapper.
fn leader() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "> ", ">> ", "# ", "// ", "   ", "\t"])
}

/// One piece of a document.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[A-Za-z,.:;()<>\"'é ]{1,12}",
        2 => url().prop_map(|url| format!(" {url} ")),
        1 => url().prop_map(|url| format!(" URL:{url}.")),
        1 => url().prop_map(|url| format!(" <{url}>")),
        3 => (url(), prop::collection::vec(any::<usize>(), 0..3), leader(), leader())
            .prop_map(|(url, cuts, leader, indent)| wrapped(&url, &cuts, leader, indent)),
        2 => (url(), any::<usize>(), any::<bool>(), leader())
            .prop_map(|(url, cut, angle, indent)| broken_after_hyphen(&url, cut, angle, indent)),
        1 => Just("\n".to_string()),
        1 => Just("\r\n\r\n".to_string()),
    ]
}

/// `url` in `<URL:...>` on a line of its own under `leader`, broken at
/// `cuts` with continuation lines indented by `indent`.
fn wrapped(url: &str, cuts: &[usize], leader: &str, indent: &str) -> String {
    let mut positions: Vec<usize> = cuts
        .iter()
        .map(|&cut| cut % url.len().max(1))
        .filter(|&at| at > 0 && url.is_char_boundary(at))
        .collect();
    positions.sort_unstable();
    positions.dedup();
    let mut out = format!("\n{leader}<URL:");
    let mut start = 0;
    for at in positions {
        out.push_str(&url[start..at]);
        out.push_str(&format!("\n{leader}{indent}"));
        start = at;
    }
    out.push_str(&url[start..]);
    out.push_str(">\n");
    out
}

/// `url` with a `-` added at a cut and the line broken after it, in
/// `<URL:...>` or in angle brackets, as RFC 2368's examples are written.
fn broken_after_hyphen(url: &str, cut: usize, angle: bool, indent: &str) -> String {
    let at = (cut % url.len().max(1)..url.len())
        .find(|&at| at > 0 && url.is_char_boundary(at))
        .unwrap_or(url.len());
    let opener = if angle { "<" } else { "<URL:" };
    format!(
        "\n{indent}{opener}{}-\n{indent}{}>\n",
        &url[..at],
        &url[at..]
    )
}

/// A generated document.
pub(super) fn document() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..12).prop_map(|pieces| pieces.concat())
}

/// Any short text of the characters URLs and their delimiters are made of.
pub(super) fn noise() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9:/<>.~% \\n\\t#@?=&;{}|-]{0,80}"
}

/// The URLs of `text`, found with the default options.
pub(super) fn found(text: &str) -> Vec<Found> {
    scan::scan(text, &ScanOptions::default()).collect()
}

/// The text between and around the URLs of `text`: what no rewrite of a
/// URL may change.
pub(super) fn outside_urls(text: &str) -> Vec<String> {
    let mut gaps = Vec::new();
    let mut at = 0;
    for found in found(text) {
        gaps.push(text[at..found.outer.start].to_string());
        at = found.outer.end;
    }
    gaps.push(text[at..].to_string());
    gaps
}

/// A URL as Markdown or HTML writes it: an upper- or lower-case scheme, a
/// host, then pieces with the characters fixes are about, some spelled as
/// character references (`&#126;`, `&bne;` reads as two characters) or
/// backslash escapes. Only fixes that keep the characters' meaning apply
/// to it (no `http://host?`, no empty port), so a fixed URL decodes to the
/// same octets.
fn markup_url() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "a",
        "b1",
        "/",
        "~",
        "{",
        "}",
        "|",
        "^",
        "é",
        "(x)",
        "#f",
        "&#126;",
        "&amp;",
        "&eacute;",
        "&bne;",
        "&#x7B;",
        "\\~",
        "\\_",
        "?q=1&amp;r=2",
    ]);
    (
        prop::sample::select(vec!["http", "HTTP", "Http", "ftp", "gopher"]),
        "[a-z]{1,6}\\.example",
        prop::collection::vec(piece, 0..6),
    )
        .prop_map(|(scheme, host, path)| format!("{scheme}://{host}/{}", path.concat()))
}

/// A generated document in `markup` (Markdown, reStructuredText or HTML).
pub(super) fn markup_document(markup: Markup) -> BoxedStrategy<String> {
    let url = markup_url;
    let blocks = match markup {
        Markup::Html => prop_oneof![
            url().prop_map(|u| format!("<a href=\"{u}\">x</a>")),
            url().prop_map(|u| format!("<img src='{u}' srcset=\"{u} 1x, {u} 2x\">")),
            url().prop_map(|u| format!("<a href={u} title=t>x</a>")),
            url().prop_map(|u| format!("<p>see {u}&nbsp;now</p>")),
            url().prop_map(|u| format!("<p>&lt;URL:{u}&gt;</p>")),
            url().prop_map(|u| format!("<meta http-equiv=refresh content=\"0; url={u}\">")),
            url().prop_map(|u| format!("<script>var u = '{u}';</script>")),
            url().prop_map(|u| format!("<!-- {u} -->")),
            "[ a-z<>&;#=\"'/\n]{0,12}",
        ]
        .boxed(),
        Markup::Rst => prop_oneof![
            url().prop_map(|u| format!("`text <{u}>`_")),
            url().prop_map(|u| format!("\n\n.. _name: {u}\n\n")),
            url().prop_map(|u| format!("\n\n.. image:: {u}\n\n")),
            url().prop_map(|u| format!("see {u} and")),
            url().prop_map(|u| format!("``{u}``")),
            url().prop_map(|u| format!("\n\nCode::\n\n    {u}\n\n")),
            url().prop_map(|u| grid_table(&u)),
            "[ a-z`_<>:.\\-\n]{0,12}",
        ]
        .boxed(),
        // Plain text has no blocks of its own; the Markdown ones are text
        // with URLs in it all the same.
        Markup::Markdown | Markup::Plain => prop_oneof![
            url().prop_map(|u| format!("[text]({u} \"title\")")),
            url().prop_map(|u| format!("[a [b] c](<{u} x>)")),
            url().prop_map(|u| format!("\n\n[ref]: {u}\n\n")),
            url().prop_map(|u| format!("see {u} and")),
            url().prop_map(|u| format!("*{u}*")),
            url().prop_map(|u| format!("`{u}`")),
            url().prop_map(|u| format!("\n\n<a href=\"{u}\">x</a>\n\n")),
            url().prop_map(|u| format!("\n> [q](\n> {u})")),
            url().prop_map(|u| format!("\n\n```\n{u}\n```\n\n")),
            "[ a-z\\\\*_\\[\\]()<>&;#\n]{0,12}",
        ]
        .boxed(),
    };
    prop::collection::vec(blocks, 0..8)
        .prop_map(|blocks| blocks.join(" "))
        .boxed()
}

/// A reStructuredText grid table with `url` in a cell, padded for a few
/// fixes to fit.
fn grid_table(url: &str) -> String {
    let width = url.chars().count() * 2 + 2;
    let border = format!("+---+{}+", "-".repeat(width + 2));
    let padding = " ".repeat(width - url.chars().count());
    format!("\n\n{border}\n| a | {url}{padding} |\n{border}\n\n")
}
