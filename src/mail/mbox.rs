//! Splitting an archive into messages, streamed: one message in memory at a
//! time, however large the archive.

use std::io::{self, BufRead};

use super::detect::MailKind;

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

/// Read one line (through `\n`) into `line`, keeping at most `cap` bytes of
/// it and its line end, so line counts stay right; returns the bytes consumed
/// from the reader, kept or not.
fn read_line_capped<R: BufRead>(
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
fn is_envelope_line(line: &[u8]) -> bool {
    line.starts_with(b"From ")
        && line.windows(4).any(|w| {
            w[0].is_ascii_digit() && w[1] == b':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
        })
}

/// Line breaks in `bytes`, counted as [`crate::span::LineIndex`] counts them:
/// `\n`, `\r\n` and a lone `\r` each end a line.
pub(crate) fn line_breaks(bytes: &[u8]) -> usize {
    let newlines = memchr::memchr_iter(b'\n', bytes).count();
    let lone_returns = memchr::memchr_iter(b'\r', bytes)
        .filter(|&at| bytes.get(at + 1) != Some(&b'\n'))
        .count();
    newlines + lone_returns
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(archive: &str) -> Vec<RawMessage> {
        messages(archive.as_bytes(), MailKind::Mbox)
            .collect::<io::Result<_>>()
            .unwrap()
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
    fn line_breaks_match_line_index() {
        assert_eq!(line_breaks(b"a\r\nb\rc\nd"), 3);
    }
}
