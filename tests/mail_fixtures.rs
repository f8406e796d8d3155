//! The mail reader on the fixtures in `fixtures/mail/`: decoded texts, the
//! exact archive bytes each decoded URL maps back to, and message origins.
//!
//! The scanner lives in another stage, so URLs are located in the decoded
//! text with `str::find` and their spans mapped through the text's map.

mod common;

use std::path::{Path, PathBuf};

use common::base64_lines;
use urlint::mail::{self, MailKind, MailText, ParsedMessage, TransferEncoding, WarningKind};
use urlint::span::{LineCol, Span};
use urlint::{Form, Markup, ScanOptions};

/// Path of a fixture.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/mail")
        .join(name)
}

/// The bytes of a fixture and its messages, read the way its extension says.
fn read(name: &str) -> (Vec<u8>, Vec<ParsedMessage>) {
    let path = fixture(name);
    let bytes = std::fs::read(&path).expect("fixture exists");
    let kind = MailKind::from_path(&path).expect("fixture has a mail extension");
    let messages = mail::read(&bytes[..], kind)
        .collect::<std::io::Result<Vec<_>>>()
        .expect("reading from memory does not fail");
    (bytes, messages)
}

/// The span of `needle` in `text`, which must hold it.
fn span_of(text: &MailText, needle: &str) -> Span {
    let start = text
        .text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} in {:?}", text.text));
    Span::new(start, start + needle.len())
}

/// The archive bytes covering `needle` in `text`.
fn raw_of<'a>(archive: &'a [u8], text: &MailText, needle: &str) -> &'a [u8] {
    let raw = text.map.raw_span(span_of(text, needle)).expect("URL maps");
    &archive[raw.range()]
}

/// Archive line and column where `needle` in `text` starts.
fn place_of(message: &ParsedMessage, text: &MailText, needle: &str) -> (usize, usize) {
    let raw = text.map.raw_span(span_of(text, needle)).expect("URL maps");
    let LineCol { line, column } = message.line_col(raw.start).expect("offset in message");
    (line, column)
}

/// Offset of the first `needle` in `haystack`, which must hold it.
fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("needle in haystack")
}

#[test]
fn rfc2045_6_7_soft_breaks_in_host_and_path_are_joined_and_mapped() {
    let (archive, messages) = read("qp_soft_breaks.eml");
    let [message] = &messages[..] else {
        panic!("one message")
    };
    let [text] = &message.texts[..] else {
        panic!("one text")
    };
    assert_eq!(
        text.text,
        "The mirror list is at http://ftp.example.org/pub/mirrors.txt for now.\n\
         Old releases live under ftp://ftp.example.org/pub/old/releases/1.0/ forever.\n\
         Search with http://www.example.org/cgi-bin/find?q=url&lang=en today.\n"
    );
    let host = "http://ftp.example.org/pub/mirrors.txt";
    assert_eq!(
        raw_of(&archive, text, host),
        b"http://ftp.exam=\nple.org/pub/mirrors.txt"
    );
    let start = find(&archive, b"http://ftp.exam");
    assert_eq!(
        text.map.raw_spans(span_of(text, host)),
        vec![
            Span::new(start, start + 15),
            Span::new(start + 17, start + 40)
        ]
    );
    assert_eq!(place_of(message, text, host), (12, 23));

    let path = "ftp://ftp.example.org/pub/old/releases/1.0/";
    assert_eq!(
        raw_of(&archive, text, path),
        b"ftp://ftp.example.org/pub/old/re=\nleases/1.0/"
    );
    assert_eq!(place_of(message, text, path), (14, 25));
}

#[test]
fn rfc2045_6_7_escaped_equals_in_query_maps_to_its_escape() {
    let (archive, messages) = read("qp_soft_breaks.eml");
    let text = &messages[0].texts[0];
    let url = "http://www.example.org/cgi-bin/find?q=url&lang=en";
    assert_eq!(
        raw_of(&archive, text, url),
        b"http://www.example.org/cgi-bin/find?q=3Durl&lang=3Den"
    );
    let equals = span_of(text, "q=url").start + 1;
    let raw = text.map.raw_span(Span::new(equals, equals + 1)).unwrap();
    assert_eq!(&archive[raw.range()], b"=3D");
    assert_eq!(place_of(&messages[0], text, url), (16, 13));
}

#[test]
fn origin_fields_come_from_the_headers() {
    let (_, messages) = read("qp_soft_breaks.eml");
    let message = &messages[0];
    assert_eq!(message.info.number, 1);
    assert_eq!(message.info.message_id(), Some("qp-1@example.org"));
    assert_eq!(message.info.date(), Some("2024-01-01T10:00:00Z"));
    assert_eq!(message.info.subject(), Some("Quoted-printable cuts URLs"));
    let part = &message.texts[0].part;
    assert_eq!(
        (
            part.path.as_str(),
            part.content_type.as_str(),
            part.charset.as_deref(),
            part.encoding
        ),
        (
            "1",
            "text/plain",
            Some("us-ascii"),
            TransferEncoding::QuotedPrintable
        )
    );
    assert!(message.warnings.is_empty());
}

#[test]
fn alternative_parts_give_the_url_in_text_and_base64_html() {
    let (archive, messages) = read("alternative.eml");
    let message = &messages[0];
    let [plain, html] = &message.texts[..] else {
        panic!("two texts")
    };
    let url = "http://www.example.org/notes?id=7&view=full";
    assert_eq!(
        (plain.part.path.as_str(), plain.part.content_type.as_str()),
        ("1", "text/plain")
    );
    assert_eq!(raw_of(&archive, plain, url), url.as_bytes());
    assert_eq!(place_of(message, plain, url), (13, 30));

    assert_eq!(
        (html.part.path.as_str(), html.part.content_type.as_str()),
        ("2", "text/html")
    );
    assert_eq!(html.part.encoding, TransferEncoding::Base64);
    assert_eq!(html.markup, Markup::Html, "an HTML part is read as HTML");
    // The href value and the visible text, both written `&amp;`, read as
    // the URL with `&`.
    let found: Vec<(Form, String, Span)> =
        urlint::scan_markup(&html.text, html.markup, &ScanOptions::default())
            .map(|found| (found.form, found.url, found.outer.of()))
            .collect();
    let forms: Vec<(Form, &str)> = found
        .iter()
        .map(|(form, url, _)| (*form, url.as_str()))
        .collect();
    assert_eq!(forms, [(Form::Attribute, url), (Form::Bare, url)]);
    assert_eq!(
        &html.text[found[0].2.range()],
        "http://www.example.org/notes?id=7&amp;view=full"
    );
    // Base64 bytes have no raw byte each: both URLs map to the whole body.
    let body_start = find(&archive, b"PGh0bWw");
    let body_end = find(&archive, b"--b1--");
    for (_, _, outer) in &found {
        let raw = html.map.raw_span(*outer).expect("URL maps");
        assert_eq!(raw.start, body_start);
        assert!(
            body_end - raw.end <= 2,
            "body ends at the line break before the boundary"
        );
    }
}

#[test]
fn iso_8859_1_body_maps_each_character_to_its_byte() {
    let (archive, messages) = read("latin1.eml");
    let message = &messages[0];
    let text = &message.texts[0];
    assert_eq!(
        text.text,
        "Le café près de la gare: http://café.example.fr/menu.html\n\
         Voir aussi http://www.example.fr/~andré/\n"
    );
    assert_eq!(message.info.subject(), Some("Café"));
    assert_eq!(
        raw_of(&archive, text, "http://café.example.fr/menu.html"),
        b"http://caf\xe9.example.fr/menu.html"
    );
    assert_eq!(raw_of(&archive, text, "~andré/"), b"~andr\xe9/");
    assert_eq!(place_of(message, text, "http://café"), (10, 26));
}

#[test]
fn koi8_r_body_is_decoded_around_an_exact_url() {
    let (archive, messages) = read("koi8r.eml");
    let text = &messages[0].texts[0];
    assert_eq!(text.text, "Смотрите http://www.example.ru/news/ сайт\n");
    assert_eq!(text.part.charset.as_deref(), Some("koi8-r"));
    let url = "http://www.example.ru/news/";
    let raw = text.map.raw_span(span_of(text, url)).unwrap();
    assert_eq!(raw.start, find(&archive, url.as_bytes()));
    assert_eq!(&archive[raw.range()], url.as_bytes());
    // Eight Cyrillic letters, one byte each in KOI8-R, then a space.
    assert_eq!(place_of(&messages[0], text, url), (10, 10));
}

#[test]
fn quoted_reply_keeps_its_wrapped_url_and_markers_in_place() {
    let (archive, messages) = read("reply.eml");
    let text = &messages[0].texts[0];
    let wrapped = "<URL:ftp://archive.example.org/\n> pub/lists/2023/>";
    assert!(text.text.contains(wrapped), "{:?}", text.text);
    assert_eq!(raw_of(&archive, text, wrapped), wrapped.as_bytes());
    assert_eq!(
        text.map.raw_spans(span_of(text, wrapped)).len(),
        1,
        "an undecoded body maps as one run"
    );
    assert_eq!(place_of(&messages[0], text, wrapped), (9, 35));
    assert_eq!(messages[0].info.message_id(), Some("reply-1@example.org"));
}

#[test]
fn malformed_multipart_is_reported_and_read_as_far_as_possible() {
    let (archive, messages) = read("malformed.eml");
    let message = &messages[0];
    let kinds: Vec<_> = message
        .warnings
        .iter()
        .map(|w| (w.kind, w.part.as_deref()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (WarningKind::UnterminatedMultipart, None),
            (WarningKind::BadEncoding, Some("2")),
            (WarningKind::UnknownCharset, Some("3")),
        ]
    );
    let paths: Vec<_> = message.texts.iter().map(|t| t.part.path.as_str()).collect();
    assert_eq!(paths, ["1", "2", "3"]);
    for (text, url) in message.texts.iter().zip(["first", "second", "third"]) {
        let url = format!("http://www.example.org/{url}");
        assert_eq!(raw_of(&archive, text, &url), url.as_bytes());
    }
}

#[test]
fn a_malformed_message_does_not_stop_the_archive() {
    let mut archive = b"From eve@example.org Sat Jan  6 00:00:00 2024\n".to_vec();
    archive.extend(std::fs::read(fixture("malformed.eml")).unwrap());
    archive.extend(b"\nFrom ann@example.org Mon Jan  1 10:00:00 2024\n");
    archive.extend(std::fs::read(fixture("qp_soft_breaks.eml")).unwrap());
    let messages: Vec<_> = mail::read(&archive[..], MailKind::Mbox)
        .map(Result::unwrap)
        .collect();
    assert_eq!(messages.len(), 2);
    assert!(!messages[0].warnings.is_empty());
    assert!(messages[1].warnings.is_empty());
    let text = &messages[1].texts[0];
    let url = "http://ftp.example.org/pub/mirrors.txt";
    assert_eq!(
        raw_of(&archive, text, url),
        b"http://ftp.exam=\nple.org/pub/mirrors.txt"
    );
}

#[test]
fn rfc4155_mbox_messages_headers_and_mboxrd_quoting() {
    let (archive, messages) = read("list.mbox");
    let found: Vec<_> = messages
        .iter()
        .map(|m| {
            (
                m.info.number,
                m.info.line,
                m.info.message_id().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, 1, "mbox-1@example.org"),
            (2, 19, "mbox-2@example.org"),
            (3, 28, "mbox-3@example.org")
        ]
    );
    assert_eq!(messages[1].info.offset, find(&archive, b"From ben@"));

    let first = &messages[0];
    let headers = &first.texts[0];
    assert_eq!(
        (
            headers.part.path.as_str(),
            headers.part.content_type.as_str()
        ),
        ("header", "text/rfc822-headers")
    );
    for url in [
        "<http://lists.example.org/archive/>",
        "<mailto:list-request@example.org?subject=unsubscribe>",
        "<http://lists.example.org/archive/2024/1>",
    ] {
        assert_eq!(raw_of(&archive, headers, url), url.as_bytes());
    }
    assert_eq!(
        place_of(first, headers, "<http://lists.example.org/leave>"),
        (8, 19)
    );
    let body = &first.texts[1];
    let url = "http://ftp.example.org/pub/mirrors.txt";
    assert_eq!(
        raw_of(&archive, body, url),
        b"http://ftp.exam=\nple.org/pub/mirrors.txt"
    );
    assert_eq!(place_of(first, body, url), (16, 23));

    let reply = &messages[1].texts[0];
    assert!(reply
        .text
        .starts_with("From what I see, http://www.example.org/status is down.\n>From the archive"));
    let status = "http://www.example.org/status";
    assert_eq!(raw_of(&archive, reply, status), status.as_bytes());
    assert_eq!(
        place_of(&messages[1], reply, status),
        (25, 19),
        "column counts the removed '>'"
    );
    assert_eq!(
        raw_of(&archive, reply, "From what"),
        b"From what",
        "the quoting '>' is not mapped"
    );

    let last = &messages[2].texts[0];
    assert_eq!(place_of(&messages[2], last, "gopher://"), (34, 11));
}

#[test]
fn rfc2046_5_1_1_a_message_cut_at_the_size_cap_still_decodes_its_base64_part() {
    let mut archive = b"From fay@example.org Sun Jan  7 09:00:00 2024\n\
        Subject: big\nContent-Type: multipart/mixed; boundary=cut\n\n\
        --cut\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
        .to_vec();
    archive.extend(base64_lines("Early link: http://early.example.org/~fay/\n"));
    archive.extend(base64_lines(&"filler text without links\n".repeat(400)));
    archive.extend(b"--cut--\n");
    let cap = archive.len() / 2;
    let messages: Vec<_> = mail::messages(&archive[..], MailKind::Mbox)
        .max_message_bytes(cap)
        .map(|raw| mail::parse_message(raw.expect("reading from memory")))
        .collect();
    let kinds: Vec<_> = messages[0].warnings.iter().map(|w| w.kind).collect();
    assert_eq!(
        kinds,
        [WarningKind::Truncated, WarningKind::UnterminatedMultipart]
    );
    let text = &messages[0].texts[0];
    assert_eq!(text.part.encoding, TransferEncoding::Base64);
    assert!(text
        .text
        .starts_with("Early link: http://early.example.org/~fay/\n"));
    let raw = text
        .map
        .raw_span(span_of(text, "http://early"))
        .expect("maps");
    assert!(archive[raw.range()].starts_with(b"RWFybHkgbGluazog"));
}
