//! Reading one large file in parts that threads read at the same time: a
//! text file in windows (the `windows` module says why a window finds what
//! a whole read finds), an mbox archive in slices of whole messages.
//!
//! Each part is read on its own (a window through a file handle of its
//! own, so that its UTF-8 goes straight into its text; a slice with
//! positioned reads) and checked on its own. What a part needs to know of
//! the parts before it is counted by the part itself and added up in
//! order: a text window's lines, columns and characters when it is
//! reported, an mbox slice's lines, messages and characters as soon as its
//! messages are split (before they are parsed, which is the slow part), so
//! no thread reads another's bytes.
//!
//! Parts are cut where the whole file's reading would not notice: windows
//! at bytes that start a character as [`crate::source::decode`] reads them
//! and never between `\r` and `\n`; slices at the `From ` lines the archive
//! reader splits messages at. Windows are as long as the streamed reader's
//! (the `windows` module says why their length changes nothing found);
//! they are measured in the file's bytes rather than decoded text, which
//! differs only where bytes are read as Latin-1.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};

use super::archive::{
    check_message_at, check_messages, empty_archive, ArchivePosition, MailReading,
};
use super::check::{lint_source, url_at_end};
use super::kind::{Reading, ReadingPlan};
use super::large::LargeInput;
use super::load::{with_buffer, HEAD_LEN};
use super::notice::{cannot_read, latin1_note, panicked, InputError};
use super::progress::Progress;
use super::read::ReadOptions;
use super::sink::{Collected, Sink};
use super::walk::Input;
use super::windows::{advance, ChunkOptions};
use crate::checked::{Base, Checked, Frame};
use crate::escape;
use crate::lint::LintOptions;
use crate::mail::{self, ArchivePoint, MailKind, RawMessage};
use crate::source::{Markup, Origin, Source, Widened};

/// How a large input is read.
pub(crate) enum LargePlan {
    /// In parts, each read and checked on a worker thread.
    Parts(Parts),
    /// Front to back on the reporting thread: stdin, pipes, binary files, a
    /// single large message.
    Streamed(LargeInput),
}

/// Decide how `large` is read, and where its parts are cut: a regular
/// file holding text or an mbox archive is read in parts, anything else
/// streamed.
pub(crate) fn plan_large(
    large: LargeInput,
    options: &ReadOptions,
) -> Result<LargePlan, InputError> {
    let (Input::File(path), None) = (&large.input, &large.pipe) else {
        return Ok(LargePlan::Streamed(large));
    };
    let origin = Origin::File(path.clone());
    let opened = File::open(path).and_then(|file| {
        let meta = file.metadata()?;
        let head = if meta.is_file() {
            read_range(&file, 0..HEAD_LEN as u64)?
        } else {
            Vec::new()
        };
        Ok((file, meta.is_file().then_some(meta.len()), head))
    });
    let (file, Some(len), head) = opened.map_err(|err| cannot_read(&origin, &err))? else {
        // No longer a regular file: read as it reads.
        return Ok(LargePlan::Streamed(large));
    };
    let reading = options.mail_reading(MailKind::Mbox);
    let (pieces, slices) = match options.kind.reading_plan(&options.globs, Some(path), &head) {
        ReadingPlan::Direct(Reading::Mail(MailKind::Mbox)) => {
            (slice_cuts(&file, len, reading.window_len()), true)
        }
        // Compressed data is inflated as it streams (see the `compressed`
        // module), UTF-16 and UTF-32 decoded (see `unicode`); a message, a
        // binary file and a document are read as they stream.
        ReadingPlan::Compressed(_)
        | ReadingPlan::Decoded(_)
        | ReadingPlan::Direct(
            Reading::Mail(MailKind::Eml)
            | Reading::Text(Markup::Markdown | Markup::Html | Markup::Rst)
            | Reading::Binary,
        ) => return Ok(LargePlan::Streamed(large)),
        ReadingPlan::Direct(Reading::Text(Markup::Plain)) => {
            (window_cuts(&file, len, options.chunks), false)
        }
    };
    let pieces = pieces.map_err(|err| cannot_read(&origin, &err))?;
    let cut = match slices {
        true => Cut::Slices(Chain::new(pieces.len(), reading)),
        false => Cut::Windows(Buffers::default()),
    };
    Ok(LargePlan::Parts(Parts {
        file,
        path: path.clone(),
        origin,
        len,
        pieces,
        cut,
        progress: options.progress,
    }))
}

/// A large file cut into parts.
pub(crate) struct Parts {
    file: File,
    path: PathBuf,
    origin: Origin,
    len: u64,
    pieces: Vec<LargePart>,
    cut: Cut,
    progress: bool,
}

/// How a large file is cut, and what its parts share.
enum Cut {
    /// Plain text in windows, each with context around what it owns; the
    /// buffers of windows reported, for the windows still to read.
    Windows(Buffers),
    /// An mbox in slices of whole messages; where each slice starts in the
    /// archive, as the slices before it are split.
    Slices(Chain),
}

/// Text buffers handed back once their window is reported: a window is as
/// long as a chunk, and a fresh buffer for each cost more in page faults
/// than scanning the window. At most as many exist as windows are worked
/// on or waiting at once.
#[derive(Default)]
struct Buffers(Mutex<Vec<Vec<u8>>>);

impl Buffers {
    /// An empty buffer, with the room of a reported window if one is back.
    fn take(&self) -> Vec<u8> {
        let mut buffer = self.lock().pop().unwrap_or_default();
        buffer.clear();
        buffer
    }

    fn put(&self, buffer: Vec<u8>) {
        self.lock().push(buffer);
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Vec<u8>>> {
        self.0.lock().unwrap_or_else(|poison| poison.into_inner())
    }
}

/// One part of a large file, by its byte offsets in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LargePart {
    /// Which part it is.
    index: usize,
    /// The bytes read: for a window, with the context around what it owns.
    read: Range<u64>,
    /// The bytes whose URLs (or messages) the part reports.
    owned: Range<u64>,
    /// Where the next window's text starts (this window's own start for
    /// the last): the stretch from `read.start` to it is what places the
    /// next window.
    next_read: u64,
}

/// What a worker made of one part.
pub(crate) struct PartRead {
    /// What it found.
    found: PartFound,
    /// Bytes of the file the part owns, for progress.
    owned_len: u64,
}

/// What a worker found in a window or a slice.
enum PartFound {
    /// A window's checked text (or why it could not be read), and, when
    /// it was read, the input position of the next window's start as if
    /// this window started at [`Base::START`], with the bytes it owns that
    /// were read as Latin-1.
    Window {
        collected: Collected,
        to_next: Option<(Base, usize)>,
    },
    /// A slice's messages, in file order.
    Slice(Vec<SliceOutput>),
}

/// A stretch of what a slice found.
enum SliceOutput {
    /// Checked texts, notes and errors, kept until the part's turn.
    Collected(Collected),
    /// A message longer than a mail window, left for the reporting thread:
    /// its texts are checked there window by window, as when the archive
    /// is streamed, rather than all its findings held at once. `base` is
    /// where it starts in the archive.
    Message {
        raw: RawMessage,
        base: Base,
        reading: MailReading,
    },
}

impl Parts {
    /// The parts, in file order.
    pub(crate) fn pieces(&self) -> &[LargePart] {
        &self.pieces
    }

    /// Read and check one part (on a worker thread).
    pub(crate) fn read(&self, piece: &LargePart, lint: &LintOptions) -> PartRead {
        let found = match &self.cut {
            Cut::Slices(chain) => PartFound::Slice(self.read_slice(piece, chain, lint)),
            Cut::Windows(buffers) => {
                let (collected, to_next) = self.read_window(piece, buffers, lint);
                PartFound::Window { collected, to_next }
            }
        };
        PartRead {
            found,
            owned_len: piece.owned.end - piece.owned.start,
        }
    }

    /// Read one window: decode its bytes, lint it, keep the URLs that start
    /// in what it owns, and count how far its start is from the next's.
    fn read_window(
        &self,
        piece: &LargePart,
        buffers: &Buffers,
        lint: &LintOptions,
    ) -> (Collected, Option<(Base, usize)>) {
        let mut collected = Collected::default();
        // A reported window's buffer, emptied (and an empty one is UTF-8).
        let mut text = String::from_utf8(buffers.take()).unwrap_or_default();
        let mut piece = piece.clone();
        loop {
            let decoded = with_buffer(|buffer| {
                if buffer.len() < BLOCK_LEN {
                    buffer.resize(BLOCK_LEN, 0);
                }
                // The thread's buffer may have grown to a larger file read whole.
                self.read_text(&piece, UTF8_BLOCK_LEN, &mut buffer[..BLOCK_LEN], &mut text)
            });
            let (widened, to_next) = match decoded {
                Ok(decoded) => decoded,
                Err(err) => {
                    collected.error(cannot_read(&self.origin, &err));
                    buffers.put(text.into_bytes());
                    return (collected, None);
                }
            };
            let owned = window_offset(&piece, &widened, &text, piece.owned.start)
                ..window_offset(&piece, &widened, &text, piece.owned.end);
            let owned_bytes = usize::try_from(piece.owned.end - piece.owned.start).unwrap_or(0);
            let latin1 = owned.len().saturating_sub(owned_bytes);
            let source = Source::new(self.origin.clone(), text);
            let linted = lint_source(&source, lint, &owned);
            let cut = linted.as_ref().is_ok_and(|items| {
                piece.read.end < self.len && url_at_end(items, &source).is_some()
            });
            if cut {
                // An owned URL runs on past the context (a line of more than
                // the scanner's reach without whitespace): read the window
                // again with twice the bytes, until the URL ends inside it
                // or the file does, so that it is checked whole.
                match self.wider(&piece) {
                    Ok(wider) => {
                        piece = wider;
                        text = source.into_parts().1;
                        continue;
                    }
                    Err(err) => collected.error(cannot_read(&self.origin, &err)),
                }
            }
            match linted {
                Ok(reports) => collected.checked.push(Checked::new(source, reports)),
                Err(err) => collected.error(err),
            }
            collected.errors.extend(self.shrunk_in(&piece));
            return (collected, Some((to_next, latin1)));
        }
    }

    /// The error for a file that shrank, since it was cut, to an end inside
    /// what `piece` owns: the bytes it held past there were not checked,
    /// which a report that merely stops short would not say. Told by the
    /// window where the file now ends, so once.
    fn shrunk_in(&self, piece: &LargePart) -> Option<InputError> {
        let now = self.file.metadata().ok()?.len();
        (now < self.len && piece.owned.contains(&now)).then(|| InputError {
            name: self.origin.to_string(),
            action: "not read whole",
            cause: format!(
                "it shrank from {} to {now} bytes while it was read: what it held past byte \
                 {now} was not checked",
                self.len
            ),
        })
    }

    /// `piece` read with twice its bytes, up to the file's end: the next
    /// place a window can end past as many bytes again as it read.
    fn wider(&self, piece: &LargePart) -> io::Result<LargePart> {
        let read_len = piece.read.end - piece.read.start;
        let end = piece.read.end.saturating_add(read_len).min(self.len);
        let end = cut_near(&self.file, self.len, end, Direction::Forward)?;
        Ok(LargePart {
            read: piece.read.start..end.max(piece.read.end + 1).min(self.len),
            ..piece.clone()
        })
    }

    /// Read the bytes of `piece` into `text`, decoded as a whole read of
    /// the window decodes them, and count the input position from the
    /// window's start to the next window's; returns where bytes were read
    /// as Latin-1, and that position.
    ///
    /// The window is read a block at a time, and each block counted while
    /// it is in the cache. A block of `utf8_len` bytes of UTF-8 is read
    /// straight into the text; one that is not (a byte to read as Latin-1,
    /// a character its end cuts) is read again into `block` (of at least
    /// four bytes, the longest character and one) and decoded from there.
    fn read_text(
        &self,
        piece: &LargePart,
        utf8_len: usize,
        block: &mut [u8],
        text: &mut String,
    ) -> io::Result<(Widened, Base)> {
        let mut file = File::open(&self.path)?;
        file.seek(SeekFrom::Start(piece.read.start))?;
        let mut left = usize::try_from(piece.read.end - piece.read.start).unwrap_or(usize::MAX);
        text.clear();
        // Room for a window with a Latin-1 byte in eight, as a whole read
        // decodes it, so that the text rarely grows by doubling.
        text.reserve(left.saturating_add(left / 8));
        let mut widened = Widened::default();
        let mut counted = Counted::new(piece.read.start == 0);
        // Bytes decoded so far, and bytes at the block's start that the
        // last read left undecoded: a character cut short.
        let (mut decoded, mut held) = (0, 0);
        loop {
            if held == 0 && left > 0 {
                let want = left.min(utf8_len);
                let mut reader = (&mut file).take(want as u64);
                match reader.read_to_string(text) {
                    Ok(read) => {
                        decoded += read;
                        // Fewer bytes than asked: the file shrank since it
                        // was cut.
                        left = if read < want { 0 } else { left - read };
                        if left == 0 {
                            break;
                        }
                        counted.count_to(text, counted_end(piece, &widened, text, decoded));
                        continue;
                    }
                    // Not UTF-8: the text is as it was, and the block is
                    // read again below.
                    Err(err) if err.kind() == io::ErrorKind::InvalidData => {
                        let consumed = want as u64 - reader.limit();
                        file.seek(SeekFrom::Current(-i64::try_from(consumed).unwrap_or(0)))?;
                    }
                    Err(err) => return Err(err),
                }
            }
            let want = (block.len() - held).min(left);
            let read = match file.read(&mut block[held..held + want]) {
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            left -= read;
            // The window's bytes end (or the file's, if it shrank since it
            // was cut).
            let end = left == 0 || read == 0;
            let bytes = held + read;
            let used = widened.decode_block(&block[..bytes], decoded, end, text);
            decoded += used;
            block.copy_within(used..bytes, 0);
            held = bytes - used;
            if end {
                break;
            }
            counted.count_to(text, counted_end(piece, &widened, text, decoded));
        }
        let next = window_offset(piece, &widened, text, piece.next_read);
        counted.count_to(text, next);
        Ok((widened, counted.base))
    }

    /// Read one mbox slice: split it into messages, tell the slices after
    /// it where they start, then parse and check its messages (but those
    /// longer than a mail window).
    fn read_slice(&self, piece: &LargePart, chain: &Chain, lint: &LintOptions) -> Vec<SliceOutput> {
        let split = panic::catch_unwind(AssertUnwindSafe(|| self.split(piece)));
        let Some(start) = chain.origin(piece.index) else {
            // The run stopped; nothing of this slice will be reported.
            return Vec::new();
        };
        let (raws, error) = match split {
            Ok((raws, error, delta)) => {
                chain.publish(piece.index + 1, start.after(&delta));
                (raws, error)
            }
            Err(_) => {
                chain.publish(piece.index + 1, start.lost(piece.owned.end));
                let mut collected = Collected::default();
                collected.error(panicked(self.origin.to_string()));
                return vec![SliceOutput::Collected(collected)];
            }
        };
        let reading = MailReading {
            start: start.point,
            ..chain.reading
        };
        let mut archive = ArchivePosition::at(start.point, start.chars);
        let mut outputs = Vec::new();
        let mut run = Vec::new();
        for mut raw in raws {
            raw.number += start.point.messages_before;
            raw.line += start.point.line - 1;
            if raw.bytes.len() <= reading.window_len() {
                run.push(raw);
                continue;
            }
            let checked =
                self.check_run(std::mem::take(&mut run), None, reading, &mut archive, lint);
            outputs.push(SliceOutput::Collected(checked));
            let base = archive.base_of(&raw);
            outputs.push(SliceOutput::Message {
                raw,
                base,
                reading: chain.reading,
            });
        }
        let checked = self.check_run(run, error, reading, &mut archive, lint);
        outputs.push(SliceOutput::Collected(checked));
        outputs
    }

    /// Check a run of messages, and the read error after them if any.
    fn check_run(
        &self,
        run: Vec<RawMessage>,
        error: Option<io::Error>,
        reading: MailReading,
        archive: &mut ArchivePosition,
        lint: &LintOptions,
    ) -> Collected {
        let mut collected = Collected::default();
        let messages = run.into_iter().map(Ok).chain(error.map(Err));
        // A collecting sink always accepts.
        let _ = check_messages(
            messages,
            reading,
            archive,
            &self.origin,
            lint,
            &mut collected,
        );
        collected
    }

    /// The raw messages of a slice, numbered and placed as if the archive
    /// started with it, the read error that stopped it if any, and what it
    /// adds to the archive's lines, messages and characters.
    fn split(&self, piece: &LargePart) -> (Vec<RawMessage>, Option<io::Error>, SliceDelta) {
        let reader =
            BufReader::with_capacity(READ_LEN, FileRange::new(&self.file, piece.owned.clone()));
        let relative = ArchivePoint {
            offset: usize::try_from(piece.owned.start).unwrap_or(usize::MAX),
            line: 1,
            messages_before: 0,
        };
        let mut messages = mail::messages(reader, MailKind::Mbox).starting_at(relative);
        let mut position = ArchivePosition::at(relative, Some(0));
        let mut raws = Vec::new();
        let mut error = None;
        for message in messages.by_ref() {
            match message {
                Ok(raw) => {
                    position.base_of(&raw);
                    raws.push(raw);
                }
                Err(err) => {
                    error = Some(err);
                    break;
                }
            }
        }
        let end = messages.next_point();
        let chars = match position.next_chars() {
            Some((offset, chars)) if offset == end.offset => Some(chars),
            _ => None,
        };
        let delta = SliceDelta {
            end: end.offset,
            lines: end.line - 1,
            messages: end.messages_before,
            chars,
        };
        (raws, error, delta)
    }

    /// Tell parts still waiting for the parts before them to give up: the
    /// run stopped, and those parts may never be read.
    pub(crate) fn cancel(&self) {
        match &self.cut {
            Cut::Slices(chain) => chain.cancel(),
            // Windows wait for no other part.
            Cut::Windows(_) => {}
        }
    }

    /// The state that places parts in the file as they are reported;
    /// messages left for the reporting thread are checked with `lint`.
    pub(crate) fn placer<'p>(&'p self, lint: &'p LintOptions) -> Placer<'p> {
        let progress = self.progress.then(|| {
            Progress::new(
                io::empty(),
                escape::line(&self.origin.to_string()).into(),
                Some(self.len),
            )
        });
        Placer {
            parts: self,
            lint,
            base: Base::START,
            started: false,
            latin1: 0,
            progress,
        }
    }
}

/// Places parts in their file, in order, as they are reported.
pub(crate) struct Placer<'p> {
    parts: &'p Parts,
    lint: &'p LintOptions,
    /// Where the next window starts in the input.
    base: Base,
    /// The input already had a checked text.
    started: bool,
    /// Bytes read as Latin-1 so far.
    latin1: usize,
    progress: Option<Progress<io::Empty>>,
}

impl Placer<'_> {
    /// Report one part, the next in file order.
    pub(crate) fn place(&mut self, part: PartRead, sink: &mut dyn Sink) -> io::Result<()> {
        if let Some(progress) = &mut self.progress {
            progress.advance(part.owned_len);
        }
        match part.found {
            PartFound::Window { collected, to_next } => {
                let frame = to_next.is_some().then_some(Frame::Text(self.base));
                let reported = self.replay(collected, frame, sink)?;
                if let Cut::Windows(buffers) = &self.parts.cut {
                    for text in reported.into_iter().filter_map(Checked::into_text) {
                        buffers.put(text.into_bytes());
                    }
                }
                if let Some((to_next, latin1)) = to_next {
                    self.base = joined(self.base, to_next);
                    self.latin1 += latin1;
                }
            }
            PartFound::Slice(outputs) => {
                for output in outputs {
                    match output {
                        SliceOutput::Collected(collected) => {
                            self.replay(collected, None, sink)?;
                        }
                        SliceOutput::Message { raw, base, reading } => {
                            let place = (&self.parts.origin, self.lint);
                            check_message_at(raw, base, reading, place, &mut self.started, sink)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Report what a part collected, in the order [`Collected::replay`]
    /// tells it, its checked texts placed at `frame` when given; returns
    /// the texts reported, for their buffers.
    fn replay(
        &mut self,
        collected: Collected,
        frame: Option<Frame>,
        sink: &mut dyn Sink,
    ) -> io::Result<Vec<Checked>> {
        let Collected {
            checked,
            notes,
            warnings,
            errors,
        } = collected;
        notes.into_iter().for_each(|note| sink.note(note));
        warnings.into_iter().for_each(|note| sink.warning(note));
        errors.into_iter().for_each(|error| sink.error(error));
        let mut reported = Vec::with_capacity(checked.len());
        for mut checked in checked {
            if let Some(frame) = &frame {
                checked.frame = frame.clone();
            }
            checked.continuation = self.started;
            self.started = true;
            sink.checked_ref(&checked)?;
            reported.push(checked);
        }
        Ok(reported)
    }

    /// Report what is said once the last part is out.
    pub(crate) fn finish(self, sink: &mut dyn Sink) -> io::Result<()> {
        drop(self.progress);
        let origin = &self.parts.origin;
        if self.latin1 > 0 {
            sink.note(latin1_note(origin, self.latin1));
        }
        if matches!(self.parts.cut, Cut::Slices(_)) && !self.started {
            // An archive without URLs is still a checked input.
            sink.checked(empty_archive(origin))?;
        }
        Ok(())
    }
}

/// Bytes of a window read at a time: small enough that the block is still
/// in the cache when it is decoded and counted.
const BLOCK_LEN: usize = 256 << 10;

/// Bytes of a window read at a time straight into its text: few, as such
/// a block is read again when it turns out not to be UTF-8.
const UTF8_BLOCK_LEN: usize = 64 << 10;

/// The offset in a window's decoded `text` of byte `offset` of the file
/// (the text's end when the file ended before it, as it shrank since it
/// was cut).
fn window_offset(piece: &LargePart, widened: &Widened, text: &str, offset: u64) -> usize {
    let local = usize::try_from(offset - piece.read.start).unwrap_or(usize::MAX);
    widened.text_offset(local).min(text.len())
}

/// How far the count of a window's position may go once `decoded` of its
/// bytes are decoded into `text`: to the next window's start once that is
/// decoded, else to the text's end, but for a final `\r` that may start a
/// `\r\n` with the next bytes.
fn counted_end(piece: &LargePart, widened: &Widened, text: &str, decoded: usize) -> usize {
    let next = usize::try_from(piece.next_read - piece.read.start).unwrap_or(usize::MAX);
    if decoded > next {
        widened.text_offset(next)
    } else {
        text.len() - usize::from(text.ends_with('\r'))
    }
}

/// The input position at the end of a text that is counted a stretch at a
/// time as it grows, from [`Base::START`]. [`advance`] over stretches that
/// end between `\r` and `\n` only where the text does gives what it gives
/// over the whole: a line break is not cut in two.
struct Counted {
    base: Base,
    /// Offset of the text counted so far.
    counted: usize,
    /// The text starts the input, so that a byte-order mark it opens with is
    /// not a column (see [`Base::for_text`]).
    starts_input: bool,
}

impl Counted {
    /// Nothing counted yet, of a text that starts the input or not.
    fn new(starts_input: bool) -> Self {
        Counted {
            base: Base::START,
            counted: 0,
            starts_input,
        }
    }

    /// Count `text` on to offset `to`, if it is further.
    fn count_to(&mut self, text: &str, to: usize) {
        // Offsets off a character boundary (a file changed while read) are
        // not counted rather than panic.
        if let Some(stretch) = text.get(self.counted..to).filter(|s| !s.is_empty()) {
            if self.starts_input && self.counted == 0 {
                self.base = self.base.for_text(stretch);
            }
            self.base = advance(self.base, stretch);
            self.counted = to;
        }
    }
}

/// The input position `to_next` gives, counted from [`Base::START`], for a
/// text that starts at `base` instead: what [`advance`] from `base` over
/// the same text gives.
fn joined(base: Base, to_next: Base) -> Base {
    Base {
        offset: base.offset + to_next.offset,
        line: base.line + to_next.line - 1,
        column: if to_next.line == 1 {
            base.column + to_next.column - 1
        } else {
            to_next.column
        },
        chars: base.chars.zip(to_next.chars).map(|(a, b)| a + b),
    }
}

/// Bytes read at a time when splitting a slice and looking for cuts.
const READ_LEN: usize = 256 << 10;

/// The windows of a text file of `len` bytes: owned stretches of about
/// `chunk_len` bytes each, read with `context` bytes around them.
fn window_cuts(file: &File, len: u64, chunks: ChunkOptions) -> io::Result<Vec<LargePart>> {
    let chunk_len = chunks.chunk_len.max(1) as u64;
    let context = chunks.context as u64;
    let mut owned = vec![0];
    for index in 1..len.div_ceil(chunk_len) {
        let cut = cut_near(file, len, index * chunk_len, Direction::Forward)?;
        if cut > owned[owned.len() - 1] && cut < len {
            owned.push(cut);
        }
    }
    owned.push(len);
    let mut starts = Vec::with_capacity(owned.len());
    for &start in &owned[..owned.len() - 1] {
        starts.push(cut_near(
            file,
            len,
            start.saturating_sub(context),
            Direction::Back,
        )?);
    }
    let mut pieces = Vec::with_capacity(starts.len());
    for (index, &read_start) in starts.iter().enumerate() {
        let owned_end = owned[index + 1];
        let read_end = cut_near(
            file,
            len,
            (owned_end + context).min(len),
            Direction::Forward,
        )?;
        pieces.push(LargePart {
            index,
            read: read_start..read_end,
            owned: owned[index]..owned_end,
            next_read: starts.get(index + 1).copied().unwrap_or(read_start),
        });
    }
    Ok(pieces)
}

/// Which way [`cut_near`] looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Direction {
    Forward,
    Back,
}

/// The offset nearest `at` (at or after it, or at or before it) where a
/// file of `len` bytes can be cut: see [`is_cut`].
fn cut_near(file: &File, len: u64, at: u64, direction: Direction) -> io::Result<u64> {
    if at == 0 || at >= len {
        return Ok(at.min(len));
    }
    // A cut is at most four bytes away (inside a four-byte character, then
    // past a `\r\n` pair), and telling one looks three bytes back.
    let start = at.saturating_sub(8);
    let end = (at + 8).min(len);
    let bytes = read_range(file, start..end)?;
    let local = |offset: u64| usize::try_from(offset - start).unwrap_or(usize::MAX);
    let is_cut_at = |offset: u64| offset == 0 || offset >= len || is_cut(&bytes, local(offset));
    let found = match direction {
        Direction::Forward => (at..=end).find(|&offset| is_cut_at(offset)),
        Direction::Back => (start..=at).rev().find(|&offset| is_cut_at(offset)),
    };
    Ok(found.unwrap_or(at))
}

/// True when cutting `bytes` before index `at` (not the first or last)
/// leaves both sides decoding as the whole does: `at` is not inside a
/// valid UTF-8 character (bytes that are not valid UTF-8 are one character
/// each), nor between the `\r` and `\n` of a line break. Index `at` past
/// the bytes read (a file that shrank) is no cut.
fn is_cut(bytes: &[u8], at: usize) -> bool {
    let (Some(&byte), Some(&before)) =
        (bytes.get(at), at.checked_sub(1).and_then(|i| bytes.get(i)))
    else {
        return false;
    };
    if before == b'\r' && byte == b'\n' {
        return false;
    }
    if !is_continuation(byte) {
        return true;
    }
    // A continuation byte is inside a character when a lead byte at most
    // three bytes back starts a valid sequence that reaches it.
    for back in 1..=3.min(at) {
        let lead = bytes[at - back];
        if is_continuation(lead) {
            continue;
        }
        let width = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return true,
        };
        return width <= back
            || bytes
                .get(at - back..at - back + width)
                .is_none_or(|sequence| std::str::from_utf8(sequence).is_err());
    }
    true
}

/// True for a UTF-8 continuation byte.
fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// The slices of an mbox archive of `len` bytes: runs of whole messages of
/// about `slice_len` bytes, each starting at a `From ` line.
fn slice_cuts(file: &File, len: u64, slice_len: usize) -> io::Result<Vec<LargePart>> {
    let slice_len = slice_len.max(1) as u64;
    let mut cuts = vec![0];
    let mut at = slice_len;
    while at < len {
        // Looking no further than the next nominal cut keeps this linear
        // however long a message is.
        let limit = (at + slice_len).min(len);
        match next_envelope_line(file, at, limit)? {
            Some(cut) if cut > cuts[cuts.len() - 1] => {
                cuts.push(cut);
                at = cut + slice_len;
            }
            _ => at = limit,
        }
    }
    cuts.push(len);
    Ok(cuts
        .windows(2)
        .enumerate()
        .map(|(index, pair)| LargePart {
            index,
            read: pair[0]..pair[1],
            owned: pair[0]..pair[1],
            next_read: pair[1],
        })
        .collect())
}

/// The offset of the first line starting at or after `at` and before
/// `limit` that is an mbox `From ` line, as the archive reader tells them.
fn next_envelope_line(file: &File, at: u64, limit: u64) -> io::Result<Option<u64>> {
    // Start one byte early: a line starts at `at` when that byte ends one.
    let mut reader = BufReader::with_capacity(READ_LEN, FileRange::new(file, at - 1..limit));
    let mut line = Vec::new();
    let mut offset = at - 1 + skip_line(&mut reader)?;
    loop {
        line.clear();
        let consumed =
            mail::read_line_capped(&mut reader, &mut line, mail::DEFAULT_MAX_MESSAGE_BYTES)?;
        if consumed == 0 || offset >= limit {
            return Ok(None);
        }
        if mail::is_envelope_line(&line) {
            return Ok(Some(offset));
        }
        offset += consumed as u64;
    }
}

/// Read past the rest of a line; returns the bytes consumed.
fn skip_line(reader: &mut impl BufRead) -> io::Result<u64> {
    let mut consumed = 0;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if buffer.is_empty() {
            return Ok(consumed);
        }
        let (take, done) = match memchr::memchr(b'\n', buffer) {
            Some(newline) => (newline + 1, true),
            None => (buffer.len(), false),
        };
        reader.consume(take);
        consumed += take as u64;
        if done {
            return Ok(consumed);
        }
    }
}

/// What an mbox slice adds to the archive before the next slice.
#[derive(Debug, Clone, Copy)]
struct SliceDelta {
    /// Archive offset where the slice's bytes end.
    end: usize,
    /// Line breaks in it.
    lines: usize,
    /// Messages in it.
    messages: usize,
    /// Characters in it, unless a message was cut at the size cap.
    chars: Option<usize>,
}

/// Where an mbox slice starts in its archive.
#[derive(Debug, Clone, Copy)]
struct SliceOrigin {
    point: ArchivePoint,
    /// Characters before it, while they can be counted.
    chars: Option<usize>,
}

impl SliceOrigin {
    /// Where the slice after this one starts.
    fn after(self, delta: &SliceDelta) -> SliceOrigin {
        SliceOrigin {
            point: ArchivePoint {
                offset: delta.end,
                line: self.point.line + delta.lines,
                messages_before: self.point.messages_before + delta.messages,
            },
            chars: self.chars.zip(delta.chars).map(|(a, b)| a + b),
        }
    }

    /// Where the slice after this one starts when this one could not be
    /// split: at `end`, lines and characters no longer known exactly.
    fn lost(self, end: u64) -> SliceOrigin {
        SliceOrigin {
            point: ArchivePoint {
                offset: usize::try_from(end).unwrap_or(usize::MAX),
                ..self.point
            },
            chars: None,
        }
    }
}

/// The start of each mbox slice, published by the slice before it once it
/// is split and its own start is known. Slices are taken in file order, so
/// a slice waits only for slices some thread took before it; a run that
/// stops early cancels the chain, as those may then never be read.
struct Chain {
    origins: Mutex<Origins>,
    published: Condvar,
    reading: MailReading,
}

/// What [`Chain`] guards.
struct Origins {
    /// Where each slice starts, once known; one past the last slice too.
    starts: Vec<Option<SliceOrigin>>,
    /// The run stopped: nobody waits for the slices not read yet.
    cancelled: bool,
}

impl Chain {
    fn new(slices: usize, reading: MailReading) -> Self {
        let mut starts = vec![None; slices + 1];
        starts[0] = Some(SliceOrigin {
            point: ArchivePoint::START,
            chars: Some(0),
        });
        Chain {
            origins: Mutex::new(Origins {
                starts,
                cancelled: false,
            }),
            published: Condvar::new(),
            reading,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Origins> {
        self.origins
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Wait for where slice `index` starts; `None` once cancelled.
    fn origin(&self, index: usize) -> Option<SliceOrigin> {
        let mut origins = self.lock();
        loop {
            if origins.cancelled {
                return None;
            }
            if let Some(origin) = origins.starts[index] {
                return Some(origin);
            }
            origins = self
                .published
                .wait(origins)
                .unwrap_or_else(|poison| poison.into_inner());
        }
    }

    /// Say where slice `index` starts.
    fn publish(&self, index: usize, origin: SliceOrigin) {
        let mut origins = self.lock();
        origins.starts[index] = Some(origin);
        self.published.notify_all();
    }

    /// Stop every wait.
    fn cancel(&self) {
        let mut origins = self.lock();
        origins.cancelled = true;
        self.published.notify_all();
    }
}

/// Read the bytes of `range` of `file` (fewer when the file ends first).
fn read_range(file: &File, range: Range<u64>) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    FileRange::new(file, range).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// A byte range of a file, read with positioned reads, so that threads
/// share the file without sharing a position in it.
struct FileRange<'f> {
    file: &'f File,
    at: u64,
    end: u64,
}

impl<'f> FileRange<'f> {
    fn new(file: &'f File, range: Range<u64>) -> Self {
        FileRange {
            file,
            at: range.start,
            end: range.end,
        }
    }
}

impl Read for FileRange<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = usize::try_from(self.end.saturating_sub(self.at)).unwrap_or(usize::MAX);
        let len = buf.len().min(left);
        if len == 0 {
            return Ok(0);
        }
        let read = read_at(self.file, &mut buf[..len], self.at)?;
        self.at += read as u64;
        Ok(read)
    }

    fn read_to_end(&mut self, bytes: &mut Vec<u8>) -> io::Result<usize> {
        // One read of the exact length, then one that finds the end.
        let left = usize::try_from(self.end.saturating_sub(self.at)).unwrap_or(0);
        let start = bytes.len();
        bytes.resize(start + left, 0);
        let mut filled = start;
        while filled < bytes.len() {
            match self.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(read) => filled += read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => {
                    bytes.truncate(filled);
                    return Err(err);
                }
            }
        }
        bytes.truncate(filled);
        Ok(filled - start)
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checked::Location;
    use crate::input::kind::{InputKind, KindGlobs};
    use crate::lint;
    use crate::mail::HeaderUrls;
    use crate::scan::MAX_WRAPPER_BYTES;
    use crate::source::decode;

    /// A URL as reported: its text, outer span placed in the input, and
    /// the characters before it in the input when they are counted.
    type Placed = (String, Location, Option<usize>);

    fn placed(collected: &Collected) -> Vec<Placed> {
        let mut found = Vec::new();
        for checked in &collected.checked {
            let Frame::Text(base) = checked.frame else {
                panic!("a text window has a text frame");
            };
            for report in &checked.reports {
                let outer = report.found.outer;
                let before = checked.text().expect("kept")[..outer.start].chars().count();
                let chars = base.chars.map(|chars| chars + before);
                found.push((report.found.url.clone(), checked.locate(outer), chars));
            }
        }
        found
    }

    /// Every URL of `bytes` read whole.
    fn whole(bytes: &[u8]) -> Vec<Placed> {
        let text = decode(bytes.to_vec()).0;
        let linted: Vec<_> = lint::lint(&text, &LintOptions::default()).collect();
        let mut collected = Collected::default();
        collected
            .checked
            .push(Checked::new(Source::new(Origin::Stdin, text), linted));
        placed(&collected)
    }

    /// A text file holding `bytes`, planned in parts cut as `chunks` say
    /// (the directory holds the file).
    fn planned(bytes: &[u8], chunks: ChunkOptions) -> (tempfile::TempDir, Parts) {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("text.txt");
        std::fs::write(&path, bytes).expect("write file");
        let options = ReadOptions {
            kind: InputKind::Auto,
            globs: KindGlobs::default(),
            mail_headers: HeaderUrls::List,
            chunks,
            progress: false,
            keep_text: crate::checked::KeepText::Always,
        };
        let large = LargeInput {
            input: Input::File(path),
            pipe: None,
        };
        let Ok(LargePlan::Parts(parts)) = plan_large(large, &options) else {
            panic!("a regular text file is read in parts");
        };
        (dir, parts)
    }

    /// Every URL of `bytes` read from a file in parts cut as `chunks` say,
    /// on this thread, and the number of parts.
    fn in_parts(bytes: &[u8], chunks: ChunkOptions) -> (Vec<Placed>, usize) {
        let (_dir, parts) = planned(bytes, chunks);
        let lint = LintOptions::default();
        let mut placer = parts.placer(&lint);
        let mut collected = Collected::default();
        for piece in parts.pieces() {
            let part = parts.read(piece, &lint);
            placer.place(part, &mut collected).expect("collecting");
        }
        placer.finish(&mut collected).expect("collecting");
        assert!(collected.errors.is_empty(), "{:?}", collected.errors);
        (placed(&collected), parts.pieces().len())
    }

    #[test]
    fn a_file_that_shrinks_while_it_is_read_is_an_error_once() {
        let line = b"see http://a.example/~x here\n";
        let bytes = line.repeat(400);
        let chunks = ChunkOptions {
            chunk_len: 1000,
            context: 100,
        };
        let (dir, parts) = planned(&bytes, chunks);
        let kept = 150 * line.len();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.path().join("text.txt"))
            .expect("open");
        file.set_len(kept as u64).expect("truncate");
        let lint = LintOptions::default();
        let mut placer = parts.placer(&lint);
        let mut collected = Collected::default();
        for piece in parts.pieces() {
            placer
                .place(parts.read(piece, &lint), &mut collected)
                .expect("collecting");
        }
        let errors: Vec<String> = collected.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].ends_with(&format!(
                "not read whole: it shrank from {} to {kept} bytes while it was read: what it \
                 held past byte {kept} was not checked",
                bytes.len()
            )),
            "{errors:?}"
        );
        let urls: usize = collected
            .checked
            .iter()
            .map(|checked| checked.reports.len())
            .sum();
        assert_eq!(urls, 150, "the URLs before the new end are still checked");
    }

    /// Lines with Latin-1 bytes before, inside and after URLs, next to
    /// UTF-8 characters, `\r\n` and lone `\r` line breaks; line `index`
    /// names its own host.
    fn tricky_line(index: usize) -> Vec<u8> {
        let mut line = b"caf\xE9 \xF0\x9F\x8C\x8A\r\n<URL:http://h".to_vec();
        line.extend_from_slice(index.to_string().as_bytes());
        line.extend_from_slice(b".example/\r\n   a~b> \xC3\xA9 http://x.example/\xE9\r");
        line
    }

    /// What reading a window whole and then decoding and counting it gives:
    /// its text, where bytes were read as Latin-1, and the position of the
    /// next window's start counted from the window's.
    fn read_whole(bytes: &[u8], piece: &LargePart) -> (String, Widened, Base) {
        let offset = |at: u64| usize::try_from(at).expect("small file");
        let window = &bytes[offset(piece.read.start)..offset(piece.read.end)];
        let text = decode(window.to_vec()).0;
        let widened = Widened::of(window);
        let next = widened.text_offset(offset(piece.next_read - piece.read.start));
        let to_next = advance(Base::START, &text[..next]);
        (text, widened, to_next)
    }

    #[test]
    fn a_window_read_in_blocks_decodes_and_counts_as_a_whole_read() {
        // Lines of UTF-8, which blocks that their ends do not cut read
        // straight into the text, and now and then a line with Latin-1
        // bytes; every byte of them meets a block's end in some window.
        let mut bytes = Vec::new();
        for index in 0..16 {
            if index % 4 == 3 {
                bytes.extend(tricky_line(index));
            } else {
                bytes.extend_from_slice(b"ok \xC3\xA9 \xE2\x82\xAC\r\n<URL:http://u.example/");
                bytes.extend_from_slice(b"\xF0\x9F\x8C\x8A>\rsee http://v.example/\n");
            }
        }
        // A character cut short at the file's end is read as Latin-1.
        bytes.extend_from_slice(b"\r\n\xE2\x82");
        let chunks = ChunkOptions {
            chunk_len: 97,
            context: 61,
        };
        let (_dir, parts) = planned(&bytes, chunks);
        assert!(parts.pieces().len() > 5);
        for piece in parts.pieces() {
            let expected = read_whole(&bytes, piece);
            for utf8_len in [1, 2, 3, 7, 16, 50, 1000] {
                for block_len in [4, 5, 7, 11, 64] {
                    let mut block = vec![0; block_len];
                    let mut text = String::from("left from the window before");
                    let (widened, to_next) = parts
                        .read_text(piece, utf8_len, &mut block, &mut text)
                        .expect("readable");
                    assert_eq!(
                        (text, widened, to_next),
                        expected,
                        "{piece:?} in blocks of {utf8_len} and {block_len}"
                    );
                }
            }
        }
    }

    #[test]
    fn windows_longer_than_a_block_place_every_url_as_a_whole_read_does() {
        let mut bytes = Vec::new();
        let mut index = 0;
        while bytes.len() < 3 * BLOCK_LEN {
            bytes.extend(tricky_line(index));
            index += 1;
        }
        let expected = whole(&bytes);
        let chunks = ChunkOptions {
            chunk_len: BLOCK_LEN + BLOCK_LEN / 3,
            context: MAX_WRAPPER_BYTES,
        };
        let (found, parts) = in_parts(&bytes, chunks);
        assert!(parts > 1);
        assert_eq!(found, expected);
    }

    #[test]
    fn cuts_fall_between_characters_and_never_inside_a_crlf() {
        let bytes = b"a\r\n\xC3\xA9\xE9\xF0\x9F\x8C\x8A\x80z";
        let cuts: Vec<usize> = (1..bytes.len()).filter(|&at| is_cut(bytes, at)).collect();
        // Not 2 (inside \r\n), 4 (inside C3 A9), 8-10 (inside F0 9F 8C 8A);
        // the lone E9 and the stray 80 are characters of their own.
        assert_eq!(cuts, [1, 3, 5, 6, 10, 11]);
        let bytes = b"x\xE2\x82y";
        // An incomplete sequence decodes as Latin-1, byte by byte.
        assert!(is_cut(bytes, 2));
    }

    #[test]
    fn windows_read_in_parts_place_every_url_as_a_whole_read_does() {
        // Tricky bytes at every offset modulo a line, so that cuts and
        // window starts meet each of them; the lines together exceed twice
        // the context, so that windows start inside the text.
        let bytes: Vec<u8> = (0..90).flat_map(tricky_line).collect();
        let expected = whole(&bytes);
        assert_eq!(expected.len(), 180);
        for chunk_len in [1, 2, 3, 5, 7, 64, 1000, 2049] {
            let chunks = ChunkOptions {
                chunk_len,
                context: MAX_WRAPPER_BYTES,
            };
            let (found, parts) = in_parts(&bytes, chunks);
            assert!(parts > 1, "{chunk_len}");
            assert_eq!(found, expected, "chunk_len {chunk_len}");
        }
    }

    #[test]
    fn mbox_slices_start_at_from_lines_and_cover_the_archive() {
        let message = |n: usize| {
            format!("From a@example.org Mon Jan  1 00:00:0{n} 2024\nSubject: {n}\n\nFrom me: x\n")
        };
        let archive: String = (0..6).map(message).collect();
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("a.mbox");
        std::fs::write(&path, &archive).expect("write archive");
        let file = File::open(&path).expect("open archive");
        let len = archive.len() as u64;
        for slice_len in [1, 10, 60, 100, 1000] {
            let pieces = slice_cuts(&file, len, slice_len).expect("read");
            let starts: Vec<u64> = pieces.iter().map(|piece| piece.owned.start).collect();
            for &start in &starts {
                let at = usize::try_from(start).expect("small");
                assert!(archive[at..].starts_with("From a@"), "{slice_len}: {at}");
            }
            let ends: Vec<u64> = pieces.iter().map(|piece| piece.owned.end).collect();
            assert_eq!(starts[1..], ends[..ends.len() - 1], "{slice_len}");
            assert_eq!(ends.last(), Some(&len));
            let messages = archive.matches("\nSubject").count();
            assert!(pieces.len() <= messages, "{slice_len}");
        }
    }
}
