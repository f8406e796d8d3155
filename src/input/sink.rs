//! Where an input's results go: straight to the reporter when read on the
//! reporting thread, or kept in a [`Collected`] when read in a worker.

use std::io;

use super::notice::{InputError, Note};
use crate::checked::Checked;

/// Where an input's results go, in order.
pub(crate) trait Sink {
    /// A checked text; an error here is an output error and ends the run.
    fn checked(&mut self, checked: Checked) -> io::Result<()>;
    /// A checked text the caller keeps, to reuse its buffer: reported as
    /// [`Sink::checked`] reports it (by default, a copy is).
    #[cfg(feature = "cli")]
    fn checked_ref(&mut self, checked: &Checked) -> io::Result<()> {
        self.checked(checked.clone())
    }
    /// Something for `--verbose`.
    #[cfg(feature = "cli")]
    fn note(&mut self, note: Note);
    /// Something always worth telling (a malformed message).
    fn warning(&mut self, note: Note);
    /// An input that could not be read, or that made urlint panic.
    fn error(&mut self, error: InputError);
}

/// A sink that keeps everything, for inputs read in a worker thread.
#[derive(Debug, Default)]
pub(crate) struct Collected {
    pub(crate) checked: Vec<Checked>,
    pub(crate) notes: Vec<Note>,
    pub(crate) warnings: Vec<Note>,
    pub(crate) errors: Vec<InputError>,
}

impl Collected {
    /// The checked texts kept so far.
    #[cfg(feature = "cli")]
    pub(crate) fn checked_texts(&self) -> &[Checked] {
        &self.checked
    }

    /// Pass everything kept to `sink`: notes, warnings and errors first,
    /// then the checked texts.
    #[cfg(feature = "cli")]
    pub(crate) fn replay(self, sink: &mut dyn Sink) -> io::Result<()> {
        self.notes.into_iter().for_each(|note| sink.note(note));
        self.warnings
            .into_iter()
            .for_each(|note| sink.warning(note));
        self.errors.into_iter().for_each(|error| sink.error(error));
        self.checked
            .into_iter()
            .try_for_each(|checked| sink.checked(checked))
    }
}

impl Sink for Collected {
    fn checked(&mut self, checked: Checked) -> io::Result<()> {
        self.checked.push(checked);
        Ok(())
    }

    #[cfg(feature = "cli")]
    fn note(&mut self, note: Note) {
        self.notes.push(note);
    }

    fn warning(&mut self, note: Note) {
        self.warnings.push(note);
    }

    fn error(&mut self, error: InputError) {
        self.errors.push(error);
    }
}
