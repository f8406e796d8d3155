//! Splitting an archive into messages, streamed: one message in memory at a
//! time, however large the archive.

use std::io::{self, BufRead};
use std::sync::LazyLock;

use super::detect::MailKind;
use crate::span::count_byte;

/// The search for a line that may open a message, built once rather than
/// for every run of lines it searches.
static FROM_LINE: LazyLock<memchr::memmem::Finder<'static>> =
    LazyLock::new(|| memchr::memmem::Finder::new(b"\nFrom "));

/// Default cap on the bytes kept of one message; the rest is read past and
/// the message is marked truncated, so one runaway message cannot exhaust
/// memory.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 << 20;

/// One message's bytes exactly as they are in the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawMessage {
    /// 1-based position in the archive.
    pub number: usize,
    /// Archive byte offset of the first byte (the `From ` line in an mbox).
    pub offset: usize,
    /// 1-based archive line number of the first byte.
    pub line: usize,
    /// The bytes, `From ` line and `>From ` quoting included.
    pub bytes: Vec<u8>,
    /// True when the message was longer than the cap and was cut.
    pub truncated: bool,
    /// How the message was framed: only an mbox quotes body lines that start
    /// with `From ` (as `>From `), so only an mbox message is unquoted.
    pub kind: MailKind,
}

/// Where a reader's first byte sits in its archive: the start, or the start
/// of an [`ArchiveSlice`] read on its own, so that offsets, lines and
/// message numbers stay those of the whole archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArchivePoint {
    /// Archive byte offset.
    pub offset: usize,
    /// 1-based archive line.
    pub line: usize,
    /// Messages of the archive before this point.
    pub messages_before: usize,
}

impl ArchivePoint {
    /// The first byte of an archive.
    pub const START: ArchivePoint = ArchivePoint {
        offset: 0,
        line: 1,
        messages_before: 0,
    };
}

/// A run of whole messages of an mbox archive, from `start` to the archive
/// byte offset `end`: what one worker reads when an archive too large for
/// one is shared out (see [`slices`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArchiveSlice {
    /// Where the slice's first message starts.
    pub start: ArchivePoint,
    /// Archive offset one past the slice's last byte.
    pub end: usize,
}

/// An iterator over the messages of an mbox archive or an .eml file.
pub struct Messages<R> {
    reader: R,
    kind: MailKind,
    max_message_bytes: usize,
    /// Archive offset and line of the next unread byte.
    offset: usize,
    line: usize,
    number: usize,
    /// The `From ` line that opens the next message, already read, and the
    /// bytes it took from the reader.
    pending: Option<(Vec<u8>, usize)>,
    done: bool,
}

/// Read the messages of `reader`, which holds mail of `kind`.
pub fn messages<R: BufRead>(reader: R, kind: MailKind) -> Messages<R> {
    Messages {
        reader,
        kind,
        max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        offset: 0,
        line: 1,
        number: 0,
        pending: None,
        done: false,
    }
}

impl<R: BufRead> Messages<R> {
    /// Keep at most `max` bytes of each message.
    pub fn max_message_bytes(mut self, max: usize) -> Self {
        self.max_message_bytes = max;
        self
    }

    /// Number messages, offsets and lines as from `point` of a larger
    /// archive: the reader holds the archive from there on.
    pub fn starting_at(mut self, point: ArchivePoint) -> Self {
        self.offset = point.offset;
        self.line = point.line;
        self.number = point.messages_before;
        self
    }

    /// Where the next unread byte sits in the archive, with the messages
    /// read before it; at the end, where the reader's bytes end.
    pub fn next_point(&self) -> ArchivePoint {
        ArchivePoint {
            offset: self.offset,
            line: self.line,
            messages_before: self.number,
        }
    }

    /// Read the next message, or `None` at the end of the archive.
    fn read_message(&mut self) -> io::Result<Option<RawMessage>> {
        let mut message = RawMessage {
            number: self.number + 1,
            offset: self.offset,
            line: self.line,
            bytes: Vec::new(),
            truncated: false,
            kind: self.kind,
        };
        if let Some((from_line, consumed)) = self.pending.take() {
            self.advance(&mut message, &from_line, consumed);
        }
        let mut line = Vec::new();
        loop {
            if self.read_lines(&mut message)? {
                continue;
            }
            line.clear();
            let consumed = read_line_capped(&mut self.reader, &mut line, self.max_message_bytes)?;
            if consumed == 0 {
                self.done = true;
                break;
            }
            let opens_message =
                self.kind == MailKind::Mbox && is_envelope_line(&line) && !message.bytes.is_empty();
            if opens_message {
                self.pending = Some((std::mem::take(&mut line), consumed));
                break;
            }
            self.advance(&mut message, &line, consumed);
        }
        if message.bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        self.number = message.number;
        Ok(Some(message))
    }

    /// Take the whole lines the reader holds up to the next one that may
    /// open a message (one that starts with `From `), as [`Self::advance`]
    /// would take them one by one; false when there are none (the next
    /// line starts with `From `, or is not whole in the buffer), which are
    /// then read one by one. Copying and counting runs of lines rather than
    /// lines made splitting an archive several times faster.
    fn read_lines(&mut self, message: &mut RawMessage) -> io::Result<bool> {
        let buffer = match self.reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => return Ok(false),
            Err(error) => return Err(error),
        };
        if buffer.len() < b"From ".len() || buffer.starts_with(b"From ") {
            return Ok(false);
        }
        let end = match self.kind {
            MailKind::Mbox => FROM_LINE.find(buffer).map(|at| at + 1),
            MailKind::Eml => None,
        };
        let Some(end) = end.or_else(|| memchr::memrchr(b'\n', buffer).map(|at| at + 1)) else {
            return Ok(false);
        };
        if end > self.max_message_bytes {
            // A line may be longer than the cap, which only a line read on
            // its own cuts (and counts) as the cap says.
            return Ok(false);
        }
        let lines = &buffer[..end];
        self.offset += end;
        self.line += line_breaks(lines);
        if !message.truncated && message.bytes.len() + end <= self.max_message_bytes {
            message.bytes.extend_from_slice(lines);
        } else if !message.truncated {
            // The whole lines that still fit are kept, as line by line.
            let room = self.max_message_bytes - message.bytes.len();
            let fits = memchr::memchr_iter(b'\n', lines)
                .map(|at| at + 1)
                .take_while(|&len| len <= room)
                .last()
                .unwrap_or(0);
            message.bytes.extend_from_slice(&lines[..fits]);
            message.truncated = true;
        }
        self.reader.consume(end);
        Ok(true)
    }

    /// Count a line read (`consumed` bytes, of which `line` were kept) and
    /// append it to the message while the message is whole and within the
    /// cap. A cut message keeps only its prefix, never bytes after a gap, so
    /// that its bytes still sit at `offset + i` in the archive.
    fn advance(&mut self, message: &mut RawMessage, line: &[u8], consumed: usize) {
        self.offset += consumed;
        self.line += line_breaks(line);
        if message.truncated
            || consumed > line.len()
            || message.bytes.len() + line.len() > self.max_message_bytes
        {
            message.truncated = true;
        } else {
            message.bytes.extend_from_slice(line);
        }
    }
}

impl<R: BufRead> Iterator for Messages<R> {
    type Item = io::Result<RawMessage>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done || self.pending.is_some() {
            match self.read_message() {
                Ok(Some(message)) => return Some(Ok(message)),
                Ok(None) => continue,
                Err(error) => {
                    self.done = true;
                    self.pending = None;
                    return Some(Err(error));
                }
            }
        }
        None
    }
}

/// Cut the mbox archive `reader` holds into slices of whole messages, each
/// at least `target_len` bytes unless it is the last: every message, as
/// [`messages`] splits them, lies in exactly one slice, so the slices read
/// one by one (with [`Messages::starting_at`]) give the archive's messages
/// with their own offsets, lines and numbers.
///
/// The archive is read once, a message at a time.
pub fn slices<R: BufRead>(reader: R, target_len: usize) -> Slices<R> {
    Slices {
        messages: messages(reader, MailKind::Mbox),
        target_len,
        start: ArchivePoint::START,
        gathered: false,
        done: false,
    }
}

/// The iterator [`slices`] returns.
pub struct Slices<R> {
    messages: Messages<R>,
    target_len: usize,
    /// Where the slice being gathered starts.
    start: ArchivePoint,
    /// The slice being gathered holds a message (not only the blank lines
    /// some archives open with).
    gathered: bool,
    done: bool,
}

impl<R: BufRead> Iterator for Slices<R> {
    type Item = io::Result<ArchiveSlice>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let message = match self.messages.next() {
                Some(Ok(message)) => message,
                Some(Err(error)) => {
                    self.done = true;
                    return Some(Err(error));
                }
                None => {
                    self.done = true;
                    let end = self.messages.offset;
                    return (end > self.start.offset).then_some(Ok(ArchiveSlice {
                        start: self.start,
                        end,
                    }));
                }
            };
            let full = message.offset - self.start.offset >= self.target_len;
            let gathered = std::mem::replace(&mut self.gathered, true);
            if gathered && full {
                let slice = ArchiveSlice {
                    start: self.start,
                    end: message.offset,
                };
                self.start = ArchivePoint {
                    offset: message.offset,
                    line: message.line,
                    messages_before: message.number - 1,
                };
                return Some(Ok(slice));
            }
        }
        None
    }
}

/// Read one line (through `\n`) into `line`, keeping at most `cap` bytes of
/// it and its line end, so line counts stay right; returns the bytes consumed
/// from the reader, kept or not.
pub(crate) fn read_line_capped<R: BufRead>(
    reader: &mut R,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<usize> {
    let mut consumed = 0;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(consumed);
        }
        let (take, ends_line) = match memchr::memchr(b'\n', buffer) {
            Some(newline) => (newline + 1, true),
            None => (buffer.len(), false),
        };
        let room = cap.saturating_sub(line.len()).min(take);
        line.extend_from_slice(&buffer[..room]);
        reader.consume(take);
        consumed += take;
        if ends_line {
            if !line.ends_with(b"\n") {
                line.push(b'\n');
            }
            return Ok(consumed);
        }
    }
}

/// True for an mbox `From ` line (RFC 4155: `From sender date`). Like most
/// readers, no blank line is required before it (writers that append a
/// message lacking a final line break leave none); instead the date's `hh:mm`
/// is, so that an unquoted `From` opening a body line, which mboxo archives
/// contain, does not split the message.
pub(crate) fn is_envelope_line(line: &[u8]) -> bool {
    line.starts_with(b"From ")
        && line.windows(4).any(|w| {
            w[0].is_ascii_digit() && w[1] == b':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
        })
}

/// Line breaks in `bytes`, counted as [`crate::span::LineIndex`] counts them:
/// `\n`, `\r\n` and a lone `\r` each end a line.
pub(crate) fn line_breaks(bytes: &[u8]) -> usize {
    // Without a `\r` the breaks are the `\n`s, counted in byte lanes: a
    // search that stops at every break costs several times more.
    if memchr::memchr(b'\r', bytes).is_none() {
        return count_byte(bytes, b'\n');
    }
    memchr::memchr2_iter(b'\n', b'\r', bytes)
        .filter(|&at| bytes[at] == b'\n' || bytes.get(at + 1) != Some(&b'\n'))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(archive: &str) -> Vec<RawMessage> {
        messages(archive.as_bytes(), MailKind::Mbox)
            .collect::<io::Result<_>>()
            .unwrap()
    }

    /// The messages of `archive` read through a buffer of `capacity` bytes
    /// (below five, every line is read on its own), with `cap` bytes kept
    /// per message, and where the reader ends.
    fn split_through(
        archive: &[u8],
        kind: MailKind,
        capacity: usize,
        cap: usize,
    ) -> (Vec<RawMessage>, ArchivePoint) {
        let reader = io::BufReader::with_capacity(capacity, archive);
        let mut messages = messages(reader, kind).max_message_bytes(cap);
        let found = messages.by_ref().collect::<io::Result<_>>().unwrap();
        (found, messages.next_point())
    }

    #[test]
    fn rfc4155_runs_of_lines_split_as_lines_one_by_one_do() {
        let archive = "\n\nFrom a@x Mon Jan  1 00:00:00 2024\r\nSubject: one\r\n\r\n\
            From here on\rlone\r\n>From quoted\nFrom b@x Tue Jan  2 00:00:00 2024\n\
            Subject: two\n\nFrom c@x 10:00\nx\nFrom d@x 11:00\nFrom e@x 12:00\n\
            a rather longer line that no small buffer holds whole, to be read alone\n\
            Fro\nFrom\nFrom f@x 13:00\nno final line break";
        for kind in [MailKind::Mbox, MailKind::Eml] {
            for cap in [usize::MAX, 100, 60] {
                let expected = split_through(archive.as_bytes(), kind, 4, cap);
                assert!(!expected.0.is_empty());
                for capacity in (5..90).chain([4096]) {
                    let found = split_through(archive.as_bytes(), kind, capacity, cap);
                    assert_eq!(found, expected, "{kind:?}, buffer {capacity}, cap {cap}");
                }
            }
        }
    }

    #[test]
    fn rfc4155_from_lines_separate_messages() {
        let archive = "From a@x Mon Jan  1 00:00:00 2024\nSubject: one\n\nFrom here on\n\nFrom b@x Tue Jan  2 00:00:00 2024\nSubject: two\n\nbody\n";
        let found = split(archive);
        assert_eq!(
            found.len(),
            2,
            "'From here on' has no date and opens no message"
        );
        assert_eq!((found[0].number, found[0].offset, found[0].line), (1, 0, 1));
        let second = archive.find("From b@x").unwrap();
        assert_eq!(
            (found[1].number, found[1].offset, found[1].line),
            (2, second, 6)
        );
        assert!(found[0].bytes.ends_with(b"From here on\n\n"));
        assert_eq!(&archive.as_bytes()[second..], &found[1].bytes[..]);
    }

    #[test]
    fn eml_is_one_message_even_with_from_lines() {
        let text = "Subject: x\n\nbody\n\nFrom here\n";
        let found: Vec<_> = messages(text.as_bytes(), MailKind::Eml).collect();
        assert_eq!(found.len(), 1);
    }

    #[test]
    fn oversized_message_is_cut_and_flagged() {
        let archive = format!(
            "From a 00:00\nSubject: x\n\n{}\n\nFrom b 00:00\nSubject: y\n\nz\n",
            "y".repeat(1000)
        );
        let found: Vec<_> = messages(archive.as_bytes(), MailKind::Mbox)
            .max_message_bytes(100)
            .collect::<io::Result<_>>()
            .unwrap();
        assert_eq!(found.len(), 2);
        assert!(found[0].truncated && found[0].bytes.len() <= 100);
        assert!(
            archive.as_bytes().starts_with(&found[0].bytes),
            "a prefix, no gap"
        );
        assert!(!found[1].truncated);
        assert_eq!(found[1].offset, archive.find("From b").unwrap());
        assert_eq!(found[1].line, 6);
    }

    #[test]
    fn rfc4155_slices_hold_whole_messages_numbered_as_in_the_archive() {
        let archive = "\nFrom a@x Mon Jan  1 00:00:00 2024\nSubject: one\n\nbody one\n\n\
            From b@x Tue Jan  2 00:00:00 2024\nSubject: two\n\nFrom here on\n\n\
            From c@x Wed Jan  3 00:00:00 2024\nSubject: three\n\nbody three\n";
        let whole = split(archive);
        for target_len in [1, 60, 100, 1000] {
            let cut: Vec<ArchiveSlice> = slices(archive.as_bytes(), target_len)
                .collect::<io::Result<_>>()
                .unwrap();
            assert_eq!(cut.first().map(|s| s.start), Some(ArchivePoint::START));
            assert_eq!(cut.last().map(|s| s.end), Some(archive.len()));
            let mut read = Vec::new();
            for (slice, next) in cut.iter().zip(cut.iter().skip(1)) {
                assert_eq!(slice.end, next.start.offset, "slices tile the archive");
            }
            for slice in &cut {
                let bytes = &archive.as_bytes()[slice.start.offset..slice.end];
                let messages = messages(bytes, MailKind::Mbox).starting_at(slice.start);
                read.extend(messages.map(Result::unwrap));
            }
            assert_eq!(read, whole, "target {target_len}");
        }
        let one: Vec<_> = slices(archive.as_bytes(), 1000).collect();
        assert_eq!(one.len(), 1, "a target past the archive keeps it whole");
    }

    #[test]
    fn line_breaks_match_line_index() {
        assert_eq!(line_breaks(b"a\r\nb\rc\nd"), 3);
        let long = "a line of mail\n".repeat(100);
        for text in [
            "",
            "no break",
            "\n\n",
            "\r",
            "\r\r\n",
            long.as_str(),
            &format!("{long}\r{long}"),
        ] {
            let starts = crate::span::LineIndex::new(text).line_starts().len();
            assert_eq!(line_breaks(text.as_bytes()), starts - 1, "{text:?}");
        }
    }
}
