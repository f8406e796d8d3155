//! One raw message to the texts the scanner reads: MIME traversal with
//! mail-parser, then decoding with offset maps back to the archive.

use std::cell::OnceCell;
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::sync::OnceLock;

use super::charset;
use super::detect::MailKind;
use super::empty;
use super::headers::{is_field, HeaderUrls};
use super::mbox::RawMessage;
use super::nested;
use super::park;
use super::part::{MailText, MailWarning, MessageInfo, PartInfo, TransferEncoding, WarningKind};
use super::summary::Summary;
use super::walk::{self, MessageTexts};
use crate::offset_map::OffsetMap;
use crate::source::Markup;
use crate::span::{LineCol, Span};

/// A message read: its texts, its problems, and its raw bytes for line numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParsedMessage {
    /// Which message this is.
    pub info: MessageInfo,
    /// Its text-bearing units, headers first, then parts in order.
    pub texts: Vec<MailText>,
    /// Its problems.
    pub warnings: Vec<MailWarning>,
    /// The bytes it was read from.
    pub raw: RawMessage,
    /// Line starts in `raw.bytes`, indexed when first asked for.
    line_starts: OnceLock<Vec<usize>>,
}

impl ParsedMessage {
    /// Archive line and column of an archive byte offset inside this
    /// message, counted as [`crate::span::LineIndex`] counts them (columns
    /// in UTF-8 characters; other bytes count one each). The message's line
    /// starts are indexed on first use.
    pub fn line_col(&self, offset: usize) -> Option<LineCol> {
        let local = offset.checked_sub(self.raw.offset)?;
        let before = self.raw.bytes.get(..local)?;
        let starts = self
            .line_starts
            .get_or_init(|| line_starts(&self.raw.bytes));
        let line = starts
            .partition_point(|&start| start <= local)
            .saturating_sub(1);
        let line_start = starts.get(line).copied().unwrap_or(0);
        let column = before[line_start..]
            .iter()
            .filter(|&&b| (b as i8) >= -0x40) // UTF-8 lead bytes and ASCII
            .count();
        Some(LineCol {
            line: self.raw.line + line,
            column: column + 1,
        })
    }
}

/// Offsets at which the lines of `bytes` start: after `\n`, `\r\n` or a
/// lone `\r`, as [`crate::span::LineIndex`] has them.
fn line_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    for at in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            continue;
        }
        starts.push(at + 1);
    }
    starts
}

/// Read the texts of one raw message. Never fails: problems become warnings.
pub fn parse_message(raw: RawMessage) -> ParsedMessage {
    parse_message_with(raw, HeaderUrls::List)
}

/// Read the texts of one raw message, with the URLs of the header fields
/// `headers` names. Never fails: problems become warnings.
pub fn parse_message_with(raw: RawMessage, headers: HeaderUrls) -> ParsedMessage {
    let (buffer, archive) = unquote(&raw);
    let (buffer, archive) = fields_for_parser(buffer, archive, headers);
    read_buffer(raw, buffer, archive, headers)
}

/// Read `raw` from `buffer`, the bytes mail-parser is given, which
/// `archive` maps onto the archive.
fn read_buffer(
    raw: RawMessage,
    mut buffer: Vec<u8>,
    archive: OffsetMap,
    headers: HeaderUrls,
) -> ParsedMessage {
    park::park_content_types(&mut buffer);
    let mut warnings = Vec::new();
    if raw.truncated {
        warnings.push(MailWarning {
            kind: WarningKind::Truncated,
            part: None,
            message: "message longer than the size cap; its end was not read".into(),
        });
    }
    let mut info = MessageInfo {
        number: raw.number,
        offset: raw.offset,
        line: raw.line,
        summary: Summary::default(),
    };
    let repaired = OnceCell::new();
    // mail-parser is given every kind of broken message; should it panic
    // on one, that message is read raw and the archive's others as ever.
    let parsed = panic::catch_unwind(AssertUnwindSafe(|| {
        #[cfg(test)]
        tests::panic_if_asked();
        let (message, buffer) = empty::parse(walk::parser(), &buffer, &repaired)?;
        let summary = Summary::of(&message);
        let walked = walk::walk(&message, buffer, &archive, headers, warnings.clone());
        nested::dismantle(message);
        Some((summary, walked))
    }));
    let walked = match parsed {
        Ok(Some((summary, walked))) => {
            info.summary = summary;
            walked
        }
        Ok(None) => {
            warnings.push(MailWarning {
                kind: WarningKind::Unparseable,
                part: None,
                message: "no header block found".into(),
            });
            MessageTexts {
                texts: Vec::new(),
                warnings,
            }
        }
        Err(_) => read_raw(&buffer, &archive, warnings),
    };
    ParsedMessage {
        info,
        texts: walked.texts,
        warnings: walked.warnings,
        raw,
        line_starts: OnceLock::new(),
    }
}

/// A message that mail-parser could not read (it panicked), read whole as
/// raw text so that none of its URLs is lost.
fn read_raw(buffer: &[u8], archive: &OffsetMap, mut warnings: Vec<MailWarning>) -> MessageTexts {
    warnings.push(MailWarning {
        kind: WarningKind::Unparseable,
        part: None,
        message: "the MIME parser failed on this message; it was read whole as raw text".into(),
    });
    let (text, map) = charset::decode_utf8_lossy(buffer);
    let text = MailText {
        text,
        markup: Markup::Plain,
        part: PartInfo {
            path: "1".into(),
            content_type: "text/plain".into(),
            charset: None,
            encoding: TransferEncoding::Identity,
        },
        map: map.then(archive),
    };
    MessageTexts {
        texts: vec![text],
        warnings,
    }
}

/// The bytes mail-parser reads — the message without its envelope `From `
/// line and with mboxrd `>From ` quoting undone — and their map onto the
/// archive.
fn unquote(raw: &RawMessage) -> (Vec<u8>, OffsetMap) {
    let bytes = &raw.bytes[..];
    // Some .eml files keep the envelope line too; it is no header field.
    let start = if bytes.starts_with(b"From ") {
        memchr::memchr(b'\n', bytes).map_or(bytes.len(), |newline| newline + 1)
    } else {
        0
    };
    let mut buffer = Vec::with_capacity(bytes.len() - start);
    let mut map = OffsetMap::new();
    // The runs between quoting `>`s are copied whole: only a line that
    // starts with `>`s and `From ` loses a byte.
    let mut run = start;
    if raw.kind == MailKind::Mbox {
        for line in quoted_from_lines(bytes, start) {
            push_run(&mut buffer, &mut map, raw, run..line);
            run = line + 1;
        }
    }
    push_run(&mut buffer, &mut map, raw, run..bytes.len());
    (buffer, map)
}

/// The fields of the message header block that mail-parser is asked for
/// whatever `--mail-headers` says: the MIME fields (any `Content-` one),
/// and those the message's summary shows. A trailing `-` matches a prefix.
const PARSED_FIELDS: &[&str] = &["content-", "mime-version", "message-id", "date", "subject"];

/// The field a message without a `Content-Type` is given for mail-parser:
/// the type such a message has (RFC 2045 section 5.2), which is parked
/// with the other text types (see [`park`]).
const PLAIN_TEXT_TYPE: &[u8] = b"Content-Type: text/plain\n";

/// `buffer` (mapped onto the archive by `archive`) as mail-parser is given
/// it: without the fields of its header block that nothing reads (not
/// parsed, see [`PARSED_FIELDS`], and not read for URLs under `headers`),
/// and with [`PLAIN_TEXT_TYPE`] at the block's end when it has no
/// `Content-Type`.
///
/// List mail is more header than body, and its trace and signature fields
/// (`Received`, `DKIM-Signature`, ...) are most of the header: mail-parser
/// reads every field a byte at a time only to skip it. The fields left are
/// the same bytes, mapped onto the archive where they were; a header block
/// that does not read as plain fields up to its blank line (see
/// [`header_fields`]) is left whole, so mail-parser sees no field boundary
/// other than where it would have found one.
///
/// Half the messages of a list archive have no `Content-Type`, and
/// mail-parser checked each one's body as UTF-8, a character at a time,
/// into a string the walk never reads. Typed, the body is a parked text
/// part's: the walk reads it as it read it untyped (the same media type,
/// no charset). The added field maps onto nothing in the archive; it is
/// not added under `--mail-headers all`, which reads every field for URLs.
fn fields_for_parser(
    buffer: Vec<u8>,
    archive: OffsetMap,
    headers: HeaderUrls,
) -> (Vec<u8>, OffsetMap) {
    if headers == HeaderUrls::All {
        return (buffer, archive);
    }
    let Some((fields, block_end)) = header_fields(&buffer) else {
        return (buffer, archive);
    };
    let mut is_typed = false;
    let mut kept: Vec<Span> = Vec::with_capacity(fields.len() + 1);
    for field in &fields {
        let name = &buffer[field.name.range()];
        is_typed |= is_field(name, "content-type");
        if !PARSED_FIELDS.iter().any(|parsed| is_field(name, parsed)) && !headers.reads_name(name) {
            continue;
        }
        match kept.last_mut() {
            Some(last) if last.end == field.span.start => last.end = field.span.end,
            _ => kept.push(field.span),
        }
    }
    if is_typed && kept.iter().map(Span::len).sum::<usize>() == block_end {
        return (buffer, archive);
    }
    let mut given = Vec::with_capacity(buffer.len() + PLAIN_TEXT_TYPE.len());
    let mut map = OffsetMap::new();
    let mut push = |given: &mut Vec<u8>, span: Span| {
        map.push(Span::new(given.len(), given.len() + span.len()), span, true);
        given.extend_from_slice(&buffer[span.range()]);
    };
    for span in kept {
        push(&mut given, span);
    }
    if !is_typed {
        given.extend_from_slice(PLAIN_TEXT_TYPE);
    }
    push(&mut given, Span::new(block_end, buffer.len()));
    (given, map.then(&archive))
}

/// A field of a header block: all its lines, and its name.
struct HeaderField {
    span: Span,
    name: Span,
}

/// The fields of the header block that opens `bytes`, and where the blank
/// line ending it starts; none when a line is neither a field's first line
/// (a name of printable ASCII, no blank, right before a `:`), nor a
/// continuation (opening with a blank), nor the blank line, or when no
/// blank line comes. A field's lines end where mail-parser ends them: at a
/// line break not followed by a blank.
fn header_fields(bytes: &[u8]) -> Option<(Vec<HeaderField>, usize)> {
    // Room for a list message's usual count, grown once at most.
    let mut fields: Vec<HeaderField> = Vec::with_capacity(32);
    let mut at = 0;
    loop {
        let line_end = at + memchr::memchr(b'\n', &bytes[at..])? + 1;
        let line = &bytes[at..line_end];
        match line[0] {
            b'\n' => return Some((fields, at)),
            b'\r' if line == b"\r\n" => return Some((fields, at)),
            b' ' | b'\t' => fields.last_mut()?.span.end = line_end,
            _ => {
                let colon = line
                    .iter()
                    .position(|&b| !matches!(b, b'!'..=b'~') || b == b':')?;
                if colon == 0 || line[colon] != b':' {
                    return None;
                }
                fields.push(HeaderField {
                    span: Span::new(at, line_end),
                    name: Span::new(at, at + colon),
                });
            }
        }
        at = line_end;
    }
}

/// Where the mboxrd quoted `From ` lines of `bytes` after `start` (a
/// line's start) begin, in order: lines of one or more `>` and then
/// `From `.
///
/// `From ` is searched for, then the `>`s before it: quoting `>`s open one
/// line in ten of list mail, and a search for each line break before a `>`
/// stopped at every one of them, where `From ` is rare.
fn quoted_from_lines(bytes: &[u8], start: usize) -> impl Iterator<Item = usize> + '_ {
    memchr::memmem::find_iter(&bytes[start..], b"From ").filter_map(move |at| {
        let from = start + at;
        let quotes = bytes[start..from]
            .iter()
            .rev()
            .take_while(|&&b| b == b'>')
            .count();
        let line = from - quotes;
        (quotes > 0 && (line == start || bytes[line - 1] == b'\n')).then_some(line)
    })
}

/// Copy `run` of `raw`'s bytes to the end of `buffer`, mapped onto the
/// archive.
fn push_run(buffer: &mut Vec<u8>, map: &mut OffsetMap, raw: &RawMessage, run: Range<usize>) {
    let kept = Span::new(run.start, run.end);
    map.push(
        Span::new(buffer.len(), buffer.len() + kept.len()),
        kept.shifted(raw.offset),
        true,
    );
    buffer.extend_from_slice(&raw.bytes[run]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::part::TransferEncoding;
    use crate::source::Markup;
    use proptest::prelude::*;

    /// A date ending in a zone of one or two letters is only located, so
    /// the field after it is read as a field (see [`super::super::summary`]).
    #[test]
    fn rfc2045_5_a_type_after_a_date_in_a_letter_zone_is_read() {
        for zone in ["UT", "Z"] {
            let message = parse(
                &format!(
                    "Date: Mon, 1 Jan 2001 10:00:00 {zone}\nContent-Type: text/html\n\n\
                     <a href=\"http://a.example/\">a</a>\n"
                ),
                MailKind::Eml,
            );
            assert_eq!(message.texts.len(), 1, "{zone}");
            assert_eq!(message.texts[0].markup, Markup::Html, "{zone}");
            assert_eq!(message.info.date(), Some("2001-01-01T10:00:00Z"), "{zone}");
        }
    }

    thread_local! {
        /// Set by a test to make the next parse on this thread panic, as
        /// mail-parser might on a message no test has found yet.
        static PANIC_NEXT_PARSE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    /// Panic once when a test asked for it (see [`PANIC_NEXT_PARSE`]).
    pub(super) fn panic_if_asked() {
        if PANIC_NEXT_PARSE.with(|asked| asked.replace(false)) {
            panic!("a parser panic, asked for by a test");
        }
    }

    /// A message mail-parser panics on is read whole as raw text: its URLs
    /// are found, mapped into the archive, with a warning; the next
    /// message is read as ever.
    #[test]
    fn a_message_the_parser_panics_on_is_read_raw() {
        let text = "Subject: s\nContent-Type: text/plain\n\nsee http://a.example/~x\n";
        PANIC_NEXT_PARSE.with(|asked| asked.set(true));
        let message = parse(text, MailKind::Eml);
        assert_eq!(message.warnings.len(), 1, "{:?}", message.warnings);
        assert_eq!(message.warnings[0].kind, WarningKind::Unparseable);
        assert_eq!(message.texts.len(), 1);
        let read = &message.texts[0];
        let at = read
            .text
            .find("http://a.example/")
            .expect("the URL is read");
        let span = read.map.raw_span(Span::new(at, at + 17)).expect("mapped");
        assert_eq!(span.start, 100 + text.find("http").unwrap());
        let again = parse(text, MailKind::Eml);
        assert!(again.warnings.is_empty(), "{:?}", again.warnings);
        assert!(again
            .texts
            .iter()
            .any(|t| t.text.contains("http://a.example/")));
    }

    /// A quoted-printable part that is one soft line break before its
    /// boundary decodes to nothing, and the part after it is read.
    #[test]
    fn rfc2045_6_7_a_part_of_one_soft_line_break_is_empty() {
        let message = parse(
            "Content-Type: multipart/mixed; boundary=b\n\n--b\n\
             Content-Transfer-Encoding: quoted-printable\n\n=\n--b\n\n\
             see http://a.example/\n--b--\n",
            MailKind::Eml,
        );
        let texts: Vec<&str> = message.texts.iter().map(|t| t.text.as_str()).collect();
        assert!(texts.iter().all(|text| !text.contains('=')), "{texts:?}");
        assert!(
            texts.iter().any(|text| text.contains("http://a.example/")),
            "{texts:?}"
        );
    }

    fn parse(bytes: &str, kind: MailKind) -> ParsedMessage {
        parse_message(RawMessage {
            number: 1,
            offset: 100,
            line: 10,
            bytes: bytes.as_bytes().to_vec(),
            truncated: false,
            kind,
        })
    }

    /// The names of the header fields `text` opens with, as split.
    fn field_names(text: &str) -> Option<Vec<&str>> {
        let (fields, _) = header_fields(text.as_bytes())?;
        Some(
            fields
                .iter()
                .map(|field| &text[field.name.range()])
                .collect(),
        )
    }

    #[test]
    fn rfc5322_2_2_header_fields_are_split_only_where_plain() {
        assert_eq!(
            field_names("Received: a\n\tb\nSubject: s\r\n \r\nX-Y:z\n\nbody"),
            Some(vec!["Received", "Subject", "X-Y"])
        );
        assert_eq!(field_names("\r\nbody"), Some(vec![]));
        // No blank line; a continuation first; a name with a blank, none,
        // or a byte outside printable ASCII; a line without a colon.
        for text in [
            "Subject: s\n",
            " folded\nSubject: s\n\n",
            "Subject : s\n\n",
            ":s\n\n",
            "Caf\u{e9}: s\n\n",
            "Subject: s\nno colon\n\n",
            "Subject: s\n\r\r\n\n",
        ] {
            assert_eq!(field_names(text), None, "{text:?}");
        }
    }

    /// A message of `bytes` at archive offset 100.
    fn raw_message(bytes: &str) -> RawMessage {
        RawMessage {
            number: 1,
            offset: 100,
            line: 10,
            bytes: bytes.as_bytes().to_vec(),
            truncated: false,
            kind: MailKind::Mbox,
        }
    }

    /// What mail-parser is given of the message `text` (at archive offset
    /// 100) under `headers`. Every byte of it maps onto the same byte of the
    /// archive, but for an added [`PLAIN_TEXT_TYPE`], which maps nowhere.
    fn given_to_parser(text: &str, headers: HeaderUrls) -> String {
        let (buffer, archive) = unquote(&raw_message(text));
        let (buffer, map) = fields_for_parser(buffer, archive, headers);
        let buffer = String::from_utf8(buffer).expect("UTF-8 in, UTF-8 out");
        let added = buffer
            .find(std::str::from_utf8(PLAIN_TEXT_TYPE).expect("ASCII"))
            .map(|at| at..at + PLAIN_TEXT_TYPE.len());
        for (at, byte) in buffer.bytes().enumerate() {
            let archive = map.raw_span(Span::new(at, at + 1));
            match archive {
                _ if added.as_ref().is_some_and(|added| added.contains(&at)) => {
                    assert_eq!(archive, None, "{buffer:?} {at}");
                }
                Some(archive) => assert_eq!(
                    text.as_bytes()[archive.start - 100],
                    byte,
                    "{buffer:?} {at}"
                ),
                None => panic!("{buffer:?} {at} maps nowhere"),
            }
        }
        buffer
    }

    #[test]
    fn fields_nothing_reads_are_left_out_and_the_rest_maps_back() {
        let text = "From a@b.example Mon Jan  1 00:00:00 2024\n\
            Received: from a\n\tby b\nSubject: s\nDKIM-Signature: v=1;\n b=x\n\
            List-Post: <mailto:l@x.example>\nCONTENT-TYPE: text/plain\nX-Spam: no\n\nbody\n";
        let trimmed = |headers| given_to_parser(text, headers);
        assert_eq!(
            trimmed(HeaderUrls::None),
            "Subject: s\nCONTENT-TYPE: text/plain\n\nbody\n"
        );
        assert_eq!(
            trimmed(HeaderUrls::List),
            "Subject: s\nList-Post: <mailto:l@x.example>\nCONTENT-TYPE: text/plain\n\nbody\n"
        );
        assert_eq!(
            trimmed(HeaderUrls::All),
            &text[text.find("Received").unwrap()..]
        );
    }

    #[test]
    fn rfc2045_5_2_a_message_without_a_type_is_given_plain_text() {
        let text = "From a@b.example Mon Jan  1 00:00:00 2024\n\
            Received: x\nSubject: s\nContent-Transfer-Encoding: 8bit\n\nbody\n";
        let given = |headers| given_to_parser(text, headers);
        assert_eq!(
            given(HeaderUrls::None),
            "Subject: s\nContent-Transfer-Encoding: 8bit\nContent-Type: text/plain\n\nbody\n"
        );
        assert_eq!(
            given(HeaderUrls::All),
            &text[text.find("Received").unwrap()..]
        );
    }

    #[test]
    fn a_message_reads_the_same_with_and_without_the_fields_left_out() {
        let messages = [
            "Received: x\nSubject: s http://s.example/\nList-Archive: <http://l.example/>\n\
             Date: Mon, 1 Jan 2024 10:00:00 +0100\nMessage-ID: <m@x>\n\nsee http://b.example/\n",
            "X-A: 1\nContent-Type: multipart/mixed; boundary=b\nX-B: 2\n\n--b\n\
             Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: \
             quoted-printable\n\ncaf=E9 http://q.exa=\nmple/\n--b--\n",
            "Received: x\n\n",
            "Received: only a header block without its end\n",
            "DKIM-Signature: a\r\n b\r\nContent-Type: text/html\r\n\r\n<a href=\"http://h.example/\">h</a>\r\n",
            // No type: read as plain text, in whatever transfer encoding.
            "Subject: s\r\nMIME-Version: 1.0\r\n\r\nsee http://b.example/ caf\u{e9}\r\n",
            "Content-Transfer-Encoding: quoted-printable\n\ncaf=E9 http://q.exa=\nmple/ =\n",
            "Content-Transfer-Encoding: Quoted-Printable\nX: y\n\nbroken == http://q.example/\n",
            "Content-Transfer-Encoding: base64\n\naHR0cDovL2IuZXhhbXBsZS8gY2Fm6Q==\n",
            "Content-Transfer-Encoding: base64\n\nnot base64 http://b.example/ !\n",
            "Subject: s\n\n",
        ];
        for text in messages {
            for headers in [HeaderUrls::None, HeaderUrls::List, HeaderUrls::All] {
                let raw = raw_message(text);
                let (buffer, archive) = unquote(&raw);
                let whole = read_buffer(raw.clone(), buffer, archive, headers);
                assert_eq!(
                    parse_message_with(raw, headers),
                    whole,
                    "{text:?} {headers:?}"
                );
            }
        }
    }

    #[test]
    fn rfc2369_header_fields_are_read_as_chosen() {
        let raw = RawMessage {
            number: 1,
            offset: 0,
            line: 1,
            bytes: b"Subject: see http://s.example/\nList-Post: <mailto:l@x.example>\n\
                     X-Archived-At: <http://a.example/1>\nContent-Base: http://b.example/\n\
                     X-Original-URL: http://o.example/\n\nbody http://c.example/\n"
                .to_vec(),
            truncated: false,
            kind: MailKind::Eml,
        };
        let headers = |choice| -> Vec<String> {
            let message = parse_message_with(raw.clone(), choice);
            let mut texts = message.texts.into_iter();
            let body = texts.next_back().map(|text| text.part.path);
            assert_eq!(body.as_deref(), Some("1"), "the body is always read");
            texts
                .flat_map(|t| t.text.lines().map(str::to_owned).collect::<Vec<_>>())
                .collect()
        };
        assert!(headers(HeaderUrls::None).is_empty());
        assert_eq!(
            headers(HeaderUrls::List),
            [
                "List-Post: <mailto:l@x.example>",
                "X-Archived-At: <http://a.example/1>"
            ]
        );
        assert_eq!(headers(HeaderUrls::All).len(), 5);
    }

    /// True when `line` starts with one or more `>` and then `From `: an
    /// mboxrd quoted `From ` line, as each line is read below.
    fn is_quoted_from(line: &[u8]) -> bool {
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        quotes > 0 && line[quotes..].starts_with(b"From ")
    }

    #[test]
    fn rfc4155_quoted_from_lines_lose_one_quote_and_map_back() {
        let cases = [
            ">From start\n>>From twice\n> From not\nFrom no quote\n>Fromx\n>From",
            "From a@x Mon Jan  1 00:00:00 2024\n>From\n>From a\r\n\n>>>From z",
            "From envelope only",
            "",
            "\n>From \n",
        ];
        for case in cases {
            assert_unquoted_line_by_line(case);
        }
        assert!(!is_quoted_from(b"From x"));
        assert!(is_quoted_from(b">>From x"));
    }

    /// Pieces of mbox lines around quoted `From ` lines.
    const FROM_PIECES: &[&str] = &["From ", ">", "From", "\n", "\r\n", " ", "x>", "a"];

    proptest! {
        #[test]
        fn rfc4155_any_quoted_from_line_loses_one_quote_and_maps_back(
            picks in proptest::collection::vec(0..FROM_PIECES.len(), 0..16),
        ) {
            let case: String = picks.iter().map(|&pick| FROM_PIECES[pick]).collect();
            assert_unquoted_line_by_line(&case);
        }
    }

    /// Check `unquote` against `case` read line by line, as the archive
    /// reads: a line that starts with `>`s and `From ` loses its first `>`,
    /// and every kept byte maps to its place in the archive.
    fn assert_unquoted_line_by_line(case: &str) {
        let raw = RawMessage {
            number: 1,
            offset: 1000,
            line: 1,
            bytes: case.as_bytes().to_vec(),
            truncated: false,
            kind: MailKind::Mbox,
        };
        let (unquoted, map) = unquote(&raw);
        let mut expected = Vec::new();
        let mut raw_offsets = Vec::new();
        let mut at = 0;
        for (number, line) in case.as_bytes().split_inclusive(|&b| b == b'\n').enumerate() {
            let envelope = number == 0 && line.starts_with(b"From ");
            let skip = if envelope {
                line.len()
            } else {
                usize::from(is_quoted_from(line))
            };
            expected.extend_from_slice(&line[skip..]);
            raw_offsets.extend(1000 + at + skip..1000 + at + line.len());
            at += line.len();
        }
        assert_eq!(unquoted, expected, "{case:?}");
        for (text_at, raw_at) in raw_offsets.into_iter().enumerate() {
            let span = map.raw_span(Span::new(text_at, text_at + 1));
            assert_eq!(span, Some(Span::new(raw_at, raw_at + 1)), "{case:?}");
        }
    }

    #[test]
    fn rfc4155_only_mbox_messages_are_unquoted() {
        let message = "From a@x Mon Jan  1 00:00:00 2024\nSubject: x\n\n>From here\n";
        assert_eq!(parse(message, MailKind::Mbox).texts[0].text, "From here\n");
        assert_eq!(parse(message, MailKind::Eml).texts[0].text, ">From here\n");
    }

    #[test]
    fn line_col_counts_crlf_and_lone_cr_as_line_index_does() {
        let message = parse("Subject: x\r\n\r\nab\rcd\r\né http://x\n", MailKind::Eml);
        let at = |needle: &str| {
            100 + message
                .raw
                .bytes
                .windows(needle.len())
                .position(|w| w == needle.as_bytes())
                .unwrap()
        };
        let place = |offset| message.line_col(offset).map(|lc| (lc.line, lc.column));
        assert_eq!(place(100), Some((10, 1)));
        assert_eq!(place(at("cd")), Some((13, 1)));
        assert_eq!(place(at("http")), Some((14, 3)), "é is one column");
        assert_eq!(
            place(at("\r\n\r\nab") + 1),
            Some((10, 12)),
            "between \\r and \\n"
        );
        assert_eq!(place(99), None);
        assert_eq!(place(100 + message.raw.bytes.len() + 1), None);
    }

    #[test]
    fn rfc2046_5_2_1_nested_message_parts_and_headers() {
        let message = parse(
            "Subject: outer\nContent-Type: multipart/mixed; boundary=o\n\n\
             --o\nContent-Type: text/plain\n\nouter http://a.example/\n\
             --o\nContent-Type: message/rfc822\n\n\
             Subject: inner\nArchived-At: <http://b.example/1>\n\n\
             inner http://c.example/\n\
             --o--\n",
            MailKind::Eml,
        );
        let found: Vec<_> = message
            .texts
            .iter()
            .map(|t| (t.part.path.as_str(), t.text.trim_end()))
            .collect();
        assert_eq!(
            found,
            [
                ("1", "outer http://a.example/"),
                ("2.header", "Archived-At: <http://b.example/1>"),
                ("2.1", "inner http://c.example/"),
            ]
        );
        assert_eq!(message.info.subject(), Some("outer"));
        let header = &message.texts[1];
        let url = header.text.find("http://b").unwrap();
        let raw = header.map.raw_span(Span::new(url, url + 18)).unwrap();
        let raw = raw.start - 100..raw.end - 100;
        assert_eq!(&message.raw.bytes[raw], b"http://b.example/1");
        assert!(message.warnings.is_empty(), "{:?}", message.warnings);
    }

    #[test]
    fn quoted_printable_html_is_kept_as_html_mapped_into_the_archive() {
        let message = parse(
            "Subject: h\nContent-Type: text/html; charset=utf-8\n\
             Content-Transfer-Encoding: quoted-printable\n\n\
             <a href=3D\"http://www.exa=\nmple.org/?a=3D1&amp;b=3D2\">go</a>\n",
            MailKind::Eml,
        );
        let text = &message.texts[0];
        assert_eq!(text.part.encoding, TransferEncoding::QuotedPrintable);
        assert_eq!(text.markup, Markup::Html);
        let value = "http://www.example.org/?a=1&amp;b=2";
        let start = text.text.find(value).unwrap();
        let raw = text
            .map
            .raw_span(Span::new(start, start + value.len()))
            .unwrap();
        let raw = raw.start - 100..raw.end - 100;
        assert_eq!(
            &message.raw.bytes[raw],
            b"http://www.exa=\nmple.org/?a=3D1&amp;b=3D2"
        );
    }

    #[test]
    fn rfc2046_5_1_1_closed_nested_multiparts_raise_no_warning() {
        let message = parse(
            "Subject: a\nContent-Type: multipart/mixed; boundary=o\n\n\
             --o\nContent-Type: multipart/alternative; boundary=i\n\n\
             --i\n\nx\n--i--\n\n--o\n\ny\n--o--\ntrailer\n",
            MailKind::Eml,
        );
        let paths: Vec<_> = message.texts.iter().map(|t| t.part.path.as_str()).collect();
        assert_eq!(paths, ["1.1", "2"]);
        assert!(message.warnings.is_empty(), "{:?}", message.warnings);
    }

    #[test]
    fn rfc3464_a_delivery_status_part_is_read_as_text_without_a_warning() {
        let message = parse(
            "Subject: bounce\nContent-Type: multipart/report; boundary=r\n\n\
             --r\n\nnot delivered\n\
             --r\nContent-Type: message/delivery-status\n\n\
             Reporting-MTA: dns; mx.example.org\nX-Help: http://help.example.org/\n\
             --r--\n",
            MailKind::Eml,
        );
        let paths: Vec<_> = message.texts.iter().map(|t| t.part.path.as_str()).collect();
        assert_eq!(paths, ["1", "2"]);
        assert!(message.texts[1].text.contains("http://help.example.org/"));
        assert!(message.warnings.is_empty(), "{:?}", message.warnings);
    }

    #[test]
    fn headerless_bytes_are_reported_not_fatal() {
        for bytes in ["\u{0}\u{1}\n", ""] {
            let message = parse(bytes, MailKind::Eml);
            assert!(message.texts.is_empty());
            let kinds: Vec<_> = message.warnings.iter().map(|w| w.kind).collect();
            assert_eq!(kinds, [WarningKind::Unparseable], "{bytes:?}");
        }
    }
}
