//! Reading mail archives (mbox, eml) into checked texts, one message at a
//! time: each decoded text is linted and placed on the raw archive lines it
//! came from through a [`Frame::Mail`]; malformed messages are warned about
//! by number and part, and reading goes on.

use std::io::{self, BufRead};
use std::ops::Range;
use std::sync::Arc;

use super::check::lint_source;
use super::notice::{cannot_read, message_place, unclosed_note, Note};
use super::sink::Sink;
use super::windows::{ChunkOptions, Windows};
use crate::checked::{Base, Checked, Frame, KeepText, MailFrame, RawText};
use crate::lint::LintOptions;
use crate::mail::{
    self, ArchivePoint, HeaderUrls, MailKind, MailWarning, MessageInfo, OffsetMap, ParsedMessage,
    RawMessage,
};
use crate::source::{for_each_run, Markup, Named, Origin, Source};
use crate::span::Span;

/// How a mail input is read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MailReading {
    /// What the input holds.
    pub kind: MailKind,
    /// The header fields read for URLs.
    pub headers: HeaderUrls,
    /// Where in the archive the reader starts: the archive's first byte,
    /// or the first message of a slice of a larger archive.
    pub start: ArchivePoint,
    /// How a long decoded text is cut into windows.
    pub chunks: ChunkOptions,
    /// Which checked texts the reporter reads: a message whose texts it
    /// reads has its summary parsed by the worker that read it, not by the
    /// one thread that reports.
    pub keep_text: KeepText,
}

impl MailReading {
    /// The most of a decoded text checked at once, and the length of the
    /// slices a large mbox is read in: at most [`MAIL_WINDOW_LEN`] however
    /// long a text file's window is, as a message's raw bytes, decoded text
    /// and displayed text are held beside the window's findings.
    pub(crate) fn window_len(&self) -> usize {
        self.chunks.chunk_len.min(MAIL_WINDOW_LEN)
    }

    /// A whole archive of `kind`, with the URLs of the header fields
    /// `headers` names, for a reporter that reads `keep_text`.
    #[cfg(feature = "cli")]
    pub(crate) fn whole(
        kind: MailKind,
        headers: HeaderUrls,
        chunks: ChunkOptions,
        keep_text: KeepText,
    ) -> Self {
        MailReading {
            kind,
            headers,
            start: ArchivePoint::START,
            chunks,
            keep_text,
        }
    }
}

/// Check every message of a mail input, one at a time: `reader` holds the
/// archive from `reading.start` on.
pub(super) fn check_mail(
    reader: impl BufRead,
    reading: MailReading,
    origin: &Origin,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let messages = mail::messages(reader, reading.kind).starting_at(reading.start);
    let chars = (reading.start.offset == 0).then_some(0);
    let mut archive = ArchivePosition::at(reading.start, chars);
    check_messages(messages, reading, &mut archive, origin, lint, sink)?;
    if !archive.continuation {
        // An archive without URLs is still a checked input.
        sink.checked(empty_archive(origin))?;
    }
    Ok(())
}

/// The checked text of an archive in which no text had URLs.
pub(super) fn empty_archive(origin: &Origin) -> Checked {
    Checked::without_text(Named::new(origin.clone(), Markup::Plain), Vec::new())
}

/// Check the messages `messages` gives, which start where `archive` is,
/// and move `archive` past them.
pub(super) fn check_messages(
    messages: impl Iterator<Item = io::Result<RawMessage>>,
    reading: MailReading,
    archive: &mut ArchivePosition,
    origin: &Origin,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let check = MessageCheck::new(reading, origin, lint);
    let headers = reading.headers;
    for message in messages.map(|raw| raw.map(|raw| mail::parse_message_with(raw, headers))) {
        match message {
            Ok(message) => {
                let base = archive.base_of(&message.raw);
                check.message(message, base, sink, &mut archive.continuation)?;
            }
            Err(err) => {
                sink.error(cannot_read(origin, &err));
                break;
            }
        }
    }
    Ok(())
}

/// Check one message read as `reading` says, whose first byte is at `base`
/// of its archive: a message a worker left for the reporting thread, so
/// that its texts are reported window by window as for a streamed archive.
/// `continuation` says whether the input had a checked text before it, and
/// is set once it has.
#[cfg(feature = "cli")]
pub(super) fn check_message_at(
    raw: RawMessage,
    base: Base,
    reading: MailReading,
    (origin, lint): (&Origin, &LintOptions),
    continuation: &mut bool,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let message = mail::parse_message_with(raw, reading.headers);
    MessageCheck::new(reading, origin, lint).message(message, base, sink, continuation)
}

/// How far a mail input has been reported.
#[derive(Debug)]
pub(super) struct ArchivePosition {
    /// The input already had a checked text.
    pub(super) continuation: bool,
    /// Archive byte offset and character count where the next message
    /// should start; `None` once a gap (a message cut at the size cap) made
    /// characters uncountable.
    next: Option<(usize, usize)>,
}

impl ArchivePosition {
    /// Nothing reported yet of an archive read from `start`, with `chars`
    /// characters before it when they were counted.
    pub(super) fn at(start: ArchivePoint, chars: Option<usize>) -> Self {
        ArchivePosition {
            continuation: false,
            next: chars.map(|chars| (start.offset, chars)),
        }
    }

    /// Where characters stop being counted, or the archive offset and
    /// character count the next message should start at.
    #[cfg(feature = "cli")]
    pub(super) fn next_chars(&self) -> Option<(usize, usize)> {
        self.next
    }

    /// The archive position of `raw`'s first byte; messages follow each
    /// other, so characters are counted message by message.
    pub(super) fn base_of(&mut self, raw: &RawMessage) -> Base {
        let chars = match self.next {
            Some((offset, chars)) if offset == raw.offset => Some(chars),
            _ => None,
        };
        self.next =
            chars.map(|chars| (raw.offset + raw.bytes.len(), chars + char_count(&raw.bytes)));
        Base {
            offset: raw.offset,
            line: raw.line,
            column: 1,
            chars,
        }
    }
}

/// Characters in `bytes` read as text is read: UTF-8, other bytes one each.
fn char_count(bytes: &[u8]) -> usize {
    // Most mail is ASCII, and most of the rest valid UTF-8: both are
    // counted without decoding.
    if bytes.is_ascii() {
        return bytes.len();
    }
    if std::str::from_utf8(bytes).is_ok() {
        return bytes.iter().filter(|&&byte| (byte as i8) >= -0x40).count();
    }
    let mut chars = 0;
    for_each_run(bytes, |valid, invalid| {
        chars += valid.chars().count() + invalid.len()
    });
    chars
}

/// The most a mail text's window owns (see [`MailReading::window_len`]).
const MAIL_WINDOW_LEN: usize = 4 << 20;

/// How the texts of a message are checked.
struct MessageCheck<'a> {
    origin: &'a Origin,
    /// A text longer than a chunk is checked window by window, so that a
    /// huge part is held with the findings of one window at a time.
    chunks: ChunkOptions,
    lint: &'a LintOptions,
    keep_text: KeepText,
}

impl<'a> MessageCheck<'a> {
    fn new(reading: MailReading, origin: &'a Origin, lint: &'a LintOptions) -> Self {
        MessageCheck {
            origin,
            chunks: ChunkOptions {
                chunk_len: reading.window_len(),
                ..reading.chunks
            },
            lint,
            keep_text: reading.keep_text,
        }
    }

    /// Check the texts of one message, whose first byte is at `base`.
    fn message(
        &self,
        message: ParsedMessage,
        base: Base,
        sink: &mut dyn Sink,
        continuation: &mut bool,
    ) -> io::Result<()> {
        for warning in &message.warnings {
            sink.warning(message_note(self.origin, &message.info, warning));
        }
        let info = Arc::new(message.info);
        let mut raw: Option<Arc<RawText>> = None;
        for text in message.texts {
            let mut frame = |map| {
                // The archive text is built once per message, and only when shown.
                let raw = raw
                    .get_or_insert_with(|| Arc::new(RawText::new(&message.raw.bytes, base)))
                    .clone();
                Frame::Mail(Box::new(MailFrame {
                    raw,
                    map,
                    message: Arc::clone(&info),
                    part: text.part.clone(),
                }))
            };
            // An HTML part is parsed whole, as its structure needs all of it.
            if text.text.len() <= self.chunks.chunk_len || text.markup != Markup::Plain {
                let whole = (text.text, text.map, 0..usize::MAX);
                self.window(whole, text.markup, &mut frame, sink, continuation)?;
                continue;
            }
            for window in Windows::new(text.text.as_bytes(), self.chunks) {
                // Reading from memory does not fail.
                let Ok(window) = window else { break };
                let start = window.base.offset;
                let map = text.map.window(Span::new(start, start + window.text.len()));
                let piece = (window.text, map, window.owned);
                self.window(piece, Markup::Plain, &mut frame, sink, continuation)?;
            }
        }
        Ok(())
    }

    /// Check one window of a text, written in `markup`: its text, its map
    /// onto the archive, and the offsets at which the URLs it reports start.
    fn window(
        &self,
        (text, map, owned): (String, OffsetMap, Range<usize>),
        markup: Markup,
        frame: &mut dyn FnMut(OffsetMap) -> Frame,
        sink: &mut dyn Sink,
        continuation: &mut bool,
    ) -> io::Result<()> {
        let source = Source::new(self.origin.clone(), text).written_in(markup);
        let linted = match lint_source(&source, self.lint, &owned) {
            Ok(linted) if linted.is_empty() => return Ok(()),
            Ok(linted) => linted,
            Err(err) => {
                sink.error(err);
                return Ok(());
            }
        };
        let checked = Checked::new(source, linted)
            .in_frame(frame(map))
            .continuing(*continuation);
        if let Some(note) = unclosed_note(&checked) {
            sink.warning(note);
        }
        if let Some(mail) = checked.mail().filter(|_| self.keep_text.keeps(&checked)) {
            // The report shows the message's summary: parsed on this
            // worker, not on the one thread that reports.
            mail.message.parse_summary();
        }
        *continuation = true;
        sink.checked(checked)
    }
}

/// A malformed-message warning, naming the message and part.
fn message_note(origin: &Origin, info: &MessageInfo, warning: &MailWarning) -> Note {
    let place = message_place(info, warning.part.as_deref());
    Note {
        name: origin.to_string(),
        left: None,
        message: format!("{place}: {}", warning.message),
        skipped: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::sink::Collected;

    /// Check `archive` as an mbox read from stdin, keeping everything.
    fn check_archive(archive: &str) -> Collected {
        let mut collected = Collected::default();
        check_mail(
            archive.as_bytes(),
            MailReading::whole(
                MailKind::Mbox,
                HeaderUrls::List,
                ChunkOptions::default(),
                KeepText::Always,
            ),
            &Origin::Stdin,
            &LintOptions::default(),
            &mut collected,
        )
        .expect("collecting never fails");
        collected
    }

    #[test]
    fn characters_are_counted_as_decoding_counts_them() {
        let cases: [&[u8]; 5] = [
            b"plain ascii\n",
            "caf\u{e9} \u{2615} \u{1F30A}".as_bytes(),
            b"caf\xE9 and \xC3\xA9",
            b"\xF0\x9F\x8C",
            b"",
        ];
        for bytes in cases {
            let decoded = crate::source::decode(bytes.to_vec()).0;
            assert_eq!(char_count(bytes), decoded.chars().count(), "{bytes:?}");
        }
    }

    #[test]
    fn characters_are_counted_until_a_gap_between_messages() {
        let raw = |offset, bytes: &[u8]| RawMessage {
            number: 1,
            offset,
            line: 1,
            bytes: bytes.to_vec(),
            truncated: false,
            kind: MailKind::Mbox,
        };
        let mut archive = ArchivePosition::at(ArchivePoint::START, Some(0));
        let chars = [
            archive.base_of(&raw(0, b"\xC3\xA9\xE9\n")).chars,
            archive.base_of(&raw(4, b"ab\n")).chars,
            // A message cut at the size cap leaves bytes never seen.
            archive.base_of(&raw(99, b"x\n")).chars,
            archive.base_of(&raw(101, b"y\n")).chars,
        ];
        assert_eq!(chars, [Some(0), Some(3), None, None]);
    }

    #[test]
    fn rfc4155_an_archive_without_urls_is_still_one_checked_input() {
        let collected = check_archive(
            "From a@x Mon Jan  1 00:00:00 2024\nSubject: a\n\nno links\n\n\
             From b@x Mon Jan  1 00:00:00 2024\nSubject: b\n\nnone here\n",
        );
        assert_eq!(collected.checked.len(), 1);
        assert!(collected.checked[0].reports.is_empty());
        assert!(!collected.checked[0].continuation);
    }

    #[test]
    fn only_the_first_text_with_urls_starts_the_input() {
        let collected = check_archive(
            "From a@x Mon Jan  1 00:00:00 2024\nSubject: a\n\nhttp://a.example/\n\n\
             From b@x Mon Jan  1 00:00:00 2024\nSubject: b\n\nnothing\n\n\
             From c@x Mon Jan  1 00:00:00 2024\nSubject: c\n\nhttp://c.example/\n",
        );
        let placed: Vec<(usize, bool)> = collected
            .checked
            .iter()
            .map(|checked| {
                let number = checked.mail().map_or(0, |mail| mail.message.number);
                (number, checked.continuation)
            })
            .collect();
        assert_eq!(placed, [(1, false), (3, true)]);
    }

    #[test]
    fn rfc2046_5_1_1_a_malformed_message_is_warned_about_by_number_and_part() {
        let collected = check_archive(
            "From a@x Mon Jan  1 00:00:00 2024\nSubject: a\nMessage-ID: <m1@x>\n\
             Content-Type: multipart/mixed; boundary=b\n\n--b\n\nhttp://a.example/\n\n\
             From c@x Mon Jan  1 00:00:00 2024\nSubject: c\n\nhttp://c.example/\n",
        );
        let warnings: Vec<String> = collected.warnings.iter().map(Note::to_string).collect();
        assert_eq!(
            warnings,
            [
                "<stdin>: message 1 (line 1) <m1@x>: multipart has no closing '--b--' line; \
              read up to the end of the message"
            ]
        );
        assert_eq!(collected.checked.len(), 2, "both messages are read");
    }
}
