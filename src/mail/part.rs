//! What reading a message yields: its texts with the part each came from,
//! and the problems met on the way.

use super::summary::Summary;
use crate::offset_map::OffsetMap;
use crate::source::Markup;

/// The message a text came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MessageInfo {
    /// 1-based position in the archive.
    pub number: usize,
    /// Archive byte offset of the message's first byte.
    pub offset: usize,
    /// 1-based archive line of the message's first byte.
    pub line: usize,
    /// Its Message-ID, Date and Subject, parsed when first read.
    pub(super) summary: Summary,
}

impl MessageInfo {
    /// `Message-ID`, without angle brackets.
    pub fn message_id(&self) -> Option<&str> {
        self.summary.message_id()
    }

    /// `Date`, in RFC 3339 when it parses, else as written, trimmed.
    pub fn date(&self) -> Option<&str> {
        self.summary.date()
    }

    /// `Subject`, encoded words decoded.
    pub fn subject(&self) -> Option<&str> {
        self.summary.subject()
    }

    /// Parse the summary now, on this thread, for a report that will show
    /// it.
    pub(crate) fn parse_summary(&self) {
        self.summary.parse();
    }
}

/// How a part's body was transfer-encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
#[non_exhaustive]
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
    /// A charset's decoder would have erased the text, or the text cannot
    /// be in that charset; it was read byte by byte.
    UndecodableCharset,
    /// Parts were nested deeper than the walk descends; the deepest were
    /// read as raw text.
    TooDeep,
}

impl WarningKind {
    /// A few words naming the kind of problem.
    pub fn describe(self) -> &'static str {
        match self {
            WarningKind::Unparseable => "unparseable message",
            WarningKind::Truncated => "truncated message",
            WarningKind::UnterminatedMultipart => "malformed multipart",
            WarningKind::BadEncoding => "undecodable body",
            WarningKind::UnknownCharset => "unknown charset",
            WarningKind::UndecodableCharset => "undecodable charset",
            WarningKind::TooDeep => "parts nested too deep",
        }
    }
}

/// A problem found in a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MailWarning {
    /// What kind of problem.
    pub kind: WarningKind,
    /// The part it is in, when it is in one.
    pub part: Option<String>,
    /// A sentence for the user.
    pub message: String,
}
