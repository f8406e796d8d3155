//! A text after linting, and where it sits in what the user gave: the
//! hand-off from reading inputs to reporting them.
//!
//! Reports index the checked text; its [`Frame`] says how those offsets
//! become the displayed text and its input positions (a whole file, one
//! window of a large input, or a decoded mail part shown on its raw archive
//! lines). [`Checked::locate`] and [`Checked::display_spans`] are the only
//! ways reporters place a span, so the mapping lives here and nowhere else.

mod frame;

use std::cell::Cell;
use std::sync::{Arc, OnceLock};

use crate::lint::{Finding, Linted, UrlReport};
use crate::scan::Unclosed;
use crate::source::{Named, Source};
use crate::span::{clamp, DisplaySpan, LineCol, LineCursor, LineIndex, SourceSpan, Span};

pub(crate) use frame::{Base, Frame, MailFrame, RawText};

/// Which checked texts keep their source's text for the reporter, so that a
/// small file is copied out of the buffer it was read into only when
/// something will show or place a part of it.
// The Python module keeps every text (`Always`); only the command's
// reporters ask for less. Gating the other variants would leave `keeps`
// blind to findings in that build, and `Checked::has_findings` and the
// text's own findings unread with it, for no gain.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeepText {
    /// Every text: the reporter places or shows each URL.
    Always,
    /// Texts with a finding: the reporter places or shows findings only.
    WithFindings,
    /// None: the reporter shows names and URLs only.
    Never,
}

impl KeepText {
    /// Whether the reporter reads `checked`'s text (and, for mail, its
    /// message's summary).
    pub(crate) fn keeps(self, checked: &Checked) -> bool {
        match self {
            KeepText::Always => true,
            KeepText::WithFindings => checked.has_findings(),
            KeepText::Never => false,
        }
    }
}

/// The text a checked text keeps: its own, or one it shares with what
/// holds it (see [`Checked::share_text`]).
#[derive(Debug, Clone)]
enum KeptText {
    /// Read or copied for this checked text.
    Owned(String),
    /// The same text, held by the language server's document too, or by
    /// the other batches of a large document's URLs.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    Shared(Arc<String>),
}

impl KeptText {
    /// The text, whoever holds it.
    fn as_str(&self) -> &str {
        match self {
            KeptText::Owned(text) => text,
            KeptText::Shared(text) => text,
        }
    }
}

/// One source after linting: its text and every URL found in it.
///
/// Positions are placed through its [`Frame`] (see [`Checked::locate`]).
/// Lines are counted only as far as positions are asked for: most windows
/// of a large input have few findings, and a line index of every window
/// cost more than linting it.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    /// What names the source: its origin, name and markup.
    pub source: Named,
    /// The source's text; `None` when the reporter does not read it (see
    /// [`KeepText`]), so that a small file linted where it was read is not
    /// copied out for nothing.
    text: Option<KeptText>,
    /// Line starts of the text, built on the first lookup the cursor
    /// cannot answer (see [`Checked::lines`]).
    lines: OnceLock<LineIndex>,
    /// Where the last in-order lookup in the text left off.
    cursor: Cell<LineCursor>,
    /// The URLs found, in source order, with their findings.
    pub reports: Vec<UrlReport>,
    /// Findings about the text itself, which belong to no URL (unused
    /// suppressions), in source order.
    pub findings: Vec<Finding>,
    /// What the text's markup left open, which took in the text after it
    /// unread (see [`Linted::Unclosed`]).
    pub unclosed: Option<Unclosed>,
    /// Where the text sits in its input, for positions.
    pub frame: Frame,
    /// True when this text continues the previous one's input (a later
    /// window of a large file, another part of a mail archive): the input is
    /// counted once, and `json` merges windows of one file.
    pub continuation: bool,
}

impl Checked {
    /// Bundle a whole source with its lint, in source order.
    pub(crate) fn new(source: Source, linted: impl IntoIterator<Item = Linted>) -> Self {
        let (named, text) = source.into_parts();
        Checked::of(named, Some(KeptText::Owned(text)), linted)
    }

    /// Bundle `text`, shared with other checked texts of the same input
    /// (batches of one document's URLs), what names it and its lint.
    #[cfg(feature = "cli")]
    pub(crate) fn sharing(
        named: Named,
        text: &Arc<String>,
        linted: impl IntoIterator<Item = Linted>,
    ) -> Self {
        Checked::of(named, Some(KeptText::Shared(Arc::clone(text))), linted)
    }

    /// Bundle the lint of a text that is not kept (see [`KeepText`]) with
    /// what names it; [`Checked::with_text`] gives the text later.
    pub(crate) fn without_text(named: Named, linted: impl IntoIterator<Item = Linted>) -> Self {
        Checked::of(named, None, linted)
    }

    /// Bundle `text` (if kept), what names it and its lint, in source order.
    fn of(named: Named, text: Option<KeptText>, linted: impl IntoIterator<Item = Linted>) -> Self {
        let mut reports = Vec::new();
        let mut findings = Vec::new();
        let mut unclosed = None;
        for item in linted {
            match item {
                Linted::Url(report) => reports.push(report),
                Linted::Text(finding) => findings.push(finding),
                Linted::Unclosed(left_open) => unclosed = Some(left_open),
            }
        }
        Checked {
            lines: OnceLock::new(),
            cursor: Cell::new(LineCursor::default()),
            source: named,
            text,
            reports,
            findings,
            unclosed,
            frame: Frame::Text(Base::START),
            continuation: false,
        }
    }

    /// True when the text has neither a URL nor a finding of its own.
    #[cfg(feature = "cli")]
    pub(crate) fn is_empty(&self) -> bool {
        self.reports.is_empty() && self.findings.is_empty()
    }

    /// The same checked text with its source's text given: for a text linted
    /// where it was read and copied only once a reporter needs it.
    #[cfg(feature = "cli")]
    pub(crate) fn with_text(mut self, text: String) -> Self {
        self.text = Some(KeptText::Owned(text));
        // Positions found so far index the text given before.
        self.lines = OnceLock::new();
        self.cursor = Cell::new(LineCursor::default());
        self
    }

    /// True when a URL or the text itself has a finding.
    pub(crate) fn has_findings(&self) -> bool {
        !self.findings.is_empty()
            || self
                .reports
                .iter()
                .any(|report| !report.findings.is_empty())
    }

    /// The source's text, when it was kept.
    pub(crate) fn text(&self) -> Option<&str> {
        self.text.as_ref().map(KeptText::as_str)
    }

    /// Hold `text` in place of the checked text's own copy when the two are
    /// the same: the language server's document is read whole as one text,
    /// and its analysis, held while the document is open, need not keep the
    /// document twice. A different text leaves the own copy in place.
    #[cfg(feature = "cli")]
    pub(crate) fn share_text(&mut self, text: &Arc<String>) {
        if self.text() == Some(text.as_str()) {
            self.text = Some(KeptText::Shared(Arc::clone(text)));
        }
    }

    /// The source's text, when it was kept, given up: for its buffer to be
    /// used again.
    #[cfg(feature = "cli")]
    pub(crate) fn into_text(self) -> Option<String> {
        self.text.map(|text| match text {
            KeptText::Owned(text) => text,
            KeptText::Shared(text) => Arc::unwrap_or_clone(text),
        })
    }

    /// The text positions index: the source's text, or, for one not kept,
    /// nothing. A reporter that places or shows a finding asks for the text
    /// to be kept ([`KeepText`]), so no finding is placed in a text that was
    /// dropped; one that places a finding in a text it did not ask for is a
    /// bug the debug build names.
    fn positioned_text(&self) -> &str {
        debug_assert!(
            self.text.is_some() || !self.has_findings(),
            "{}: positions asked of a text not kept",
            self.source.name
        );
        self.text().unwrap_or_default()
    }

    /// Line starts of the text, computed on first use and then kept.
    pub(crate) fn lines(&self) -> &LineIndex {
        self.lines
            .get_or_init(|| LineIndex::new(self.positioned_text()))
    }

    /// Line and column of `offset` in the text: walked to from the
    /// previous lookup when it is ahead or just behind, otherwise (or once
    /// the index exists) read from [`Checked::lines`].
    fn source_line_col(&self, offset: usize) -> LineCol {
        let text = self.positioned_text();
        if let Some(index) = self.lines.get() {
            return index.line_col(text, offset);
        }
        let mut cursor = self.cursor.get();
        let place = cursor.line_col(text, offset);
        self.cursor.set(cursor);
        place.unwrap_or_else(|| self.lines().line_col(text, offset))
    }

    /// The same, placed in its input by `frame`.
    pub(crate) fn in_frame(mut self, frame: Frame) -> Self {
        self.frame = frame;
        self
    }

    /// The same, marked as continuing the previous checked text's input.
    pub(crate) fn continuing(mut self, continuation: bool) -> Self {
        self.continuation = continuation;
        self
    }
}

/// A span placed in its source. `end_line`/`end_column` give the position
/// just past the last character (exclusive), like the byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Location {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column of `start`, in characters.
    pub column: usize,
    /// 1-based line of `end`.
    pub end_line: usize,
    /// 1-based column of `end`, in characters.
    pub end_column: usize,
}

/// A displayed text: what the human format prints, and where it starts.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct DisplayedText<'c> {
    /// The checked text itself, or the raw archive text of a mail part.
    pub text: &'c str,
    /// Line starts of `text`.
    pub lines: &'c LineIndex,
    /// The input position of `text`'s first character.
    pub base: Base,
}

impl Checked {
    /// The text positions are displayed in.
    #[cfg(feature = "cli")]
    pub(crate) fn display(&self) -> DisplayedText<'_> {
        match &self.frame {
            Frame::Text(base) => DisplayedText {
                text: self.positioned_text(),
                lines: self.lines(),
                base: base.for_text(self.positioned_text()),
            },
            Frame::Mail(mail) => DisplayedText {
                text: &mail.raw.text,
                lines: mail.raw.lines(),
                base: mail.raw.base,
            },
        }
    }

    /// Where `span` of the checked text is in the displayed text: one span
    /// per run (a URL joined across a quoted-printable soft break shows as
    /// two), each clamped to character boundaries.
    pub(crate) fn display_spans(&self, span: SourceSpan) -> Vec<DisplaySpan> {
        let spans = match &self.frame {
            // A text shown as itself: its source offsets are display offsets.
            Frame::Text(_) => vec![span.of()],
            Frame::Mail(mail) => mail.display_spans(span),
        };
        let text = self.display_text();
        spans
            .into_iter()
            .map(|span| DisplaySpan::from(clamp(text, span)))
            .collect()
    }

    /// Where `span` lies in the input, in bytes and in lines and columns,
    /// from its first displayed byte to its last.
    pub(crate) fn locate(&self, span: SourceSpan) -> Location {
        self.place(self.display_extent(span))
    }

    /// The displayed text from the first displayed byte of `span` to its
    /// last.
    pub(crate) fn display_extent(&self, span: SourceSpan) -> DisplaySpan {
        let spans = self.display_spans(span);
        let first = spans.first().copied().unwrap_or_default();
        let last = spans.last().copied().unwrap_or(first);
        DisplaySpan::new(first.start, last.end)
    }

    /// Where each displayed run of `span` lies in the input: one location
    /// per run, so that a URL joined across a soft break has two.
    #[cfg(feature = "cli")]
    pub(crate) fn locate_runs(&self, span: SourceSpan) -> Vec<Location> {
        self.display_spans(span)
            .into_iter()
            .map(|run| self.place(run))
            .collect()
    }

    /// The text positions are displayed in, without building its line
    /// index (see [`Checked::display`]).
    fn display_text(&self) -> &str {
        match &self.frame {
            Frame::Text(_) => self.positioned_text(),
            Frame::Mail(mail) => &mail.raw.text,
        }
    }

    /// The input location of a span of the displayed text: byte offsets in
    /// the input (the archive's own bytes for mail), lines and columns.
    fn place(&self, span: DisplaySpan) -> Location {
        type Place<'a> = &'a dyn Fn(usize) -> LineCol;
        // `bytes` are offsets in the input, not in the displayed text.
        let (base, place, bytes): (Base, Place, Span) = match &self.frame {
            Frame::Text(base) => (
                base.for_text(self.positioned_text()),
                &|offset| self.source_line_col(offset),
                span.shifted(base.offset).of(),
            ),
            Frame::Mail(mail) => (
                mail.raw.base,
                &|offset| mail.raw.lines().line_col(&mail.raw.text, offset),
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
    pub(crate) fn mail(&self) -> Option<&MailFrame> {
        match &self.frame {
            Frame::Mail(mail) => Some(mail),
            Frame::Text(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::mail::{self, MailKind};
    use crate::source::Origin;

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
