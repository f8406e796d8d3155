//! One raw message to the texts the scanner reads: MIME traversal with
//! mail-parser, then decoding with offset maps back to the archive.

use std::sync::OnceLock;

use mail_parser::{Encoding, Message, MessageParser, MessagePart, MimeHeaders, PartType};

use super::charset;
use super::detect::MailKind;
use super::mbox::RawMessage;
use super::transfer::decode_quoted_printable;
use crate::offset_map::OffsetMap;
use crate::source::Markup;
use crate::span::{LineCol, Span};

/// Header fields that carry URLs in `<...>`: RFC 2369 `List-*`, RFC 5064
/// `Archived-At`, RFC 2110 `Content-Base`. A trailing `-` matches a prefix.
const URL_HEADERS: &[&str] = &["list-", "archived-at", "content-base"];

/// The message a text came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageInfo {
    /// 1-based position in the archive.
    pub number: usize,
    /// Archive byte offset of the message's first byte.
    pub offset: usize,
    /// 1-based archive line of the message's first byte.
    pub line: usize,
    /// `Message-ID`, without angle brackets.
    pub message_id: Option<String>,
    /// `Date`, in RFC 3339 when it parses.
    pub date: Option<String>,
    /// `Subject`, encoded words decoded.
    pub subject: Option<String>,
}

/// How a part's body was transfer-encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransferEncoding {
    /// 7bit, 8bit or binary: the body is the text.
    Identity,
    /// Quoted-printable: maps byte by byte except for escapes.
    QuotedPrintable,
    /// Base64: maps only as a whole part.
    Base64,
}

impl TransferEncoding {
    /// Lower-case name, as mail headers spell it.
    pub fn name(self) -> &'static str {
        match self {
            TransferEncoding::Identity => "identity",
            TransferEncoding::QuotedPrintable => "quoted-printable",
            TransferEncoding::Base64 => "base64",
        }
    }
}

/// Where in a message a text came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartInfo {
    /// MIME part path as IMAP numbers it (`1`, `1.2`), or `header` for the
    /// URL-bearing header fields.
    pub path: String,
    /// Media type, lower case (`text/plain`).
    pub content_type: String,
    /// Declared charset, if any.
    pub charset: Option<String>,
    /// Transfer encoding of the body.
    pub encoding: TransferEncoding,
}

/// One text-bearing unit of a message, ready for [`crate::lint::lint_markup`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailText {
    /// The decoded text in UTF-8.
    pub text: String,
    /// The markup it is written in: HTML for an HTML part.
    pub markup: Markup,
    /// The part it came from.
    pub part: PartInfo,
    /// Spans of `text` to archive byte spans.
    pub map: OffsetMap,
}

/// What went wrong in a message that was still read as far as possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// No header block was found; the message gave no text.
    Unparseable,
    /// The message was longer than the cap and was cut.
    Truncated,
    /// A multipart had no boundary or no closing delimiter.
    UnterminatedMultipart,
    /// A base64 or quoted-printable body did not decode; it was read raw.
    BadEncoding,
    /// A charset label named no known charset; UTF-8 was assumed.
    UnknownCharset,
}

/// A problem found in a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailWarning {
    /// What kind of problem.
    pub kind: WarningKind,
    /// The part it is in, when it is in one.
    pub part: Option<String>,
    /// A sentence for the user.
    pub message: String,
}

/// A message read: its texts, its problems, and its raw bytes for line numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    let (buffer, archive) = unquote(&raw);
    let mut reader = Reader {
        buffer: &buffer,
        archive,
        texts: Vec::new(),
        warnings: Vec::new(),
    };
    if raw.truncated {
        reader.warn(
            WarningKind::Truncated,
            None,
            "message longer than the size cap; its end was not read".into(),
        );
    }
    let mut info = MessageInfo {
        number: raw.number,
        offset: raw.offset,
        line: raw.line,
        message_id: None,
        date: None,
        subject: None,
    };
    match MessageParser::default().parse(&buffer[..]) {
        Some(message) => {
            info.message_id = message.message_id().map(str::to_owned);
            info.date = message.date().map(|date| date.to_rfc3339()).or_else(|| {
                message
                    .header_raw("Date")
                    .map(|date| date.trim().to_owned())
            });
            info.subject = message.subject().map(str::to_owned);
            reader.message(&message, "");
        }
        None => reader.warn(
            WarningKind::Unparseable,
            None,
            "no header block found".into(),
        ),
    }
    ParsedMessage {
        info,
        texts: reader.texts,
        warnings: reader.warnings,
        raw,
        line_starts: OnceLock::new(),
    }
}

/// The bytes mail-parser reads — the message without its envelope `From `
/// line and with mboxrd `>From ` quoting undone — and their map onto the
/// archive.
fn unquote(raw: &RawMessage) -> (Vec<u8>, OffsetMap) {
    let bytes = &raw.bytes;
    let mut buffer = Vec::with_capacity(bytes.len());
    let mut map = OffsetMap::new();
    let mut lines = bytes.split_inclusive(|&b| b == b'\n');
    let mut at = 0;
    // Some .eml files keep the envelope line too; it is no header field.
    if bytes.starts_with(b"From ") {
        at = lines.next().map_or(0, <[u8]>::len);
    }
    let quoted = raw.kind == MailKind::Mbox;
    for line in lines {
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        let skip = usize::from(quoted && quotes > 0 && line[quotes..].starts_with(b"From "));
        let kept = Span::new(at + skip, at + line.len());
        map.push(
            Span::new(buffer.len(), buffer.len() + kept.len()),
            kept.shifted(raw.offset),
            true,
        );
        buffer.extend_from_slice(&line[skip..]);
        at += line.len();
    }
    (buffer, map)
}

/// Walks one parsed message, collecting texts and warnings.
struct Reader<'b> {
    /// The bytes mail-parser parsed; its offsets index these.
    buffer: &'b [u8],
    /// `buffer` offsets to archive offsets.
    archive: OffsetMap,
    texts: Vec<MailText>,
    warnings: Vec<MailWarning>,
}

impl Reader<'_> {
    /// Record a problem.
    fn warn(&mut self, kind: WarningKind, part: Option<&str>, message: String) {
        self.warnings.push(MailWarning {
            kind,
            part: part.map(str::to_owned),
            message,
        });
    }

    /// A message (the top one or a nested message/rfc822) under `prefix`.
    fn message(&mut self, message: &Message<'_>, prefix: &str) {
        let Some(root) = message.parts.first() else {
            return;
        };
        let header_path = if prefix.is_empty() {
            "header".to_owned()
        } else {
            format!("{prefix}.header")
        };
        self.url_headers(root, &header_path);
        match &root.body {
            PartType::Multipart(children) => self.children(message, root, children, prefix),
            _ => self.part(message, 0, &join(prefix, 1)),
        }
    }

    /// The children of the multipart `part` whose own path is `path`.
    fn children(
        &mut self,
        message: &Message<'_>,
        part: &MessagePart<'_>,
        children: &[u32],
        path: &str,
    ) {
        self.check_closing_delimiter(part, path);
        for (index, &child) in children.iter().enumerate() {
            self.part(message, child, &join(path, index + 1));
        }
    }

    /// Part `id` of `message`, at `path`.
    fn part(&mut self, message: &Message<'_>, id: u32, path: &str) {
        let Some(part) = message.part(id) else {
            return;
        };
        // mail-parser also flags parts cut short by a missing boundary; only
        // a declared encoding that failed is an encoding problem.
        let declared = part
            .content_transfer_encoding()
            .map(str::to_ascii_lowercase);
        if part.is_encoding_problem
            && matches!(declared.as_deref(), Some("base64" | "quoted-printable"))
        {
            let declared = declared.unwrap_or_default();
            self.warn(
                WarningKind::BadEncoding,
                Some(path),
                format!("{declared} body does not decode; read as raw text"),
            );
        }
        match &part.body {
            PartType::Multipart(children) => self.children(message, part, children, path),
            PartType::Message(nested) => self.message(nested, path),
            PartType::Text(text) => self.text(part, path, text, false),
            PartType::Html(text) => self.text(part, path, text, true),
            PartType::Binary(_) | PartType::InlineBinary(_) => {}
        }
    }

    /// Warn when a multipart lacks its boundary or its closing delimiter
    /// (RFC 2046 section 5.1.1), the usual sign of a cut message.
    fn check_closing_delimiter(&mut self, part: &MessagePart<'_>, path: &str) {
        let path = if path.is_empty() { None } else { Some(path) };
        let Some(boundary) = part.content_type().and_then(|ct| ct.attribute("boundary")) else {
            self.warn(
                WarningKind::UnterminatedMultipart,
                path,
                "multipart without a boundary parameter".into(),
            );
            return;
        };
        let closing = format!("--{boundary}--");
        // Search the part itself (plus a delimiter's length, should the
        // part end be placed before it), not the rest of the message: a
        // message of many multiparts must stay linear.
        let start = part.offset_body as usize;
        let end = (part.offset_end as usize + closing.len() + 2).min(self.buffer.len());
        let body = self.buffer.get(start..end).unwrap_or_default();
        if memchr::memmem::find(body, closing.as_bytes()).is_none() {
            self.warn(
                WarningKind::UnterminatedMultipart,
                path,
                format!(
                    "multipart has no closing '{closing}' line; read up to the end of the message"
                ),
            );
        }
    }

    /// A text or HTML part whose decoded text mail-parser gave as `decoded`.
    fn text(&mut self, part: &MessagePart<'_>, path: &str, decoded: &str, is_html: bool) {
        let charset = part
            .content_type()
            .and_then(|ct| ct.attribute("charset"))
            .map(str::to_owned);
        let (encoding, text, map) = self.decode_body(part, path, charset.as_deref(), decoded);
        self.texts.push(MailText {
            text,
            markup: if is_html { Markup::Html } else { Markup::Plain },
            part: PartInfo {
                path: path.to_owned(),
                content_type: media_type(part, is_html),
                charset,
                encoding,
            },
            map: map.then(&self.archive),
        });
    }

    /// The text of a part's body and its map onto `buffer`: decoded here
    /// where bytes map back (identity, quoted-printable), taken from
    /// mail-parser where they cannot (base64).
    fn decode_body(
        &mut self,
        part: &MessagePart<'_>,
        path: &str,
        charset: Option<&str>,
        decoded: &str,
    ) -> (TransferEncoding, String, OffsetMap) {
        let start = part.offset_body as usize;
        let body = Span::new(start, (part.offset_end as usize).max(start));
        let raw = self.buffer.get(body.range()).unwrap_or_default();
        match part.encoding {
            Encoding::Base64 => {
                if !charset::is_known(charset) {
                    self.warn_unknown_charset(charset, path);
                }
                let map = OffsetMap::whole(decoded.len(), body);
                (TransferEncoding::Base64, decoded.to_owned(), map)
            }
            Encoding::QuotedPrintable => {
                let (bytes, transfer_map) = decode_quoted_printable(raw);
                let (text, map) = self.decode_charset(&bytes, charset, path);
                let body_map = transfer_map.then(&OffsetMap::identity(body));
                (TransferEncoding::QuotedPrintable, text, map.then(&body_map))
            }
            Encoding::None => {
                let (text, map) = self.decode_charset(raw, charset, path);
                let map = map.then(&OffsetMap::identity(body));
                (TransferEncoding::Identity, text, map)
            }
        }
    }

    /// Charset-decode `bytes`, warning about an unknown label.
    fn decode_charset(
        &mut self,
        bytes: &[u8],
        charset: Option<&str>,
        path: &str,
    ) -> (String, OffsetMap) {
        let decoded = charset::decode(bytes, charset);
        if !decoded.known_charset {
            self.warn_unknown_charset(charset, path);
        }
        (decoded.text, decoded.map)
    }

    /// Warn that `charset` is unknown and UTF-8 was assumed.
    fn warn_unknown_charset(&mut self, charset: Option<&str>, path: &str) {
        let label = charset.unwrap_or_default();
        self.warn(
            WarningKind::UnknownCharset,
            Some(path),
            format!("unknown charset '{label}'; read as UTF-8"),
        );
    }

    /// The URL-bearing header fields of `part`, raw, as one text.
    fn url_headers(&mut self, part: &MessagePart<'_>, path: &str) {
        let mut text = String::new();
        let mut map = OffsetMap::new();
        for header in &part.headers {
            let name = header.name().to_ascii_lowercase();
            let wanted = URL_HEADERS.iter().any(|h| {
                if h.ends_with('-') {
                    name.starts_with(h)
                } else {
                    name == *h
                }
            });
            let field = Span::new(header.offset_field as usize, header.offset_end as usize);
            let Some(raw) = self.buffer.get(field.range()).filter(|_| wanted) else {
                continue;
            };
            let (field_text, field_map) = charset::decode_utf8_lossy(raw);
            for piece in field_map.pieces() {
                map.push(
                    piece.text.shifted(text.len()),
                    piece.raw.shifted(field.start),
                    piece.exact,
                );
            }
            text.push_str(&field_text);
            if !text.ends_with('\n') {
                text.push('\n');
            }
        }
        if text.is_empty() {
            return;
        }
        self.texts.push(MailText {
            text,
            markup: Markup::Plain,
            part: PartInfo {
                path: path.to_owned(),
                content_type: "text/rfc822-headers".into(),
                charset: None,
                encoding: TransferEncoding::Identity,
            },
            map: map.then(&self.archive),
        });
    }
}

/// The media type of a text part, lower case; mail-parser's default when the
/// part declares none.
fn media_type(part: &MessagePart<'_>, is_html: bool) -> String {
    match part.content_type() {
        Some(ct) => match ct.subtype() {
            Some(subtype) => format!("{}/{}", ct.ctype(), subtype).to_ascii_lowercase(),
            None => ct.ctype().to_ascii_lowercase(),
        },
        None if is_html => "text/html".into(),
        None => "text/plain".into(),
    }
}

/// The path of child `number` (1-based) under `prefix`.
fn join(prefix: &str, number: usize) -> String {
    if prefix.is_empty() {
        number.to_string()
    } else {
        format!("{prefix}.{number}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(message.info.subject.as_deref(), Some("outer"));
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
    fn headerless_bytes_are_reported_not_fatal() {
        for bytes in ["\u{0}\u{1}\n", ""] {
            let message = parse(bytes, MailKind::Eml);
            assert!(message.texts.is_empty());
            let kinds: Vec<_> = message.warnings.iter().map(|w| w.kind).collect();
            assert_eq!(kinds, [WarningKind::Unparseable], "{bytes:?}");
        }
    }
}
