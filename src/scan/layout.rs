//! The layout of plain text as the line joins read it: where a line starts
//! and ends, how wide it is in columns, whether it is blank, and where it
//! holds a wide gap. A bare URL continued on the next line and a page break
//! are decided in good part from the shape of the lines around them.

use crate::span::{is_line_break, line_break_len};

/// Columns a tab advances to the next multiple of, as terminals and the
/// RFC Editor's tools expand it.
const TAB_STOP: usize = 8;

/// Widest line measured exactly: a line wider than this is wider than any
/// margin, and measuring it stops there.
const MAX_MEASURED: usize = 1024;

/// How far back the start of a line is looked for: a line longer than this
/// before a place is no laid-out text, and looking further would make a
/// text of long lines cost their length at every place asked about.
const MAX_LINE_LOOKBACK: usize = 4 * 1024;

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

    /// The line holding the byte at `at`, when it starts at most
    /// [`MAX_LINE_LOOKBACK`] bytes before it.
    pub(super) fn holding(text: &str, at: usize) -> Option<Line> {
        let bytes = text.as_bytes();
        let floor = at.saturating_sub(MAX_LINE_LOOKBACK);
        let start = match memchr::memrchr2(b'\n', b'\r', &bytes[floor..at]) {
            Some(found) => floor + found + 1,
            None if floor == 0 => 0,
            None => return None,
        };
        Some(Line::at(text, start))
    }

    /// The line after this one.
    pub(super) fn following(&self, text: &str) -> Option<Line> {
        self.next.map(|next| Line::at(text, next))
    }

    /// The line before this one (see [`Line::holding`]).
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
        Line::holding(text, end)
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

    /// True when a space or tab stands between two words of the line,
    /// within its first [`MAX_MEASURED`] bytes: a line of prose, not one
    /// word alone.
    pub(super) fn has_word_space(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let head = &bytes[self.start..self.end.min(self.start + MAX_MEASURED)];
        let indent = head.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let words = &head[indent..];
        words
            .iter()
            .position(|&b| b == b' ' || b == b'\t')
            .is_some_and(|gap| words[gap..].iter().any(|b| !b.is_ascii_whitespace()))
    }

    /// True when `needle` occurs in the line's first [`MAX_MEASURED`] bytes.
    pub(super) fn holds(&self, text: &str, needle: &[u8]) -> bool {
        let bytes = text.as_bytes();
        let head = &bytes[self.start..self.end.min(self.start + MAX_MEASURED)];
        memchr::memmem::find(head, needle).is_some()
    }

    /// Columns up to the line's last character that is not a space, at
    /// most a little past [`MAX_MEASURED`]: wider than any margin.
    pub(super) fn width(&self, text: &str) -> usize {
        columns_within(self.content(text).trim_end(), MAX_MEASURED)
    }
}

/// Columns `text` takes when it starts a line: one per character, a tab to
/// the next [`TAB_STOP`], a form feed none (it starts a page).
pub(crate) fn columns(text: &str) -> usize {
    columns_within(text, usize::MAX)
}

/// [`columns`], counted no further than a little past `most`.
fn columns_within(text: &str, most: usize) -> usize {
    let mut width = 0;
    for c in text.chars() {
        width = match c {
            '\t' => (width / TAB_STOP + 1) * TAB_STOP,
            '\u{c}' => width,
            _ => width + 1,
        };
        if width > most {
            break;
        }
    }
    width
}

/// True when `text`, its leading and trailing whitespace aside, holds a
/// run of `spaces` or more spaces, or a tab: a gap between columns of a
/// table or parts of a page header, not a word space.
pub(super) fn has_inner_gap(text: &str, spaces: usize) -> bool {
    let inner = text.trim();
    inner.contains('\t')
        || inner
            .as_bytes()
            .split(|&byte| byte != b' ')
            .any(|run| run.len() >= spaces)
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
        let last = Line::holding(text, text.len() - 1).expect("a short line");
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
    fn a_line_far_longer_than_laid_out_text_has_no_start_near_its_end() {
        let text = format!("a\n{}b", "x".repeat(MAX_LINE_LOOKBACK + 1));
        assert_eq!(Line::holding(&text, text.len() - 1), None);
        assert!(Line::holding(&text, 1).is_some());
    }

    #[test]
    fn gaps_are_runs_of_spaces_or_tabs_inside_the_text() {
        assert!(has_inner_gap("a  b", 2));
        assert!(!has_inner_gap("a  b", 3));
        assert!(has_inner_gap("a\tb", 3));
        assert!(!has_inner_gap("   a b   ", 2));
    }

    #[test]
    fn a_line_ends_where_only_spaces_come_before_its_break() {
        let bytes = b"a  \nb c\n";
        assert!(ends_line(bytes, 1));
        assert!(!ends_line(bytes, 5));
        assert!(ends_line(bytes, bytes.len()));
    }
}
