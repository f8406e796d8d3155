//! The file's schema: `urlint.toml` (or `[tool.urlint]`) as serde reads
//! it, every key and value checked while parsing, into a [`Config`]; and
//! a `Config` written back in the same syntax ([`Config::settings`]).

use std::collections::BTreeMap;
use std::path::Path;

use regex::{Regex, RegexSet};
use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::error::{crop, parse_error, ConfigError, QUOTED_CHARS};
use super::values::Config;
#[cfg(feature = "cli")]
use crate::input::InputKind;
#[cfg(feature = "cli")]
use crate::lint::RuleLevels;
use crate::profile::Profile;
use crate::rules::{find_rule, Level, Rule};

impl Config {
    /// These settings with `levels` as urlint.toml text that reads back to
    /// the same settings: every rule with its level, in catalogue order,
    /// then every other table, empty ones included.
    #[cfg(feature = "cli")]
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
}

/// Parse `urlint.toml` text; errors name `path`.
pub(super) fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
    let file: ConfigFile = toml::from_str(text).map_err(|err| parse_error(path, text, err))?;
    file.into_config(path)
}

/// The `[tool.urlint]` table of `pyproject.toml` text, if it has one.
pub(super) fn parse_pyproject(text: &str, path: &Path) -> Result<Option<Config>, ConfigError> {
    let file: Pyproject = toml::from_str(text).map_err(|err| parse_error(path, text, err))?;
    file.tool
        .and_then(|tool| tool.urlint)
        .map(|table| table.into_config(path))
        .transpose()
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
            #[cfg(feature = "cli")]
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
            #[cfg(feature = "cli")]
            include: self.paths.include.into_iter().map(|g| g.0).collect(),
            #[cfg(feature = "cli")]
            exclude: self.paths.exclude.into_iter().map(|g| g.0).collect(),
            #[cfg(feature = "cli")]
            per_file_ignores: self
                .per_file_ignores
                .0
                .into_iter()
                .map(|(glob, rules)| (glob.0, rules.into_iter().map(|rule| rule.0).collect()))
                .collect(),
            #[cfg(feature = "cli")]
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

#[cfg(feature = "cli")]
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
