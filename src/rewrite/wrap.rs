//! `urlint fmt`: long URLs in plain text laid out the way RFC 1738's
//! Appendix recommends.
//!
//! A bare (or `URL:`-prefixed) URL that runs past the line width is put in
//! `<URL:...>` and broken over lines; a wrapper that breaks a line after a
//! hyphen is broken again. Breaks go after a `/` where one fits, else after
//! another delimiter (`? & ; = #`, then `, . : @`), else between two characters;
//! never after a `-` (a reader could take it for a typesetter's hyphen) and
//! never inside a `%XX` escape. Continuation lines repeat the leader and
//! indentation of the paragraph (a mail quote's `> ` included). The prose
//! around a URL is not reflowed.
//!
//! A wrapper may span at most five lines and 2048 bytes (the scanner's
//! bounds for an unterminated one): a URL that needs more lines at the
//! width has its last line run past the width, and a longer URL is left
//! as it is. Both are noted. So is a URL on a line with a line-number
//! gutter, which continuation lines could not carry, and one whose
//! continuation lines would be indented so deep that fewer than 16 columns
//! are left for the URL.
//!
//! The result always extracts to the same URLs as the input: the whole
//! text is scanned again, and should a rewrapped URL read differently,
//! the URLs are rewrapped one at a time and those that do are left alone.

use super::edit::{apply, Edit, EditGroup};
use crate::rules::Rule;
use crate::scan::{
    self, columns, continuation_text_start, Form, Found, ScanOptions, MAX_WRAPPER_BYTES,
    MAX_WRAPPER_LINES,
};
use crate::source::BYTE_ORDER_MARK;
use crate::span::LineIndex;

/// Break points after which a line may end, besides `/`: the delimiters
/// of queries and parameters first, then those inside names.
const OTHER_DELIMITERS: [&[u8]; 2] = [b"?&;=#", b",.:@"];

/// The fewest columns a continuation line must leave for its piece of the
/// URL: fewer, and a deep indentation (or a tiny `--width`) would cut the
/// URL into a column of characters, its scheme split over lines.
const MIN_CONTINUATION_ROOM: usize = 16;

/// How `fmt` lays out URLs.
#[derive(Debug, Clone)]
pub(crate) struct WrapOptions {
    /// The line width, in columns, that URLs should not cross.
    pub width: usize,
    /// How URLs are found.
    pub scan: ScanOptions,
}

/// Something `fmt` could not do as asked, at a line of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct WrapNote {
    /// 1-based line of the URL in the input.
    pub line: usize,
    /// What happened.
    pub message: String,
}

/// What formatting a text came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wrapped {
    /// The formatted text.
    pub text: String,
    /// URLs laid out anew.
    pub wrapped: usize,
    /// URLs left as they were, or laid out past the width, and why.
    pub notes: Vec<WrapNote>,
}

/// Lay out the long URLs of `text` (see the module documentation).
pub(crate) fn wrap_text(text: &str, options: &WrapOptions) -> Wrapped {
    let original = urls(text, &options.scan);
    let lines = LineIndex::new(text);
    let mut notes = Vec::new();
    let mut changes: Vec<(usize, EditGroup)> = Vec::new();
    for found in scan::scan(text, &options.scan) {
        let line = lines.line_of(found.outer.start) + 1;
        match layout(text, &found, options.width) {
            Layout::Unchanged => {}
            Layout::Refused(message) => notes.push(WrapNote { line, message }),
            Layout::New { edit, overlong } => {
                if let Some(message) = overlong {
                    notes.push(WrapNote { line, message });
                }
                changes.push((line, vec![edit]));
            }
        }
    }
    let groups: Vec<EditGroup> = changes.iter().map(|(_, group)| group.clone()).collect();
    let all = apply(text, &groups);
    if urls(&all, &options.scan) == original {
        return Wrapped {
            text: all,
            wrapped: groups.len(),
            notes,
        };
    }
    one_at_a_time(text, &original, changes, notes, &options.scan)
}

/// Apply `changes` one by one, from the last, keeping each that leaves the
/// extracted URLs as they were.
fn one_at_a_time(
    text: &str,
    original: &[String],
    changes: Vec<(usize, EditGroup)>,
    mut notes: Vec<WrapNote>,
    scan: &ScanOptions,
) -> Wrapped {
    let mut current = text.to_string();
    let mut wrapped = 0;
    for (line, group) in changes.into_iter().rev() {
        let candidate = apply(&current, &[group]);
        if urls(&candidate, scan) == original {
            current = candidate;
            wrapped += 1;
        } else {
            notes.push(WrapNote {
                line,
                message: "left as is: laid out anew, the URL would not read the same".to_string(),
            });
        }
    }
    notes.sort_by_key(|note| note.line);
    Wrapped {
        text: current,
        wrapped,
        notes,
    }
}

/// The URLs of `text`, in order.
fn urls(text: &str, options: &ScanOptions) -> Vec<String> {
    scan::scan(text, options).map(|found| found.url).collect()
}

/// What to do with one URL.
enum Layout {
    /// It fits, or is not for `fmt` to change.
    Unchanged,
    /// It should be laid out anew but cannot be; the note says why.
    Refused(String),
    /// Its new layout, and a note when the layout runs past the width.
    New {
        edit: Edit,
        overlong: Option<String>,
    },
}

/// The new layout of `found`, if it needs one.
fn layout(text: &str, found: &Found, width: usize) -> Layout {
    let opening_line = line_start(text, found.outer.start);
    let opener = match found.form {
        Form::Bare | Form::Prefixed if !found.joins.is_empty() => {
            // A bare URL joined across lines is put in a wrapper however
            // short its lines, as the Appendix asks of a URL broken across
            // lines; but only when nothing else could be read there: a
            // join the text makes only likely stays the author's to make.
            if found.joins.iter().any(|join| !join.certain) {
                return Layout::Refused(
                    "left as is: the URL may go on over its line break, but the text could \
                     be read otherwise (broken-bare-url suggests the wrapper)"
                        .to_string(),
                );
            }
            "<URL:".to_string()
        }
        Form::Bare | Form::Prefixed => {
            if columns(&text[opening_line..found.outer.end]) <= width {
                return Layout::Unchanged;
            }
            "<URL:".to_string()
        }
        Form::Wrapped | Form::Angle if needs_rebreak(found) => {
            let body = found
                .segments
                .first()
                .map_or(found.outer.end, |s| s.source.start);
            let opener = &text[found.outer.start..body];
            // Keep the author's opener when it is one piece ("<url:").
            if opener.contains(char::is_whitespace) {
                match found.form {
                    Form::Angle => "<".to_string(),
                    _ => "<URL:".to_string(),
                }
            } else {
                opener.to_string()
            }
        }
        _ => return Layout::Unchanged,
    };
    if found.joins.iter().any(|join| join.page_break) {
        return Layout::Refused(
            "left as is: the URL goes on past a page break, whose footer and header a new \
             layout would lose"
                .to_string(),
        );
    }
    let Some(prefix) = continuation_prefix(text, found) else {
        return Layout::Refused(
            "left as is: its line has a line-number gutter, which new lines could not carry"
                .to_string(),
        );
    };
    let eol = line_ending(text, opening_line);
    let first = width
        .saturating_sub(columns(&text[opening_line..found.outer.start]))
        .saturating_sub(opener.chars().count());
    let rest = width.saturating_sub(columns(prefix));
    if rest < MIN_CONTINUATION_ROOM {
        return Layout::Refused(format!(
            "left as is: its continuation lines would leave {rest} of the line's {width} \
             columns for the URL (their indentation takes {}), fewer than the \
             {MIN_CONTINUATION_ROOM} a piece needs",
            columns(prefix)
        ));
    }
    // `<scheme:` opens an angle wrapper only in one piece, `//` included.
    let head = match opener.as_str() {
        "<" => angle_head(&found.url),
        _ => 0,
    };
    let (pieces, overlong) = break_url(&found.url, first, rest, head);
    let mut replacement = opener;
    for (index, piece) in pieces.iter().enumerate() {
        if index > 0 {
            replacement.push_str(eol);
            replacement.push_str(prefix);
        }
        replacement.push_str(piece);
    }
    replacement.push('>');
    if replacement == text[found.outer.range()] {
        return Layout::Unchanged;
    }
    if replacement.len() > MAX_WRAPPER_BYTES {
        return Layout::Refused(format!(
            "left as is: wrapped, the URL would take {} bytes, more than the {MAX_WRAPPER_BYTES} \
             a wrapper may span",
            replacement.len()
        ));
    }
    let overlong = overlong.then(|| {
        format!(
            "the URL needs more than {MAX_WRAPPER_LINES} lines at width {width}, the most a \
             wrapper may span: its last line runs past the width"
        )
    });
    Layout::New {
        edit: Edit {
            span: found.outer,
            replacement,
        },
        overlong,
    }
}

/// True for a closed wrapper whose only findings are hyphen breaks: its
/// URL is read the same once its lines are broken elsewhere. (A wrapper
/// with a space inside a line would lose that space.)
fn needs_rebreak(found: &Found) -> bool {
    let rules = || found.diagnostics.iter().map(|d| d.rule);
    rules().any(|rule| rule == Rule::HyphenBreak) && rules().all(|rule| rule == Rule::HyphenBreak)
}

/// What starts each continuation line: the leader and indentation of the
/// paragraph. For a wrapper already broken, its own second line's; for a
/// URL on a paragraph's first line, the next line's; otherwise the URL's
/// own line's. `None` when the line has a line-number gutter.
fn continuation_prefix<'t>(text: &'t str, found: &Found) -> Option<&'t str> {
    let open = found.outer.start;
    let opening_line = line_start(text, open);
    let next_line = next_line_start(text, line_end(text, found.outer.end));
    let reference = if found.segments.len() > 1 {
        found.segments[1].source.start
    } else {
        let previous_blank =
            previous_line_start(text, opening_line).is_none_or(|line| is_blank(text, open, line));
        match next_line {
            Some(next) if previous_blank && !is_blank(text, open, next) => next,
            _ => opening_line,
        }
    };
    let reference_line = line_start(text, reference);
    let start = continuation_text_start(text, open, reference_line)?;
    // A byte-order mark belongs to the file's first line, not to its leader.
    let from = match reference_line == 0 && text.starts_with(BYTE_ORDER_MARK) {
        true => BYTE_ORDER_MARK.len_utf8(),
        false => reference_line,
    };
    Some(&text[from.min(start)..start.max(from)])
}

/// True when the line starting at `line` holds nothing past its leader.
fn is_blank(text: &str, open: usize, line: usize) -> bool {
    continuation_text_start(text, open, line).is_some_and(|start| start >= line_end(text, line))
}

/// The bytes of `url` that must stay on the line of an angle wrapper's
/// `<`: its scheme and colon, and the `//` after them.
fn angle_head(url: &str) -> usize {
    let colon = url.find(':').map_or(0, |at| at + 1);
    match url[colon..].starts_with("//") {
        true => colon + 2,
        false => colon,
    }
}

/// Cut `url` into line pieces: the first at most `first` columns wide and
/// holding at least `head` bytes, the others at most `rest`, the last
/// leaving room for the closing `>`. At most [`MAX_WRAPPER_LINES`] pieces;
/// true when the last runs past its width.
fn break_url(url: &str, first: usize, rest: usize, head: usize) -> (Vec<&str>, bool) {
    let mut pieces = Vec::new();
    let mut remaining = url;
    let mut room = first;
    while pieces.len() + 1 < MAX_WRAPPER_LINES {
        if remaining.is_empty() || remaining.chars().count() < room {
            break;
        }
        let head = if pieces.is_empty() { head } else { 0 };
        let cut = cut_point(remaining, room, pieces.is_empty(), head);
        pieces.push(&remaining[..cut]);
        remaining = &remaining[cut..];
        room = rest;
    }
    let overlong = remaining.chars().count() >= room;
    if !remaining.is_empty() || pieces.is_empty() {
        pieces.push(remaining);
    }
    (pieces, overlong)
}

/// Where to end a line holding the start of `url` in `room` columns, at
/// least `head` bytes in: after the last `/` that fits, past the
/// `scheme://` that opens the URL; failing that, a first line without a
/// `head` holds nothing (the URL starts on the next line, so that its host
/// is not cut), and any other line ends after the last other delimiter
/// that fits, else after the last character that fits, else as early as
/// it may. Never after a `-`, never inside `%XX`.
fn cut_point(url: &str, room: usize, first_line: bool, head: usize) -> usize {
    let bytes = url.as_bytes();
    let fits: Vec<usize> = url
        .char_indices()
        .map(|(at, c)| at + c.len_utf8())
        .take(room)
        .filter(|&end| end >= head && end < url.len() && may_end_line(bytes, end))
        .collect();
    let floor = match first_line {
        true => url.find("://").map_or(0, |at| at + 3),
        false => 0,
    };
    let after = |set: &[u8]| {
        fits.iter()
            .rev()
            .copied()
            .find(|&end| end > floor && set.contains(&bytes[end - 1]))
    };
    match (after(b"/"), first_line && head == 0) {
        (Some(cut), _) => cut,
        (None, true) => 0,
        (None, false) => OTHER_DELIMITERS
            .iter()
            .find_map(|set| after(set))
            .or_else(|| fits.last().copied())
            .unwrap_or_else(|| first_allowed_cut(url, head.max(1))),
    }
}

/// The first place at least `min` bytes in where a line may end (the
/// URL's end when there is none).
fn first_allowed_cut(url: &str, min: usize) -> usize {
    url.char_indices()
        .map(|(at, c)| at + c.len_utf8())
        .find(|&end| end >= min && (end == url.len() || may_end_line(url.as_bytes(), end)))
        .unwrap_or(url.len())
}

/// True when a line may end before byte `end` of the URL: not after a
/// hyphen, and not between a `%` and its two hex digits.
fn may_end_line(bytes: &[u8], end: usize) -> bool {
    let before = |n: usize| end.checked_sub(n).and_then(|at| bytes.get(at)).copied();
    before(1) != Some(b'-') && before(1) != Some(b'%') && before(2) != Some(b'%')
}

/// Start of the line holding `at`.
fn line_start(text: &str, at: usize) -> usize {
    memchr::memrchr2(b'\n', b'\r', &text.as_bytes()[..at]).map_or(0, |pos| pos + 1)
}

/// End of the line holding `at` (before its line break).
fn line_end(text: &str, at: usize) -> usize {
    memchr::memchr2(b'\n', b'\r', &text.as_bytes()[at..]).map_or(text.len(), |pos| at + pos)
}

/// Start of the line before the one starting at `line`, if there is one.
fn previous_line_start(text: &str, line: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut end = line.checked_sub(1)?;
    if bytes[end] == b'\n' && end > 0 && bytes[end - 1] == b'\r' {
        end -= 1;
    }
    Some(line_start(text, end))
}

/// Start of the line after the one ending at `end`, if there is one.
fn next_line_start(text: &str, end: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let next = match bytes.get(end)? {
        b'\r' if bytes.get(end + 1) == Some(&b'\n') => end + 2,
        _ => end + 1,
    };
    (next < text.len()).then_some(next)
}

/// The line break that ends the line starting at `line` (`\n` for a last
/// line without one, or the text's first line break).
fn line_ending(text: &str, line: usize) -> &'static str {
    let bytes = text.as_bytes();
    let end = memchr::memchr2(b'\n', b'\r', &bytes[line..])
        .map(|pos| line + pos)
        .or_else(|| memchr::memchr2(b'\n', b'\r', bytes));
    match end.map(|at| (bytes[at], bytes.get(at + 1))) {
        Some((b'\r', Some(b'\n'))) => "\r\n",
        Some((b'\r', _)) => "\r",
        _ => "\n",
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::rewrite::test_texts::{document, found, noise};

    /// Hyphen breaks in `text`: fmt never adds one.
    fn hyphen_breaks(text: &str) -> usize {
        found(text)
            .iter()
            .flat_map(|found| &found.diagnostics)
            .filter(|diagnostic| diagnostic.rule == Rule::HyphenBreak)
            .count()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn appendix_wrapping_extracts_the_same_urls_without_a_retry(
            text in document(),
            width in 10usize..100,
        ) {
            let wrapped = wrap(&text, width);
            let scan = ScanOptions::default();
            prop_assert_eq!(urls(&wrapped.text, &scan), urls(&text, &scan));
            let retried = wrapped.notes.iter().any(|note| note.message.contains("read the same"));
            prop_assert!(!retried, "{:?} -> {:?}: {:?}", text, wrapped.text, wrapped.notes);
            prop_assert!(hyphen_breaks(&wrapped.text) <= hyphen_breaks(&text));
            prop_assert_eq!(wrap(&wrapped.text, width).text, wrapped.text);
        }

        #[test]
        fn appendix_wrapping_any_text_extracts_the_same_urls(
            text in noise(),
            width in 1usize..40,
        ) {
            let wrapped = wrap(&text, width);
            let scan = ScanOptions::default();
            prop_assert_eq!(urls(&wrapped.text, &scan), urls(&text, &scan));
        }
    }

    fn wrap(text: &str, width: usize) -> Wrapped {
        wrap_text(
            text,
            &WrapOptions {
                width,
                scan: ScanOptions::default(),
            },
        )
    }

    #[test]
    fn appendix_a_long_bare_url_is_wrapped_and_broken_after_slashes() {
        let text = "   The index is at http://ds.internic.example/pub/rfc/rfc-index.txt for now.\n";
        let wrapped = wrap(text, 52);
        assert_eq!(
            wrapped.text,
            "   The index is at <URL:http://ds.internic.example/\n   \
             pub/rfc/rfc-index.txt> for now.\n"
        );
        assert_eq!(
            wrap(text, 40).text,
            "   The index is at <URL:\n   http://ds.internic.example/pub/rfc/\n   \
             rfc-index.txt> for now.\n"
        );
        assert_eq!((wrapped.wrapped, wrapped.notes.as_slice()), (1, &[][..]));
        assert_eq!(
            urls(&wrapped.text, &ScanOptions::default()),
            urls(text, &ScanOptions::default())
        );
    }

    /// An indentation as deep as the width left continuation lines no
    /// room: the URL came out one character a line (`h`, `t`, `t`,
    /// `p://...`), its scheme split. It is left alone with a note.
    #[test]
    fn a_url_whose_continuation_lines_would_have_no_room_is_left_alone() {
        let url = format!("http://a.example/{}", "abcdefghij/".repeat(12));
        for (indent, width) in [
            ("\t".repeat(10), 72),
            (" ".repeat(68), 72),
            (String::new(), 1),
        ] {
            let text = format!("{indent}see {url}\n");
            let wrapped = wrap(&text, width);
            assert_eq!(wrapped.text, text, "{indent:?} at {width}");
            let [note] = &wrapped.notes[..] else {
                panic!("{:?}", wrapped.notes);
            };
            assert!(
                note.message.contains("continuation lines would leave"),
                "{note:?}"
            );
        }
        // Sixteen columns are room enough.
        let text = format!("{}see {url}\n", " ".repeat(56));
        assert_eq!(wrap(&text, 72).wrapped, 1);
    }

    #[test]
    fn appendix_a_url_that_fits_is_left_alone() {
        let text = "see http://a.example/x\n";
        assert_eq!(wrap(text, 72).text, text);
        assert_eq!(wrap(text, 22).text, text);
    }

    #[test]
    fn appendix_never_break_after_a_hyphen() {
        let cases = [
            ("http://a.example/marie-claude", 23, false, 17),
            ("abc-def", 4, false, 3),
            ("ab%2Fcd", 4, false, 2),
            ("abcdef", 0, true, 0),
            ("abcdef", 0, false, 1),
            ("http://abcdefgh", 10, true, 0),
            ("http://a.example/", 12, true, 0),
            ("a.example/x", 5, false, 2),
        ];
        for (url, room, first_line, cut) in cases {
            assert_eq!(cut_point(url, room, first_line, 0), cut, "{url} {room}");
        }
        // An angle wrapper keeps `<scheme:` (and `//`) on its first line.
        assert_eq!(angle_head("mailto:a@b.example?x=y"), 7);
        assert_eq!(angle_head("x-new://h.example/"), 8);
        assert_eq!(cut_point("mailto:a@b.example?body=x", 3, true, 7), 7);
    }

    #[test]
    fn appendix_a_hyphen_break_is_broken_again_elsewhere() {
        let text = "See <URL:http://info.example/marie-\n     claude/index.html>.\n";
        let wrapped = wrap(text, 72);
        assert_eq!(
            wrapped.text,
            "See <URL:http://info.example/marie-claude/index.html>.\n"
        );
        let narrow = wrap(text, 30);
        assert_eq!(
            narrow.text,
            "See <URL:http://info.example/\n     marie-claude/index.html>.\n"
        );
    }

    #[test]
    fn a_byte_order_mark_stays_on_the_first_line() {
        let long = "http://a.example/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/c";
        for leader in ["", "   ", "> "] {
            let text = format!("\u{feff}{leader}See {long} for it\n");
            let wrapped = wrap(&text, 72);
            assert_eq!(wrapped.wrapped, 1, "{text:?}");
            assert_eq!(
                wrapped.text.matches('\u{feff}').count(),
                1,
                "{:?}",
                wrapped.text
            );
            assert!(wrapped.text.starts_with('\u{feff}'));
            let second = wrapped.text.lines().nth(1).expect("a continuation line");
            assert!(
                second.starts_with(leader) && !second.starts_with(&format!("{leader} ")),
                "{second:?}"
            );
        }
    }

    #[test]
    fn continuation_lines_take_the_paragraph_leader_and_indentation() {
        let text = "> > see http://h.example/one/two/three/four/five/six and\n> > more text\n";
        let wrapped = wrap(text, 32);
        assert_eq!(
            wrapped.text,
            "> > see <URL:http://h.example/\n> > one/two/three/four/five/six> and\n> > more text\n"
        );
        let crlf = "a\r\n  x http://h.example/aaaa/bbbb/cccc\r\n";
        assert_eq!(
            wrap(crlf, 30).text,
            "a\r\n  x <URL:http://h.example/\r\n  aaaa/bbbb/cccc>\r\n"
        );
    }

    #[test]
    fn a_url_too_long_for_five_lines_runs_past_the_width_with_a_note() {
        let url = format!("http://h.example/{}", "a/".repeat(100));
        let text = format!("{url}\n");
        let wrapped = wrap(&text, 30);
        assert_eq!(wrapped.text.lines().count(), MAX_WRAPPER_LINES);
        assert_eq!(wrapped.notes.len(), 1, "{:?}", wrapped.notes);
        assert!(wrapped.notes[0].message.contains("runs past the width"));
        assert_eq!(urls(&wrapped.text, &ScanOptions::default()), [url]);
    }

    #[test]
    fn appendix_a_bare_url_broken_across_lines_is_wrapped() {
        let text = "   See http://zgp.example/pipermail/2001-\n   September/000315.html for it.\n";
        let wrapped = wrap(text, 72);
        assert_eq!(
            wrapped.text,
            "   See <URL:http://zgp.example/pipermail/2001-September/000315.html> for it.\n"
        );
        assert_eq!(
            urls(&wrapped.text, &ScanOptions::default()),
            urls(text, &ScanOptions::default())
        );
    }

    #[test]
    fn a_bare_url_the_text_only_likely_goes_on_with_is_left_with_a_note() {
        // A path after '/' on a line that stops short of the margin: the
        // join is likely, and the author's to make.
        let text = "   See http://zgp.example/pipermail/2001-September/\n   000315.html, for it.\n";
        let wrapped = wrap(text, 72);
        assert_eq!(wrapped.text, text);
        assert!(
            wrapped.notes[0].message.contains("read otherwise"),
            "{:?}",
            wrapped.notes
        );
    }

    #[test]
    fn a_url_across_a_page_break_is_left_alone_with_a_note() {
        let page = |n: usize, body: &str| {
            format!(
                "{body}\n\n\nAuthor                   Standards Track                    [Page {n}]\n\u{c}\n\
                 RFC 9876                  Example Title                   March 2011\n\n"
            )
        };
        let text = format!(
            "{}{}{}",
            page(
                1,
                "   The archive is at <URL:http://lists.example.org/archives/2001-"
            ),
            page(2, "   September/000315.html>, which holds the thread."),
            page(3, "   The end.")
        );
        let wrapped = wrap(&text, 72);
        assert_eq!(wrapped.text, text);
        assert!(
            wrapped.notes[0].message.contains("page break"),
            "{:?}",
            wrapped.notes
        );
    }

    #[test]
    fn a_gutter_line_is_left_alone_with_a_note() {
        let text = "  12. see http://h.example/aaaa/bbbb/cccc/dddd\n";
        let wrapped = wrap(text, 30);
        assert_eq!(wrapped.text, text);
        assert_eq!(wrapped.notes[0].line, 1);
        assert!(wrapped.notes[0].message.contains("gutter"));
    }
}
