//! Frames: where a checked text sits in its input. A whole file or one
//! window of a large input is shown as itself from a [`Base`] position; a
//! decoded mail part is shown on the raw archive lines it came from.

use std::sync::{Arc, OnceLock};

use crate::mail::{MessageInfo, OffsetMap, PartInfo};
use crate::source::{self, Widened, BYTE_ORDER_MARK};
use crate::span::{DisplaySpan, LineCol, LineIndex, SourceSpan, Span};

/// The input position of a displayed text's first character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Base {
    /// Offset of the first byte in the input (as decoded, see `docs/output-formats.md`).
    pub offset: usize,
    /// 1-based input line of the first character.
    pub line: usize,
    /// 1-based input column of the first character; later lines start at 1.
    /// 0 for the byte-order mark an input may open with, which is not a
    /// column (see [`Base::of_input`]).
    pub column: usize,
    /// Characters before the first one in the input, when counted (SARIF
    /// gives offsets in characters).
    pub chars: Option<usize>,
}

impl Base {
    /// The start of an input.
    pub(crate) const START: Base = Base {
        offset: 0,
        line: 1,
        column: 1,
        chars: Some(0),
    };

    /// Where an input whose text opens with `text` starts: at
    /// [`Base::START`], but a UTF-8 byte-order mark the text opens with is
    /// not a column. Editors do not show it, and the same text saved as
    /// UTF-16 has none once decoded, so the first line's columns are counted
    /// from the character after it. Only an input's start is given this way:
    /// a U+FEFF further on is a character like any other, wherever a window
    /// or batch happens to start.
    pub(crate) fn of_input(text: &str) -> Base {
        Base {
            column: usize::from(!text.starts_with(BYTE_ORDER_MARK)),
            ..Base::START
        }
    }

    /// This base for `text`, the displayed text that starts at it: at an
    /// input's start ([`Base::START`]) it is [`Base::of_input`] `text`.
    pub(crate) fn for_text(self, text: &str) -> Base {
        if self == Base::START {
            Base::of_input(text)
        } else {
            self
        }
    }

    /// The input position of a position local to the displayed text (the
    /// mark itself, which has no column, is placed at column 1).
    pub(crate) fn place(&self, local: LineCol) -> LineCol {
        let column = if local.line == 1 {
            (local.column + self.column - 1).max(1)
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
pub(crate) struct RawText {
    /// The message's archive bytes as text.
    pub text: String,
    /// Line starts of `text`, indexed when a position is first asked for
    /// (plain `extract` asks none).
    lines: OnceLock<LineIndex>,
    /// Archive position of the message's first byte.
    pub base: Base,
    /// Where the raw bytes were read as Latin-1: each became two bytes of
    /// `text`, which shifts every later offset by one.
    widened: Widened,
}

impl RawText {
    /// The text of the message whose raw bytes start at `base`.
    pub(crate) fn new(bytes: &[u8], base: Base) -> Self {
        let widened = Widened::of(bytes);
        let (text, _) = source::decode(bytes.to_vec());
        RawText {
            lines: OnceLock::new(),
            text,
            base,
            widened,
        }
    }

    /// Line starts of `text`.
    pub(crate) fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// The `text` offset of archive offset `archive`, clamped to the message.
    fn text_offset(&self, archive: usize) -> usize {
        self.widened
            .text_offset(archive.saturating_sub(self.base.offset))
    }

    /// The archive offset of `text` offset `at` (a character boundary).
    pub(super) fn archive_offset(&self, at: usize) -> usize {
        self.base.offset + self.widened.byte_offset(at)
    }
}

/// The mail a checked text was decoded from.
#[derive(Debug, Clone)]
pub(crate) struct MailFrame {
    /// The raw message, for display.
    pub raw: Arc<RawText>,
    /// Checked-text spans to archive spans.
    pub map: OffsetMap,
    /// The message the part belongs to: number, Message-ID, date, subject.
    pub message: Arc<MessageInfo>,
    /// The MIME part.
    pub part: PartInfo,
}

impl MailFrame {
    /// The archive spans of `span`, one per raw run, as `raw.text` offsets.
    /// A span that maps to no archive byte is shown where its part starts.
    pub(super) fn display_spans(&self, span: SourceSpan) -> Vec<DisplaySpan> {
        let mut spans = self.map.raw_spans(span.of());
        if spans.is_empty() {
            let at = self.map.pieces().first().map_or(0, |piece| piece.raw.start);
            spans.push(Span::new(at, at));
        }
        // The map's raw spans are archive offsets; the display is the
        // message's raw text.
        spans
            .into_iter()
            .map(|raw| {
                DisplaySpan::new(
                    self.raw.text_offset(raw.start),
                    self.raw.text_offset(raw.end),
                )
            })
            .collect()
    }
}

/// How a checked text's positions are displayed.
#[derive(Debug, Clone)]
pub(crate) enum Frame {
    /// The checked text is shown as itself and starts at this position of
    /// its input (a whole file starts at [`Base::START`]).
    Text(Base),
    /// The checked text was decoded from mail and is shown in the archive.
    Mail(Box<MailFrame>),
}
