//! What to read: command-line paths expanded into inputs, directories
//! walked in parallel with `ignore` (.gitignore, hidden files, globs), in a
//! deterministic order.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::overrides::{Override, OverrideBuilder};
use ignore::{WalkBuilder, WalkState};

use super::notice::InputError;
use crate::source::Origin;

/// One thing to read, in the order reports will appear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Input {
    /// A regular file.
    File(PathBuf),
    /// The standard input.
    Stdin,
}

/// How paths given on the command line are expanded into inputs.
#[derive(Debug, Clone, Default)]
pub(crate) struct WalkOptions {
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
/// skip them in a walk: the user asked for them. A file reached twice (the
/// same path given twice, or a file and a directory holding it) is read
/// once, where it first comes.
pub(crate) fn collect_inputs(
    paths: &[PathBuf],
    options: &WalkOptions,
) -> (Vec<Input>, Vec<InputError>) {
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
    // Inputs already taken, asked only when there can be two of one.
    let mut seen = (paths.len() > 1).then(Seen::default);
    for path in paths {
        if path.as_os_str() == "-" {
            if Seen::first(&mut seen, || None) {
                inputs.push(Input::Stdin);
            }
        } else if path.is_dir() {
            let (files, mut walk_errors) = walk_sorted(path, options);
            errors.append(&mut walk_errors);
            // A walk follows no link, so a walked file is its directory's
            // real path joined with the rest: one path resolved per
            // directory, not one per file.
            let root = seen.is_some().then(|| real_path(path));
            for file in files {
                let identity = || match (&root, file.strip_prefix(path)) {
                    (Some(root), Ok(relative)) => Some(root.join(relative)),
                    _ => Some(real_path(&file)),
                };
                if Seen::first(&mut seen, identity) {
                    inputs.push(Input::File(file));
                }
            }
        } else if Seen::first(&mut seen, || Some(real_path(path))) {
            // Nonexistent and unreadable paths fail when read, with the reason.
            inputs.push(Input::File(path.clone()));
        }
    }
    (inputs, errors)
}

/// What makes two inputs the same: the file a path leads to (see
/// [`real_path`]), or `None` for stdin.
#[derive(Default)]
struct Seen(HashSet<Option<PathBuf>>);

impl Seen {
    /// Whether the input `identity` names comes for the first time; always
    /// true, without asking `identity`, when inputs are not tracked.
    fn first(seen: &mut Option<Seen>, identity: impl FnOnce() -> Option<PathBuf>) -> bool {
        seen.as_mut().is_none_or(|seen| seen.0.insert(identity()))
    }
}

/// The file a path leads to, links and `.` or `..` resolved (the path as
/// given when it leads nowhere).
fn real_path(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Source names of the inputs `paths` name one by one, rather than through
/// a directory walk: the files and stdin that [`collect_inputs`] takes as
/// given. These are the names a [`Note`](super::Note) about them carries.
pub(crate) fn named_inputs(paths: &[PathBuf]) -> Vec<String> {
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
    sort_walked(&mut files);
    (files, errors)
}

/// Sort the files of one walk as [`Path`]'s order sorts them: component by
/// component. Comparing components parses both paths at every comparison,
/// which cost as much as reading a tree of small files; the paths of one
/// walk share their root and have only plain components joined by single
/// separators, so their bytes with the separator read as the lowest byte
/// compare the same way.
fn sort_walked(files: &mut [PathBuf]) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        files.sort_by_cached_key(|path| {
            let bytes = path.as_os_str().as_bytes();
            let key: Vec<u8> = bytes
                .iter()
                .map(|&byte| if byte == b'/' { 0 } else { byte })
                .collect();
            key
        });
    }
    #[cfg(not(unix))]
    files.sort();
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
fn overrides(root: &Path, options: &WalkOptions) -> Result<Override, InputError> {
    glob_overrides(root, &options.globs, &options.excludes).map_err(|err| InputError {
        name: root.display().to_string(),
        action: "invalid glob",
        cause: err.to_string(),
    })
}

/// Include and exclude globs, relative to `root`, as one matcher: a path
/// must match an include (when there are any) and no exclude.
pub(crate) fn glob_overrides(
    root: &Path,
    includes: &[String],
    excludes: &[String],
) -> Result<Override, ignore::Error> {
    let mut builder = OverrideBuilder::new(root);
    for glob in includes {
        builder.add(glob)?;
    }
    for glob in excludes {
        builder.add(&format!("!{glob}"))?;
    }
    builder.build()
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
    fn walked_files_sort_as_paths_sort() {
        let names = [
            "a", "a b", "a-b", "a.b", "a/b", "a/b/c", "a/b-c", "a/bc", "ab", "a0", "A", "é",
            "a/é/x", "a b/x", "a-b/x", "z", "a/b.d/e", "a/b/c.d",
        ];
        for root in ["/tmp/w", "./", ".", "w/", "w x"] {
            let mut walked: Vec<PathBuf> = names
                .iter()
                .map(|name| Path::new(root).join(name))
                .collect();
            walked.reverse();
            let mut by_path = walked.clone();
            by_path.sort();
            sort_walked(&mut walked);
            assert_eq!(walked, by_path, "{root}");
        }
    }

    #[test]
    fn named_inputs_are_the_paths_not_walked() {
        let dir = std::env::temp_dir();
        let paths = [PathBuf::from("-"), PathBuf::from("a.txt"), dir];
        assert_eq!(named_inputs(&paths), ["<stdin>", "a.txt"]);
    }
}
