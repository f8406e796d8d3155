//! Reading a large text in bounded memory: overlapping windows, each of
//! which *owns* the URLs that start in one stretch of the text.
//!
//! The scanner's matches are bounded: a `<URL:...>` wrapper ends within
//! 2048 bytes of its `<`, and an undelimited URL ends at the first
//! whitespace or, joined with the lines it goes on over, within the same
//! 2048 bytes. Its hyphen-break evidence looks at most 256 KiB around a
//! URL, and whether it looks depends on the breaks in the 256 KiB before;
//! a join's evidence (the right margin, page furniture, the cut URL shown
//! elsewhere) looks no further (the scanner's own constants are used, not
//! these numbers). So a window that reaches [`ChunkOptions::context`] (the
//! evidence reach and two wrappers) before and after its owned stretch
//! sees every URL that starts in the stretch whole, with the same
//! surroundings and the same earlier breaks a whole-text scan gives it:
//! whatever precedes a window's start, the scanner is back in step within
//! a wrapper's length, as every `<URL:` opens a wrapper (an unclosed one
//! ends at the next) and an undelimited URL ends at `<`. Scanning each
//! window and keeping only the URLs whose match starts in the owned
//! stretch therefore finds each URL once and unchanged, whatever the cuts.
//! The exception is an undelimited URL longer than the context (a line of
//! more than 256 KiB without whitespace), which can be cut at the window's
//! end: a large file's window is then read again wider (`parts`), and a
//! streamed one, which cannot be, says so with a warning
//! ([`super::check::cut_url_note`]).
//!
//! Text is decoded as [`crate::source::decode`] decodes whole files (UTF-8,
//! other bytes as Latin-1), across read boundaries, so offsets are the same.

use std::io::{self, Read};
use std::ops::Range;

use crate::checked::Base;
use crate::scan::{EVIDENCE_WINDOW, MAX_WRAPPER_BYTES};
use crate::source::for_each_run_of_prefix;
use crate::span::{count_chars, LineCol, LineCursor};

/// Default owned stretch per window: short enough that threads share a
/// large file out evenly and reuse buffers that stay in cache, long enough
/// that the context scanned twice stays an eighth of the window
/// (docs/benchmarks.md, sixth pass, has the figures).
pub(super) const DEFAULT_CHUNK_LEN: usize = 4 << 20;

/// Bytes read from the input at a time.
const READ_LEN: usize = 1 << 20;

/// How a large text is cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ChunkOptions {
    /// Bytes of text each window owns (the last may own fewer).
    pub chunk_len: usize,
    /// Bytes of text a window shows before and after what it owns.
    pub context: usize,
}

impl Default for ChunkOptions {
    fn default() -> Self {
        ChunkOptions {
            chunk_len: DEFAULT_CHUNK_LEN,
            // After the owned stretch: a wrapper opened at its end runs up
            // to a wrapper's length on, and its evidence reaches on from
            // there. Before it: the breaks that decide whether an owned
            // break is searched lie up to the evidence's reach back, in
            // wrappers opened up to a wrapper's length earlier, whose line
            // leaders are looked for up to 256 bytes before that.
            context: EVIDENCE_WINDOW + 2 * MAX_WRAPPER_BYTES,
        }
    }
}

/// One window of a large text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Window {
    /// The text to scan.
    pub text: String,
    /// Where `text` starts in the input.
    pub base: Base,
    /// Offsets of `text` at which the URLs this window reports start.
    pub owned: Range<usize>,
    /// The input ends with this window: nothing follows `text`.
    pub last: bool,
}

/// The windows of a text read from `reader`, in order.
pub(super) struct Windows<R> {
    reader: R,
    options: ChunkOptions,
    /// Decoded text from `base` on.
    text: String,
    base: Base,
    /// Input offset (decoded) where the next window's owned stretch starts.
    owned_from: usize,
    /// Bytes read but not decoded yet: an incomplete UTF-8 sequence, at
    /// most three bytes.
    pending: Vec<u8>,
    /// Bytes read as Latin-1 so far.
    latin1_bytes: usize,
    eof: bool,
    done: bool,
    /// A reported window's text, emptied, for the next window to fill.
    spare: Option<String>,
}

impl<R: Read> Windows<R> {
    /// Windows over `reader`, cut as `options` say.
    pub(super) fn new(reader: R, options: ChunkOptions) -> Self {
        Windows {
            reader,
            options: ChunkOptions {
                chunk_len: options.chunk_len.max(1),
                context: options.context,
            },
            text: String::new(),
            base: Base::START,
            owned_from: 0,
            pending: Vec::new(),
            latin1_bytes: 0,
            eof: false,
            done: false,
            spare: None,
        }
    }

    /// Take back the text of a window that was reported, to read a later
    /// window into: a fresh window-sized text for each costs more in page
    /// faults than scanning it, and one freed on another thread is not
    /// soon reused by this one's allocator.
    #[cfg(feature = "cli")]
    pub(super) fn give_back(&mut self, mut text: String) {
        text.clear();
        self.spare = Some(text);
    }

    /// Windows over `head` followed by the rest of the input in `reader`,
    /// for a caller that already read the start to decide how to read it.
    #[cfg(feature = "cli")]
    pub(super) fn with_head(head: Vec<u8>, reader: R, options: ChunkOptions) -> Self {
        let mut windows = Windows::new(reader, options);
        let consumed = decode_into(&mut windows.text, &head, false);
        windows.latin1_bytes = consumed.latin1;
        windows.pending = head[consumed.bytes..].to_vec();
        windows
    }

    /// How many bytes were not valid UTF-8 and were read as Latin-1.
    #[cfg(feature = "cli")]
    pub(super) fn latin1_bytes(&self) -> usize {
        self.latin1_bytes
    }

    /// Read until the text reaches `len` bytes or the input ends.
    fn fill(&mut self, len: usize) -> io::Result<()> {
        // Each read goes after the bytes the last one left undecoded.
        let mut block = vec![0; READ_LEN];
        // Reserved once, so the text does not grow by doubling past a window.
        self.text
            .reserve(len.saturating_sub(self.text.len()) + READ_LEN);
        while !self.eof && self.text.len() < len {
            let held = self.pending.len();
            block[..held].copy_from_slice(&self.pending);
            let read = match self.reader.read(&mut block[held..]) {
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            self.eof = read == 0;
            let bytes = &block[..held + read];
            let consumed = decode_into(&mut self.text, bytes, self.eof);
            self.latin1_bytes += consumed.latin1;
            self.pending.clear();
            self.pending.extend_from_slice(&bytes[consumed.bytes..]);
        }
        Ok(())
    }

    /// Make sure the input's end is known when the text read so far runs
    /// to it: a read that filled the text exactly cannot tell, so one more
    /// read looks, keeping what it gets for the next fill. Without it a
    /// window whose text ends where the input does would be taken for one
    /// that more input follows, and a URL at its end for a cut one.
    fn learn_whether_input_goes_on(&mut self) -> io::Result<()> {
        let mut look = [0; 64];
        while !self.eof && self.pending.is_empty() {
            match self.reader.read(&mut look) {
                Ok(read) => {
                    self.eof = read == 0;
                    self.pending.extend_from_slice(&look[..read]);
                    return Ok(());
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
        Ok(())
    }

    /// The next window, or `None` after the last.
    fn next_window(&mut self) -> io::Result<Option<Window>> {
        if self.done {
            return Ok(None);
        }
        let owned_start = self.owned_from - self.base.offset;
        let wanted = owned_start + self.options.chunk_len + self.options.context;
        self.fill(wanted)?;
        self.learn_whether_input_goes_on()?;
        let owned_end = if self.eof && self.text.len() < wanted {
            self.text.len()
        } else {
            ceil_char_boundary(&self.text, owned_start + self.options.chunk_len)
        };
        self.done = owned_end == self.text.len() && self.eof;
        let keep_from = keep_start(&self.text, owned_end.saturating_sub(self.options.context));
        let mut kept = self.spare.take().unwrap_or_default();
        kept.push_str(self.text.get(keep_from..).unwrap_or_default());
        let text = std::mem::replace(&mut self.text, kept);
        let window = Window {
            base: self.base,
            owned: owned_start..owned_end,
            // At the end every byte read is decoded into the text: it holds
            // the rest of the input.
            last: self.eof,
            text,
        };
        self.base = advance(self.base.for_text(&window.text), &window.text[..keep_from]);
        self.owned_from = window.base.offset + owned_end;
        Ok(Some(window))
    }
}

impl<R: Read> Iterator for Windows<R> {
    type Item = io::Result<Window>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_window().transpose()
    }
}

/// What [`decode_into`] took from its input.
struct Consumed {
    bytes: usize,
    latin1: usize,
}

/// Append the decodable prefix of `bytes` to `text`: valid UTF-8 as is,
/// other bytes as Latin-1, except an incomplete sequence at the end, which
/// waits for more bytes unless the input ended.
fn decode_into(text: &mut String, bytes: &[u8], eof: bool) -> Consumed {
    let mut latin1 = 0;
    let bytes = for_each_run_of_prefix(bytes, eof, |valid, invalid| {
        text.push_str(valid);
        latin1 += invalid.len();
        text.extend(invalid.iter().map(|&byte| char::from(byte)));
    });
    Consumed { bytes, latin1 }
}

/// The first character boundary of `text` at or after `at` (or its end).
fn ceil_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Where the retained text starts: a character boundary at or before `at`
/// that does not split a `\r\n` pair, so line counting stays right.
fn keep_start(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let bytes = text.as_bytes();
    if at > 0 && bytes[at - 1] == b'\r' && bytes.get(at) == Some(&b'\n') {
        at -= 1;
    }
    at
}

/// The input position just after `text`, which starts at `base`; lines end
/// at `\n`, `\r\n` or a lone `\r`, as [`crate::span::LineIndex`] counts them.
pub(super) fn advance(base: Base, text: &str) -> Base {
    // The cursor counts newlines with memchr's vector count and characters
    // only on the last line, rather than visiting every line start.
    let end = LineCursor::default()
        .line_col(text, text.len())
        .unwrap_or(LineCol { line: 1, column: 1 });
    let column = match end.line {
        1 => base.column + end.column - 1,
        _ => end.column,
    };
    Base {
        offset: base.offset + text.len(),
        line: base.line + end.line - 1,
        column,
        chars: base
            .chars
            .map(|before| before + count_chars(text.as_bytes())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checked::Checked;
    use crate::input::check::lint_source;
    use crate::lint::LintOptions;
    use crate::rules::{Level, Rule};
    use crate::source::{Origin, Source};

    /// Every URL and every unused suppression of `text` read in windows,
    /// with its input position: (URL or the finding's message, offset,
    /// line, column).
    fn windowed(text: &[u8], options: ChunkOptions) -> Vec<(String, usize, usize, usize)> {
        let mut found = Vec::new();
        let mut lint_options = LintOptions::default();
        lint_options
            .levels
            .set(Rule::UnusedSuppression, Level::Warning);
        for window in Windows::new(text, options) {
            let window = window.expect("reading from memory does not fail");
            let source = Source::new(Origin::Stdin, window.text);
            let linted = lint_source(&source, &lint_options, &window.owned).expect("no panic");
            let checked =
                Checked::new(source, linted).in_frame(crate::checked::Frame::Text(window.base));
            let urls = checked
                .reports
                .iter()
                .map(|report| (report.found.url.clone(), report.found.outer));
            let own = checked
                .findings
                .iter()
                .map(|finding| (finding.diagnostic.message.clone(), finding.source_spans[0]));
            for (what, span) in urls.chain(own) {
                let place = checked.locate(span);
                found.push((what, place.start, place.line, place.column));
            }
        }
        found.sort_by_key(|&(_, start, _, _)| start);
        found
    }

    /// A text with wrapped, angle and bare URLs, a hyphen break, CRLF and
    /// non-ASCII, some of them long enough to straddle any small cut.
    /// Suppressions, used and unused, stand beside and between them.
    const MIXED: &str = "Intro line with café, then <URL:ftp://ftp.example.org/pub/\r\n   \
        file-\r\n   name.txt> and http://a.example/x?y=1.\nA line with <http://b.example/>,\n\
        > quoted <URL:http://c.example/very/long/\n> path/segment> end\rmac http://d.example/é\n\
        no url here at all urlint: ignore\n<!-- urlint: ignore-next-line -->\r\n\
        <URL:http://f.example/~x> urlint: ignore[bad-prot]\nlast http://e.example/last";

    /// Prose without URLs, to push the URLs away from the window edges.
    fn filler(len: usize) -> String {
        "The tide tables are printed weekly, with notes.\n".repeat(len / 48 + 1)
    }

    #[test]
    fn a_cut_at_every_position_of_every_url_finds_what_a_whole_scan_finds() {
        // The windows see only the wrapper bound around what they own, so
        // the second window does not start at the text's start.
        let context = MAX_WRAPPER_BYTES;
        let before = filler(context + 500);
        let text = format!("{before}{MIXED}\n{}", filler(context + 500));
        let whole = windowed(text.as_bytes(), ChunkOptions::default());
        assert_eq!(whole.len(), 10, "{whole:?}");
        for cut in before.len()..=before.len() + MIXED.len() + 1 {
            let options = ChunkOptions {
                chunk_len: cut,
                context,
            };
            assert_eq!(windowed(text.as_bytes(), options), whole, "cut at {cut}");
        }
    }

    #[test]
    fn tiny_chunks_own_each_url_once() {
        let whole = windowed(MIXED.as_bytes(), ChunkOptions::default());
        for chunk_len in 1..=40 {
            let options = ChunkOptions {
                chunk_len,
                context: MAX_WRAPPER_BYTES,
            };
            assert_eq!(
                windowed(MIXED.as_bytes(), options),
                whole,
                "chunk_len {chunk_len}"
            );
        }
    }

    /// Pieces of text that start, end or wrap URLs. No hyphen ends a line:
    /// hyphen-break evidence reaches 256 KiB, beyond the small context these
    /// tests use to make windows start inside the text.
    const TOKENS: &[&str] = &[
        "http://a.example/p",
        "http://a.example/~p",
        "urlint: ignore",
        "urlint: ignore-next-line",
        "urlint: ignore[nope]",
        "<URL:",
        "<",
        ">",
        " ",
        "\n",
        "\r\n",
        "\n   ",
        "x",
        "é",
        "ftp://h.example/x",
        ":",
        "(",
        ")",
        ".",
        "> ",
        "mailto:a@b.example",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

        #[test]
        fn windows_find_what_a_whole_scan_finds(
            picks in proptest::collection::vec(0..TOKENS.len(), 1500..3000),
            chunk_len in 300usize..4000,
        ) {
            let text: String = picks.iter().map(|&pick| TOKENS[pick]).collect();
            let options = ChunkOptions { chunk_len, context: MAX_WRAPPER_BYTES };
            let whole = windowed(text.as_bytes(), ChunkOptions::default());
            proptest::prop_assert_eq!(windowed(text.as_bytes(), options), whole);
        }
    }

    /// Blocks of text whose bare URLs go on over lines and pages, break
    /// after hyphens, or wait at the margin for a search of their cut shown
    /// whole: real page breaks among them.
    const SPARSE_BLOCKS: &[&str] = &[
        "   The quick brown fox jumps over the lazy dog and keeps on running far.\n",
        "   see http://a.example/x/\n   y/z.html, then on\n",
        "\n\nAuthor                   Standards Track                    [Page 3]\n\u{c}\nRFC 9876                  Example Title                   March 2011\n\n",
        "   ffffffffff http://example.org/ffffffffff/ffffffffff/fffffffffffffffff\n   ffffff_ffffffx.html and on.\n",
        "   <URL:http://host-\n   name.example/> and http://host-\n   name.example/\n",
    ];

    /// Blocks that crowd the looks out: footer-like lines after URLs, and
    /// breaks at the margin, each searched through its whole reach.
    const DENSE_BLOCKS: &[&str] = &[
        "   see http://a.example/p/\n\nNot a footer                    [Page 7]\n",
        "   The quick brown fox jumps over the lazy dog and keeps on running far.\n   ffffffffff http://example.org/ffffffffff/ffffffffff/fffffffffffffffff\n   ggggg_ggggx.html and on.\n",
    ];

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(6))]

        #[test]
        fn windows_weigh_joins_pages_and_crowds_as_a_whole_scan_does(
            stretches in proptest::collection::vec(
                (proptest::bool::ANY, proptest::collection::vec(0..5usize, 20..1500)),
                6..14,
            ),
            chunk_len in 40_000usize..300_000,
        ) {
            // Crowded stretches and sparse ones by turns: whether a look
            // is crowded out changes along the text.
            let mut text = String::new();
            for (dense, picks) in &stretches {
                for &pick in picks {
                    text.push_str(match dense {
                        true => DENSE_BLOCKS[pick % DENSE_BLOCKS.len()],
                        false => SPARSE_BLOCKS[pick % SPARSE_BLOCKS.len()],
                    });
                }
            }
            let options = ChunkOptions { chunk_len, ..ChunkOptions::default() };
            let whole = ChunkOptions { chunk_len: text.len() + 1, ..ChunkOptions::default() };
            proptest::prop_assert_eq!(
                windowed(text.as_bytes(), options),
                windowed(text.as_bytes(), whole)
            );
        }
    }

    #[test]
    fn windows_own_disjoint_stretches_that_cover_the_text() {
        let text = "x".repeat(100) + "\n" + &"é".repeat(50);
        let options = ChunkOptions {
            chunk_len: 7,
            context: 5,
        };
        let mut next = 0;
        for window in Windows::new(text.as_bytes(), options) {
            let window = window.expect("memory");
            assert_eq!(window.base.offset + window.owned.start, next);
            assert!(window.text.is_char_boundary(window.owned.end));
            next = window.base.offset + window.owned.end;
        }
        assert_eq!(next, text.len());
    }

    #[test]
    fn invalid_utf8_is_read_as_latin1_across_read_boundaries() {
        // 0xE9 alone is Latin-1 'é'; C3 A9 is UTF-8 'é', wherever reads cut.
        let bytes = b"a\xE9b\xC3\xA9c\xC3";
        let mut text = String::new();
        let mut latin1 = 0;
        let mut pending: Vec<u8> = Vec::new();
        for (index, byte) in bytes.iter().enumerate() {
            pending.push(*byte);
            let consumed = decode_into(&mut text, &pending, index + 1 == bytes.len());
            latin1 += consumed.latin1;
            pending.drain(..consumed.bytes);
        }
        assert_eq!(text, "aébécÃ");
        assert_eq!(latin1, 2);
        assert_eq!(text, crate::source::decode(bytes.to_vec()).0);
    }

    #[test]
    fn a_window_whose_text_ends_where_the_input_does_is_the_last() {
        // A chunk and its context read to the byte: the first window's text
        // runs to the input's end, and a URL there is whole, not cut.
        let options = ChunkOptions {
            chunk_len: 16,
            context: 8,
        };
        for len in [23, 24, 25, 40] {
            let text = format!("{}http://a.example/", "x".repeat(len - 17));
            let windows: Vec<Window> = Windows::new(text.as_bytes(), options)
                .collect::<io::Result<_>>()
                .expect("memory");
            for window in &windows {
                let ends_input = window.base.offset + window.text.len() == text.len();
                assert_eq!(window.last, ends_input, "{len}: {window:?}");
            }
            assert!(windows.last().is_some_and(|window| window.last), "{len}");
        }
    }

    #[test]
    fn an_empty_input_is_one_empty_window() {
        let windows: Vec<_> = Windows::new(&b""[..], ChunkOptions::default())
            .collect::<io::Result<_>>()
            .expect("memory");
        assert_eq!(
            windows,
            [Window {
                text: String::new(),
                base: Base::START,
                owned: 0..0,
                last: true,
            }]
        );
    }

    #[test]
    fn advance_counts_lines_as_line_index_does() {
        let cases = [
            ("", (0, 1, 1, 0)),
            ("ab", (2, 1, 3, 2)),
            ("a\r\nb", (4, 2, 2, 4)),
            ("a\rb\nçé", (8, 3, 3, 6)),
        ];
        for (text, (offset, line, column, chars)) in cases {
            let base = advance(Base::START, text);
            assert_eq!(
                (base.offset, base.line, base.column, base.chars),
                (offset, line, column, Some(chars)),
                "{text:?}"
            );
        }
    }
}
