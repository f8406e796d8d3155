//! Line leaders: what starts a line without being text. When a wrapper, or
//! a bare URL joined across lines, goes on to the next line, that line's
//! leader is skipped, but only the leader the URL's first line has too, so
//! URL text is never taken for one.
//!
//! Three kinds are known: mail quote markers (`> `, `>> `), comment leaders
//! of source files (`# `, `// `, `/// `, `//! `, ` * `, `-- `, `; `, `;; `)
//! and line-number gutters (`  792. ` before every line, as in
//! code-browsing pages), which may come before either of the others. A
//! leader of other punctuation (`%% `, `!! `) is told apart too
//! ([`punctuation_leader`]), so that a bare URL's join can ask that the next
//! line repeat it.

use super::chars::skip_spaces;
use crate::span::is_line_break;

/// Comment leaders, longest first so `///` (a Rust doc comment) wins over
/// `//` and `//` over a lone `/`; `/*` and `/**` open a block whose
/// continuation lines start with `*`.
const COMMENT_LEADERS: &[(&str, &str)] = &[
    ("///", "///"),
    ("//!", "//!"),
    ("//", "//"),
    ("/**", "*"),
    ("/*", "*"),
    ("--", "--"),
    ("#", "#"),
    ("*", "*"),
    (";;", ";;"),
    (";", ";"),
];

/// Longest gutter number: seven digits is ten million lines.
const MAX_GUTTER_DIGITS: usize = 7;

/// How far back the scanner looks for the start of a wrapper's line; a
/// leader further away than this is not a leader.
const MAX_LEADER_LOOKBACK: usize = 256;

/// The line structure to skip on a wrapper's continuation lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Leader {
    /// Gutter number of the previous line, when the first line had a gutter.
    gutter: Option<u64>,
    /// Quote depth or comment leader of the first line.
    marker: Marker,
}

/// What follows the gutter and indentation on a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Marker {
    #[default]
    None,
    /// Mail quoting, `depth` levels of `>`.
    Quote { depth: usize },
    /// A comment leader; continuation lines start with this text.
    Comment(&'static str),
}

impl Leader {
    /// The leader of the line holding the wrapper that opens at `open`.
    pub(crate) fn of_line(text: &str, open: usize) -> Leader {
        match line_start_before(text.as_bytes(), open) {
            Some(start) => Leader::parse(text, start, open),
            None => Leader::default(),
        }
    }

    /// Parse the leader at the start of `text[start..end]`.
    fn parse(text: &str, start: usize, end: usize) -> Leader {
        Leader::parse_with_end(text, start, end).0
    }

    /// Parse the leader at the start of `text[start..end]`, and say where
    /// the line's text starts past it and the indentation after it (no
    /// later than `end`).
    fn parse_with_end(text: &str, start: usize, end: usize) -> (Leader, usize) {
        let (gutter, after_gutter) = match gutter_at(text, start) {
            Some((number, next)) if next <= end => (Some(number), next),
            _ => (None, start),
        };
        let at = skip_spaces(text, after_gutter).min(end);
        let (marker, marker_len) = marker_at(text.as_bytes(), at, end);
        let text_start = skip_spaces(text, at + marker_len).min(end);
        (Leader { gutter, marker }, text_start)
    }

    /// Skip the leader and indentation of the continuation line starting at
    /// `start`; returns where its text begins. A line without the first
    /// line's leader, or whose gutter does not number on, is read from its
    /// indentation on. Advances the expected gutter number, so call once
    /// per line, in order.
    pub(crate) fn skip(&mut self, text: &str, start: usize) -> usize {
        self.skip_leader(text, start, Lenience::Lenient)
            .unwrap_or(start)
    }

    /// Skip the leader and indentation of the line starting at `start`
    /// when it carries the first line's leader: its quote markers or
    /// comment leader and its gutter numbered on. `None` when it does not,
    /// but for a first line's lone `*`, which in plain text is as often a
    /// list's bullet as a comment's leader (a list item's next line has
    /// none). Advances the expected gutter number, so call once per line,
    /// in order.
    pub(crate) fn skip_matching(&mut self, text: &str, start: usize) -> Option<usize> {
        self.skip_leader(text, start, Lenience::Strict)
    }

    /// [`Leader::skip`] and [`Leader::skip_matching`], which differ only in
    /// what a line without the first line's leader gives.
    fn skip_leader(&mut self, text: &str, start: usize, lenience: Lenience) -> Option<usize> {
        let strict = lenience == Lenience::Strict;
        let mut at = start;
        if let Some(previous) = self.gutter {
            match gutter_at(text, start) {
                Some((number, next)) if number == previous + 1 => {
                    self.gutter = Some(number);
                    at = next;
                }
                _ if strict => return None,
                _ => {}
            }
        }
        let at = skip_spaces(text, at);
        let skipped = match self.marker {
            Marker::None => Some(at),
            Marker::Quote { depth } => skip_quotes(text, at, depth),
            Marker::Comment(leader) => skip_comment(text, at, leader),
        };
        let bullet = self.marker == Marker::Comment("*");
        let after = match skipped {
            Some(after) => after,
            None if strict && !bullet => return None,
            None => at,
        };
        Some(skip_spaces(text, after))
    }
}

/// Whether a line without the first line's leader is still read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lenience {
    /// As a wrapper reads: from its indentation on.
    Lenient,
    /// As a bare URL's join reads: not at all.
    Strict,
}

/// Where the text of the line starting at `line_start` begins, past the
/// leader and indentation that the scanner skips on a continuation line of
/// a wrapper opening at `open`. `None` when the opening line has a gutter:
/// a line added after it would need a number of its own.
#[cfg(feature = "cli")]
pub(crate) fn continuation_text_start(text: &str, open: usize, line_start: usize) -> Option<usize> {
    let mut leader = Leader::of_line(text, open);
    if leader.gutter.is_some() {
        return None;
    }
    Some(leader.skip(text, line_start))
}

/// Where the text of the line starting at `line_start` begins past the
/// line's own leader (a gutter, quote markers or a comment leader as a
/// first line writes it, `/*` included) and indentation, no later than
/// `end`.
pub(crate) fn own_text_start(text: &str, line_start: usize, end: usize) -> usize {
    let (_, text_start) = Leader::parse_with_end(text, line_start, end);
    text_start
}

/// The run of punctuation a line starts with after its indentation, when
/// whitespace follows it: a leader of any kind, known or not (`//`, `%%`,
/// `!!`); empty when the line starts otherwise. Brackets and quotes open
/// text rather than lead it.
pub(crate) fn punctuation_leader(line: &str) -> &str {
    let text = line.trim_start_matches([' ', '\t']);
    let run = text.len()
        - text
            .trim_start_matches(|c: char| {
                c.is_ascii_punctuation() && !matches!(c, '(' | '[' | '{' | '<' | '"' | '\'' | '`')
            })
            .len();
    match text[run..].starts_with([' ', '\t']) {
        true => &text[..run],
        false => "",
    }
}

/// Start of the line holding `at`, if it is within the lookback bound.
fn line_start_before(bytes: &[u8], at: usize) -> Option<usize> {
    let floor = at.saturating_sub(MAX_LEADER_LOOKBACK);
    let window = bytes.get(floor..at)?;
    match memchr::memrchr2(b'\n', b'\r', window) {
        Some(pos) => Some(floor + pos + 1),
        None if floor == 0 => Some(0),
        None => None,
    }
}

/// A gutter `[ \t]*digits. ` at `start`: its number and where the text after
/// it starts.
fn gutter_at(text: &str, start: usize) -> Option<(u64, usize)> {
    let bytes = text.as_bytes();
    let digits_start = start
        + bytes
            .get(start..)?
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
    let digits = bytes[digits_start..]
        .iter()
        .take(MAX_GUTTER_DIGITS + 1)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 || digits > MAX_GUTTER_DIGITS {
        return None;
    }
    let dot = digits_start + digits;
    if bytes.get(dot) != Some(&b'.') || bytes.get(dot + 1) != Some(&b' ') {
        return None;
    }
    let number = text.get(digits_start..dot)?.parse().ok()?;
    Some((number, dot + 2))
}

/// The quote depth or comment leader at `at`, which ends before `end`,
/// and how many bytes the markers take on this line.
fn marker_at(bytes: &[u8], at: usize, end: usize) -> (Marker, usize) {
    let Some(line) = bytes.get(at..end) else {
        return (Marker::None, 0);
    };
    if line.first() == Some(&b'>') {
        let run = line.iter().take_while(|&&b| b == b'>' || b == b' ').count();
        let depth = line[..run].iter().filter(|&&b| b == b'>').count();
        return (Marker::Quote { depth }, run);
    }
    COMMENT_LEADERS
        .iter()
        .find(|(first, _)| {
            line.starts_with(first.as_bytes())
                && line
                    .get(first.len())
                    .is_none_or(|&b| b == b' ' || b == b'\t' || b == b'<')
        })
        .map_or((Marker::None, 0), |&(first, continuation)| {
            (Marker::Comment(continuation), first.len())
        })
}

/// Skip exactly `depth` quote markers (each with optional spaces after it).
fn skip_quotes(text: &str, mut at: usize, depth: usize) -> Option<usize> {
    for _ in 0..depth {
        if text.as_bytes().get(at) != Some(&b'>') {
            return None;
        }
        at = skip_spaces(text, at + 1);
    }
    Some(at)
}

/// Skip the comment leader `leader` when it stands alone before a space or
/// the line's end.
fn skip_comment(text: &str, at: usize, leader: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let after = at + leader.len();
    let standalone = bytes.get(at..after) == Some(leader.as_bytes())
        && bytes
            .get(after)
            .is_none_or(|&b| b == b' ' || b == b'\t' || is_line_break(b));
    standalone.then_some(after)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text of the second line after skipping with the first line's leader.
    fn continuation(text: &str) -> &str {
        let open = text.find('<').unwrap();
        let mut leader = Leader::of_line(text, open);
        let next = text.find('\n').unwrap() + 1;
        &text[leader.skip(text, next)..]
    }

    #[test]
    fn appendix_continuation_lines_lose_their_leader() {
        for (text, rest) in [
            ("<URL:a\n   b>", "b>"),
            ("> <URL:a\n> b>", "b>"),
            (">> x <URL:a\n>> b>", "b>"),
            (">><URL:a\n> > b>", "b>"),
            // A lone '>' is a blank quoted line; the '>' after a marker closes.
            ("> <URL:a\n>", ""),
            ("> <URL:a\n> >", ">"),
            ("<URL:a\n> b>", "> b>"),
            ("# <URL:a\n#   b>", "b>"),
            ("// see <URL:a\n// b>", "b>"),
            ("/* <URL:a\n * b>", "b>"),
            ("-- <URL:a\n-- b>", "b>"),
            ("# <URL:a\n#b>", "#b>"),
            ("* <URL:a\n  b>", "b>"),
            ("  792. <URL:a\n  793. b>", "b>"),
            ("  792. <URL:a\n  795. b>", "795. b>"),
            ("  9. > <URL:a\n 10. > b>", "b>"),
            ("<URL:a\n  2. b>", "2. b>"),
            ("1. <URL:a\n2. b>", "b>"),
        ] {
            assert_eq!(continuation(text), rest, "{text:?}");
        }
    }

    #[test]
    fn gutter_numbers_must_increase_line_by_line() {
        let text = " 7. <URL:a\n 8. b\n 9. c\n 9. d";
        let mut leader = Leader::of_line(text, text.find('<').unwrap());
        let starts: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
        let rests: Vec<&str> = starts
            .iter()
            .map(|&s| &text[leader.skip(text, s)..])
            .map(|rest| rest.lines().next().unwrap())
            .collect();
        assert_eq!(rests, ["b", "c", "9. d"]);
    }

    #[test]
    fn appendix_continuation_text_starts_after_the_first_lines_leader() {
        let text = "> see <URL:a\n>    b>\n  7. <URL:c\n";
        let open = text.find('<').unwrap();
        let second = text.find('\n').unwrap() + 1;
        assert_eq!(
            continuation_text_start(text, open, second),
            Some(text.find('b').unwrap())
        );
        assert_eq!(continuation_text_start(text, open, 0), Some(2));
        let gutter = text.rfind('<').unwrap();
        assert_eq!(continuation_text_start(text, gutter, 0), None);
    }

    #[test]
    fn a_continuation_must_carry_the_first_lines_leader() {
        for (text, rest) in [
            ("> see http://a\n> b", Some("b")),
            ("> see http://a\nb", None),
            (">> see http://a\n> b", None),
            (" * see http://a\n * b", Some("b")),
            ("* see http://a\n  b", Some("b")),
            ("# see http://a\nb", None),
            ("  7. http://a\n  8. b", Some("b")),
            ("  7. http://a\n  9. b", None),
            ("see http://a\n   b", Some("b")),
        ] {
            let mut leader = Leader::of_line(text, text.find("http").unwrap());
            let next = text.find('\n').unwrap() + 1;
            let found = leader.skip_matching(text, next).map(|at| &text[at..]);
            assert_eq!(found, rest, "{text:?}");
        }
    }

    #[test]
    fn a_leader_too_far_back_is_ignored() {
        let text = format!("> {}<URL:a\n> b>", "x".repeat(300));
        let open = text.find('<').unwrap();
        assert_eq!(Leader::of_line(&text, open), Leader::default());
    }
}
