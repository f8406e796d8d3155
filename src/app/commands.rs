//! Carrying out a parsed command line: the configuration found, one
//! function per subcommand, the outcome turned into an exit status.

use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};

use codespan_reporting::term::termcolor::{BufferedStandardStream, WriteColor};

use super::cli::{
    CheckArgs, Cli, Command, DenyArg, ExplainArgs, ExtractArgs, RuleArgs, ValidateArgs,
};
use super::driver::{self, Console, Named};
use super::output::{color_choice, say, OutputBuffer};
use super::status::{ExitStatus, Outcome};
use crate::checked::Checked;
use crate::config::Config;
use crate::input::{panicked, Input};
use crate::lint::{self, LintOptions, Linted, RuleLevels, UrlReport};
use crate::report::{self, explain, ExtractOptions, HumanOptions, Totals};
use crate::rules::find_rule;
use crate::scan::{Form, Found};
use crate::source::{Origin, Source};
use crate::span::{LineIndex, Span};

/// Run a parsed command line and report how it ended.
pub(super) fn run(cli: Cli) -> ExitStatus {
    let interactive = io::stdout().is_terminal();
    // `explain` documents the defaults and must work even beside a broken file.
    let config = match cli.command {
        Command::Explain(_) => Ok(Config::default()),
        _ => Config::for_run(cli.config.as_deref(), cli.isolated),
    };
    let config = match config {
        Ok(config) => config,
        Err(err) => {
            say(format_args!("{err}"));
            return ExitStatus::Trouble;
        }
    };
    let console = Console {
        verbose: cli.verbose,
        interactive,
    };
    let mut out = OutputBuffer::new(BufferedStandardStream::stdout(color_choice(
        cli.color,
        interactive,
    )));
    let mut outcome = match cli.command {
        Command::Check(args) => check(&mut out, console, &config, args),
        Command::Extract(args) => extract(&mut out, console, &config, args),
        Command::Validate(args) => validate(&mut out, console, &config, args),
        Command::Explain(args) => explain(&mut out, args),
    };
    outcome.output = outcome.output.and_then(|()| out.flush());
    outcome.status()
}

/// True when the totals fail the run under the given `--deny` list.
fn fails(totals: &Totals, rules: &RuleArgs) -> bool {
    totals.errors > 0 || (rules.deny.contains(&DenyArg::Warnings) && totals.warnings > 0)
}

/// The rule levels of a run: the configuration's, then the flags'.
fn levels(config: &Config, rules: &RuleArgs) -> RuleLevels {
    config.levels().overridden(&rules.overrides())
}

/// `urlint check`: fails on findings.
fn check(out: &mut dyn WriteColor, console: Console, config: &Config, args: CheckArgs) -> Outcome {
    let options = config.lint_options(levels(config, &args.rules), args.profile);
    let mut reporter = report::diagnostics_reporter(args.format, HumanOptions::default());
    let linted = driver::lint_inputs(
        out,
        reporter.as_mut(),
        console,
        config,
        &options,
        &args.inputs,
    );
    Outcome {
        failing: fails(&linted.totals, &args.rules),
        trouble: linted.trouble,
        output: linted.output,
    }
}

/// `urlint extract`: never fails on findings.
fn extract(
    out: &mut dyn WriteColor,
    console: Console,
    config: &Config,
    args: ExtractArgs,
) -> Outcome {
    let mut reporter = report::extract_reporter(ExtractOptions {
        format: args.format,
        unique: args.unique,
        count: args.count,
    });
    // The file's schemes and URL excludes decide what is a URL worth
    // listing; its levels and the profile decide whether a URL is valid.
    let options = config.lint_options(config.levels(), args.profile);
    let linted = driver::lint_inputs(
        out,
        reporter.as_mut(),
        console,
        config,
        &options,
        &args.inputs,
    );
    Outcome {
        failing: false,
        trouble: linted.trouble,
        output: linted.output,
    }
}

/// `urlint validate`: one URL per argument or per stdin line, linted as
/// `check` lints a URL it found, configuration included.
fn validate(
    out: &mut dyn WriteColor,
    console: Console,
    config: &Config,
    args: ValidateArgs,
) -> Outcome {
    let source = if args.urls.is_empty() {
        let loaded = match Input::Stdin.read() {
            Ok(loaded) => loaded,
            Err(err) => {
                say(format_args!("{err}"));
                return Outcome::trouble();
            }
        };
        let named = Named::new(&["-".into()]);
        loaded
            .notes
            .iter()
            .for_each(|note| named.tell(console, note));
        loaded.sources.into_iter().next()
    } else {
        Some(Source::new(Origin::Arguments, args.urls.join("\n")))
    };
    let options = config.lint_options(levels(config, &args.rules), args.profile);
    let human = HumanOptions { verdicts: true };
    let mut reporter = report::diagnostics_reporter(args.format, human);
    let mut totals = Totals::default();
    let mut trouble = false;
    let mut output = Ok(());
    if let Some(source) = source {
        let validated =
            panic::catch_unwind(AssertUnwindSafe(|| lint_lines(&source.text, &options)));
        match validated {
            Ok(reports) => {
                let checked = Checked::new(source, reports.into_iter().map(Linted::Url));
                totals.add(&checked);
                output = reporter.source(out, &checked);
            }
            Err(_) => {
                say(format_args!("{}", panicked(source.name)));
                trouble = true;
            }
        }
    }
    let output = output.and_then(|()| reporter.finish(out, &totals));
    Outcome {
        failing: fails(&totals, &args.rules),
        trouble,
        output,
    }
}

/// `urlint explain [RULE]`.
fn explain(out: &mut dyn WriteColor, args: ExplainArgs) -> Outcome {
    let text = match args.rule {
        None => explain::rule_table(),
        Some(name) => match find_rule(&name) {
            Ok(rule) => explain::rule_entry(rule.info()),
            Err(message) => {
                say(format_args!("{message}"));
                return Outcome::trouble();
            }
        },
    };
    Outcome {
        failing: false,
        trouble: false,
        output: out.write_all(text.as_bytes()),
    }
}

/// Lint each non-blank line of `text` as one URL, placed at its line.
fn lint_lines(text: &str, options: &LintOptions) -> Vec<UrlReport> {
    let index = LineIndex::new(text);
    let starts = index.line_starts();
    starts
        .iter()
        .enumerate()
        .filter_map(|(line, &start)| {
            let end = starts.get(line + 1).copied().unwrap_or(text.len());
            let raw = text.get(start..end)?;
            let url = raw.trim();
            if url.is_empty() {
                return None;
            }
            let offset = start + (raw.len() - raw.trim_start().len());
            let found = Found::unbroken(url, Form::Bare, Span::new(offset, offset + url.len()));
            lint::lint_url(found, options)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deny_warnings_fails_on_warnings_only_when_asked() {
        let warnings_only = Totals {
            files: 1,
            urls: 1,
            errors: 0,
            warnings: 2,
        };
        let mut rules = RuleArgs::default();
        assert!(!fails(&warnings_only, &rules));
        rules.deny.push(DenyArg::Warnings);
        assert!(fails(&warnings_only, &rules));
    }

    #[test]
    fn validate_places_each_url_at_its_line() {
        let text = "http://a.example/\n\n  ftp://b.example/x  \r\n";
        let reports = lint_lines(text, &LintOptions::default());
        let placed: Vec<(&str, Span)> = reports
            .iter()
            .map(|report| (report.found.url.as_str(), report.found.outer))
            .collect();
        assert_eq!(
            placed,
            [
                ("http://a.example/", Span::new(0, 17)),
                ("ftp://b.example/x", Span::new(21, 38)),
            ]
        );
    }
}
