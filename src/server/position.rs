//! LSP positions and byte offsets, both ways, in the position encoding the
//! client and the server agreed on.
//!
//! A position is a line and a character offset in that line, counted in
//! UTF-16 code units unless the client offered UTF-8. Lines end where the
//! rest of urlint ends them (`\n`, `\r\n` or a lone `\r`, as
//! [`LineIndex`] reads them), which is also what the protocol says.
//!
//! Positions from a client are not trusted: a line past the end, a
//! character past the line's end or inside a character (half a surrogate
//! pair, a byte inside a UTF-8 sequence) all become an offset in the text,
//! on a character boundary, as the protocol asks for an over-long
//! character ("defaults back to the line length").

use lsp_types::{Position, PositionEncodingKind};

use crate::span::{LineIndex, Span};

/// How the characters of a [`Position`] are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Encoding {
    /// UTF-16 code units: the protocol's default, which every client speaks.
    #[default]
    Utf16,
    /// UTF-8 bytes, when the client offers it: byte columns, no counting.
    Utf8,
}

impl Encoding {
    /// The encoding to use with a client that offers `offered` (in its order
    /// of preference): UTF-8 when it is offered at all, since columns are
    /// then byte differences, else UTF-16.
    pub(super) fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        let utf8 = offered.is_some_and(|kinds| kinds.contains(&PositionEncodingKind::UTF8));
        if utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    /// The protocol's name for this encoding.
    pub(super) fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf8 => PositionEncodingKind::UTF8,
        }
    }
}

/// Bytes between two UTF-16 checkpoints: the most bytes one conversion
/// counts besides the line it walks, however long the line.
const CHECKPOINT_BYTES: usize = 1024;

/// Line starts and UTF-16 counts of one text, for conversions both ways.
#[derive(Debug, Clone)]
pub(super) struct PositionIndex {
    lines: LineIndex,
    /// UTF-16 units of the characters that start before each multiple of
    /// [`CHECKPOINT_BYTES`]; `None` for UTF-8 or for ASCII text, where a
    /// unit is a byte.
    units: Option<Vec<usize>>,
}

impl PositionIndex {
    /// Index `text` for positions in `encoding`.
    pub(super) fn new(text: &str, encoding: Encoding) -> Self {
        let units = (encoding == Encoding::Utf16 && !text.is_ascii()).then(|| {
            let mut before = 0;
            let mut checkpoints = vec![0];
            for chunk in text.as_bytes().chunks(CHECKPOINT_BYTES) {
                before += utf16_units(chunk);
                checkpoints.push(before);
            }
            checkpoints
        });
        PositionIndex {
            lines: LineIndex::new(text),
            units,
        }
    }

    /// The line starts of the indexed text.
    pub(super) fn lines(&self) -> &LineIndex {
        &self.lines
    }

    /// The position of byte `offset` of `text` (the indexed text); an
    /// offset past the end or inside a character is moved back to the
    /// nearest character boundary.
    pub(super) fn position(&self, text: &str, offset: usize) -> Position {
        let offset = floor_boundary(text, offset);
        let line = self.lines.line_of(offset);
        let start = self.lines.line_starts()[line];
        let character = match self.units {
            None => offset - start,
            Some(_) => self
                .units_before(text, offset)
                .saturating_sub(self.units_before(text, start)),
        };
        Position::new(saturate(line), saturate(character))
    }

    /// The byte offset of `position` in `text` (the indexed text): a line
    /// past the last is the end of the text, a character past the line's
    /// end is the line's end, and one inside a character is that
    /// character's start.
    pub(super) fn offset(&self, text: &str, position: Position) -> usize {
        let Some((start, end)) = line_bounds(text, self.lines.line_starts(), position.line) else {
            return text.len();
        };
        let character = usize::try_from(position.character).unwrap_or(usize::MAX);
        match self.units {
            None => floor_boundary(text, start.saturating_add(character).min(end)),
            Some(_) => self.offset_of_units(text, start, end, character),
        }
    }

    /// The offset in `text[start..end]` (one line, without its break) that
    /// is `character` UTF-16 units from `start`, clamped to `end`.
    fn offset_of_units(&self, text: &str, start: usize, end: usize, character: usize) -> usize {
        let target = self.units_before(text, start).saturating_add(character);
        // Start from the last checkpoint at or before the target, when it
        // lies inside the line: a long line is not walked from its start.
        let checkpoints = self.units.as_deref().unwrap_or(&[]);
        let block = checkpoints
            .partition_point(|&units| units <= target)
            .saturating_sub(1);
        let mut at = start.max(block * CHECKPOINT_BYTES).min(end);
        while !text.is_char_boundary(at) {
            at += 1;
        }
        walk_units(text, at, end, target - self.units_before(text, at))
    }

    /// UTF-16 units of the characters in `text[..offset]`, `offset` on a
    /// character boundary.
    fn units_before(&self, text: &str, offset: usize) -> usize {
        let bytes = text.as_bytes();
        let block = offset / CHECKPOINT_BYTES;
        match self.units.as_ref().and_then(|units| units.get(block)) {
            Some(&before) => before + utf16_units(&bytes[block * CHECKPOINT_BYTES..offset]),
            None => utf16_units(&bytes[..offset]),
        }
    }
}

/// Where line `line` of `text` (whose lines start at `starts`) starts,
/// and where it ends before its line break; `None` past the last line.
fn line_bounds(text: &str, starts: &[usize], line: u32) -> Option<(usize, usize)> {
    let line = usize::try_from(line).ok()?;
    let start = *starts.get(line)?;
    let Some(&next) = starts.get(line + 1) else {
        return Some((start, text.len()));
    };
    let bytes = text.as_bytes();
    let end = if next >= 2 && bytes[next - 2] == b'\r' && bytes[next - 1] == b'\n' {
        next - 2
    } else {
        next - 1
    };
    Some((start, end))
}

/// The offset `units` UTF-16 units after `from` (a character boundary) in
/// `text[from..end]`, clamped to `end`; one inside a surrogate pair is the
/// pair's start.
fn walk_units(text: &str, from: usize, end: usize, units: usize) -> usize {
    let mut walked = 0;
    for (offset, c) in text[from..end].char_indices() {
        walked += c.len_utf16();
        if walked > units {
            return from + offset;
        }
    }
    end
}

/// The line starts of a document being edited, kept up to date edit by
/// edit: a keystroke in a large document costs a look at the bytes it
/// changed and a shift of the line starts after them, not a new index of
/// the whole text. A position's character is counted from its line's
/// start.
#[derive(Debug, Clone)]
pub(super) struct EditedLines {
    starts: Vec<usize>,
}

impl EditedLines {
    /// The line starts of `text`.
    pub(super) fn new(text: &str) -> Self {
        EditedLines {
            starts: LineIndex::new(text).line_starts().to_vec(),
        }
    }

    /// The byte offset of `position` in `text`, in `encoding`, clamped as
    /// [`PositionIndex::offset`] clamps.
    pub(super) fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        let Some((start, end)) = line_bounds(text, &self.starts, position.line) else {
            return text.len();
        };
        let character = usize::try_from(position.character).unwrap_or(usize::MAX);
        match encoding {
            Encoding::Utf8 => floor_boundary(text, start.saturating_add(character).min(end)),
            Encoding::Utf16 => walk_units(text, start, end, character),
        }
    }

    /// Take in an edit that replaced the bytes `replaced` with `inserted`
    /// bytes; `text` is the text after it.
    ///
    /// Only the breaks the edit can have changed are looked at again: those
    /// in the inserted bytes, and the one just before them (a `\r` there
    /// may now be followed by `\n`). Breaks after the edit only move.
    pub(super) fn edited(&mut self, text: &str, replaced: Span, inserted: usize) {
        let bytes = text.as_bytes();
        let start = replaced.start;
        let new_end = start + inserted;
        // Line starts that stay (the first, always), and those the edit
        // removed or may have changed: a start is the byte after a break.
        let head = self.starts.partition_point(|&at| at < start).max(1);
        let tail = self.starts.partition_point(|&at| at <= replaced.end);
        let before = start
            .checked_sub(1)
            .filter(|&at| matches!(bytes[at], b'\r' | b'\n'));
        let from = before.unwrap_or(start);
        let to = new_end + usize::from(bytes.get(new_end) == Some(&b'\n'));
        let found = LineIndex::new(&text[from..to])
            .line_starts()
            .iter()
            .map(|&at| from + at)
            .filter(|&at| at > from && (start..=new_end).contains(&at))
            .collect::<Vec<_>>();
        let moved: Vec<usize> = self.starts[tail.max(head)..]
            .iter()
            .map(|&at| at - replaced.end + new_end)
            .collect();
        self.starts.truncate(head);
        self.starts.extend(found);
        self.starts.extend(moved);
    }
}

/// UTF-16 units of the characters whose first byte is in `bytes`: one per
/// lead byte, two for a four-byte sequence (a surrogate pair).
fn utf16_units(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .map(|&b| match b {
            0x80..=0xBF => 0,
            0xF0..=0xFF => 2,
            _ => 1,
        })
        .sum()
}

/// `offset` clamped to `text` and moved back to a character boundary.
pub(super) fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// A count as the protocol's `u32`; a text of more than 4 GiB saturates
/// rather than wraps.
fn saturate(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    #[test]
    fn utf16_counts_a_non_bmp_character_as_two_units() {
        let text = "a\u{1F600}b http://x/\r\nz\u{e9}\rend";
        let index = PositionIndex::new(text, Encoding::Utf16);
        let url = text.find("http").unwrap();
        assert_eq!(index.position(text, url), at(0, 5));
        assert_eq!(index.offset(text, at(0, 5)), url);
        // Inside the surrogate pair: the character's start.
        assert_eq!(index.offset(text, at(0, 2)), 1);
        let z = text.find('z').unwrap();
        assert_eq!(index.position(text, z), at(1, 0));
        assert_eq!(index.position(text, z + 3), at(1, 2));
        let end = text.find("end").unwrap();
        assert_eq!(index.position(text, end), at(2, 0));
        assert_eq!(index.position(text, text.len()), at(2, 3));
    }

    #[test]
    fn utf8_columns_are_bytes() {
        let text = "\u{e9}\u{1F600} http://x/\nb";
        let index = PositionIndex::new(text, Encoding::Utf8);
        let url = text.find("http").unwrap();
        assert_eq!(index.position(text, url), at(0, 7));
        assert_eq!(index.offset(text, at(0, 7)), url);
        // Inside 'é': its start.
        assert_eq!(index.offset(text, at(0, 1)), 0);
    }

    /// Positions a client may send that name no place in the text.
    #[test]
    fn out_of_range_positions_are_clamped() {
        let text = "ab\r\ncd\n";
        for encoding in [Encoding::Utf16, Encoding::Utf8] {
            let index = PositionIndex::new(text, encoding);
            let cases = [
                (at(0, 99), 2),
                (at(1, 2), 6),
                (at(1, u32::MAX), 6),
                (at(2, 5), 7),
                (at(3, 0), 7),
                (at(u32::MAX, u32::MAX), 7),
            ];
            for (position, offset) in cases {
                assert_eq!(index.offset(text, position), offset, "{position:?}");
            }
            assert_eq!(index.position(text, 99), at(2, 0));
        }
    }

    #[test]
    fn negotiation_prefers_utf8_when_offered() {
        let both = [PositionEncodingKind::UTF16, PositionEncodingKind::UTF8];
        assert_eq!(Encoding::negotiate(Some(&both)), Encoding::Utf8);
        let utf32 = [PositionEncodingKind::UTF32];
        assert_eq!(Encoding::negotiate(Some(&utf32)), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
    }

    /// Text with every kind of line break and characters of every UTF-8 and
    /// UTF-16 length, long enough to cross checkpoints.
    fn text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("a".to_string()),
            Just("\u{e9}".to_string()),
            Just("\u{20ac}".to_string()),
            Just("\u{1F600}".to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\r".to_string()),
            "[a-z]{0,600}",
        ];
        proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
    }

    /// A character boundary of `text` picked by `pick`.
    fn boundary(text: &str, pick: usize) -> usize {
        floor_boundary(text, pick % (text.len() + 1))
    }

    #[test]
    fn edits_around_line_breaks_keep_the_line_starts() {
        // (text, replaced bytes, inserted): a \r\n pair split, joined and
        // broken up, a lone \r at either end of the insertion.
        let cases = [
            ("ab\r\ncd", (3, 3), "x"),
            ("ab\rcd", (3, 3), "\n"),
            ("ab\r\ncd", (2, 3), ""),
            ("ab\ncd", (0, 0), "\r"),
            ("ab\ncd", (2, 2), "\r"),
            ("ab\ncd", (1, 4), "\r\r\n\n"),
            ("\r", (0, 1), ""),
            ("", (0, 0), "\n\r"),
        ];
        for (text, (start, end), inserted) in cases {
            let mut lines = EditedLines::new(text);
            let mut edited = text.to_string();
            edited.replace_range(start..end, inserted);
            lines.edited(&edited, Span::new(start, end), inserted.len());
            let expected = LineIndex::new(&edited).line_starts().to_vec();
            assert_eq!(
                lines.starts, expected,
                "{text:?} {start}..{end} {inserted:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn edited_lines_match_a_new_index_after_every_edit(
            text in text(),
            edits in proptest::collection::vec((any::<usize>(), any::<usize>(), text()), 1..8),
            positions in proptest::collection::vec((0u32..12, 0u32..700), 1..8),
        ) {
            let mut text = text;
            let mut lines = EditedLines::new(&text);
            for (a, b, inserted) in edits {
                let (a, b) = (boundary(&text, a), boundary(&text, b));
                let replaced = Span::new(a.min(b), a.max(b));
                text.replace_range(replaced.range(), &inserted);
                lines.edited(&text, replaced, inserted.len());
                let expected = LineIndex::new(&text);
                prop_assert_eq!(&lines.starts[..], expected.line_starts());
            }
            for encoding in [Encoding::Utf16, Encoding::Utf8] {
                let index = PositionIndex::new(&text, encoding);
                for &(line, character) in &positions {
                    let position = at(line, character);
                    prop_assert_eq!(
                        lines.offset(&text, position, encoding),
                        index.offset(&text, position)
                    );
                }
            }
        }

        #[test]
        fn every_boundary_round_trips(text in text(), utf8 in any::<bool>()) {
            let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
            let index = PositionIndex::new(&text, encoding);
            let mut line = 0;
            let mut character = 0;
            let bytes = text.as_bytes();
            for (offset, c) in text.char_indices().chain([(text.len(), '\0')]) {
                let expected = at(line, character);
                prop_assert_eq!(index.position(&text, offset), expected);
                // The break's own bytes sit at the line's end.
                let in_break = c == '\n' && offset > 0 && bytes[offset - 1] == b'\r';
                if !in_break {
                    prop_assert_eq!(index.offset(&text, expected), offset);
                }
                match c {
                    '\n' => (line, character) = (line + 1, 0),
                    '\r' if bytes.get(offset + 1) != Some(&b'\n') => {
                        (line, character) = (line + 1, 0);
                    }
                    '\r' => character += 1,
                    c => {
                        character += match encoding {
                            Encoding::Utf16 => c.len_utf16() as u32,
                            Encoding::Utf8 => c.len_utf8() as u32,
                        };
                    }
                }
            }
        }
    }
}
