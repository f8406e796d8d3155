//! Byte spans and line/column lookup: the one span type every stage shares.
//!
//! A span says which text it indexes by its type: [`UrlSpan`] for a URL's
//! joined text (what the validator reads), [`SourceSpan`] for the text a
//! URL was found in, [`DisplaySpan`] for the text a report shows (the
//! source, or a mail part's raw archive lines). A plain [`Span`] indexes
//! whatever text its holder names, as inside one stage. Moving a span from
//! one text to another goes through the map that relates them
//! ([`crate::scan::Found::source_spans`] from URL to source, the checked
//! text's frame from source to display), so the spaces cannot be mixed up
//! by accident; [`Span::of`] restates a span's text where a stage knows it.

use std::marker::PhantomData;

/// The text a [`Span`] indexes, named by its holder (a validator's
/// diagnostic indexes the URL, a scanner's the source).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct AnyText;

/// A URL's joined text: wrapper, prefix and line breaks removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct InUrl;

/// The text URLs are found in: a file, a window of one, a mail part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct InSource;

/// The text a report shows: the source, or a mail part's raw lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct InDisplay;

/// A span of a URL's joined text.
pub type UrlSpan = Span<InUrl>;

/// A span of the text a URL was found in.
pub type SourceSpan = Span<InSource>;

/// A span of the text a report shows.
pub type DisplaySpan = Span<InDisplay>;

/// A half-open byte range `start..end` into the text `In` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span<In = AnyText> {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
    text: PhantomData<In>,
}

impl<In> Span<In> {
    /// A span from `start` to `end`; callers keep `start <= end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end,
            text: PhantomData,
        }
    }

    /// The same bytes, said to index the text `To`: for a stage that knows
    /// which text its plain spans index, at the point where it hands them on.
    pub const fn of<To>(self) -> Span<To> {
        Span::new(self.start, self.end)
    }

    /// Number of bytes covered.
    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    /// True when the span covers no bytes.
    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The span moved right by `offset` bytes.
    pub const fn shifted(&self, offset: usize) -> Self {
        Span::new(self.start + offset, self.end + offset)
    }

    /// The span as a `Range`, for slicing.
    pub const fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// True when the two spans share a position, an empty span counting as
    /// the one position it marks.
    pub const fn meets(&self, other: Span<In>) -> bool {
        let (end, other_end) = (
            if self.end > self.start {
                self.end
            } else {
                self.start + 1
            },
            if other.end > other.start {
                other.end
            } else {
                other.start + 1
            },
        );
        self.start < other_end && other.start < end
    }
}

impl<In> From<std::ops::Range<usize>> for Span<In> {
    fn from(range: std::ops::Range<usize>) -> Self {
        Span::new(range.start, range.end)
    }
}

/// A 1-based line and column (columns counted in characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, in Unicode scalar values from the line start.
    pub column: usize,
}

/// Bytes between two character-count checkpoints of a [`LineIndex`]: the
/// most bytes one [`LineIndex::line_col`] call counts, however long the line.
const CHECKPOINT_BYTES: usize = 512;

/// Start offsets of every line of a text, for offset -> line/column lookup.
///
/// Lines end at `\n`, `\r\n` or a lone `\r` (old Mac text and some mail).
///
/// Column lookups cost no more than a few hundred byte reads each, so
/// placing every one of thousands of findings on one long line stays linear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    /// Characters before each multiple of [`CHECKPOINT_BYTES`]; `None` when
    /// the text is ASCII, where a column is a byte difference.
    char_checkpoints: Option<Vec<usize>>,
}

impl LineIndex {
    /// Index the line starts of `text`.
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for pos in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            // The `\r` of a `\r\n` pair is not a line end of its own.
            if bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n') {
                continue;
            }
            line_starts.push(pos + 1);
        }
        let char_checkpoints = (!text.is_ascii()).then(|| {
            let mut before = 0;
            let mut checkpoints = vec![0];
            for chunk in bytes.chunks(CHECKPOINT_BYTES) {
                before += count_chars(chunk);
                checkpoints.push(before);
            }
            checkpoints
        });
        LineIndex {
            line_starts,
            char_checkpoints,
        }
    }

    /// Byte offsets at which each line starts (the first is always 0).
    pub fn line_starts(&self) -> &[usize] {
        &self.line_starts
    }

    /// 0-based index of the line containing `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Line and column of `offset` in `text` (the text this index was built from).
    ///
    /// An offset inside a multi-byte character counts as that character.
    pub fn line_col(&self, text: &str, offset: usize) -> LineCol {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        let column = match self.char_checkpoints {
            None => offset - start,
            // Saturating: a text other than the indexed one must not panic.
            Some(_) => self
                .chars_before(text, offset)
                .saturating_sub(self.chars_before(text, start)),
        };
        LineCol {
            line: line + 1,
            column: column + 1,
        }
    }

    /// Characters (UTF-8 lead bytes) in `text[..offset]`, counted from the
    /// nearest checkpoint at or before `offset`.
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let bytes = text.as_bytes();
        let block = offset / CHECKPOINT_BYTES;
        let checkpoint = self
            .char_checkpoints
            .as_ref()
            .and_then(|checkpoints| checkpoints.get(block));
        match checkpoint {
            Some(&before) => before + count_chars(&bytes[block * CHECKPOINT_BYTES..offset]),
            // A text other than the indexed one: count it all.
            None => count_chars(&bytes[..offset]),
        }
    }
}

/// Line/column lookups by walking forward through one text, for callers
/// that place offsets in roughly increasing order (reports come in source
/// order): each byte is counted once, with vectorised newline counts, where
/// a [`LineIndex`] would first record every line start of the whole text.
///
/// Positions are exactly those of [`LineIndex::line_col`] on the same text.
/// A lookup behind the cursor is answered by counting back, within a
/// budget of the text's length in all; past that it returns `None`, and the
/// caller builds a [`LineIndex`], so the total work stays linear in the text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineCursor {
    /// The offset last walked to.
    offset: usize,
    /// 0-based line of `offset`.
    line: usize,
    /// Byte offset where that line starts.
    line_start: usize,
    /// Characters from `line_start` to `offset`.
    column: usize,
    /// Bytes counted so far for lookups behind `offset`.
    spent_back: usize,
}

impl LineCursor {
    /// Line and column of `offset` in `text` (the same text on every call),
    /// or `None` when it lies too far behind the cursor.
    pub fn line_col(&mut self, text: &str, offset: usize) -> Option<LineCol> {
        let bytes = text.as_bytes();
        let offset = offset.min(bytes.len());
        // A text shorter than the one walked so far: start again.
        if self.offset > bytes.len() {
            *self = LineCursor::default();
        }
        let column = if offset >= self.offset {
            self.walk_to(bytes, offset);
            self.column
        } else if offset >= self.line_start {
            self.spend_back(bytes.len(), self.offset - offset)?;
            // Saturating: a different text must not panic.
            self.column
                .saturating_sub(count_chars(&bytes[offset..self.offset]))
        } else {
            return self.before_line(bytes, offset);
        };
        Some(LineCol {
            line: self.line + 1,
            column: column + 1,
        })
    }

    /// Place `offset`, which lies before the cursor's line, by counting
    /// the breaks back to that line and the characters from its own line's
    /// start, without moving the cursor.
    fn before_line(&mut self, bytes: &[u8], offset: usize) -> Option<LineCol> {
        self.spend_back(bytes.len(), self.offset - offset)?;
        let left = bytes.len() - self.spent_back;
        let from = offset.saturating_sub(left);
        let start = match last_break(bytes, from, offset) {
            Some(at) => at + 1,
            None if from == 0 => 0,
            None => return None,
        };
        self.spend_back(bytes.len(), offset - start)?;
        let breaks = line_breaks(bytes, offset, self.line_start);
        Some(LineCol {
            line: self.line.saturating_sub(breaks) + 1,
            column: count_chars(&bytes[start..offset]) + 1,
        })
    }

    /// Take `bytes` from the budget for lookups behind the cursor, which is
    /// the text's length `len`; `None` once it would run out.
    fn spend_back(&mut self, len: usize, bytes: usize) -> Option<()> {
        let spent = self
            .spent_back
            .checked_add(bytes)
            .filter(|&spent| spent <= len)?;
        self.spent_back = spent;
        Some(())
    }

    /// Move the cursor forward to `offset`.
    fn walk_to(&mut self, bytes: &[u8], offset: usize) {
        let from = self.offset;
        let walked = &bytes[from..offset];
        let breaks = line_breaks(bytes, from, offset);
        match last_break(bytes, from, offset) {
            Some(at) if breaks > 0 => {
                self.line += breaks;
                self.line_start = at + 1;
                self.column = count_chars(&bytes[at + 1..offset]);
            }
            _ => self.column += count_chars(walked),
        }
        self.offset = offset;
    }
}

/// Below this many bytes, breaks are counted byte by byte: memchr's setup
/// costs more than it saves on the few bytes between URLs of dense text.
const SHORT_WALK: usize = 64;

/// Line breaks in `bytes[from..to]`; the byte after `to` is looked at, as
/// [`LineIndex::new`] does, to tell a `\r\n` from a lone `\r`.
fn line_breaks(bytes: &[u8], from: usize, to: usize) -> usize {
    if to - from < SHORT_WALK {
        return (from..to).filter(|&at| is_break(bytes, at)).count();
    }
    memchr::memchr_iter(b'\n', &bytes[from..to]).count() + lone_crs(bytes, from, to)
}

/// True when a line ends at `bytes[at]`.
fn is_break(bytes: &[u8], at: usize) -> bool {
    match bytes[at] {
        b'\n' => true,
        b'\r' => bytes.get(at + 1) != Some(&b'\n'),
        _ => false,
    }
}

/// Line-ending `\r`s (not followed by `\n`) in `bytes[from..to]`; the byte
/// after `to` is looked at, as [`LineIndex::new`] does.
fn lone_crs(bytes: &[u8], from: usize, to: usize) -> usize {
    memchr::memchr_iter(b'\r', &bytes[from..to])
        .filter(|&at| bytes.get(from + at + 1) != Some(&b'\n'))
        .count()
}

/// Offset of the last line break in `bytes[from..to]`, if any.
fn last_break(bytes: &[u8], from: usize, mut to: usize) -> Option<usize> {
    while let Some(found) = memchr::memrchr2(b'\n', b'\r', &bytes[from..to]) {
        let at = from + found;
        if bytes[at] == b'\r' && bytes.get(at + 1) == Some(&b'\n') {
            to = at;
            continue;
        }
        return Some(at);
    }
    None
}

/// True for `\r` and `\n`, the bytes that end a line.
pub(crate) fn is_line_break(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// Byte length of the line break at `at` (`\r\n` counts as one), or 0.
pub(crate) fn line_break_len(bytes: &[u8], at: usize) -> usize {
    match (bytes.get(at), bytes.get(at + 1)) {
        (Some(b'\r'), Some(b'\n')) => 2,
        (Some(&b), _) if is_line_break(b) => 1,
        _ => 0,
    }
}

/// Characters that start in `bytes`: every byte but UTF-8 continuation bytes.
pub(crate) fn count_chars(bytes: &[u8]) -> usize {
    count_where(bytes, |byte| (byte as i8) >= -0x40)
}

/// How many times `byte` occurs in `bytes`.
pub(crate) fn count_byte(bytes: &[u8], byte: u8) -> usize {
    count_where(bytes, |each| each == byte)
}

/// How many bytes of `bytes` `counts` holds for.
fn count_where(bytes: &[u8], counts: impl Fn(u8) -> bool) -> usize {
    // Counted in a byte per chunk, which the compiler keeps in vector
    // lanes of bytes; a count of `usize`s takes eight times the lanes and
    // made this ten times slower.
    bytes
        .chunks(usize::from(u8::MAX))
        .map(|chunk| {
            let counted = chunk
                .iter()
                .fold(0u8, |counted, &byte| counted + u8::from(counts(byte)));
            usize::from(counted)
        })
        .sum()
}

/// The byte range of `span` inside `text`, cut to the text and moved outward
/// to character boundaries, so that no reporter can slice mid-character.
pub fn clamp<In>(text: &str, span: Span<In>) -> std::ops::Range<usize> {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    if span.end <= span.start {
        return start..start;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// Bytes between two checkpoints of a [`CharCounter`].
const COUNTER_CHECKPOINT_BYTES: usize = 1024;

/// Counts code points before byte offsets of one text, asked in any order:
/// the count at every [`COUNTER_CHECKPOINT_BYTES`]-th byte is kept as the counter
/// first passes it, so the text is read once and each answer reads at most
/// one block more.
pub(crate) struct CharCounter<'t> {
    text: &'t str,
    /// `checkpoints[i]`: code points before byte `i * COUNTER_CHECKPOINT_BYTES`.
    checkpoints: Vec<usize>,
}

impl<'t> CharCounter<'t> {
    /// A counter at the start of `text`.
    pub(crate) fn new(text: &'t str) -> Self {
        CharCounter {
            text,
            checkpoints: vec![0],
        }
    }

    /// Code points before `byte` (a char boundary, as [`clamp`] makes it).
    pub(crate) fn at(&mut self, byte: usize) -> usize {
        let bytes = self.text.as_bytes();
        let byte = byte.min(bytes.len());
        let block = byte / COUNTER_CHECKPOINT_BYTES;
        while self.checkpoints.len() <= block {
            let start = (self.checkpoints.len() - 1) * COUNTER_CHECKPOINT_BYTES;
            let before = self.checkpoints[self.checkpoints.len() - 1];
            let passed = code_points(&bytes[start..start + COUNTER_CHECKPOINT_BYTES]);
            self.checkpoints.push(before + passed);
        }
        self.checkpoints[block] + code_points(&bytes[block * COUNTER_CHECKPOINT_BYTES..byte])
    }
}

/// Code points in UTF-8 bytes: the bytes that are not continuation bytes.
fn code_points(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_meet_where_they_share_a_position() {
        let span = Span::<AnyText>::new;
        assert!(span(2, 5).meets(span(4, 9)));
        assert!(!span(2, 5).meets(span(5, 9)));
        // An empty span is the one position it marks.
        assert!(span(3, 3).meets(span(2, 5)));
        assert!(span(5, 5).meets(span(5, 5)));
        assert!(!span(5, 5).meets(span(2, 5)));
    }

    #[test]
    fn crlf_is_one_line_break_of_two_bytes() {
        for (text, len) in [("\r\n", 2), ("\n", 1), ("\r", 1), ("\n\r", 1), ("x", 0)] {
            assert_eq!(line_break_len(text.as_bytes(), 0), len, "{text:?}");
        }
    }

    #[test]
    fn line_col_counts_characters_not_bytes() {
        let text = "ab\nçé<x>\r\nlast\rmac";
        let index = LineIndex::new(text);
        assert_eq!(index.line_starts(), &[0, 3, 12, 17]);
        assert_eq!(index.line_col(text, 0), LineCol { line: 1, column: 1 });
        let lt = text.find('<').unwrap();
        assert_eq!(index.line_col(text, lt), LineCol { line: 2, column: 3 });
        assert_eq!(
            index.line_col(text, text.len()),
            LineCol { line: 4, column: 4 }
        );
    }

    #[test]
    fn checkpoints_give_the_counted_column_at_every_offset() {
        // Multi-byte characters straddle checkpoint boundaries, lines start
        // inside and across blocks, and one line is many blocks long.
        let long_line = "é€𝄞a".repeat(CHECKPOINT_BYTES / 10 + 50);
        let texts = [
            format!("ab\n{long_line}\r{long_line}\r\nz"),
            "x".repeat(CHECKPOINT_BYTES - 1) + "ü" + &"y".repeat(CHECKPOINT_BYTES),
            "ascii only\nline two\rthree".to_string(),
            String::new(),
        ];
        for text in &texts {
            let index = LineIndex::new(text);
            // The definition, walked once: lead bytes since the line start.
            let mut line = 0;
            let mut lead_bytes = 0;
            for (offset, &byte) in text.as_bytes().iter().chain([&b'\n']).enumerate() {
                if index.line_starts().get(line + 1) == Some(&offset) {
                    line += 1;
                    lead_bytes = 0;
                }
                let expected = LineCol {
                    line: line + 1,
                    column: lead_bytes + 1,
                };
                assert_eq!(index.line_col(text, offset), expected, "offset {offset}");
                lead_bytes += count_chars(&[byte]);
            }
        }
    }

    #[test]
    fn chars_are_counted_as_str_counts_them_across_chunks() {
        let text = "ab\u{e9}\u{20ac}\u{1d11e}\n".repeat(60) + &"x".repeat(600);
        for (end, _) in text.char_indices() {
            let prefix = &text[..end];
            assert_eq!(
                count_chars(prefix.as_bytes()),
                prefix.chars().count(),
                "{end}"
            );
        }
        // Bytes that are not UTF-8 count as characters but for continuations.
        assert_eq!(count_chars(b"\xE9\x80\xFFa"), 3);
    }

    #[test]
    fn a_byte_is_counted_across_every_lane_chunk() {
        for len in [0, 1, 254, 255, 256, 1000] {
            let text = "\n".repeat(len) + "x";
            assert_eq!(count_byte(text.as_bytes(), b'\n'), len);
            assert_eq!(count_byte(text.as_bytes(), b'x'), 1);
        }
    }

    #[test]
    fn a_text_other_than_the_indexed_one_does_not_panic() {
        let index = LineIndex::new("é".repeat(5000).as_str());
        for text in ["", "abc", &"x\n".repeat(9000), &"ü".repeat(2)] {
            for offset in [0, 1, 3, 4097, usize::MAX] {
                let _ = index.line_col(text, offset);
            }
        }
    }

    #[test]
    fn line_cursor_agrees_with_line_index_forward_and_back() {
        let long_line = "é€𝄞a".repeat(CHECKPOINT_BYTES / 10 + 50);
        let texts = [
            format!("ab\n{long_line}\r{long_line}\r\nz\r"),
            "a\r\nb\rc\n\nçé\r\r\n".to_string(),
            "ascii only\nline two\rthree".to_string(),
            String::new(),
        ];
        for text in &texts {
            let index = LineIndex::new(text);
            let last = text.len() + 2;
            // Every offset in order, then each offset again after a step
            // forward, so that lookups behind the cursor are checked too.
            let mut cursor = LineCursor::default();
            for offset in 0..=last {
                let expected = index.line_col(text, offset);
                assert_eq!(cursor.line_col(text, offset), Some(expected), "{offset}");
            }
            // Each offset from the end of the text, with a fresh budget.
            for offset in 0..=last {
                let mut cursor = LineCursor::default();
                cursor.line_col(text, last);
                let expected = index.line_col(text, offset);
                assert_eq!(cursor.line_col(text, offset), Some(expected), "{offset}");
            }
            let mut cursor = LineCursor::default();
            for offset in 0..=last {
                let ahead = cursor.line_col(text, offset + 3);
                assert_eq!(ahead, Some(index.line_col(text, offset + 3)), "{offset}");
                let behind = cursor.line_col(text, offset);
                if let Some(place) = behind {
                    assert_eq!(place, index.line_col(text, offset), "{offset}");
                }
            }
        }
    }

    #[test]
    fn line_cursor_refuses_lookups_over_its_budget() {
        let text = "abc\ndef";
        let mut cursor = LineCursor::default();
        assert_eq!(
            cursor.line_col(text, 6),
            Some(LineCol { line: 2, column: 3 })
        );
        assert_eq!(
            cursor.line_col(text, 2),
            Some(LineCol { line: 1, column: 3 })
        );
        // 4 bytes back and 2 to the line start spent of 7; one more is left.
        assert_eq!(
            cursor.line_col(text, 5),
            Some(LineCol { line: 2, column: 2 })
        );
        assert_eq!(cursor.line_col(text, 4), None, "9 bytes back of 7");
        let line = "x".repeat(10);
        let mut cursor = LineCursor::default();
        assert!(cursor.line_col(&line, 10).is_some());
        assert!(cursor.line_col(&line, 2).is_some());
        assert_eq!(
            cursor.line_col(&line, 5),
            None,
            "13 bytes back, over the budget of 10"
        );
    }

    #[test]
    fn crlf_is_one_line_break() {
        let text = "a\r\nb";
        let index = LineIndex::new(text);
        assert_eq!(index.line_col(text, 3), LineCol { line: 2, column: 1 });
    }

    #[test]
    fn clamp_never_cuts_a_character() {
        let text = "aé<b"; // 'é' is bytes 1..3
        let cases: [(Span, _); 6] = [
            (Span::new(0, 1), 0..1),
            (Span::new(2, 2), 1..1),
            (Span::new(2, 3), 1..3),
            (Span::new(1, 2), 1..3),
            (Span::new(3, 99), 3..5),
            (Span::new(99, 120), 5..5),
        ];
        for (span, expected) in cases {
            assert_eq!(clamp(text, span), expected, "{span:?}");
        }
    }

    #[test]
    fn code_points_are_counted_at_offsets_asked_in_any_order() {
        let text = "aé€x".repeat(COUNTER_CHECKPOINT_BYTES / 3);
        let mut counter = CharCounter::new(&text);
        let boundaries: Vec<usize> = text.char_indices().map(|(at, _)| at).collect();
        let order = boundaries
            .iter()
            .rev()
            .step_by(7)
            .chain(boundaries.iter().step_by(5));
        for &byte in order.chain([&0, &text.len()]) {
            assert_eq!(counter.at(byte), text[..byte].chars().count(), "{byte}");
        }
    }
}
