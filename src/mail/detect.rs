//! Deciding whether an input is an mbox archive, a single message, or
//! neither, from its file name or its first bytes.

use std::path::Path;
use std::str::FromStr;

/// The two shapes mail input comes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MailKind {
    /// An archive of messages, each opened by a `From ` line (RFC 4155).
    Mbox,
    /// One RFC 5322 message (`.eml`).
    Eml,
}

/// File extensions, lower case, and the kind each names.
const EXTENSIONS: &[(&str, MailKind)] = &[
    ("mbox", MailKind::Mbox),
    ("mbx", MailKind::Mbox),
    ("eml", MailKind::Eml),
];

/// Header fields that, seen at the top of a file, mark it as a message; a
/// text file may open with `Note:` but hardly with two of these.
const MESSAGE_FIELDS: &[&str] = &[
    "from",
    "to",
    "cc",
    "date",
    "subject",
    "message-id",
    "received",
    "return-path",
    "delivered-to",
    "mime-version",
    "content-type",
    "in-reply-to",
    "references",
];

/// How many bytes of an input [`MailKind::sniff`] wants to see.
pub const SNIFF_LEN: usize = 4096;

impl MailKind {
    /// The kind a file name's extension names, if any.
    pub fn from_path(path: &Path) -> Option<MailKind> {
        let extension = path.extension()?.to_str()?;
        EXTENSIONS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(extension))
            .map(|&(_, kind)| kind)
    }

    /// The kind the first bytes of an input look like, if any: an mbox opens
    /// with a `From ` line, a message with a block of header fields of which
    /// at least two are common message fields.
    pub fn sniff(head: &[u8]) -> Option<MailKind> {
        if head.starts_with(b"From ") {
            return Some(MailKind::Mbox);
        }
        looks_like_header_block(head).then_some(MailKind::Eml)
    }

    /// The kind of an input: its extension first, then its content.
    pub fn detect(path: Option<&Path>, head: &[u8]) -> Option<MailKind> {
        path.and_then(MailKind::from_path)
            .or_else(|| MailKind::sniff(head))
    }

    /// Lower-case name, as `--input` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::Mbox => "mbox",
            MailKind::Eml => "eml",
        }
    }
}

impl FromStr for MailKind {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name.to_ascii_lowercase().as_str() {
            "mbox" => Ok(MailKind::Mbox),
            "eml" => Ok(MailKind::Eml),
            _ => Err(format!("unknown mail kind '{name}' (expected mbox or eml)")),
        }
    }
}

/// True when `head` opens with header fields (RFC 5322 section 2.2) up to a
/// blank line or the end of `head`, at least two of them common ones.
fn looks_like_header_block(head: &[u8]) -> bool {
    let mut common = 0;
    for (index, line) in head.split_inclusive(|&b| b == b'\n').enumerate() {
        let Some(line) = line.strip_suffix(b"\n") else {
            break; // cut short by the end of `head`: judge on what came before
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        match line.first() {
            None => break,
            Some(b' ' | b'\t') if index > 0 => continue, // folded field
            _ => {}
        }
        let Some(name) = field_name(line) else {
            return false;
        };
        common += usize::from(MESSAGE_FIELDS.iter().any(|f| f.eq_ignore_ascii_case(name)));
    }
    common >= 2
}

/// The field name of a header line: printable ASCII but `:` up to a `:`.
fn field_name(line: &[u8]) -> Option<&str> {
    let colon = memchr::memchr(b':', line)?;
    let name = &line[..colon];
    let printable = !name.is_empty() && name.iter().all(|&b| (33..=126).contains(&b));
    if printable {
        std::str::from_utf8(name).ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_name_kinds() {
        for (path, kind) in [
            ("list.mbox", Some(MailKind::Mbox)),
            ("old.MBX", Some(MailKind::Mbox)),
            ("m.eml", Some(MailKind::Eml)),
            ("notes.txt", None),
        ] {
            assert_eq!(MailKind::from_path(Path::new(path)), kind, "{path}");
        }
    }

    #[test]
    fn content_is_sniffed() {
        let cases: &[(&str, Option<MailKind>)] = &[
            (
                "From a@x Mon Jan 1 00:00:00 2024\nSubject: x\n",
                Some(MailKind::Mbox),
            ),
            (
                "Date: Mon, 1 Jan 2024\nSubject: hi\n\nbody",
                Some(MailKind::Eml),
            ),
            ("Received: by x;\n\tMon\nFrom: a@x\n\n", Some(MailKind::Eml)),
            ("Note: one field only\n\ntext", None),
            ("Subject: x\nthis is prose\n", None),
            ("plain text\n", None),
            ("", None),
        ];
        for (head, kind) in cases {
            assert_eq!(MailKind::sniff(head.as_bytes()), *kind, "{head:?}");
        }
    }

    #[test]
    fn detect_prefers_the_extension() {
        let kind = MailKind::detect(Some(Path::new("a.mbox")), b"Subject: x\nDate: y\n\n");
        assert_eq!(kind, Some(MailKind::Mbox));
        assert_eq!("EML".parse(), Ok(MailKind::Eml));
    }
}
