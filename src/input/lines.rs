//! The standard input of `urlint validate`, one URL a line, read a batch of
//! whole lines at a time: each batch is decoded as a whole input is, and
//! carries the place it starts at, so that its findings are reported with
//! the stream's own lines and columns. A long stream is then held a batch
//! at a time, and a line that arrives slowly (typed, or from a program
//! that writes as it goes) gets its verdict as soon as it is read.

use std::io::{self, BufRead, BufReader, Read};

use super::load::{binary_note, is_binary};
use super::notice::{cannot_read, latin1_note, InputError, Note};
use crate::checked::Base;
use crate::source::{self, Origin, Source};

/// The most bytes a batch takes before it is reported; a single longer
/// line is still one batch.
const BATCH_LEN: usize = 256 * 1024;

/// A stream read a batch of whole lines at a time.
pub(crate) struct LineBatches<R> {
    reader: BufReader<R>,
    /// Where the next batch starts in the stream.
    next_base: Base,
    /// True once a batch has been handed out.
    started: bool,
    /// Bytes read as Latin-1 characters so far.
    latin1_bytes: usize,
    /// True once the stream has ended, or was skipped as binary.
    ended: bool,
}

/// What reading the next batch gave.
#[derive(Debug)]
pub(crate) enum Batch {
    /// Whole lines of the stream.
    Lines(LineBatch),
    /// The stream's first read holds a NUL: it is skipped as binary, as
    /// any input is.
    Binary(Note),
}

/// Whole lines of the stream, decoded, and where they start in it.
#[derive(Debug)]
pub(crate) struct LineBatch {
    /// The lines, as read from stdin.
    pub source: Source,
    /// Where the first of them starts in the stream.
    pub base: Base,
    /// True for every batch but the first: a later part of the same input.
    pub continuation: bool,
}

impl LineBatches<io::StdinLock<'static>> {
    /// The standard input, unless it was closed as urlint started.
    pub(crate) fn stdin() -> Result<Self, InputError> {
        if let Some(closed) = super::stdin::closed_at_start() {
            return Err(closed);
        }
        Ok(LineBatches::new(io::stdin().lock()))
    }
}

impl<R: Read> LineBatches<R> {
    /// `reader`, read from its start.
    pub(crate) fn new(reader: R) -> Self {
        LineBatches {
            reader: BufReader::with_capacity(BATCH_LEN, reader),
            next_base: Base::START,
            started: false,
            latin1_bytes: 0,
            ended: false,
        }
    }

    /// The next batch: lines up to [`BATCH_LEN`] bytes, fewer when no more
    /// are at hand yet; `None` at the end of the stream.
    pub(crate) fn next_batch(&mut self) -> Result<Option<Batch>, InputError> {
        if self.ended {
            return Ok(None);
        }
        if !self.started {
            // Told from what the first read gives, before any line is
            // looked for: an endless device (`/dev/zero`) has none.
            let head = self
                .reader
                .fill_buf()
                .map_err(|err| cannot_read(&Origin::Stdin, &err))?;
            if is_binary(head) {
                self.ended = true;
                return Ok(Some(Batch::Binary(binary_note(&Origin::Stdin))));
            }
        }
        let mut bytes = Vec::new();
        loop {
            let read = self
                .reader
                .read_until(b'\n', &mut bytes)
                .map_err(|err| cannot_read(&Origin::Stdin, &err))?;
            if read == 0 {
                self.ended = true;
                break;
            }
            // Nothing more at hand: the next read would wait for the
            // writer, so what is read is reported first.
            if bytes.len() >= BATCH_LEN || self.reader.buffer().is_empty() {
                break;
            }
        }
        if bytes.is_empty() {
            return Ok(None);
        }
        let first = !self.started;
        self.started = true;
        let (text, latin1_bytes) = source::decode(bytes);
        self.latin1_bytes += latin1_bytes;
        let base = self.next_base;
        self.next_base = Base {
            offset: base.offset + text.len(),
            line: base.line + line_ends(&text),
            column: 1,
            chars: base.chars.map(|chars| chars + text.chars().count()),
        };
        Ok(Some(Batch::Lines(LineBatch {
            source: Source::new(Origin::Stdin, text),
            base,
            continuation: !first,
        })))
    }

    /// What is to be said of the stream once it is read: how many of its
    /// bytes were read as Latin-1.
    pub(crate) fn notes(&self) -> Vec<Note> {
        (self.latin1_bytes > 0)
            .then(|| latin1_note(&Origin::Stdin, self.latin1_bytes))
            .into_iter()
            .collect()
    }
}

/// How many lines of `text` end in it: at `\n`, `\r\n` or a lone `\r`, as
/// [`crate::span::LineIndex`] counts them.
fn line_ends(text: &str) -> usize {
    let bytes = text.as_bytes();
    let newlines = memchr::memchr_iter(b'\n', bytes).count();
    let lone_returns = memchr::memchr_iter(b'\r', bytes)
        .filter(|&at| bytes.get(at + 1) != Some(&b'\n'))
        .count();
    newlines + lone_returns
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads one byte at a time: a pipe whose writer is slow.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some((&first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            match buf.first_mut() {
                Some(slot) => {
                    *slot = first;
                    self.0 = rest;
                    Ok(1)
                }
                None => Ok(0),
            }
        }
    }

    fn lines<R: Read>(batches: &mut LineBatches<R>) -> Vec<(String, Base, bool)> {
        let mut all = Vec::new();
        while let Some(batch) = batches.next_batch().expect("reads") {
            let Batch::Lines(batch) = batch else {
                panic!("binary: {batch:?}");
            };
            all.push((batch.source.text, batch.base, batch.continuation));
        }
        all
    }

    #[test]
    fn lines_at_hand_are_one_batch_and_a_trickle_is_a_batch_per_line() {
        let text = b"http://a.example/\r\nhttp://b.example/\rx\nhttp://c.example/";
        let [(whole, base, continuation)] = &lines(&mut LineBatches::new(&text[..]))[..] else {
            panic!("one batch expected");
        };
        assert_eq!(whole.as_bytes(), text);
        assert_eq!((*base, *continuation), (Base::START, false));

        let trickled = lines(&mut LineBatches::new(Trickle(text)));
        let texts: Vec<&str> = trickled.iter().map(|(text, _, _)| text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "http://a.example/\r\n",
                "http://b.example/\rx\n",
                "http://c.example/"
            ]
        );
        let bases: Vec<(usize, usize, Option<usize>, bool)> = trickled
            .iter()
            .map(|(_, base, continuation)| (base.offset, base.line, base.chars, *continuation))
            .collect();
        // The lone `\r` ends a line, as LineIndex counts lines.
        assert_eq!(
            bases,
            [
                (0, 1, Some(0), false),
                (19, 2, Some(19), true),
                (39, 4, Some(39), true)
            ]
        );
    }

    #[test]
    fn a_nul_in_the_first_batch_skips_the_stream_as_binary() {
        let mut batches = LineBatches::new(&b"\x89PNG\0\nhttp://a.example/\n"[..]);
        assert!(matches!(batches.next_batch(), Ok(Some(Batch::Binary(_)))));
        assert!(matches!(batches.next_batch(), Ok(None)));
    }

    #[test]
    fn latin1_bytes_are_decoded_and_counted_over_all_batches() {
        let mut batches =
            LineBatches::new(Trickle(b"http://a.example/\xe9\nhttp://b.example/\xe8\n"));
        let texts: Vec<String> = lines(&mut batches)
            .into_iter()
            .map(|(text, _, _)| text)
            .collect();
        assert_eq!(
            texts,
            ["http://a.example/\u{e9}\n", "http://b.example/\u{e8}\n"]
        );
        let [note] = &batches.notes()[..] else {
            panic!("one note expected");
        };
        assert!(
            note.message.contains("2 byte(s) read as Latin-1"),
            "{note:?}"
        );
    }
}
