//! Reading an input to rewrite it (`check --fix`, `fmt`): its exact bytes
//! and text, or why it is checked but never rewritten.
//!
//! Only plain text in valid UTF-8 is rewritten, so that every byte outside
//! a fix is written back as it was read:
//! - mail archives never are: their URLs are read from decoded message
//!   parts (quoted-printable, base64, charsets), whose bytes are not the
//!   archive's;
//! - binary files are skipped as always;
//! - text that is not valid UTF-8 is read with the Latin-1 fallback for
//!   checking, which cannot be written back byte for byte.
//!
//! Such inputs are still checked, as `check` would, so that their findings
//! are reported.

use std::fmt;
use std::io::{self, Read};

use super::archive::check_mail;
use super::check::check_loaded;
use super::kind::Content;
use super::load::{is_binary, load, HEAD_LEN};
use super::notice::{cannot_read, InputError};
use super::read::{written_in, ReadOptions};
use super::sink::{Collected, Sink};
use super::walk::Input;
use crate::lint::LintOptions;
use crate::source::{Origin, Source};

/// Why an input is checked but not rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kept {
    /// A mail archive.
    Mail,
    /// A binary file (not checked either).
    Binary,
    /// Text that is not valid UTF-8.
    NotUtf8,
}

impl fmt::Display for Kept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kept::Mail => {
                "not rewritten: mail archives never are (their URLs are read from \
                 decoded message parts, not from the archive's bytes)"
            }
            Kept::Binary => "not rewritten: binary file",
            Kept::NotUtf8 => {
                "not rewritten: not valid UTF-8, so it could not be written back \
                 byte for byte"
            }
        })
    }
}

/// An input read for rewriting.
#[derive(Debug)]
pub(crate) enum ForRewrite {
    /// Plain text in valid UTF-8: `source.text` is exactly the bytes read.
    Text(Source),
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
/// checked with `lint` instead.
pub(crate) fn read_for_rewrite(
    input: &Input,
    options: &ReadOptions,
    lint: &LintOptions,
) -> ForRewrite {
    let (origin, path, read) = match input {
        Input::File(path) => (
            Origin::File(path.clone()),
            Some(path.as_path()),
            std::fs::read(path),
        ),
        Input::Stdin => {
            let mut bytes = Vec::new();
            let read = io::stdin().lock().read_to_end(&mut bytes).map(|_| bytes);
            (Origin::Stdin, None, read)
        }
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(err) => return ForRewrite::Failed(cannot_read(&origin, &err)),
    };
    let mut collected = Collected::default();
    let head = &bytes[..bytes.len().min(HEAD_LEN)];
    let why = match options.kind.detect(&options.globs, path, head) {
        Content::Mail(kind) => {
            // Only reading can fail here, and the bytes are in memory.
            let reading = options.mail_reading(kind);
            let checked = check_mail(&bytes[..], reading, &origin, lint, &mut collected);
            if let Err(err) = checked {
                collected.error(cannot_read(&origin, &err));
            }
            Kept::Mail
        }
        Content::Text(_) if is_binary(&bytes) => {
            check_loaded(load(origin, head.to_vec()), lint, &mut collected);
            Kept::Binary
        }
        Content::Text(markup) => match std::str::from_utf8(&bytes) {
            Ok(text) => {
                let source = Source::new(origin, text.to_string()).written_in(markup);
                return ForRewrite::Text(source);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], name: &str) -> ForRewrite {
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
            ForRewrite::Text(source) => assert_eq!(source.text, "see <URL:http://a.example/~x>\n"),
            other => panic!("not rewritable: {other:?}"),
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
