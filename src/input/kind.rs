//! What an input holds, and how that is decided: the `--input` choice, else
//! the file extension, else the content.

use std::path::Path;

use crate::mail::MailKind;

/// What an input holds, as `--input` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
#[non_exhaustive]
pub(crate) enum InputKind {
    /// Detect from the file extension (.mbox, .mbx, .eml), then the content.
    #[default]
    Auto,
    /// Free text.
    Text,
    /// An mbox archive (messages opened by `From ` lines).
    Mbox,
    /// One RFC 5322 message.
    Eml,
}

impl From<MailKind> for InputKind {
    fn from(kind: MailKind) -> Self {
        match kind {
            MailKind::Mbox => InputKind::Mbox,
            MailKind::Eml => InputKind::Eml,
        }
    }
}

impl InputKind {
    /// The mail kind to read the input as, `None` for text (or undecided).
    pub(crate) fn mail(self) -> Option<MailKind> {
        match self {
            InputKind::Mbox => Some(MailKind::Mbox),
            InputKind::Eml => Some(MailKind::Eml),
            InputKind::Auto | InputKind::Text => None,
        }
    }

    /// The kind named for an input at `path` before reading it: the chosen
    /// kind, or the one its extension says; `None` while undecided.
    pub(crate) fn named(self, path: &Path) -> Option<InputKind> {
        match self {
            InputKind::Auto => MailKind::from_path(path).map(InputKind::from),
            chosen => Some(chosen),
        }
    }

    /// The kind of an input whose first bytes are `head`: the chosen kind,
    /// or the one its name or its content says, text when nothing does.
    pub(crate) fn detect(self, path: Option<&Path>, head: &[u8]) -> InputKind {
        match self {
            InputKind::Auto => {
                MailKind::detect(path, head).map_or(InputKind::Text, InputKind::from)
            }
            chosen => chosen,
        }
    }
}
