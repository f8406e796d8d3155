//! Reading an input to rewrite it (`check --fix`, `fmt`): its exact bytes
//! and text, or why it is checked but never rewritten.
//!
//! Only plain text is rewritten, so that every byte outside a fix is
//! written back as it was read:
//! - mail archives never are: their URLs are read from decoded message
//!   parts (quoted-printable, base64, charsets), whose bytes are not the
//!   archive's;
//! - binary files are skipped as always;
//! - compressed files never are: their text is inflated as it is read
//!   (see the `compressed` module) and a fix has no bytes to go to;
//! - UTF-16 and UTF-32 text (told by its byte-order mark) is rewritten in
//!   its own encoding, mark first, when every code unit encodes a
//!   character; one that does not reads as U+FFFD and could not be written
//!   back, so such a text never is;
//! - text that is not valid UTF-8 is read with the Latin-1 fallback, as
//!   `check` reads it; `--fix` notes where each such byte went and writes
//!   it back as it was (a fix that would change one is not applied), while
//!   `fmt`, whose wraps copy text to new lines, leaves such a file alone.
//!
//! Such inputs are still checked, as `check` would, so that their findings
//! are reported.

use std::fmt;
use std::io::{self, Read};

use super::archive::check_mail;
use super::check::check_loaded;
use super::compressed::Compression;
use super::kind::{Reading, ReadingPlan};
use super::load::{load, read_unless_binary, HEAD_LEN};
use super::notice::{cannot_read, latin1_note, InputError, Left, Note};
use super::read::{read_compressed, written_in, ReadOptions};
use super::sink::{Collected, Sink};
use super::unicode::{decoded_note, Unicode};
use super::walk::Input;
use crate::lint::LintOptions;
use crate::source::{decode_noting_fallback, Origin, Source};

/// Why an input is checked but not rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    /// A mail archive.
    Mail,
    /// A binary file (not checked either).
    Binary,
    /// Text that is not valid UTF-8.
    NotUtf8,
    /// UTF-16 or UTF-32 text with code units that encode no character:
    /// read as U+FFFD, they could not be written back as they were.
    Undecodable(Unicode),
    /// A compressed file.
    Compressed(Compression),
}

impl Kept {
    /// Why the input is not rewritten.
    pub(crate) fn reason(&self) -> String {
        match self {
            Kept::Mail => "mail archives never are (their URLs are read from decoded \
                 message parts, not from the archive's bytes)"
                .to_owned(),
            Kept::Binary => "binary file".to_owned(),
            Kept::NotUtf8 => "not valid UTF-8 (fmt rewrites UTF-8 text only; check --fix \
                 keeps such bytes as they are)"
                .to_owned(),
            Kept::Undecodable(encoding) => format!(
                "{} text with code units that encode no character (an unpaired \
                 surrogate, a value past U+10FFFF, a unit cut short), read as U+FFFD: a \
                 rewrite could not write them back as they were",
                encoding.name()
            ),
            Kept::Compressed(compression) => format!(
                "{} compressed (check --fix and fmt leave compressed files as they are; \
                 the URLs of the text it holds are checked)",
                compression.name()
            ),
        }
    }
}

impl fmt::Display for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", Left::NotRewritten.words(), self.reason())
    }
}

/// An input read for rewriting.
#[derive(Debug)]
pub(crate) enum ForRewrite {
    /// Plain text: `source.text` is exactly the bytes read, but for the
    /// bytes that are not valid UTF-8, each read as one Latin-1 character
    /// at the offsets `fallback` (see [`crate::source::encode_decoded`]);
    /// or, when `encoding` names one, the text of UTF-16 or UTF-32 bytes,
    /// which [`Unicode::encode`] gives back exactly.
    Text {
        /// The text.
        source: Source,
        /// Where the characters read from bytes that are not UTF-8 are.
        fallback: Vec<usize>,
        /// The encoding the bytes are in, when not UTF-8.
        encoding: Option<Unicode>,
        /// What `check --verbose` notes of how the text was read (decoded
        /// from UTF-16, bytes read as Latin-1): its offsets index that text.
        notes: Vec<Note>,
    },
    /// An input that is checked but not rewritten: why, what checking it
    /// found, and its bytes (stdin's are passed through unchanged).
    Kept {
        /// Why it is not rewritten.
        why: Kept,
        /// Its checked texts, notes and errors, as `check` gives them.
        collected: Collected,
        /// The bytes read.
        bytes: Vec<u8>,
    },
    /// The input could not be read.
    Failed(InputError),
}

/// Read `input` whole for rewriting; inputs that are not rewritten are
/// checked with `lint` instead. Text that is not valid UTF-8 is rewritten
/// only when `keep_fallback` (the rewrite keeps its bytes).
pub(crate) fn read_for_rewrite(
    input: &Input,
    options: &ReadOptions,
    lint: &LintOptions,
    keep_fallback: bool,
) -> ForRewrite {
    let (origin, path, read) = match input {
        // A binary file is told from its head, as `check` tells it: the
        // rest (gigabytes of an image or a sparse file) is never read.
        Input::File(path) => (
            Origin::File(path.clone()),
            Some(path.as_path()),
            std::fs::File::open(path).and_then(read_unless_binary),
        ),
        Input::Stdin => (Origin::Stdin, None, read_unless_binary(io::stdin().lock())),
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(err) => return ForRewrite::Failed(cannot_read(&origin, &err)),
    };
    let mut collected = Collected::default();
    let head = &bytes[..bytes.len().min(HEAD_LEN)];
    let (reading, decoded) = match options.kind.reading_plan(&options.globs, path, head) {
        ReadingPlan::Compressed(compression) => {
            return read_compressed_kept(input, compression, bytes, options, lint)
        }
        ReadingPlan::Decoded(encoding) => {
            let (text, replaced) = encoding.decode(&bytes);
            let head = &text.as_bytes()[..text.len().min(HEAD_LEN)];
            let reading = options.kind.reading(&options.globs, path, head);
            collected.note(decoded_note(&origin, encoding, replaced));
            (reading, Some((encoding, text, replaced)))
        }
        ReadingPlan::Direct(reading) => (reading, None),
    };
    let why = match (reading, decoded) {
        (Reading::Mail(kind), decoded) => {
            // What is read: the bytes, or the text UTF-16 or UTF-32 bytes hold.
            let read = decoded
                .as_ref()
                .map_or(&bytes[..], |(_, text, _)| text.as_bytes());
            // Only reading can fail here, and the bytes are in memory.
            let reading = options.mail_reading(kind);
            let checked = check_mail(read, reading, &origin, lint, &mut collected);
            if let Err(err) = checked {
                collected.error(cannot_read(&origin, &err));
            }
            Kept::Mail
        }
        (Reading::Binary, decoded) => {
            let read = decoded.map_or_else(|| bytes.clone(), |(_, text, _)| text.into_bytes());
            check_loaded(load(origin, read), lint, &mut collected);
            Kept::Binary
        }
        (Reading::Text(markup), Some((encoding, text, 0))) => {
            let source = Source::new(origin, text).written_in(markup);
            return ForRewrite::Text {
                source,
                fallback: Vec::new(),
                encoding: Some(encoding),
                notes: collected.notes,
            };
        }
        (Reading::Text(markup), Some((encoding, text, _))) => {
            let loaded = written_in(load(origin, text.into_bytes()), markup);
            check_loaded(loaded, lint, &mut collected);
            Kept::Undecodable(encoding)
        }
        (Reading::Text(markup), None) => match std::str::from_utf8(&bytes) {
            Ok(text) => {
                let source = Source::new(origin, text.to_string()).written_in(markup);
                return ForRewrite::Text {
                    source,
                    fallback: Vec::new(),
                    encoding: None,
                    notes: Vec::new(),
                };
            }
            Err(_) if keep_fallback => {
                let (text, fallback) = decode_noting_fallback(&bytes);
                let notes = vec![latin1_note(&origin, fallback.len())];
                let source = Source::new(origin, text).written_in(markup);
                return ForRewrite::Text {
                    source,
                    fallback,
                    encoding: None,
                    notes,
                };
            }
            Err(_) => {
                let loaded = written_in(load(origin, bytes.clone()), markup);
                check_loaded(loaded, lint, &mut collected);
                Kept::NotUtf8
            }
        },
    };
    ForRewrite::Kept {
        why,
        collected,
        bytes,
    }
}

/// Check a compressed input as `check` reads it, streamed (a file is
/// opened again rather than held whole), and keep it: `head` is what was
/// read of it so far (stdin's is read to its end, to be passed through).
fn read_compressed_kept(
    input: &Input,
    compression: Compression,
    head: Vec<u8>,
    options: &ReadOptions,
    lint: &LintOptions,
) -> ForRewrite {
    let mut collected = Collected::default();
    // A collecting sink always accepts, so only reading can fail, and
    // that is told in `collected`.
    let bytes = match input {
        Input::File(path) => {
            let origin = Origin::File(path.clone());
            match std::fs::File::open(path) {
                Ok(file) => {
                    let source = io::BufReader::new(file);
                    let _ = read_compressed(
                        source,
                        compression,
                        (Some(path), origin),
                        options,
                        lint,
                        // The findings are collected whole, as for any rewritten input.
                        1,
                        &mut collected,
                    );
                }
                Err(err) => return ForRewrite::Failed(cannot_read(&origin, &err)),
            }
            Vec::new()
        }
        Input::Stdin => {
            let mut bytes = head;
            if let Err(err) = io::stdin().lock().read_to_end(&mut bytes) {
                return ForRewrite::Failed(cannot_read(&Origin::Stdin, &err));
            }
            let source = io::Cursor::new(bytes.clone());
            let _ = read_compressed(
                source,
                compression,
                (None, Origin::Stdin),
                options,
                lint,
                // The findings are collected whole, as for any rewritten input.
                1,
                &mut collected,
            );
            bytes
        }
    };
    ForRewrite::Kept {
        why: Kept::Compressed(compression),
        collected,
        bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], name: &str) -> ForRewrite {
        read_keeping(bytes, name, false)
    }

    fn read_keeping(bytes: &[u8], name: &str, keep_fallback: bool) -> ForRewrite {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("write the input");
        read_for_rewrite(
            &Input::File(path),
            &ReadOptions {
                kind: super::super::kind::InputKind::Auto,
                globs: Default::default(),
                mail_headers: crate::mail::HeaderUrls::None,
                chunks: Default::default(),
                progress: false,
                keep_text: crate::checked::KeepText::Always,
            },
            &LintOptions::default(),
            keep_fallback,
        )
    }

    fn kept(result: ForRewrite) -> Option<Kept> {
        match result {
            ForRewrite::Kept { why, .. } => Some(why),
            _ => None,
        }
    }

    #[test]
    fn only_plain_utf8_text_is_rewritten() {
        match read(b"see <URL:http://a.example/~x>\n", "a.txt") {
            ForRewrite::Text {
                source, fallback, ..
            } => {
                assert_eq!(source.text, "see <URL:http://a.example/~x>\n");
                assert!(fallback.is_empty());
            }
            other => panic!("not rewritable: {other:?}"),
        }
        match read_keeping(b"caf\xE9 http://a.example/~x\n", "l.txt", true) {
            ForRewrite::Text {
                source, fallback, ..
            } => {
                assert_eq!(source.text, "caf\u{e9} http://a.example/~x\n");
                assert_eq!(fallback, vec![3]);
            }
            other => panic!("a Latin-1 text is rewritable by --fix: {other:?}"),
        }
        let mail =
            b"From a@b.example Mon Jan  1 00:00:00 2024\nSubject: x\n\nhttp://a.example/~x\n";
        assert_eq!(kept(read(mail, "list")), Some(Kept::Mail));
        assert_eq!(kept(read(b"x", "one.eml")), Some(Kept::Mail));
        assert_eq!(kept(read(b"ab\0cd", "a.bin")), Some(Kept::Binary));
        assert_eq!(
            kept(read(b"caf\xE9 http://a.example/\n", "l.txt")),
            Some(Kept::NotUtf8)
        );
    }

    #[test]
    fn kept_inputs_are_still_checked() {
        let ForRewrite::Kept { collected, .. } = read(b"caf\xE9 http://a.example/~x\n", "l.txt")
        else {
            panic!("a Latin-1 file is kept");
        };
        let findings: usize = collected
            .checked
            .iter()
            .flat_map(|checked| &checked.reports)
            .map(|report| report.findings.len())
            .sum();
        assert_eq!(findings, 1);
    }
}
