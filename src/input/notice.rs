//! What reading an input tells besides its texts: notes for `--verbose`,
//! and errors that leave one input unread while the run goes on.

use std::fmt;
use std::io;

use crate::checked::{Checked, Location};
use crate::mail::MessageInfo;
use crate::scan::Construct;
use crate::source::Origin;
use crate::span::SourceSpan;

/// Something worth telling a user who asked for `--verbose`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Note {
    /// The input the note is about.
    pub name: String,
    /// What the run left undone with the input, when the note says so.
    pub left: Option<Left>,
    /// What happened, or why the input was left (`binary file ...`).
    pub message: String,
    /// The input was left unchecked as a whole. A user who named it on the
    /// command line is told even without `--verbose`: a silent skip would
    /// read as "checked, nothing found".
    pub skipped: bool,
}

/// What a run left undone with an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Left {
    /// Neither read nor checked.
    Skipped,
    /// Not rewritten by `check --fix` or `fmt`.
    #[cfg(feature = "cli")]
    NotRewritten,
    /// Not formatted by `fmt`.
    #[cfg(feature = "cli")]
    NotFormatted,
}

impl Left {
    /// How a message says it.
    pub(crate) fn words(self) -> &'static str {
        match self {
            Left::Skipped => "skipped",
            #[cfg(feature = "cli")]
            Left::NotRewritten => "not rewritten",
            #[cfg(feature = "cli")]
            Left::NotFormatted => "not formatted",
        }
    }
}

impl Note {
    /// The note that `name`, neither read nor checked, was skipped because
    /// of `why`.
    #[cfg(feature = "cli")]
    pub(crate) fn skipped(name: String, why: impl Into<String>) -> Note {
        Note {
            name,
            left: Some(Left::Skipped),
            message: why.into(),
            skipped: true,
        }
    }

    /// What the note says, without the input's name: what was left
    /// undone, if anything, and why.
    pub(crate) fn said(&self) -> String {
        match self.left {
            Some(left) => format!("{}: {}", left.words(), self.message),
            None => self.message.clone(),
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.said())
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
        cause: match origin {
            // Opening a socket fails with "No device or address" (ENXIO),
            // which names neither the file nor what is wrong with it.
            #[cfg(feature = "cli")]
            Origin::File(path) if is_socket(path) => "it is a socket, not a file".to_string(),
            _ => err.to_string(),
        },
    }
}

/// True when `path` names a Unix domain socket.
#[cfg(feature = "cli")]
fn is_socket(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|meta| meta.file_type().is_socket())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
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
        left: None,
        message: format!(
            "not valid UTF-8: {bytes} byte(s) read as Latin-1 characters; \
             offsets index the decoded text"
        ),
        skipped: false,
    }
}

/// Where in an archive a message, or one of its parts, is: `message 3
/// (line 120) <id>, part 1.2`.
pub(super) fn message_place(info: &MessageInfo, part: Option<&str>) -> String {
    let mut place = format!("message {} (line {})", info.number, info.line);
    if let Some(id) = info.message_id() {
        place.push_str(&format!(" <{id}>"));
    }
    if let Some(part) = part {
        place.push_str(&format!(", part {part}"));
    }
    place
}

/// Where what the markup of `checked` left open opened (the one byte of
/// its `<` or quote) and where what it took in ends (its last byte), in
/// the input.
pub(crate) fn unclosed_places(checked: &Checked) -> Option<(Location, Location)> {
    let swallowed = checked.unclosed?.swallowed;
    let opened = checked.locate(SourceSpan::new(swallowed.start, swallowed.start + 1));
    let last_byte = swallowed.end.saturating_sub(1).max(swallowed.start);
    let reached = checked.locate(SourceSpan::new(last_byte, swallowed.end));
    Some((opened, reached))
}

/// The warning that the markup of `checked`, a text kept whole, left
/// something open that took in the text after it, so that none of that
/// text's URLs were checked: where it opened and how far it reached, in
/// the lines of the file (of the archive, for a mail part). Said even
/// without `--verbose`: a file that reads as "no findings" may hide any
/// number of them.
pub(crate) fn unclosed_note(checked: &Checked) -> Option<Note> {
    let unclosed = checked.unclosed?;
    let (opened, reached) = unclosed_places(checked)?;
    let at = format!("line {}, column {}", opened.line, opened.column);
    let (left_open, read_as) = match unclosed.construct {
        Construct::QuotedValue => (format!("the attribute value quoted at {at}"), "that value"),
        Construct::OverrunValue => {
            let message = format!(
                "the attribute value quoted at {at} runs over line breaks and end tags to \
                 the quote at line {}, column {}, which most likely opens a later value: \
                 the text between was read as that value, as a browser reads it, so its \
                 URLs were not checked (is a closing quote missing?)",
                reached.line, reached.column
            );
            return Some(told_of(checked, message));
        }
        Construct::Tag => (format!("the tag opened at {at}"), "that tag"),
        Construct::Comment => (format!("the comment opened at {at}"), "that comment"),
        Construct::Script => (format!("the <script> element opened at {at}"), "its script"),
        Construct::Style => (
            format!("the <style> element opened at {at}"),
            "its style sheet",
        ),
    };
    let to_the_end = unclosed.swallowed.end >= checked.text().map_or(0, str::len);
    let rest = match (&checked.source.origin, checked.mail()) {
        _ if !to_the_end => "the HTML after it",
        (_, Some(_)) => "the rest of the part",
        #[cfg(feature = "cli")]
        (Origin::File(_), None) => "the rest of the file",
        _ => "the rest of the input",
    };
    let message = format!(
        "{left_open} is never closed: {rest} (to line {}) was read as {read_as}, \
         as a browser reads it, so its URLs were not checked",
        reached.line
    );
    Some(told_of(checked, message))
}

/// A warning saying `message` of `checked`, with the message and part
/// named for a mail part.
fn told_of(checked: &Checked, message: String) -> Note {
    let message = match checked.mail() {
        Some(mail) => {
            let place = message_place(&mail.message, Some(&mail.part.path));
            format!("{place}: {message}")
        }
        None => message,
    };
    Note {
        name: checked.source.name.clone(),
        left: None,
        message,
        skipped: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What was left undone is said once, before why; a note that leaves
    /// nothing undone says what happened alone.
    #[test]
    fn a_note_says_what_was_left_and_why() {
        let skipped = Note::skipped("a.bin".into(), "binary file");
        assert_eq!(skipped.to_string(), "a.bin: skipped: binary file");
        assert_eq!(skipped.said(), "skipped: binary file");
        assert!(skipped.skipped);
        let told = Note {
            name: "m.mbox".into(),
            left: None,
            message: "message 1 (line 1): no header block found".into(),
            skipped: false,
        };
        assert_eq!(
            told.to_string(),
            "m.mbox: message 1 (line 1): no header block found"
        );
    }
}
