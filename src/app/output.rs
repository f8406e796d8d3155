//! Writing a run's output: stdout (or `--output-file`) through a buffer
//! that keeps colours in order, messages on stderr that survive a closed
//! stderr, and telling a closed pipe from a real write error.

use std::fmt;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use codespan_reporting::term::termcolor::{ColorChoice, ColorSpec, HyperlinkSpec, WriteColor};

use super::cli::ColorArg;
use crate::escape;
use crate::write::Temporary;

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

/// A report written to a file (`--output-file`): into a temporary file
/// beside it, renamed over it once the report is complete, so that the file
/// never holds half a report and a previous report survives a failed run.
#[derive(Debug)]
pub(super) struct ReportFile {
    path: PathBuf,
    temporary: Temporary,
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
        Ok(ReportFile {
            path: path.to_path_buf(),
            temporary: Temporary::create(path, 0o666)?,
        })
    }

    /// A handle to write the report through.
    pub(super) fn writer(&self) -> io::Result<File> {
        self.temporary.file().try_clone()
    }

    /// The report's path and its temporary file's: files the run writes,
    /// which it must not read as inputs.
    pub(super) fn paths(&self) -> [&Path; 2] {
        [&self.path, self.temporary.path()]
    }

    /// Put the complete report in place. A report not committed (a write
    /// failed, or the run stopped early) leaves no file behind, and the
    /// previous report as it was.
    pub(super) fn commit(mut self) -> io::Result<()> {
        self.temporary.file().sync_all()?;
        self.temporary.persist(&self.path)
    }
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
