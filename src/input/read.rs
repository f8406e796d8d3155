//! Reading one input into checked texts, whatever it holds: a small file is
//! read whole (the fast path, run in a worker thread), a large plain text
//! file or mbox in parts on every thread (the `parts` module), stdin and
//! other streams in overlapping windows (see the `windows` module), a
//! Markdown, HTML or reST document always whole (its structure needs all of
//! it), and mail (`.mbox`, `.eml`, or sniffed) one message at a time. Each checked
//! text goes to a [`Sink`] as soon as it is ready, so a run reports as it
//! reads and never holds a whole large input.

use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::Path;

use super::archive::{check_mail, MailReading};
use super::check::{
    check_borrowed, check_document_in_batches, check_loaded, cut_url_note, lint_source,
};
use super::compressed::{self, Compression, Inflated};
use super::kind::{InputKind, KindGlobs, Reading, ReadingPlan};
use super::large::LargeInput;
use super::load::{
    binary, load, load_slice, read_file_start, with_buffer, FileStart, Loaded, HEAD_LEN,
};
use super::notice::{cannot_read, latin1_note, InputError, Note};
use super::pipe::{self, Opened};
use super::progress::Progress;
use super::sink::{Collected, Sink};
use super::streamed;
use super::unicode::{decoded_note, Decoding, Unicode};
use super::walk::Input;
use super::windows::{ChunkOptions, Windows};
use crate::checked::{Checked, Frame, KeepText};
use crate::escape;
use crate::lint::LintOptions;
use crate::mail::{HeaderUrls, MailKind};
use crate::source::{Markup, Origin, Source};

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
    /// Which small files' texts are kept in their checked texts (see
    /// [`crate::report::Reporter::texts_read`]). A UTF-8 file is linted in
    /// the buffer it was read into, and copied into a text of its own only
    /// when the reporter will read it.
    pub keep_text: KeepText,
}

impl ReadOptions {
    /// The name of what the compressed file at `path` holds, and these
    /// options with the kind it is read as (see
    /// [`InputKind::for_compressed`]).
    fn holding(&self, path: &Path) -> (std::path::PathBuf, ReadOptions) {
        let inner = compressed::inner_name(path);
        let options = ReadOptions {
            kind: self.kind.for_compressed(&self.globs, path, &inner),
            ..self.clone()
        };
        (inner, options)
    }

    /// How a whole mail input of `kind` is read under these options.
    pub(super) fn mail_reading(&self, kind: MailKind) -> MailReading {
        MailReading::whole(kind, self.mail_headers, self.chunks, self.keep_text)
    }
}

/// What a worker made of one input.
#[derive(Debug)]
pub(crate) enum WorkerRead {
    /// Read and checked whole: a file smaller than a chunk.
    Checked(Collected),
    /// Left for the reporting thread: stdin, and files of at least a chunk
    /// or that are not regular files (see [`crate::input::plan_large`]).
    Large(LargeInput),
}

/// Read an input on a worker thread: a small file whole, into the
/// thread's reusable buffer, and check it.
pub(crate) fn read_input(input: &Input, options: &ReadOptions, lint: &LintOptions) -> WorkerRead {
    let path = match input {
        Input::File(path) => path,
        Input::Stdin => {
            return WorkerRead::Large(LargeInput {
                input: Input::Stdin,
                pipe: None,
            })
        }
    };
    let origin = Origin::File(path.clone());
    let named_compressed = Compression::from_name(path);
    // Mail by choice or name is read whole whatever its first bytes hold,
    // and so is a file named compressed.
    let sniff_binary =
        named_compressed.is_none() && !options.kind.mail_by_name(&options.globs, path);
    with_buffer(|buffer| {
        match read_file_start(path, buffer, options.chunks.chunk_len, sniff_binary) {
            Ok(FileStart::Whole { len }) => {
                let bytes = &buffer[..len];
                match options.kind.reading_plan(&options.globs, Some(path), bytes) {
                    ReadingPlan::Compressed(compression) => {
                        let whole = named_compressed.is_some();
                        read_small_compressed(input, compression, whole, bytes, options, lint)
                    }
                    ReadingPlan::Decoded(encoding) => WorkerRead::Checked(check_decoded(
                        encoding,
                        (Some(path), origin),
                        bytes,
                        options,
                        lint,
                    )),
                    ReadingPlan::Direct(reading) => {
                        WorkerRead::Checked(check_bytes(reading, origin, bytes, options, lint))
                    }
                }
            }
            Ok(FileStart::Large) => WorkerRead::Large(LargeInput {
                input: input.clone(),
                pipe: None,
            }),
            Ok(FileStart::Pipe { reader, len }) => WorkerRead::Large(LargeInput {
                input: input.clone(),
                pipe: Some((reader, buffer[..len].to_vec())),
            }),
            Ok(FileStart::NoWriter) => {
                let mut collected = Collected::default();
                collected.note(Note::skipped(origin.to_string(), pipe::NO_WRITER));
                WorkerRead::Checked(collected)
            }
            Err(err) => {
                let mut collected = Collected::default();
                collected.error(cannot_read(&origin, &err));
                WorkerRead::Checked(collected)
            }
        }
    })
}

/// Read a small compressed file on the worker when what it holds is small
/// too (`bytes` are the whole file when `whole`, else perhaps its head):
/// inflated and checked as a small file is. A file that inflates to more
/// than a chunk, or breaks, is streamed by the reporting thread instead,
/// so that its findings are reported as they come and a break is told
/// where it happens.
fn read_small_compressed(
    input: &Input,
    compression: Compression,
    whole: bool,
    bytes: &[u8],
    options: &ReadOptions,
    lint: &LintOptions,
) -> WorkerRead {
    let large = || {
        WorkerRead::Large(LargeInput {
            input: input.clone(),
            pipe: None,
        })
    };
    let Input::File(path) = input else {
        return large();
    };
    // A format this build lacks is told by the streamed path, as for stdin.
    if !whole || !compression.is_supported() {
        return large();
    }
    let Some(text) = compressed::inflate_small(compression, bytes, options.chunks.chunk_len) else {
        return large();
    };
    let (inner, options) = options.holding(path);
    let origin = Origin::File(path.clone());
    if let Some(encoding) = Unicode::of(&text) {
        let named = (Some(inner.as_path()), origin);
        return WorkerRead::Checked(check_decoded(encoding, named, &text, &options, lint));
    }
    let reading = options.kind.reading(&options.globs, Some(&inner), &text);
    WorkerRead::Checked(check_bytes(reading, origin, &text, &options, lint))
}

/// Check `bytes`, the whole of a small UTF-16 or UTF-32 text in `encoding`
/// (a file at `path`, or what a compressed one holds), decoded and read as
/// its decoded head and its name say.
fn check_decoded(
    encoding: Unicode,
    (path, origin): (Option<&Path>, Origin),
    bytes: &[u8],
    options: &ReadOptions,
    lint: &LintOptions,
) -> Collected {
    let (text, replaced) = encoding.decode(bytes);
    let head = &text.as_bytes()[..text.len().min(HEAD_LEN)];
    let reading = options.kind.reading(&options.globs, path, head);
    let note = decoded_note(&origin, encoding, replaced);
    let mut collected = check_bytes(reading, origin, text.as_bytes(), options, lint);
    collected.note(note);
    collected
}

/// Check `bytes`, the whole content of a small file, read as `reading`
/// says.
fn check_bytes(
    reading: Reading,
    origin: Origin,
    bytes: &[u8],
    options: &ReadOptions,
    lint: &LintOptions,
) -> Collected {
    let mut collected = Collected::default();
    match reading {
        // Mail is parsed from its raw bytes, never from a decoded text.
        Reading::Mail(kind) => {
            check_mail_bytes(bytes, kind, &origin, options, lint, &mut collected)
        }
        Reading::Binary => check_loaded(binary(origin), lint, &mut collected),
        Reading::Text(markup) => SmallText::read(&origin, bytes).check(
            origin,
            markup,
            options.keep_text,
            lint,
            &mut collected,
        ),
    }
    collected
}

/// The text of a small file: its own bytes when they are UTF-8 (linted in
/// the buffer they were read into, and copied only as far as the reporter
/// reads them), else decoded.
enum SmallText<'b> {
    /// The file's bytes, valid UTF-8.
    Utf8(&'b str),
    /// The file decoded from Latin-1 bytes.
    Decoded(Loaded),
}

impl<'b> SmallText<'b> {
    /// Read `bytes`, the whole content of the file at `origin`.
    fn read(origin: &Origin, bytes: &'b [u8]) -> SmallText<'b> {
        match simdutf8::basic::from_utf8(bytes) {
            Ok(text) => SmallText::Utf8(text),
            Err(_) => SmallText::Decoded(load_slice(origin.clone(), bytes)),
        }
    }

    /// Check the text as written in `markup`, into `collected`.
    fn check(
        self,
        origin: Origin,
        markup: Markup,
        keep: KeepText,
        lint: &LintOptions,
        collected: &mut Collected,
    ) {
        match self {
            SmallText::Utf8(text) => check_borrowed(text, origin, markup, lint, keep, collected),
            SmallText::Decoded(loaded) => check_loaded(written_in(loaded, markup), lint, collected),
        }
    }
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

/// Check the messages of a mail file held whole.
fn check_mail_bytes(
    bytes: &[u8],
    kind: MailKind,
    origin: &Origin,
    options: &ReadOptions,
    lint: &LintOptions,
    collected: &mut Collected,
) {
    let reading = options.mail_reading(kind);
    // Reading from memory cannot fail, and a collecting sink always accepts.
    let _ = check_mail(bytes, reading, origin, lint, collected);
}

/// Stream `large` into `sink` front to back: the reporting-thread path, for
/// stdin, pipes and large files not read in parts. Returns an error only
/// when `sink` fails to write.
pub(crate) fn read_streamed(
    large: LargeInput,
    threads: usize,
    options: &ReadOptions,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let LargeInput { input, pipe } = large;
    let input = &input;
    let (origin, reader, total): (Origin, Box<dyn Read + Send>, Option<u64>) = match (input, pipe) {
        (Input::File(path), Some((file, head))) => {
            let reader = Box::new(Cursor::new(head).chain(file));
            (Origin::File(path.clone()), reader, None)
        }
        (Input::File(path), None) => {
            let origin = Origin::File(path.clone());
            match pipe::open(path) {
                Ok(Opened::File(file)) => {
                    let total = file.metadata().ok().map(|meta| meta.len());
                    (origin, Box::new(file), total)
                }
                Ok(Opened::Pipe(reader)) => (origin, Box::new(reader), None),
                Ok(Opened::NoWriter) => {
                    sink.note(Note::skipped(origin.to_string(), pipe::NO_WRITER));
                    return Ok(());
                }
                Err(err) => {
                    sink.error(cannot_read(&origin, &err));
                    return Ok(());
                }
            }
        }
        // Unlocked, so that an inflating thread may read it; the buffered
        // reader below asks for a megabyte at a time.
        (Input::Stdin, _) => (Origin::Stdin, Box::new(io::stdin()), None),
    };
    let reader: Box<dyn Read + Send> = if options.progress {
        Box::new(Progress::new(
            reader,
            escape::line(&origin.to_string()).into(),
            total,
        ))
    } else {
        reader
    };
    let mut reader = BufReader::with_capacity(BUFFER_LEN, reader);
    let path = match input {
        Input::File(path) => Some(path.as_path()),
        Input::Stdin => None,
    };
    let Some(head) = read_head(&mut reader, &origin, sink) else {
        return Ok(());
    };
    match options.kind.reading_plan(&options.globs, path, &head) {
        ReadingPlan::Compressed(compression) => {
            let source = Cursor::new(head).chain(reader);
            let input = (path, origin);
            read_compressed(source, compression, input, options, lint, threads, sink)
        }
        ReadingPlan::Decoded(encoding) => {
            let source = Cursor::new(head).chain(reader);
            read_decoded(
                source,
                encoding,
                (path, origin),
                options,
                lint,
                threads,
                sink,
            )
        }
        ReadingPlan::Direct(reading) => {
            let text = (head, reader);
            read_stream(text, reading, origin, options, lint, threads, sink)
        }
    }
}

/// Stream the text `source` holds, UTF-16 or UTF-32 in `encoding` from its
/// byte-order mark on, into `sink`, decoded as it is read and read as the
/// input at `path` whose decoded head is its own.
fn read_decoded(
    source: impl Read + Send,
    encoding: Unicode,
    (path, origin): (Option<&Path>, Origin),
    options: &ReadOptions,
    lint: &LintOptions,
    threads: usize,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let mut decoded = BufReader::with_capacity(BUFFER_LEN, Decoding::new(encoding, source));
    if let Some(head) = read_head(&mut decoded, &origin, sink) {
        let reading = options.kind.reading(&options.globs, path, &head);
        let text = (head, &mut decoded);
        read_stream(text, reading, origin.clone(), options, lint, threads, sink)?;
    }
    let replaced = decoded.get_ref().replaced();
    sink.note(decoded_note(&origin, encoding, replaced));
    Ok(())
}

/// The first [`HEAD_LEN`] bytes of `reader` (fewer when it ends sooner),
/// which decide how it is read; `None` when reading fails, which is told.
fn read_head(reader: &mut impl Read, origin: &Origin, sink: &mut dyn Sink) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(HEAD_LEN);
    match reader.take(HEAD_LEN as u64).read_to_end(&mut head) {
        Ok(_) => Some(head),
        Err(err) => {
            sink.error(cannot_read(origin, &err));
            None
        }
    }
}

/// Stream the text the `compression`-compressed `source` holds into
/// `sink`, inflated on a thread of its own, read as the file it holds (the
/// input at `path` without its compression's extension); a break is
/// reported after the text before it.
pub(super) fn read_compressed(
    source: impl BufRead + Send + 'static,
    compression: Compression,
    (path, origin): (Option<&Path>, Origin),
    options: &ReadOptions,
    lint: &LintOptions,
    threads: usize,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    if !compression.is_supported() {
        sink.note(Note::skipped(
            origin.to_string(),
            compression.unsupported_message(),
        ));
        return Ok(());
    }
    let mut inflated = match Inflated::start(compression, source) {
        Ok(inflated) => inflated,
        Err(err) => {
            sink.error(cannot_read(&origin, &err));
            return Ok(());
        }
    };
    let held = path.map(|path| options.holding(path));
    let (inner, options) = match &held {
        Some((inner, options)) => (Some(inner.as_path()), options),
        None => (None, options),
    };
    if let Some(head) = read_head(&mut inflated, &origin, sink) {
        if let Some(encoding) = Unicode::of(&head) {
            let source = Cursor::new(head).chain(&mut inflated);
            let named = (inner, origin.clone());
            read_decoded(source, encoding, named, options, lint, threads, sink)?;
        } else {
            let reading = options.kind.reading(&options.globs, inner, &head);
            let text = (head, &mut inflated);
            read_stream(text, reading, origin.clone(), options, lint, threads, sink)?;
        }
    }
    if let Some(broken) = inflated.broken() {
        sink.error(InputError {
            name: origin.to_string(),
            action: "broken compressed stream",
            cause: broken.describe(),
        });
    }
    Ok(())
}

/// Stream a text into `sink`, read as `reading` says: its first bytes,
/// already read to decide that, then the rest `reader` holds. It is
/// reported as `origin`; a long text is checked on `threads` threads.
fn read_stream(
    (head, mut reader): (Vec<u8>, impl BufRead + Send),
    reading: Reading,
    origin: Origin,
    options: &ReadOptions,
    lint: &LintOptions,
    threads: usize,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let markup = match reading {
        Reading::Mail(mail) => {
            let reading = options.mail_reading(mail);
            return check_mail(
                Cursor::new(head).chain(reader),
                reading,
                &origin,
                lint,
                sink,
            );
        }
        Reading::Binary => {
            // Skipped on its head alone, so an endless device ends at once.
            let mut collected = Collected::default();
            check_loaded(load(origin, head), lint, &mut collected);
            return collected.replay(sink);
        }
        Reading::Text(markup) => markup,
    };
    if markup != Markup::Plain {
        // A document is parsed whole.
        let mut bytes = head;
        if let Err(err) = reader.read_to_end(&mut bytes) {
            sink.error(cannot_read(&origin, &err));
            return Ok(());
        }
        let loaded = written_in(load(origin, bytes), markup);
        return check_document_in_batches(loaded, lint, sink);
    }
    check_text(
        Cursor::new(head).chain(reader),
        options.chunks,
        origin,
        lint,
        threads,
        sink,
    )
}

/// Check a streamed text: read whole when it is smaller than a chunk (the
/// same path as a small file), else window by window, on `threads`
/// threads when there are several.
fn check_text(
    reader: impl BufRead + Send,
    chunks: ChunkOptions,
    origin: Origin,
    lint: &LintOptions,
    threads: usize,
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
    if threads > 1 {
        return streamed::check_windows_in_parallel(
            start, reader, chunks, &origin, lint, threads, sink,
        );
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
                if let Some(note) =
                    cut_url_note(&origin, window.base, window.last, &linted, &source)
                {
                    sink.warning(note);
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{InputKind, KindGlobs};
    use crate::rules::{Level, Rule};

    fn options(kind: InputKind, keep_text: KeepText) -> ReadOptions {
        ReadOptions {
            kind,
            globs: KindGlobs::default(),
            mail_headers: HeaderUrls::List,
            chunks: ChunkOptions::default(),
            progress: false,
            keep_text,
        }
    }

    /// The checked texts of the file `name` holding `bytes`, read as `kind`
    /// with its text kept always, with findings only, and never.
    fn read_three_ways(name: &str, bytes: &[u8], kind: InputKind) -> [Vec<Checked>; 3] {
        read_three_ways_linted(name, bytes, kind, &LintOptions::default())
    }

    /// [`read_three_ways`], linted as `lint` says.
    fn read_three_ways_linted(
        name: &str,
        bytes: &[u8],
        kind: InputKind,
        lint: &LintOptions,
    ) -> [Vec<Checked>; 3] {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write file");
        [KeepText::Always, KeepText::WithFindings, KeepText::Never].map(|keep_text| {
            let read = read_input(&Input::File(path.clone()), &options(kind, keep_text), lint);
            let WorkerRead::Checked(collected) = read else {
                panic!("{name} is small")
            };
            collected.checked
        })
    }

    #[test]
    fn a_text_not_kept_gives_the_same_urls_and_names() {
        let text = "See <URL:http://a.example/x> and http://b.example/ now.\n";
        for (name, kind) in [
            ("a.txt", InputKind::Auto),
            ("a.md", InputKind::Auto),
            ("a.md", InputKind::Text),
        ] {
            let [kept, without_findings, unkept] = read_three_ways(name, text.as_bytes(), kind);
            assert_eq!(kept.len(), 1);
            assert_eq!(kept[0].text(), Some(text));
            assert_eq!(kept[0].reports.len(), 2);
            assert!(!kept[0].has_findings());
            for other in [&without_findings, &unkept] {
                assert_eq!(other[0].text(), None, "{name} {kind:?}");
                assert_eq!(other[0].source.name, kept[0].source.name);
                assert_eq!(other[0].source.markup, kept[0].source.markup);
                assert_eq!(other[0].reports, kept[0].reports, "{name} {kind:?}");
            }
        }
    }

    #[test]
    fn a_text_with_a_url_finding_is_kept_for_a_reporter_of_findings() {
        let text = "See <URL:http://a.example/~x> now.\n";
        let [kept, with_findings, unkept] =
            read_three_ways("a.txt", text.as_bytes(), InputKind::Auto);
        assert!(kept[0].has_findings(), "'~' is unsafe");
        assert_eq!(with_findings[0].text(), Some(text));
        assert_eq!(with_findings[0].reports, kept[0].reports);
        assert_eq!(
            with_findings[0].locate(kept[0].reports[0].found.outer),
            kept[0].locate(kept[0].reports[0].found.outer)
        );
        assert_eq!(unkept[0].text(), None);
        assert_eq!(unkept[0].reports, kept[0].reports);
    }

    #[test]
    fn a_text_with_a_finding_of_its_own_is_kept_for_a_reporter_of_findings() {
        let text = "see http://a.example/x // urlint: ignore\n";
        let mut lint = LintOptions::default();
        lint.levels.set(Rule::UnusedSuppression, Level::Warning);
        let [kept, with_findings, unkept] =
            read_three_ways_linted("a.txt", text.as_bytes(), InputKind::Auto, &lint);
        assert_eq!(kept[0].findings.len(), 1, "the suppression is unused");
        assert!(kept[0]
            .reports
            .iter()
            .all(|report| report.findings.is_empty()));
        assert_eq!(with_findings[0].text(), Some(text));
        assert_eq!(with_findings[0].findings, kept[0].findings);
        assert_eq!(unkept[0].text(), None);
    }

    #[test]
    fn a_text_that_is_not_utf8_is_kept_decoded() {
        let [kept, with_findings, unkept] =
            read_three_ways("l.txt", b"caf\xE9 http://c.example/\n", InputKind::Auto);
        for other in [&with_findings, &unkept] {
            assert_eq!(other[0].text(), Some("caf\u{e9} http://c.example/\n"));
            assert_eq!(other[0].reports, kept[0].reports);
        }
    }
}
