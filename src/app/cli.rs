//! The command line, as clap definitions. Parsing only: the `commands`
//! module carries the commands out.
//!
//! Options live on the subcommands they matter to (`explain` writes no
//! colour, so it offers no `--color`), except the global few (`--config`,
//! `--isolated`, `-q`, `-v`), which go on either side of the subcommand's
//! name as ruff's and cargo's do. Each subcommand's help ends with examples
//! that the tests parse.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::OnceLock;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Arg, ArgGroup, Args, Parser, Subcommand, ValueEnum};

use crate::input::InputKind;
use crate::lint::RuleOverrides;
use crate::mail::HeaderUrls;
use crate::profile::Profile;
use crate::report::{ExtractFormat, Format};
use crate::rules::{find_rule, Rule};

/// Find URLs in free text and lint them strictly against RFC 1738.
#[derive(Debug, Parser)]
#[command(
    name = "urlint",
    version = short_version(),
    long_version = long_version(),
    about,
    max_term_width = 100,
    after_help = TOP_EXAMPLES
)]
pub(super) struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands: what a run does.
#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Lint the URLs in files; exit 1 when an error-level finding exists.
    #[command(after_help = CHECK_EXAMPLES)]
    Check(CheckArgs),
    /// Print the URLs found in files.
    #[command(after_help = EXTRACT_EXAMPLES)]
    Extract(ExtractArgs),
    /// Check URLs given as arguments, or one per line on stdin.
    #[command(after_help = VALIDATE_EXAMPLES)]
    Validate(ValidateArgs),
    /// Show a rule's documentation, or list all rules.
    #[command(after_help = EXPLAIN_EXAMPLES)]
    Explain(ExplainArgs),
    /// Wrap long URLs in plain-text files the RFC 1738 Appendix way.
    #[command(after_help = FMT_EXAMPLES)]
    Fmt(FmtArgs),
    /// Run the language server on stdin and stdout, for editors.
    #[command(after_help = SERVER_EXAMPLES)]
    Server(ServerArgs),
    /// Print a completion script for a shell.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions(CompletionsArgs),
    /// Write urlint's manual pages (urlint.1, urlint-check.1, ...) into a directory.
    #[command(after_help = MAN_EXAMPLES)]
    Man(ManArgs),
}

/// Arguments of `check`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("rewrite").args(["fix", "diff"])))]
pub(super) struct CheckArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// The standard URLs are checked against; default: the configuration's, else rfc1738.
    #[arg(long, value_enum, value_name = "PROFILE", help_heading = "Rules")]
    pub profile: Option<Profile>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,
    /// Print one line per rule (count, rule, severity), most frequent first,
    /// instead of the findings.
    #[arg(long, help_heading = "Output")]
    pub statistics: bool,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Print the settings this run would use, as a urlint.toml, and exit.
    #[arg(long, help_heading = "Configuration")]
    pub show_settings: bool,
    /// Apply machine-applicable fixes in place, then report what remains
    /// (with `-`, the fixed stdin goes to stdout and the report to stderr).
    #[arg(long, help_heading = "Fixes")]
    pub fix: bool,
    /// Print a unified diff of what --fix would change, and write nothing;
    /// exit 1 when there is something to fix.
    #[arg(long, conflicts_with_all = ["fix", "statistics"], help_heading = "Fixes")]
    pub diff: bool,
    /// With --fix or --diff, apply suggestions too: fixes that change what
    /// a URL means or pick one reading of it.
    #[arg(long, requires = "rewrite", help_heading = "Fixes")]
    pub unsafe_fixes: bool,
}

/// Arguments of `fmt`.
#[derive(Debug, Args)]
pub(super) struct FmtArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// The line width, in columns, that URLs should not cross.
    #[arg(long, value_name = "COLUMNS", default_value_t = 72, value_parser = clap::value_parser!(u16).range(1..))]
    pub width: u16,
    /// Write nothing; list the files that would change and exit 1 if any would.
    #[arg(long)]
    pub check: bool,
    /// Print a unified diff of the changes and write nothing; exit 1 when a
    /// file would change.
    #[arg(long, conflicts_with = "check")]
    pub diff: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `extract`.
#[derive(Debug, Args)]
pub(super) struct ExtractArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// The standard URLs are checked against, for the `valid` field of JSON
    /// records; default: the configuration's, else rfc1738.
    #[arg(long, value_enum, value_name = "PROFILE", help_heading = "Rules")]
    pub profile: Option<Profile>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExtractFormat::Plain, help_heading = "Output")]
    pub format: ExtractFormat,
    /// Print each URL once, at its first occurrence.
    #[arg(long, help_heading = "Output")]
    pub unique: bool,
    /// Print each distinct URL once with its number of occurrences.
    #[arg(long, help_heading = "Output")]
    pub count: bool,
    /// Print the path before each URL: `PATH:URL`.
    #[arg(
        short = 'H',
        long,
        help_heading = "Output",
        conflicts_with_all = ["count", "vimgrep"]
    )]
    pub with_filename: bool,
    /// Print `PATH:LINE:COLUMN:URL` lines, as `rg --vimgrep` does (columns
    /// count characters).
    #[arg(long, help_heading = "Output", conflicts_with = "count")]
    pub vimgrep: bool,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `explain`.
#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    /// The rule to explain; without it, all rules are listed.
    #[arg(value_parser = RuleNameParser, hide_possible_values = true)]
    pub rule: Option<Rule>,
}

/// Arguments of `server`.
#[derive(Debug, Args)]
pub(super) struct ServerArgs {
    /// Speak over stdin and stdout: the only transport, accepted because
    /// language clients pass it.
    #[arg(long)]
    pub stdio: bool,
    /// The largest message the server reads; a larger one is refused with
    /// a log line (default: 64 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = crate::server::DEFAULT_MAX_MESSAGE_BYTES)]
    pub max_message_bytes: usize,
}

/// Arguments of `validate`.
#[derive(Debug, Args)]
pub(super) struct ValidateArgs {
    /// URLs to check; without any, URLs are read one per line from stdin.
    #[arg(value_parser = url_argument)]
    pub urls: Vec<String>,
    /// The standard URLs are checked against; default: the configuration's, else rfc1738.
    #[arg(long, value_enum, value_name = "PROFILE", help_heading = "Rules")]
    pub profile: Option<Profile>,
    /// No effect, kept for old scripts: a '#fragment' after the URL is always accepted.
    #[arg(long)]
    pub fragment: bool,
    /// Read placeholders as URL characters: no URL is read as a template
    /// (config: urls.templates = false).
    #[arg(long)]
    pub no_templates: bool,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `completions`.
#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// The shell to complete urlint's commands, options and rule names in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `man`.
#[derive(Debug, Args)]
pub(super) struct ManArgs {
    /// The directory to write the pages into (a `man1` directory on MANPATH).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// What `check` and `extract` read.
#[derive(Debug, Args)]
pub(super) struct InputArgs {
    /// Files and directories to read (`-` for stdin); default: the current directory.
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub walk: WalkArgs,
}

/// How directories are walked and inputs read.
#[derive(Debug, Args)]
#[command(next_help_heading = "Input")]
pub(super) struct WalkArgs {
    /// Also read files that .gitignore, .ignore and git excludes skip.
    #[arg(long)]
    pub no_ignore: bool,
    /// Also read hidden files and directories.
    #[arg(long)]
    pub hidden: bool,
    /// Only read walked files matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub glob: Vec<String>,
    /// Skip walked files and directories matching this glob (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Worker threads; 0, or the option left out: the number of CPUs.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16))]
    pub threads: Option<u16>,
    /// Read every input as this kind instead of detecting it from the
    /// configuration's [kinds] globs, the file extension (.md, .markdown,
    /// .mdown, .mkd; .rst, .rest; .html, .htm, .xhtml; .mbox, .mbx, .eml) or
    /// the content (mail; reStructuredText in a .txt file).
    #[arg(long, value_enum, value_name = "KIND", default_value_t = InputKind::Auto)]
    pub input: InputKind,
    /// Also look for URLs in code: Markdown code spans and code blocks,
    /// HTML code, pre, kbd, samp and tt elements, reStructuredText literal
    /// blocks, code directives, inline literals, interpreted text and
    /// comments.
    #[arg(long)]
    pub include_verbatim: bool,
    /// Read placeholders as URL characters: no URL is read as a template
    /// ({var}, {}, %s, ${VAR}, {{ x }}), and a regular expression holding
    /// a scheme is taken for a URL (config: urls.templates = false).
    #[arg(long)]
    pub no_templates: bool,
    /// Which header fields of mail messages are read for URLs; message
    /// texts are always read.
    #[arg(long, value_enum, value_name = "WHICH", default_value_t = HeaderUrls::None)]
    pub mail_headers: HeaderUrls,
    /// Bytes of a large input checked per window (testing aid).
    #[arg(long, hide = true, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_len: Option<u64>,
}

/// Which rules report and what fails the run.
#[derive(Debug, Default, Args)]
#[command(next_help_heading = "Rules")]
pub(super) struct RuleArgs {
    /// Report only these rules (comma-separated or repeated); selecting a rule
    /// that is off by default turns it on as a warning.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = RuleNameParser, hide_possible_values = true)]
    pub select: Vec<Rule>,
    /// Do not report these rules (comma-separated or repeated).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = RuleNameParser, hide_possible_values = true)]
    pub ignore: Vec<Rule>,
    /// Report these rules as warnings, whatever their level (comma-separated
    /// or repeated).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = RuleNameParser, hide_possible_values = true)]
    pub warn: Vec<Rule>,
    /// Fail (exit 1) on warnings too.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<DenyArg>,
    /// Exit 0 even when findings would fail the run; unreadable inputs and
    /// other trouble still exit 2.
    #[arg(long, conflicts_with = "deny")]
    pub exit_zero: bool,
}

impl RuleArgs {
    /// The rule choices these flags make, over the configuration's levels.
    pub(super) fn overrides(&self) -> RuleOverrides {
        RuleOverrides {
            select: self.select.clone(),
            warn: self.warn.clone(),
            ignore: self.ignore.clone(),
        }
    }
}

/// Where the report goes and what else is said on stderr.
#[derive(Debug, Args)]
#[command(next_help_heading = "Output")]
pub(super) struct OutputArgs {
    /// Write the report to FILE instead of stdout, without colour; FILE is
    /// replaced only once the report is complete.
    #[arg(long, value_name = "FILE")]
    pub output_file: Option<PathBuf>,
    /// When to colour output: `auto` colours when stdout is a terminal
    /// (and NO_COLOR is not set).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
}

/// Options every subcommand takes, before or after its name (`urlint -v
/// check` and `urlint check -v` are one run), as ruff and cargo take theirs.
#[derive(Debug, Args)]
#[command(next_help_heading = "Global options")]
pub(super) struct GlobalArgs {
    /// Read the configuration from this file instead of searching for
    /// urlint.toml (or pyproject.toml's [tool.urlint]) from the current
    /// directory upward.
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Ignore configuration files: use the defaults and the command line only.
    #[arg(long, global = true, conflicts_with = "config")]
    pub isolated: bool,
    /// Print findings only: no summary line, no progress.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say which configuration file is used, and what was skipped or
    /// decoded specially (binary files, invalid UTF-8).
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

/// What `--deny` can make fatal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum DenyArg {
    /// Warning-level findings.
    Warnings,
}

/// `--color` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ColorArg {
    /// Colour when stdout is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl Command {
    /// The subcommand's name, as typed.
    pub(super) fn name(&self) -> &'static str {
        match self {
            Command::Check(_) => "check",
            Command::Extract(_) => "extract",
            Command::Validate(_) => "validate",
            Command::Explain(_) => "explain",
            Command::Fmt(_) => "fmt",
            Command::Server(_) => "server",
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
        }
    }

    /// A combination of options that clap cannot express (it depends on a
    /// value, not on an option's presence), as a usage error message.
    pub(super) fn usage_conflict(&self) -> Option<String> {
        match self {
            Command::Check(args) if args.statistics => match args.format {
                Format::Human | Format::Short | Format::Json | Format::Jsonl => None,
                other @ (Format::Github | Format::Sarif) => Some(format!(
                    "--statistics cannot be used with --format {}: it prints counts, \
                     not the findings that format is made of",
                    value_name(&other)
                )),
            },
            Command::Extract(args) if args.with_filename || args.vimgrep => {
                let flag = if args.vimgrep {
                    "--vimgrep"
                } else {
                    "--with-filename"
                };
                (args.format != ExtractFormat::Plain).then(|| {
                    format!(
                        "{flag} cannot be used with --format {}: its records already name the file",
                        value_name(&args.format)
                    )
                })
            }
            _ => None,
        }
    }
}

/// A URL given to `validate`: an empty or blank argument (often a shell
/// variable that was never set) is a usage error, not "0 URLs, all valid".
fn url_argument(argument: &str) -> Result<String, String> {
    if argument.trim().is_empty() {
        Err("an empty argument is not a URL: give the URL to check, \
             or no argument to read URLs from stdin"
            .to_owned())
    } else {
        Ok(argument.to_owned())
    }
}

/// The name a value of a clap enum is spelled with on the command line.
fn value_name(value: &impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |value| value.get_name().to_owned())
}

/// Rule names: checked against the catalogue with a suggestion on a typo,
/// and offered to shell completion.
#[derive(Debug, Clone, Copy)]
struct RuleNameParser;

impl TypedValueParser for RuleNameParser {
    type Value = Rule;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<Rule, clap::Error> {
        StringValueParser::new()
            .try_map(|name| find_rule(&name))
            .parse_ref(cmd, arg, value)
    }

    /// The rule names, without their summaries: clap_complete's fish script
    /// breaks on the `"` in `unsafe-char`'s.
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            Rule::all().map(|rule| PossibleValue::new(rule.name())),
        ))
    }
}

/// `urlint 0.1.0 (rev 1a2b3c4d5e)`: the version, and the git revision when
/// the build could ask git for it (see build.rs).
fn short_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let version = env!("CARGO_PKG_VERSION");
        match option_env!("URLINT_BUILD_GIT_HASH") {
            Some(rev) => format!("{version} (rev {rev})"),
            None => version.to_owned(),
        }
    })
}

/// `--version`: the short version, then what this build checks and reads.
fn long_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let kinds: Vec<&str> = InputKind::ALL
            .into_iter()
            .filter(|kind| *kind != InputKind::Auto)
            .map(InputKind::name)
            .collect();
        let profiles: Vec<String> = Profile::ALL
            .iter()
            .map(|profile| match *profile == Profile::default() {
                true => format!("{profile} (default)"),
                false => profile.to_string(),
            })
            .collect();
        format!(
            "{}\nprofiles: {}\ninput kinds: {} (--input auto detects them)",
            short_version(),
            profiles.join(", "),
            kinds.join(", ")
        )
    })
}

const TOP_EXAMPLES: &str = "\
Examples:
  urlint check docs/                  Lint the URLs in a documentation tree
  urlint extract --unique notes.txt   List the URLs of a file, each once
  urlint validate 'http://host.example/~ann/'
  urlint explain unsafe-char          Why a rule exists, with examples";

const CHECK_EXAMPLES: &str = "\
Examples:
  urlint check docs/                         Lint a documentation tree
  urlint check --fix docs/                   Repair what is safe to repair, report the rest
  urlint check --statistics .                Count findings per rule
  urlint check --format github --exit-zero . Annotate a pull request without failing";

const EXTRACT_EXAMPLES: &str = "\
Examples:
  urlint extract --unique docs/              Every URL once, in order of first use
  urlint extract --vimgrep docs/             PATH:LINE:COLUMN:URL for an editor's quickfix list
  urlint extract --count list.mbox           How often each URL occurs in an archive
  urlint extract --mail-headers list --format jsonl list.mbox";

const VALIDATE_EXAMPLES: &str = "\
Examples:
  urlint validate 'http://host.example/~ann/'    Check one URL
  urlint validate --fragment 'http://h.example/a#top'
  urlint validate -q --format short < urls.txt   One URL per line, problems only";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  urlint explain                  The table of all rules and their levels
  urlint explain unsafe-char      One rule: what it checks, why, a bad and a good example";

const FMT_EXAMPLES: &str = "\
Examples:
  urlint fmt draft.txt                   Wrap its long URLs in <URL:...> at 72 columns
  urlint fmt --width 64 --diff docs/     Show what would change, write nothing
  urlint fmt --check .                   Exit 1 when a file would change (for CI)";

const SERVER_EXAMPLES: &str = "\
Examples:
  urlint server                  Started by an editor: the protocol on stdin and stdout
  urlint server --stdio          The same, as VS Code's language clients start servers";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  urlint completions bash > ~/.local/share/bash-completion/completions/urlint
  urlint completions zsh > ~/.zfunc/_urlint
  urlint completions fish > ~/.config/fish/completions/urlint.fish";

const MAN_EXAMPLES: &str = "\
Examples:
  urlint man ~/.cargo/share/man/man1           For one user; then: man urlint-check
  sudo urlint man /usr/local/share/man/man1    For everyone on the machine";

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn rule_lists_accept_commas_and_repeats() {
        let cli = Cli::try_parse_from([
            "urlint",
            "check",
            "--select",
            "unsafe-char,bad-port",
            "--select",
            "bare-url",
            "--deny",
            "warnings",
            "docs",
        ])
        .expect("valid command line");
        let Command::Check(args) = cli.command else {
            panic!("parsed as another command");
        };
        assert_eq!(
            args.rules.select,
            [Rule::UnsafeChar, Rule::BadPort, Rule::BareUrl]
        );
        assert_eq!(args.rules.deny, [DenyArg::Warnings]);
        assert_eq!(args.inputs.paths, [PathBuf::from("docs")]);
    }

    #[test]
    fn unknown_rule_is_a_usage_error_with_a_suggestion() {
        let err = Cli::try_parse_from(["urlint", "check", "--ignore", "unsafe-chr"])
            .expect_err("unknown rule");
        assert!(
            err.to_string().contains("did you mean 'unsafe-char'?"),
            "{err}"
        );
    }

    /// The `urlint ...` command lines of every help text's examples: from
    /// `urlint` to the end of the line, a `|`, a `<`, or two spaces before
    /// the description.
    fn example_command_lines(command: &clap::Command) -> Vec<String> {
        let help = command
            .get_after_help()
            .map(ToString::to_string)
            .unwrap_or_default();
        help.lines()
            .filter_map(|line| line.find("urlint ").map(|at| &line[at..]))
            .map(|line| {
                let end = ["  ", " |", " <", " >"]
                    .iter()
                    .filter_map(|stop| line.find(stop))
                    .min()
                    .unwrap_or(line.len());
                line[..end].to_owned()
            })
            .collect()
    }

    #[test]
    fn every_help_ends_with_examples_that_parse() {
        let top = Cli::command();
        let mut commands = vec![top.clone()];
        commands.extend(top.get_subcommands().cloned());
        for command in commands {
            let examples = example_command_lines(&command);
            assert!(
                (2..=4).contains(&examples.len()),
                "{}: {examples:?}",
                command.get_name()
            );
            for example in examples {
                let words = example
                    .split_whitespace()
                    .map(|word| word.trim_matches('\''));
                let parsed = Cli::try_parse_from(words);
                let parsed = parsed.map_err(|err| err.to_string());
                assert!(parsed.is_ok(), "{example}: {parsed:?}");
                let conflict = parsed.ok().and_then(|cli| cli.command.usage_conflict());
                assert_eq!(conflict, None, "{example}");
            }
        }
    }

    #[test]
    fn command_names_are_the_subcommands() {
        let top = Cli::command();
        for name in [
            "check",
            "extract",
            "validate",
            "explain",
            "completions",
            "man",
        ] {
            let parsed = match name {
                "completions" => Cli::try_parse_from(["urlint", name, "bash"]),
                "man" => Cli::try_parse_from(["urlint", name, "dir"]),
                _ => Cli::try_parse_from(["urlint", name]),
            };
            let parsed = parsed.expect("parses");
            assert_eq!(parsed.command.name(), name);
            assert!(top.find_subcommand(name).is_some(), "{name}");
        }
    }

    #[test]
    fn statistics_and_file_prefixes_refuse_formats_they_cannot_change() {
        let conflict = |args: &[&str]| {
            let cli = Cli::try_parse_from(args).expect("parses");
            cli.command.usage_conflict()
        };
        assert_eq!(conflict(&["urlint", "check", "--statistics"]), None);
        let sarif = conflict(&["urlint", "check", "--statistics", "--format", "sarif"]);
        assert!(sarif.is_some_and(|message| message.contains("--format sarif")));
        let json = conflict(&["urlint", "extract", "-H", "--format", "json"]);
        assert!(json.is_some_and(|message| message.starts_with("--with-filename")));
        assert_eq!(conflict(&["urlint", "extract", "--vimgrep"]), None);
    }
}
