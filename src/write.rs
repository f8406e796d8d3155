//! The writing side: replacing a file's contents in place, so that a crash
//! or a race never leaves a half-written or silently clobbered file.
//!
//! The new contents go to a temporary file in the same directory, get the
//! original's mode, owner and extended attributes (ACLs), are synced to
//! disk, and are renamed over the original, an atomic step on POSIX file
//! systems. Before the rename the file is read again: if its bytes are no
//! longer those the rewrite started from, or another file now has its name,
//! someone else changed it meanwhile and it is left alone; so is a file
//! another process holds open for writing, whose later writes would go to
//! the replaced file. A file
//! whose mode has no write bit is refused as read-only even when the
//! process could write it (as root can): its owner said not to.
//!
//! A symbolic link is followed: the file it points to is replaced and the
//! link stays. A file with several hard links loses the link to the others
//! (it is a new file under the same name), as with any editor that saves
//! by renaming.

use std::collections::BTreeSet;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Why a file was not replaced.
#[derive(Debug)]
pub(crate) enum WriteError {
    /// The file's mode has no write bit.
    ReadOnly,
    /// The file is not a regular file (a FIFO, a device).
    NotRegular,
    /// The file's contents changed after they were read.
    Changed,
    /// Another process holds the file open for writing: what it writes
    /// after the rename would go to the replaced file, and be lost.
    OpenForWriting,
    /// An extended attribute (an ACL, a label) could not be given to the
    /// new file: replacing the file would drop it.
    Attribute {
        /// The attribute's name (`user.origin`, `system.posix_acl_access`).
        name: String,
        /// Why.
        error: io::Error,
    },
    /// An I/O error, and what was being done.
    Io {
        /// What failed ("cannot create a temporary file").
        action: &'static str,
        /// Why.
        error: io::Error,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::ReadOnly => f.write_str("read-only: the file's mode has no write bit"),
            WriteError::NotRegular => f.write_str("not a regular file"),
            WriteError::Changed => f.write_str(
                "the file changed while urlint was working on it; it was left as it now is",
            ),
            WriteError::OpenForWriting => {
                f.write_str("another process has the file open for writing; it was left as it is")
            }
            WriteError::Attribute { name, error } => write!(
                f,
                "cannot give the new file the extended attribute {name} ({error}); \
                 it was left as it is"
            ),
            WriteError::Io { action, error } => write!(f, "{action}: {error}"),
        }
    }
}

/// Replace the contents of the file at `path`, read as `read`, with `new`.
pub(crate) fn replace_file(path: &Path, read: &[u8], new: &[u8]) -> Result<(), WriteError> {
    let io = |action| move |error| WriteError::Io { action, error };
    let target = fs::canonicalize(path).map_err(io("cannot resolve the path"))?;
    let metadata = fs::metadata(&target).map_err(io("cannot read the file's metadata"))?;
    if !metadata.is_file() {
        return Err(WriteError::NotRegular);
    }
    if !has_write_bit(&metadata) {
        return Err(WriteError::ReadOnly);
    }
    // Private until it has the original's mode: the file may be private too.
    let mut temporary =
        Temporary::create(&target, 0o600).map_err(io("cannot create a temporary file"))?;
    temporary
        .file
        .write_all(new)
        .map_err(io("cannot write the temporary file"))?;
    keep_mode_and_owner(&target, &temporary.file, &metadata)?;
    temporary
        .file
        .sync_all()
        .map_err(io("cannot sync the temporary file"))?;
    before_replace_hook(&target);
    let current = fs::read(&target).map_err(io("cannot read the file again"))?;
    if current != read || !same_file(&metadata, &target) {
        return Err(WriteError::Changed);
    }
    if open_for_writing(&target) {
        return Err(WriteError::OpenForWriting);
    }
    temporary
        .persist(&target)
        .map_err(io("cannot rename the temporary file"))?;
    // The rename is on disk once the directory is; some file systems cannot
    // sync a directory, and the file itself already is.
    if let Some(directory) = target.parent() {
        let _ = File::open(directory).and_then(|directory| directory.sync_all());
    }
    Ok(())
}

/// True when any of the mode's write bits is set.
#[cfg(unix)]
fn has_write_bit(metadata: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o222 != 0
}

/// True when the file is not marked read-only.
#[cfg(not(unix))]
fn has_write_bit(metadata: &fs::Metadata) -> bool {
    !metadata.permissions().readonly()
}

/// Give the temporary file the original's permission bits, owner and (on
/// Linux) extended attributes, ACLs among them.
#[cfg(unix)]
fn keep_mode_and_owner(
    path: &Path,
    file: &File,
    original: &fs::Metadata,
) -> Result<(), WriteError> {
    use std::os::unix::fs::{fchown, MetadataExt, PermissionsExt};
    let io = |action| move |error| WriteError::Io { action, error };
    let mode = original.permissions().mode() & 0o7777;
    let created = file
        .metadata()
        .map_err(io("cannot read the temporary file"))?;
    if (created.uid(), created.gid()) != (original.uid(), original.gid()) {
        fchown(file, Some(original.uid()), Some(original.gid()))
            .map_err(io("cannot give the new file the original's owner"))?;
    }
    // After the owner, which may clear some (a capability); before the
    // mode, which an access ACL's mask would otherwise change.
    attributes::copy(path, file)?;
    // After the owner: changing owners may clear set-id bits.
    file.set_permissions(fs::Permissions::from_mode(mode))
        .map_err(io("cannot give the new file the original's mode"))
}

/// Give the temporary file the original's permissions.
#[cfg(not(unix))]
fn keep_mode_and_owner(_: &Path, file: &File, original: &fs::Metadata) -> Result<(), WriteError> {
    file.set_permissions(original.permissions())
        .map_err(|error| WriteError::Io {
            action: "cannot give the new file the original's permissions",
            error,
        })
}

/// True when `path` still names the file `read` describes: the same inode
/// on the same device, of the same size and modification time. A program
/// that saves by renaming makes a new inode, even with the same bytes.
#[cfg(unix)]
fn same_file(read: &fs::Metadata, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).is_ok_and(|now| {
        (
            now.dev(),
            now.ino(),
            now.len(),
            now.mtime(),
            now.mtime_nsec(),
        ) == (
            read.dev(),
            read.ino(),
            read.len(),
            read.mtime(),
            read.mtime_nsec(),
        )
    })
}

/// True when `path` still has the size and modification time `read` says.
#[cfg(not(unix))]
fn same_file(read: &fs::Metadata, path: &Path) -> bool {
    fs::metadata(path)
        .is_ok_and(|now| (now.len(), now.modified().ok()) == (read.len(), read.modified().ok()))
}

/// True when another process holds `path` open for writing (Linux only):
/// a read lease, which the kernel grants only on a file nobody has open
/// for writing, is asked for and at once given back. Where leases are not
/// to be had (another owner's file without CAP_LEASE, a file system
/// without them), nothing can be told and the file counts as free.
#[cfg(target_os = "linux")]
fn open_for_writing(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(file) = File::open(path) else {
        return false;
    };
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this function owns, with integer
    // arguments. A lease break while it is held (another process opening
    // the file for writing in between) is signalled with SIGURG, ignored
    // by default, instead of SIGIO, whose default ends the process.
    unsafe {
        if libc::fcntl(fd, F_SETSIG, libc::SIGURG) != 0 {
            return false;
        }
        if libc::fcntl(fd, libc::F_SETLEASE, libc::F_RDLCK) == 0 {
            libc::fcntl(fd, libc::F_SETLEASE, libc::F_UNLCK);
            return false;
        }
    }
    io::Error::last_os_error().raw_os_error() == Some(libc::EAGAIN)
}

/// fcntl's command to choose the signal of a lease break (`<fcntl.h>`'s
/// value on Linux; the libc crate leaves it out).
#[cfg(target_os = "linux")]
const F_SETSIG: libc::c_int = 10;

/// Elsewhere nothing tells whether another process writes the file.
#[cfg(not(target_os = "linux"))]
fn open_for_writing(_: &Path) -> bool {
    false
}

/// Extended attributes (Linux): ACLs (`system.posix_acl_access`), SELinux
/// labels and `user.*` attributes belong to the file, not its bytes, so a
/// replaced file must carry them over as it does the mode.
#[cfg(target_os = "linux")]
mod attributes {
    use std::ffi::{CStr, CString};
    use std::fs::File;
    use std::io;
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    use super::WriteError;

    /// Give `file` every extended attribute of the file at `original` that
    /// it does not already have with the same value.
    pub(super) fn copy(original: &Path, file: &File) -> Result<(), WriteError> {
        let lost = |name: &CStr, error| WriteError::Attribute {
            name: name.to_string_lossy().into_owned(),
            error,
        };
        let Ok(path) = CString::new(original.as_os_str().as_bytes()) else {
            return Ok(());
        };
        let names = match read_sized(|buf, len| {
            // SAFETY: `buf` holds `len` writable bytes (or is null with 0).
            unsafe { libc::llistxattr(path.as_ptr(), buf.cast(), len) }
        }) {
            Ok(names) => names,
            // A file system without extended attributes has none to keep.
            Err(err) if unsupported(&err) => return Ok(()),
            Err(err) => {
                return Err(WriteError::Io {
                    action: "cannot list the file's extended attributes",
                    error: err,
                })
            }
        };
        let fd = file.as_raw_fd();
        // A directory's default ACL gives a new file an access ACL of its
        // own; the file replaced had none, and the new one must not either.
        let access_acl = c"system.posix_acl_access";
        let has_access_acl = names
            .split(|&byte| byte == 0)
            .any(|name| name == access_acl.to_bytes());
        if !has_access_acl {
            // SAFETY: a NUL-terminated name on the temporary file's descriptor.
            let removed = unsafe { libc::fremovexattr(fd, access_acl.as_ptr()) };
            if removed != 0 {
                let err = io::Error::last_os_error();
                let absent = matches!(err.raw_os_error(), Some(libc::ENODATA | libc::ENOTSUP));
                if !absent {
                    return Err(lost(access_acl, err));
                }
            }
        }
        for name in names
            .split(|&byte| byte == 0)
            .filter(|name| !name.is_empty())
        {
            let Ok(name) = CString::new(name) else {
                continue;
            };
            let value = match read_sized(|buf, len| {
                // SAFETY: as above; `name` is a NUL-terminated string.
                unsafe { libc::lgetxattr(path.as_ptr(), name.as_ptr(), buf.cast(), len) }
            }) {
                Ok(value) => value,
                // Removed since it was listed: nothing to keep.
                Err(err) if err.raw_os_error() == Some(libc::ENODATA) => continue,
                Err(err) => return Err(lost(&name, err)),
            };
            let present = read_sized(|buf, len| {
                // SAFETY: as above, on the temporary file's descriptor.
                unsafe { libc::fgetxattr(fd, name.as_ptr(), buf.cast(), len) }
            });
            // An inherited label or default ACL may already be the same.
            if present.is_ok_and(|present| present == value) {
                continue;
            }
            // SAFETY: `value` is a live buffer of `value.len()` bytes.
            let set = unsafe {
                libc::fsetxattr(fd, name.as_ptr(), value.as_ptr().cast(), value.len(), 0)
            };
            if set != 0 {
                return Err(lost(&name, io::Error::last_os_error()));
            }
        }
        Ok(())
    }

    /// True for the errors of a file system that has no extended attributes.
    fn unsupported(err: &io::Error) -> bool {
        err.raw_os_error() == Some(libc::ENOTSUP)
    }

    /// The bytes a `*xattr` call gives, asked first for their size; a value
    /// that grows in between is asked for again.
    fn read_sized(call: impl Fn(*mut u8, usize) -> isize) -> io::Result<Vec<u8>> {
        loop {
            let size = call(std::ptr::null_mut(), 0);
            let size = usize::try_from(size).map_err(|_| io::Error::last_os_error())?;
            let mut buf = vec![0u8; size];
            let got = call(buf.as_mut_ptr(), buf.len());
            match usize::try_from(got) {
                Ok(got) => {
                    buf.truncate(got);
                    return Ok(buf);
                }
                Err(_) => {
                    let err = io::Error::last_os_error();
                    if err.raw_os_error() != Some(libc::ERANGE) {
                        return Err(err);
                    }
                }
            }
        }
    }
}

/// Elsewhere extended attributes are not carried over.
#[cfg(all(unix, not(target_os = "linux")))]
mod attributes {
    use std::fs::File;
    use std::path::Path;

    use super::WriteError;

    /// Nothing to copy where urlint does not read them.
    pub(super) fn copy(_: &Path, _: &File) -> Result<(), WriteError> {
        Ok(())
    }
}

/// A test hook, in debug builds only: when `URLINT_TEST_BEFORE_REPLACE` is
/// set, its value is appended to the file just before the check for a
/// change, so that a test can change a file mid-run deterministically;
/// `URLINT_TEST_SIGNAL_BEFORE_REPLACE` raises SIGTERM there instead, as a
/// user stopping the run while its temporary file is on disk.
fn before_replace_hook(target: &Path) {
    if cfg!(debug_assertions) {
        #[cfg(unix)]
        if std::env::var_os("URLINT_TEST_SIGNAL_BEFORE_REPLACE").is_some() {
            // SAFETY: raising a signal at the process itself.
            unsafe { libc::raise(libc::SIGTERM) };
        }
        if let Some(extra) = std::env::var_os("URLINT_TEST_BEFORE_REPLACE") {
            let appended = OpenOptions::new()
                .append(true)
                .open(target)
                .and_then(|mut file| file.write_all(extra.as_encoded_bytes()));
            if let Err(err) = appended {
                eprintln!("test hook: cannot append to {}: {err}", target.display());
            }
        }
    }
}

/// A temporary file beside a target, removed unless it is persisted: the
/// new contents of a replaced file, or a report written to a file.
#[derive(Debug)]
pub(crate) struct Temporary {
    path: PathBuf,
    file: File,
    persisted: bool,
    /// Its place in the table a signal handler removes files from.
    slot: Option<usize>,
}

impl Temporary {
    /// A new file `.NAME.urlint-PID-N.tmp` in the target's directory
    /// (hidden, so that a walk of the directory skips it), created with
    /// `mode` (before the umask) where files have one.
    pub(crate) fn create(target: &Path, mode: u32) -> io::Result<Temporary> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let name = target
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = shortened(&name, MAX_NAME_IN_TEMPORARY);
        let directory = target.parent().unwrap_or(Path::new("."));
        remove_stale_temporaries(directory);
        loop {
            let count = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = directory.join(format!(".{name}.urlint-{}-{count}.tmp", std::process::id()));
            let mut options = OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
            #[cfg(not(unix))]
            let _ = mode;
            match options.open(&path) {
                Ok(file) => {
                    let slot = interrupted::register(&path);
                    return Ok(Temporary {
                        path,
                        file,
                        persisted: false,
                        slot,
                    });
                }
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(err) => return Err(err),
            }
        }
    }

    /// Where the temporary file is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The open temporary file.
    pub(crate) fn file(&self) -> &File {
        &self.file
    }

    /// Rename the temporary file to `target` (sync it first).
    pub(crate) fn persist(&mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.persisted = true;
        interrupted::unregister(self.slot.take());
        Ok(())
    }
}

/// Bytes of the target's name a temporary file's name repeats: with the
/// dot, `.urlint-PID-N.tmp` and room for large numbers, the name stays
/// within the 255 bytes most file systems allow, whatever the target's.
const MAX_NAME_IN_TEMPORARY: usize = 200;

/// `name` cut to at most `max` bytes, at a character boundary.
fn shortened(name: &str, max: usize) -> &str {
    let mut end = name.len().min(max);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// How old a temporary file of another process must be before it counts
/// as left behind: a process in another PID namespace (a container sharing
/// the directory) may still be writing a younger one.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(600);

/// Remove the temporary files of urlint's own naming that a killed run
/// left in `directory` (`kill -9` runs no destructor): those of a process
/// that no longer exists, last written more than [`STALE_AFTER`] ago. Each
/// directory is looked at once per run, and only where `/proc` says which
/// processes exist.
fn remove_stale_temporaries(directory: &Path) {
    static SEEN: std::sync::Mutex<BTreeSet<PathBuf>> = std::sync::Mutex::new(BTreeSet::new());
    if !Path::new("/proc/self").exists() {
        return;
    }
    let first_look = SEEN
        .lock()
        .is_ok_and(|mut seen| seen.insert(directory.to_path_buf()));
    if !first_look {
        return;
    }
    let Ok(entries) = fs::read_dir(directory) else {
        return;
    };
    let own = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(temporary_pid) else {
            continue;
        };
        let gone = pid != own && !Path::new(&format!("/proc/{pid}")).exists();
        let old = entry
            .metadata()
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age > STALE_AFTER);
        if gone && old && entry.file_type().is_ok_and(|kind| kind.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The process ID in a temporary file's name, `.NAME.urlint-PID-N.tmp`.
fn temporary_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, numbers) = rest.rsplit_once(".urlint-")?;
    let (pid, count) = numbers.split_once('-')?;
    count.parse::<usize>().ok()?;
    pid.parse().ok()
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.persisted {
            let _ = fs::remove_file(&self.path);
        }
        interrupted::unregister(self.slot.take());
    }
}

pub(crate) use interrupted::remove_temporaries_on_signals;

/// Temporary files removed when the run is stopped by a signal (Ctrl-C,
/// SIGTERM, SIGHUP), which runs no destructor: the paths of the live ones
/// sit in a fixed table a signal handler can read without locking.
#[cfg(unix)]
mod interrupted {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr;
    use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering::SeqCst};

    /// Live temporaries tracked at once; more are left to the next run's
    /// clean-up of stale ones.
    const SLOTS: usize = 64;

    /// The paths, as C strings owned by the table; null for a free slot.
    static PATHS: [AtomicPtr<libc::c_char>; SLOTS] =
        [const { AtomicPtr::new(ptr::null_mut()) }; SLOTS];

    /// Set by the handler before it reads the table: a path taken out of
    /// the table meanwhile is not freed, since the handler may be reading it.
    static HANDLING: AtomicBool = AtomicBool::new(false);

    /// Track the temporary at `path`; its slot, when one was free.
    pub(super) fn register(path: &Path) -> Option<usize> {
        let raw = CString::new(path.as_os_str().as_bytes()).ok()?.into_raw();
        let slot = PATHS.iter().position(|slot| {
            slot.compare_exchange(ptr::null_mut(), raw, SeqCst, SeqCst)
                .is_ok()
        });
        if slot.is_none() {
            // SAFETY: `raw` came from `into_raw` above and was never shared.
            drop(unsafe { CString::from_raw(raw) });
        }
        slot
    }

    /// Stop tracking the temporary in `slot` (persisted or removed).
    pub(super) fn unregister(slot: Option<usize>) {
        let Some(slot) = slot else {
            return;
        };
        let raw = PATHS[slot].swap(ptr::null_mut(), SeqCst);
        if !raw.is_null() && !HANDLING.load(SeqCst) {
            // SAFETY: the table owned `raw`, from `into_raw`; it is out of the
            // table, and no handler started before it left (one starting
            // later finds the slot empty), so nothing else can read it.
            drop(unsafe { CString::from_raw(raw) });
        }
    }

    /// Remove every tracked temporary, then end the process by the signal.
    extern "C" fn on_signal(signal: libc::c_int) {
        HANDLING.store(true, SeqCst);
        for slot in &PATHS {
            let raw = slot.load(SeqCst);
            if !raw.is_null() {
                // SAFETY: unlink is async-signal-safe; `raw` is a live C
                // string (not freed while HANDLING is set).
                unsafe { libc::unlink(raw) };
            }
        }
        // SAFETY: restoring the default action and raising the signal again
        // are async-signal-safe; the process then ends as it would have.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    /// Make Ctrl-C, SIGTERM and SIGHUP remove the run's temporary files
    /// before the process ends by them (the command line only: a library
    /// user's process keeps its own handlers).
    pub(crate) fn remove_temporaries_on_signals() {
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: a zeroed sigaction with a handler of the right type
            // and an empty mask is a valid argument.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                // A signal ignored by the parent (nohup) stays ignored.
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, ptr::null(), &mut old) == 0
                    && old.sa_sigaction != libc::SIG_IGN
                {
                    libc::sigaction(signal, &action, ptr::null_mut());
                }
            }
        }
    }
}

/// Elsewhere a stopped run's temporaries are left to the next run.
#[cfg(not(unix))]
mod interrupted {
    use std::path::Path;

    pub(super) fn register(_: &Path) -> Option<usize> {
        None
    }

    pub(super) fn unregister(_: Option<usize>) {}

    /// Nothing to install.
    pub(crate) fn remove_temporaries_on_signals() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names of the directory's entries, sorted.
    fn entries(directory: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(directory)
            .expect("readable")
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
    }

    #[test]
    fn a_name_of_255_bytes_gets_a_temporary_that_fits() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for name in ["a".repeat(255), format!("{}.txt", "é".repeat(125))] {
            let path = dir.path().join(&name);
            fs::write(&path, "old\n").expect("a 255-byte name");
            replace_file(&path, b"old\n", b"new\n").expect("replaced");
            assert_eq!(fs::read_to_string(&path).expect("read"), "new\n");
        }
        assert_eq!(entries(dir.path()).len(), 2, "no temporary file left");
    }

    #[test]
    fn temporaries_of_killed_runs_are_removed_once_old() {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let dir = tempfile::tempdir().expect("a temporary directory");
        // A PID above Linux's largest (2^22) never runs.
        let stale = dir.path().join(".a.txt.urlint-99999999-0.tmp");
        let young = dir.path().join(".b.txt.urlint-99999999-1.tmp");
        let mine = dir
            .path()
            .join(format!(".c.txt.urlint-{}-9.tmp", std::process::id()));
        let other = dir.path().join(".notes.urlint-tmp");
        for path in [&stale, &young, &mine, &other] {
            fs::write(path, "half").expect("write");
        }
        let old = std::time::SystemTime::now() - 2 * STALE_AFTER;
        for path in [&stale, &mine, &other] {
            File::options()
                .write(true)
                .open(path)
                .and_then(|file| file.set_modified(old))
                .expect("age it");
        }
        let path = dir.path().join("d.txt");
        fs::write(&path, "old\n").expect("write");
        replace_file(&path, b"old\n", b"new\n").expect("replaced");
        assert_eq!(
            entries(dir.path()),
            [
                ".b.txt.urlint-99999999-1.tmp".to_owned(),
                format!(".c.txt.urlint-{}-9.tmp", std::process::id()),
                ".notes.urlint-tmp".to_owned(),
                "d.txt".to_owned(),
            ]
        );
        assert_eq!(temporary_pid(".x.y.urlint-12-3.tmp"), Some(12));
        assert_eq!(temporary_pid(".x.urlint-12.tmp"), None);
    }

    #[test]
    fn the_file_is_replaced_and_nothing_is_left_behind() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.txt");
        fs::write(&path, "old\n").expect("write");
        replace_file(&path, b"old\n", b"new\n").expect("replaced");
        assert_eq!(fs::read_to_string(&path).expect("read"), "new\n");
        assert_eq!(entries(dir.path()), ["a.txt"]);
    }

    #[test]
    fn a_file_changed_since_it_was_read_is_left_alone() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.txt");
        fs::write(&path, "changed\n").expect("write");
        let result = replace_file(&path, b"old\n", b"new\n");
        assert!(matches!(result, Err(WriteError::Changed)), "{result:?}");
        assert_eq!(fs::read_to_string(&path).expect("read"), "changed\n");
        assert_eq!(entries(dir.path()), ["a.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn mode_is_kept_and_a_file_without_write_bits_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.txt");
        fs::write(&path, "old\n").expect("write");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
        replace_file(&path, b"old\n", b"new\n").expect("replaced");
        let mode = fs::metadata(&path).expect("metadata").permissions().mode();
        assert_eq!(mode & 0o7777, 0o640);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).expect("chmod");
        let result = replace_file(&path, b"new\n", b"newer\n");
        assert!(matches!(result, Err(WriteError::ReadOnly)), "{result:?}");
        assert_eq!(fs::read_to_string(&path).expect("read"), "new\n");
    }

    /// Set the extended attribute `name` of the file at `path` to `value`,
    /// or say why not (a file system without them).
    #[cfg(target_os = "linux")]
    fn set_attribute(path: &Path, name: &str, value: &[u8]) -> io::Result<()> {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("a path");
        let name = std::ffi::CString::new(name).expect("a name");
        // SAFETY: NUL-terminated strings and a live buffer of its length.
        let set = unsafe {
            libc::setxattr(
                path.as_ptr(),
                name.as_ptr(),
                value.as_ptr().cast(),
                value.len(),
                0,
            )
        };
        if set == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }

    /// The value of the extended attribute `name` of the file at `path`.
    #[cfg(target_os = "linux")]
    fn attribute(path: &Path, name: &str) -> Option<Vec<u8>> {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("a path");
        let name = std::ffi::CString::new(name).expect("a name");
        let mut buf = vec![0u8; 4096];
        // SAFETY: NUL-terminated strings and a live buffer of its length.
        let got = unsafe {
            libc::getxattr(
                path.as_ptr(),
                name.as_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
            )
        };
        let got = usize::try_from(got).ok()?;
        buf.truncate(got);
        Some(buf)
    }

    /// An access ACL in the kernel's xattr form: version 2, then entries
    /// of tag, permissions and id. This one lets user 4321 read and write.
    #[cfg(target_os = "linux")]
    fn acl_granting_user_4321() -> Vec<u8> {
        let entries: [(u16, u16, u32); 5] = [
            (0x01, 6, u32::MAX), // the owner: rw
            (0x02, 6, 4321),     // user 4321: rw
            (0x04, 4, u32::MAX), // the owning group: r
            (0x10, 6, u32::MAX), // the mask: rw
            (0x20, 4, u32::MAX), // others: r
        ];
        let mut acl = 2u32.to_le_bytes().to_vec();
        for (tag, perm, id) in entries {
            acl.extend(tag.to_le_bytes());
            acl.extend(perm.to_le_bytes());
            acl.extend(id.to_le_bytes());
        }
        acl
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn extended_attributes_and_acls_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.txt");
        fs::write(&path, "old\n").expect("write");
        if let Err(err) = set_attribute(&path, "user.origin", b"mirror of rfc1738") {
            eprintln!("skipped: no user extended attributes here ({err})");
            return;
        }
        let acl = acl_granting_user_4321();
        let with_acl = set_attribute(&path, "system.posix_acl_access", &acl).is_ok();
        let mode = fs::metadata(&path).expect("metadata").permissions().mode();
        replace_file(&path, b"old\n", b"new\n").expect("replaced");
        assert_eq!(fs::read_to_string(&path).expect("read"), "new\n");
        assert_eq!(
            attribute(&path, "user.origin").as_deref(),
            Some(&b"mirror of rfc1738"[..])
        );
        if with_acl {
            assert_eq!(
                attribute(&path, "system.posix_acl_access"),
                Some(acl),
                "the ACL is kept"
            );
        } else {
            eprintln!("ACLs not checked: this file system has none");
        }
        let kept = fs::metadata(&path).expect("metadata").permissions().mode();
        assert_eq!(
            kept & 0o7777,
            mode & 0o7777,
            "the mode and the ACL's mask agree"
        );
        assert_eq!(entries(dir.path()), ["a.txt"]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_directory_default_acl_is_not_given_to_a_file_without_one() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.txt");
        fs::write(&path, "old\n").expect("write");
        let acl = acl_granting_user_4321();
        if let Err(err) = set_attribute(dir.path(), "system.posix_acl_default", &acl) {
            eprintln!("skipped: no ACLs here ({err})");
            return;
        }
        assert_eq!(attribute(&path, "system.posix_acl_access"), None);
        replace_file(&path, b"old\n", b"new\n").expect("replaced");
        assert_eq!(fs::read_to_string(&path).expect("read"), "new\n");
        assert_eq!(
            attribute(&path, "system.posix_acl_access"),
            None,
            "no access ACL the file did not have"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_another_process_writes_to_is_left_alone() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.txt");
        fs::write(&path, "old\n").expect("write");
        // Only where leases are to be had can an open writer be told.
        let file = File::open(&path).expect("open");
        use std::os::fd::AsRawFd;
        // SAFETY: fcntl on a descriptor the test owns.
        let leases = unsafe {
            let leased = libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_RDLCK) == 0;
            libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK);
            leased
        };
        drop(file);
        if !leases {
            eprintln!("skipped: no file leases here");
            return;
        }
        let writer = OpenOptions::new().append(true).open(&path).expect("open");
        let result = replace_file(&path, b"old\n", b"new\n");
        assert!(
            matches!(result, Err(WriteError::OpenForWriting)),
            "{result:?}"
        );
        assert_eq!(fs::read_to_string(&path).expect("read"), "old\n");
        drop(writer);
        // A reader is no writer.
        let _reader = File::open(&path).expect("open");
        replace_file(&path, b"old\n", b"new\n").expect("replaced once the writer is gone");
        assert_eq!(entries(dir.path()), ["a.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_saved_over_by_renaming_is_left_alone() {
        // Another program's save: a new inode under the name, same bytes.
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("a.txt");
        fs::write(&path, "old\n").expect("write");
        let read = fs::metadata(&path).expect("metadata");
        let saved = dir.path().join("saved");
        fs::write(&saved, "old\n").expect("write");
        fs::rename(&saved, &path).expect("rename");
        assert!(!same_file(&read, &path));
        assert!(same_file(&fs::metadata(&path).expect("metadata"), &path));
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_keeps_pointing_at_the_replaced_file() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let target = dir.path().join("target.txt");
        let link = dir.path().join("link.txt");
        fs::write(&target, "old\n").expect("write");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        replace_file(&link, b"old\n", b"new\n").expect("replaced");
        assert!(fs::symlink_metadata(&link)
            .expect("metadata")
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).expect("read"), "new\n");
    }
}
