//! What reading an input tells besides its texts: notes for `--verbose`,
//! and errors that leave one input unread while the run goes on.

use std::fmt;
use std::io;

use crate::source::Origin;

/// Something worth telling a user who asked for `--verbose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Note {
    /// The input the note is about.
    pub name: String,
    /// What happened ("skipped: binary file ...").
    pub message: String,
    /// The input was left unchecked as a whole. A user who named it on the
    /// command line is told even without `--verbose`: a silent skip would
    /// read as "checked, nothing found".
    pub skipped: bool,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

/// An input that could not be read: reported, then the run goes on.
#[derive(Debug)]
pub(crate) struct InputError {
    /// The input the error is about.
    pub name: String,
    /// What was being done ("cannot read", "cannot walk").
    pub action: &'static str,
    /// Why it failed.
    pub cause: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.name, self.action, self.cause)
    }
}

/// The error for an input that failed to read.
pub(super) fn cannot_read(origin: &Origin, err: &io::Error) -> InputError {
    InputError {
        name: origin.to_string(),
        action: "cannot read",
        cause: err.to_string(),
    }
}

/// The error reported when linting `name` panicked (the panic message itself
/// is already on stderr, from the default hook).
pub(crate) fn panicked(name: String) -> InputError {
    InputError {
        name,
        action: "internal error",
        cause: "urlint panicked on this input; please report it".to_string(),
    }
}

/// The note for a text whose invalid UTF-8 was read as Latin-1.
pub(super) fn latin1_note(origin: &Origin, bytes: usize) -> Note {
    Note {
        name: origin.to_string(),
        message: format!(
            "not valid UTF-8: {bytes} byte(s) read as Latin-1 characters; \
             offsets index the decoded text"
        ),
        skipped: false,
    }
}
