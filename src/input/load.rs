//! Reading one input whole into sources: binary files recognised and
//! skipped, text decoded (see [`crate::source::decode`]).
//!
//! Binary files are recognised by a NUL byte in their first 8 KiB (text
//! formats never contain NUL; almost every binary format does), unless a
//! byte-order mark says they are UTF-16 or UTF-32 text (see `unicode`). Only those
//! 8 KiB are read, so a large binary, or a device such as `/dev/zero` named
//! by mistake, costs nothing.
//!
//! A file of a directory walk is read as ripgrep reads one: opened, read
//! into a buffer its thread keeps from file to file (one `read` for the
//! whole file once the buffer has grown to the tree's larger files, then
//! one that returns nothing), and no `lseek`. What the file is gets asked
//! (an `fstat` of the open file) only when a read leaves it in doubt: the
//! file fills the buffer, or its first read finds nothing (an empty file,
//! or a named pipe without a writer) or would block (a pipe whose writer
//! has not written yet).

#[cfg(feature = "cli")]
use std::cell::RefCell;
#[cfg(feature = "cli")]
use std::io::{self, Read};
#[cfg(feature = "cli")]
use std::path::Path;

use super::notice::{latin1_note, Left, Note};
#[cfg(feature = "cli")]
use super::pipe::{self, PipeReader};
use super::unicode::Unicode;
use crate::mail;
use crate::source::{decode, Origin, Source};

/// How many leading bytes are searched for a NUL to call a file binary.
pub(super) const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// Bytes of an input looked at to decide what it holds: enough for the
/// binary check and for mail sniffing.
pub(super) const HEAD_LEN: usize = if BINARY_SNIFF_LEN > mail::SNIFF_LEN {
    BINARY_SNIFF_LEN
} else {
    mail::SNIFF_LEN
};

/// What reading one input produced.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    /// Texts to scan (none for a skipped binary file).
    pub sources: Vec<Source>,
    /// Notes for `--verbose` (skips, decoding fallbacks).
    pub notes: Vec<Note>,
}

/// Read `reader` to its end, unless its first [`BINARY_SNIFF_LEN`] bytes are
/// binary: then those bytes alone are returned, enough for [`load`] to skip
/// them. An endless device (`/dev/zero`) thus ends the read too.
#[cfg(feature = "cli")]
pub(super) fn read_unless_binary(mut reader: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut reader)
        .take(BINARY_SNIFF_LEN as u64)
        .read_to_end(&mut bytes)?;
    if !is_binary(&bytes) {
        reader.read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// What the buffer holds after [`read_file_start`].
#[cfg(feature = "cli")]
#[derive(Debug)]
pub(super) enum FileStart {
    /// The whole file (or its binary head alone): `len` bytes.
    Whole { len: usize },
    /// A regular file of at least the limit, read in part; it is closed.
    Large,
    /// Not a regular file, and longer than the buffer or the limit, or any
    /// file whose read would block (a named pipe with a writer that has not
    /// written all yet, a terminal): the buffer holds the `len` bytes read
    /// so far and `reader` reads on after them. A pipe whose writer has
    /// written all and closed it is read `Whole`.
    Pipe { reader: PipeReader, len: usize },
    /// A named pipe that no process has open for writing: not read.
    NoWriter,
}

/// The buffer a thread starts with; it grows to fit larger files.
#[cfg(feature = "cli")]
const INITIAL_BUFFER_LEN: usize = 128 << 10;

#[cfg(feature = "cli")]
thread_local! {
    /// Each reading thread's buffer, kept from file to file. Its bytes are
    /// always initialised (zeros at first), so it is read into without
    /// `unsafe`; it never grows past the largest file read whole.
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Run `read` with this thread's reusable read buffer.
#[cfg(feature = "cli")]
pub(super) fn with_buffer<T>(read: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    BUFFER.with(|buffer| match buffer.try_borrow_mut() {
        Ok(mut buffer) => read(&mut buffer),
        // Not reached (reads do not nest); a fresh buffer is as good.
        Err(_) => read(&mut Vec::new()),
    })
}

/// Open `path` and read it into `buffer` from its start: whole when it is
/// shorter than `limit` bytes, or (when `sniff_binary`) until its first
/// [`BINARY_SNIFF_LEN`] bytes show it binary. The file's size is asked
/// only when it fills the buffer or reaches the limit, and then once: a
/// file of at least `limit` bytes is left unread from there, a smaller one
/// is read in one more read into a buffer grown to fit it. A first read
/// that finds nothing asks whether the file is a named pipe (then not read:
/// [`FileStart::NoWriter`]); a read that would block hands the file on as a
/// stream.
#[cfg(feature = "cli")]
pub(super) fn read_file_start(
    path: &Path,
    buffer: &mut Vec<u8>,
    limit: usize,
    sniff_binary: bool,
) -> io::Result<FileStart> {
    // Walked files are regular files, and most named ones are: what the
    // file is gets asked only when a read leaves it in doubt.
    let mut file = pipe::open_without_waiting(path)?;
    if buffer.len() < INITIAL_BUFFER_LEN {
        buffer.resize(INITIAL_BUFFER_LEN, 0);
    }
    let mut len = 0;
    // The file's length when it is a regular file, once asked.
    let mut size: Option<Option<u64>> = None;
    loop {
        if len == buffer.len() || len >= limit {
            let file_len = match size {
                Some(known) => known,
                None => {
                    let meta = file.metadata()?;
                    *size.insert(meta.is_file().then_some(meta.len()))
                }
            };
            let Some(file_len) = file_len else {
                // Streamed by the reporting thread, as it comes.
                let reader = pipe::stream(file);
                return Ok(FileStart::Pipe { reader, len });
            };
            if len >= limit || file_len >= limit as u64 {
                return Ok(FileStart::Large);
            }
            // One byte more than the file, so that the read after the one
            // that fills it finds the end; twice as much when it grew.
            let wanted = usize::try_from(file_len)
                .unwrap_or(usize::MAX)
                .saturating_add(1)
                .max(len.saturating_mul(2));
            buffer.resize(wanted.min(limit).max(len + 1), 0);
        }
        let read = match file.read(&mut buffer[len..]) {
            // An empty file, or a named pipe that no process writes to.
            Ok(0) if len == 0 && pipe::is_fifo(&file) => return Ok(FileStart::NoWriter),
            Ok(read) => read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            // A pipe or a terminal with nothing to read yet (or a file
            // system that says so): streamed by the reporting thread, as
            // it comes, which waits out "would block".
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                let reader = pipe::stream(file);
                return Ok(FileStart::Pipe { reader, len });
            }
            Err(err) => return Err(err),
        };
        let before = len;
        len += read;
        // Sniffed once, when the head is complete: a binary file (or an
        // endless device) is not read further.
        let head_complete = read == 0 || (before < BINARY_SNIFF_LEN && len >= BINARY_SNIFF_LEN);
        if sniff_binary && head_complete && is_binary(&buffer[..len]) {
            return Ok(FileStart::Whole {
                len: len.min(BINARY_SNIFF_LEN),
            });
        }
        if read == 0 {
            return Ok(FileStart::Whole { len });
        }
    }
}

/// Turn raw bytes into sources: skip binary data, decode text (see the
/// module documentation for the decoding rule).
pub(super) fn load(origin: Origin, bytes: Vec<u8>) -> Loaded {
    if is_binary(&bytes) {
        return binary(origin);
    }
    let (text, latin1_bytes) = decode(bytes);
    text_loaded(origin, text, latin1_bytes)
}

/// [`load`] for bytes the caller keeps (a reused read buffer): they are
/// copied once, into the text.
#[cfg(feature = "cli")]
pub(super) fn load_slice(origin: Origin, bytes: &[u8]) -> Loaded {
    if is_binary(bytes) {
        return binary(origin);
    }
    let (text, latin1_bytes) = match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => (text.to_owned(), 0),
        Err(_) => decode(bytes.to_vec()),
    };
    text_loaded(origin, text, latin1_bytes)
}

/// A skipped binary input.
pub(super) fn binary(origin: Origin) -> Loaded {
    Loaded {
        sources: Vec::new(),
        notes: vec![binary_note(&origin)],
    }
}

/// The note that the input at `origin` is skipped as binary.
pub(super) fn binary_note(origin: &Origin) -> Note {
    Note {
        name: origin.to_string(),
        left: Some(Left::Skipped),
        message: format!(
            "binary file (NUL byte in the first {} KiB)",
            BINARY_SNIFF_LEN / 1024
        ),
        skipped: true,
    }
}

/// A decoded text, with a note when bytes were read as Latin-1.
fn text_loaded(origin: Origin, text: String, latin1_bytes: usize) -> Loaded {
    let notes = (latin1_bytes > 0)
        .then(|| latin1_note(&origin, latin1_bytes))
        .into_iter()
        .collect();
    Loaded {
        sources: vec![Source::new(origin, text)],
        notes,
    }
}

/// True when the first [`BINARY_SNIFF_LEN`] bytes hold a NUL, and no
/// byte-order mark says they are UTF-16 or UTF-32 text, whose code units
/// hold NUL bytes.
pub(super) fn is_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_LEN)];
    memchr::memchr(0, head).is_some() && Unicode::of(head).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nul_in_the_sniffed_head_means_binary() {
        let cases: &[(&[u8], bool)] = &[
            (b"plain text", false),
            (b"\x89PNG\r\n\x1a\n\0\0", true),
            (b"", false),
            // UTF-16 and UTF-32 with a byte-order mark are text; without one,
            // their NUL bytes make them binary.
            (b"\xFF\xFEh\0t\0", false),
            (b"\0\0\xFE\xFF\0\0\0h", false),
            (b"h\0t\0", true),
        ];
        for &(bytes, binary) in cases {
            assert_eq!(is_binary(bytes), binary, "{bytes:?}");
        }
        let mut late_nul = vec![b'a'; BINARY_SNIFF_LEN];
        late_nul.push(0);
        assert!(!is_binary(&late_nul), "a NUL past the sniffed head is text");
    }

    #[test]
    fn reading_stops_after_a_binary_head() {
        let mut late_nul = vec![b'a'; BINARY_SNIFF_LEN + 10];
        late_nul.push(0);
        let cases: [(Box<dyn Read>, usize); 3] = [
            // An endless stream of NULs ends after the sniffed head.
            (Box::new(io::repeat(0)), BINARY_SNIFF_LEN),
            (Box::new(&b"short text"[..]), 10),
            (Box::new(io::Cursor::new(late_nul)), BINARY_SNIFF_LEN + 11),
        ];
        for (index, (reader, len)) in cases.into_iter().enumerate() {
            let bytes = read_unless_binary(reader).expect("in-memory reads succeed");
            assert_eq!(bytes.len(), len, "case {index}");
        }
    }

    #[test]
    fn a_regular_file_is_read_whole_and_an_empty_one_is_no_pipe() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cases: [(&str, &[u8]); 2] =
            [("empty.txt", b""), ("short.txt", b"see http://a.example/")];
        for (name, content) in cases {
            let path = dir.path().join(name);
            std::fs::write(&path, content).expect("write file");
            let mut buffer = Vec::new();
            let start = read_file_start(&path, &mut buffer, 1 << 20, true).expect("readable");
            // An empty file is no pipe without a writer.
            assert!(
                matches!(start, FileStart::Whole { len } if buffer[..len] == *content),
                "{name}"
            );
        }
    }

    #[test]
    fn binary_input_is_skipped_with_a_note() {
        let loaded = load(Origin::File("a.bin".into()), b"ab\0cd".to_vec());
        assert!(loaded.sources.is_empty());
        assert_eq!(loaded.notes.len(), 1);
        assert!(
            loaded.notes[0].skipped,
            "a binary file is not checked at all"
        );
        assert!(loaded.notes[0]
            .to_string()
            .starts_with("a.bin: skipped: binary"));
    }

    #[test]
    fn latin1_fallback_is_noted() {
        let loaded = load(Origin::Stdin, b"r\xE9sum\xE9".to_vec());
        assert_eq!(loaded.sources[0].text, "résumé");
        assert_eq!(loaded.sources[0].name, "<stdin>");
        assert!(loaded.notes[0]
            .message
            .contains("2 byte(s) read as Latin-1"));
    }
}
