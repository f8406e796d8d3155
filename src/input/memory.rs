//! Reading data a library caller holds in memory (the Python package's
//! `bytes` and `str`) as one input of a given kind, through the steps a
//! file of that kind goes through: mail message by message, text whole.

use super::archive::{check_mail, MailReading};
use super::check::check_loaded;
use super::kind::{Content, InputKind, KindGlobs};
use super::load::{load, Loaded};
use super::read::HEAD_LEN;
use super::sink::Collected;
use super::windows::ChunkOptions;
use crate::lint::LintOptions;
use crate::mail::{ArchivePoint, HeaderUrls};
use crate::source::{Origin, Source};

/// Data held in memory, and how much of its reading is still to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Held {
    /// Raw bytes, read as a file's are: binary data (a NUL in the first
    /// 8 KiB) skipped, text decoded as UTF-8 with other bytes as Latin-1.
    Bytes(Vec<u8>),
    /// Text the caller already decoded: never taken for binary data.
    Text(String),
}

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
pub(crate) fn read_held(
    data: Held,
    kind: InputKind,
    mail: HeldMail,
    lint: &LintOptions,
) -> Collected {
    let mut collected = Collected::default();
    let bytes = data.bytes();
    let head = &bytes[..bytes.len().min(HEAD_LEN)];
    let markup = match kind.detect(&KindGlobs::default(), None, head) {
        Content::Mail(mail_kind) => {
            let reading = MailReading {
                kind: mail_kind,
                headers: mail.headers,
                start: mail.start,
                chunks: ChunkOptions::default(),
            };
            // Reading from memory cannot fail, and a collecting sink always accepts.
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(latin1.checked[0].source.text, "café http://x.example/");
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
