//! `check --fix`, `check --diff` and `fmt`: each input read whole, rewritten
//! in memory on a worker thread, then written back in place, shown as a
//! unified diff, or only listed; results come out in input order.
//!
//! A rewrite never touches what it may not: mail archives and binary files
//! are read but not rewritten, and a fix writes the bytes of a file that is
//! not valid UTF-8 back as they were (see `input::read_for_rewrite`); a file is replaced atomically, and not at
//! all when it is read-only or changed meanwhile (see `write`); a file
//! with nothing to change is not written, so its mtime stays.

use std::borrow::Cow;
use std::io::{self, IsTerminal};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use codespan_reporting::term::termcolor::{BufferedStandardStream, NoColor, WriteColor};

use super::cli::{CheckArgs, ColorArg, FmtArgs, InputArgs};
use super::driver::{self, Console, Named, Prepared, ReportSink, RunGlobs, RunStep, Written};
use super::output::{color_choice, say, OutputBuffer};
use super::parallel;
use super::status::Outcome;
use crate::checked::Checked;
use crate::config::Config;
use crate::input::{
    self, panicked, Collected, Compression, Content, ForRewrite, Input, InputError, Kept, Left,
    Note, ReadOptions, Sink, Unicode,
};
use crate::lint::{self, LintOptions, Linted};
use crate::report::{self, Totals};
use crate::rewrite::{
    fix_text_keeping, unified_diff, wrap_text, FixSelection, Fixed, Stopped, WrapOptions,
    MAX_PASSES,
};
use crate::source::{encode_decoded, Markup, Origin, Source};
use crate::write::replace_file;

/// What a rewriting command works with.
pub(super) struct RewriteRun<'r> {
    /// Where the report, diff or list goes: stdout or the `--output-file`.
    pub out: &'r mut dyn WriteColor,
    pub console: Console,
    pub config: &'r Config,
    /// The globs its inputs are filtered and read by.
    pub globs: RunGlobs,
    /// Files the run writes, which it must not read.
    pub written: &'r Written,
}

/// What a run does with a text it has rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Write it back in place (stdin's to the output).
    Write,
    /// Print the change as a unified diff.
    Diff,
    /// Only name the input (`fmt --check`).
    List,
}

/// The rewrite a run makes.
enum Rewrite {
    /// Apply fixes (`check --fix`, `check --diff`).
    Fix(FixSelection),
    /// Wrap long URLs (`fmt`).
    Wrap(WrapOptions),
}

/// Everything a worker needs, shared by all of them.
struct Rewriter {
    rewrite: Rewrite,
    mode: Mode,
    read: ReadOptions,
    /// The inputs named on the command line: one of them that cannot be
    /// rewritten at all is an error, not a quiet skip.
    named: Named,
}

/// What a worker made of one input.
#[derive(Default)]
struct Done {
    /// Checked texts to report (`check --fix`), notes and errors.
    collected: Collected,
    /// Lines for stderr, whatever the verbosity.
    messages: Vec<String>,
    /// The unified diff of the change (`--diff`).
    diff: String,
    /// Text for the output: stdin's rewritten (or unchanged) text.
    stdout: Option<Vec<u8>>,
    /// Fixes applied or URLs wrapped (or that would be).
    changes: usize,
    /// The input's name, when it changed (or would).
    changed: Option<String>,
}

/// How a `check --fix` or `--diff` run ended.
#[derive(Debug)]
pub(super) struct FixRun {
    /// What remains, as reported (after `--fix`; `None` for `--diff`).
    pub remaining: Option<Totals>,
    /// Findings fixed (or that `--diff` would fix).
    pub fixed: usize,
    /// An input could not be read or rewritten.
    pub trouble: bool,
    /// Whether the output was written.
    pub output: io::Result<()>,
}

/// `urlint check --fix` or `--diff` with lint `options`: fixes applied,
/// then what remains reported.
pub(super) fn fix(run: RewriteRun<'_>, options: LintOptions, args: &CheckArgs) -> FixRun {
    let mut rewriter = Rewriter {
        rewrite: Rewrite::Fix(FixSelection {
            suggestions: args.unsafe_fixes,
        }),
        mode: if args.diff { Mode::Diff } else { Mode::Write },
        read: driver::read_options(&args.inputs.walk, run.console),
        named: Named::new(&args.inputs.paths),
    };
    let quiet = run.console.quiet;
    if rewriter.mode == Mode::Diff {
        let mut told = Told::new(run.console, &args.inputs.paths);
        let counts = rewriter.run(
            run.globs,
            run.written,
            options,
            &args.inputs,
            run.out,
            &mut told,
        );
        if !quiet {
            say(format_args!(
                "would fix {} in {}",
                plural(counts.changes, "finding"),
                plural(counts.files, "file")
            ));
        }
        return FixRun {
            remaining: None,
            fixed: counts.changes,
            trouble: told.trouble,
            output: counts.output,
        };
    }
    // Stdin's fixed text goes to the output, so the report goes to stderr,
    // flushed after each input to keep its place among the messages there.
    let has_stdin = args.inputs.paths.iter().any(|path| path.as_os_str() == "-");
    let console = Console {
        interactive: run.console.interactive || has_stdin,
        ..run.console
    };
    let color = match has_stdin {
        true => color_choice(args.output.color, io::stderr().is_terminal()),
        false => color_choice(ColorArg::Never, false),
    };
    let mut stderr = OutputBuffer::new(BufferedStandardStream::stderr(color));
    let mut nowhere = NoColor::new(io::sink());
    let (text_out, report_out): (&mut dyn WriteColor, &mut dyn WriteColor) = match has_stdin {
        true => (&mut *run.out, &mut stderr),
        false => (&mut nowhere, &mut *run.out),
    };
    let mut reporter = report::check_reporter(args.format, args.statistics, quiet);
    let mut sink = ReportSink::new(
        report_out,
        reporter.as_mut(),
        console,
        &args.inputs.paths,
        false,
    );
    let counts = rewriter.run(
        run.globs,
        run.written,
        options,
        &args.inputs,
        text_out,
        &mut sink,
    );
    let output = counts
        .output
        .and_then(|()| sink.reporter.finish(sink.out, &sink.totals))
        .and_then(|()| sink.out.flush());
    if !quiet {
        say(format_args!(
            "fixed {} in {}; {} remain",
            plural(counts.changes, "finding"),
            plural(counts.files, "file"),
            sink.totals.errors + sink.totals.warnings
        ));
    }
    FixRun {
        remaining: Some(sink.totals),
        fixed: counts.changes,
        trouble: sink.trouble,
        output,
    }
}

/// `urlint fmt`: long URLs of plain-text files wrapped.
pub(super) fn fmt(run: RewriteRun<'_>, args: &FmtArgs) -> Outcome {
    let mut options = run.config.lint_options(run.config.levels(), None);
    options.scan.no_templates |= args.inputs.walk.no_templates;
    let mut rewriter = Rewriter {
        rewrite: Rewrite::Wrap(WrapOptions {
            width: usize::from(args.width),
            scan: options.scan.clone(),
        }),
        mode: match (args.check, args.diff) {
            (true, _) => Mode::List,
            (_, true) => Mode::Diff,
            _ => Mode::Write,
        },
        read: driver::read_options(&args.inputs.walk, run.console),
        named: Named::new(&args.inputs.paths),
    };
    // fmt reports nothing but what it formats: a named file it leaves
    // alone would otherwise pass `fmt --check` unread.
    let mut told = Told::new(run.console, &args.inputs.paths).failing_named_skips();
    let counts = rewriter.run(
        run.globs,
        run.written,
        options,
        &args.inputs,
        run.out,
        &mut told,
    );
    let (urls, files) = (plural(counts.changes, "URL"), plural(counts.files, "file"));
    match (rewriter.mode, run.console.quiet) {
        (_, true) => {}
        (Mode::Write, _) => say(format_args!("wrapped {urls} in {files}")),
        _ => say(format_args!("would wrap {urls} in {files}")),
    }
    Outcome {
        failing: rewriter.mode != Mode::Write && counts.files > 0,
        trouble: told.trouble,
        output: counts.output,
    }
}

/// What a run over its inputs came to.
#[derive(Debug)]
struct Counts {
    /// Fixes applied or URLs wrapped.
    changes: usize,
    /// Inputs changed.
    files: usize,
    /// Whether the output was written.
    output: io::Result<()>,
}

impl Rewriter {
    /// Rewrite every input of `inputs` in parallel, each linted with its own
    /// options; in input order, write diffs, names and stdin's text to
    /// `out` and hand the rest to `sink`.
    fn run(
        &mut self,
        globs: RunGlobs,
        written: &Written,
        options: LintOptions,
        inputs: &InputArgs,
        out: &mut dyn WriteColor,
        sink: &mut dyn Sink,
    ) -> Counts {
        let Prepared {
            inputs,
            threads,
            options,
            globs,
        } = driver::prepare(globs, options, inputs, written);
        self.read.globs = globs;
        let mut counts = Counts {
            changes: 0,
            files: 0,
            output: Ok(()),
        };
        counts.output = parallel::for_each_ordered(
            threads,
            |found| inputs.walk(found),
            |walked| match walked {
                RunStep::Input(input) => self.process(&input, &options.of(&input)),
                RunStep::Skipped(collected) => Done {
                    collected,
                    ..Done::default()
                },
            },
            |done| self.emit(done, &mut counts, out, sink),
        )
        .and_then(|()| out.flush());
        counts
    }

    /// Hand one input's results on, in input order.
    fn emit(
        &self,
        done: Done,
        counts: &mut Counts,
        out: &mut dyn WriteColor,
        sink: &mut dyn Sink,
    ) -> io::Result<()> {
        for message in &done.messages {
            say(format_args!("{message}"));
        }
        if let Some(name) = &done.changed {
            counts.files += 1;
            counts.changes += done.changes;
            if self.mode == Mode::List {
                writeln!(out, "would reformat: {}", crate::escape::line(name))?;
            }
        }
        out.write_all(done.diff.as_bytes())?;
        if let Some(text) = &done.stdout {
            out.write_all(text)?;
        }
        done.collected.replay(sink)
    }
}

/// Where a run without a report tells its notes, warnings and errors:
/// stderr, as `check` would tell them; checked texts are dropped.
struct Told {
    console: Console,
    named: Named,
    /// A named input left unread or unrewritten is an error (`fmt`).
    named_skips_fail: bool,
    /// An input failed.
    trouble: bool,
}

impl Told {
    fn new(console: Console, paths: &[PathBuf]) -> Self {
        Told {
            console,
            named: Named::new(paths),
            named_skips_fail: false,
            trouble: false,
        }
    }

    /// Make a named input that is skipped an error, exit status 2.
    fn failing_named_skips(mut self) -> Self {
        self.named_skips_fail = true;
        self
    }
}

impl Sink for Told {
    fn checked(&mut self, _: Checked) -> io::Result<()> {
        Ok(())
    }

    fn note(&mut self, note: Note) {
        if self.named_skips_fail && note.skipped && self.named.contains(&note.name) {
            self.error(InputError {
                name: note.name,
                action: "not formatted",
                cause: note.message,
            });
            return;
        }
        self.named.tell(self.console, &note);
    }

    fn warning(&mut self, note: Note) {
        say(format_args!("warning: {note}"));
    }

    fn error(&mut self, error: InputError) {
        say(format_args!("{error}"));
        self.trouble = true;
    }
}

/// How `input` is named in messages.
fn name_of(input: &Input) -> String {
    match input {
        Input::File(path) => Origin::File(path.clone()).to_string(),
        Input::Stdin => Origin::Stdin.to_string(),
    }
}

impl Rewriter {
    /// Read, rewrite and (in [`Mode::Write`]) write back one input, linted
    /// with `lint`; a panic becomes an error for this input alone.
    fn process(&self, input: &Input, lint: &LintOptions) -> Done {
        let name = name_of(input);
        let done = panic::catch_unwind(AssertUnwindSafe(|| self.process_unguarded(input, lint)));
        done.unwrap_or_else(|_| {
            let mut done = Done::default();
            done.collected.error(panicked(name));
            done
        })
    }

    fn process_unguarded(&self, input: &Input, lint: &LintOptions) -> Done {
        let mut done = Done::default();
        if let Input::File(path) = input {
            // Only a regular file can be replaced; opening a named pipe
            // would wait for a writer, and a device would be read forever.
            let regular = std::fs::metadata(path).map(|meta| meta.is_file());
            if let Ok(false) = regular {
                let name = Origin::File(path.clone()).to_string();
                let why = "not a regular file (a named pipe, device or socket); \
                           `urlint check` reads it";
                if self.named.contains(&name) {
                    // Asked for by name and neither read nor rewritten.
                    done.collected.error(InputError {
                        name,
                        action: "not rewritten",
                        cause: why.to_owned(),
                    });
                } else {
                    done.collected.note(Note {
                        name,
                        left: Some(Left::NotRewritten),
                        message: why.to_owned(),
                        skipped: true,
                    });
                }
                return done;
            }
        }
        if let (Rewrite::Wrap(_), Input::File(path)) = (&self.rewrite, input) {
            if let Some(compression) = Compression::from_name(path) {
                // Nothing to format, and nothing fmt reports to read for.
                done.collected.note(Note {
                    name: Origin::File(path.clone()).to_string(),
                    left: Some(Left::NotRewritten),
                    message: Kept::Compressed(compression).reason(),
                    skipped: true,
                });
                return done;
            }
            if !self.formats(path) {
                done.collected.note(Note {
                    name: Origin::File(path.clone()).to_string(),
                    left: Some(Left::NotFormatted),
                    message: "fmt rewrites plain text only (.txt, .text or no \
                              extension; --input text or a [kinds] text glob for any file)"
                        .to_string(),
                    skipped: true,
                });
                return done;
            }
        }
        let keep_fallback = matches!(self.rewrite, Rewrite::Fix(_));
        match input::read_for_rewrite(input, &self.read, lint, keep_fallback) {
            ForRewrite::Failed(err) => done.collected.error(err),
            ForRewrite::Kept {
                why,
                collected,
                bytes,
            } => {
                self.kept(&name_of(input), why, collected, &mut done);
                if *input == Input::Stdin && self.mode == Mode::Write {
                    done.stdout = Some(bytes);
                }
            }
            ForRewrite::Text {
                source,
                fallback,
                encoding,
                notes,
            } => {
                notes.into_iter().for_each(|note| done.collected.note(note));
                self.rewrite_text(input, source, (fallback, encoding), lint, &mut done);
            }
        }
        done
    }

    /// True when `fmt` takes the file at `path` as plain text: `--input
    /// text` or a `[kinds]` text glob says so, or nothing names its kind and
    /// its name is a plain-text one. Markdown and HTML are not formatted:
    /// their URLs are delimited by the markup, which a wrapper would break.
    /// A symbolic link is judged by its own name and by the name of the
    /// file it leads to, which is the one rewritten (`notes.txt` linked to
    /// `README.md` is Markdown).
    fn formats(&self, path: &Path) -> bool {
        let target = std::fs::canonicalize(path).ok();
        std::iter::once(path).chain(target.as_deref()).all(|path| {
            match self.read.kind.named(&self.read.globs, path) {
                Some(content) => content == Content::Text(Markup::Plain),
                None => is_plain_text_name(path),
            }
        })
    }

    /// An input read but not rewritten: its findings reported, and why it
    /// was not rewritten said when that hides something to do.
    fn kept(&self, input_name: &str, why: Kept, collected: Collected, done: &mut Done) {
        let name = collected
            .checked_texts()
            .first()
            .map(|checked| checked.source.name.clone())
            // A compressed file is told about even when it held no text.
            .or_else(|| matches!(why, Kept::Compressed(_)).then(|| input_name.to_owned()));
        let fixable = match &self.rewrite {
            Rewrite::Fix(selection) => collected
                .checked_texts()
                .iter()
                .flat_map(|checked| &checked.reports)
                .flat_map(|report| &report.findings)
                .filter_map(|finding| finding.diagnostic.fix.as_ref())
                .any(|fix| selection.allows(fix.applicability)),
            Rewrite::Wrap(_) => false,
        };
        done.collected = collected;
        let Some(name) = name.filter(|_| why != Kept::Binary) else {
            return;
        };
        if fixable && matches!(why, Kept::Undecodable(_)) {
            // Its fixes are wanted and would be lost: told as trouble, as
            // a file that cannot be written is.
            done.collected.error(InputError {
                name,
                action: Left::NotRewritten.words(),
                cause: why.reason(),
            });
        } else if fixable {
            done.messages.push(format!("note: {name}: {why}"));
        } else {
            done.collected.note(Note {
                name,
                left: Some(Left::NotRewritten),
                message: why.reason(),
                skipped: matches!(self.rewrite, Rewrite::Wrap(_)),
            });
        }
    }

    /// Rewrite a plain text and do with it what the mode says. `fallback`
    /// holds where the bytes that are not UTF-8 went (see
    /// `input::ForRewrite::Text`); only a fix is given such a text.
    fn rewrite_text(
        &self,
        input: &Input,
        source: Source,
        (fallback, encoding): (Vec<usize>, Option<Unicode>),
        lint: &LintOptions,
        done: &mut Done,
    ) {
        let (text, kept, changes) = match &self.rewrite {
            Rewrite::Fix(selection) => {
                let markup = source.markup;
                let linter = |text: &str, each: &mut dyn FnMut(lint::UrlReport)| {
                    lint::lint_markup(text, markup, lint)
                        .filter_map(Linted::into_url)
                        .for_each(each);
                };
                let fixed =
                    fix_text_keeping(&source.text, fallback.clone(), markup, &linter, *selection);
                done.messages.extend(fix_warnings(&source.name, &fixed));
                (fixed.text, fixed.kept, fixed.fixed)
            }
            Rewrite::Wrap(options) => {
                let wrapped = wrap_text(&source.text, options);
                done.messages.extend(
                    wrapped.notes.iter().map(|note| {
                        format!("note: {}:{}: {}", source.name, note.line, note.message)
                    }),
                );
                (wrapped.text, Vec::new(), wrapped.wrapped)
            }
        };
        let changed = text != source.text;
        let reported = Source::new(source.origin.clone(), text).written_in(source.markup);
        // The bytes read and the bytes to write: the texts' own, but for
        // the stray bytes a Latin-1 character stands for; or the texts in
        // the UTF-16 or UTF-32 they were read from, mark first.
        let encoded = |text, fallback| match encoding {
            Some(encoding) => Some(Cow::Owned(encoding.encode(text))),
            None => encode_decoded(text, fallback),
        };
        let (Some(read), Some(written)) = (
            encoded(&source.text, &fallback),
            encoded(&reported.text, &kept),
        ) else {
            // Cannot happen: no fix touches those characters.
            done.collected.error(InputError {
                name: source.name.clone(),
                action: "not rewritten",
                cause: "its bytes that are not UTF-8 could not be kept".to_owned(),
            });
            self.collect(source.clone(), lint, done);
            return;
        };
        if changed {
            match (self.mode, input) {
                (Mode::Diff, _) => {
                    done.diff =
                        unified_diff(&diff_path(&source.name), &source.text, &reported.text);
                    if let Some(encoding) = encoding {
                        done.messages.push(format!(
                            "note: {}: {} text: the diff shows it decoded to UTF-8, which \
                             patch cannot apply to it; --fix and fmt write it in {} with its \
                             byte-order mark",
                            source.name,
                            encoding.name(),
                            encoding.name()
                        ));
                    }
                }
                (Mode::List | Mode::Write, Input::Stdin) | (Mode::List, _) => {}
                (Mode::Write, Input::File(path)) => {
                    if let Err(err) = replace_file(path, &read, &written) {
                        done.collected.error(InputError {
                            name: source.name.clone(),
                            action: "not rewritten",
                            cause: err.to_string(),
                        });
                        done.changes = 0;
                        self.collect(source.clone(), lint, done);
                        return;
                    }
                }
            }
            done.changes = changes;
            done.changed = Some(source.name.clone());
        }
        if *input == Input::Stdin && self.mode == Mode::Write {
            done.stdout = Some(written.into_owned());
        }
        // Only the text as written is reported: the text read (and its
        // bytes) go before it is linted, a large file's reports held beside
        // one text, not three.
        drop(read);
        drop(source);
        self.collect(reported, lint, done);
    }

    /// Keep the checked text that `check --fix` reports: the text as
    /// written, linted once more (the passes kept only what fixing needed
    /// of each URL's report). The reports are gathered straight into the
    /// checked text and held without spare room: a large file's are held
    /// until the run reports them.
    fn collect(&self, source: Source, lint: &LintOptions, done: &mut Done) {
        if let Rewrite::Fix(_) = self.rewrite {
            let (named, text) = source.into_parts();
            let linted = lint::lint_markup(&text, named.markup, lint);
            let mut checked = Checked::without_text(named, linted).with_text(text);
            checked.reports.shrink_to_fit();
            done.collected
                .warnings
                .extend(input::unclosed_note(&checked));
            let _ = Sink::checked(&mut done.collected, checked);
        }
    }
}

/// Warnings about fixes that were selected but not applied.
fn fix_warnings(name: &str, fixed: &Fixed) -> Vec<String> {
    let mut warnings = Vec::new();
    if let Some(why) = fixed.unplaced.first() {
        warnings.push(format!(
            "warning: {name}: {} not applied: {why}",
            plural(fixed.unplaced.len(), "fix")
        ));
    }
    match fixed.stopped {
        Some(Stopped::PassLimit) => warnings.push(format!(
            "warning: {name}: fixes still left after {MAX_PASSES} passes; run again to go on"
        )),
        Some(Stopped::UrlsMoved) => warnings.push(format!(
            "warning: {name}: some fixes were not applied: they would move where a URL \
             starts or ends in the text"
        )),
        None => {}
    }
    warnings
}

/// True for a file name `fmt` takes as plain text: `.txt`, `.text` or no
/// extension (RFCs, READMEs, NOTES).
fn is_plain_text_name(path: &Path) -> bool {
    match path.extension().and_then(|ext| ext.to_str()) {
        None => true,
        Some(ext) => ext.eq_ignore_ascii_case("txt") || ext.eq_ignore_ascii_case("text"),
    }
}

/// The path a diff names, as `patch -p1` run where urlint ran finds it:
/// `./` prefixes dropped, `/` separators.
fn diff_path(name: &str) -> String {
    report::repository_path(&name.replace('\\', "/")).to_owned()
}

/// "1 file", "3 files", "2 fixes".
fn plural(count: usize, noun: &str) -> String {
    match (count, noun.ends_with('x')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{count} {noun}es"),
        _ => format!("{count} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_paths_are_relative_with_forward_slashes() {
        for (name, path) in [
            ("./docs/a.txt", "docs/a.txt"),
            ("docs\\b.txt", "docs/b.txt"),
            ("c.txt", "c.txt"),
        ] {
            assert_eq!(diff_path(name), path);
        }
    }

    #[test]
    fn fmt_takes_txt_text_and_extensionless_names_as_plain_text() {
        for (name, plain) in [
            ("rfc1738.txt", true),
            ("NOTES", true),
            ("a.TEXT", true),
            ("README.md", false),
            ("index.html", false),
            ("list.mbox", false),
            ("main.rs", false),
        ] {
            assert_eq!(is_plain_text_name(Path::new(name)), plain, "{name}");
        }
    }
}
