//! The command line, as clap definitions. Parsing only: the `commands`
//! module carries the commands out.

use std::path::PathBuf;

use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};

use crate::input::InputKind;
use crate::lint::RuleOverrides;
use crate::profile::Profile;
use crate::report::{ExtractFormat, Format};
use crate::rules::{find_rule, Rule};

/// Find URLs in free text and lint them strictly against RFC 1738 (or RFC 3986).
#[derive(Debug, Parser)]
#[command(name = "urlint", version, about, max_term_width = 100)]
pub(super) struct Cli {
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

/// The subcommands: what a run does.
#[derive(Debug, Subcommand)]
pub(super) enum Command {
    /// Lint the URLs in files; exit 1 when an error-level finding exists.
    Check(CheckArgs),
    /// Print the URLs found in files.
    Extract(ExtractArgs),
    /// Show a rule's documentation, or list all rules.
    Explain(ExplainArgs),
    /// Check URLs given as arguments, or one per line on stdin.
    Validate(ValidateArgs),
    /// Wrap long URLs in plain-text files the RFC 1738 Appendix way.
    Fmt(FmtArgs),
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
    /// Apply machine-applicable fixes in place, then report what remains
    /// (`-` writes the fixed stdin to stdout and the report to stderr).
    #[arg(long, help_heading = "Fixes")]
    pub fix: bool,
    /// Print a unified diff of what --fix would change, and write nothing;
    /// exit 1 when there is something to fix.
    #[arg(long, conflicts_with = "fix", help_heading = "Fixes")]
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
}

/// Arguments of `explain`.
#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    /// The rule to explain; without it, all rules are listed.
    pub rule: Option<String>,
}

/// Arguments of `validate`.
#[derive(Debug, Args)]
pub(super) struct ValidateArgs {
    /// URLs to check; without any, URLs are read one per line from stdin.
    pub urls: Vec<String>,
    /// The standard URLs are checked against; default: the configuration's, else rfc1738.
    #[arg(long, value_enum, value_name = "PROFILE", help_heading = "Rules")]
    pub profile: Option<Profile>,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human, help_heading = "Output")]
    pub format: Format,
    /// No effect, kept for old scripts: a '#fragment' after the URL is always accepted.
    #[arg(long)]
    pub fragment: bool,
}

/// What `check` and `extract` read.
#[derive(Debug, Args)]
pub(super) struct InputArgs {
    /// Files and directories to read (`-` for stdin); default: the current directory.
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub walk: WalkArgs,
}

/// How directories are walked.
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
    /// Worker threads; default: the number of CPUs.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Read every input as this kind instead of detecting it from the file
    /// extension (.mbox, .mbx, .eml) or the content.
    #[arg(long, value_enum, value_name = "KIND", default_value_t = InputKind::Auto)]
    pub input: InputKind,
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
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = find_rule)]
    pub select: Vec<Rule>,
    /// Do not report these rules (comma-separated or repeated).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = find_rule)]
    pub ignore: Vec<Rule>,
    /// Report these rules as warnings, whatever their level (comma-separated
    /// or repeated).
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = find_rule)]
    pub warn: Vec<Rule>,
    /// Fail (exit 1) on warnings too.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub deny: Vec<DenyArg>,
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
}
