//! A configuration's values, and the rule levels and lint options they
//! become (the filters their globs make are in `filters`).

use std::path::PathBuf;

use regex::RegexSet;

#[cfg(feature = "cli")]
use crate::input::InputKind;
use crate::lint::{LintOptions, RuleLevels};
use crate::profile::Profile;
use crate::rules::{Level, Rule};

/// A configuration, as read from a file (or the defaults).
#[derive(Debug, Clone, Default)]
pub(crate) struct Config {
    /// The file it was read from; `None` for the defaults.
    pub path: Option<PathBuf>,
    /// The standard URLs are checked against (top-level `profile`).
    pub profile: Profile,
    /// The file names its profile: the user chose it, and needs no hint
    /// that another one exists.
    #[cfg(feature = "cli")]
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
    #[cfg(feature = "cli")]
    pub include: Vec<String>,
    /// Globs that skip walked files and directories.
    #[cfg(feature = "cli")]
    pub exclude: Vec<String>,
    /// Rules turned off in the files a glob matches, by glob.
    #[cfg(feature = "cli")]
    pub per_file_ignores: Vec<(String, Vec<Rule>)>,
    /// Globs naming the kind of the files they match, per kind.
    #[cfg(feature = "cli")]
    pub kinds: Vec<(InputKind, Vec<String>)>,
    /// Read code for URLs too: Markdown code spans and code blocks, HTML
    /// code elements, reStructuredText literals, code directives and comments.
    pub include_verbatim: bool,
    /// Read placeholders as URL characters: `templates = false` under
    /// `[urls]` (see [`crate::scan::ScanOptions::no_templates`]).
    pub no_templates: bool,
}

impl Config {
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
