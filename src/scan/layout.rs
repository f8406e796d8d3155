//! The layout of plain text as the line joins read it: where a line starts
//! and ends, how wide it is in columns and how far it is indented. A bare
//! URL continued on the next line and a page break are both decided from
//! the shape of the lines around them, never from what the lines say.

use crate::span::{is_line_break, line_break_len};

/// Columns a tab advances to the next multiple of, as terminals and the
/// RFC Editor's tools expand it.
const TAB_STOP: usize = 8;

/// Widest line measured exactly: a line wider than this is wider than any
/// margin, and measuring stops there so that a line of megabytes costs no
/// more than a short one.
const MAX_MEASURED: usize = 1024;

/// One line of a text: its bytes, without the line break, and where the
/// next line starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Line {
    /// Offset of the line's first byte.
    pub(super) start: usize,
    /// Offset of its line break, or of the text's end.
    pub(super) end: usize,
    /// Offset of the next line's first byte; `None` for the last line.
    pub(super) next: Option<usize>,
}

impl Line {
    /// The line that starts at `start`, a line start of `text`.
    pub(super) fn at(text: &str, start: usize) -> Line {
        let bytes = text.as_bytes();
        let end =
            memchr::memchr2(b'\n', b'\r', &bytes[start..]).map_or(bytes.len(), |at| start + at);
        let next = (end < bytes.len()).then(|| end + line_break_len(bytes, end));
        Line { start, end, next }
    }

    /// The line holding the byte at `at`.
    pub(super) fn holding(text: &str, at: usize) -> Line {
        let bytes = text.as_bytes();
        let start = memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |found| found + 1);
        Line::at(text, start)
    }

    /// The line after this one.
    pub(super) fn following(&self, text: &str) -> Option<Line> {
        self.next.map(|next| Line::at(text, next))
    }

    /// The line before this one.
    pub(super) fn preceding(&self, text: &str) -> Option<Line> {
        let bytes = text.as_bytes();
        if self.start == 0 {
            return None;
        }
        // Step back over this line's break, `\r\n` as one.
        let mut end = self.start - 1;
        if bytes[end] == b'\n' && end > 0 && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        Some(Line::holding(text, end))
    }

    /// The line's bytes without its line break.
    pub(super) fn content<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }

    /// True when the line holds nothing but spaces, tabs and form feeds.
    pub(super) fn is_blank(&self, text: &str) -> bool {
        self.content(text)
            .bytes()
            .all(|byte| matches!(byte, b' ' | b'\t' | 0x0C))
    }

    /// Columns up to the line's last character that is not a space.
    pub(super) fn width(&self, text: &str) -> usize {
        columns(self.content(text).trim_end())
    }
}

/// Columns `text` takes when it starts a line: one per character, a tab to
/// the next [`TAB_STOP`], form feeds none; at most a little past
/// [`MAX_MEASURED`].
pub(super) fn columns(text: &str) -> usize {
    let mut width = 0;
    for c in text.chars() {
        width = match c {
            '\t' => (width / TAB_STOP + 1) * TAB_STOP,
            '\u{c}' => width,
            _ => width + 1,
        };
        if width > MAX_MEASURED {
            break;
        }
    }
    width
}

/// True when the byte at `at` starts a line break or the text ends there,
/// once spaces and tabs are skipped: nothing follows on the line.
pub(super) fn ends_line(bytes: &[u8], at: usize) -> bool {
    let rest = bytes.get(at..).unwrap_or_default();
    rest.iter()
        .find(|&&byte| byte != b' ' && byte != b'\t')
        .is_none_or(|&byte| is_line_break(byte))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_step_over_every_kind_of_line_break() {
        let text = "one\r\ntwo\nthree\rfour";
        let first = Line::at(text, 0);
        let contents: Vec<&str> = std::iter::successors(Some(first), |line| line.following(text))
            .map(|line| line.content(text))
            .collect();
        assert_eq!(contents, ["one", "two", "three", "four"]);
        let last = Line::holding(text, text.len() - 1);
        assert_eq!(last.next, None);
        let back: Vec<&str> = std::iter::successors(Some(last), |line| line.preceding(text))
            .map(|line| line.content(text))
            .collect();
        assert_eq!(back, ["four", "three", "two", "one"]);
    }

    #[test]
    fn widths_count_columns() {
        let text = "   abc  \n\tx\n\u{c}\n  \u{e9}t\u{e9}";
        let lines: Vec<Line> =
            std::iter::successors(Some(Line::at(text, 0)), |line| line.following(text)).collect();
        let measured: Vec<(usize, bool)> = lines
            .iter()
            .map(|line| (line.width(text), line.is_blank(text)))
            .collect();
        assert_eq!(measured, [(6, false), (9, false), (0, true), (5, false)]);
    }

    #[test]
    fn a_line_ends_where_only_spaces_come_before_its_break() {
        let bytes = b"a  \nb c\n";
        assert!(ends_line(bytes, 1));
        assert!(!ends_line(bytes, 5));
        assert!(ends_line(bytes, bytes.len()));
    }
}
