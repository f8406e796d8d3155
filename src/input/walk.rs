//! What to read: command-line paths expanded into inputs, directories
//! walked with `ignore` (.gitignore, hidden files, globs) in a
//! deterministic order, each input handed on as soon as it is found.

use std::collections::HashSet;
use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use ignore::overrides::{Override, OverrideBuilder};
use ignore::WalkBuilder;

use super::notice::InputError;
use crate::source::Origin;

/// What a walk reaches, in report order.
#[derive(Debug)]
pub(crate) enum Reached {
    /// An input to read.
    Input(Input),
    /// A file the walk passes by without reading it (a named pipe, a
    /// link): told under `--verbose`.
    Passed {
        /// The file.
        path: PathBuf,
        /// Why it is not read ("a named pipe, ...").
        why: &'static str,
    },
    /// A path that could not be walked or read.
    Failed(InputError),
}

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
}

/// Expand command-line paths into inputs, in report order, handing each to
/// `found` as soon as it is known, with the walk's errors where the walk
/// meets them; `found` breaks to stop the walk.
///
/// Paths keep their command-line order; the files found under one directory
/// are sorted by path. `-` is stdin. No path means the current directory.
/// Files named explicitly are read even when ignore rules or globs would
/// skip them in a walk: the user asked for them. A file reached twice (the
/// same path given twice, or a file and a directory holding it) is read
/// once, where it first comes.
pub(crate) fn walk_inputs(
    paths: &[PathBuf],
    options: &WalkOptions,
    found: &mut dyn FnMut(Reached) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if paths.is_empty() {
        // Name files `docs/a.md`, not `./docs/a.md`, as the user would.
        return walk_sorted(Path::new("."), options, &mut |walked| {
            found(match walked {
                Reached::Input(Input::File(file)) => match file.strip_prefix(".") {
                    Ok(relative) => Reached::Input(Input::File(relative.to_path_buf())),
                    Err(_) => Reached::Input(Input::File(file)),
                },
                Reached::Passed { path, why } => Reached::Passed {
                    path: path
                        .strip_prefix(".")
                        .map_or(path.clone(), Path::to_path_buf),
                    why,
                },
                other => other,
            })
        });
    }
    // Inputs already taken, asked only when there can be two of one.
    let mut seen = (paths.len() > 1).then(Seen::default);
    for path in paths {
        if path.as_os_str() == "-" {
            if Seen::first(&mut seen, || None) {
                found(
                    super::stdin::closed_at_start()
                        .map_or(Reached::Input(Input::Stdin), Reached::Failed),
                )?;
            }
        } else if path.is_dir() {
            // A walk follows no link, so a walked file is its directory's
            // real path joined with the rest: one path resolved per
            // directory, not one per file.
            let root = seen.is_some().then(|| real_path(path));
            walk_sorted(path, options, &mut |walked| match walked {
                Reached::Input(Input::File(file)) => {
                    let identity = || match (&root, file.strip_prefix(path)) {
                        (Some(root), Ok(relative)) => Some(root.join(relative)),
                        _ => Some(real_path(&file)),
                    };
                    if Seen::first(&mut seen, identity) {
                        found(Reached::Input(Input::File(file)))
                    } else {
                        ControlFlow::Continue(())
                    }
                }
                other => found(other),
            })?;
        } else if Seen::first(&mut seen, || Some(real_path(path))) {
            // Nonexistent and unreadable paths fail when read, with the reason.
            found(Reached::Input(Input::File(path.clone())))?;
        }
    }
    ControlFlow::Continue(())
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

/// Walk one directory, handing each file found to `found` in path order
/// (each directory's entries sorted by name, as [`Path`] orders
/// components), with the walk's errors where the walk meets them.
fn walk_sorted(
    root: &Path,
    options: &WalkOptions,
    found: &mut dyn FnMut(Reached) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let mut builder = match walk_builder(root, options) {
        Ok(builder) => builder,
        Err(err) => return found(Reached::Failed(err)),
    };
    // One thread walks while others read what it has found: a parallel
    // walk would have to be sorted whole before the first file is read.
    // The entries sorted together share their directory, so their paths
    // compare as their names do, without the name parsed out of each path
    // at every comparison (which cost a fifth of a text tree's time).
    let by_path = |a: &Path, b: &Path| a.as_os_str().cmp(b.as_os_str());
    for entry in builder.sort_by_file_path(by_path).build() {
        match entry {
            // Directories are walked into, not told about; the walk's
            // entry for stdin has no type.
            Ok(entry) if entry.file_type().is_none_or(|kind| kind.is_dir()) => {}
            Ok(entry) => match entry.file_type().map(passed_by) {
                Some(None) => found(Reached::Input(Input::File(entry.into_path())))?,
                Some(Some(why)) => found(Reached::Passed {
                    path: entry.into_path(),
                    why,
                })?,
                None => {}
            },
            Err(err) => found(Reached::Failed(walk_error(root, err)))?,
        }
    }
    ControlFlow::Continue(())
}

/// Why a walk passes by an entry of type `kind` (`None` for a regular file,
/// which it reads). A walk reads regular files only: a named pipe may block
/// it for ever, a device may never end, and a link it does not follow, so
/// that a loop cannot trap it and no file is read twice.
fn passed_by(kind: fs::FileType) -> Option<&'static str> {
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;
    if kind.is_file() {
        return None;
    }
    if kind.is_symlink() {
        return Some("a symbolic link, which a walk does not follow (name it to check it)");
    }
    #[cfg(unix)]
    {
        if kind.is_fifo() {
            return Some("a named pipe, which a walk does not read (name it to read it)");
        }
        if kind.is_socket() {
            return Some("a socket, which a walk does not read");
        }
        if kind.is_block_device() || kind.is_char_device() {
            return Some("a device, which a walk does not read (name it to read it)");
        }
    }
    Some("not a regular file, which a walk does not read")
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
        .follow_links(false);
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
        builder.add(&format!("!{glob}")).map_err(|err| match err {
            // Named as the user wrote it, without the `!` that makes it
            // an exclude.
            ignore::Error::Glob { glob: Some(_), err } => ignore::Error::Glob {
                glob: Some(glob.clone()),
                err,
            },
            err => err,
        })?;
    }
    builder.build().map_err(|err| match err {
        // The matcher of all the globs failed to compile ("error parsing
        // pattern 0"): name the glob at fault, found by building each
        // alone.
        ignore::Error::Glob { glob: None, err } => {
            let at_fault = includes
                .iter()
                .chain(excludes)
                .find(|glob| {
                    let mut alone = OverrideBuilder::new(root);
                    alone.add(glob).is_err() || alone.build().is_err()
                })
                .cloned();
            let err = match at_fault {
                Some(_) => format!("too complex to match ({err}: too deeply nested?)"),
                None => err,
            };
            ignore::Error::Glob {
                glob: at_fault,
                err,
            }
        }
        err => err,
    })
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

    /// A glob too deeply nested to compile was reported as "error parsing
    /// pattern 0", naming neither the glob nor why.
    #[test]
    fn a_glob_too_complex_to_match_is_named() {
        let deep = format!("{}b{}", "{a,".repeat(200), "}".repeat(200));
        let includes = ["*.txt".to_string(), deep.clone()];
        let err = glob_overrides(Path::new("."), &includes, &[]).expect_err("too deep");
        let message = err.to_string();
        assert!(message.contains(&deep), "{message}");
        assert!(message.contains("too complex to match"), "{message}");
        let err =
            glob_overrides(Path::new("."), &[], std::slice::from_ref(&deep)).expect_err("too deep");
        assert!(err.to_string().contains(&deep));
    }

    #[test]
    fn an_exclude_that_does_not_parse_is_named_as_written() {
        let err = glob_overrides(Path::new("."), &[], &["a[".to_string()]).expect_err("unclosed");
        assert_eq!(
            err.to_string(),
            "error parsing glob 'a[': unclosed character class; missing ']'"
        );
    }

    #[test]
    fn walked_files_come_in_path_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let names = [
            "a b/x", "a-b/x", "a.b", "a/b/c", "a/b-c", "a/bc", "a/b.d/e", "a/b/c.d", "ab", "a0",
            "A", "é", "a/é/x", "z/a",
        ];
        let mut files: Vec<PathBuf> = names.iter().map(|name| dir.path().join(name)).collect();
        for file in &files {
            fs::create_dir_all(file.parent().expect("a parent")).expect("create dir");
            fs::write(file, "x").expect("write file");
        }
        files.sort();
        let mut walked = Vec::new();
        let paths = [dir.path().to_path_buf()];
        let _ = walk_inputs(&paths, &WalkOptions::default(), &mut |found| {
            match found {
                Reached::Input(input) => walked.push(input),
                other => panic!("{other:?}"),
            }
            ControlFlow::Continue(())
        });
        let expected: Vec<Input> = files.into_iter().map(Input::File).collect();
        assert_eq!(walked, expected);
    }

    /// A walk reads regular files only and says what it passes by: a
    /// named pipe would block it, a link it does not follow.
    #[cfg(unix)]
    #[test]
    fn a_walk_passes_by_pipes_and_links_and_says_so() {
        let dir = tempfile::tempdir().expect("temp dir");
        fs::write(dir.path().join("a.txt"), "x").expect("write file");
        std::os::unix::fs::symlink("a.txt", dir.path().join("b.txt")).expect("symlink");
        let fifo = dir.path().join("c.pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|status| status.success()), "mkfifo");
        let mut reached = Vec::new();
        let paths = [dir.path().to_path_buf()];
        let _ = walk_inputs(&paths, &WalkOptions::default(), &mut |found| {
            reached.push(match found {
                Reached::Input(Input::File(path)) => format!("read {}", path.display()),
                Reached::Passed { path, why } => format!("{}: {why}", path.display()),
                other => panic!("{other:?}"),
            });
            ControlFlow::Continue(())
        });
        let root = dir.path().display();
        assert_eq!(
            reached,
            [
                format!("read {root}/a.txt"),
                format!(
                    "{root}/b.txt: a symbolic link, which a walk does not follow \
                     (name it to check it)"
                ),
                format!(
                    "{root}/c.pipe: a named pipe, which a walk does not read \
                     (name it to read it)"
                ),
            ]
        );
    }

    #[test]
    fn a_walk_stops_when_told() {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["a", "b", "c"] {
            fs::write(dir.path().join(name), "x").expect("write file");
        }
        let paths = [dir.path().to_path_buf(), dir.path().join("c")];
        let mut walked = 0;
        let stopped = walk_inputs(&paths, &WalkOptions::default(), &mut |_| {
            walked += 1;
            ControlFlow::Break(())
        });
        assert_eq!((stopped, walked), (ControlFlow::Break(()), 1));
    }

    #[test]
    fn named_inputs_are_the_paths_not_walked() {
        let dir = std::env::temp_dir();
        let paths = [PathBuf::from("-"), PathBuf::from("a.txt"), dir];
        assert_eq!(named_inputs(&paths), ["<stdin>", "a.txt"]);
    }
}
