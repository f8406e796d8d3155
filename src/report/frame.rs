//! Where a checked text sits in what the user gave, so that every format
//! prints true input positions: a whole file, one window of a large input
//! read in chunks, or a decoded mail part whose findings are shown on the
//! raw archive lines it was decoded from.
//!
//! Reports always index the checked text ([`Checked::source`]); the frame
//! says how those offsets become the *displayed* text and its positions.
//! [`Checked::locate`] and [`Checked::display_spans`] are the only ways
//! reporters place a span, so the mapping lives here and nowhere else.

use std::sync::Arc;

use super::{clamp, Checked, Location};
use crate::input;
use crate::mail::{MessageInfo, OffsetMap, PartInfo, TransferEncoding};
use crate::span::{LineCol, LineIndex, Span};

/// The input position of a displayed text's first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Base {
    /// Offset of the first byte in the input (as decoded, see `docs/output-formats.md`).
    pub offset: usize,
    /// 1-based input line of the first character.
    pub line: usize,
    /// 1-based input column of the first character; later lines start at 1.
    pub column: usize,
    /// Characters before the first one in the input, when counted (SARIF
    /// gives offsets in characters).
    pub chars: Option<usize>,
}

impl Base {
    /// The start of an input.
    pub const START: Base = Base {
        offset: 0,
        line: 1,
        column: 1,
        chars: Some(0),
    };

    /// The input position of a position local to the displayed text.
    pub fn place(&self, local: LineCol) -> LineCol {
        let column = if local.line == 1 {
            local.column + self.column - 1
        } else {
            local.column
        };
        LineCol {
            line: local.line + self.line - 1,
            column,
        }
    }
}

/// The raw archive text of one message, decoded like any text file (UTF-8,
/// other bytes as Latin-1), shared by all the message's parts.
#[derive(Debug)]
pub struct RawText {
    /// The message's archive bytes as text.
    pub text: String,
    /// Line starts of `text`.
    pub lines: LineIndex,
    /// Archive position of the message's first byte.
    pub base: Base,
    /// Local offsets of the raw bytes read as Latin-1: each became two
    /// bytes of `text`, which shifts every later offset by one.
    widened: Vec<usize>,
}

impl RawText {
    /// The text of the message whose raw bytes start at `base`.
    pub fn new(bytes: &[u8], base: Base) -> Self {
        let widened = latin1_positions(bytes);
        let (text, _) = input::decode(bytes.to_vec());
        RawText {
            lines: LineIndex::new(&text),
            text,
            base,
            widened,
        }
    }

    /// The `text` offset of archive offset `archive`, clamped to the message.
    fn text_offset(&self, archive: usize) -> usize {
        let local = archive.saturating_sub(self.base.offset);
        local + self.widened.partition_point(|&at| at < local)
    }

    /// The archive offset of `text` offset `at` (a character boundary).
    fn archive_offset(&self, at: usize) -> usize {
        // The k-th widened byte starts at text offset `widened[k] + k`;
        // count those before `at`.
        let (mut low, mut high) = (0, self.widened.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.widened[mid] + mid < at {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        self.base.offset + at - low
    }
}

/// Offsets of the bytes of `bytes` that are not part of valid UTF-8, which
/// [`input::decode`] reads as Latin-1.
fn latin1_positions(bytes: &[u8]) -> Vec<usize> {
    let mut positions = Vec::new();
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        at += chunk.valid().len();
        positions.extend(at..at + chunk.invalid().len());
        at += chunk.invalid().len();
    }
    positions
}

/// The mail a checked text was decoded from.
#[derive(Debug, Clone)]
pub struct MailFrame {
    /// The raw message, for display.
    pub raw: Arc<RawText>,
    /// Checked-text spans to archive spans.
    pub map: OffsetMap,
    /// The message.
    pub message: Arc<MessageInfo>,
    /// The MIME part.
    pub part: PartInfo,
}

impl MailFrame {
    /// The archive spans of `span`, one per raw run, as `raw.text` offsets.
    /// A span only decoding inserted (an HTML line break) is shown where its
    /// part starts.
    fn display_spans(&self, span: Span) -> Vec<Span> {
        let mut spans = self.map.raw_spans(span);
        if spans.is_empty() {
            let at = self.map.pieces().first().map_or(0, |piece| piece.raw.start);
            spans.push(Span::new(at, at));
        }
        spans
            .into_iter()
            .map(|raw| {
                Span::new(
                    self.raw.text_offset(raw.start),
                    self.raw.text_offset(raw.end),
                )
            })
            .collect()
    }
}

/// How a checked text's positions are displayed.
#[derive(Debug, Clone)]
pub enum Frame {
    /// The checked text is shown as itself and starts at this position of
    /// its input (a whole file starts at [`Base::START`]).
    Text(Base),
    /// The checked text was decoded from mail and is shown in the archive.
    Mail(Box<MailFrame>),
}

/// A displayed text: what the human format prints, and where it starts.
#[derive(Debug, Clone, Copy)]
pub struct DisplayedText<'c> {
    /// The text.
    pub text: &'c str,
    /// Its line starts.
    pub lines: &'c LineIndex,
    /// Its input position.
    pub base: Base,
}

impl Checked {
    /// The text positions are displayed in.
    pub fn display(&self) -> DisplayedText<'_> {
        match &self.frame {
            Frame::Text(base) => DisplayedText {
                text: &self.source.text,
                lines: self.lines(),
                base: *base,
            },
            Frame::Mail(mail) => DisplayedText {
                text: &mail.raw.text,
                lines: &mail.raw.lines,
                base: mail.raw.base,
            },
        }
    }

    /// Where `span` of the checked text is in the displayed text: one span
    /// per run (a URL joined across a quoted-printable soft break shows as
    /// two), each clamped to character boundaries.
    pub fn display_spans(&self, span: Span) -> Vec<Span> {
        let spans = match &self.frame {
            Frame::Text(_) => vec![span],
            Frame::Mail(mail) => mail.display_spans(span),
        };
        let text = self.display_text();
        spans
            .into_iter()
            .map(|span| Span::from(clamp(text, span)))
            .collect()
    }

    /// Where `span` lies in the input, in bytes and in lines and columns,
    /// from its first displayed byte to its last.
    pub fn locate(&self, span: Span) -> Location {
        self.place(self.display_extent(span))
    }

    /// The displayed text from the first displayed byte of `span` to its
    /// last.
    pub fn display_extent(&self, span: Span) -> Span {
        let spans = self.display_spans(span);
        let first = spans.first().copied().unwrap_or_default();
        let last = spans.last().copied().unwrap_or(first);
        Span::new(first.start, last.end)
    }

    /// Where each displayed run of `span` lies in the input: one location
    /// per run, so that a URL joined across a soft break has two.
    pub fn locate_runs(&self, span: Span) -> Vec<Location> {
        self.display_spans(span)
            .into_iter()
            .map(|run| self.place(run))
            .collect()
    }

    /// The text positions are displayed in, without building its line
    /// index (see [`Checked::display`]).
    fn display_text(&self) -> &str {
        match &self.frame {
            Frame::Text(_) => &self.source.text,
            Frame::Mail(mail) => &mail.raw.text,
        }
    }

    /// The input location of a span of the displayed text: byte offsets in
    /// the input (the archive's own bytes for mail), lines and columns.
    fn place(&self, span: Span) -> Location {
        type Place<'a> = &'a dyn Fn(usize) -> LineCol;
        let (base, place, bytes): (Base, Place, Span) = match &self.frame {
            Frame::Text(base) => (
                *base,
                &|offset| self.source_line_col(offset),
                span.shifted(base.offset),
            ),
            Frame::Mail(mail) => (
                mail.raw.base,
                &|offset| mail.raw.lines.line_col(&mail.raw.text, offset),
                Span::new(
                    mail.raw.archive_offset(span.start),
                    mail.raw.archive_offset(span.end),
                ),
            ),
        };
        let (start, end) = (base.place(place(span.start)), base.place(place(span.end)));
        Location {
            start: bytes.start,
            end: bytes.end,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }

    /// The mail this text came from, if any.
    pub fn mail(&self) -> Option<&MailFrame> {
        match &self.frame {
            Frame::Mail(mail) => Some(mail),
            Frame::Text(_) => None,
        }
    }
}

/// Lower-case name of a transfer encoding, as mail headers spell it.
pub fn encoding_name(encoding: TransferEncoding) -> &'static str {
    encoding.name()
}

/// One sentence naming the message and part a text came from, for the
/// human format's notes.
pub fn mail_note(mail: &MailFrame) -> String {
    let message = &mail.message;
    let mut note = format!("in message {}", message.number);
    let fields = [
        ("Message-ID", message.message_id.as_deref()),
        ("Date", message.date.as_deref()),
        ("Subject", message.subject.as_deref()),
    ];
    for (name, value) in fields {
        if let Some(value) = value {
            note.push_str(&format!(", {name}: {value:?}"));
        }
    }
    let part = &mail.part;
    note.push_str(&format!(
        "; part {} ({}, {})",
        part.path,
        part.content_type,
        encoding_name(part.encoding)
    ));
    note
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Origin, Source};
    use crate::mail::{self, MailKind};

    /// The first text of the first message of `archive`, checked.
    fn checked_mail(archive: &[u8]) -> Checked {
        let message = mail::read(archive, MailKind::Mbox)
            .next()
            .and_then(Result::ok)
            .expect("one message");
        let base = Base {
            offset: message.raw.offset,
            line: message.raw.line,
            column: 1,
            chars: None,
        };
        let raw = Arc::new(RawText::new(&message.raw.bytes, base));
        let text = message.texts[0].clone();
        let lints = crate::lint::lint(&text.text, &Default::default()).collect::<Vec<_>>();
        Checked::new(Source::new(Origin::Stdin, text.text), lints).in_frame(Frame::Mail(Box::new(
            MailFrame {
                raw,
                map: text.map,
                message: Arc::new(message.info),
                part: text.part,
            },
        )))
    }

    #[test]
    fn rfc2045_6_7_soft_break_shows_as_two_archive_runs() {
        let archive = b"From a@x Mon Jan  1 00:00:00 2024\nSubject: s\n\
            Content-Transfer-Encoding: quoted-printable\n\n\
            see http://exa=\nmple.org/ today\n";
        let checked = checked_mail(archive);
        let url = checked.reports[0].found.outer;
        let runs = checked.display_spans(url);
        let text = checked.display().text;
        let shown: Vec<&str> = runs.iter().map(|run| &text[run.range()]).collect();
        assert_eq!(shown, ["http://exa", "mple.org/"]);
        let location = checked.locate(url);
        assert_eq!((location.line, location.column), (5, 5));
        assert_eq!((location.end_line, location.end_column), (6, 10));
        assert_eq!(
            &archive[location.start..location.end],
            b"http://exa=\nmple.org/"
        );
    }

    #[test]
    fn latin1_bytes_before_a_url_shift_display_offsets_not_archive_lines() {
        let archive = b"From a@x Mon Jan  1 00:00:00 2024\nSubject: s\n\
            Content-Type: text/plain; charset=iso-8859-1\n\n\
            caf\xE9 http://example.org/\n";
        let checked = checked_mail(archive);
        let location = checked.locate(checked.reports[0].found.outer);
        assert_eq!((location.line, location.column), (5, 6));
        let text = checked.display().text;
        let runs = checked.display_spans(checked.reports[0].found.outer);
        assert_eq!(&text[runs[0].range()], "http://example.org/");
        assert_eq!(
            &archive[location.start..location.end],
            b"http://example.org/",
            "byte offsets are the archive's"
        );
    }

    #[test]
    fn a_text_window_places_positions_after_its_base() {
        let base = Base {
            offset: 1000,
            line: 40,
            column: 7,
            chars: Some(990),
        };
        let text = "ab http://x.example/\nhttp://y.example/\n".to_string();
        let lints = crate::lint::lint(&text, &Default::default()).collect::<Vec<_>>();
        let checked =
            Checked::new(Source::new(Origin::Stdin, text), lints).in_frame(Frame::Text(base));
        let first = checked.locate(checked.reports[0].found.outer);
        let second = checked.locate(checked.reports[1].found.outer);
        assert_eq!((first.start, first.line, first.column), (1003, 40, 10));
        assert_eq!((second.start, second.line, second.column), (1021, 41, 1));
    }
}
