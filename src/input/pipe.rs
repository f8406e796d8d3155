//! Opening a named input without waiting on a named pipe (FIFO) that no
//! process writes to.
//!
//! Opening a FIFO for reading blocks until some process opens it for
//! writing, so a FIFO named by mistake would stall the run, and every input
//! reported after it, for good. A FIFO is opened non-blocking instead, which
//! never waits; its first read then tells the two cases apart: end of file
//! at once means no process has it open for writing (the input is skipped
//! with a warning), while "would block" means a writer is there and has not
//! written yet. From then on the pipe is read as written, waiting out "would
//! block" with short sleeps, so `urlint check <(command)` reads all the
//! command prints.
//!
//! [`open`] asks what the path is before opening it, for an input read as a
//! stream. A worker reading a small file whole opens every file the same
//! non-blocking way with [`open_without_waiting`], which asks nothing, and
//! tells a pipe by how its reads go (see `load::read_file_start`): one
//! `stat` per file of a tree was a large part of reading it.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// What opening a named input gave.
pub(super) enum Opened {
    /// A file or device, read as it is.
    File(File),
    /// A named pipe with a writer: what it has written and will write.
    Pipe(PipeReader),
    /// A named pipe that no process has open for writing.
    NoWriter,
}

/// A stream that cannot be read again (a pipe or a device), handed from
/// the worker that opened it to the thread that reads it.
pub(crate) struct PipeReader(Box<dyn Read + Send>);

impl PipeReader {
    /// Read from `reader`.
    pub(super) fn new(reader: Box<dyn Read + Send>) -> Self {
        PipeReader(reader)
    }
}

impl Read for PipeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.read(buf)
    }
}

impl std::fmt::Debug for PipeReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PipeReader")
    }
}

/// The note for a named pipe that no process writes to.
pub(super) const NO_WRITER: &str = "a named pipe that no process has open for \
     writing (to wait for a writer, give `-` and redirect the pipe to stdin)";

/// Open `path` for reading; a named pipe without waiting for a writer.
#[cfg(unix)]
pub(super) fn open(path: &Path) -> io::Result<Opened> {
    use std::os::unix::fs::FileTypeExt;

    let fifo = std::fs::metadata(path).is_ok_and(|meta| meta.file_type().is_fifo());
    if !fifo {
        return File::open(path).map(Opened::File);
    }
    let mut pipe = Pipe::new(open_without_waiting(path)?);
    let mut first = vec![0; FIRST_READ_LEN];
    let read = loop {
        match pipe.file.read(&mut first) {
            Ok(0) => return Ok(Opened::NoWriter),
            Ok(read) => break read,
            Err(err) if err.kind() == io::ErrorKind::WouldBlock => break 0,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        }
    };
    first.truncate(read);
    let reader = io::Cursor::new(first).chain(pipe);
    Ok(Opened::Pipe(PipeReader::new(Box::new(reader))))
}

/// Open `path` for reading (named pipes are a Unix matter).
#[cfg(not(unix))]
pub(super) fn open(path: &Path) -> io::Result<Opened> {
    File::open(path).map(Opened::File)
}

/// Open `path` for reading without asking what it is, for a reader that
/// tells a pipe by how it reads (see [`is_fifo`] and [`stream`]): opening
/// non-blocking never waits for a writer, and changes nothing for reading
/// a regular file. A file another process holds a write lease on (a Samba
/// oplock, an NFS delegation) refuses such an open instead of waiting for
/// the lease to be given up; it is opened again, waiting, as before.
#[cfg(unix)]
pub(super) fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::fs::OpenOptions;
    use std::os::unix::fs::OpenOptionsExt;

    let opened = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path);
    match opened {
        // Only a lease says so: a named pipe opened this way never waits.
        Err(err) if err.kind() == io::ErrorKind::WouldBlock => File::open(path),
        opened => opened,
    }
}

/// Open `path` for reading (named pipes are a Unix matter).
#[cfg(not(unix))]
pub(super) fn open_without_waiting(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Whether an opened file is a named pipe: asked when its first read
/// found nothing, which a pipe without a writer and an empty file share.
#[cfg(unix)]
pub(super) fn is_fifo(file: &File) -> bool {
    use std::os::unix::fs::FileTypeExt;

    file.metadata().is_ok_and(|meta| meta.file_type().is_fifo())
}

/// Whether an opened file is a named pipe (never, off Unix).
#[cfg(not(unix))]
pub(super) fn is_fifo(_file: &File) -> bool {
    false
}

/// Read a file opened by [`open_without_waiting`] that turned out not to
/// be a regular file (a pipe, a device) as a stream, waiting out "would
/// block" as a blocking read would.
#[cfg(unix)]
pub(super) fn stream(file: File) -> PipeReader {
    PipeReader::new(Box::new(Pipe::new(file)))
}

/// Read a file that is not a regular file as a stream.
#[cfg(not(unix))]
pub(super) fn stream(file: File) -> PipeReader {
    PipeReader::new(Box::new(file))
}

/// Bytes the first read of a pipe asks for.
#[cfg(unix)]
const FIRST_READ_LEN: usize = 64 * 1024;

/// The shortest and the longest sleep while a writer has nothing written.
#[cfg(unix)]
const WAIT_RANGE: (std::time::Duration, std::time::Duration) = (
    std::time::Duration::from_millis(1),
    std::time::Duration::from_millis(50),
);

/// A pipe opened non-blocking, read as if it blocked: end of file once the
/// last writer closes it.
#[cfg(unix)]
struct Pipe {
    file: File,
    /// How long to sleep on the next "would block"; doubles while the
    /// writer stays quiet, so a slow writer costs a few wake-ups a second.
    wait: std::time::Duration,
}

#[cfg(unix)]
impl Pipe {
    fn new(file: File) -> Self {
        Pipe {
            file,
            wait: WAIT_RANGE.0,
        }
    }
}

#[cfg(unix)]
impl Read for Pipe {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.file.read(buf) {
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => {
                    std::thread::sleep(self.wait);
                    self.wait = (self.wait * 2).min(WAIT_RANGE.1);
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                result => {
                    self.wait = WAIT_RANGE.0;
                    return result;
                }
            }
        }
    }
}
