//! Whether the standard input was there to read: Rust's runtime opens
//! `/dev/null` on a closed descriptor 0 before `main`, so `urlint check -
//! <&-` would read an empty text and pass. A constructor, which runs before
//! the runtime does, looks at the descriptor first. (Not in the Python
//! module, whose host owns its descriptors.)

use std::sync::atomic::{AtomicBool, Ordering};

use super::notice::InputError;
use crate::source::Origin;

/// Whether descriptor 0 was closed when the process started, set before
/// `main` by [`LOOK_AT_STDIN`].
static STDIN_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

#[cfg(all(target_os = "linux", not(feature = "python")))]
#[used]
#[link_section = ".init_array"]
static LOOK_AT_STDIN: extern "C" fn() = look_at_stdin;

/// Note whether descriptor 0 is open.
#[cfg(all(target_os = "linux", not(feature = "python")))]
extern "C" fn look_at_stdin() {
    // SAFETY: F_GETFD only reads a descriptor's flags, for any number.
    let closed = unsafe { libc::fcntl(0, libc::F_GETFD) } == -1;
    STDIN_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Why the standard input cannot be read, when it was closed as urlint
/// started: what reads as stdin now is the runtime's `/dev/null`, an empty
/// text that would pass.
pub(super) fn closed_at_start() -> Option<InputError> {
    STDIN_CLOSED_AT_START
        .load(Ordering::Relaxed)
        .then(|| InputError {
            name: Origin::Stdin.to_string(),
            action: "cannot read",
            cause: "standard input is closed".to_string(),
        })
}
