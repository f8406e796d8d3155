//! Carrying out a parsed command line: read inputs in parallel, lint them,
//! hand the results to a reporter in input order, and decide the exit status.

use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;

use codespan_reporting::term::termcolor::{BufferedStandardStream, ColorChoice, WriteColor};

use crate::cli::{
    CheckArgs, Cli, ColorArg, Command, DenyArg, ExplainArgs, ExtractArgs, RuleArgs, ValidateArgs,
    WalkArgs,
};
use crate::input::{self, Input, InputError, Note, Origin, Source};
use crate::lint::{self, Finding, LintOptions, RuleLevels, UrlReport};
use crate::parallel;
use crate::report::{self, explain, Checked, ExtractOptions, HumanOptions, Reporter, Totals};
use crate::rules::{Level, Rule};
use crate::scan::{Form, Found, Segment};
use crate::span::{LineIndex, Span};
use crate::validate::{self, ValidateOptions};

/// How a run ended, as the process exit code tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// Nothing failing was found (exit 0).
    Clean,
    /// Error-level findings, or warnings under `--deny warnings` (exit 1).
    Findings,
    /// A usage, I/O or internal error (exit 2); takes precedence over findings.
    Trouble,
}

impl ExitStatus {
    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Clean => 0,
            ExitStatus::Findings => 1,
            ExitStatus::Trouble => 2,
        }
    }
}

/// Run a parsed command line and report how it ended.
pub fn run(cli: Cli) -> ExitStatus {
    let interactive = io::stdout().is_terminal();
    let mut run = Run {
        verbose: cli.verbose,
        interactive,
        trouble: false,
    };
    let mut out = BufferedStandardStream::stdout(color_choice(cli.color, interactive));
    let result = match cli.command {
        Command::Check(args) => run.check(&mut out, args),
        Command::Extract(args) => run.extract(&mut out, args),
        Command::Validate(args) => run.validate(&mut out, args),
        Command::Explain(args) => run.explain(&mut out, args),
    };
    let result = result.and_then(|failed| out.flush().map(|()| failed));
    match result {
        Ok(_) if run.trouble => ExitStatus::Trouble,
        Ok(true) => ExitStatus::Findings,
        Ok(false) => ExitStatus::Clean,
        // A closed pipe (`urlint extract | head`) means the reader has what it wanted.
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitStatus::Clean,
        Err(err) => {
            eprintln!("urlint: cannot write output: {err}");
            ExitStatus::Trouble
        }
    }
}

/// Whether to colour: `auto` colours only a terminal, and termcolor's `Auto`
/// then still honours NO_COLOR and TERM=dumb.
pub fn color_choice(color: ColorArg, is_terminal: bool) -> ColorChoice {
    match color {
        ColorArg::Always => ColorChoice::Always,
        ColorArg::Never => ColorChoice::Never,
        ColorArg::Auto if is_terminal => ColorChoice::Auto,
        ColorArg::Auto => ColorChoice::Never,
    }
}

/// Rule levels from `--select` and `--ignore`.
pub fn rule_levels(select: &[Rule], ignore: &[Rule]) -> RuleLevels {
    let mut levels = RuleLevels::default();
    if !select.is_empty() {
        for rule in Rule::all() {
            if !select.contains(&rule) {
                levels.set(rule, Level::Off);
            } else if rule.info().default_level == Level::Off {
                levels.set(rule, Level::Warning);
            }
        }
    }
    for &rule in ignore {
        levels.set(rule, Level::Off);
    }
    levels
}

/// True when the totals fail the run under the given `--deny` list.
fn fails(totals: &Totals, rules: &RuleArgs) -> bool {
    totals.errors > 0 || (rules.deny.contains(&DenyArg::Warnings) && totals.warnings > 0)
}

/// What one input became in a worker thread.
struct Processed {
    checked: Vec<Checked>,
    notes: Vec<Note>,
    errors: Vec<InputError>,
}

/// Per-run state: what to tell on stderr, and whether something went wrong.
struct Run {
    /// Print notes on stderr.
    verbose: bool,
    /// Stdout is a terminal: flush after each source so output keeps pace.
    interactive: bool,
    /// An input or usage error happened; the run exits 2.
    trouble: bool,
}

impl Run {
    /// `urlint check`: returns whether findings fail the run.
    fn check(&mut self, out: &mut dyn WriteColor, args: CheckArgs) -> io::Result<bool> {
        let options = LintOptions {
            levels: rule_levels(&args.rules.select, &args.rules.ignore),
            ..LintOptions::default()
        };
        let mut reporter =
            report::diagnostics_reporter(args.format.into(), HumanOptions::default());
        let totals = self.lint_paths(out, &args.paths, &args.walk, &options, reporter.as_mut())?;
        Ok(fails(&totals, &args.rules))
    }

    /// `urlint extract`: never fails on findings.
    fn extract(&mut self, out: &mut dyn WriteColor, args: ExtractArgs) -> io::Result<bool> {
        let mut reporter = report::extract_reporter(ExtractOptions {
            format: args.format.into(),
            unique: args.unique,
            count: args.count,
        });
        self.lint_paths(
            out,
            &args.paths,
            &args.walk,
            &LintOptions::default(),
            reporter.as_mut(),
        )?;
        Ok(false)
    }

    /// `urlint validate`: one URL per argument or per stdin line.
    fn validate(&mut self, out: &mut dyn WriteColor, args: ValidateArgs) -> io::Result<bool> {
        let source = if args.urls.is_empty() {
            let loaded = match Input::Stdin.read() {
                Ok(loaded) => loaded,
                Err(err) => {
                    self.error(&err);
                    return Ok(false);
                }
            };
            self.notes(&loaded.notes);
            loaded.sources.into_iter().next()
        } else {
            Some(Source::new(Origin::Arguments, args.urls.join("\n")))
        };
        let levels = rule_levels(&args.rules.select, &args.rules.ignore);
        let options = ValidateOptions {
            fragment_allowed: args.fragment,
            extra_schemes: Vec::new(),
        };
        let human = HumanOptions { verdicts: true };
        let mut reporter = report::diagnostics_reporter(args.format.into(), human);
        let mut totals = Totals::default();
        if let Some(source) = source {
            let validated = panic::catch_unwind(AssertUnwindSafe(|| {
                validate_lines(&source.text, &options, &levels)
            }));
            match validated {
                Ok(reports) => {
                    let checked = Checked::new(source, reports);
                    totals.add(&checked);
                    reporter.source(out, &checked)?;
                }
                Err(_) => self.error(&panicked(source.name)),
            }
        }
        reporter.finish(out, &totals)?;
        Ok(fails(&totals, &args.rules))
    }

    /// `urlint explain [RULE]`.
    fn explain(&mut self, out: &mut dyn WriteColor, args: ExplainArgs) -> io::Result<bool> {
        match args.rule {
            None => out.write_all(explain::rule_table().as_bytes())?,
            Some(name) => match explain::find_rule(&name) {
                Ok(rule) => out.write_all(explain::rule_entry(rule.info()).as_bytes())?,
                Err(message) => {
                    eprintln!("urlint: {message}");
                    self.trouble = true;
                }
            },
        }
        Ok(false)
    }

    /// Expand `paths`, lint every input in parallel, report in input order.
    fn lint_paths(
        &mut self,
        out: &mut dyn WriteColor,
        paths: &[PathBuf],
        walk: &WalkArgs,
        options: &LintOptions,
        reporter: &mut dyn Reporter,
    ) -> io::Result<Totals> {
        let threads = walk
            .threads
            .map(usize::from)
            .or_else(|| std::thread::available_parallelism().ok().map(Into::into))
            .unwrap_or(1);
        let walk_options = input::WalkOptions {
            no_ignore: walk.no_ignore,
            hidden: walk.hidden,
            globs: walk.glob.clone(),
            excludes: walk.exclude.clone(),
            threads,
        };
        let (inputs, errors) = input::collect_inputs(paths, &walk_options);
        errors.iter().for_each(|err| self.error(err));
        let mut totals = Totals::default();
        parallel::for_each_ordered(
            &inputs,
            threads,
            |input| process(input, options),
            |processed| {
                self.notes(&processed.notes);
                processed.errors.iter().for_each(|err| self.error(err));
                for checked in &processed.checked {
                    totals.add(checked);
                    reporter.source(out, checked)?;
                }
                if self.interactive {
                    out.flush()?;
                }
                Ok::<(), io::Error>(())
            },
        )?;
        reporter.finish(out, &totals)?;
        Ok(totals)
    }

    /// Report an input error on stderr; the run goes on and exits 2.
    fn error(&mut self, err: &InputError) {
        eprintln!("urlint: {err}");
        self.trouble = true;
    }

    /// Print notes on stderr in verbose mode.
    fn notes(&self, notes: &[Note]) {
        if self.verbose {
            for note in notes {
                eprintln!("urlint: note: {note}");
            }
        }
    }
}

/// Read and lint one input (in a worker thread).
///
/// A panic while linting is caught and reported as an internal error for
/// that input, so that one bad file does not stop the run.
fn process(input: &Input, options: &LintOptions) -> Processed {
    let loaded = match input.read() {
        Ok(loaded) => loaded,
        Err(err) => {
            return Processed {
                checked: Vec::new(),
                notes: Vec::new(),
                errors: vec![err],
            }
        }
    };
    let mut checked = Vec::new();
    let mut errors = Vec::new();
    for source in loaded.sources {
        let linted = panic::catch_unwind(AssertUnwindSafe(|| {
            lint::lint(&source.text, options).collect::<Vec<_>>()
        }));
        match linted {
            Ok(reports) => checked.push(Checked::new(source, reports)),
            Err(_) => errors.push(panicked(source.name)),
        }
    }
    Processed {
        checked,
        notes: loaded.notes,
        errors,
    }
}

/// The error reported when linting `name` panicked (the panic message itself
/// is already on stderr, from the default hook).
fn panicked(name: String) -> InputError {
    InputError {
        name,
        action: "internal error",
        cause: "urlint panicked on this input; please report it".to_string(),
    }
}

/// Validate each non-blank line of `text` as one URL, placed at its line.
fn validate_lines(text: &str, options: &ValidateOptions, levels: &RuleLevels) -> Vec<UrlReport> {
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
            Some(validate_url(
                url,
                Span::new(offset, offset + url.len()),
                options,
                levels,
            ))
        })
        .collect()
}

/// Validate one URL found at `span` and apply the configured rule levels.
fn validate_url(
    url: &str,
    span: Span,
    options: &ValidateOptions,
    levels: &RuleLevels,
) -> UrlReport {
    let found = Found {
        url: url.to_string(),
        form: Form::Bare,
        outer: span,
        segments: vec![Segment {
            source: span,
            url_start: 0,
        }],
        alternatives: Vec::new(),
        diagnostics: Vec::new(),
    };
    let findings = validate::validate(url, options)
        .into_iter()
        .filter_map(|mut diagnostic| {
            diagnostic.severity = levels.level(diagnostic.rule).severity()?;
            Some(Finding {
                url_span: Some(diagnostic.span),
                source_spans: found.source_spans(diagnostic.span),
                diagnostic,
            })
        })
        .collect();
    UrlReport { found, findings }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_turns_off_the_rest_and_on_what_is_off() {
        let levels = rule_levels(&[Rule::BareUrl, Rule::UnsafeChar], &[]);
        assert_eq!(levels.level(Rule::BareUrl), Level::Warning);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Error);
        assert_eq!(levels.level(Rule::BadPort), Level::Off);
        let levels = rule_levels(&[], &[Rule::HyphenBreak]);
        assert_eq!(levels.level(Rule::HyphenBreak), Level::Off);
        assert_eq!(levels.level(Rule::BadPort), Level::Error);
    }

    #[test]
    fn deny_warnings_fails_on_warnings_only_when_asked() {
        let warnings_only = Totals {
            files: 1,
            urls: 1,
            errors: 0,
            warnings: 2,
        };
        let mut rules = RuleArgs {
            select: Vec::new(),
            ignore: Vec::new(),
            deny: Vec::new(),
        };
        assert!(!fails(&warnings_only, &rules));
        rules.deny.push(DenyArg::Warnings);
        assert!(fails(&warnings_only, &rules));
    }

    #[test]
    fn auto_colour_needs_a_terminal() {
        assert_eq!(color_choice(ColorArg::Auto, false), ColorChoice::Never);
        assert_eq!(color_choice(ColorArg::Auto, true), ColorChoice::Auto);
        assert_eq!(color_choice(ColorArg::Always, false), ColorChoice::Always);
        assert_eq!(color_choice(ColorArg::Never, true), ColorChoice::Never);
    }

    #[test]
    fn validate_places_each_url_at_its_line() {
        let text = "http://a.example/\n\n  ftp://b.example/x  \r\n";
        let reports = validate_lines(text, &ValidateOptions::default(), &RuleLevels::default());
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
