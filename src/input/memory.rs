//! Reading data a library caller holds in memory (the Python package's
//! `bytes` and `str`, an editor's unsaved buffer) as one input of a given
//! kind, through the steps a file of that kind goes through: mail message
//! by message, text whole.

#[cfg(feature = "cli")]
use std::path::Path;

use super::archive::{check_mail, MailReading};
#[cfg(feature = "cli")]
use super::check::check_document_in_batches;
#[cfg(any(feature = "python", test))]
use super::check::check_loaded;
use super::kind::{Content, InputKind, KindGlobs};
#[cfg(any(feature = "python", test))]
use super::load::load;
use super::load::{Loaded, HEAD_LEN};
#[cfg(any(feature = "python", test))]
use super::sink::Collected;
#[cfg(feature = "cli")]
use super::sink::Sink;
use super::windows::ChunkOptions;
use crate::checked::KeepText;
use crate::lint::LintOptions;
use crate::mail::{ArchivePoint, HeaderUrls, MailKind};
use crate::source::{Origin, Source};

/// Data held in memory, and how much of its reading is still to do.
#[cfg(any(feature = "python", test))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Held {
    /// Raw bytes, read as a file's are: binary data (a NUL in the first
    /// 8 KiB) skipped, text decoded as UTF-8 with other bytes as Latin-1.
    // Only the Python package holds bytes; an editor's buffer is text.
    #[cfg_attr(not(feature = "python"), allow(dead_code))]
    Bytes(Vec<u8>),
    /// Text the caller already decoded: never taken for binary data.
    Text(String),
}

#[cfg(any(feature = "python", test))]
impl Held {
    fn bytes(&self) -> &[u8] {
        match self {
            Held::Bytes(bytes) => bytes,
            Held::Text(text) => text.as_bytes(),
        }
    }
}

/// How held mail is read: which header fields are read for URLs, and where
/// in its archive the held data starts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeldMail {
    /// The header fields read for URLs.
    pub headers: HeaderUrls,
    /// [`ArchivePoint::START`] unless the data is a slice of a larger archive.
    pub start: ArchivePoint,
}

/// Read `data` as `kind` (`Auto` decides by the content, as for stdin) and
/// check it; mail is read as `mail` says.
#[cfg(any(feature = "python", test))]
pub(crate) fn read_held(
    data: Held,
    kind: InputKind,
    mail: HeldMail,
    lint: &LintOptions,
) -> Collected {
    let bytes = data.bytes();
    let head = &bytes[..bytes.len().min(HEAD_LEN)];
    let content = kind.detect(&KindGlobs::default(), None, head);
    read_held_as(data, content, mail, lint)
}

/// Read `data`, which holds `content`, and check it; mail is read as
/// `mail` says.
#[cfg(any(feature = "python", test))]
fn read_held_as(data: Held, content: Content, mail: HeldMail, lint: &LintOptions) -> Collected {
    let mut collected = Collected::default();
    let bytes = data.bytes();
    let markup = match content {
        Content::Mail(mail_kind) => {
            // Reading from memory cannot fail, and a collecting sink always accepts.
            let reading = held_mail_reading(mail_kind, mail);
            let _ = check_mail(bytes, reading, &Origin::Memory, lint, &mut collected);
            return collected;
        }
        Content::Text(markup) => markup,
    };
    let mut loaded = match data {
        Held::Bytes(bytes) => load(Origin::Memory, bytes),
        Held::Text(text) => Loaded {
            sources: vec![Source::new(Origin::Memory, text)],
            notes: Vec::new(),
        },
    };
    loaded.sources = loaded
        .sources
        .into_iter()
        .map(|source| source.written_in(markup))
        .collect();
    check_loaded(loaded, lint, &mut collected);
    collected
}

/// How held mail of `kind` is read, as `mail` says.
fn held_mail_reading(kind: MailKind, mail: HeldMail) -> MailReading {
    MailReading {
        kind,
        headers: mail.headers,
        start: mail.start,
        chunks: ChunkOptions::default(),
        // Records are read on the thread that reads the data.
        keep_text: KeepText::Always,
    }
}

/// Read the text of a document an editor holds for the file at `path` (a
/// buffer not saved yet has none) and check it, handing what is found to
/// `sink` in order: as `kind`, or for `Auto` as the command line reads that
/// file, by the configuration's `globs`, its name, then its content. A
/// text is linted a batch of URLs at a time, so that `sink` need not hold
/// every report of a large document at once.
#[cfg(feature = "cli")]
pub(crate) fn read_document(
    kind: InputKind,
    path: Option<&Path>,
    text: String,
    globs: &KindGlobs,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> std::io::Result<()> {
    let head = &text.as_bytes()[..text.len().min(HEAD_LEN)];
    // Decided once, here: the name and the configuration's globs count,
    // which held data does not have.
    match kind.detect(globs, path, head) {
        Content::Mail(mail_kind) => {
            let mail = HeldMail {
                headers: HeaderUrls::None,
                start: ArchivePoint::START,
            };
            let reading = held_mail_reading(mail_kind, mail);
            check_mail(text.as_bytes(), reading, &Origin::Memory, lint, sink)
        }
        Content::Text(markup) => {
            let loaded = Loaded {
                sources: vec![Source::new(Origin::Memory, text).written_in(markup)],
                notes: Vec::new(),
            };
            check_document_in_batches(loaded, lint, sink)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Markup;

    const ARCHIVE: &str = "From a@x Mon Jan  1 00:00:00 2024\nSubject: one\n\n\
        see <URL:http://a.example/>\n\n\
        From b@x Tue Jan  2 00:00:00 2024\nSubject: two\n\nhttp://b.example/~x\n";

    fn urls(collected: &Collected) -> Vec<&str> {
        collected
            .checked
            .iter()
            .flat_map(|checked| &checked.reports)
            .map(|report| report.found.url.as_str())
            .collect()
    }

    #[test]
    fn auto_reads_mail_as_mail_and_text_as_text() {
        let lint = LintOptions::default();
        let mail = read_held(
            Held::Text(ARCHIVE.into()),
            InputKind::Auto,
            HeldMail {
                headers: HeaderUrls::None,
                start: ArchivePoint::START,
            },
            &lint,
        );
        assert!(mail.checked.iter().all(|checked| checked.mail().is_some()));
        assert_eq!(urls(&mail), ["http://a.example/", "http://b.example/~x"]);
        let text = read_held(
            Held::Text(ARCHIVE.into()),
            InputKind::Text,
            HeldMail {
                headers: HeaderUrls::None,
                start: ArchivePoint::START,
            },
            &lint,
        );
        assert!(text.checked.iter().all(|checked| checked.mail().is_none()));
        assert_eq!(urls(&text), ["http://a.example/", "http://b.example/~x"]);
    }

    #[test]
    fn bytes_are_read_as_a_file_is_and_text_as_given() {
        let lint = LintOptions::default();
        let whole = HeldMail {
            headers: HeaderUrls::None,
            start: ArchivePoint::START,
        };
        let read = |data| read_held(data, InputKind::Text, whole, &lint);
        let binary = read(Held::Bytes(b"\0 http://x.example/".to_vec()));
        assert!(binary.checked.is_empty() && binary.notes[0].skipped);
        let text = read(Held::Text("\0 http://x.example/".into()));
        assert_eq!(urls(&text), ["http://x.example/"]);
        let latin1 = read(Held::Bytes(b"caf\xE9 http://x.example/".to_vec()));
        assert_eq!(latin1.checked[0].text(), Some("café http://x.example/"));
    }

    #[test]
    fn a_document_is_read_as_the_kind_its_name_or_content_says() {
        let lint = LintOptions::default();
        let read = |kind: InputKind, path: Option<&str>, text: &str| {
            let globs = KindGlobs::default();
            let mut collected = Collected::default();
            let path = path.map(Path::new);
            read_document(kind, path, text.to_string(), &globs, &lint, &mut collected)
                .expect("a collecting sink accepts");
            let content = match collected.checked.first() {
                Some(checked) if checked.mail().is_some() => "mail",
                Some(checked) if checked.source.markup == Markup::Markdown => "markdown",
                Some(checked) if checked.source.markup == Markup::Html => "html",
                _ => "text",
            };
            (content, urls(&collected).len())
        };
        let auto = InputKind::Auto;
        assert_eq!(read(auto, Some("/w/list.mbox"), ARCHIVE), ("mail", 2));
        assert_eq!(read(auto, None, ARCHIVE), ("mail", 2));
        let note = "From: the start of a line\nsee http://a.example/\n";
        assert_eq!(read(auto, Some("/w/notes.txt"), note), ("text", 1));
        let eml = "Subject: s\n\nhttp://a.example/\n";
        assert_eq!(read(auto, Some("/w/m.eml"), eml), ("mail", 1));
        let link = "[a](http://a.example/) `http://code.example/`\n";
        assert_eq!(read(auto, Some("/w/a.md"), link), ("markdown", 1));
        assert_eq!(read(auto, Some("/w/a.txt"), link), ("text", 2));
        assert_eq!(read(InputKind::Markdown, None, link), ("markdown", 1));
        let page = "<a href=\"http://a.example/\">x</a>";
        assert_eq!(read(auto, Some("/w/a.html"), page), ("html", 1));
    }

    #[test]
    fn rfc4155_a_slice_of_an_archive_keeps_archive_positions() {
        let second = ARCHIVE.find("From b@x").unwrap_or_default();
        let start = ArchivePoint {
            offset: second,
            line: 6,
            messages_before: 1,
        };
        let slice = Held::Bytes(ARCHIVE.as_bytes()[second..].to_vec());
        let mail = HeldMail {
            headers: HeaderUrls::None,
            start,
        };
        let collected = read_held(slice, InputKind::Mbox, mail, &LintOptions::default());
        let checked = &collected.checked[0];
        let location = checked.locate(checked.reports[0].found.outer);
        let url_at = ARCHIVE.find("http://b.example").unwrap_or_default();
        assert_eq!(
            (location.start, location.line, location.column),
            (url_at, 9, 1)
        );
        assert_eq!(checked.mail().map(|mail| mail.message.number), Some(2));
    }
}
