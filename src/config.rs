//! The configuration file: `urlint.toml`, or a `[tool.urlint]` table in
//! `pyproject.toml`, found by walking up from the current directory.
//!
//! ```toml
//! profile = "rfc3986"         # rfc1738 (the default) | rfc3986; before any table
//!
//! [rules]
//! hyphen-break = "off"        # off | warning | error
//! bare-url = "warning"
//!
//! [schemes]
//! extra = ["https", "irc"]    # accepted without unknown-scheme
//! remove = ["gopher"]         # reported as unknown-scheme
//!
//! [urls]
//! exclude = ['^http://localhost[:/]']   # regular expressions; matches are not reported
//! templates = false           # read placeholders ({}, %s, ${X}) as URL characters
//!
//! [paths]
//! include = ["*.md", "*.txt"] # globs a walked file must match
//! exclude = ["vendor/**"]     # globs that skip files and directories
//!
//! [per-file-ignores]
//! "tests/**" = ["unsafe-char"] # rules turned off in matching files
//!
//! [kinds]
//! markdown = ["*.mdx"]        # globs of files to read as markdown, rst,
//! text = ["CHANGELOG.md"]     # html, text or mail, whatever their extension
//!
//! [markdown]
//! include-verbatim = true     # read code (spans, blocks, literals, comments) too
//! ```
//!
//! Every key is checked while parsing: an unknown key, rule name, level,
//! scheme, regular expression or glob is an error naming the key and its
//! line, so that a typo never silently does nothing. [`Config::settings`]
//! writes a configuration back in the same syntax.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use ignore::overrides::Override;
use ignore::Match;
use regex::{Regex, RegexSet};
use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::input::{glob_overrides, InputKind, KindGlobs};
use crate::lint::{LintOptions, RuleLevels};
use crate::profile::Profile;
use crate::rules::{find_rule, Level, Rule};

/// The configuration file's own name.
pub(crate) const FILE_NAME: &str = "urlint.toml";

/// The Python project file that may hold a `[tool.urlint]` table.
pub(crate) const PYPROJECT: &str = "pyproject.toml";

/// True when `path` names a file of urlint's own configuration
/// (`urlint.toml`, or `.urlint.toml` as a hidden file may be called): it
/// holds URL patterns and settings, not text to lint.
pub(crate) fn is_own_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name == FILE_NAME || name == HIDDEN_FILE_NAME)
}

/// The configuration file's name when it is kept hidden.
pub(crate) const HIDDEN_FILE_NAME: &str = ".urlint.toml";

/// A configuration, as read from a file (or the defaults).
#[derive(Debug, Clone, Default)]
pub(crate) struct Config {
    /// The file it was read from; `None` for the defaults.
    pub path: Option<PathBuf>,
    /// The standard URLs are checked against (top-level `profile`).
    pub profile: Profile,
    /// The file names its profile: the user chose it, and needs no hint
    /// that another one exists.
    pub profile_chosen: bool,
    /// Rule levels set by the file, one per rule named.
    pub rules: Vec<(Rule, Level)>,
    /// Schemes accepted beyond the profile's own.
    pub extra_schemes: Vec<String>,
    /// Known schemes to report as unknown.
    pub removed_schemes: Vec<String>,
    /// URLs never to report: the `urls.exclude` patterns as one set.
    pub url_excludes: RegexSet,
    /// Globs a walked file must match (all files when empty).
    pub include: Vec<String>,
    /// Globs that skip walked files and directories.
    pub exclude: Vec<String>,
    /// Rules turned off in the files a glob matches, by glob.
    pub per_file_ignores: Vec<(String, Vec<Rule>)>,
    /// Globs naming the kind of the files they match, per kind.
    pub kinds: Vec<(InputKind, Vec<String>)>,
    /// Read code for URLs too: Markdown code spans and code blocks, HTML
    /// code elements, reStructuredText literals, code directives and comments.
    pub include_verbatim: bool,
    /// Read placeholders as URL characters: `templates = false` under
    /// `[urls]` (see [`crate::scan::ScanOptions::no_templates`]).
    pub no_templates: bool,
}

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

/// Why a configuration file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConfigError {
    /// The configuration file at fault.
    pub path: PathBuf,
    /// What is wrong, with the line and key when the file's content is at fault.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid configuration {}: {}",
            self.path.display(),
            self.message
        )
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Find the configuration for a run started in `dir`: the nearest
    /// `urlint.toml` or `.urlint.toml`, or `pyproject.toml` with a
    /// `[tool.urlint]` table, in `dir` or one of its ancestors. `Ok(None)`
    /// when there is none.
    ///
    /// In one directory `urlint.toml` wins over `.urlint.toml`, which wins
    /// over `pyproject.toml`, and a `pyproject.toml` without the table does
    /// not stop the walk.
    pub(crate) fn discover(dir: &Path) -> Result<Option<Config>, ConfigError> {
        for ancestor in dir.ancestors() {
            for name in [FILE_NAME, HIDDEN_FILE_NAME] {
                let own = ancestor.join(name);
                if own.is_file() {
                    return Config::load(&own).map(Some);
                }
            }
            let pyproject = ancestor.join(PYPROJECT);
            if pyproject.is_file() {
                if let Some(config) = Config::load_pyproject(&pyproject)? {
                    return Ok(Some(config));
                }
            }
        }
        Ok(None)
    }

    /// Read the configuration file at `path` (`urlint.toml` syntax, or a
    /// `pyproject.toml`, recognised by its name, whose table is required).
    pub(crate) fn load(path: &Path) -> Result<Config, ConfigError> {
        Config::parse_file(&read(path)?, path)
    }

    /// Parse the text of the configuration file at `path`: a
    /// `pyproject.toml`, recognised by its name, must have the table;
    /// any other name is `urlint.toml` syntax.
    pub(crate) fn parse_file(text: &str, path: &Path) -> Result<Config, ConfigError> {
        if path.file_name().is_some_and(|name| name == PYPROJECT) {
            return Config::parse_pyproject(text, path)?.ok_or_else(|| ConfigError {
                path: path.to_path_buf(),
                message: "it has no [tool.urlint] table".to_string(),
            });
        }
        Config::parse(text, path)
    }

    /// Read the `[tool.urlint]` table of a `pyproject.toml`, if it has one.
    fn load_pyproject(path: &Path) -> Result<Option<Config>, ConfigError> {
        Config::parse_pyproject(&read(path)?, path)
    }

    /// The `[tool.urlint]` table of `pyproject.toml` text, if it has one.
    fn parse_pyproject(text: &str, path: &Path) -> Result<Option<Config>, ConfigError> {
        let file: Pyproject = toml::from_str(text).map_err(|err| parse_error(path, text, err))?;
        file.tool
            .and_then(|tool| tool.urlint)
            .map(|table| table.into_config(path))
            .transpose()
    }

    /// Parse `urlint.toml` text; errors name `path`.
    pub(crate) fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let file: ConfigFile = toml::from_str(text).map_err(|err| parse_error(path, text, err))?;
        file.into_config(path)
    }

    /// The configuration of a run: the file given with `--config`, none
    /// under `--isolated`, otherwise the one [`Config::discover`] finds from
    /// the current directory (the defaults if there is none).
    pub(crate) fn for_run(path: Option<&Path>, isolated: bool) -> Result<Config, ConfigError> {
        if isolated {
            return Ok(Config::default());
        }
        if let Some(path) = path {
            return Config::load(path);
        }
        let cwd = std::env::current_dir().map_err(|err| ConfigError {
            path: PathBuf::from("."),
            message: format!("cannot find the current directory to search from: {err}"),
        })?;
        Ok(Config::discover(&cwd)?.unwrap_or_default())
    }

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

    /// These settings with `levels` as urlint.toml text that reads back to
    /// the same settings: every rule with its level, in catalogue order,
    /// then every other table, empty ones included.
    pub(crate) fn settings(&self, levels: &RuleLevels, profile: Profile) -> String {
        let file = ConfigFile {
            profile: Some(ProfileName(profile)),
            rules: RuleTable(
                Rule::all()
                    .map(|rule| (RuleName(rule), LevelName(levels.level(rule))))
                    .collect(),
            ),
            schemes: SchemesTable {
                extra: self.extra_schemes.iter().cloned().map(SchemeName).collect(),
                remove: self
                    .removed_schemes
                    .iter()
                    .cloned()
                    .map(SchemeName)
                    .collect(),
            },
            urls: UrlsTable {
                exclude: self
                    .url_excludes
                    .patterns()
                    .iter()
                    .cloned()
                    .map(Pattern)
                    .collect(),
                templates: !self.no_templates,
            },
            paths: PathsTable {
                include: self.include.iter().cloned().map(Glob).collect(),
                exclude: self.exclude.iter().cloned().map(Glob).collect(),
            },
            per_file_ignores: IgnoreTable(
                self.per_file_ignores
                    .iter()
                    .map(|(glob, rules)| {
                        (
                            Glob(glob.clone()),
                            rules.iter().copied().map(RuleName).collect(),
                        )
                    })
                    .collect(),
            ),
            kinds: KindsTable::of(&self.kinds),
            markdown: MarkdownTable {
                include_verbatim: self.include_verbatim,
            },
        };
        // Every field is a string, a list of strings or a table of them,
        // which TOML can always write.
        toml::to_string(&file).unwrap_or_default()
    }

    /// Rule levels from the file: the catalogue's defaults with its `[rules]`.
    pub(crate) fn levels(&self) -> RuleLevels {
        let mut levels = RuleLevels::default();
        for &(rule, level) in &self.rules {
            levels.set(rule, level);
        }
        levels
    }

    /// Lint options from the file, with `levels` (the file's, after the
    /// command line has had its say) and the command line's profile, if it
    /// names one, over the file's.
    pub(crate) fn lint_options(&self, levels: RuleLevels, profile: Option<Profile>) -> LintOptions {
        let mut options = LintOptions {
            profile: profile.unwrap_or(self.profile),
            levels,
            extra_schemes: self.extra_schemes.clone(),
            removed_schemes: self.removed_schemes.clone(),
            url_excludes: self.url_excludes.clone(),
            ..LintOptions::default()
        };
        options.scan.extra_schemes = self.extra_schemes.clone();
        options.scan.include_verbatim = self.include_verbatim;
        options.scan.no_templates = self.no_templates;
        options
    }
}

/// The largest configuration file read: far beyond any real one, and a
/// bound on what a wrong `--config` (a log, an image) costs.
const MAX_CONFIG_LEN: u64 = 16 * 1024 * 1024;

/// The text of the configuration file at `path`, which must be a regular
/// file: a FIFO would wait for a writer forever, and `/dev/zero` never ends.
pub(crate) fn read(path: &Path) -> Result<String, ConfigError> {
    let error = |message: String| ConfigError {
        path: path.to_path_buf(),
        message,
    };
    // Asked before opening: opening a FIFO waits for a writer.
    let meta = std::fs::metadata(path).map_err(|err| error(format!("cannot read it: {err}")))?;
    if !meta.is_file() {
        return Err(error(
            "it is not a regular file (a named pipe, device or socket); \
             a configuration is read from a file"
                .to_owned(),
        ));
    }
    if meta.len() > MAX_CONFIG_LEN {
        return Err(error(format!(
            "it holds {} bytes, more than a configuration file can ({} MiB)",
            meta.len(),
            MAX_CONFIG_LEN >> 20
        )));
    }
    let file = std::fs::File::open(path).map_err(|err| error(format!("cannot read it: {err}")))?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_CONFIG_LEN), &mut text)
        .map_err(|err| error(format!("cannot read it: {err}")))?;
    Ok(text)
}

/// A TOML or schema error in `text`, with toml's own location report ("at
/// line 3, column 1", the line quoted and the key underlined); a line too
/// long to quote whole is quoted around the error.
fn parse_error(path: &Path, text: &str, mut err: toml::de::Error) -> ConfigError {
    let long_line = err.span().and_then(|span| {
        let start = text.get(..span.start)?.rfind('\n').map_or(0, |at| at + 1);
        let end = text[start..].find('\n').map_or(text.len(), |at| start + at);
        let line = text[start..end].trim_end_matches('\r');
        (line.chars().count() > QUOTED_CHARS).then_some((start, line, span))
    });
    let message = match long_line {
        None => err.to_string(),
        Some((line_start, line, span)) => {
            err.set_input(None);
            let number = text[..line_start].matches('\n').count() + 1;
            let column = text[line_start..span.start].chars().count();
            let marked = text[span.start..span.end.min(line_start + line.len())]
                .chars()
                .count();
            let (excerpt, caret) = crop(line, column);
            let gutter = " ".repeat(number.to_string().len());
            let shown = excerpt.trim_end_matches('…').chars().count();
            let carets = "^".repeat(marked.min(shown.saturating_sub(caret)).max(1));
            format!(
                "TOML parse error at line {number}, column {}\n{gutter} |\n{number} | {excerpt}\n\
                 {gutter} | {}{carets}\n{err}",
                column + 1,
                " ".repeat(caret)
            )
        }
    };
    ConfigError {
        path: path.to_path_buf(),
        message: message.trim_end().to_string(),
    }
}

/// Characters of a long TOML line or regular expression an error quotes:
/// a few before the place it points at, the rest after.
const QUOTED_CHARS: usize = 80;

/// `text` cut to [`QUOTED_CHARS`] characters around character `at`, with
/// `…` where it was cut, and the character position of `at` in the result.
fn crop(text: &str, at: usize) -> (String, usize) {
    let before = QUOTED_CHARS / 4;
    let first = at.saturating_sub(before);
    let total = text.chars().count();
    let last = (first + QUOTED_CHARS).min(total);
    let mut excerpt: String = text.chars().skip(first).take(last - first).collect();
    let mut position = at - first;
    if first > 0 {
        excerpt.insert(0, '…');
        position += 1;
    }
    if last < total {
        excerpt.push('…');
    }
    (excerpt, position)
}

/// `urlint.toml`, as written (and as `--show-settings` writes it).
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    // Top-level keys go before the tables: TOML writes plain keys first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    profile: Option<ProfileName>,
    #[serde(default)]
    rules: RuleTable,
    #[serde(default)]
    schemes: SchemesTable,
    #[serde(default)]
    urls: UrlsTable,
    #[serde(default)]
    paths: PathsTable,
    #[serde(default, rename = "per-file-ignores")]
    per_file_ignores: IgnoreTable,
    #[serde(default)]
    kinds: KindsTable,
    #[serde(default)]
    markdown: MarkdownTable,
}

impl ConfigFile {
    /// The configuration this file sets, once its patterns are combined.
    fn into_config(self, path: &Path) -> Result<Config, ConfigError> {
        // Each pattern compiled alone when read; together they may still
        // exceed the regex size limit, and that must not pass silently.
        let url_excludes =
            RegexSet::new(self.urls.exclude.iter().map(|p| p.0.as_str())).map_err(|err| {
                ConfigError {
                    path: path.to_path_buf(),
                    message: format!("urls.exclude: the patterns together are too large: {err}"),
                }
            })?;
        Ok(Config {
            path: Some(path.to_path_buf()),
            profile_chosen: self.profile.is_some(),
            profile: self.profile.map_or_else(Profile::default, |name| name.0),
            rules: self
                .rules
                .0
                .into_iter()
                .map(|(rule, level)| (rule.0, level.0))
                .collect(),
            extra_schemes: self.schemes.extra.into_iter().map(|s| s.0).collect(),
            removed_schemes: self.schemes.remove.into_iter().map(|s| s.0).collect(),
            url_excludes,
            include: self.paths.include.into_iter().map(|g| g.0).collect(),
            exclude: self.paths.exclude.into_iter().map(|g| g.0).collect(),
            per_file_ignores: self
                .per_file_ignores
                .0
                .into_iter()
                .map(|(glob, rules)| (glob.0, rules.into_iter().map(|rule| rule.0).collect()))
                .collect(),
            kinds: self.kinds.into_kinds(),
            include_verbatim: self.markdown.include_verbatim,
            no_templates: !self.urls.templates,
        })
    }
}

/// `pyproject.toml`: only `[tool.urlint]` matters; other tools' tables are
/// not ours to check.
#[derive(Debug, Deserialize)]
struct Pyproject {
    tool: Option<Tools>,
}

#[derive(Debug, Deserialize)]
struct Tools {
    urlint: Option<ConfigFile>,
}

/// `[rules]`: levels by rule name, written in the order held (read sorted by rule).
#[derive(Debug, Default)]
struct RuleTable(Vec<(RuleName, LevelName)>);

impl<'de> Deserialize<'de> for RuleTable {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let levels = BTreeMap::<RuleName, LevelName>::deserialize(deserializer)?;
        Ok(RuleTable(levels.into_iter().collect()))
    }
}

impl Serialize for RuleTable {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (rule, level) in &self.0 {
            map.serialize_entry(rule, level)?;
        }
        map.end()
    }
}

/// `[per-file-ignores]`: rule names by path glob.
#[derive(Debug, Default, Deserialize, Serialize)]
struct IgnoreTable(BTreeMap<Glob, Vec<RuleName>>);

/// `[schemes]`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct SchemesTable {
    #[serde(default)]
    extra: Vec<SchemeName>,
    #[serde(default)]
    remove: Vec<SchemeName>,
}

/// `[urls]`.
#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct UrlsTable {
    #[serde(default)]
    exclude: Vec<Pattern>,
    /// Whether URLs are read as templates where they hold placeholders.
    #[serde(default = "recognised")]
    templates: bool,
}

impl Default for UrlsTable {
    fn default() -> Self {
        UrlsTable {
            exclude: Vec::new(),
            templates: recognised(),
        }
    }
}

/// Templates are recognised unless the file says otherwise.
fn recognised() -> bool {
    true
}

/// `[paths]`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct PathsTable {
    #[serde(default)]
    include: Vec<Glob>,
    #[serde(default)]
    exclude: Vec<Glob>,
}

/// `[kinds]`: globs per input kind.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct KindsTable {
    #[serde(default)]
    text: Vec<Glob>,
    #[serde(default)]
    markdown: Vec<Glob>,
    #[serde(default)]
    rst: Vec<Glob>,
    #[serde(default)]
    html: Vec<Glob>,
    #[serde(default)]
    mail: Vec<Glob>,
}

impl KindsTable {
    /// The globs of each kind that has some.
    fn into_kinds(self) -> Vec<(InputKind, Vec<String>)> {
        [
            (InputKind::Text, self.text),
            (InputKind::Markdown, self.markdown),
            (InputKind::Rst, self.rst),
            (InputKind::Html, self.html),
            (InputKind::Mail, self.mail),
        ]
        .into_iter()
        .filter(|(_, globs)| !globs.is_empty())
        .map(|(kind, globs)| (kind, globs.into_iter().map(|g| g.0).collect()))
        .collect()
    }

    /// The table for `kinds`, as read by [`KindsTable::into_kinds`].
    fn of(kinds: &[(InputKind, Vec<String>)]) -> Self {
        let mut table = KindsTable::default();
        for (kind, globs) in kinds {
            let globs = globs.iter().cloned().map(Glob);
            match kind {
                InputKind::Text => table.text.extend(globs),
                InputKind::Markdown => table.markdown.extend(globs),
                InputKind::Rst => table.rst.extend(globs),
                InputKind::Html => table.html.extend(globs),
                InputKind::Mail | InputKind::Mbox | InputKind::Eml => table.mail.extend(globs),
                // Globs never name it: it is the absence of a kind.
                InputKind::Auto => {}
            }
        }
        table
    }
}

/// `[markdown]`.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct MarkdownTable {
    #[serde(default)]
    include_verbatim: bool,
}

/// A rule name key, checked against the catalogue with a suggestion on a typo.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct RuleName(Rule);

impl<'de> Deserialize<'de> for RuleName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        find_rule(&name).map(RuleName).map_err(de::Error::custom)
    }
}

impl Serialize for RuleName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name())
    }
}

/// A profile name: `rfc1738` or `rfc3986`.
#[derive(Debug)]
struct ProfileName(Profile);

impl<'de> Deserialize<'de> for ProfileName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Profile::from_name(&name).map(ProfileName).ok_or_else(|| {
            let names: Vec<String> = Profile::ALL.iter().map(|p| format!("\"{p}\"")).collect();
            de::Error::custom(format!(
                "unknown profile '{name}': expected {}",
                names.join(" or ")
            ))
        })
    }
}

impl Serialize for ProfileName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name())
    }
}

/// A rule level: `off`, `warning` or `error`.
#[derive(Debug)]
struct LevelName(Level);

impl<'de> Deserialize<'de> for LevelName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Level::from_name(&name)
            .map(LevelName)
            .map_err(de::Error::custom)
    }
}

impl Serialize for LevelName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name())
    }
}

/// A scheme name, RFC 1738 section 2.1 syntax, stored in lower case.
#[derive(Debug, Serialize)]
#[serde(transparent)]
struct SchemeName(String);

impl<'de> Deserialize<'de> for SchemeName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        let valid = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
        if valid {
            Ok(SchemeName(name.to_ascii_lowercase()))
        } else {
            Err(de::Error::custom(format!(
                "'{name}' is not a scheme name: use letters, digits, '+', '-' and '.', \
                 without the ':'"
            )))
        }
    }
}

/// A URL exclude, compiled when read so that a bad pattern is a config error.
#[derive(Debug, Serialize)]
#[serde(transparent)]
struct Pattern(String);

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let pattern = String::deserialize(deserializer)?;
        match Regex::new(&pattern) {
            Ok(_) => Ok(Pattern(pattern)),
            Err(err) => Err(de::Error::custom(pattern_error(&pattern, &err))),
        }
    }
}

/// Why `pattern` is not a regular expression. The regex crate's message
/// quotes the whole pattern, so a long pattern is quoted around the error.
fn pattern_error(pattern: &str, err: &regex::Error) -> String {
    let length = pattern.chars().count();
    if length <= QUOTED_CHARS {
        return format!("invalid regular expression: {err}");
    }
    let syntax = match regex_syntax::Parser::new().parse(pattern) {
        Err(regex_syntax::Error::Parse(err)) => Some((err.kind().to_string(), *err.span())),
        Err(regex_syntax::Error::Translate(err)) => Some((err.kind().to_string(), *err.span())),
        _ => None,
    };
    match (syntax, err) {
        (Some((kind, span)), _) => {
            let at = pattern[..span.start.offset].chars().count();
            let (excerpt, caret) = crop(pattern, at);
            format!(
                "invalid regular expression: {kind}, at character {} of a \
                 {length}-character pattern:\n    {excerpt}\n    {}^",
                at + 1,
                " ".repeat(caret)
            )
        }
        (None, regex::Error::CompiledTooBig(_)) => {
            format!("invalid regular expression of {length} characters: {err}")
        }
        (None, _) => format!(
            "invalid regular expression of {length} characters (too long to quote): {}",
            err.to_string().lines().last().unwrap_or_default()
        ),
    }
}

/// A path glob, checked with the same parser the directory walk uses; a
/// leading `!` (which negates a `[per-file-ignores]` glob) is allowed.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
struct Glob(String);

impl<'de> Deserialize<'de> for Glob {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let glob = String::deserialize(deserializer)?;
        let mut builder = ignore::overrides::OverrideBuilder::new(".");
        match builder.add(&glob) {
            Ok(_) => Ok(Glob(glob)),
            Err(err) => Err(de::Error::custom(format!("invalid glob: {err}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, Path::new("urlint.toml"))
    }

    #[test]
    fn every_key_is_read() {
        let config = parse(
            "[rules]\nhyphen-break = \"off\"\nbare-url = \"error\"\n\
             [schemes]\nextra = [\"IRC\", \"ssh\"]\nremove = [\"gopher\"]\n\
             [urls]\nexclude = ['^http://localhost', 'example\\.org']\n\
             [paths]\ninclude = [\"*.md\"]\nexclude = [\"vendor/**\"]\n",
        )
        .expect("valid");
        assert_eq!(
            config.rules,
            [
                (Rule::HyphenBreak, Level::Off),
                (Rule::BareUrl, Level::Error)
            ]
        );
        assert_eq!(config.extra_schemes, ["irc", "ssh"]);
        assert_eq!(config.removed_schemes, ["gopher"]);
        assert!(config.url_excludes.is_match("http://localhost:8080/"));
        assert!(!config.url_excludes.is_match("http://example.com/"));
        assert_eq!(config.include, ["*.md"]);
        assert_eq!(config.exclude, ["vendor/**"]);
        let levels = config.levels();
        assert_eq!(levels.level(Rule::HyphenBreak), Level::Off);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Error);
        let options = config.lint_options(levels, None);
        assert_eq!(options.scan.extra_schemes, ["irc", "ssh"]);
        assert_eq!(options.profile, Profile::Rfc1738);
    }

    #[test]
    fn the_profile_is_a_top_level_key_and_the_command_line_wins() {
        let config =
            parse("profile = \"rfc3986\"\n[rules]\nbare-url = \"error\"\n").expect("valid");
        assert_eq!(config.profile, Profile::Rfc3986);
        let levels = config.levels();
        assert_eq!(
            config.lint_options(levels.clone(), None).profile,
            Profile::Rfc3986
        );
        let flag = config.lint_options(levels, Some(Profile::Rfc1738));
        assert_eq!(flag.profile, Profile::Rfc1738);
        let err = parse("profile = \"rfc2396\"\n").expect_err("unknown profile");
        assert!(
            err.message
                .contains("unknown profile 'rfc2396': expected \"rfc1738\" or \"rfc3986\""),
            "{}",
            err.message
        );
    }

    #[test]
    fn per_file_ignores_cover_matching_files_only() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(FILE_NAME);
        let text = "[per-file-ignores]\n\
                    \"tests/**\" = [\"unsafe-char\"]\n\
                    \"*.eml\" = [\"bad-host\", \"unsafe-char\"]\n\
                    \"legacy\" = [\"scheme-case\"]\n\
                    \"!docs/**\" = [\"bare-url\"]\n";
        let config = Config::parse(text, &path).expect("valid");
        let ignores = config
            .per_file_ignores()
            .expect("globs")
            .expect("some entries");
        let cases: [(&str, &[Rule]); 6] = [
            ("docs/a.md", &[]),
            ("tests/a.md", &[Rule::UnsafeChar, Rule::BareUrl]),
            ("docs/mail/x.eml", &[Rule::UnsafeChar, Rule::BadHost]),
            ("legacy/old/notes.txt", &[Rule::SchemeCase, Rule::BareUrl]),
            ("src/tests/a.md", &[Rule::BareUrl]),
            ("README.md", &[Rule::BareUrl]),
        ];
        for (relative, rules) in cases {
            assert_eq!(
                ignores.rules_for(&dir.path().join(relative)),
                rules,
                "{relative}"
            );
        }
        assert!(ignores
            .rules_for(Path::new("/elsewhere/tests/a.md"))
            .is_empty());
        let around = dir.path().join("tests/../docs/./a.md");
        assert!(ignores.rules_for(&around).is_empty(), "`..` is resolved");
        assert!(Config::default()
            .per_file_ignores()
            .expect("none")
            .is_none());
    }

    #[test]
    fn settings_read_back_to_the_same_settings() {
        let text = "[rules]\nhyphen-break = \"off\"\nbare-url = \"warning\"\n\
                    [schemes]\nextra = [\"irc\"]\nremove = [\"gopher\"]\n\
                    [urls]\nexclude = ['^http://localhost(:\\d+)?/', \"it's\"]\n\
                    [paths]\ninclude = [\"*.md\"]\nexclude = [\"vendor\"]\n\
                    [per-file-ignores]\n\"tests/**\" = [\"unsafe-char\", \"bad-port\"]\n";
        let config = parse(text).expect("valid");
        let written = config.settings(&config.levels(), Profile::Rfc3986);
        let read = parse(&written).expect("the settings parse");
        assert_eq!(read.settings(&read.levels(), read.profile), written);
        assert!(written.starts_with("profile = \"rfc3986\"\n"), "{written}");
        assert_eq!(read.rules.len(), Rule::all().count(), "{written}");
        let line = |key: &str| {
            written
                .lines()
                .find(|line| line.starts_with(key))
                .map(str::to_owned)
        };
        assert_eq!(
            line("hyphen-break").as_deref(),
            Some("hyphen-break = \"off\"")
        );
        assert_eq!(
            line("unsafe-char").as_deref(),
            Some("unsafe-char = \"error\"")
        );
        assert_eq!(read.extra_schemes, ["irc"]);
        assert_eq!(read.url_excludes.patterns(), config.url_excludes.patterns());
        assert_eq!(read.exclude, ["vendor"]);
        assert_eq!(
            read.per_file_ignores,
            [("tests/**".to_owned(), vec![Rule::UnsafeChar, Rule::BadPort])]
        );
        let defaults = Config::default().settings(&RuleLevels::default(), Profile::default());
        assert!(defaults.contains("\n[per-file-ignores]\n"), "{defaults}");
        assert!(parse(&defaults).is_ok());
    }

    #[test]
    fn an_empty_file_is_the_defaults() {
        let config = parse("").expect("valid");
        assert!(config.rules.is_empty() && config.url_excludes.is_empty());
    }

    /// Each kind of mistake: the line toml reports and what the message says.
    #[test]
    fn errors_name_the_line_and_the_key() {
        let cases = [
            ("colour = true\n", "line 1", "unknown field `colour`"),
            (
                "[rules]\n\nunsafe-chr = \"off\"\n",
                "line 3",
                "did you mean 'unsafe-char'?",
            ),
            (
                "[rules]\nbad-port = \"warn\"\n",
                "line 2",
                "unknown level 'warn'",
            ),
            ("[rules]\nbad-port = 1\n", "line 2", "invalid type: integer"),
            (
                "[schemes]\nextras = []\n",
                "line 2",
                "unknown field `extras`, expected `extra` or `remove`",
            ),
            (
                "[schemes]\nextra = [\"irc:\"]\n",
                "line 2",
                "'irc:' is not a scheme name",
            ),
            (
                "[urls]\nexclude = [\"(\"]\n",
                "line 2",
                "invalid regular expression",
            ),
            ("[paths]\ninclude = [\"a{\"]\n", "line 2", "invalid glob"),
            (
                "[per-file-ignores]\n\"tests/**\" = [\"unsafe-char\", \"bad-prot\"]\n",
                "line 2",
                "unknown rule 'bad-prot' (did you mean 'bad-port'?)",
            ),
            (
                "[per-file-ignores]\n\"a{\" = [\"bad-port\"]\n",
                "line 2",
                "invalid glob",
            ),
            (
                "[per-file-ignores]\n\"*.md\" = \"bad-port\"\n",
                "line 2",
                "invalid type: string",
            ),
            ("[rules\n", "line 1", "unclosed table"),
        ];
        for (text, line, message) in cases {
            let err = parse(text).expect_err(text).to_string();
            assert!(
                err.starts_with("invalid configuration urlint.toml: "),
                "{err}"
            );
            assert!(
                err.contains(&format!("at {line}, column")),
                "{text:?}: {err}"
            );
            assert!(err.contains(message), "{text:?}: {err}");
        }
    }

    #[test]
    fn discovery_walks_up_and_prefers_urlint_toml() {
        let root = tempfile::tempdir().expect("temp dir");
        let deep = root.path().join("a/b/c");
        std::fs::create_dir_all(&deep).expect("dirs");
        assert!(Config::discover(&deep).expect("no files").is_none());

        let pyproject = root.path().join("a").join(PYPROJECT);
        std::fs::write(&pyproject, "[project]\nname = \"x\"\n").expect("write");
        assert!(Config::discover(&deep).expect("no table").is_none());

        std::fs::write(
            &pyproject,
            "[tool.black]\nline-length = 1\n[tool.urlint.rules]\nbare-url = \"warning\"\n",
        )
        .expect("write");
        let found = Config::discover(&deep).expect("valid").expect("found");
        assert_eq!(found.path.as_deref(), Some(pyproject.as_path()));
        assert_eq!(found.rules, [(Rule::BareUrl, Level::Warning)]);

        let own = root.path().join("a").join(FILE_NAME);
        std::fs::write(&own, "[rules]\nbare-url = \"error\"\n").expect("write");
        let found = Config::discover(&deep).expect("valid").expect("found");
        assert_eq!(found.path.as_deref(), Some(own.as_path()));

        let nearer = root.path().join("a/b").join(FILE_NAME);
        std::fs::write(&nearer, "[rules]\nbare-url = \"oops\"\n").expect("write");
        let err = Config::discover(&deep).expect_err("the nearest file is broken");
        assert_eq!(err.path, nearer);
    }

    #[test]
    fn a_pyproject_given_explicitly_needs_the_table() {
        let dir = tempfile::tempdir().expect("temp dir");
        let pyproject = dir.path().join(PYPROJECT);
        std::fs::write(&pyproject, "[tool.other]\nx = 1\n").expect("write");
        let err = Config::load(&pyproject).expect_err("no table");
        assert!(err.message.contains("[tool.urlint]"), "{err}");
        std::fs::write(&pyproject, "[tool.urlint]\nrules = { nope = \"off\" }\n").expect("write");
        let err = Config::load(&pyproject).expect_err("bad rule");
        assert!(err.message.contains("line 2"), "{err}");
    }

    #[test]
    fn isolated_ignores_even_a_missing_file() {
        let config = Config::for_run(Some(Path::new("/no/such/urlint.toml")), true);
        assert!(config.expect("isolated").path.is_none());
        let err = Config::for_run(Some(Path::new("/no/such/urlint.toml")), false)
            .expect_err("missing file");
        assert!(err.message.starts_with("cannot read it"), "{err}");
    }

    #[test]
    fn path_globs_are_relative_to_the_config_file_and_cover_named_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(FILE_NAME);
        let text =
            "[paths]\ninclude = [\"*.md\", \"*.txt\"]\nexclude = [\"vendor\", \"docs/old.md\"]\n";
        let mut config = Config::parse(text, &path).expect("valid");
        config.path = Some(path);
        let filter = config.path_filter().expect("globs").expect("some globs");
        let cases = [
            ("a.md", true),
            ("docs/new.md", true),
            ("notes.txt", true),
            ("main.rs", false),
            ("docs/old.md", false),
            ("vendor/lib.md", false),
            ("src/vendor/x/lib.md", false),
        ];
        for (relative, allowed) in cases {
            assert_eq!(
                filter.allows(&dir.path().join(relative)),
                allowed,
                "{relative}"
            );
        }
        assert!(filter.allows(Path::new("/elsewhere/main.rs")));
        assert!(filter.includes(&dir.path().join("docs/new.md")));
        assert!(!filter.includes(&dir.path().join("main.rs")));
        assert!(!filter.includes(&dir.path().join("docs/old.md")));
        assert!(!filter.includes(Path::new("/elsewhere/a.md")));
        assert!(!filter.allows(&dir.path().join("docs/../vendor/lib.md")));
        assert!(Config::default().path_filter().expect("none").is_none());
    }

    #[test]
    fn crop_keeps_a_window_around_the_position_with_marks_where_cut() {
        let text: String = ('a'..='z').cycle().take(200).collect();
        let (excerpt, at) = crop(&text, 100);
        assert_eq!(excerpt.chars().count(), QUOTED_CHARS + 2);
        assert!(excerpt.starts_with('…') && excerpt.ends_with('…'));
        assert_eq!(excerpt.chars().nth(at), text.chars().nth(100));
        let (start, at) = crop(&text, 3);
        assert_eq!((start.chars().next(), at), (Some('a'), 3));
        let (end, at) = crop(&text, 199);
        assert_eq!(
            (end.chars().last(), end.chars().nth(at)),
            (Some('r'), Some('r'))
        );
        assert_eq!(crop("short", 2), ("short".to_string(), 2));
    }

    #[test]
    fn a_short_bad_pattern_keeps_the_regex_crates_report() {
        let err = parse("[urls]\nexclude = [\"(a\"]\n").expect_err("unclosed group");
        assert!(
            err.message
                .contains("regex parse error:\n    (a\n    ^\nerror: unclosed group"),
            "{}",
            err.message
        );
    }
}
