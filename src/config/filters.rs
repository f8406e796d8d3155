//! Paths matched against a configuration's globs, relative to the file's
//! directory: the `[paths]` filter, the `[per-file-ignores]` table and the
//! `[kinds]` globs.

use std::path::{Component, Path, PathBuf};

use ignore::overrides::Override;
use ignore::Match;

use super::error::ConfigError;
use super::values::Config;
use crate::input::{glob_overrides, KindGlobs};
use crate::rules::Rule;

/// The `[paths]` globs, matched relative to the configuration file's
/// directory. They apply to every file, named on the command line or found
/// in a walk: a pre-commit hook names each changed file, and the project's
/// excludes must hold for them too.
#[derive(Debug)]
pub(crate) struct PathFilter {
    overrides: Override,
    root: PathBuf,
    cwd: PathBuf,
}

impl PathFilter {
    /// True when `path` (relative to the current directory, or absolute)
    /// is to be read: no exclude matches it or a directory above it, and an
    /// include matches it if there are includes. Files outside the
    /// configuration's directory are not the configuration's business.
    pub(crate) fn allows(&self, path: &Path) -> bool {
        let Some(relative) = below(&self.root, &self.cwd, path) else {
            return true;
        };
        let relative = relative.as_path();
        let excluded_dir =
            directories(relative).any(|dir| self.overrides.matched(dir, true).is_ignore());
        !excluded_dir && !self.overrides.matched(relative, false).is_ignore()
    }

    /// True when an include glob names `path` (relative to the current
    /// directory, or absolute), which lies below the configuration's
    /// directory: the file is one the configuration asks to be read,
    /// whatever kind of file it is.
    pub(crate) fn includes(&self, path: &Path) -> bool {
        below(&self.root, &self.cwd, path)
            .is_some_and(|relative| self.overrides.matched(relative, false).is_whitelist())
    }
}

/// `path` (relative to `cwd`, or absolute) relative to `root`, with `.`
/// and `..` resolved by name (`tests/../docs/a.md` is `docs/a.md`);
/// `None` when it lies outside `root`.
fn below(root: &Path, cwd: &Path, path: &Path) -> Option<PathBuf> {
    let mut absolute = PathBuf::new();
    for component in cwd.join(path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                absolute.pop();
            }
            other => absolute.push(other),
        }
    }
    absolute.strip_prefix(root).ok().map(Path::to_path_buf)
}

/// The directories of a relative path, innermost first, without the path
/// itself and the empty root.
fn directories(relative: &Path) -> impl Iterator<Item = &Path> {
    relative
        .ancestors()
        .skip(1)
        .filter(|dir| !dir.as_os_str().is_empty())
}

/// The `[per-file-ignores]` table as a matcher: which rules are off in a
/// file. Globs are matched relative to the configuration file's directory,
/// as `[paths]` globs are; a glob that matches a directory covers the files
/// below it, and a glob written `!GLOB` covers the files GLOB does not.
#[derive(Debug)]
pub(crate) struct PerFileIgnores {
    entries: Vec<IgnoreEntry>,
    root: PathBuf,
    cwd: PathBuf,
}

/// One `[per-file-ignores]` entry.
#[derive(Debug)]
struct IgnoreEntry {
    /// The glob, without its `!`.
    glob: Override,
    /// Written `!GLOB`: the entry covers the files the glob does not match.
    negated: bool,
    rules: Vec<Rule>,
}

impl IgnoreEntry {
    /// True when the entry covers `relative`, a path below the root.
    fn covers(&self, relative: &Path) -> bool {
        let matched =
            |path: &Path, is_dir| matches!(self.glob.matched(path, is_dir), Match::Whitelist(_));
        let matches =
            matched(relative, false) || directories(relative).any(|dir| matched(dir, true));
        matches != self.negated
    }
}

impl PerFileIgnores {
    /// The rules to turn off in the file at `path` (relative to the current
    /// directory, or absolute), sorted; empty when no entry covers it.
    /// Files outside the configuration's directory are not its business.
    pub(crate) fn rules_for(&self, path: &Path) -> Vec<Rule> {
        let Some(relative) = below(&self.root, &self.cwd, path) else {
            return Vec::new();
        };
        let mut rules: Vec<Rule> = self
            .entries
            .iter()
            .filter(|entry| entry.covers(&relative))
            .flat_map(|entry| entry.rules.iter().copied())
            .collect();
        rules.sort_unstable();
        rules.dedup();
        rules
    }
}

impl Config {
    /// The `[paths]` globs as a filter, `None` when the file sets none.
    pub(crate) fn path_filter(&self) -> Result<Option<PathFilter>, ConfigError> {
        if self.include.is_empty() && self.exclude.is_empty() {
            return Ok(None);
        }
        let (root, cwd) = self.glob_root();
        let overrides = glob_overrides(&root, &self.include, &self.exclude)
            .map_err(|err| self.glob_error("[paths]", &err))?;
        Ok(Some(PathFilter {
            overrides,
            root,
            cwd,
        }))
    }

    /// The `[per-file-ignores]` table as a matcher, `None` when the file
    /// sets none, so that a run without it matches no path at all.
    pub(crate) fn per_file_ignores(&self) -> Result<Option<PerFileIgnores>, ConfigError> {
        if self.per_file_ignores.is_empty() {
            return Ok(None);
        }
        let (root, cwd) = self.glob_root();
        let mut entries = Vec::with_capacity(self.per_file_ignores.len());
        for (glob, rules) in &self.per_file_ignores {
            let (negated, glob) = match glob.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, glob.as_str()),
            };
            let matcher = glob_overrides(&root, &[glob.to_owned()], &[])
                .map_err(|err| self.glob_error("[per-file-ignores]", &err))?;
            entries.push(IgnoreEntry {
                glob: matcher,
                negated,
                rules: rules.clone(),
            });
        }
        Ok(Some(PerFileIgnores { entries, root, cwd }))
    }

    /// The `[kinds]` globs, relative to the configuration file's directory.
    pub(crate) fn kind_globs(&self) -> Result<KindGlobs, ConfigError> {
        let root = self
            .path
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(Path::new(""));
        KindGlobs::new(root, &self.kinds).map_err(|err| ConfigError {
            path: self.path.clone().unwrap_or_default(),
            message: format!("[kinds]: {err}"),
        })
    }

    /// The directory globs are relative to (the configuration file's, or
    /// the current directory for the defaults), and the current directory.
    fn glob_root(&self) -> (PathBuf, PathBuf) {
        let cwd = std::env::current_dir().unwrap_or_default();
        let root = match self.path.as_deref().and_then(Path::parent) {
            Some(dir) => cwd.join(dir),
            None => cwd.clone(),
        };
        (root, cwd)
    }

    /// A glob that the walk's matcher refused, in `table`.
    fn glob_error(&self, table: &str, err: &ignore::Error) -> ConfigError {
        ConfigError {
            path: self.path.clone().unwrap_or_default(),
            message: format!("{table}: {err}"),
        }
    }
}
