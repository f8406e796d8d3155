//! Generated documents for the rewrite properties: prose with bare URLs and
//! wrappers broken over lines under mail-quote, comment and indentation
//! leaders, with the characters fixes are about (unsafe, reserved,
//! non-ASCII, upper-case schemes) and text that is nearly a URL.

use proptest::prelude::*;

use crate::scan::{self, Found, ScanOptions};

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
