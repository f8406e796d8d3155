//! Reading one input whole into sources: binary files recognised and
//! skipped, text decoded (see [`crate::source::decode`]).
//!
//! Binary files are recognised by a NUL byte in their first 8 KiB (text
//! formats never contain NUL; almost every binary format does). Only those
//! 8 KiB are read, so a large binary, or a device such as `/dev/zero` named
//! by mistake, costs nothing.

use std::fs::File;
use std::io::{self, Read};

use super::notice::{cannot_read, latin1_note, InputError, Note};
use super::walk::Input;
use crate::source::{decode, Origin, Source};

/// How many leading bytes are searched for a NUL to call a file binary.
pub(super) const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// What reading one input produced.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    /// Texts to scan (none for a skipped binary file).
    pub sources: Vec<Source>,
    /// Notes for `--verbose` (skips, decoding fallbacks).
    pub notes: Vec<Note>,
}

impl Input {
    /// Read and decode this input.
    pub(crate) fn read(&self) -> Result<Loaded, InputError> {
        let (origin, read) = match self {
            Input::File(path) => {
                let origin = Origin::File(path.clone());
                let read = File::open(path).and_then(read_unless_binary);
                (origin, read)
            }
            Input::Stdin => (Origin::Stdin, read_unless_binary(io::stdin().lock())),
        };
        match read {
            Ok(bytes) => Ok(load(origin, bytes)),
            Err(err) => Err(cannot_read(&origin, &err)),
        }
    }
}

/// Read `reader` to its end, unless its first [`BINARY_SNIFF_LEN`] bytes are
/// binary: then those bytes alone are returned, enough for [`load`] to skip
/// them. An endless device (`/dev/zero`) thus ends the read too.
fn read_unless_binary(mut reader: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut reader)
        .take(BINARY_SNIFF_LEN as u64)
        .read_to_end(&mut bytes)?;
    if !is_binary(&bytes) {
        reader.read_to_end(&mut bytes)?;
    }
    Ok(bytes)
}

/// Turn raw bytes into sources: skip binary data, decode text (see the
/// module documentation for the decoding rule).
pub(super) fn load(origin: Origin, bytes: Vec<u8>) -> Loaded {
    let name = origin.to_string();
    if is_binary(&bytes) {
        return Loaded {
            sources: Vec::new(),
            notes: vec![Note {
                name,
                message: format!(
                    "skipped: binary file (NUL byte in the first {} KiB)",
                    BINARY_SNIFF_LEN / 1024
                ),
                skipped: true,
            }],
        };
    }
    let (text, latin1_bytes) = decode(bytes);
    let notes = (latin1_bytes > 0)
        .then(|| latin1_note(&origin, latin1_bytes))
        .into_iter()
        .collect();
    Loaded {
        sources: vec![Source::new(origin, text)],
        notes,
    }
}

/// True when the first [`BINARY_SNIFF_LEN`] bytes hold a NUL.
pub(super) fn is_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_LEN)];
    memchr::memchr(0, head).is_some()
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
