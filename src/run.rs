//! Carrying out a parsed command line: read inputs in parallel, lint them,
//! hand the results to a reporter in input order, and decide the exit status.

use std::fmt;
use std::io::{self, IsTerminal, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;

use codespan_reporting::term::termcolor::{
    BufferedStandardStream, ColorChoice, ColorSpec, HyperlinkSpec, WriteColor,
};

use crate::chunk::ChunkOptions;
use crate::cli::{
    CheckArgs, Cli, ColorArg, Command, DenyArg, ExplainArgs, ExtractArgs, RuleArgs, ValidateArgs,
    WalkArgs,
};
use crate::config::Config;
use crate::input::{self, Input, InputError, Note, Origin, Source};
use crate::lint::{Finding, LintOptions, RuleLevels, UrlReport};
use crate::parallel;
use crate::report::{self, explain, Checked, ExtractOptions, HumanOptions, Reporter, Totals};
use crate::rules::{Level, Rule};
use crate::scan::{Form, Found};
use crate::span::{LineIndex, Span};
use crate::stream::{self, panicked, Collected, ReadOptions, Sink};
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
    let mut run = Run {
        verbose: cli.verbose,
        interactive,
        trouble: false,
        config,
        named: Vec::new(),
    };
    let mut out = OutputBuffer::new(BufferedStandardStream::stdout(color_choice(
        cli.color,
        interactive,
    )));
    let result = match cli.command {
        Command::Check(args) => run.check(&mut out, args),
        Command::Extract(args) => run.extract(&mut out, args),
        Command::Validate(args) => run.validate(&mut out, args),
        Command::Explain(args) => run.explain(&mut out, args),
    };
    let result = result.and_then(|failed| out.flush().map(|()| failed));
    let status = match result {
        Ok(true) => ExitStatus::Findings,
        Ok(false) => ExitStatus::Clean,
        // A closed pipe (`urlint extract | head`) means the reader has what it wanted.
        Err(err) if is_broken_pipe(&err) => ExitStatus::Clean,
        Err(err) => {
            say(format_args!("cannot write output: {err}"));
            ExitStatus::Trouble
        }
    };
    if run.trouble {
        ExitStatus::Trouble
    } else {
        status
    }
}

/// Bytes gathered before they are handed to the stream below.
const OUTPUT_BUFFER_LEN: usize = 64 << 10;

/// A buffer in front of the output stream: reporters write JSON a token at
/// a time through `dyn WriteColor`, and each token going through termcolor's
/// stream cost more than the token itself (a third of `extract --format
/// jsonl` on URL-dense text). Colours and hyperlinks pass through in order,
/// after what was written before them.
struct OutputBuffer<W: WriteColor> {
    inner: W,
    buffer: Vec<u8>,
}

impl<W: WriteColor> OutputBuffer<W> {
    fn new(inner: W) -> Self {
        OutputBuffer {
            inner,
            buffer: Vec::with_capacity(OUTPUT_BUFFER_LEN),
        }
    }

    /// Hand the gathered bytes to the stream below.
    fn drain(&mut self) -> io::Result<()> {
        if !self.buffer.is_empty() {
            let result = self.inner.write_all(&self.buffer);
            self.buffer.clear();
            result?;
        }
        Ok(())
    }
}

impl<W: WriteColor> io::Write for OutputBuffer<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= OUTPUT_BUFFER_LEN {
            self.drain()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        self.inner.flush()
    }
}

impl<W: WriteColor> WriteColor for OutputBuffer<W> {
    fn supports_color(&self) -> bool {
        self.inner.supports_color()
    }

    fn set_color(&mut self, spec: &ColorSpec) -> io::Result<()> {
        self.drain()?;
        self.inner.set_color(spec)
    }

    fn reset(&mut self) -> io::Result<()> {
        self.drain()?;
        self.inner.reset()
    }

    fn is_synchronous(&self) -> bool {
        self.inner.is_synchronous()
    }

    fn set_hyperlink(&mut self, link: &HyperlinkSpec) -> io::Result<()> {
        self.drain()?;
        self.inner.set_hyperlink(link)
    }

    fn supports_hyperlinks(&self) -> bool {
        self.inner.supports_hyperlinks()
    }
}

impl<W: WriteColor> Drop for OutputBuffer<W> {
    /// Output not flushed on an error path still reaches the stream, whose
    /// own buffer is written out when it drops, as before this buffer.
    fn drop(&mut self) {
        let _ = self.drain();
    }
}

/// True when `err` is a closed output pipe, also when a serialiser wrapped
/// the pipe's error in its own (serde_json's error becomes `Other`).
fn is_broken_pipe(err: &io::Error) -> bool {
    if err.kind() == io::ErrorKind::BrokenPipe {
        return true;
    }
    let Some(inner) = err.get_ref() else {
        return false;
    };
    if let Some(io) = inner.downcast_ref::<io::Error>() {
        return is_broken_pipe(io);
    }
    inner
        .downcast_ref::<serde_json::Error>()
        .and_then(serde_json::Error::io_error_kind)
        == Some(io::ErrorKind::BrokenPipe)
}

/// Write `urlint: MESSAGE` on stderr. A closed stderr is ignored rather
/// than a panic (as `eprintln!` would): the report on stdout still matters.
fn say(message: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "urlint: {message}");
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

/// Rule levels after the command line: `levels` (the configuration file's)
/// narrowed by `--select`, then `--warn`, then `--ignore`, so that flags
/// always override the file and `--ignore` has the last word.
pub fn rule_levels(mut levels: RuleLevels, rules: &RuleArgs) -> RuleLevels {
    if !rules.select.is_empty() {
        for rule in Rule::all() {
            if !rules.select.contains(&rule) {
                levels.set(rule, Level::Off);
            } else if levels.level(rule) == Level::Off {
                levels.set(rule, Level::Warning);
            }
        }
    }
    for &rule in &rules.warn {
        levels.set(rule, Level::Warning);
    }
    for &rule in &rules.ignore {
        levels.set(rule, Level::Off);
    }
    levels
}

/// True when the totals fail the run under the given `--deny` list.
fn fails(totals: &Totals, rules: &RuleArgs) -> bool {
    totals.errors > 0 || (rules.deny.contains(&DenyArg::Warnings) && totals.warnings > 0)
}

/// Per-run state: what to tell on stderr, and whether something went wrong.
struct Run {
    /// Print notes on stderr.
    verbose: bool,
    /// Stdout is a terminal: flush after each source so output keeps pace.
    interactive: bool,
    /// An input or usage error happened; the run exits 2.
    trouble: bool,
    /// The configuration file's settings (the defaults under `--isolated`).
    config: Config,
    /// Names of the inputs given one by one (files, `<stdin>`), whose
    /// skipping is said even without `--verbose`.
    named: Vec<String>,
}

impl Run {
    /// `urlint check`: returns whether findings fail the run.
    fn check(&mut self, out: &mut dyn WriteColor, args: CheckArgs) -> io::Result<bool> {
        let levels = rule_levels(self.config.levels(), &args.rules);
        let options = self.config.lint_options(levels);
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
        // The file's schemes and URL excludes decide what is a URL worth
        // listing; rule levels do not matter here.
        let options = self.config.lint_options(RuleLevels::default());
        self.lint_paths(out, &args.paths, &args.walk, &options, reporter.as_mut())?;
        Ok(false)
    }

    /// `urlint validate`: one URL per argument or per stdin line.
    fn validate(&mut self, out: &mut dyn WriteColor, args: ValidateArgs) -> io::Result<bool> {
        let source = if args.urls.is_empty() {
            self.named = vec![Origin::Stdin.to_string()];
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
        let levels = rule_levels(self.config.levels(), &args.rules);
        let options = ValidateOptions {
            extra_schemes: self.config.extra_schemes.clone(),
            ..ValidateOptions::default()
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
                    say(format_args!("{message}"));
                    self.trouble = true;
                }
            },
        }
        Ok(false)
    }

    /// Expand `paths`, lint every input in parallel, report in input order.
    ///
    /// Small files are read and linted in worker threads; large files and
    /// stdin are streamed on this thread when their turn comes, so that
    /// their results are reported as they are read.
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
        let read_options = read_options(walk);
        self.named = input::named_inputs(paths);
        let (mut inputs, errors) = input::collect_inputs(paths, &walk_options);
        errors.iter().for_each(|err| self.error(err));
        match self.config.path_filter() {
            Ok(Some(filter)) => inputs.retain(|input| match input {
                Input::File(path) => filter.allows(path),
                Input::Stdin => true,
            }),
            Ok(None) => {}
            Err(err) => {
                say(format_args!("{err}"));
                self.trouble = true;
                inputs.clear();
            }
        }
        let mut sink = ReportSink {
            run: self,
            out,
            reporter,
            totals: Totals::default(),
            progress: read_options.progress,
        };
        parallel::for_each_ordered(
            &inputs,
            threads,
            |input| {
                if stream::streams(input, &read_options) {
                    Work::Streamed(input.clone())
                } else {
                    Work::Read(stream::read_whole(input, &read_options, options))
                }
            },
            |work| match work {
                Work::Read(collected) => collected.replay(&mut sink),
                Work::Streamed(input) => {
                    stream::read_streamed(&input, &read_options, options, &mut sink)
                }
            },
        )?;
        let totals = sink.totals;
        sink.reporter.finish(sink.out, &totals)?;
        Ok(totals)
    }

    /// Report an input error on stderr; the run goes on and exits 2.
    fn error(&mut self, err: &InputError) {
        say(format_args!("{err}"));
        self.trouble = true;
    }

    /// Print notes on stderr in verbose mode; a skipped input the user named
    /// is a warning, said in any mode.
    fn notes(&self, notes: &[Note]) {
        for note in notes {
            if note.skipped && self.named.contains(&note.name) {
                say(format_args!("warning: {note}"));
            } else if self.verbose {
                say(format_args!("note: {note}"));
            }
        }
    }
}

/// How `--input` and the hidden `--chunk-len` say inputs are read.
fn read_options(walk: &WalkArgs) -> ReadOptions {
    let mut chunks = ChunkOptions::default();
    if let Some(len) = walk.chunk_len {
        chunks.chunk_len = usize::try_from(len).unwrap_or(usize::MAX);
    }
    ReadOptions {
        kind: walk.input.into(),
        chunks,
        progress: io::stderr().is_terminal(),
    }
}

/// What a worker made of one input.
enum Work {
    /// A small file, read and linted whole.
    Read(Collected),
    /// A large file or stdin, left to be streamed when its turn comes.
    Streamed(Input),
}

/// Reports each checked text as it arrives and counts the totals.
struct ReportSink<'r, 'o> {
    run: &'r mut Run,
    out: &'o mut dyn WriteColor,
    reporter: &'r mut dyn Reporter,
    totals: Totals,
    /// A progress line may be on stderr: erase it before writing a line
    /// there (it is redrawn on the next tick).
    progress: bool,
}

impl ReportSink<'_, '_> {
    /// Make room on stderr for a line of text.
    fn clear_progress(&self) {
        if self.progress {
            // Like `say`, a closed stderr is no reason to stop.
            let _ = write!(io::stderr().lock(), "\r\x1b[K");
        }
    }
}

impl Sink for ReportSink<'_, '_> {
    fn checked(&mut self, checked: Checked) -> io::Result<()> {
        self.totals.add(&checked);
        self.reporter.source(self.out, &checked)?;
        // On a terminal, output keeps pace with reading.
        if self.run.interactive {
            self.out.flush()?;
        }
        Ok(())
    }

    fn note(&mut self, note: Note) {
        self.clear_progress();
        self.run.notes(&[note]);
    }

    fn warning(&mut self, note: Note) {
        self.clear_progress();
        say(format_args!("warning: {note}"));
    }

    fn error(&mut self, error: InputError) {
        self.clear_progress();
        self.run.error(&error);
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
    let found = Found::unbroken(url, Form::Bare, span);
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

    /// Writes text and colour changes, as reporters do, to `out`.
    fn colourful(out: &mut dyn WriteColor) -> io::Result<()> {
        let red = ColorSpec::new()
            .set_fg(Some(codespan_reporting::term::termcolor::Color::Red))
            .clone();
        out.write_all(b"error")?;
        out.set_color(&red)?;
        write!(out, "[{}]", 42)?;
        out.reset()?;
        out.write_all(&vec![b'x'; OUTPUT_BUFFER_LEN + 3])?;
        out.set_color(&red)?;
        out.write_all(b"end\n")?;
        out.reset()?;
        out.flush()
    }

    #[test]
    fn output_buffer_keeps_colours_in_order_with_the_text() {
        use codespan_reporting::term::termcolor::Ansi;
        let mut direct = Ansi::new(Vec::new());
        colourful(&mut direct).expect("writing to memory");
        let mut buffered = OutputBuffer::new(Ansi::new(Vec::new()));
        colourful(&mut buffered).expect("writing to memory");
        assert!(buffered.buffer.is_empty());
        assert_eq!(buffered.inner.get_ref(), direct.get_ref());
    }

    #[test]
    fn select_turns_off_the_rest_and_on_what_is_off() {
        let select = rule_args(&[Rule::BareUrl, Rule::UnsafeChar], &[], &[]);
        let levels = rule_levels(RuleLevels::default(), &select);
        assert_eq!(levels.level(Rule::BareUrl), Level::Warning);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Error);
        assert_eq!(levels.level(Rule::BadPort), Level::Off);
        let ignore = rule_args(&[], &[Rule::HyphenBreak], &[]);
        let levels = rule_levels(RuleLevels::default(), &ignore);
        assert_eq!(levels.level(Rule::HyphenBreak), Level::Off);
        assert_eq!(levels.level(Rule::BadPort), Level::Error);
    }

    fn rule_args(select: &[Rule], ignore: &[Rule], warn: &[Rule]) -> RuleArgs {
        RuleArgs {
            select: select.to_vec(),
            ignore: ignore.to_vec(),
            warn: warn.to_vec(),
            deny: Vec::new(),
        }
    }

    #[test]
    fn flags_override_the_file() {
        let mut file = RuleLevels::default();
        file.set(Rule::UnsafeChar, Level::Off);
        file.set(Rule::BareUrl, Level::Error);
        file.set(Rule::SchemeCase, Level::Error);
        let flags = rule_args(&[], &[Rule::BareUrl], &[Rule::UnsafeChar, Rule::SchemeCase]);
        let levels = rule_levels(file.clone(), &flags);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Warning);
        assert_eq!(levels.level(Rule::SchemeCase), Level::Warning);
        assert_eq!(levels.level(Rule::BareUrl), Level::Off);
        // --select keeps the file's level for a selected rule that is on.
        let select = rule_args(&[Rule::BareUrl, Rule::UnsafeChar], &[], &[]);
        let levels = rule_levels(file, &select);
        assert_eq!(levels.level(Rule::BareUrl), Level::Error);
        assert_eq!(levels.level(Rule::UnsafeChar), Level::Warning);
        assert_eq!(levels.level(Rule::SchemeCase), Level::Off);
    }

    #[test]
    fn deny_warnings_fails_on_warnings_only_when_asked() {
        let warnings_only = Totals {
            files: 1,
            urls: 1,
            errors: 0,
            warnings: 2,
        };
        let mut rules = rule_args(&[], &[], &[]);
        assert!(!fails(&warnings_only, &rules));
        rules.deny.push(DenyArg::Warnings);
        assert!(fails(&warnings_only, &rules));
    }

    #[test]
    fn a_closed_pipe_is_recognised_inside_serialiser_errors() {
        let pipe = || io::Error::from(io::ErrorKind::BrokenPipe);
        let cases = [
            (pipe(), true),
            (io::Error::other(pipe()), true),
            (io::Error::other(serde_json::Error::io(pipe())), true),
            (io::Error::from(io::ErrorKind::StorageFull), false),
            (
                io::Error::other(serde_json::Error::io(io::Error::other("disk"))),
                false,
            ),
            (io::Error::other("not an io error inside"), false),
        ];
        for (err, broken) in cases {
            assert_eq!(is_broken_pipe(&err), broken, "{err:?}");
        }
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
