//! Reading one input into checked texts, whatever it holds: a small text
//! file is read whole (the fast path, run in a worker thread), a large text
//! file or stdin in overlapping windows ([`crate::chunk`]), and mail
//! (`.mbox`, `.eml`, or sniffed) one message at a time. Each checked text
//! goes to a [`Sink`] as soon as it is ready, so a run reports as it reads
//! and never holds a whole large input.
//!
//! Mail texts are checked on their decoded text and placed in the raw
//! archive through a [`Frame::Mail`]; malformed messages are warned about
//! and skipped past.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::Arc;

use crate::chunk::{ChunkOptions, Windows};
use crate::input::{self, Input, InputError, Loaded, Note, Origin, Source};
use crate::lint::{self, LintOptions, UrlReport};
use crate::mail::{self, MailKind, MailWarning, MessageInfo, OffsetMap, ParsedMessage, RawMessage};
use crate::progress::Progress;
use crate::report::{escape, Base, Checked, Frame, MailFrame, RawText};
use crate::span::Span;

/// Bytes of an input looked at to decide what it holds: enough for the
/// binary check and for mail sniffing.
const HEAD_LEN: usize = if input::BINARY_SNIFF_LEN > mail::SNIFF_LEN {
    input::BINARY_SNIFF_LEN
} else {
    mail::SNIFF_LEN
};

/// Buffer size for streamed reads.
const BUFFER_LEN: usize = 1 << 20;

/// What an input holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// Free text.
    Text,
    /// Mail of this kind.
    Mail(MailKind),
}

/// How inputs are read.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The kind every input is read as (`--input`); `None` detects it from
    /// the file name, then the content.
    pub kind: Option<InputKind>,
    /// How large text is cut; files smaller than a chunk are read whole.
    pub chunks: ChunkOptions,
    /// Show progress on stderr while streaming (stderr is a terminal).
    pub progress: bool,
}

/// Where an input's results go, in order.
pub trait Sink {
    /// A checked text; an error here is an output error and ends the run.
    fn checked(&mut self, checked: Checked) -> io::Result<()>;
    /// Something for `--verbose`.
    fn note(&mut self, note: Note);
    /// Something always worth telling (a malformed message).
    fn warning(&mut self, note: Note);
    /// An input that could not be read, or that made urlint panic.
    fn error(&mut self, error: InputError);
}

/// A sink that keeps everything, for inputs read in a worker thread.
#[derive(Debug, Default)]
pub struct Collected {
    checked: Vec<Checked>,
    notes: Vec<Note>,
    warnings: Vec<Note>,
    errors: Vec<InputError>,
}

impl Collected {
    /// Pass everything kept to `sink`: notes, warnings and errors first,
    /// then the checked texts.
    pub fn replay(self, sink: &mut dyn Sink) -> io::Result<()> {
        self.notes.into_iter().for_each(|note| sink.note(note));
        self.warnings
            .into_iter()
            .for_each(|note| sink.warning(note));
        self.errors.into_iter().for_each(|error| sink.error(error));
        self.checked
            .into_iter()
            .try_for_each(|checked| sink.checked(checked))
    }
}

impl Sink for Collected {
    fn checked(&mut self, checked: Checked) -> io::Result<()> {
        self.checked.push(checked);
        Ok(())
    }

    fn note(&mut self, note: Note) {
        self.notes.push(note);
    }

    fn warning(&mut self, note: Note) {
        self.warnings.push(note);
    }

    fn error(&mut self, error: InputError) {
        self.errors.push(error);
    }
}

/// True when `input` is streamed rather than read whole: stdin and other
/// pipes (whose size is unknown until read) and files of at least one chunk.
pub fn streams(input: &Input, options: &ReadOptions) -> bool {
    match input {
        Input::Stdin => true,
        Input::File(path) => std::fs::metadata(path)
            .is_ok_and(|meta| !meta.is_file() || meta.len() >= options.chunks.chunk_len as u64),
    }
}

/// Read an input whole and check it, keeping the results: the
/// worker-thread path for small files (stdin, whose size is unknown, is
/// streamed into the collection).
pub fn read_whole(input: &Input, options: &ReadOptions, lint: &LintOptions) -> Collected {
    let mut collected = Collected::default();
    let path = match input {
        Input::File(path) => path,
        Input::Stdin => {
            // Collecting never fails to write; read errors are collected.
            let _ = read_streamed(input, options, lint, &mut collected);
            return collected;
        }
    };
    let named = options
        .kind
        .or_else(|| MailKind::from_path(path).map(InputKind::Mail));
    if let Some(InputKind::Mail(kind)) = named {
        read_mail_file(path, kind, options.chunks, lint, &mut collected);
        return collected;
    }
    let loaded = match input.read() {
        Ok(loaded) => loaded,
        Err(err) => {
            collected.error(err);
            return collected;
        }
    };
    let sniffed = if named.is_none() {
        sniff_loaded(&loaded)
    } else {
        None
    };
    match sniffed {
        // Mail is parsed from its raw bytes, not from the text decoded for
        // scanning, so the file is read again (only when it looks like mail).
        Some(kind) => read_mail_file(path, kind, options.chunks, lint, &mut collected),
        None => check_loaded(loaded, lint, &mut collected),
    }
    collected
}

/// The mail kind the decoded head of a loaded text looks like.
fn sniff_loaded(loaded: &Loaded) -> Option<MailKind> {
    let text = &loaded.sources.first()?.text;
    let head = &text.as_bytes()[..text.len().min(mail::SNIFF_LEN)];
    MailKind::sniff(head)
}

/// Read the mail file at `path` whole and check its messages.
fn read_mail_file(
    path: &Path,
    kind: MailKind,
    chunks: ChunkOptions,
    lint: &LintOptions,
    collected: &mut Collected,
) {
    let origin = Origin::File(path.to_path_buf());
    let checked = std::fs::read(path)
        .and_then(|bytes| check_mail(&bytes[..], kind, &origin, chunks, lint, collected));
    // Only reading can fail here: a collecting sink always accepts.
    if let Err(err) = checked {
        collected.error(cannot_read(&origin, &err));
    }
}

/// Check the sources of a loaded text, each whole.
fn check_loaded(loaded: Loaded, lint: &LintOptions, collected: &mut Collected) {
    collected.notes.extend(loaded.notes);
    for source in loaded.sources {
        match lint_source(&source, lint, &(0..usize::MAX)) {
            Ok(reports) => collected.checked.push(Checked::new(source, reports)),
            Err(err) => collected.error(err),
        }
    }
}

/// Stream `input` into `sink`: the reporting-thread path, for large files
/// and stdin. Returns an error only when `sink` fails to write.
pub fn read_streamed(
    input: &Input,
    options: &ReadOptions,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let (origin, reader, total): (Origin, Box<dyn Read>, Option<u64>) = match input {
        Input::File(path) => {
            let origin = Origin::File(path.clone());
            match File::open(path) {
                Ok(file) => {
                    let total = file.metadata().ok().map(|meta| meta.len());
                    (origin, Box::new(file), total)
                }
                Err(err) => {
                    sink.error(cannot_read(&origin, &err));
                    return Ok(());
                }
            }
        }
        Input::Stdin => (Origin::Stdin, Box::new(io::stdin().lock()), None),
    };
    let reader: Box<dyn Read> = if options.progress {
        Box::new(Progress::new(
            reader,
            escape::line(&origin.to_string()).into(),
            total,
        ))
    } else {
        reader
    };
    let mut reader = BufReader::with_capacity(BUFFER_LEN, reader);
    let mut head = Vec::with_capacity(HEAD_LEN);
    if let Err(err) = (&mut reader).take(HEAD_LEN as u64).read_to_end(&mut head) {
        sink.error(cannot_read(&origin, &err));
        return Ok(());
    }
    let path = match input {
        Input::File(path) => Some(path.as_path()),
        Input::Stdin => None,
    };
    let kind = options
        .kind
        .unwrap_or_else(|| MailKind::detect(path, &head).map_or(InputKind::Text, InputKind::Mail));
    if kind == InputKind::Text && input::is_binary(&head) {
        // Skipped on its head alone, so an endless device ends at once.
        let mut collected = Collected::default();
        check_loaded(input::load(origin, head), lint, &mut collected);
        return collected.replay(sink);
    }
    let reader = Cursor::new(head).chain(reader);
    match kind {
        InputKind::Mail(kind) => check_mail(reader, kind, &origin, options.chunks, lint, sink),
        InputKind::Text => check_text(reader, options.chunks, origin, lint, sink),
    }
}

/// Check a streamed text: read whole when it is smaller than a chunk (the
/// same path as a small file), else window by window.
fn check_text(
    reader: impl BufRead,
    chunks: ChunkOptions,
    origin: Origin,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let mut reader = reader;
    let mut start = Vec::new();
    if let Err(err) = (&mut reader)
        .take(chunks.chunk_len as u64)
        .read_to_end(&mut start)
    {
        sink.error(cannot_read(&origin, &err));
        return Ok(());
    }
    if start.len() < chunks.chunk_len {
        let mut collected = Collected::default();
        check_loaded(input::load(origin, start), lint, &mut collected);
        return collected.replay(sink);
    }
    let mut windows = Windows::with_head(start, reader, chunks);
    let mut continuation = false;
    for window in &mut windows {
        let window = match window {
            Ok(window) => window,
            Err(err) => {
                sink.error(cannot_read(&origin, &err));
                return Ok(());
            }
        };
        let source = Source::new(origin.clone(), window.text);
        match lint_source(&source, lint, &window.owned) {
            Ok(reports) => {
                let checked = Checked::new(source, reports)
                    .in_frame(Frame::Text(window.base))
                    .continuing(continuation);
                sink.checked(checked)?;
                continuation = true;
            }
            Err(err) => sink.error(err),
        }
    }
    if windows.latin1_bytes() > 0 {
        sink.note(latin1_note(&origin, windows.latin1_bytes()));
    }
    Ok(())
}

/// The note [`input::load`] gives a whole file with invalid UTF-8.
fn latin1_note(origin: &Origin, bytes: usize) -> Note {
    Note {
        name: origin.to_string(),
        message: format!(
            "not valid UTF-8: {bytes} byte(s) read as Latin-1 characters; \
             offsets index the decoded text"
        ),
        skipped: false,
    }
}

/// Check every message of a mail input, one at a time.
fn check_mail(
    reader: impl BufRead,
    kind: MailKind,
    origin: &Origin,
    chunks: ChunkOptions,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let mut archive = ArchivePosition::default();
    let check = MessageCheck {
        origin,
        chunks: ChunkOptions {
            chunk_len: chunks.chunk_len.min(MAIL_WINDOW_LEN),
            ..chunks
        },
        lint,
    };
    for message in mail::read(reader, kind) {
        match message {
            Ok(message) => check.message(message, sink, &mut archive)?,
            Err(err) => {
                sink.error(cannot_read(origin, &err));
                break;
            }
        }
    }
    if !archive.continuation {
        // An archive without URLs is still a checked input.
        sink.checked(Checked::new(
            Source::new(origin.clone(), String::new()),
            Vec::new(),
        ))?;
    }
    Ok(())
}

/// How far a mail input has been reported.
#[derive(Debug)]
struct ArchivePosition {
    /// The input already had a checked text.
    continuation: bool,
    /// Archive byte offset and character count where the next message
    /// should start; `None` once a gap (a message cut at the size cap) made
    /// characters uncountable.
    next: Option<(usize, usize)>,
}

impl Default for ArchivePosition {
    fn default() -> Self {
        ArchivePosition {
            continuation: false,
            next: Some((0, 0)),
        }
    }
}

impl ArchivePosition {
    /// The archive position of `raw`'s first byte; messages follow each
    /// other, so characters are counted message by message.
    fn base_of(&mut self, raw: &RawMessage) -> Base {
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
    bytes
        .utf8_chunks()
        .map(|chunk| chunk.valid().chars().count() + chunk.invalid().len())
        .sum()
}

/// The most a mail text's window owns: less than a text file's, as a
/// message's raw bytes, decoded text and displayed text are held beside the
/// window's findings.
const MAIL_WINDOW_LEN: usize = 4 << 20;

/// How the texts of a message are checked.
struct MessageCheck<'a> {
    origin: &'a Origin,
    /// A text longer than a chunk is checked window by window, so that a
    /// huge part is held with the findings of one window at a time.
    chunks: ChunkOptions,
    lint: &'a LintOptions,
}

impl MessageCheck<'_> {
    /// Check the texts of one message.
    fn message(
        &self,
        mut message: ParsedMessage,
        sink: &mut dyn Sink,
        archive: &mut ArchivePosition,
    ) -> io::Result<()> {
        let base = archive.base_of(&message.raw);
        for warning in &message.warnings {
            sink.warning(message_note(self.origin, &message.info, warning));
        }
        let info = Arc::new(message.info.clone());
        let mut raw: Option<Arc<RawText>> = None;
        for text in std::mem::take(&mut message.texts) {
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
            if text.text.len() <= self.chunks.chunk_len {
                let whole = (text.text, text.map, 0..usize::MAX);
                self.window(whole, &mut frame, sink, archive)?;
                continue;
            }
            for window in Windows::new(text.text.as_bytes(), self.chunks) {
                // Reading from memory does not fail.
                let Ok(window) = window else { break };
                let start = window.base.offset;
                let map = text.map.window(Span::new(start, start + window.text.len()));
                self.window((window.text, map, window.owned), &mut frame, sink, archive)?;
            }
        }
        Ok(())
    }

    /// Check one window of a text: its text, its map onto the archive, and
    /// the offsets at which the URLs it reports start.
    fn window(
        &self,
        (text, map, owned): (String, OffsetMap, Range<usize>),
        frame: &mut dyn FnMut(OffsetMap) -> Frame,
        sink: &mut dyn Sink,
        archive: &mut ArchivePosition,
    ) -> io::Result<()> {
        let source = Source::new(self.origin.clone(), text);
        let reports = match lint_source(&source, self.lint, &owned) {
            Ok(reports) if reports.is_empty() => return Ok(()),
            Ok(reports) => reports,
            Err(err) => {
                sink.error(err);
                return Ok(());
            }
        };
        let checked = Checked::new(source, reports)
            .in_frame(frame(map))
            .continuing(archive.continuation);
        archive.continuation = true;
        sink.checked(checked)
    }
}

/// A malformed-message warning, naming the message and part.
fn message_note(origin: &Origin, info: &MessageInfo, warning: &MailWarning) -> Note {
    let mut message = format!("message {} (line {})", info.number, info.line);
    if let Some(id) = &info.message_id {
        message.push_str(&format!(" <{id}>"));
    }
    if let Some(part) = &warning.part {
        message.push_str(&format!(", part {part}"));
    }
    message.push_str(&format!(": {}", warning.message));
    Note {
        name: origin.to_string(),
        message,
        skipped: false,
    }
}

/// Lint `source`, keeping the URLs whose match starts in `owned`; a panic
/// becomes an internal error for this source, so one bad input does not
/// stop the run.
fn lint_source(
    source: &Source,
    options: &LintOptions,
    owned: &std::ops::Range<usize>,
) -> Result<Vec<UrlReport>, InputError> {
    let linted = panic::catch_unwind(AssertUnwindSafe(|| {
        lint::lint(&source.text, options)
            .skip_while(|report| report.found.outer.start < owned.start)
            .take_while(|report| report.found.outer.start < owned.end)
            .collect()
    }));
    linted.map_err(|_| panicked(source.name.clone()))
}

/// The error reported when linting `name` panicked (the panic message itself
/// is already on stderr, from the default hook).
pub fn panicked(name: String) -> InputError {
    InputError {
        name,
        action: "internal error",
        cause: "urlint panicked on this input; please report it".to_string(),
    }
}

/// The error for an input that failed to read.
fn cannot_read(origin: &Origin, err: &io::Error) -> InputError {
    InputError {
        name: origin.to_string(),
        action: "cannot read",
        cause: err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Check `archive` as an mbox read from stdin, keeping everything.
    fn check_archive(archive: &str) -> Collected {
        let mut collected = Collected::default();
        check_mail(
            archive.as_bytes(),
            MailKind::Mbox,
            &Origin::Stdin,
            ChunkOptions::default(),
            &LintOptions::default(),
            &mut collected,
        )
        .expect("collecting never fails");
        collected
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
        let mut archive = ArchivePosition::default();
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
