//! Carrying out a parsed command line: the configuration found, one
//! function per subcommand, the outcome turned into an exit status.

use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use codespan_reporting::term::termcolor::{
    BufferedStandardStream, ColorChoice, NoColor, WriteColor,
};

use super::cli::{
    CheckArgs, Cli, Command, DenyArg, ExplainArgs, ExtractArgs, GlobalArgs, InputArgs, OutputArgs,
    RuleArgs, ValidateArgs,
};
use super::driver::{self, Console, Named, ProfileHint, RunGlobs, Written};
use super::manual;
use super::output::{color_choice, say, stdout_unusable, OutputBuffer, ReportFile};
use super::rewriting::{self, RewriteRun};
use super::status::{ExitStatus, Outcome};
use crate::checked::{Base, Checked, Frame};
use crate::config::Config;
use crate::input::{panicked, Batch, LineBatch, LineBatches};
use crate::lint::{self, LintOptions, Linted, RuleLevels};
use crate::profile::Profile;
use crate::report::{
    self, explain, ExtractFormat, ExtractOptions, HumanOptions, PlainPrefix, Reporter, Totals,
};
use crate::server::{self, Ended};
use crate::source::{Origin, Source};

/// Run a parsed command line and report how it ended.
pub(super) fn run(cli: Cli) -> ExitStatus {
    let global = &cli.global;
    match cli.command {
        Command::Check(args) => reported(global, &args.output, Some(&args.inputs), |run| {
            check(run, &args)
        }),
        Command::Extract(args) => reported(global, &args.output, Some(&args.inputs), |run| {
            extract(run, &args)
        }),
        Command::Validate(args) => reported(global, &args.output, None, |run| validate(run, &args)),
        Command::Explain(args) => to_stdout(|out| explain(out, &args)),
        Command::Fmt(args) => reported(global, &args.output, Some(&args.inputs), |run| {
            let rewrite = run.rewrite();
            rewriting::fmt(rewrite, &args)
        }),
        Command::Server(args) => serve(args.max_message_bytes),
        Command::Completions(args) => to_stdout(|out| manual::completions(out, args.shell)),
        Command::Man(args) => to_stdout(|out| manual::man_pages(out, &args.dir)),
    }
}

/// What a reporting command works with.
struct CommandRun<'r> {
    /// Where the report goes: stdout or the `--output-file`.
    out: &'r mut dyn WriteColor,
    console: Console,
    config: &'r Config,
    /// Files the run writes, which it must not read.
    written: &'r Written,
    /// The globs its inputs are filtered and read by (none for a command
    /// that reads no files).
    globs: RunGlobs,
}

/// Run a command that reports on `inputs` (as the command line gives
/// them; `None` for one that reads no files): find its configuration and
/// compile its globs, open its output, and put an `--output-file` in place
/// once the report is whole. An `--output-file` that is one of the named
/// inputs ends the run before anything is read or written: the report
/// would replace the file it is about.
fn reported(
    global: &GlobalArgs,
    output: &OutputArgs,
    inputs: Option<&InputArgs>,
    command: impl FnOnce(CommandRun<'_>) -> Outcome,
) -> ExitStatus {
    let named = inputs.map_or(&[][..], |inputs| &inputs.paths);
    if let Some(report) = output.output_file.as_deref() {
        if let Some(input) = named.iter().find(|input| is_same_file(input, report)) {
            say(format_args!(
                "cannot write the report to {}: it is the input {} (name another file)",
                report.display(),
                input.display(),
            ));
            return ExitStatus::Trouble;
        }
    }
    let config = match configuration(global) {
        Ok(config) => config,
        Err(status) => return status,
    };
    let globs = match inputs.map(|inputs| RunGlobs::compile(&config, &inputs.walk)) {
        None => RunGlobs::default(),
        Some(Ok(globs)) => globs,
        Some(Err(err)) => {
            say(format_args!("{err}"));
            return ExitStatus::Trouble;
        }
    };
    let file = match output.output_file.as_deref().map(ReportFile::create) {
        None => None,
        Some(Ok(file)) => Some(file),
        Some(Err(err)) => return cannot_write(output, &err),
    };
    let into_stdout = output
        .output_file
        .as_deref()
        .is_none_or(super::output::names_stdout);
    if into_stdout && stdout_unusable() {
        return stdout_closed();
    }
    let stdout_is_terminal = io::stdout().is_terminal();
    let writer: Box<dyn WriteColor> = match file.as_ref().map(ReportFile::writer) {
        None => Box::new(BufferedStandardStream::stdout(color_choice(
            output.color,
            stdout_is_terminal,
        ))),
        Some(Ok(handle)) => Box::new(NoColor::new(handle)),
        Some(Err(err)) => return cannot_write(output, &err),
    };
    let written = Written::new(&file.as_ref().map_or_else(Vec::new, ReportFile::paths));
    let console = Console {
        verbose: global.verbose,
        quiet: global.quiet,
        interactive: file.is_none() && stdout_is_terminal,
    };
    let mut out = OutputBuffer::new(writer);
    let mut outcome = command(CommandRun {
        out: &mut out,
        console,
        config: &config,
        written: &written,
        globs,
    });
    outcome.output = outcome.output.and_then(|()| out.flush());
    drop(out);
    if let (Some(file), Ok(())) = (file, &outcome.output) {
        if let Err(err) = file.commit() {
            return cannot_write(output, &err);
        }
    }
    outcome.status()
}

impl<'r> CommandRun<'r> {
    /// The same run, for a command that rewrites its inputs.
    fn rewrite(self) -> RewriteRun<'r> {
        RewriteRun {
            out: self.out,
            console: self.console,
            config: self.config,
            globs: self.globs,
            written: self.written,
        }
    }
}

/// The configuration of a run, said on stderr under `--verbose`.
fn configuration(args: &GlobalArgs) -> Result<Config, ExitStatus> {
    let config = Config::for_run(args.config.as_deref(), args.isolated).map_err(|err| {
        say(format_args!("{err}"));
        ExitStatus::Trouble
    })?;
    if args.verbose {
        match &config.path {
            _ if args.isolated => say(format_args!(
                "note: configuration files ignored (--isolated)"
            )),
            Some(path) => say(format_args!(
                "note: configuration: {}",
                absolute(path).display()
            )),
            None => say(format_args!(
                "note: no configuration file found in {} or its parents; using the defaults",
                absolute(Path::new(".")).display()
            )),
        }
    }
    Ok(config)
}

/// True when `a` and `b` name one existing regular file, through symbolic
/// or hard links (the same device and inode; elsewhere than Unix, the same
/// canonical path). `-` (stdin) is no file.
fn is_same_file(a: &Path, b: &Path) -> bool {
    if a == Path::new("-") {
        return false;
    }
    let (Ok(meta_a), Ok(meta_b)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    if !meta_a.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta_a.dev() == meta_b.dev() && meta_a.ino() == meta_b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = meta_b;
        std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
    }
}

/// `path` made absolute against the current directory, symbolic links kept.
fn absolute(path: &Path) -> std::path::PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Say that the `--output-file` cannot be written, and end the run.
fn cannot_write(output: &OutputArgs, err: &io::Error) -> ExitStatus {
    let path = output.output_file.as_deref().unwrap_or(Path::new("-"));
    say(format_args!(
        "cannot write the report to {}: {err}",
        path.display()
    ));
    ExitStatus::Trouble
}

/// The end of a run whose stdout was closed before it started: it is told
/// before anything is read or rewritten, since nothing could be reported.
pub(super) fn stdout_closed() -> ExitStatus {
    say(format_args!(
        "cannot write output: standard output is closed or open for reading only \
         (redirect it to /dev/null to discard the output)"
    ));
    ExitStatus::Trouble
}

/// Run a command whose output is plain text on stdout.
fn to_stdout(command: impl FnOnce(&mut dyn WriteColor) -> Outcome) -> ExitStatus {
    if stdout_unusable() {
        return stdout_closed();
    }
    let mut out = OutputBuffer::new(BufferedStandardStream::stdout(ColorChoice::Never));
    let mut outcome = command(&mut out);
    outcome.output = outcome.output.and_then(|()| out.flush());
    outcome.status()
}

/// True when the totals fail the run under the given `--deny` list, unless
/// `--exit-zero` says findings never do.
fn fails(totals: &Totals, rules: &RuleArgs) -> bool {
    let failing =
        totals.errors > 0 || (rules.deny.contains(&DenyArg::Warnings) && totals.warnings > 0);
    failing && !rules.exit_zero
}

/// The rule levels of a run: the configuration's, then the flags'.
fn levels(config: &Config, rules: &RuleArgs) -> RuleLevels {
    config.levels().overridden(&rules.overrides())
}

/// `urlint check`: fails on findings.
fn check(run: CommandRun<'_>, args: &CheckArgs) -> Outcome {
    let levels = levels(run.config, &args.rules);
    if args.show_settings {
        let profile = args.profile.unwrap_or(run.config.profile);
        return show_settings(run, &levels, profile);
    }
    let quiet = run.console.quiet;
    let mut reporter = report::check_reporter(args.format, args.statistics, quiet);
    let mut options = run.config.lint_options(levels, args.profile);
    options.scan.include_verbatim |= args.inputs.walk.include_verbatim;
    options.scan.no_templates |= args.inputs.walk.no_templates;
    if args.fix || args.diff {
        return fix(run, args, options);
    }
    if let Some(compare) = spared_hint(&run, args.profile, args.format, &options) {
        reporter = Box::new(ProfileHint::new(reporter, compare));
    }
    let linted = driver::lint_inputs(
        run.out,
        reporter.as_mut(),
        run.console,
        run.globs,
        options,
        &args.inputs,
        run.written,
    );
    Outcome {
        failing: fails(&linted.totals, &args.rules),
        trouble: linted.trouble,
        output: linted.output,
    }
}

/// The options to count spared findings under (see [`ProfileHint`]), when
/// the summary should say how many findings `--profile rfc3986` would not
/// report: the profile is rfc1738 because nobody chose one (no
/// `--profile`, none in the configuration), and a human summary will be
/// printed.
fn spared_hint(
    run: &CommandRun<'_>,
    profile: Option<Profile>,
    format: report::Format,
    options: &LintOptions,
) -> Option<LintOptions> {
    let unchosen = profile.is_none() && !run.config.profile_chosen;
    let summary = format == report::Format::Human && !run.console.quiet;
    (unchosen && summary && options.profile == Profile::Rfc1738).then(|| LintOptions {
        profile: Profile::Rfc3986,
        ..options.clone()
    })
}

/// `urlint check --fix` or `--diff`: fails on what remains after fixing,
/// or, for a diff, when there is something to fix.
fn fix(run: CommandRun<'_>, args: &CheckArgs, options: LintOptions) -> Outcome {
    let fixed = rewriting::fix(run.rewrite(), options, args);
    let failing = match &fixed.remaining {
        Some(remaining) => fails(remaining, &args.rules),
        None => fixed.fixed > 0 && !args.rules.exit_zero,
    };
    Outcome {
        failing,
        trouble: fixed.trouble,
        output: fixed.output,
    }
}

/// `urlint check --show-settings`: the resolved settings as a urlint.toml
/// that reads back to them, after a comment saying where they came from.
fn show_settings(run: CommandRun<'_>, levels: &RuleLevels, profile: Profile) -> Outcome {
    let (source, root) = match &run.config.path {
        Some(path) => {
            let path = absolute(path);
            let root = path.parent().map(Path::to_path_buf).unwrap_or_default();
            (path.display().to_string(), root)
        }
        None => ("the defaults".to_owned(), absolute(Path::new("."))),
    };
    let text = format!(
        "# Settings of `urlint check`: {source},\n\
         # then the command line's profile and rule options. Every rule is listed with its level.\n\
         # Path globs are relative to {}.\n\
         \n{}",
        root.display(),
        run.config.settings(levels, profile)
    );
    Outcome::written(run.out.write_all(text.as_bytes()))
}

/// `urlint extract`: never fails on findings.
fn extract(run: CommandRun<'_>, args: &ExtractArgs) -> Outcome {
    let prefix = if args.vimgrep {
        PlainPrefix::Position
    } else if args.with_filename {
        PlainPrefix::Path
    } else {
        PlainPrefix::None
    };
    let mut reporter = report::extract_reporter(ExtractOptions {
        format: args.format,
        unique: args.unique,
        count: args.count,
        prefix,
    });
    // The file's schemes and URL excludes decide what is a URL worth
    // listing; its levels and the profile decide whether a URL is valid,
    // which JSON records show. Plain lines show URLs alone: no rule needs
    // to run for them.
    let levels = match args.format {
        ExtractFormat::Plain => RuleLevels::silent(),
        ExtractFormat::Jsonl | ExtractFormat::Json => run.config.levels(),
    };
    let mut options = run.config.lint_options(levels, args.profile);
    options.scan.include_verbatim |= args.inputs.walk.include_verbatim;
    options.scan.no_templates |= args.inputs.walk.no_templates;
    let linted = driver::lint_inputs(
        run.out,
        reporter.as_mut(),
        run.console,
        run.globs,
        options,
        &args.inputs,
        run.written,
    );
    Outcome {
        failing: false,
        trouble: linted.trouble,
        output: linted.output,
    }
}

/// `urlint validate`: one URL per argument or per stdin line, linted as
/// `check` lints a URL it found, configuration included. Stdin is read and
/// reported a batch of lines at a time (see [`LineBatches`]).
fn validate(run: CommandRun<'_>, args: &ValidateArgs) -> Outcome {
    let mut options = run
        .config
        .lint_options(levels(run.config, &args.rules), args.profile);
    options.scan.no_templates |= args.no_templates;
    let human = HumanOptions {
        verdicts: true,
        quiet: run.console.quiet,
    };
    let mut reporter = report::diagnostics_reporter(args.format, human);
    if let Some(compare) = spared_hint(&run, args.profile, args.format, &options) {
        reporter = Box::new(ProfileHint::new(reporter, compare));
    }
    let mut validation = Validation {
        options: &options,
        reporter: reporter.as_mut(),
        totals: Totals::default(),
        trouble: false,
    };
    let mut output = Ok(());
    if args.urls.is_empty() {
        if io::stdin().is_terminal() && !run.console.quiet {
            // Otherwise a user who forgot the URL sees a run that hangs.
            say(format_args!(
                "reading URLs from stdin, one per line; end with Ctrl-D \
                 (or give URLs as arguments)"
            ));
        }
        let named = Named::new(&["-".into()]);
        match LineBatches::stdin() {
            Ok(mut batches) => {
                loop {
                    match batches.next_batch() {
                        Ok(Some(Batch::Lines(batch))) => {
                            output = validation.lines(run.out, batch);
                            // Each batch's verdicts are seen as it is read.
                            output = output.and_then(|()| run.out.flush());
                            if output.is_err() {
                                break;
                            }
                        }
                        Ok(Some(Batch::Binary(note))) => named.tell(run.console, &note),
                        Ok(None) => break,
                        Err(err) => {
                            say(format_args!("{err}"));
                            validation.trouble = true;
                            break;
                        }
                    }
                }
                for note in batches.notes() {
                    named.tell(run.console, &note);
                }
            }
            Err(err) => {
                say(format_args!("{err}"));
                return Outcome::trouble();
            }
        }
    } else {
        let source = Source::new(Origin::Arguments, args.urls.join("\n"));
        let batch = LineBatch {
            source,
            base: Base::START,
            continuation: false,
        };
        output = validation.lines(run.out, batch);
    }
    let Validation {
        totals, trouble, ..
    } = validation;
    let output = output.and_then(|()| reporter.finish(run.out, &totals));
    Outcome {
        failing: fails(&totals, &args.rules),
        trouble,
        output,
    }
}

/// What `validate` has told so far, and how it lints and reports.
struct Validation<'r> {
    options: &'r LintOptions,
    reporter: &'r mut dyn Reporter,
    totals: Totals,
    /// True once a batch could not be validated (an internal error).
    trouble: bool,
}

impl Validation<'_> {
    /// Lint and report `batch`, one URL a line.
    fn lines(&mut self, out: &mut dyn WriteColor, batch: LineBatch) -> io::Result<()> {
        let LineBatch {
            source,
            base,
            continuation,
        } = batch;
        let validated = panic::catch_unwind(AssertUnwindSafe(|| {
            lint::lint_lines(&source.text, self.options)
        }));
        match validated {
            Ok(reports) => {
                let checked = Checked::new(source, reports.into_iter().map(Linted::Url))
                    .in_frame(Frame::Text(base))
                    .continuing(continuation);
                self.totals.add(&checked);
                self.reporter.source(out, &checked)
            }
            Err(_) => {
                say(format_args!("{}", panicked(source.name)));
                self.trouble = true;
                Ok(())
            }
        }
    }
}

/// `urlint server`: a language server session, until the client says
/// `exit`.
fn serve(max_message_bytes: usize) -> ExitStatus {
    if stdout_unusable() {
        return stdout_closed();
    }
    match server::run(max_message_bytes) {
        Ok(Ended::Exit) => ExitStatus::Clean,
        Ok(Ended::ExitWithoutShutdown) => ExitStatus::ExitWithoutShutdown,
        Err(err) => {
            say(format_args!("server: {err}"));
            ExitStatus::Trouble
        }
    }
}

/// `urlint explain [RULE]`.
fn explain(out: &mut dyn WriteColor, args: &ExplainArgs) -> Outcome {
    let text = match args.rule {
        None => explain::rule_table(),
        Some(rule) => explain::rule_entry(rule.info()),
    };
    Outcome::written(out.write_all(text.as_bytes()))
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
            ..Totals::default()
        };
        let mut rules = RuleArgs::default();
        assert!(!fails(&warnings_only, &rules));
        rules.deny.push(DenyArg::Warnings);
        assert!(fails(&warnings_only, &rules));
    }
}
