//! Long calls that Ctrl-C can stop: the work runs on a thread of its own
//! while the calling thread, without the GIL, looks for signals between
//! waits, so `KeyboardInterrupt` is raised at once rather than when the
//! call would have ended.

use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

/// How long the caller waits between two looks for a signal.
const SIGNAL_LOOK_EVERY: Duration = Duration::from_millis(50);

/// Bytes of input from which a call gets a thread of its own: a smaller
/// one ends in milliseconds, and a thread per call would cost more than
/// reading it (a caller that checks one line at a time makes many).
const OWN_THREAD_FROM: usize = 1 << 20;

/// The result of `work` on `len` bytes of input, run without the GIL: on a
/// thread of its own when the input is large, so that a signal whose
/// handler raises (Ctrl-C's `KeyboardInterrupt`) ends the wait with that
/// error.
/// The work itself cannot be stopped midway: abandoned, it finishes in the
/// background and its result is dropped. A panic in it is re-raised here,
/// as it would have been on this thread.
pub(super) fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    len: usize,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    if len < OWN_THREAD_FROM {
        return Ok(py.detach(work));
    }
    let (sender, receiver) = mpsc::sync_channel(1);
    thread::Builder::new()
        .name("urlint".to_owned())
        .spawn(move || {
            let result = panic::catch_unwind(AssertUnwindSafe(work));
            // The caller may have gone on after a signal.
            let _ = sender.send(result);
        })
        .map_err(|err| PyOSError::new_err(format!("cannot start a thread: {err}")))?;
    let mut receiver = receiver;
    loop {
        // A receiver may not be shared, only moved: it goes into the wait
        // and comes back out.
        let (got, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_LOOK_EVERY), receiver));
        receiver = back;
        match got {
            Ok(Ok(value)) => return Ok(value),
            Ok(Err(payload)) => panic::resume_unwind(payload),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            // The thread sends before it ends, even after a panic.
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyOSError::new_err(
                    "the worker thread ended without a result",
                ))
            }
        }
    }
}
