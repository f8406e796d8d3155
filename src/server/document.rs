//! The documents a client has open: their text as the client last sent
//! it, its version, and the edits that change it.
//!
//! Edits come as whole new texts or as ranges to replace (full and
//! incremental sync); a range is applied whatever it says, clamped to the
//! text as [`EditedLines::offset`] clamps, with its ends in order, so no
//! edit sequence can make the server panic or lose the document. The line
//! starts are kept up to date edit by edit, so typing in a large document
//! does not index it again on every keystroke.

use std::path::PathBuf;
use std::sync::Arc;

use lsp_types::{Range, TextDocumentContentChangeEvent, Uri};

use super::position::{EditedLines, Encoding};
use super::uri::file_path;
use crate::span::Span;

/// One open document.
#[derive(Debug)]
pub(super) struct Document {
    /// The file the document is, for `file:` URIs.
    pub path: Option<PathBuf>,
    /// The client's language identifier (`plaintext`, `markdown`, ...).
    pub language: String,
    /// The version of the last change the client sent.
    pub version: i32,
    /// The text, shared with lint jobs (an edit copies it only while a job
    /// still holds the old text).
    text: Arc<String>,
    /// The line starts of `text`.
    lines: EditedLines,
    encoding: Encoding,
}

impl Document {
    /// A document opened at `uri` with `text`.
    pub(super) fn new(
        uri: &Uri,
        language: String,
        version: i32,
        text: String,
        encoding: Encoding,
    ) -> Self {
        Document {
            path: file_path(uri),
            language,
            version,
            lines: EditedLines::new(&text),
            text: Arc::new(text),
            encoding,
        }
    }

    /// The current text.
    pub(super) fn text(&self) -> &Arc<String> {
        &self.text
    }

    /// Apply the client's changes, in order, and take `version` as the
    /// document's.
    pub(super) fn change(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        for change in changes {
            match change.range {
                None => self.replace_all(change.text),
                Some(range) => {
                    let span = self.span(range);
                    let text = Arc::make_mut(&mut self.text);
                    grow_for(text, change.text.len().saturating_sub(span.len()));
                    text.replace_range(span.range(), &change.text);
                    self.lines.edited(&self.text, span, change.text.len());
                }
            }
        }
        self.version = version;
    }

    /// Replace the whole text (full sync, or a save that sends the text).
    pub(super) fn replace_all(&mut self, text: String) {
        self.lines = EditedLines::new(&text);
        self.text = Arc::new(text);
    }

    /// The byte span a client's range names, clamped and ordered.
    fn span(&self, range: Range) -> Span {
        let start = self.lines.offset(&self.text, range.start, self.encoding);
        let end = self.lines.offset(&self.text, range.end, self.encoding);
        Span::new(start.min(end), start.max(end))
    }
}

/// Make room in `text` for `more` bytes: a sixteenth of its length at a
/// time, not the double a `String` grows to, so that typing into a large
/// document holds little more than the document (a 50 MB one would hold
/// 100 MB after its first keystroke), while a run of keystrokes still
/// copies the text only once in a sixteenth of its length.
fn grow_for(text: &mut String, more: usize) {
    if text.capacity() - text.len() < more {
        text.reserve_exact(more.max(text.len() / 16));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Position;
    use std::str::FromStr;

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|((l0, c0), (l1, c1))| Range {
                start: Position::new(l0, c0),
                end: Position::new(l1, c1),
            }),
            range_length: None,
            text: text.to_string(),
        }
    }

    fn document(text: &str) -> Document {
        let uri = Uri::from_str("file:///tmp/a.txt").expect("a URI");
        Document::new(&uri, "plaintext".into(), 1, text.into(), Encoding::Utf16)
    }

    #[test]
    fn incremental_and_full_changes_apply_in_order() {
        let mut doc = document("\u{1F600} <URL:http://a/>\nline two\n");
        doc.change(
            2,
            vec![
                change(Some(((0, 15), (0, 16))), "bb"),
                change(Some(((1, 5), (1, 8))), "2"),
                change(Some(((2, 0), (2, 0))), "three"),
            ],
        );
        assert_eq!(
            doc.text().as_str(),
            "\u{1F600} <URL:http://bb/>\nline 2\nthree"
        );
        assert_eq!(doc.version, 2);
        doc.change(
            3,
            vec![change(None, "new"), change(Some(((0, 3), (0, 3))), "!")],
        );
        assert_eq!(doc.text().as_str(), "new!");
        assert_eq!(doc.path, Some(PathBuf::from("/tmp/a.txt")));
    }

    #[test]
    fn typing_into_a_large_document_holds_little_more_than_it() {
        let line = "a line of text with http://h.example/ in it\n";
        let mut doc = document(&line.repeat(20_000));
        let len = doc.text().len();
        for (version, column) in (2..40).zip(0..) {
            doc.change(version, vec![change(Some(((5, column), (5, column))), "x")]);
        }
        let text = doc.text();
        assert_eq!(text.len(), len + 38);
        assert!(
            text.capacity() <= len + len / 16 + 38,
            "{} for {len}",
            text.capacity()
        );
        assert!(text
            .lines()
            .nth(5)
            .expect("line 6")
            .starts_with(&"x".repeat(38)));
    }

    #[test]
    fn ranges_that_name_no_text_are_clamped_not_refused() {
        let mut doc = document("ab\u{1F600}cd\nef");
        let cases = [
            // Reversed ends.
            (((0, 2), (0, 0)), "X", "X\u{1F600}cd\nef"),
            // Past the line's end and past the last line.
            (((0, 99), (7, 3)), "", "X\u{1F600}cd"),
            // Inside the surrogate pair: the character's start.
            (((0, 2), (0, 3)), "-", "X-cd"),
        ];
        for (range, insert, expected) in cases {
            doc.change(2, vec![change(Some(range), insert)]);
            assert_eq!(doc.text().as_str(), expected, "{range:?}");
        }
    }

    #[test]
    fn a_held_snapshot_keeps_its_text() {
        let mut doc = document("one");
        let snapshot = Arc::clone(doc.text());
        doc.change(2, vec![change(Some(((0, 0), (0, 3))), "two")]);
        assert_eq!((snapshot.as_str(), doc.text().as_str()), ("one", "two"));
    }
}
