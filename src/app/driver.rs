//! Linting every input of a run: paths expanded and filtered by the
//! configuration, small files read and linted on worker threads, large
//! files and stdin streamed, every result reported in input order.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use codespan_reporting::term::termcolor::WriteColor;

use super::cli::{InputArgs, WalkArgs};
use super::output::say;
use super::parallel;
use crate::checked::Checked;
use crate::config::Config;
use crate::input::{self, ChunkOptions, Collected, Input, InputError, Note, ReadOptions, Sink};
use crate::lint::LintOptions;
use crate::report::{Reporter, Totals};

/// How the run talks to its user besides the report.
#[derive(Debug, Clone, Copy)]
pub(super) struct Console {
    /// Print notes on stderr (`--verbose`).
    pub verbose: bool,
    /// Stdout is a terminal: flush after each source so output keeps pace.
    pub interactive: bool,
}

/// The inputs a user named one by one (files, `<stdin>`), whose skipping is
/// said even without `--verbose`: a silent skip would read as "checked,
/// nothing found".
#[derive(Debug, Default)]
pub(super) struct Named(Vec<String>);

impl Named {
    /// The inputs `paths` name one by one.
    pub(super) fn new(paths: &[PathBuf]) -> Self {
        Named(input::named_inputs(paths))
    }

    /// Print `note` on stderr: a skipped named input as a warning, in any
    /// mode; anything else only when `console` is verbose.
    pub(super) fn tell(&self, console: Console, note: &Note) {
        if note.skipped && self.0.contains(&note.name) {
            say(format_args!("warning: {note}"));
        } else if console.verbose {
            say(format_args!("note: {note}"));
        }
    }
}

/// What linting a run's inputs came to.
#[derive(Debug)]
pub(super) struct Linted {
    /// Counts over every input reported.
    pub totals: Totals,
    /// An input could not be read, or the configuration's paths were invalid.
    pub trouble: bool,
    /// Whether the report was written in full.
    pub output: io::Result<()>,
}

/// Expand `paths`, lint every input in parallel, report in input order, and
/// close the report.
///
/// Small files are read and linted in worker threads; large files and
/// stdin are streamed on this thread when their turn comes, so that their
/// results are reported as they are read.
pub(super) fn lint_inputs(
    out: &mut dyn WriteColor,
    reporter: &mut dyn Reporter,
    console: Console,
    config: &Config,
    options: &LintOptions,
    inputs: &InputArgs,
) -> Linted {
    let read_options = read_options(&inputs.walk);
    let mut sink = ReportSink::new(out, reporter, console, &inputs.paths, read_options.progress);
    let expanded = expand(config, inputs, &mut sink);
    sink.trouble |= expanded.trouble;
    let output = parallel::for_each_ordered(
        &expanded.inputs,
        expanded.threads,
        |input| {
            if input::streams(input, &read_options) {
                Work::Streamed(input.clone())
            } else {
                Work::Read(input::read_whole(input, &read_options, options))
            }
        },
        |work| match work {
            Work::Read(collected) => collected.replay(&mut sink),
            Work::Streamed(input) => {
                input::read_streamed(&input, &read_options, options, &mut sink)
            }
        },
    )
    .and_then(|()| sink.reporter.finish(sink.out, &sink.totals));
    Linted {
        totals: sink.totals,
        trouble: sink.trouble,
        output,
    }
}

/// The inputs of a run and the threads to read them with.
pub(super) struct Expanded {
    /// What to read, in report order.
    pub inputs: Vec<Input>,
    /// Worker threads (`-j`, else the number of CPUs).
    pub threads: usize,
    /// The configuration's path globs were invalid (and said so on stderr).
    pub trouble: bool,
}

/// Expand `inputs`' paths and keep those the configuration's path globs
/// allow; walk errors go to `sink`.
pub(super) fn expand(config: &Config, inputs: &InputArgs, sink: &mut dyn Sink) -> Expanded {
    let walk = &inputs.walk;
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
    let (mut found, errors) = input::collect_inputs(&inputs.paths, &walk_options);
    errors.into_iter().for_each(|err| sink.error(err));
    let mut trouble = false;
    match config.path_filter() {
        Ok(Some(filter)) => found.retain(|input| match input {
            Input::File(path) => filter.allows(path),
            Input::Stdin => true,
        }),
        Ok(None) => {}
        Err(err) => {
            say(format_args!("{err}"));
            found.clear();
            trouble = true;
        }
    }
    Expanded {
        inputs: found,
        threads,
        trouble,
    }
}

/// How `--input` and the hidden `--chunk-len` say inputs are read.
pub(super) fn read_options(walk: &WalkArgs) -> ReadOptions {
    let mut chunks = ChunkOptions::default();
    if let Some(len) = walk.chunk_len {
        chunks.chunk_len = usize::try_from(len).unwrap_or(usize::MAX);
    }
    ReadOptions {
        kind: walk.input,
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

/// Reports each checked text as it arrives, tells notes and errors on
/// stderr, and keeps the totals and whether an input failed.
pub(super) struct ReportSink<'o> {
    pub(super) out: &'o mut dyn WriteColor,
    pub(super) reporter: &'o mut dyn Reporter,
    console: Console,
    named: Named,
    /// Counts over what was reported.
    pub(super) totals: Totals,
    /// An input failed, or the configuration's paths were invalid.
    pub(super) trouble: bool,
    /// A progress line may be on stderr: erase it before writing a line
    /// there (it is redrawn on the next tick).
    progress: bool,
}

impl<'o> ReportSink<'o> {
    /// A sink reporting to `out` through `reporter`, for a run over `paths`.
    pub(super) fn new(
        out: &'o mut dyn WriteColor,
        reporter: &'o mut dyn Reporter,
        console: Console,
        paths: &[PathBuf],
        progress: bool,
    ) -> Self {
        ReportSink {
            out,
            reporter,
            console,
            named: Named::new(paths),
            totals: Totals::default(),
            trouble: false,
            progress,
        }
    }

    /// Make room on stderr for a line of text.
    fn clear_progress(&self) {
        if self.progress {
            // Like `say`, a closed stderr is no reason to stop.
            let _ = write!(io::stderr().lock(), "\r\x1b[K");
        }
    }
}

impl Sink for ReportSink<'_> {
    fn checked(&mut self, checked: Checked) -> io::Result<()> {
        self.totals.add(&checked);
        self.reporter.source(self.out, &checked)?;
        // On a terminal, output keeps pace with reading.
        if self.console.interactive {
            self.out.flush()?;
        }
        Ok(())
    }

    fn note(&mut self, note: Note) {
        self.clear_progress();
        self.named.tell(self.console, &note);
    }

    fn warning(&mut self, note: Note) {
        self.clear_progress();
        say(format_args!("warning: {note}"));
    }

    fn error(&mut self, error: InputError) {
        self.clear_progress();
        say(format_args!("{error}"));
        self.trouble = true;
    }
}
