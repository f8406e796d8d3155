//! Writing a run's output: stdout (or `--output-file`) through a buffer
//! that keeps colours in order, messages on stderr that survive a closed
//! stderr, and telling a closed pipe from a real write error.

use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use codespan_reporting::term::termcolor::{ColorChoice, ColorSpec, HyperlinkSpec, WriteColor};

use super::cli::ColorArg;
use crate::escape;
use crate::write::Temporary;

/// Whether descriptor 1 was closed when the process started (`urlint check
/// f.txt >&-`), set before `main` by [`LOOK_AT_STDOUT`].
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Rust's runtime opens `/dev/null` on a closed standard descriptor before
/// `main` runs, so a report written to a closed stdout would vanish without
/// an error and nothing could tell it from `>/dev/null` after the fact; a
/// constructor, which runs before the runtime does, looks at the descriptor
/// first. (Not in the Python module, whose host owns its descriptors.)
#[cfg(all(target_os = "linux", not(feature = "python")))]
#[used]
#[link_section = ".init_array"]
static LOOK_AT_STDOUT: extern "C" fn() = look_at_stdout;

/// Note whether descriptor 1 is open.
#[cfg(all(target_os = "linux", not(feature = "python")))]
extern "C" fn look_at_stdout() {
    // SAFETY: F_GETFD only reads a descriptor's flags, for any number.
    let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// True when stdout cannot take output: it was closed when urlint started,
/// or is open for reading only (`1</dev/null`). Nothing written to it
/// reaches anyone, and Rust's stdout takes the EBADF of such a write for
/// success.
pub(super) fn stdout_unusable() -> bool {
    STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) || stdout_is_read_only()
}

/// True when descriptor 1 is open for reading only.
#[cfg(unix)]
fn stdout_is_read_only() -> bool {
    // SAFETY: F_GETFL only reads a descriptor's flags, for any number.
    let flags = unsafe { libc::fcntl(1, libc::F_GETFL) };
    flags >= 0 && flags & libc::O_ACCMODE == libc::O_RDONLY
}

/// Elsewhere the runtime's own errors tell.
#[cfg(not(unix))]
fn stdout_is_read_only() -> bool {
    false
}

/// True when `path` names this process's stdout (`/dev/stdout`,
/// `/dev/fd/1`, `/proc/self/fd/1`), directly or through links.
pub(super) fn names_stdout(path: &Path) -> bool {
    let own = format!("/proc/{}/fd/1", std::process::id());
    let mut path = path.to_path_buf();
    // A chain of links is followed a few steps, as far as one can go wrong.
    for _ in 0..8 {
        let said = path.as_os_str();
        if ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", own.as_str()]
            .iter()
            .any(|name| said == *name)
        {
            return true;
        }
        match std::fs::read_link(&path) {
            Ok(next) if next.is_absolute() => path = next,
            Ok(next) => match path.parent() {
                Some(parent) => path = parent.join(next),
                None => return false,
            },
            Err(_) => return false,
        }
    }
    false
}

/// Bytes gathered before they are handed to the stream below.
const OUTPUT_BUFFER_LEN: usize = 64 << 10;

/// A buffer in front of the output stream: reporters write JSON a token at
/// a time through `dyn WriteColor`, and each token going through termcolor's
/// stream cost more than the token itself (a third of `extract --format
/// jsonl` on URL-dense text). Colours and hyperlinks pass through in order,
/// after what was written before them.
pub(super) struct OutputBuffer<W: WriteColor> {
    inner: W,
    buffer: Vec<u8>,
}

impl<W: WriteColor> OutputBuffer<W> {
    pub(super) fn new(inner: W) -> Self {
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
    /// own buffer is written out when it drops: an early exit loses nothing
    /// already reported.
    fn drop(&mut self) {
        let _ = self.drain();
    }
}

/// A report written to a file (`--output-file`), as the shell's `>` would
/// write it, but never half: a regular file (or a new one) is written into
/// a temporary file beside it and renamed over it once the report is
/// complete, so that it never holds half a report and a previous report
/// survives a failed run; a symbolic link is followed, and the file it
/// names replaced (the link stays a link); a device, FIFO or socket
/// (`/dev/null`, `/dev/stdout`, a named pipe) is written through as the
/// report goes, since it cannot be replaced and must not be (`/dev/full`
/// replaced by a regular file, as root, would break the machine).
#[derive(Debug)]
pub(super) struct ReportFile {
    /// The path as given.
    path: PathBuf,
    target: Target,
}

/// Where a [`ReportFile`] goes.
#[derive(Debug)]
enum Target {
    /// A regular file at `path`, or none yet: replaced on commit.
    Replaced { path: PathBuf, temporary: Temporary },
    /// A file that is not regular, written as the report goes.
    Streamed(File),
}

impl ReportFile {
    /// Start a report to `path`: its directory must exist and `path` must
    /// not be a directory.
    pub(super) fn create(path: &Path) -> io::Result<ReportFile> {
        if path.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a directory",
            ));
        }
        if path.file_name().is_none() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "it does not name a file",
            ));
        }
        let target = match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() => {
                // Opened through the path, so that a link to /proc/self/fd/1
                // reaches the descriptor it names.
                Target::Streamed(std::fs::OpenOptions::new().write(true).open(path)?)
            }
            Ok(_) => {
                let real = std::fs::canonicalize(path)?;
                Target::Replaced {
                    temporary: Temporary::create(&real, 0o666)?,
                    path: real,
                }
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {
                let real = link_target(path)?;
                Target::Replaced {
                    temporary: Temporary::create(&real, 0o666)?,
                    path: real,
                }
            }
            Err(err) => return Err(err),
        };
        Ok(ReportFile {
            path: path.to_path_buf(),
            target,
        })
    }

    /// A handle to write the report through.
    pub(super) fn writer(&self) -> io::Result<File> {
        match &self.target {
            Target::Replaced { temporary, .. } => temporary.file().try_clone(),
            Target::Streamed(file) => file.try_clone(),
        }
    }

    /// The report's path, the file it reaches and its temporary file: files
    /// the run writes, which it must not read as inputs.
    pub(super) fn paths(&self) -> Vec<&Path> {
        let mut paths = vec![self.path.as_path()];
        if let Target::Replaced { path, temporary } = &self.target {
            paths.extend([path.as_path(), temporary.path()]);
        }
        paths
    }

    /// Put the complete report in place. A report not committed (a write
    /// failed, or the run stopped early) leaves no file behind, and the
    /// previous report as it was; a streamed one has gone out already.
    pub(super) fn commit(self) -> io::Result<()> {
        match self.target {
            Target::Replaced {
                path,
                mut temporary,
            } => {
                temporary.file().sync_all()?;
                temporary.persist(&path)
            }
            Target::Streamed(_) => Ok(()),
        }
    }
}

/// The file a path that names nothing yet would create, as `>` would: the
/// path itself, or the end of the chain of symbolic links it starts (a
/// dangling link creates the file it names).
fn link_target(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    // As many links as the kernel follows (Linux's MAXSYMLINKS).
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) if next.is_relative() => dir.join(next),
                    _ => next,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "too many levels of symbolic links",
    ))
}

/// True when `err` is a closed output pipe, also when a serialiser wrapped
/// the pipe's error in its own (serde_json's error becomes `Other`).
pub(super) fn is_broken_pipe(err: &io::Error) -> bool {
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
pub(super) fn say(message: fmt::Arguments<'_>) {
    let _ = writeln!(
        io::stderr().lock(),
        "urlint: {}",
        escape::text(&message.to_string())
    );
}

/// Whether to colour: `auto` colours only a terminal, and termcolor's `Auto`
/// then still honours NO_COLOR and TERM=dumb.
pub(super) fn color_choice(color: ColorArg, is_terminal: bool) -> ColorChoice {
    match color {
        ColorArg::Always => ColorChoice::Always,
        ColorArg::Never => ColorChoice::Never,
        ColorArg::Auto if is_terminal => ColorChoice::Auto,
        ColorArg::Auto => ColorChoice::Never,
    }
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

    /// Write `text` as a whole report to `path`.
    fn report_to(path: &Path, text: &str) -> io::Result<()> {
        let report = ReportFile::create(path)?;
        report.writer()?.write_all(text.as_bytes())?;
        report.commit()
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = dir.path().join("real.txt");
        std::fs::write(&real, "old\n").expect("write");
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).expect("link");
        report_to(&link, "new\n").expect("report");
        assert!(std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).expect("read"), "new\n");
        // A dangling link makes the file it names, as `>` does.
        let dangling = dir.path().join("dangling.txt");
        std::os::unix::fs::symlink("made.txt", &dangling).expect("link");
        report_to(&dangling, "made\n").expect("report");
        assert!(std::fs::symlink_metadata(&dangling)
            .expect("link")
            .file_type()
            .is_symlink());
        let made = dir.path().join("made.txt");
        assert_eq!(std::fs::read_to_string(made).expect("read"), "made\n");
        let mut names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|entry| entry.expect("entry").file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["dangling.txt", "link.txt", "made.txt", "real.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_or_fifo_is_written_through_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        report_to(Path::new("/dev/null"), "gone\n").expect("report");
        let null = std::fs::metadata("/dev/null").expect("/dev/null");
        assert!(
            null.file_type().is_char_device(),
            "/dev/null is still a device"
        );

        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|status| status.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read the fifo"))
        };
        report_to(&fifo, "through the pipe\n").expect("report");
        assert_eq!(reader.join().expect("reader"), "through the pipe\n");
        let meta = std::fs::symlink_metadata(&fifo).expect("fifo");
        assert!(meta.file_type().is_fifo(), "still a FIFO");
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1);
    }

    #[test]
    fn a_report_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("report.txt");
        std::fs::write(&path, "old report\n").expect("write");
        let names = || -> Vec<String> {
            let mut names: Vec<String> = std::fs::read_dir(dir.path())
                .expect("list")
                .map(|entry| {
                    entry
                        .expect("entry")
                        .file_name()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            names.sort();
            names
        };
        let failed = ReportFile::create(&path).expect("create");
        failed
            .writer()
            .and_then(|mut w| w.write_all(b"half"))
            .expect("write");
        assert_eq!(
            names().len(),
            2,
            "the temporary file sits beside the report"
        );
        drop(failed);
        assert_eq!(names(), ["report.txt"]);
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "old report\n"
        );

        let done = ReportFile::create(&path).expect("create");
        done.writer()
            .and_then(|mut w| w.write_all(b"new report\n"))
            .expect("write");
        done.commit().expect("commit");
        assert_eq!(names(), ["report.txt"]);
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "new report\n"
        );

        let err = ReportFile::create(dir.path()).expect_err("a directory");
        assert_eq!(err.kind(), io::ErrorKind::IsADirectory);
        let missing = ReportFile::create(&dir.path().join("no/such/dir/report.txt"));
        assert!(missing.is_err());
    }

    #[test]
    fn auto_colour_needs_a_terminal() {
        assert_eq!(color_choice(ColorArg::Auto, false), ColorChoice::Never);
        assert_eq!(color_choice(ColorArg::Auto, true), ColorChoice::Auto);
        assert_eq!(color_choice(ColorArg::Always, false), ColorChoice::Always);
        assert_eq!(color_choice(ColorArg::Never, true), ColorChoice::Never);
    }
}
