//! Linting every input of a run: paths expanded and filtered by the
//! configuration, small files read and linted on worker threads, a large
//! file read in parts by all of them, stdin streamed, every result
//! reported in input order.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use codespan_reporting::term::termcolor::WriteColor;

use super::cli::{InputArgs, WalkArgs};
use super::output::say;
use super::parallel;
use crate::checked::{Checked, KeepText};
use crate::config::{Config, ConfigError, PathFilter, PerFileIgnores};
use crate::input::{
    self, ChunkOptions, Collected, Input, InputError, KindGlobs, LargePlan, Note, Reached,
    ReadOptions, Sink, WorkerRead,
};
use crate::lint::{self, LintOptions};
use crate::report::{Reporter, Totals};
use crate::rules::{Level, Rule};

/// How the run talks to its user besides the report.
#[derive(Debug, Clone, Copy)]
pub(super) struct Console {
    /// Print notes on stderr (`--verbose`).
    pub verbose: bool,
    /// Print the report's findings only: no summary, no progress (`--quiet`).
    pub quiet: bool,
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

    /// True when `name` is one of the inputs named one by one.
    pub(super) fn contains(&self, name: &str) -> bool {
        self.0.iter().any(|named| named == name)
    }

    /// Print `note` on stderr: a skipped named input as a warning, in any
    /// mode; anything else only when `console` is verbose.
    pub(super) fn tell(&self, console: Console, note: &Note) {
        if note.skipped && self.contains(&note.name) {
            say(format_args!("warning: {note}"));
        } else if console.verbose {
            say(format_args!("note: {note}"));
        }
    }
}

/// Files the run writes (an `--output-file` and its temporary file, or
/// the file stdout is redirected to), which it must not read: a previous
/// report in the tree being checked would otherwise be checked, its URLs
/// reported again, and `urlint check . > report.sarif` would read the
/// report it is writing.
#[derive(Debug)]
pub(super) struct Written {
    /// Each file's name and its directory, canonical.
    files: Vec<(OsString, PathBuf)>,
    /// The regular file stdout writes to, by device and inode: the shell
    /// opened it, so it has no name here.
    stdout: Option<(u64, u64)>,
}

impl Written {
    /// The files at `paths`, which need not exist yet, and stdout's file.
    pub(super) fn new(paths: &[&Path]) -> Self {
        let files = paths
            .iter()
            .filter_map(|path| Some((path.file_name()?.to_owned(), canonical_dir(path)?)))
            .collect();
        Written {
            files,
            stdout: stdout_file(),
        }
    }

    /// True when `path` is one of the files; the file name is compared
    /// first, so that other inputs cost no file system lookup (but when
    /// stdout is a regular file, whose name is not known).
    fn contains(&self, path: &Path) -> bool {
        if self.stdout.is_some() && file_id(path) == self.stdout {
            return true;
        }
        // Asked for every walked file, most runs writing no file.
        if self.files.is_empty() {
            return false;
        }
        let Some(name) = path.file_name() else {
            return false;
        };
        self.files
            .iter()
            .any(|(file, dir)| file == name && canonical_dir(path).as_ref() == Some(dir))
    }
}

/// The device and inode of the regular file stdout writes to, if it does
/// (not a terminal, a pipe or `/dev/null`).
#[cfg(unix)]
fn stdout_file() -> Option<(u64, u64)> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let stdout = io::stdout().as_fd().try_clone_to_owned().ok()?;
    let metadata = std::fs::File::from(stdout).metadata().ok()?;
    metadata.is_file().then(|| (metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn stdout_file() -> Option<(u64, u64)> {
    None
}

/// The device and inode of the file at `path`, through symbolic links.
#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Path) -> Option<(u64, u64)> {
    None
}

/// The canonical directory a path lies in.
fn canonical_dir(path: &Path) -> Option<PathBuf> {
    let dir = path
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    dir.canonicalize().ok()
}

/// The lint options of each input: the run's, with the rules that
/// `[per-file-ignores]` turns off for its path, and for a `pyproject.toml`
/// its `[tool.urlint]` tables left unlinted. Without per-file ignores every
/// other input shares the run's options, with no glob matching at all.
pub(super) struct FileOptions {
    run: Arc<LintOptions>,
    ignores: Option<PerFileIgnores>,
    /// Options built so far, by the rules they turn off and whether the
    /// file holds urlint's configuration: the files of one glob share one
    /// copy (and its regex caches).
    built: Mutex<HashMap<OptionsKey, Arc<LintOptions>>>,
}

/// What sets one input's lint options apart from the run's: the rules
/// turned off for it, and whether it holds urlint's configuration.
type OptionsKey = (Vec<Rule>, bool);

impl FileOptions {
    fn new(run: LintOptions, ignores: Option<PerFileIgnores>) -> Self {
        FileOptions {
            run: Arc::new(run),
            ignores,
            built: Mutex::new(HashMap::new()),
        }
    }

    /// The options for `input`.
    pub(super) fn of(&self, input: &Input) -> Arc<LintOptions> {
        let Input::File(path) = input else {
            return Arc::clone(&self.run);
        };
        let holds_configuration = path
            .file_name()
            .is_some_and(|name| name == crate::config::PYPROJECT);
        let rules = self
            .ignores
            .as_ref()
            .map_or_else(Vec::new, |ignores| ignores.rules_for(path));
        if rules.is_empty() && !holds_configuration {
            return Arc::clone(&self.run);
        }
        let mut built = self
            .built
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let options = built
            .entry((rules, holds_configuration))
            .or_insert_with_key(|(rules, holds_configuration)| {
                let mut options = LintOptions::clone(&self.run);
                for &rule in rules {
                    options.levels.set(rule, Level::Off);
                }
                options.skip_own_configuration = *holds_configuration;
                Arc::new(options)
            });
        Arc::clone(options)
    }
}

/// What linting a run's inputs came to.
#[derive(Debug)]
pub(super) struct LintedRun {
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
/// Small files are read and linted in worker threads; a large file is read
/// in parts by all threads when its turn comes, stdin streamed on this
/// thread, so that their results are reported as they are read.
pub(super) fn lint_inputs(
    out: &mut dyn WriteColor,
    reporter: &mut dyn Reporter,
    console: Console,
    globs: RunGlobs,
    options: LintOptions,
    inputs: &InputArgs,
    written: &Written,
) -> LintedRun {
    let read_options = ReadOptions {
        keep_text: reporter.texts_read(),
        ..read_options(&inputs.walk, console)
    };
    let mut sink = ReportSink::new(out, reporter, console, &inputs.paths, read_options.progress);
    let Prepared {
        inputs,
        threads,
        options,
        globs,
    } = prepare(globs, options, inputs, written);
    let read_options = ReadOptions {
        globs,
        ..read_options
    };
    let output = parallel::for_each_ordered(
        threads,
        |found| inputs.walk(found),
        |walked| match walked {
            RunStep::Input(input) => input::read_input(&input, &read_options, &options.of(&input)),
            RunStep::Skipped(told) => WorkerRead::Checked(told),
        },
        |work| match work {
            WorkerRead::Checked(collected) => collected.replay(&mut sink),
            WorkerRead::Large(large) => {
                let lint = options.of(large.input());
                read_large(large, threads, &read_options, &lint, &mut sink)
            }
        },
    )
    .and_then(|()| sink.reporter.finish(sink.out, &sink.totals));
    LintedRun {
        totals: sink.totals,
        trouble: sink.trouble,
        output,
    }
}

/// The inputs of a run, how to read them and how to lint each.
pub(super) struct Prepared<'r> {
    /// What to read, walked in report order as it is read.
    pub inputs: RunInputs<'r>,
    /// Worker threads (`-j`, else, or when it is 0, the number of CPUs).
    pub threads: usize,
    /// The lint options of each input.
    pub options: FileOptions,
    /// The configuration's `[kinds]` globs, which the read options take.
    pub globs: KindGlobs,
}

/// The globs a run filters and reads its inputs by, compiled before the
/// run starts: the configuration's `[paths]`, `[per-file-ignores]` and
/// `[kinds]`, and the command line's `--glob` and `--exclude`. A glob that
/// does not compile (`[`, or braces nested too deep) ends the run there,
/// as an invalid configuration file does: nothing read, nothing reported.
#[derive(Default)]
pub(super) struct RunGlobs {
    /// The configuration's `[paths]`, when it has any.
    filter: Option<PathFilter>,
    /// The configuration's `[per-file-ignores]`, when it has any.
    ignores: Option<PerFileIgnores>,
    /// The configuration's `[kinds]`.
    kinds: KindGlobs,
}

/// A glob of the run that does not compile.
#[derive(Debug)]
pub(super) enum GlobError {
    /// One of the configuration's.
    Config(ConfigError),
    /// One the command line gave to `option`.
    Flag {
        option: &'static str,
        err: ignore::Error,
    },
}

impl std::fmt::Display for GlobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GlobError::Config(err) => write!(f, "{err}"),
            GlobError::Flag { option, err } => write!(f, "invalid {option}: {err}"),
        }
    }
}

impl RunGlobs {
    /// The globs of `config` and `walk`, or the first that does not compile.
    pub(super) fn compile(config: &Config, walk: &WalkArgs) -> Result<RunGlobs, GlobError> {
        let globs = RunGlobs {
            filter: config.path_filter().map_err(GlobError::Config)?,
            ignores: config.per_file_ignores().map_err(GlobError::Config)?,
            kinds: config.kind_globs().map_err(GlobError::Config)?,
        };
        // Compiled again under each directory walked: a glob compiles the
        // same under any root.
        input::glob_overrides(Path::new("."), &walk.glob, &walk.exclude).map_err(|err| {
            // Includes are compiled first, and the glob at fault is named.
            let option = match &err {
                ignore::Error::Glob {
                    glob: Some(glob), ..
                } if walk.glob.contains(glob) => "--glob",
                ignore::Error::Glob { glob: Some(_), .. } => "--exclude",
                _ => "--glob or --exclude",
            };
            GlobError::Flag { option, err }
        })?;
        Ok(globs)
    }
}

/// How `inputs`' paths are walked and which inputs `globs` let through.
pub(super) fn prepare<'r>(
    globs: RunGlobs,
    options: LintOptions,
    inputs: &'r InputArgs,
    written: &'r Written,
) -> Prepared<'r> {
    let walk = &inputs.walk;
    let threads = walk
        .threads
        .filter(|&threads| threads > 0)
        .map(usize::from)
        .or_else(|| std::thread::available_parallelism().ok().map(Into::into))
        .unwrap_or(1);
    let walk_options = input::WalkOptions {
        no_ignore: walk.no_ignore,
        hidden: walk.hidden,
        globs: walk.glob.clone(),
        excludes: walk.exclude.clone(),
    };
    Prepared {
        inputs: RunInputs {
            paths: &inputs.paths,
            walk: walk_options,
            filter: globs.filter,
            written,
        },
        threads,
        options: FileOptions::new(options, globs.ignores),
        globs: globs.kinds,
    }
}

/// The inputs of a run: its paths walked, less the inputs the
/// configuration's `[paths]` leave out and the files the run writes.
pub(super) struct RunInputs<'r> {
    /// The command line's paths (none: the current directory).
    paths: &'r [PathBuf],
    /// How directories are walked.
    walk: input::WalkOptions,
    /// The configuration's `[paths]`, when it has any.
    filter: Option<PathFilter>,
    /// The files the run writes, never read.
    written: &'r Written,
}

/// One step of a run over its inputs, in report order.
pub(super) enum RunStep {
    /// An input to read.
    Input(Input),
    /// What to tell about a path not read: one the walk could not read, or
    /// a file the run writes.
    Skipped(Collected),
}

impl RunInputs<'_> {
    /// Walk the run's paths, pushing each input to read and each path
    /// skipped in report order, as the walk finds them.
    pub(super) fn walk(&self, found: parallel::Push<'_, RunStep>) -> ControlFlow<()> {
        input::walk_inputs(self.paths, &self.walk, &mut |reached| match reached {
            Reached::Input(input) => match self.admitted(input) {
                Some(walked) => found(walked),
                None => ControlFlow::Continue(()),
            },
            Reached::Passed { path, why } => match self.admitted(Input::File(path)) {
                Some(RunStep::Input(Input::File(path))) => {
                    let mut told = Collected::default();
                    told.note(Note::skipped(path.display().to_string(), why));
                    found(RunStep::Skipped(told))
                }
                _ => ControlFlow::Continue(()),
            },
            Reached::Failed(err) => {
                let mut told = Collected::default();
                told.error(err);
                found(RunStep::Skipped(told))
            }
        })
    }

    /// `input` as the run takes it: read, skipped with a note (a file the
    /// run writes), or left out without a word.
    fn admitted(&self, input: Input) -> Option<RunStep> {
        let Input::File(path) = &input else {
            return Some(RunStep::Input(input));
        };
        if self
            .filter
            .as_ref()
            .is_some_and(|filter| !filter.allows(path))
        {
            return None;
        }
        if crate::config::is_own_file(path) {
            // urlint's configuration holds URL patterns, not URLs to lint
            // (`exclude = ['^http://localhost(:\d+)?/']`).
            return None;
        }
        if self.written.contains(path) {
            let mut told = Collected::default();
            told.note(Note::skipped(
                path.display().to_string(),
                "it is the file this run writes its report to",
            ));
            return Some(RunStep::Skipped(told));
        }
        Some(RunStep::Input(input))
    }
}

/// How `--input` and the hidden `--chunk-len` say inputs are read (the
/// configuration's kind globs come from [`prepare`]).
pub(super) fn read_options(walk: &WalkArgs, console: Console) -> ReadOptions {
    let mut chunks = ChunkOptions::default();
    if let Some(len) = walk.chunk_len {
        chunks.chunk_len = usize::try_from(len).unwrap_or(usize::MAX);
    }
    ReadOptions {
        kind: walk.input,
        globs: KindGlobs::default(),
        mail_headers: walk.mail_headers,
        chunks,
        progress: !console.quiet && io::stderr().is_terminal(),
        keep_text: KeepText::Always,
    }
}

/// Read a large input when its turn comes: a large file in parts on
/// `threads` threads (its windows or mbox slices), reported in order as
/// they are done; stdin, pipes and the rest streamed on this thread.
fn read_large(
    large: input::LargeInput,
    threads: usize,
    options: &ReadOptions,
    lint: &LintOptions,
    sink: &mut ReportSink<'_>,
) -> io::Result<()> {
    match input::plan_large(large, options) {
        Ok(LargePlan::Streamed(large)) => input::read_streamed(large, threads, options, lint, sink),
        Ok(LargePlan::Parts(parts)) => {
            let mut placer = parts.placer(lint);
            parallel::for_each_ordered_large(
                parts.pieces(),
                threads,
                |piece| parts.read(piece, lint),
                |part| placer.place(part, sink),
                || parts.cancel(),
            )?;
            placer.finish(sink)
        }
        Err(err) => {
            sink.error(err);
            Ok(())
        }
    }
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
    /// An input failed, or the configuration was invalid.
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
        self.checked_ref(&checked)
    }

    fn checked_ref(&mut self, checked: &Checked) -> io::Result<()> {
        self.totals.add(checked);
        self.reporter.source(self.out, checked)?;
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

/// A reporter whose summary also says how many findings linting under
/// `compare` (`--profile rfc3986`) would not give: a first run of the
/// default profile learns that the other one exists (see
/// [`lint::spared_under`]).
pub(super) struct ProfileHint {
    /// The reporter that writes the findings and the summary.
    inner: Box<dyn Reporter>,
    compare: LintOptions,
    /// Findings seen so far that `compare` would not give.
    spared: usize,
}

impl ProfileHint {
    /// `inner`, counting what `compare` spares.
    pub(super) fn new(inner: Box<dyn Reporter>, compare: LintOptions) -> Self {
        ProfileHint {
            inner,
            compare,
            spared: 0,
        }
    }
}

impl Reporter for ProfileHint {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        self.spared += checked
            .reports
            .iter()
            .map(|report| lint::spared_under(report, &self.compare))
            .sum::<usize>();
        self.inner.source(out, checked)
    }

    fn finish(&mut self, out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()> {
        let totals = Totals {
            spared_by_rfc3986: self.spared,
            ..*totals
        };
        self.inner.finish(out, &totals)
    }

    fn texts_read(&self) -> KeepText {
        self.inner.texts_read()
    }
}
