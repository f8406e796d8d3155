//! Robustness properties that must hold for every input (issue 7), beyond
//! the scanner's in `scan_properties.rs`, the validator's in
//! `validate_properties.rs` and the mail reader's in `mail_props.rs`: lint
//! never panics and places every finding on char boundaries inside its URL's
//! match, spelling exactly the URL bytes it is about; every suggested fix,
//! applied, removes the diagnostic it was offered for; findings in mail map
//! back into the message they came from; and the same holds for texts read
//! as Markdown or HTML.
//!
//! The checks themselves live in `fuzz/src/lib.rs`, shared with the fuzz
//! targets, so that fuzzing and these properties test one statement of
//! each invariant.

use proptest::prelude::*;
use urlint::mail::MailKind;
use urlint::validate::Profile;
use urlint::{Markup, ValidateOptions};

#[path = "../fuzz/src/lib.rs"]
// `check_scan` is the scan fuzz target's entry point; scanning on its own is
// covered by scan_properties.rs.
#[allow(dead_code)]
mod invariants;

/// Schemes RFC 1738 defines, in both cases, schemes with RFC 3986 profile
/// rules or only its generic syntax, plus unknown and malformed ones.
const SCHEMES: &[&str] = &[
    "http", "HTTP", "ftp", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file",
    "prospero", "x-new", "z39.50", "", "1bad", "ht tp", "é", "https", "urn", "example",
];

/// What may stand between the scheme's colon and the path: slashes, login
/// parts (with and without passwords), hosts good and bad, ports good and bad.
const AUTHORITIES: &[&str] = &[
    "",
    "//",
    "//a.b",
    "//host.example:80",
    "//user@a.b",
    "//user:pass@a.b:21",
    "//u:@h",
    "//@h",
    "//host-.com",
    "//a..b",
    "//1.2.3.4",
    "//256.1.1.1",
    "//[::1]",
    "//é.com",
    "//h:99999",
    "//h:x",
    "//h:",
    "//-h.com",
    "//h_o.st",
    "//H.COM",
    "/",
    "///",
    "//[2001:db8::1]:8080",
    "//[v1.x]",
    "//[1::2::3]",
    "//[::1",
    "//[::1]x",
    "//a!$&'()*+,;=b",
    "//h%41",
];

/// Path, search and fragment material: every character class of RFC 1738
/// section 2.2, good and bad escapes, and scheme-specific parameters.
const PATH_PIECES: &[&str] = &[
    "/",
    "a",
    "Z9",
    "~",
    "%",
    "%2",
    "%zz",
    "%41",
    "%0A",
    "%0d",
    "%00",
    " ",
    "é",
    "\u{7f}",
    "\t",
    "?",
    "#",
    ";type=a",
    ";type=x",
    ";type=",
    "{",
    "}",
    "|",
    "\\",
    "^",
    "`",
    "[",
    "]",
    "<",
    ">",
    "\"",
    "+",
    "=",
    "&",
    "*",
    ";",
    "@",
    ":",
    ".",
    "..",
    "$",
    "-",
    "_",
    "!",
    "'",
    "(",
    ")",
    ",",
    "%09",
    "1",
    "*",
    "<id@host>",
    ";field=value",
    "😀",
    "\u{A0}",
];

/// A URL-shaped string built from the pieces above: mostly plausible,
/// often wrong in one or several places.
fn url_like() -> impl Strategy<Value = String> {
    (
        prop::sample::select(SCHEMES),
        prop::sample::select(AUTHORITIES),
        prop::collection::vec(prop::sample::select(PATH_PIECES), 0..12),
    )
        .prop_map(|(scheme, authority, path)| format!("{scheme}:{authority}{}", path.concat()))
}

/// How a URL is written into text: each Appendix form, broken or not.
fn written(url: String, form: u8) -> String {
    match form % 6 {
        0 => format!("<URL:{url}>"),
        1 => format!("<{url}>"),
        2 => format!("URL:{url}"),
        3 => url,
        // A wrapper broken mid-URL, the next line indented or quoted.
        4 => {
            let cut = url
                .char_indices()
                .nth(url.chars().count() / 2)
                .map_or(0, |(at, _)| at);
            format!("<URL:{}\n  {}>", &url[..cut], &url[cut..])
        }
        _ => {
            let cut = url.find('-').map_or(url.len(), |at| at + 1);
            format!("<URL:{}\n> {}", &url[..cut], &url[cut..])
        }
    }
}

/// Prose around URLs: words, punctuation, line breaks of every kind,
/// leaders, stray wrapper pieces and non-ASCII text.
fn prose() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        " ", "see ", ". ", ", ", "(", ")", "\n", "\r\n", "\r", "\n\n", "> ", "# ", "  12. ", "<",
        ">", "<URL:", "URL:", "\"", "\u{A0}", "什么", "\u{FFFD}", "-\n", "\t",
    ])
}

/// A message around `body`: optional mbox `From ` line, a few header
/// fields, and a transfer encoding the body is (mostly) written in.
fn message(body: String, mbox: bool, encoding: u8) -> Vec<u8> {
    let mut message = String::new();
    if mbox {
        message.push_str("From a@example.org Mon Jan  1 00:00:00 2024\n");
    }
    message.push_str("From: a@example.org\nSubject: links\nMessage-ID: <1@example.org>\n");
    let body = match encoding % 4 {
        // Soft line breaks in the middle of URLs are what the map must undo.
        0 => {
            message.push_str("Content-Transfer-Encoding: quoted-printable\n");
            body.replace('/', "=\n/")
                .replace('=', "=3D")
                .replace("=3D\n", "=\n")
        }
        1 => {
            message.push_str("Content-Type: text/html; charset=utf-8\n");
            format!("<p><a href=\"{body}\">{body}</a></p>")
        }
        2 => {
            message.push_str("Content-Type: text/plain; charset=iso-8859-1\n");
            body
        }
        _ => body,
    };
    message.push('\n');
    message.push_str(&body);
    message.into_bytes()
}

/// Text with URLs in every form among prose.
fn text_with_urls() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prose().prop_map(str::to_string),
            (url_like(), any::<u8>()).prop_map(|(url, form)| written(url, form)),
        ],
        0..12,
    )
    .prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_fix_removes_its_diagnostic(
        url in url_like(),
        profile in prop::sample::select(Profile::ALL.to_vec()),
    ) {
        let options = ValidateOptions { profile, ..ValidateOptions::default() };
        invariants::check_validate(&url, &options);
    }

    #[test]
    fn lint_places_every_finding_inside_its_url_on_char_boundaries(text in text_with_urls()) {
        invariants::check_lint(&text);
    }

    #[test]
    fn lint_never_panics_on_undecodable_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        // The CLI reads invalid UTF-8 lossily; U+FFFD must not upset any stage.
        invariants::check_lint(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn nested_mime_loses_no_part_silently(bytes in prop::collection::vec(any::<u8>(), 0..96)) {
        invariants::check_nested_mail(&bytes);
    }

    #[test]
    fn lint_in_markup_places_every_finding_inside_its_url(text in text_with_urls(), html in any::<bool>()) {
        // The same URLs as a Markdown destination, an HTML attribute and text.
        let document = format!("[x]({text}) <a href=\"{text}\">{text}</a>\n\n{text}");
        let markup = if html { Markup::Html } else { Markup::Markdown };
        invariants::check_markup(&document, markup);
    }

    #[test]
    fn lint_in_rst_places_every_finding_inside_its_url(text in text_with_urls()) {
        // The same URLs as an embedded URI, a target, an image and text.
        let document = format!(
            "`x <{text}>`_ {text}\n\n.. _t: {text}\n\n.. image:: {text}\n   :target: {text}\n"
        );
        invariants::check_markup(&document, Markup::Rst);
    }

    #[test]
    fn findings_in_mail_map_into_their_message(
        body in text_with_urls(),
        mbox in any::<bool>(),
        encoding in any::<u8>(),
    ) {
        let kind = if mbox { MailKind::Mbox } else { MailKind::Eml };
        invariants::check_mail(&message(body, mbox, encoding), kind);
    }
}
