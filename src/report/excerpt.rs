//! The part of a displayed text that one human diagnostic shows.
//!
//! codespan-reporting prints every labelled line whole and walks it
//! character by character, so a finding on a 20 MB line would print 20 MB.
//! An [`Excerpt`] hands codespan only the lines a diagnostic labels, with a
//! long line cropped to windows around its labels (`…` marks each cut),
//! while line numbers and the header's column stay those of the true input:
//! codespan asks the excerpt, and the excerpt answers from urlint's
//! [`LineIndex`](crate::span::LineIndex) and the frame's
//! [`Base`](super::Base), so that positions agree with every other format
//! (a lone `\r` ends a line here too).
//!
//! Short lines are copied whole, terminator included, so their rendering is
//! exactly what codespan prints for the whole text, except that control and
//! bidirectional characters are written as escapes ([`crate::escape`]), each
//! labelled as the one character it stands for.

use std::borrow::Cow;
use std::ops::Range;

use codespan_reporting::diagnostic::Label;
use codespan_reporting::files::{Error as FilesError, Files};

use crate::checked::DisplayedText;
use crate::escape;

/// Lines longer than this many characters are cropped.
const LONG_LINE_CHARS: usize = 200;

/// Characters shown on each side of a label on a cropped line, and at each
/// end of a label too long to show whole.
const CONTEXT_CHARS: usize = 60;

/// Marks where a cropped line was cut.
const ELLIPSIS: &str = "…";

/// The labelled lines of one diagnostic as a codespan file: only the lines
/// its labels touch, long ones cropped, numbered as in the input.
///
/// Only labelled lines (and a single line between two of them, which
/// codespan prints instead of a break) are held: the reporter asks codespan
/// for no context lines around labels.
pub(super) struct Excerpt<'c> {
    /// The file name codespan prints, escaped.
    name: Cow<'c, str>,
    /// The text the labels index.
    display: DisplayedText<'c>,
    /// The shown lines, one after the other.
    text: String,
    /// The shown lines in line order.
    lines: Vec<ShownLine>,
}

/// A line of the displayed text as the excerpt holds it.
struct ShownLine {
    /// Its index in the displayed text.
    index: usize,
    /// Its bytes in the excerpt, terminator included.
    range: Range<usize>,
    /// Its content (without terminator) in the displayed text.
    content: Range<usize>,
    /// Where the content ends in the excerpt: the terminator follows.
    content_end: usize,
    /// The runs of content kept, in order.
    kept: Vec<Kept>,
}

/// A run of a line's content copied into the excerpt: a stretch copied as
/// it is, or one character written as its escape.
struct Kept {
    /// Where it is in the displayed text.
    display: Range<usize>,
    /// Where it is in the excerpt.
    shown: Range<usize>,
    /// True for an escaped character, which maps only as a whole.
    escaped: bool,
}

impl Kept {
    /// The excerpt offset of displayed-text offset `offset`, clamped to
    /// this run.
    fn to_excerpt(&self, offset: usize) -> usize {
        if offset >= self.display.end {
            self.shown.end
        } else if self.escaped {
            self.shown.start
        } else {
            self.shown.start + offset.saturating_sub(self.display.start)
        }
    }

    /// The displayed-text offset of excerpt offset `offset`, clamped to
    /// this run.
    fn to_display(&self, offset: usize) -> usize {
        if offset >= self.shown.end {
            self.display.end
        } else if self.escaped {
            self.display.start
        } else {
            self.display.start + offset.saturating_sub(self.shown.start)
        }
    }
}

impl<'c> Excerpt<'c> {
    /// The lines of `display` that `spans` (character-aligned byte ranges
    /// of the displayed text) touch, cropped around them.
    pub(super) fn new(name: &'c str, display: DisplayedText<'c>, spans: &[Range<usize>]) -> Self {
        let mut excerpt = Excerpt {
            name: escape::line(name),
            display,
            text: String::new(),
            lines: Vec::new(),
        };
        for index in shown_lines(&display, spans) {
            let points = line_points(&display, index, spans);
            excerpt.push_line(index, &points);
        }
        excerpt
    }

    /// A primary label on each of `spans`, placed in the excerpt.
    pub(super) fn labels(&self, spans: &[Range<usize>]) -> Vec<Label<()>> {
        spans
            .iter()
            .map(|span| Label::primary((), self.range_of(span)))
            .collect()
    }

    /// Where `span` of the displayed text lies in the excerpt.
    fn range_of(&self, span: &Range<usize>) -> Range<usize> {
        let start = self.to_excerpt(span.start);
        start..self.to_excerpt(span.end).max(start)
    }

    /// Append line `index`, keeping its content around `points`.
    fn push_line(&mut self, index: usize, points: &[Range<usize>]) {
        let (content, terminator) = line_parts(&self.display, index);
        let text = self.display.text;
        let start = self.text.len();
        let runs = if is_long(text, &content) {
            kept_runs(text, &content, points)
        } else {
            vec![content.clone()]
        };
        let mut kept = Vec::with_capacity(runs.len());
        let mut shown_up_to = content.start;
        for run in runs {
            if run.start > shown_up_to {
                self.text.push_str(ELLIPSIS);
            }
            self.push_run(run.clone(), &mut kept);
            shown_up_to = run.end;
        }
        if shown_up_to < content.end {
            self.text.push_str(ELLIPSIS);
        }
        let content_end = self.text.len();
        self.text.push_str(text.get(terminator).unwrap_or_default());
        self.lines.push(ShownLine {
            index,
            range: start..self.text.len(),
            content,
            content_end,
            kept,
        });
    }

    /// Copy `run` of the displayed text, each escaped character a run of
    /// its own.
    fn push_run(&mut self, run: Range<usize>, kept: &mut Vec<Kept>) {
        let text = self.display.text;
        let Some(content) = text.get(run.clone()) else {
            return;
        };
        let mut copied_to = run.start;
        let escapes = content
            .char_indices()
            .filter(|&(_, c)| escape::is_escaped(c));
        for (offset, c) in escapes {
            let at = run.start + offset;
            self.push_copy(copied_to..at, kept);
            let start = self.text.len();
            escape::push_escape(&mut self.text, c);
            kept.push(Kept {
                display: at..at + c.len_utf8(),
                shown: start..self.text.len(),
                escaped: true,
            });
            copied_to = at + c.len_utf8();
        }
        self.push_copy(copied_to..run.end, kept);
    }

    /// Copy `range` of the displayed text as it is, if it is not empty.
    fn push_copy(&mut self, range: Range<usize>, kept: &mut Vec<Kept>) {
        if range.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text
            .push_str(self.display.text.get(range.clone()).unwrap_or_default());
        kept.push(Kept {
            display: range,
            shown: start..self.text.len(),
            escaped: false,
        });
    }

    /// The shown line with index `index`.
    fn line(&self, index: usize) -> Option<&ShownLine> {
        self.lines
            .binary_search_by_key(&index, |line| line.index)
            .ok()
            .and_then(|at| self.lines.get(at))
    }

    /// The shown line holding excerpt offset `offset` (the last one past
    /// the end).
    fn line_at(&self, offset: usize) -> Option<&ShownLine> {
        let after = self
            .lines
            .partition_point(|line| line.range.start <= offset);
        self.lines.get(after.saturating_sub(1))
    }

    /// The excerpt offset of displayed-text offset `offset`; an offset cut
    /// from its line moves to the next kept character.
    fn to_excerpt(&self, offset: usize) -> usize {
        let index = self.display.lines.line_of(offset);
        let Some(line) = self.line(index) else {
            return self.text.len();
        };
        if offset >= line.content.end {
            return (line.content_end + offset - line.content.end).min(line.range.end);
        }
        line.kept
            .iter()
            .find(|kept| offset <= kept.display.end)
            .map_or(line.content_end, |kept| kept.to_excerpt(offset))
    }

    /// The displayed-text offset of excerpt offset `offset`; an ellipsis
    /// stands for the first character after it.
    fn to_display(&self, offset: usize) -> usize {
        let Some(line) = self.line_at(offset) else {
            return 0;
        };
        if offset >= line.content_end {
            return line.content.end + (offset - line.content_end);
        }
        let last = line
            .kept
            .last()
            .map_or(line.content.end, |kept| kept.display.end);
        line.kept
            .iter()
            .find(|kept| offset <= kept.shown.end)
            .map_or(last, |kept| kept.to_display(offset))
    }
}

/// Indices of the lines `spans` touch, in order, with a single line between
/// two of them added (codespan prints it rather than a break).
fn shown_lines(display: &DisplayedText, spans: &[Range<usize>]) -> Vec<usize> {
    let mut lines: Vec<usize> = spans
        .iter()
        .flat_map(|span| display.lines.line_of(span.start)..=display.lines.line_of(span.end))
        .collect();
    lines.sort_unstable();
    lines.dedup();
    let gaps: Vec<usize> = lines
        .windows(2)
        .filter(|pair| pair[1] == pair[0] + 2)
        .map(|pair| pair[0] + 1)
        .collect();
    lines.extend(gaps);
    lines.sort_unstable();
    lines
}

/// The parts of `spans` codespan marks on line `index`: a span within the
/// line whole, a span crossing lines by its start or its end.
fn line_points(display: &DisplayedText, index: usize, spans: &[Range<usize>]) -> Vec<Range<usize>> {
    let line_of = |offset| display.lines.line_of(offset);
    let mut points = Vec::new();
    for span in spans {
        let (first, last) = (line_of(span.start), line_of(span.end));
        if first == index && last == index {
            points.push(span.clone());
        } else if first == index {
            points.push(span.start..span.start);
        } else if last == index {
            points.push(span.end..span.end);
        }
    }
    points
}

/// Line `index`'s content and terminator (`\n`, `\r\n`, `\r` or nothing).
fn line_parts(display: &DisplayedText, index: usize) -> (Range<usize>, Range<usize>) {
    let starts = display.lines.line_starts();
    let text = display.text;
    let start = starts.get(index).copied().unwrap_or(text.len());
    let end = starts.get(index + 1).copied().unwrap_or(text.len());
    let line = text.get(start..end).unwrap_or_default();
    let content = line.trim_end_matches(['\n', '\r']);
    let content_end = start + content.len();
    (start..content_end, content_end..end)
}

/// True when `content` of `text` has more than [`LONG_LINE_CHARS`]
/// characters, counting no further than that.
fn is_long(text: &str, content: &Range<usize>) -> bool {
    content.len() > LONG_LINE_CHARS && chars_beyond(text, content, LONG_LINE_CHARS)
}

/// True when `range` of `text` has more than `limit` characters.
fn chars_beyond(text: &str, range: &Range<usize>, limit: usize) -> bool {
    text.get(range.clone())
        .is_some_and(|part| part.chars().take(limit + 1).count() > limit)
}

/// The runs of a long line's `content` to show around `points`, merged
/// where they meet. A line with no point (inside a span that crosses it)
/// shows its head.
fn kept_runs(text: &str, content: &Range<usize>, points: &[Range<usize>]) -> Vec<Range<usize>> {
    let around = |at: usize| {
        back(text, content.start, at, CONTEXT_CHARS)..forward(text, at, content.end, CONTEXT_CHARS)
    };
    let mut runs: Vec<Range<usize>> = Vec::new();
    for point in points {
        if chars_beyond(text, point, 2 * CONTEXT_CHARS) {
            runs.push(around(point.start));
            runs.push(around(point.end));
        } else {
            let (start, end) = (around(point.start).start, around(point.end).end);
            runs.push(start..end);
        }
    }
    if runs.is_empty() {
        runs.push(content.start..forward(text, content.start, content.end, 2 * CONTEXT_CHARS));
    }
    runs.sort_unstable_by_key(|run| run.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(runs.len());
    for run in runs {
        match merged.last_mut() {
            Some(last) if run.start <= last.end => last.end = last.end.max(run.end),
            _ => merged.push(run),
        }
    }
    merged
}

/// The offset `count` characters before `at`, but not before `floor`.
fn back(text: &str, floor: usize, at: usize, count: usize) -> usize {
    text.get(floor..at)
        .and_then(|part| part.char_indices().rev().take(count).last())
        .map_or(at, |(offset, _)| floor + offset)
}

/// The offset `count` characters after `at`, but not after `ceiling`.
fn forward(text: &str, at: usize, ceiling: usize, count: usize) -> usize {
    text.get(at..ceiling)
        .and_then(|part| part.char_indices().nth(count))
        .map_or(ceiling.max(at), |(offset, _)| at + offset)
}

impl<'a, 'c: 'a> Files<'a> for Excerpt<'c> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, FilesError> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, FilesError> {
        Ok(self.line_at(byte_index).map_or(0, |line| line.index))
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, FilesError> {
        Ok(self.display.base.line + line_index)
    }

    /// The true input column, counted by urlint's line index in the
    /// displayed text rather than by codespan in the cropped line.
    fn column_number(
        &'a self,
        (): (),
        _line_index: usize,
        byte_index: usize,
    ) -> Result<usize, FilesError> {
        let offset = self.to_display(byte_index);
        let place = self.display.lines.line_col(self.display.text, offset);
        Ok(self.display.base.place(place).column)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, FilesError> {
        self.line(line_index)
            .map(|line| line.range.clone())
            .ok_or(FilesError::LineTooLarge {
                given: line_index,
                max: self.lines.last().map_or(0, |line| line.index),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checked::Base;
    use crate::span::LineIndex;

    /// The excerpt of `text` for `spans` (start, end), and what each span
    /// labels in it.
    fn excerpt_text(text: &str, spans: &[(usize, usize)]) -> (String, Vec<String>) {
        let spans: Vec<Range<usize>> = spans.iter().map(|&(start, end)| start..end).collect();
        let lines = LineIndex::new(text);
        let display = DisplayedText {
            text,
            lines: &lines,
            base: Base::START,
        };
        let excerpt = Excerpt::new("t", display, &spans);
        let labelled = spans
            .iter()
            .map(|span| excerpt.text[excerpt.range_of(span)].to_string())
            .collect();
        (excerpt.text.clone(), labelled)
    }

    proptest::proptest! {
        #[test]
        fn labels_stay_on_kept_characters_of_any_text(
            text in "([a-z é€𝄞~\x1b\u{85}\u{202e}]{0,400}(\n|\r\n|\r)){0,3}[a-z é€𝄞~\x1b\u{85}\u{202e}]{0,400}",
            pairs in proptest::collection::vec((0usize..2_000, 0usize..2_000), 0..4),
        ) {
            let spans: Vec<Range<usize>> = pairs
                .iter()
                .map(|&(a, b)| crate::span::clamp(&text, crate::span::Span::<crate::span::AnyText>::from(a.min(b)..a.max(b))))
                .collect();
            let lines = LineIndex::new(&text);
            let display = DisplayedText { text: &text, lines: &lines, base: Base::START };
            let excerpt = Excerpt::new("t", display, &spans);
            for span in &spans {
                let range = excerpt.range_of(span);
                proptest::prop_assert!(excerpt.text.get(range.clone()).is_some(), "{range:?}");
                proptest::prop_assert_eq!(excerpt.to_display(range.start), span.start);
            }
            // A label of up to 120 characters with 60 each side, and an
            // ellipsis, per span; a line no span is on shows its head; an
            // escape is up to 8 characters.
            let bound = 8 * LONG_LINE_CHARS.max(spans.len() * (4 * CONTEXT_CHARS + 2) + 1);
            for line in excerpt.text.split(['\n', '\r']) {
                proptest::prop_assert!(line.chars().count() <= bound, "{line}");
                proptest::prop_assert!(!line.chars().any(escape::is_escaped), "{line:?}");
            }
        }
    }

    #[test]
    fn lines_are_cropped_only_when_long() {
        let x = |count| "x".repeat(count);
        let long = format!("{}~{}", x(500), x(499));
        let cases = [
            // Short lines are copied whole, terminators included.
            ("ab~\r\ncd".to_string(), vec![(2, 3)], "ab~\r\n".to_string()),
            (x(199) + "~\n", vec![(199, 200)], x(199) + "~\n"),
            (x(200) + "~\n", vec![(200, 201)], format!("…{}~\n", x(60))),
            // A long line keeps 60 characters each side of its label.
            (
                long.clone(),
                vec![(500, 501)],
                format!("…{}~{}…", x(60), x(60)),
            ),
            // Labels far apart get a window each; one near the start needs
            // no leading ellipsis.
            (
                long.clone(),
                vec![(10, 11), (900, 901)],
                format!("{}…{}…", x(71), x(121)),
            ),
            // Windows that meet are merged.
            (
                long,
                vec![(480, 481), (500, 501)],
                format!("…{}~{}…", x(80), x(60)),
            ),
        ];
        for (text, spans, expected) in cases {
            let (shown, _) = excerpt_text(&text, &spans);
            assert_eq!(shown, expected, "{spans:?}");
        }
    }

    #[test]
    fn a_long_label_shows_its_two_ends_and_labels_all_it_shows() {
        let text = format!("{}{}{}", "a".repeat(100), "B".repeat(800), "c".repeat(100));
        let (shown, labelled) = excerpt_text(&text, &[(100, 900)]);
        let (a, b) = ("a".repeat(60), "B".repeat(60));
        assert_eq!(shown, format!("…{a}{b}…{b}{}", "c".repeat(60) + "…"));
        assert_eq!(labelled, [format!("{b}…{b}")]);
    }

    #[test]
    fn a_span_across_lines_is_shown_by_its_start_and_end() {
        let text = format!(
            "{}~x\n{}\ny~{}\n",
            "a".repeat(300),
            "m".repeat(300),
            "z".repeat(300)
        );
        let start = 300;
        let end = text.find('y').unwrap_or(0) + 2;
        let (shown, labelled) = excerpt_text(&text, &[(start, end)]);
        let expected = format!(
            "…{}~x\n{}…\ny~{}…\n",
            "a".repeat(60),
            "m".repeat(120),
            "z".repeat(60)
        );
        assert_eq!(shown, expected);
        assert_eq!(labelled, [format!("~x\n{}…\ny~", "m".repeat(120))]);
    }

    #[test]
    fn control_and_bidi_characters_are_shown_escaped_and_labelled_whole() {
        let text = "a\u{1b}]0;t\u{7} http://x.example/\u{202e}~\n";
        let esc = text.find('\u{1b}').unwrap_or(0);
        let bidi = text.find('\u{202e}').unwrap_or(0);
        let tilde = text.find('~').unwrap_or(0);
        let (shown, labelled) =
            excerpt_text(text, &[(esc, esc + 1), (bidi, bidi + 3), (bidi, tilde + 1)]);
        assert_eq!(shown, "a\\x1b]0;t\\x07 http://x.example/\\u{202e}~\n");
        assert_eq!(labelled, ["\\x1b", "\\u{202e}", "\\u{202e}~"]);
    }

    #[test]
    fn offsets_round_trip_and_columns_stay_true() {
        let text = format!("{}\n{} é€𝄞 ~ {}", "top", "é".repeat(400), "𝄞".repeat(400));
        let tilde = text.find('~').unwrap_or(0);
        let lines = LineIndex::new(&text);
        let base = Base {
            offset: 0,
            line: 40,
            column: 7,
            chars: None,
        };
        let display = DisplayedText {
            text: &text,
            lines: &lines,
            base,
        };
        let label = tilde..tilde + 1;
        let excerpt = Excerpt::new("t", display, std::slice::from_ref(&label));
        let line = excerpt.line(1).expect("the labelled line");
        for kept in &line.kept {
            for (offset, _) in text[kept.display.clone()].char_indices() {
                let offset = kept.display.start + offset;
                assert_eq!(excerpt.to_display(excerpt.to_excerpt(offset)), offset);
            }
        }
        let at = excerpt.range_of(&label).start;
        let location = excerpt.location((), at).expect("a location");
        assert_eq!((location.line_number, location.column_number), (41, 406));
    }
}
