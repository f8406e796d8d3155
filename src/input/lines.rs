//! The standard input of `urlint validate`, one URL a line, read a batch of
//! whole lines at a time: each batch is decoded as a whole input is, and
//! carries the place it starts at, so that its findings are reported with
//! the stream's own lines and columns. A long stream is then held a batch
//! at a time, and a line that arrives slowly (typed, or from a program
//! that writes as it goes) gets its verdict as soon as it is read.

use std::io::{self, BufRead, BufReader, Read};

use super::load::{binary_note, is_binary};
use super::notice::{cannot_read, latin1_note, InputError, Note};
use super::unicode::{decoded_note, Decoder, Unicode, MARK_LEN};
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
    /// The decoder of a stream that a byte-order mark says is UTF-16 or
    /// UTF-32, and its encoding.
    decoder: Option<(Unicode, Decoder)>,
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
            decoder: None,
            ended: false,
        }
    }

    /// The next batch: lines up to [`BATCH_LEN`] bytes, fewer when no more
    /// are at hand yet; `None` at the end of the stream.
    pub(crate) fn next_batch(&mut self) -> Result<Option<Batch>, InputError> {
        if self.ended {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        if !self.started {
            // Told from what the first read gives, before any line is
            // looked for: an endless device (`/dev/zero`) has none.
            let mut head = self
                .reader
                .fill_buf()
                .map_err(|err| cannot_read(&Origin::Stdin, &err))?;
            if Unicode::may_start_mark(head) {
                // A byte-order mark cut by the first read: the rest of it.
                (&mut self.reader)
                    .take(MARK_LEN as u64)
                    .read_to_end(&mut bytes)
                    .map_err(|err| cannot_read(&Origin::Stdin, &err))?;
                head = &bytes;
            }
            if is_binary(head) {
                self.ended = true;
                return Ok(Some(Batch::Binary(binary_note(&Origin::Stdin))));
            }
            self.decoder = Unicode::of(head).map(|encoding| (encoding, Decoder::new(encoding)));
        }
        let mut decoded = String::new();
        let mut undecoded = 0;
        loop {
            let mut read = self
                .reader
                .read_until(b'\n', &mut bytes)
                .map_err(|err| cannot_read(&Origin::Stdin, &err))?;
            if let Some((_, decoder)) = &mut self.decoder {
                decoder.decode(&bytes[undecoded..], &mut decoded);
                // The byte `read_until` stopped at may be any byte of a code
                // unit (the low byte of a little-endian `\n`, or of U+0A0D in
                // either order): the unit is completed, so that a batch ends
                // on a unit and the decoder is never handed half of one.
                let rest = decoder.unit_rest() as u64;
                let at = bytes.len();
                read += (&mut self.reader)
                    .take(rest)
                    .read_to_end(&mut bytes)
                    .map_err(|err| cannot_read(&Origin::Stdin, &err))?;
                decoder.decode(&bytes[at..], &mut decoded);
                undecoded = bytes.len();
                if read == 0 {
                    decoder.finish(&mut decoded);
                }
            }
            if read == 0 {
                self.ended = true;
                break;
            }
            // A `\n` byte of UTF-16 or UTF-32 may be part of another
            // character: a batch ends with a decoded line break.
            let whole_lines = self.decoder.is_none() || decoded.ends_with('\n');
            // Nothing more at hand: the next read would wait for the
            // writer, so what is read is reported first.
            if whole_lines && (bytes.len() >= BATCH_LEN || self.reader.buffer().is_empty()) {
                break;
            }
        }
        let text = match self.decoder {
            Some(_) => decoded,
            None => {
                let (text, latin1_bytes) = source::decode(bytes);
                self.latin1_bytes += latin1_bytes;
                text
            }
        };
        if text.is_empty() {
            return Ok(None);
        }
        let first = !self.started;
        self.started = true;
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
    /// bytes were read as Latin-1, or what it was decoded from.
    pub(crate) fn notes(&self) -> Vec<Note> {
        let decoded = self
            .decoder
            .as_ref()
            .map(|(encoding, decoder)| decoded_note(&Origin::Stdin, *encoding, decoder.replaced()));
        (self.latin1_bytes > 0)
            .then(|| latin1_note(&Origin::Stdin, self.latin1_bytes))
            .into_iter()
            .chain(decoded)
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
    fn a_utf16_or_utf32_stream_is_decoded_and_batches_end_with_its_line_breaks() {
        // `\u{10A}` is `0A 01` in UTF-16 LE: a `\n` byte that ends no line.
        let text = "http://a.example/\u{10A}\nhttp://b.example/~x\n";
        for (encoding, bytes) in [
            ("UTF-16 LE", [&b"\xFF\xFE"[..], &utf16le(text)].concat()),
            ("UTF-32 BE", [&b"\0\0\xFE\xFF"[..], &utf32be(text)].concat()),
        ] {
            let mut batches = LineBatches::new(Trickle(&bytes));
            let texts: Vec<String> = lines(&mut batches)
                .into_iter()
                .map(|(text, _, _)| text)
                .collect();
            assert_eq!(
                texts,
                ["http://a.example/\u{10A}\n", "http://b.example/~x\n"],
                "{encoding}"
            );
            let [note] = &batches.notes()[..] else {
                panic!("one note expected");
            };
            assert!(note.message.starts_with(encoding), "{}", note.message);
        }
    }

    fn utf16le(text: &str) -> Vec<u8> {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf32be(text: &str) -> Vec<u8> {
        text.chars()
            .flat_map(|c| u32::from(c).to_be_bytes())
            .collect()
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
