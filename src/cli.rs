//! The command line, as clap definitions. Parsing only: [`crate::run`]
//! carries the commands out.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::mail::MailKind;
use crate::report::{self, ExtractFormat};
use crate::rules::Rule;
use crate::stream::InputKind;

/// Find URLs in free text and lint them strictly against RFC 1738.
#[derive(Debug, Parser)]
#[command(name = "urlint", version, about, max_term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// When to colour output: `auto` colours when stdout is a terminal
    /// (and NO_COLOR is not set).
    #[arg(long, global = true, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// Explain what was skipped or decoded specially (binary files, invalid UTF-8).
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Read the configuration from this file instead of searching for
    /// urlint.toml (or pyproject.toml's [tool.urlint]) from the current
    /// directory upward.
    #[arg(
        long,
        global = true,
        value_name = "PATH",
        help_heading = "Configuration"
    )]
    pub config: Option<PathBuf>,
    /// Ignore configuration files: use the defaults and the command line only.
    #[arg(
        long,
        global = true,
        conflicts_with = "config",
        help_heading = "Configuration"
    )]
    pub isolated: bool,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Lint the URLs in files; exit 1 when an error-level finding exists.
    Check(CheckArgs),
    /// Print the URLs found in files.
    Extract(ExtractArgs),
    /// Show a rule's documentation, or list all rules.
    Explain(ExplainArgs),
    /// Check URLs given as arguments, or one per line on stdin.
    Validate(ValidateArgs),
}

/// Arguments of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Files and directories to read (`-` for stdin); default: the current directory.
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub walk: WalkArgs,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human, help_heading = "Output")]
    pub format: FormatArg,
}

/// Arguments of `extract`.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Files and directories to read (`-` for stdin); default: the current directory.
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub walk: WalkArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ExtractFormatArg::Plain, help_heading = "Output")]
    pub format: ExtractFormatArg,
    /// Print each URL once, at its first occurrence.
    #[arg(long, help_heading = "Output")]
    pub unique: bool,
    /// Print each distinct URL once with its number of occurrences.
    #[arg(long, help_heading = "Output")]
    pub count: bool,
}

/// Arguments of `explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The rule to explain; without it, all rules are listed.
    pub rule: Option<String>,
}

/// Arguments of `validate`.
#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// URLs to check; without any, URLs are read one per line from stdin.
    pub urls: Vec<String>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human, help_heading = "Output")]
    pub format: FormatArg,
    /// No effect, kept for old scripts: a '#fragment' after the URL is always accepted.
    #[arg(long)]
    pub fragment: bool,
}

/// How directories are walked.
#[derive(Debug, Args)]
#[command(next_help_heading = "Input")]
pub struct WalkArgs {
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
    /// Worker threads; default: the number of CPUs.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Read every input as this kind instead of detecting it from the file
    /// extension (.mbox, .mbx, .eml) or the content.
    #[arg(long, value_enum, value_name = "KIND", default_value_t = InputArg::Auto)]
    pub input: InputArg,
    /// Bytes of a large input checked per window (testing aid).
    #[arg(long, hide = true, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_len: Option<u64>,
}

/// `--input` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputArg {
    /// Detect from the file extension, then the content.
    Auto,
    /// Free text.
    Text,
    /// An mbox archive (messages opened by `From ` lines).
    Mbox,
    /// One RFC 5322 message.
    Eml,
}

impl From<InputArg> for Option<InputKind> {
    fn from(input: InputArg) -> Self {
        match input {
            InputArg::Auto => None,
            InputArg::Text => Some(InputKind::Text),
            InputArg::Mbox => Some(InputKind::Mail(MailKind::Mbox)),
            InputArg::Eml => Some(InputKind::Mail(MailKind::Eml)),
        }
    }
}

/// Which rules report and what fails the run.
#[derive(Debug, Args)]
#[command(next_help_heading = "Rules")]
pub struct RuleArgs {
    /// Report only these rules (comma-separated or repeated); selecting a rule
    /// that is off by default turns it on as a warning.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = parse_rule)]
    pub select: Vec<Rule>,
    /// Do not report these rules (comma-separated or repeated).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = parse_rule)]
    pub ignore: Vec<Rule>,
    /// Report these rules as warnings, whatever their level (comma-separated
    /// or repeated).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = parse_rule)]
    pub warn: Vec<Rule>,
    /// Fail (exit 1) on warnings too.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<DenyArg>,
}

/// What `--deny` can make fatal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DenyArg {
    /// Warning-level findings.
    Warnings,
}

/// `--color` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// Colour when stdout is a terminal.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// `--format` values of `check` and `validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Compiler-style diagnostics with source excerpts and a summary.
    Human,
    /// `path:line:col: severity[rule]: message`
    Short,
    /// One JSON document.
    Json,
    /// One JSON object per finding, then a summary object.
    Jsonl,
    /// GitHub Actions annotations.
    Github,
    /// A SARIF 2.1.0 log, for code-scanning dashboards.
    Sarif,
}

impl From<FormatArg> for report::Format {
    fn from(format: FormatArg) -> Self {
        match format {
            FormatArg::Human => report::Format::Human,
            FormatArg::Short => report::Format::Short,
            FormatArg::Json => report::Format::Json,
            FormatArg::Jsonl => report::Format::Jsonl,
            FormatArg::Github => report::Format::Github,
            FormatArg::Sarif => report::Format::Sarif,
        }
    }
}

/// `--format` values of `extract`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExtractFormatArg {
    /// One URL per line.
    Plain,
    /// One JSON object per URL per line.
    Jsonl,
    /// One JSON array.
    Json,
}

impl From<ExtractFormatArg> for ExtractFormat {
    fn from(format: ExtractFormatArg) -> Self {
        match format {
            ExtractFormatArg::Plain => ExtractFormat::Plain,
            ExtractFormatArg::Jsonl => ExtractFormat::Jsonl,
            ExtractFormatArg::Json => ExtractFormat::Json,
        }
    }
}

/// Parse a rule name, suggesting the closest one on a typo.
fn parse_rule(name: &str) -> Result<Rule, String> {
    report::explain::find_rule(name)
}

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
        assert_eq!(args.paths, [PathBuf::from("docs")]);
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
}
