//! Where text comes from: files, directory walks and stdin, turned into
//! [`Source`]s the linter can scan.
//!
//! Two decisions live here and nowhere else:
//! - **Binary files** are recognised by a NUL byte in their first 8 KiB and
//!   skipped (text formats never contain NUL; almost every binary format does).
//!   Only those 8 KiB are read, so a large binary, or a device such as
//!   `/dev/zero` named by mistake, costs nothing.
//! - **Invalid UTF-8** never drops a file. Valid UTF-8 runs are kept as they
//!   are and every byte that is not part of one is read as Latin-1 (one byte,
//!   one character). A Latin-1 mail body thus reads as the text its author
//!   wrote, a UTF-8 file with one stray byte keeps its other characters, and
//!   the non-ASCII bytes still reach the validator as non-ASCII characters.
//!   Byte offsets in reports index the decoded text.
//!
//! A later mail reader plugs in at [`load`]: one input may yield several
//! sources (messages, MIME parts), each with its own [`Origin`].

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::overrides::OverrideBuilder;
use ignore::{WalkBuilder, WalkState};

use crate::source::{decode, Origin, Source};

/// How many leading bytes are searched for a NUL to call a file binary.
pub const BINARY_SNIFF_LEN: usize = 8 * 1024;

/// Something worth telling a user who asked for `--verbose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The input the note is about.
    pub name: String,
    /// What happened ("skipped: binary file ...").
    pub message: String,
    /// The input was left unchecked as a whole. A user who named it on the
    /// command line is told even without `--verbose`: a silent skip would
    /// read as "checked, nothing found".
    pub skipped: bool,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

/// An input that could not be read: reported, then the run goes on.
#[derive(Debug)]
pub struct InputError {
    /// The input the error is about.
    pub name: String,
    /// What was being done ("cannot read", "cannot walk").
    pub action: &'static str,
    /// Why it failed.
    pub cause: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.name, self.action, self.cause)
    }
}

/// What reading one input produced.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Texts to scan (none for a skipped binary file).
    pub sources: Vec<Source>,
    /// Notes for `--verbose` (skips, decoding fallbacks).
    pub notes: Vec<Note>,
}

/// One thing to read, in the order reports will appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A regular file.
    File(PathBuf),
    /// The standard input.
    Stdin,
}

impl Input {
    /// Read and decode this input.
    pub fn read(&self) -> Result<Loaded, InputError> {
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
            Err(err) => Err(InputError {
                name: origin.to_string(),
                action: "cannot read",
                cause: err.to_string(),
            }),
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
pub fn load(origin: Origin, bytes: Vec<u8>) -> Loaded {
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
        .then(|| Note {
            name: name.clone(),
            message: format!(
                "not valid UTF-8: {latin1_bytes} byte(s) read as Latin-1 characters; \
                 offsets index the decoded text"
            ),
            skipped: false,
        })
        .into_iter()
        .collect();
    Loaded {
        sources: vec![Source::new(origin, text)],
        notes,
    }
}

/// True when the first [`BINARY_SNIFF_LEN`] bytes hold a NUL.
pub fn is_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_LEN)];
    memchr::memchr(0, head).is_some()
}

/// How paths given on the command line are expanded into inputs.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    /// Also read files that .gitignore, .ignore and git excludes list.
    pub no_ignore: bool,
    /// Also read hidden files and directories.
    pub hidden: bool,
    /// Globs a walked file must match (all files when empty).
    pub globs: Vec<String>,
    /// Globs that exclude walked files and directories.
    pub excludes: Vec<String>,
    /// Walker threads.
    pub threads: usize,
}

/// Expand command-line paths into inputs, in report order.
///
/// Paths keep their command-line order; the files found under one directory
/// are sorted by path. `-` is stdin. No path means the current directory.
/// Files named explicitly are read even when ignore rules or globs would
/// skip them in a walk: the user asked for them.
pub fn collect_inputs(paths: &[PathBuf], options: &WalkOptions) -> (Vec<Input>, Vec<InputError>) {
    if paths.is_empty() {
        // Name files `docs/a.md`, not `./docs/a.md`, as the user would.
        let (files, errors) = walk_sorted(Path::new("."), options);
        let inputs = files
            .into_iter()
            .map(|path| match path.strip_prefix(".") {
                Ok(relative) => Input::File(relative.to_path_buf()),
                Err(_) => Input::File(path),
            })
            .collect();
        return (inputs, errors);
    }
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input::Stdin);
        } else if path.is_dir() {
            let (files, mut walk_errors) = walk_sorted(path, options);
            inputs.extend(files.into_iter().map(Input::File));
            errors.append(&mut walk_errors);
        } else {
            // Nonexistent and unreadable paths fail when read, with the reason.
            inputs.push(Input::File(path.clone()));
        }
    }
    (inputs, errors)
}

/// Source names of the inputs `paths` name one by one, rather than through
/// a directory walk: the files and stdin that [`collect_inputs`] takes as
/// given. These are the names a [`Note`] about them carries.
pub fn named_inputs(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .filter(|path| !path.is_dir())
        .map(|path| {
            if path.as_os_str() == "-" {
                Origin::Stdin.to_string()
            } else {
                Origin::File(path.clone()).to_string()
            }
        })
        .collect()
}

/// Walk one directory and return the files found, sorted by path.
fn walk_sorted(root: &Path, options: &WalkOptions) -> (Vec<PathBuf>, Vec<InputError>) {
    let (mut files, errors) = walk(root, options);
    files.sort();
    (files, errors)
}

/// Walk one directory in parallel and return the files found (unsorted).
fn walk(root: &Path, options: &WalkOptions) -> (Vec<PathBuf>, Vec<InputError>) {
    let files = Mutex::new(Vec::new());
    let errors = Mutex::new(Vec::new());
    let builder = match walk_builder(root, options) {
        Ok(builder) => builder,
        Err(err) => return (Vec::new(), vec![err]),
    };
    builder.build_parallel().run(|| {
        Box::new(|entry| {
            match entry {
                Ok(entry) if entry.file_type().is_some_and(|kind| kind.is_file()) => {
                    lock(&files).push(entry.into_path());
                }
                Ok(_) => {}
                Err(err) => lock(&errors).push(walk_error(root, err)),
            }
            WalkState::Continue
        })
    });
    (
        files
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner()),
        errors
            .into_inner()
            .unwrap_or_else(|poison| poison.into_inner()),
    )
}

/// Lock a collection mutex; a panicked walker thread leaves the data usable.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poison| poison.into_inner())
}

/// Configure the walker for `root`.
fn walk_builder(root: &Path, options: &WalkOptions) -> Result<WalkBuilder, InputError> {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(!options.hidden)
        .ignore(!options.no_ignore)
        .git_ignore(!options.no_ignore)
        .git_exclude(!options.no_ignore)
        .git_global(!options.no_ignore)
        .parents(!options.no_ignore)
        // Docs are often checked outside a git checkout (a release tarball);
        // their .gitignore still says what is generated.
        .require_git(false)
        // As ripgrep and git: a link loop cannot trap the walk and no file
        // is read twice through a link. Links named on the command line are
        // still followed, because the user chose them.
        .follow_links(false)
        .threads(options.threads);
    if !options.globs.is_empty() || !options.excludes.is_empty() {
        builder.overrides(overrides(root, options)?);
    }
    Ok(builder)
}

/// Build the include/exclude glob overrides for a walk under `root`.
fn overrides(
    root: &Path,
    options: &WalkOptions,
) -> Result<ignore::overrides::Override, InputError> {
    let glob_error = |err: ignore::Error| InputError {
        name: root.display().to_string(),
        action: "invalid glob",
        cause: err.to_string(),
    };
    let mut builder = OverrideBuilder::new(root);
    for glob in &options.globs {
        builder.add(glob).map_err(glob_error)?;
    }
    for glob in &options.excludes {
        builder.add(&format!("!{glob}")).map_err(glob_error)?;
    }
    builder.build().map_err(glob_error)
}

/// Describe a walk error, naming the path it is about when it has one.
fn walk_error(root: &Path, err: ignore::Error) -> InputError {
    let name = error_path(&err).unwrap_or(root).display().to_string();
    let cause = match err.io_error() {
        Some(io) => io.to_string(),
        None => err.to_string(),
    };
    InputError {
        name,
        action: "cannot walk",
        cause,
    }
}

/// The path an `ignore` error is about, if it names one.
fn error_path(err: &ignore::Error) -> Option<&Path> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_utf8_is_kept_as_is() {
        let (text, fallback) = decode("café <URL:http://x/>".as_bytes().to_vec());
        assert_eq!((text.as_str(), fallback), ("café <URL:http://x/>", 0));
    }

    #[test]
    fn invalid_bytes_read_as_latin1_next_to_valid_utf8() {
        // 0xE9 alone is Latin-1 'é'; the UTF-8 'ü' (C3 BC) stays 'ü'.
        let bytes = b"caf\xE9 \xC3\xBC <URL:http://h/\xFF>".to_vec();
        let (text, fallback) = decode(bytes);
        assert_eq!(text, "café ü <URL:http://h/ÿ>");
        assert_eq!(fallback, 2);
    }

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
    fn named_inputs_are_the_paths_not_walked() {
        let dir = std::env::temp_dir();
        let paths = [PathBuf::from("-"), PathBuf::from("a.txt"), dir];
        assert_eq!(named_inputs(&paths), ["<stdin>", "a.txt"]);
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
