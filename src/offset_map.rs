//! Where each byte of a decoded text came from in the bytes it was decoded
//! from.
//!
//! Decoding is a chain of byte rewrites (mbox `>From ` unquoting,
//! quoted-printable, charset conversion in mail; character references and
//! Markdown escapes in markup), so the map is a list of pieces that compose:
//! each stage maps its output onto its input, and [`OffsetMap::then`] chains
//! two stages into one.

use crate::span::Span;

/// One run of text and the raw bytes it was decoded from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The run in the decoded text.
    pub text: Span,
    /// The raw bytes it came from.
    pub raw: Span,
    /// True when the run is a byte-for-byte copy (`text.len() == raw.len()`),
    /// so any sub-span maps exactly; otherwise the run maps only as a whole.
    pub exact: bool,
}

/// A map from spans of a decoded text to spans of the raw bytes.
///
/// Pieces are ordered and do not overlap; text bytes that no piece covers were
/// inserted by the decoder and map nowhere.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OffsetMap {
    pieces: Vec<Piece>,
}

impl OffsetMap {
    /// An empty map, to be filled in text order with [`OffsetMap::push`].
    pub fn new() -> Self {
        OffsetMap::default()
    }

    /// The map of a text copied unchanged from `raw`.
    pub fn identity(raw: Span) -> Self {
        let mut map = OffsetMap::new();
        map.push(Span::new(0, raw.len()), raw, true);
        map
    }

    /// The map of a text of `text_len` bytes that maps only as a whole onto
    /// `raw`: what base64 gives, whose output bytes have no raw byte of their own.
    pub fn whole(text_len: usize, raw: Span) -> Self {
        let mut map = OffsetMap::new();
        map.push(Span::new(0, text_len), raw, false);
        map
    }

    /// The pieces, in text order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Append a piece after all others; an exact piece that continues the
    /// previous exact one in both text and raw merges with it, which keeps
    /// maps of undecoded text to a single piece.
    pub fn push(&mut self, text: Span, raw: Span, exact: bool) {
        if text.is_empty() {
            return;
        }
        let exact = exact && text.len() == raw.len();
        if let Some(last) = self.pieces.last_mut() {
            if exact && last.exact && last.text.end == text.start && last.raw.end == raw.start {
                last.text.end = text.end;
                last.raw.end = raw.end;
                return;
            }
        }
        self.pieces.push(Piece { text, raw, exact });
    }

    /// This map with the bytes of each piece that start inside a character
    /// of `text` (the text it maps), up to that character's end, joined to
    /// the piece before it, inexact: a character whose bytes a decoding
    /// took from two places (a quoted-printable soft line break inside a
    /// UTF-8 sequence) maps as a whole, and every piece starts on a
    /// character.
    pub fn char_aligned(self, text: &str) -> OffsetMap {
        if self
            .pieces
            .iter()
            .all(|piece| text.is_char_boundary(piece.text.start))
        {
            return self;
        }
        let mut pieces: Vec<Piece> = Vec::with_capacity(self.pieces.len());
        for piece in self.pieces {
            let inside_a_character = !text.is_char_boundary(piece.text.start);
            let Some(last) = pieces.last_mut().filter(|_| inside_a_character) else {
                pieces.push(piece);
                continue;
            };
            let mut cut = piece.text.start + 1;
            while cut < piece.text.end && !text.is_char_boundary(cut) {
                cut += 1;
            }
            let head_raw_end = if piece.exact {
                piece.raw.start + (cut - piece.text.start)
            } else {
                piece.raw.end
            };
            last.text.end = cut;
            last.raw = Span::new(
                last.raw.start.min(piece.raw.start),
                last.raw.end.max(head_raw_end),
            );
            last.exact = false;
            if cut < piece.text.end {
                let raw = if piece.exact {
                    Span::new(head_raw_end, piece.raw.end)
                } else {
                    piece.raw
                };
                let text = Span::new(cut, piece.text.end);
                pieces.push(Piece {
                    text,
                    raw,
                    exact: piece.exact,
                });
            }
        }
        OffsetMap { pieces }
    }

    /// The pieces that overlap `text`, or the one holding it when it is empty.
    fn overlapping(&self, text: Span) -> &[Piece] {
        let first = self.pieces.partition_point(|p| p.text.end <= text.start);
        let end = first
            + self.pieces[first..].partition_point(|p| {
                p.text.start < text.end || (text.is_empty() && p.text.start <= text.start)
            });
        &self.pieces[first..end]
    }

    /// The pieces covering `text`, each cut to the part inside it: an exact
    /// piece to the matching raw bytes, an inexact one (which maps only as a
    /// whole) to its text part with all its raw bytes.
    pub fn clipped(&self, text: Span) -> impl Iterator<Item = Piece> + '_ {
        self.overlapping(text).iter().map(move |piece| {
            let start = text.start.max(piece.text.start);
            let end = text.end.min(piece.text.end).max(start);
            Piece {
                text: Span::new(start, end),
                raw: if piece.exact {
                    Span::new(raw_start(piece, start), raw_start(piece, end))
                } else {
                    piece.raw
                },
                exact: piece.exact,
            }
        })
    }

    /// The raw bytes covering `text`, from the first raw byte of its first
    /// byte to the last raw byte of its last byte; bytes removed by decoding
    /// in between (a quoted-printable soft break) are inside the result.
    /// `None` when no byte of `text` maps.
    pub fn raw_span(&self, text: Span) -> Option<Span> {
        let pieces = self.overlapping(text);
        let first = pieces.first()?;
        let last = pieces.last()?;
        let start = raw_start(first, text.start);
        let end = raw_end(last, text.end).max(start);
        Some(Span::new(start, end))
    }

    /// The raw runs `text` came from, adjacent runs merged: one span per
    /// contiguous stretch of raw bytes, for labelling each piece of a URL
    /// that decoding joined.
    pub fn raw_spans(&self, text: Span) -> Vec<Span> {
        let mut spans: Vec<Span> = Vec::new();
        for piece in self.overlapping(text) {
            let span = Span::new(
                raw_start(piece, text.start),
                raw_end(piece, text.end).max(raw_start(piece, text.start)),
            );
            match spans.last_mut() {
                Some(last) if last.end == span.start => last.end = span.end,
                _ => spans.push(span),
            }
        }
        spans
    }

    /// The map of the stretch `window` of the text, as a text of its own
    /// (its offsets start at 0): for reading a long text in windows.
    pub fn window(&self, window: Span) -> OffsetMap {
        let mut map = OffsetMap::new();
        for piece in self.overlapping(window) {
            let from = piece.text.start.max(window.start);
            let to = piece.text.end.min(window.end);
            let raw = if piece.exact {
                Span::new(raw_start(piece, from), raw_start(piece, to))
            } else {
                piece.raw
            };
            let text = Span::new(from - window.start, to - window.start);
            map.push(text, raw, piece.exact);
        }
        map
    }

    /// Chain this map (text -> middle) with `outer` (middle -> raw) into a
    /// map text -> raw.
    pub fn then(&self, outer: &OffsetMap) -> OffsetMap {
        // Most pieces map through one piece of `outer`: one allocation.
        let mut map = OffsetMap {
            pieces: Vec::with_capacity(self.pieces.len()),
        };
        for piece in &self.pieces {
            if !piece.exact {
                if let Some(raw) = outer.raw_span(piece.raw) {
                    map.push(piece.text, raw, false);
                }
                continue;
            }
            for middle in outer.overlapping(piece.raw) {
                let from = middle.text.start.max(piece.raw.start);
                let to = middle.text.end.min(piece.raw.end);
                let text = Span::new(
                    piece.text.start + (from - piece.raw.start),
                    piece.text.start + (to - piece.raw.start),
                );
                let raw = if middle.exact {
                    Span::new(raw_start(middle, from), raw_start(middle, to))
                } else {
                    middle.raw
                };
                map.push(text, raw, middle.exact);
            }
        }
        map
    }
}

/// The raw offset of text offset `at` within `piece` (clamped to the piece).
fn raw_start(piece: &Piece, at: usize) -> usize {
    if piece.exact && at > piece.text.start {
        piece.raw.start + (at.min(piece.text.end) - piece.text.start)
    } else {
        piece.raw.start
    }
}

/// The raw end offset of a text span ending at `at` within `piece`.
fn raw_end(piece: &Piece, at: usize) -> usize {
    if piece.exact && at < piece.text.end {
        piece.raw.start + (at.max(piece.text.start) - piece.text.start)
    } else {
        piece.raw.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_between_two_pieces_maps_as_a_whole() {
        // "\u{80}" decoded from `\xc2` and `\x80` with a soft line break
        // (`=\n`) between them.
        let mut map = OffsetMap::new();
        map.push(Span::new(0, 1), Span::new(10, 11), true);
        map.push(Span::new(1, 2), Span::new(13, 14), true);
        map.push(Span::new(2, 3), Span::new(14, 15), true);
        let aligned = map.char_aligned("\u{80}x");
        assert_eq!(
            aligned.pieces(),
            [
                Piece {
                    text: Span::new(0, 2),
                    raw: Span::new(10, 14),
                    exact: false
                },
                Piece {
                    text: Span::new(2, 3),
                    raw: Span::new(14, 15),
                    exact: true
                },
            ]
        );
        let whole = OffsetMap::identity(Span::new(0, 3));
        assert_eq!(whole.clone().char_aligned("\u{80}x"), whole);
    }

    /// `exam=\nple.com`: two exact runs around a removed soft break.
    fn soft_break_map() -> OffsetMap {
        let mut map = OffsetMap::new();
        map.push(Span::new(0, 4), Span::new(10, 14), true);
        map.push(Span::new(4, 11), Span::new(16, 23), true);
        map
    }

    #[test]
    fn adjacent_exact_pieces_merge() {
        let mut map = OffsetMap::new();
        map.push(Span::new(0, 3), Span::new(5, 8), true);
        map.push(Span::new(3, 6), Span::new(8, 11), true);
        assert_eq!(map.pieces().len(), 1);
        assert_eq!(map.raw_span(Span::new(1, 5)), Some(Span::new(6, 10)));
    }

    #[test]
    fn span_across_a_removed_break_covers_the_break() {
        let map = soft_break_map();
        assert_eq!(map.raw_span(Span::new(2, 7)), Some(Span::new(12, 19)));
        assert_eq!(
            map.raw_spans(Span::new(2, 7)),
            vec![Span::new(12, 14), Span::new(16, 19)]
        );
    }

    #[test]
    fn inexact_piece_maps_as_a_whole() {
        let mut map = OffsetMap::new();
        map.push(Span::new(0, 2), Span::new(0, 2), true);
        // `=3D` decoded to `=`.
        map.push(Span::new(2, 3), Span::new(2, 5), false);
        map.push(Span::new(3, 5), Span::new(5, 7), true);
        assert_eq!(map.raw_span(Span::new(2, 3)), Some(Span::new(2, 5)));
        assert_eq!(map.raw_span(Span::new(1, 4)), Some(Span::new(1, 6)));
    }

    #[test]
    fn unmapped_text_maps_to_none() {
        let map = OffsetMap::identity(Span::new(0, 3));
        assert_eq!(map.raw_span(Span::new(5, 6)), None);
        assert_eq!(map.raw_span(Span::new(1, 1)), Some(Span::new(1, 1)));
    }

    #[test]
    fn clipping_cuts_exact_pieces_and_keeps_inexact_ones_whole() {
        let mut map = soft_break_map();
        map.push(Span::new(11, 12), Span::new(23, 28), false);
        let clipped: Vec<Piece> = map.clipped(Span::new(2, 12)).collect();
        assert_eq!(
            clipped,
            [
                Piece {
                    text: Span::new(2, 4),
                    raw: Span::new(12, 14),
                    exact: true
                },
                Piece {
                    text: Span::new(4, 11),
                    raw: Span::new(16, 23),
                    exact: true
                },
                Piece {
                    text: Span::new(11, 12),
                    raw: Span::new(23, 28),
                    exact: false
                },
            ]
        );
    }

    #[test]
    fn composition_follows_both_maps() {
        // text "xy" -> middle 4..6 exact; middle -> raw through the soft break.
        let mut inner = OffsetMap::new();
        inner.push(Span::new(0, 4), Span::new(2, 6), true);
        let composed = inner.then(&soft_break_map());
        assert_eq!(
            composed.raw_spans(Span::new(0, 4)),
            vec![Span::new(12, 14), Span::new(16, 18)]
        );
        let whole = OffsetMap::whole(4, Span::new(2, 6)).then(&soft_break_map());
        assert_eq!(whole.raw_span(Span::new(1, 2)), Some(Span::new(12, 18)));
    }

    #[test]
    fn a_window_maps_its_own_offsets_as_the_whole_text_did() {
        let mut map = soft_break_map();
        map.push(Span::new(11, 12), Span::new(23, 26), false);
        let window = map.window(Span::new(2, 12));
        assert_eq!(
            window.raw_spans(Span::new(0, 5)),
            map.raw_spans(Span::new(2, 7))
        );
        assert_eq!(window.raw_span(Span::new(9, 10)), Some(Span::new(23, 26)));
        assert_eq!(window.raw_span(Span::new(10, 11)), None);
    }
}
