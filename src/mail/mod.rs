//! Mail input: mbox archives and single messages, read one message at a time
//! into decoded texts the scanner can lint, each with a map back to the raw
//! archive bytes.
//!
//! MIME structure, base64 and charset tables come from mail-parser; this
//! module adds what it lacks: streaming mbox splitting, and offset maps through
//! quoted-printable and charset decoding, so that a diagnostic on a decoded
//! URL points at the archive bytes it was written as.
//!
//! Typical use: [`MailKind::detect`] (or a forced kind), then [`read`]; for
//! each [`ParsedMessage`], lint each [`MailText`]'s `text` in its `markup`
//! ([`crate::lint::lint_markup`]: an HTML part is read as HTML), send every
//! source span through its `map` ([`OffsetMap::raw_spans`]) to archive
//! spans, and place those with [`ParsedMessage::line_col`]. Base64 text maps
//! to its whole part.
//!
//! ```
//! use urlint::mail::{self, MailKind};
//! use urlint::span::Span;
//!
//! let archive = "From a@example.org Mon Jan  1 00:00:00 2024\n\
//!     Subject: hello\n\
//!     Content-Transfer-Encoding: quoted-printable\n\
//!     \n\
//!     See http://exam=\nple.org/\n";
//! for message in mail::read(archive.as_bytes(), MailKind::Mbox) {
//!     let message = message.expect("reading from memory does not fail");
//!     for text in &message.texts {
//!         let start = text.text.find("http://example.org/").unwrap();
//!         let raw = text.map.raw_span(Span::new(start, start + 19)).unwrap();
//!         assert_eq!(&archive[raw.range()], "http://exam=\nple.org/");
//!         let place = message.line_col(raw.start).unwrap();
//!         assert_eq!((place.line, place.column), (5, 5));
//!     }
//! }
//! ```

mod charset;
mod detect;
mod empty;
mod headers;
mod mbox;
mod message;
mod nested;
mod park;
mod part;
mod summary;
mod transfer;
mod walk;

use std::io::{self, BufRead};

pub use crate::offset_map::{OffsetMap, Piece};
pub use charset::decode_utf8_lossy;
pub use detect::{MailKind, SNIFF_LEN};
pub use headers::HeaderUrls;
#[cfg(feature = "cli")]
pub(crate) use mbox::{is_envelope_line, read_line_capped};
pub use mbox::{
    messages, slices, ArchivePoint, ArchiveSlice, Messages, RawMessage, Slices,
    DEFAULT_MAX_MESSAGE_BYTES,
};
pub use message::{parse_message, parse_message_with, ParsedMessage};
pub use part::{MailText, MailWarning, MessageInfo, PartInfo, TransferEncoding, WarningKind};
pub use transfer::decode_quoted_printable;

/// Read and decode every message of `reader`, which holds mail of `kind`,
/// with the URLs of its list header fields ([`HeaderUrls::List`]).
///
/// Splitting is streamed; each message is parsed when the iterator reaches
/// it. Callers that want to parse in parallel use [`messages`] and
/// [`parse_message`] instead.
pub fn read<R: BufRead>(
    reader: R,
    kind: MailKind,
) -> impl Iterator<Item = io::Result<ParsedMessage>> {
    read_with(reader, kind, HeaderUrls::List)
}

/// [`read`], with the URLs of the header fields `headers` names.
pub fn read_with<R: BufRead>(
    reader: R,
    kind: MailKind,
    headers: HeaderUrls,
) -> impl Iterator<Item = io::Result<ParsedMessage>> {
    messages(reader, kind).map(move |raw| raw.map(|raw| parse_message_with(raw, headers)))
}
