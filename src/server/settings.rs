//! What a document is linted with, and whether it is linted at all: the
//! workspace's configuration, found from the workspace root as the command
//! line finds it from its current directory, with the client's
//! initialization options (profile, rule overrides) over it as the command
//! line's flags are over the file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::analysis::DocumentReading;
use crate::config::{Config, ConfigError, PathFilter, PerFileIgnores};
use crate::input::{Content, InputKind, KindGlobs};
use crate::lint::{LintOptions, RuleOverrides};
use crate::markup;
use crate::profile::Profile;
use crate::rules::{find_rule, Level, Rule};
use crate::source::Markup;

/// The kind a document in the editor's language `language` is read as
/// when it has no file, for the languages linted without being named by
/// the configuration: each markup's own (text, Markdown, reStructuredText,
/// HTML), and mail, whose content says mbox or message.
fn kind_of_language(language: &str) -> Option<InputKind> {
    if language == "mail" {
        return Some(InputKind::Auto);
    }
    Markup::ALL
        .into_iter()
        .find(|&markup| markup::facts(markup).language_ids.contains(&language))
        .map(|markup| Content::Text(markup).into())
}

/// Extensions of plain-text files, linted whatever language identifier
/// the client gives them; Markdown, reStructuredText, HTML and mail files
/// are known by the command line's own names for them.
const TEXT_EXTENSIONS: &[&str] = &["txt", "text"];

/// The client's `initializationOptions`, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct InitializationOptions {
    profile: Option<String>,
    select: Vec<String>,
    warn: Vec<String>,
    ignore: Vec<String>,
}

/// What the client's initialization options choose, over the configuration.
#[derive(Debug, Clone, Default)]
pub(super) struct ClientChoices {
    /// The profile, over the configuration's.
    pub profile: Option<Profile>,
    /// Rules selected, warned about or ignored, over the configuration's levels.
    pub overrides: RuleOverrides,
}

impl ClientChoices {
    /// Read `initializationOptions` (`{"profile": "rfc3986", "select": [...],
    /// "warn": [...], "ignore": [...]}`); what cannot be read is left out
    /// and said in the returned messages, so one typo does not cost the
    /// rest.
    pub(super) fn read(value: Option<serde_json::Value>) -> (ClientChoices, Vec<String>) {
        let mut problems = Vec::new();
        let options = match value.filter(|value| !value.is_null()) {
            None => InitializationOptions::default(),
            Some(value) => serde_json::from_value(value).unwrap_or_else(|err| {
                problems.push(format!("initializationOptions: {err}; using none"));
                InitializationOptions::default()
            }),
        };
        let profile = options.profile.and_then(|name| {
            let profile = Profile::from_name(&name);
            if profile.is_none() {
                let names: Vec<&str> = Profile::ALL.iter().map(|p| p.name()).collect();
                problems.push(format!(
                    "initializationOptions.profile: unknown profile '{name}': expected {}",
                    names.join(" or ")
                ));
            }
            profile
        });
        let mut rules = |key: &str, names: Vec<String>| -> Vec<Rule> {
            names
                .into_iter()
                .filter_map(|name| {
                    find_rule(&name)
                        .map_err(|err| problems.push(format!("initializationOptions.{key}: {err}")))
                        .ok()
                })
                .collect()
        };
        let overrides = RuleOverrides {
            select: rules("select", options.select),
            warn: rules("warn", options.warn),
            ignore: rules("ignore", options.ignore),
        };
        (ClientChoices { profile, overrides }, problems)
    }
}

/// One configuration, ready to lint with.
#[derive(Debug)]
struct Settings {
    /// The file it was read from, `None` for the defaults.
    path: Option<PathBuf>,
    /// The `[paths]` globs.
    filter: Option<PathFilter>,
    /// The `[per-file-ignores]` table.
    ignores: Option<PerFileIgnores>,
    /// The `[kinds]` globs.
    globs: Arc<KindGlobs>,
    /// The lint options of a file no per-file ignore covers.
    options: Arc<LintOptions>,
}

impl Settings {
    /// The settings of `config` under the client's choices.
    fn new(config: &Config, client: &ClientChoices) -> Result<Settings, ConfigError> {
        let levels = config.levels().overridden(&client.overrides);
        Ok(Settings {
            path: config.path.clone(),
            filter: config.path_filter()?,
            ignores: config.per_file_ignores()?,
            globs: Arc::new(config.kind_globs()?),
            options: Arc::new(config.lint_options(levels, client.profile)),
        })
    }

    /// The settings found from `dir` as the command line finds them from
    /// its current directory: the nearest configuration file in `dir` or
    /// above it, else the defaults.
    fn discover(dir: &Path, client: &ClientChoices) -> Result<Settings, ConfigError> {
        let config = Config::discover(dir)?.unwrap_or_default();
        Settings::new(&config, client)
    }

    /// The lint options of the file at `path`: the configuration's, less
    /// the rules its `[per-file-ignores]` turn off there.
    fn options_for(&self, path: Option<&Path>) -> Arc<LintOptions> {
        let rules = match (&self.ignores, path) {
            (Some(ignores), Some(path)) => ignores.rules_for(path),
            _ => Vec::new(),
        };
        if rules.is_empty() {
            return Arc::clone(&self.options);
        }
        let mut options = LintOptions::clone(&self.options);
        for rule in rules {
            options.levels.set(rule, Level::Off);
        }
        Arc::new(options)
    }

    /// How the document at `path` (with language identifier `language`)
    /// is read, `None` when it is not linted: never when the `[paths]`
    /// globs exclude it; otherwise when an include glob names it, or it is
    /// text, Markdown, reStructuredText, HTML or mail by the `[kinds]`
    /// globs, its name or its language. A file is read as the command line
    /// reads it; a document without one, as its language says.
    fn reading(&self, path: Option<&Path>, language: &str) -> Option<DocumentReading> {
        let by_language = kind_of_language(language);
        let linted = match path {
            None => by_language.is_some(),
            Some(path) => {
                let filter = self.filter.as_ref();
                if filter.is_some_and(|filter| !filter.allows(path)) {
                    return None;
                }
                let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                filter.is_some_and(|filter| filter.includes(path))
                    || InputKind::Auto.named(&self.globs, path).is_some()
                    || TEXT_EXTENSIONS
                        .iter()
                        .any(|text| text.eq_ignore_ascii_case(extension))
                    || by_language.is_some()
            }
        };
        linted.then(|| DocumentReading {
            kind: match path {
                None => by_language.unwrap_or_default(),
                Some(_) => InputKind::Auto,
            },
            globs: Arc::clone(&self.globs),
            options: self.options_for(path),
        })
    }
}

/// The workspace: its root folders, each with the configuration found
/// from it, and the client's choices over them.
#[derive(Debug)]
pub(super) struct Workspace {
    client: ClientChoices,
    /// Root folders, with their settings.
    roots: Vec<(PathBuf, Arc<Settings>)>,
    /// Settings of documents outside every root, by directory, found from
    /// that directory.
    outside: HashMap<PathBuf, Arc<Settings>>,
    /// The defaults under the client's choices, for documents without a path.
    defaults: Arc<Settings>,
}

impl Workspace {
    /// A workspace of `roots`; the messages say which configuration each
    /// root uses, and what could not be read.
    pub(super) fn new(roots: Vec<PathBuf>, client: ClientChoices) -> (Workspace, Vec<Said>) {
        let defaults = Settings::new(&Config::default(), &client)
            .expect("the default configuration has no globs to refuse");
        let mut workspace = Workspace {
            client,
            roots: Vec::new(),
            outside: HashMap::new(),
            defaults: Arc::new(defaults),
        };
        let said = workspace.add_roots(roots);
        (workspace, said)
    }

    /// Add root folders, each with its configuration.
    pub(super) fn add_roots(&mut self, roots: Vec<PathBuf>) -> Vec<Said> {
        let mut said = Vec::new();
        for root in roots {
            self.roots.retain(|(known, _)| *known != root);
            let settings = self.load(&root, None, &mut said);
            self.roots.push((root, settings));
        }
        said
    }

    /// Forget root folders.
    pub(super) fn remove_roots(&mut self, roots: &[PathBuf]) {
        self.roots.retain(|(root, _)| !roots.contains(root));
    }

    /// Read every configuration again (a configuration file changed). A
    /// configuration that no longer reads keeps its last good settings, so
    /// that a file being edited does not flood the editor with defaults.
    pub(super) fn reload(&mut self) -> Vec<Said> {
        let mut said = Vec::new();
        let roots = std::mem::take(&mut self.roots);
        for (root, previous) in roots {
            let settings = self.load(&root, Some(previous), &mut said);
            self.roots.push((root, settings));
        }
        self.outside.clear();
        said
    }

    /// How the document at `path` with language identifier `language` is
    /// read and linted, `None` when it is not.
    pub(super) fn reading(
        &mut self,
        path: Option<&Path>,
        language: &str,
    ) -> (Option<DocumentReading>, Vec<Said>) {
        let mut said = Vec::new();
        let settings = match path {
            None => Arc::clone(&self.defaults),
            Some(path) => self.settings_for(path, &mut said),
        };
        (settings.reading(path, language), said)
    }

    /// The settings of the root holding `path` (the innermost, should
    /// roots nest), else those found from its directory.
    fn settings_for(&mut self, path: &Path, said: &mut Vec<Said>) -> Arc<Settings> {
        let root = self
            .roots
            .iter()
            .filter(|(root, _)| path.starts_with(root))
            .max_by_key(|(root, _)| root.components().count());
        if let Some((_, settings)) = root {
            return Arc::clone(settings);
        }
        let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
        if let Some(settings) = self.outside.get(&dir) {
            return Arc::clone(settings);
        }
        let settings = self.load(&dir, None, said);
        self.outside.insert(dir, Arc::clone(&settings));
        settings
    }

    /// The settings found from `dir`; when they cannot be read, `previous`
    /// or the defaults, and an error in `said`.
    fn load(
        &self,
        dir: &Path,
        previous: Option<Arc<Settings>>,
        said: &mut Vec<Said>,
    ) -> Arc<Settings> {
        match Settings::discover(dir, &self.client) {
            Ok(settings) => {
                said.push(Said::Info(match &settings.path {
                    Some(path) => format!("{}: configuration {}", dir.display(), path.display()),
                    None => format!(
                        "{}: no configuration file here or above; using the defaults",
                        dir.display()
                    ),
                }));
                Arc::new(settings)
            }
            Err(err) => {
                let kept = if previous.is_some() {
                    "keeping the last settings that read"
                } else {
                    "using the defaults"
                };
                said.push(Said::Error(format!("{err}; {kept}")));
                previous.unwrap_or_else(|| Arc::clone(&self.defaults))
            }
        }
    }
}

/// Something the workspace has to tell the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Said {
    /// Worth a line in the log.
    Info(String),
    /// Worth showing: a configuration that does not read.
    Error(String),
}

/// True when `path` names a file a configuration is read from, whose
/// change means reading the configurations again.
pub(super) fn is_configuration(path: &Path) -> bool {
    path.file_name().is_some_and(|name| {
        name == crate::config::FILE_NAME
            || name == crate::config::HIDDEN_FILE_NAME
            || name == crate::config::PYPROJECT
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_markup_is_linted_under_its_editor_languages() {
        let cases = [
            ("plaintext", Some(InputKind::Text)),
            ("text", Some(InputKind::Text)),
            ("markdown", Some(InputKind::Markdown)),
            ("restructuredtext", Some(InputKind::Rst)),
            ("html", Some(InputKind::Html)),
            ("mail", Some(InputKind::Auto)),
            ("rust", None),
            ("Markdown", None),
        ];
        for (language, kind) in cases {
            assert_eq!(kind_of_language(language), kind, "{language}");
        }
    }

    #[test]
    fn initialization_options_choose_the_profile_and_rules() {
        let value = json!({"profile": "rfc3986", "select": ["bare-url"], "ignore": ["bad-prot"]});
        let (choices, problems) = ClientChoices::read(Some(value));
        assert_eq!(choices.profile, Some(Profile::Rfc3986));
        assert_eq!(choices.overrides.select, [Rule::BareUrl]);
        assert!(choices.overrides.ignore.is_empty());
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].contains("did you mean 'bad-port'?"),
            "{problems:?}"
        );
        let (choices, problems) = ClientChoices::read(Some(json!({"colour": true})));
        assert!(choices.profile.is_none());
        assert!(
            problems[0].contains("unknown field `colour`"),
            "{problems:?}"
        );
        let (_, problems) = ClientChoices::read(Some(json!(null)));
        assert!(problems.is_empty());
    }

    #[test]
    fn the_root_configuration_applies_below_it_and_globs_choose_files() {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            root.path().join("urlint.toml"),
            "[rules]\nscheme-case = \"off\"\n\
             [paths]\ninclude = [\"*.md\", \"*.rs\"]\nexclude = [\"vendor\"]\n\
             [per-file-ignores]\n\"notes/**\" = [\"unsafe-char\"]\n",
        )
        .expect("write");
        let client = ClientChoices {
            profile: Some(Profile::Rfc3986),
            overrides: RuleOverrides::default(),
        };
        let (mut workspace, said) = Workspace::new(vec![root.path().to_path_buf()], client);
        assert!(matches!(&said[..], [Said::Info(line)] if line.contains("urlint.toml")));
        let options = |workspace: &mut Workspace, relative: &str, language: &str| {
            let path = root.path().join(relative);
            workspace
                .reading(Some(&path), language)
                .0
                .map(|reading| reading.options)
        };
        let readme = options(&mut workspace, "README.md", "markdown").expect("linted");
        assert_eq!(readme.profile, Profile::Rfc3986);
        assert_eq!(readme.levels.level(Rule::SchemeCase), Level::Off);
        assert_eq!(readme.levels.level(Rule::UnsafeChar), Level::Error);
        let notes = options(&mut workspace, "notes/a.md", "markdown").expect("linted");
        assert_eq!(notes.levels.level(Rule::UnsafeChar), Level::Off);
        assert!(
            options(&mut workspace, "src/main.rs", "rust").is_some(),
            "included"
        );
        assert!(
            options(&mut workspace, "vendor/x.md", "markdown").is_none(),
            "excluded"
        );
        assert!(
            options(&mut workspace, "a.txt", "plaintext").is_none(),
            "not included"
        );
    }

    #[test]
    fn kind_globs_name_files_to_lint_and_the_command_line_reads_them() {
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            root.path().join("urlint.toml"),
            "[kinds]\nmarkdown = [\"*.mdx\"]\ntext = [\"CHANGES.md\"]\n",
        )
        .expect("write");
        let (mut workspace, _) =
            Workspace::new(vec![root.path().to_path_buf()], ClientChoices::default());
        let mut read = |relative: &str, language: &str| {
            let path = root.path().join(relative);
            let reading = workspace.reading(Some(&path), language).0?;
            assert_eq!(reading.kind, InputKind::Auto, "{relative}");
            InputKind::Auto.named(&reading.globs, &path)
        };
        let markdown = Some(Content::Text(Markup::Markdown));
        assert_eq!(read("docs/page.mdx", "mdx"), markdown);
        assert_eq!(
            read("CHANGES.md", "markdown"),
            Some(Content::Text(Markup::Plain))
        );
        // Linted, and the content decides, as for the command line.
        assert_eq!(read("README", "plaintext"), None);
        assert!(workspace
            .reading(Some(&root.path().join("a.rs")), "rust")
            .0
            .is_none());
        let untitled = workspace.reading(None, "markdown").0.expect("linted");
        assert_eq!(untitled.kind, InputKind::Markdown);
    }

    #[test]
    fn without_globs_prose_kinds_are_linted_and_code_is_not() {
        let (mut workspace, _) = Workspace::new(Vec::new(), ClientChoices::default());
        let linted = |workspace: &mut Workspace, path: Option<&str>, language: &str| {
            let path = path.map(PathBuf::from);
            workspace.reading(path.as_deref(), language).0.is_some()
        };
        assert!(linted(&mut workspace, None, "plaintext"));
        assert!(linted(&mut workspace, None, "markdown"));
        assert!(!linted(&mut workspace, None, "rust"));
        assert!(linted(
            &mut workspace,
            Some("/nowhere/x/list.mbox"),
            "unknown"
        ));
        assert!(!linted(&mut workspace, Some("/nowhere/x/main.rs"), "rust"));
    }

    #[test]
    fn a_broken_configuration_keeps_the_last_good_settings() {
        let root = tempfile::tempdir().expect("temp dir");
        let file = root.path().join("urlint.toml");
        std::fs::write(&file, "[rules]\nbare-url = \"error\"\n").expect("write");
        let (mut workspace, _) =
            Workspace::new(vec![root.path().to_path_buf()], ClientChoices::default());
        std::fs::write(&file, "[rules]\nbare-url = \"loud\"\n").expect("write");
        let said = workspace.reload();
        assert!(matches!(&said[..], [Said::Error(line)] if line.contains("unknown level 'loud'")));
        let path = root.path().join("a.txt");
        let options = workspace
            .reading(Some(&path), "plaintext")
            .0
            .expect("linted")
            .options;
        assert_eq!(options.levels.level(Rule::BareUrl), Level::Error);
        assert!(is_configuration(&file));
        assert!(!is_configuration(&path));
    }
}
