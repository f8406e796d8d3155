//! Reading one input into checked texts, whatever it holds: a small text
//! file is read whole (the fast path, run in a worker thread), a large plain
//! text file or stdin in overlapping windows (see the `windows` module), a
//! Markdown or HTML document always whole (its structure needs all of it),
//! and mail (`.mbox`, `.eml`, or sniffed) one message at a time. Each checked
//! text goes to a [`Sink`] as soon as it is ready, so a run reports as it
//! reads and never holds a whole large input.

use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::Path;

use super::archive::{check_mail, MailReading};
use super::check::{check_loaded, lint_source};
use super::kind::{Content, InputKind, KindGlobs};
use super::load::{is_binary, load, Loaded, BINARY_SNIFF_LEN};
use super::notice::{cannot_read, latin1_note, Note};
use super::pipe::{self, Opened};
use super::progress::Progress;
use super::sink::{Collected, Sink};
use super::walk::Input;
use super::windows::{ChunkOptions, Windows};
use crate::checked::{Checked, Frame};
use crate::escape;
use crate::lint::LintOptions;
use crate::mail::{self, HeaderUrls, MailKind};
use crate::source::{Markup, Origin, Source};

/// Bytes of an input looked at to decide what it holds: enough for the
/// binary check and for mail sniffing.
pub(super) const HEAD_LEN: usize = if BINARY_SNIFF_LEN > mail::SNIFF_LEN {
    BINARY_SNIFF_LEN
} else {
    mail::SNIFF_LEN
};

/// Buffer size for streamed reads.
const BUFFER_LEN: usize = 1 << 20;

/// How inputs are read.
#[derive(Debug, Clone)]
pub(crate) struct ReadOptions {
    /// The kind every input is read as (`--input`); `Auto` detects it from
    /// `globs`, the file name, then the content.
    pub kind: InputKind,
    /// The configuration's `[kinds]` globs.
    pub globs: KindGlobs,
    /// The header fields of mail messages read for URLs (`--mail-headers`).
    pub mail_headers: HeaderUrls,
    /// How large text is cut; files smaller than a chunk are read whole.
    pub chunks: ChunkOptions,
    /// Show progress on stderr while streaming (stderr is a terminal).
    pub progress: bool,
}

/// True when `input` is streamed rather than read whole: stdin and other
/// pipes (whose size is unknown until read) and files of at least one chunk.
pub(crate) fn streams(input: &Input, options: &ReadOptions) -> bool {
    match input {
        Input::Stdin => true,
        Input::File(path) => std::fs::metadata(path)
            .is_ok_and(|meta| !meta.is_file() || meta.len() >= options.chunks.chunk_len as u64),
    }
}

/// Read an input whole and check it, keeping the results: the
/// worker-thread path for small files (stdin, whose size is unknown, is
/// streamed into the collection).
pub(crate) fn read_whole(input: &Input, options: &ReadOptions, lint: &LintOptions) -> Collected {
    let mut collected = Collected::default();
    let path = match input {
        Input::File(path) => path,
        Input::Stdin => {
            // Collecting never fails to write; read errors are collected.
            let _ = read_streamed(input, options, lint, &mut collected);
            return collected;
        }
    };
    let named = options.kind.named(&options.globs, path);
    if let Some(Content::Mail(kind)) = named {
        read_mail_file(path, kind, options, lint, &mut collected);
        return collected;
    }
    let loaded = match input.read() {
        Ok(loaded) => loaded,
        Err(err) => {
            collected.error(err);
            return collected;
        }
    };
    let content = named.unwrap_or_else(|| {
        let text = loaded
            .sources
            .first()
            .map_or("", |source| source.text.as_str());
        let head = &text.as_bytes()[..text.len().min(mail::SNIFF_LEN)];
        options.kind.detect(&options.globs, Some(path), head)
    });
    match content {
        // Mail is parsed from its raw bytes, not from the text decoded for
        // scanning, so the file is read again (only when it looks like mail).
        Content::Mail(kind) => read_mail_file(path, kind, options, lint, &mut collected),
        Content::Text(markup) => check_loaded(written_in(loaded, markup), lint, &mut collected),
    }
    collected
}

/// The loaded sources, marked as written in `markup`.
pub(super) fn written_in(mut loaded: Loaded, markup: Markup) -> Loaded {
    loaded.sources = loaded
        .sources
        .into_iter()
        .map(|source| source.written_in(markup))
        .collect();
    loaded
}

/// Read the mail file at `path` whole and check its messages.
fn read_mail_file(
    path: &Path,
    kind: MailKind,
    options: &ReadOptions,
    lint: &LintOptions,
    collected: &mut Collected,
) {
    let reading = MailReading::whole(kind, options.mail_headers, options.chunks);
    let origin = Origin::File(path.to_path_buf());
    let checked = std::fs::read(path)
        .and_then(|bytes| check_mail(&bytes[..], reading, &origin, lint, collected));
    // Only reading can fail here: a collecting sink always accepts.
    if let Err(err) = checked {
        collected.error(cannot_read(&origin, &err));
    }
}

/// Stream `input` into `sink`: the reporting-thread path, for large files
/// and stdin. Returns an error only when `sink` fails to write.
pub(crate) fn read_streamed(
    input: &Input,
    options: &ReadOptions,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let (origin, reader, total): (Origin, Box<dyn Read>, Option<u64>) = match input {
        Input::File(path) => {
            let origin = Origin::File(path.clone());
            match pipe::open(path) {
                Ok(Opened::File(file)) => {
                    let total = file.metadata().ok().map(|meta| meta.len());
                    (origin, Box::new(file), total)
                }
                Ok(Opened::Pipe(reader)) => (origin, reader, None),
                Ok(Opened::NoWriter) => {
                    sink.note(Note {
                        name: origin.to_string(),
                        message: pipe::NO_WRITER.to_string(),
                        skipped: true,
                    });
                    return Ok(());
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
    let markup = match options.kind.detect(&options.globs, path, &head) {
        Content::Mail(mail) => {
            let reading = MailReading::whole(mail, options.mail_headers, options.chunks);
            return check_mail(
                Cursor::new(head).chain(reader),
                reading,
                &origin,
                lint,
                sink,
            );
        }
        Content::Text(markup) => markup,
    };
    if is_binary(&head) {
        // Skipped on its head alone, so an endless device ends at once.
        let mut collected = Collected::default();
        check_loaded(load(origin, head), lint, &mut collected);
        return collected.replay(sink);
    }
    if markup != Markup::Plain {
        // A document is parsed whole.
        let mut bytes = head;
        if let Err(err) = reader.read_to_end(&mut bytes) {
            sink.error(cannot_read(&origin, &err));
            return Ok(());
        }
        let mut collected = Collected::default();
        check_loaded(
            written_in(load(origin, bytes), markup),
            lint,
            &mut collected,
        );
        return collected.replay(sink);
    }
    check_text(
        Cursor::new(head).chain(reader),
        options.chunks,
        origin,
        lint,
        sink,
    )
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
        check_loaded(load(origin, start), lint, &mut collected);
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
            Ok(linted) => {
                let checked = Checked::new(source, linted)
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
