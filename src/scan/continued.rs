//! Bare URLs continued on the next line. RFC 1738's Appendix asks that a
//! URL broken across lines be wrapped in `<URL:...>`, whose line breaks are
//! ignored; authors break bare URLs anyway (in reference lists, boilerplate,
//! code comments, after `http://`), and a reader joins them. So does the
//! scanner, when the text says so, and only then.
//!
//! A bare URL may go on only when its characters run to the end of their
//! line, and on a next line that carries the same quote marker or comment
//! leader (a page's footer and header in between are skipped, see
//! `pages.rs`). What the next line starts with is its *piece*: the
//! characters a bare URL would take from there.
//!
//! The piece is never joined when it is not URL text: no letter or digit
//! in it, a scheme of its own (another URL), a list marker (`2.`, `(a)`,
//! `o`), an abbreviation (`e.g.`), an ellipsis (`U+0590...U+08FF`), a label
//! (`Tel:` and more text), the name of a header field or property
//! (`Content-Type:`, `DTSTART:`); when the URL's line starts with a leader
//! of punctuation (`///`, `;;`) that the next line lacks (code follows the
//! comment); when the
//! next line is indented less than the URL's by more than two columns (a
//! new block; a reference list's first line may stand out by a column or
//! two), unless the URL's last character is one it cannot end on; or when
//! the URL sits in a table row (a wide gap before it on its line, and one
//! after the piece on the next).
//!
//! Otherwise one piece of evidence must say that the URL goes on, judged
//! from the URL's last character before the break and the piece's shape:
//! a *path* holds one of `/ ? = & % @ # ~ _` or a `.` inside, a *name* is
//! letters, digits and hyphens. A [`Evidence`] variant for each rule:
//! - `scheme://` ends the line and the piece reads as a host;
//! - the URL ends with a character it does not end on (`- _ = & % + ~ @`
//!   and an opening bracket);
//! - it ends with `?`, `#` or `.` and a path follows;
//! - it ends with `:` or `;` before a path, or with `:`, `;` or `,` among
//!   its parameters (`=` or `;` before it) before a path or a name that
//!   reads as made (below: `91354a47...`, not `it`);
//! - the piece starts with a URL delimiter (`/ ? # & ; = @ % :`), which
//!   starts no word, before a path (or, after `:`, `/` and `=`, a digit): not
//!   `#[inline]`, `@param` or `&mut`, nor `/` after `/`;
//! - it ends with `/` and a path follows;
//! - the line reaches the right margin (the piece's first segment would
//!   not have fitted on it) and the URL ends with `/` before a name that
//!   reads as made (a digit, a hyphen, an underscore, or a capital inside a
//!   mixed-case name: `license-info`, not `also` or `QNX`), or inside a
//!   word (the line filled to the margin) before a path or, letters on both
//!   sides, such a name (`open-develop` then `ment-analytics`), unless the
//!   text shows the URL as cut, whole, elsewhere (where 16 such breaks
//!   crowd the 256 KiB before one, it is not weighed at all);
//! - the next line is a folded content line, indented one column more
//!   than a `NAME:` or `NAME;` line, as iCalendar and vCard fold lines.
//!
//! Plain text joins so, and so do the blocks of a markup's prose that keep
//! its lines (reStructuredText literal blocks read as verbatim text); in
//! the rest of Markdown, HTML and reStructuredText a line break ends a
//! bare URL, as their readers have it.
//!
//! The right margin is the width two or more lines holding a space reach
//! among the lines around the URL, if 40 columns or more. A URL joined
//! from more lines is weighed again at each break, up to a wrapper's
//! bounds.

use super::bare::{run_end, trimmed_end, Pairs, Undelimited};
use super::crowd::Crowd;
use super::hyphen::SEARCH_WINDOW as EVIDENCE_WINDOW;
use super::layout::{columns, ends_line, Line};
use super::lines::{own_text_start, Leader};
use super::pages;
use super::scheme::{scheme_before, Schemes};
use super::wrapper::{MAX_BYTES, MAX_LINES};
use crate::span::{is_line_break, Span};
use memchr::memmem;

/// How many lines on each side of a URL's line are looked at for the right
/// margin, and how many bytes at most.
const MARGIN_LINES: usize = 12;
const MARGIN_BYTES: usize = 2 * 1024;

/// How many columns short of the right margin a line broken inside a word
/// may end: authors count the margin loosely.
const MID_WORD_SLACK: usize = 3;

/// How many searches for a cut URL in the [`EVIDENCE_WINDOW`] before one
/// crowd it out: real text has a few such breaks in a document.
const CROWDING_SEARCHES: usize = 16;

/// Most other occurrences of a cut URL looked at, so that text repeating
/// one URL costs a bounded search per URL.
const MAX_OCCURRENCES: usize = 16;

/// The narrowest right margin: text set narrower is a list or a table, not
/// prose filled to a width.
const MIN_MARGIN: usize = 40;

/// How far the next line may stand left of the URL's line and still go on
/// with it: a reference's first line may start a column or two right of
/// the lines after it (`  [3] ...` over ` text`).
const DEDENT_SLACK: usize = 2;

/// Characters a URL does not end on: after them it goes on, whatever the
/// next line starts with.
const UNFINISHED: &[char] = &['-', '_', '=', '&', '%', '+', '~', '@', '(', '[', '{'];

/// Characters that end a sentence as often as they go on a URL: the URL
/// goes on past them only into a path.
const BEFORE_PATH: &[char] = &['?', '#', '.'];

/// Separators of a URL's parameters (`;type=d`, `o=Org,c=US`,
/// `urlauth=anonymous:internal:`).
const PARAMETER_SEPARATORS: &[char] = &[':', ';', ','];

/// URL delimiters that start no word: a line that starts with one goes on
/// a URL.
const OPENING_DELIMITERS: &[char] = &['/', '?', '#', '&', ';', '=', '@', '%', ':'];

/// Characters that make a piece a path rather than a name.
const PATH_CHARACTERS: &[char] = &['/', '?', '=', '&', '%', '@', '#', '~', '_'];

/// Characters besides letters and digits a piece may start with.
const PIECE_OPENERS: &[char] = &[
    '/', '?', '#', '&', ';', '=', '@', '%', ':', '.', '_', '~', '-', '+',
];

/// What made the scanner join a line break, one variant per rule of the
/// module documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Evidence {
    /// `scheme://` ends the line; the next starts with a host.
    SchemeOnly,
    /// The URL ends with a character it does not end on.
    Unfinished(char),
    /// The URL ends with `?`, `#` or `.` and the next line starts a path.
    BeforePath(char),
    /// The URL ends with a separator of its parameters.
    Parameters(char),
    /// The next line starts with a URL delimiter.
    OpensWithDelimiter(char),
    /// The URL ends with `/` and the next line starts with a path.
    SlashThenPath,
    /// The URL ends with `/` at the right margin; a name follows.
    SlashThenName,
    /// The line reaches the right margin inside a word; a path follows.
    AtMargin,
    /// The next line is a folded content line.
    Folded,
}

impl Evidence {
    /// The evidence in words, for a finding's help.
    pub(super) fn describe(&self, piece: &str) -> String {
        match self {
            Evidence::SchemeOnly => format!(
                "the line ends with the scheme and '//', and the next starts with the host '{piece}'"
            ),
            Evidence::Unfinished(c) => {
                format!("the line ends with '{c}', which a URL does not end on")
            }
            Evidence::BeforePath(c) => {
                format!("the line ends with '{c}' and the next goes on with the path '{piece}'")
            }
            Evidence::Parameters(c) => format!(
                "the line ends with '{c}' among the URL's parameters, and the next goes on with '{piece}'"
            ),
            Evidence::OpensWithDelimiter(c) => format!(
                "the next line starts with '{c}', which goes on a URL and starts no word ('{piece}')"
            ),
            Evidence::SlashThenPath => {
                format!("the line ends with '/' and the next starts with the path '{piece}'")
            }
            Evidence::SlashThenName => format!(
                "the line ends with '/' at the right margin and the next starts with the name '{piece}'"
            ),
            Evidence::AtMargin => format!(
                "the line reaches the right margin inside a word and the next goes on with '{piece}'"
            ),
            Evidence::Folded => format!(
                "the next line ('{piece}') is a folded continuation line, indented one column more, as iCalendar and vCard fold long lines"
            ),
        }
    }
}

/// One line break a bare URL was joined across.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Break {
    /// What said the URL goes on.
    pub(super) evidence: Evidence,
    /// The piece of the next line that goes on the URL, as the source has it.
    pub(super) piece: Span,
    /// True when a page's footer and header lie between the two lines.
    pub(super) page: bool,
}

/// A bare URL joined across line breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Continued {
    /// Source runs of the URL, the first line's first.
    pub(super) spans: Vec<Span>,
    /// Source offsets of hyphens that end a line inside the URL.
    pub(super) hyphens: Vec<usize>,
    /// The breaks joined, in order.
    pub(super) breaks: Vec<Break>,
}

/// What the joins of one text looked into before, as far as it may crowd
/// a later look: lines taken for page footers in vain, and searches for a
/// cut URL shown whole elsewhere.
pub(super) struct Looks<'c> {
    /// See [`pages::false_footers`].
    pub(super) false_footers: &'c mut Crowd,
    /// See [`cut_searches`].
    pub(super) cut_searches: &'c mut Crowd,
}

/// The searches for a cut URL shown whole elsewhere, each of which reads up
/// to [`EVIDENCE_WINDOW`] on both sides, counted over that reach: after
/// [`CROWDING_SEARCHES`] of them, the weakest evidence is not weighed.
pub(super) fn cut_searches() -> Crowd {
    Crowd::new(EVIDENCE_WINDOW, CROWDING_SEARCHES)
}

/// The lines `url` goes on over, when its characters run to the end of
/// their line and the next line says it goes on; `None` when it does not.
pub(super) fn follow(
    text: &str,
    url: &Undelimited,
    schemes: &Schemes,
    looks: &mut Looks<'_>,
) -> Option<Continued> {
    let bytes = text.as_bytes();
    if !ends_line(bytes, url.run_end) {
        return None;
    }
    let first_line = Line::holding(text, url.url.start);
    // Most URLs at a line's end end a paragraph: nothing more to weigh.
    let mut following = Some(next_line(text, first_line, looks.false_footers)?);
    let mut leader = Leader::of_line(text, url.url.start);
    let mut state = State {
        line: first_line,
        indent: columns(&text[first_line.start..leader_end(text, first_line, url.url.start)]),
        folded: false,
        pairs: url.pairs.clone(),
    };
    let mut spans = vec![Span::new(url.url.start, url.run_end)];
    let mut hyphens = Vec::new();
    let mut breaks = Vec::new();
    while spans.len() < MAX_LINES {
        let next = following
            .take()
            .or_else(|| next_line(text, state.line, looks.false_footers));
        let Some(next) = next else {
            break;
        };
        let Some(text_start) = leader.skip_matching(text, next.line.start) else {
            break;
        };
        let mut pairs = state.pairs.clone();
        let piece_run = run_end(text, text_start, url.quoted, &mut pairs);
        let piece = Span::new(
            text_start,
            trimmed_end(bytes, text_start, piece_run, &pairs),
        );
        if piece_run - url.url.start > MAX_BYTES || piece.is_empty() {
            break;
        }
        let previous = *spans.last().expect("the first line's run");
        let candidate = Candidate {
            text,
            url,
            joined: &spans,
            previous,
            line: state.line,
            indent: state.indent,
            folded_before: state.folded,
            first_break: breaks.is_empty(),
            next: next.line,
            next_indent: columns(&text[next.line.start..text_start]),
            piece,
            schemes,
        };
        let Some(evidence) = candidate.weigh(looks.cut_searches) else {
            break;
        };
        if bytes[previous.end - 1] == b'-' {
            hyphens.push(previous.end - 1);
        }
        state = State {
            line: next.line,
            indent: candidate.next_indent,
            folded: evidence == Evidence::Folded,
            pairs,
        };
        breaks.push(Break {
            evidence,
            piece,
            page: next.page,
        });
        spans.push(Span::new(text_start, piece_run));
        if !ends_line(bytes, piece_run) {
            break;
        }
    }
    if breaks.is_empty() {
        return None;
    }
    let last = spans.last_mut().expect("a joined piece");
    last.end = trimmed_end(bytes, last.start, last.end, &state.pairs);
    Some(Continued {
        spans,
        hyphens,
        breaks,
    })
}

/// Where the joined URL stands after its last line.
struct State {
    /// The line holding the end of the URL so far.
    line: Line,
    /// That line's indentation, its leader included.
    indent: usize,
    /// True when that line was a folded continuation line.
    folded: bool,
    /// Brackets and quotes open at the end of the URL so far.
    pairs: Pairs,
}

/// The line a URL on `line` may go on with.
struct NextLine {
    line: Line,
    /// True when a page break lies between.
    page: bool,
}

/// The line after `line`, past page furniture; `None` when the text ends
/// or a blank line ends the paragraph.
fn next_line(text: &str, line: Line, false_footers: &mut Crowd) -> Option<NextLine> {
    let start = line.next?;
    if let Some(page_break) = pages::after(text, start, false_footers) {
        return Some(NextLine {
            line: page_break.resume,
            page: true,
        });
    }
    let next = Line::at(text, start);
    (!next.is_blank(text)).then_some(NextLine {
        line: next,
        page: false,
    })
}

/// Where the text of `line` starts past its own leader and indentation,
/// no later than `limit`.
fn leader_end(text: &str, line: Line, limit: usize) -> usize {
    own_text_start(text, line.start, limit.min(line.end))
}

/// One line break after a bare URL, to weigh.
struct Candidate<'a> {
    text: &'a str,
    url: &'a Undelimited,
    /// Source runs of the URL so far.
    joined: &'a [Span],
    /// The last of them, which ends the line.
    previous: Span,
    /// The line it ends.
    line: Line,
    indent: usize,
    folded_before: bool,
    first_break: bool,
    /// The line that may go on with the URL.
    next: Line,
    next_indent: usize,
    /// What a bare URL would take from the next line's text.
    piece: Span,
    schemes: &'a Schemes,
}

/// What a piece of text is made of, as far as a URL goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// It holds a scheme that starts a URL of its own.
    Url,
    /// It holds a URL's delimiters ([`PATH_CHARACTERS`], a `.` inside).
    Path,
    /// Letters, digits and hyphens (and brackets, which pair).
    Name,
    /// Anything else.
    Other,
}

impl Candidate<'_> {
    /// The evidence that the URL goes on with the piece, or `None`;
    /// `cut_searches` are those made for the weakest evidence before.
    fn weigh(&self, cut_searches: &mut Crowd) -> Option<Evidence> {
        let piece = &self.text[self.piece.range()];
        if !piece.chars().any(char::is_alphanumeric) || self.is_list_marker() {
            return None;
        }
        let shape = shape(piece, self.schemes);
        if shape == Shape::Url {
            return None;
        }
        if self.is_folded() {
            return Some(Evidence::Folded);
        }
        let first = piece.chars().next()?;
        if shape == Shape::Other
            || !(first.is_alphanumeric() || PIECE_OPENERS.contains(&first))
            || is_abbreviation(piece)
            || self.is_label()
            || self.starts_field()
        {
            return None;
        }
        let last = self.last_char();
        if self.next_indent + DEDENT_SLACK < self.indent && !UNFINISHED.contains(&last) {
            return None;
        }
        if piece.contains("...") || !self.leaders_agree() {
            return None;
        }
        if self.is_table_row() {
            return None;
        }
        self.evidence(last, first, shape, cut_searches)
    }

    /// The rules of the module documentation once nothing forbids a join.
    fn evidence(
        &self,
        last: char,
        first: char,
        shape: Shape,
        cut_searches: &mut Crowd,
    ) -> Option<Evidence> {
        let path = shape == Shape::Path;
        if self.url.scheme_only && self.first_break {
            let piece = &self.text[self.piece.range()];
            return (first.is_alphanumeric() && piece.contains('.'))
                .then_some(Evidence::SchemeOnly);
        }
        if UNFINISHED.contains(&last) {
            return Some(Evidence::Unfinished(last));
        }
        if BEFORE_PATH.contains(&last) {
            return path.then_some(Evidence::BeforePath(last));
        }
        if PARAMETER_SEPARATORS.contains(&last) {
            let parameters = self.holds_parameters();
            let goes_on = match (path, parameters) {
                (true, _) => parameters || last != ',',
                (false, true) => self.name_looks_made(),
                (false, false) => false,
            };
            return goes_on.then_some(Evidence::Parameters(last));
        }
        if OPENING_DELIMITERS.contains(&first) {
            let goes_on = !(last == '/' && first == '/') && self.delimiter_opens_url_text(first);
            return goes_on.then_some(Evidence::OpensWithDelimiter(first));
        }
        if last == '/' && path {
            return Some(Evidence::SlashThenPath);
        }
        // The weakest rules: the margin says the line was full, and the
        // text must not show the URL as it is cut, whole, elsewhere.
        let made_name = shape == Shape::Name && self.name_looks_made();
        // Inside a word, letters on both sides: `develop` then `ment-...`,
        // not `issues/35` then `doc-comment`.
        let inside_word = last.is_alphabetic() && first.is_alphabetic();
        let evidence = match last {
            '/' => made_name.then_some(Evidence::SlashThenName),
            _ => (path || (made_name && inside_word)).then_some(Evidence::AtMargin),
        };
        let full = match evidence.as_ref()? {
            Evidence::AtMargin => self.filled_to_margin(),
            _ => self.at_margin(),
        };
        if !full || cut_searches.is_crowded(self.piece.start) {
            return None;
        }
        cut_searches.record(self.piece.start);
        evidence.filter(|_| !self.cut_appears_whole_elsewhere())
    }

    /// True when the URL as far as this line's end appears elsewhere in
    /// the text (within [`EVIDENCE_WINDOW`]) followed by whitespace, a
    /// delimiter or the sentence's end: there the author ended it.
    fn cut_appears_whole_elsewhere(&self) -> bool {
        let cut: String = self
            .joined
            .iter()
            .map(|span| &self.text[span.range()])
            .collect();
        let bytes = self.text.as_bytes();
        let own = Span::new(self.url.url.start, self.piece.end);
        let from = own.start.saturating_sub(EVIDENCE_WINDOW);
        let to = bytes.len().min(own.end + EVIDENCE_WINDOW);
        // One cut at a line's end is no evidence: it may be another break.
        memmem::find_iter(&bytes[from..to], cut.as_bytes())
            .map(|at| from + at)
            .filter(|&at| at + cut.len() <= own.start || at >= own.end)
            .take(MAX_OCCURRENCES)
            .any(|at| ends_where_text_goes_on(bytes, at + cut.len()))
    }

    /// True when what follows the delimiter `first` that opens the piece
    /// reads as URL text, not as code or markup that starts with the same
    /// character (`#[inline]`, `#![allow(...)]`, `#include`, `@param`,
    /// `&mut`, `:param`, `%d`): a letter, a digit or one of `% _ . ~ -`
    /// and then a path, or for `:`, `/` and `=` a digit (`:8080`, `=1`).
    fn delimiter_opens_url_text(&self, first: char) -> bool {
        let rest = &self.text[self.piece.start + first.len_utf8()..self.piece.end];
        let opens = rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '%' | '_' | '.' | '~' | '-'));
        opens
            && (shape(rest, self.schemes) == Shape::Path
                || (matches!(first, ':' | '/' | '=') && rest.chars().any(|c| c.is_ascii_digit())))
    }

    /// True unless the URL's line starts with a leader of punctuation
    /// (`///`, `;;`, `!`, before a space) that the next line does not
    /// repeat: code or a new kind of line follows the comment. A bullet
    /// (`*`, `-`, `+`) need not repeat, nor does `/*` as the `*` of the
    /// block's next lines.
    fn leaders_agree(&self) -> bool {
        let own = punctuation_leader(
            &self.text[self.line.start..self.url.url.start.max(self.line.start)],
        );
        let own = match own {
            "/*" | "/**" => "*",
            _ => own,
        };
        let next = punctuation_leader(self.next.content(self.text));
        own.is_empty() || own == next || (matches!(own, "*" | "-" | "+") && next.is_empty())
    }

    /// The URL's last character before the break.
    fn last_char(&self) -> char {
        self.text[self.previous.range()]
            .chars()
            .next_back()
            .unwrap_or(' ')
    }

    /// The next line's first word, up to whitespace.
    fn first_word(&self) -> &str {
        let rest = &self.text[self.piece.start..self.next.end];
        rest.split(|c: char| c.is_whitespace()).next().unwrap_or("")
    }

    /// True when the next line starts with a list's marker.
    fn is_list_marker(&self) -> bool {
        let word = self.first_word();
        let bytes = word.as_bytes();
        let numbered = |inner: &[u8]| {
            !inner.is_empty()
                && inner.len() <= 3
                && inner.iter().all(u8::is_ascii_alphanumeric)
                && (inner.iter().all(u8::is_ascii_digit) || inner.len() == 1)
        };
        match bytes {
            [b'o' | b'*' | b'+' | b'-'] => true,
            _ if word == "\u{2022}" => true,
            [inner @ .., b'.' | b')'] if numbered(inner) => true,
            [b'(', inner @ .., b')'] | [b'[', inner @ .., b']'] => numbered(inner),
            _ => false,
        }
    }

    /// True when the first word ends with `:` and more text follows it on
    /// the line: a label (`Tel/Fax: +81 ...`), not a URL's end.
    fn is_label(&self) -> bool {
        let word = self.first_word();
        let after = self.piece.start + word.len();
        word.ends_with(':') && !ends_line(self.text.as_bytes(), after)
    }

    /// True when the next line starts with a field or property name and
    /// its `:` or `;` (`Content-Type:`, `cn:`, `ATTENDEE;ROLE=...`).
    fn starts_field(&self) -> bool {
        field_name_len(&self.text[self.piece.start..self.next.end]).is_some()
    }

    /// True for the second line of a folded content line: the URL's line
    /// (after its leader) starts with a `NAME:` or `NAME;`, and the next is
    /// indented one column more; or the URL's line is itself such a fold,
    /// and the next is indented as far.
    fn is_folded(&self) -> bool {
        if self.folded_before {
            return self.next_indent == self.indent;
        }
        let own_text = leader_end(self.text, self.line, self.url.url.start);
        self.first_break
            && self.next_indent == self.indent + 1
            && field_name_len(&self.text[own_text..self.line.end]).is_some()
    }

    /// True when the URL stands in a table: a wide gap lies before it on
    /// its line, and another right after the piece's word on the next.
    fn is_table_row(&self) -> bool {
        let own_text = leader_end(self.text, self.line, self.url.url.start);
        let before = &self.text[own_text..self.url.url.start.max(own_text)];
        let word_end = self.piece.start + self.first_word().len();
        let after = &self.text[word_end..self.next.end];
        self.first_break && has_inner_gap(before.trim_end()) && starts_with_gap(after)
    }

    /// True when the URL so far holds a parameter's `=` or a `;`.
    fn holds_parameters(&self) -> bool {
        self.joined
            .iter()
            .any(|span| self.text[span.range()].contains(['=', ';']))
    }

    /// True when the piece's first segment (up to its first `/`) would not
    /// have fitted on the URL's line: the line was broken at the margin.
    fn at_margin(&self) -> bool {
        let Some(margin) = margin(self.text, self.line) else {
            return false;
        };
        let piece = &self.text[self.piece.range()];
        let segment = piece.find('/').map_or(piece, |slash| &piece[..=slash]);
        self.line.width(self.text) + 1 + columns(segment) > margin
    }

    /// True when the line is filled to the right margin, as a break inside
    /// a word leaves it (a mailer or an author cuts there, never earlier),
    /// and the piece would not have fitted on it.
    fn filled_to_margin(&self) -> bool {
        margin(self.text, self.line)
            .is_some_and(|margin| self.line.width(self.text) + MID_WORD_SLACK >= margin)
            && self.at_margin()
    }

    /// True for a name that reads as made, not as a word of prose: it holds
    /// a digit, a hyphen or an underscore, or mixes cases with a capital
    /// after its first letter (`TechReport`, not `QNX` or `Also`).
    fn name_looks_made(&self) -> bool {
        let piece = &self.text[self.piece.range()];
        let camel_case =
            piece.chars().any(char::is_lowercase) && piece.chars().skip(1).any(char::is_uppercase);
        camel_case
            || piece
                .chars()
                .any(|c| c.is_ascii_digit() || c == '-' || c == '_')
    }
}

/// True when a URL ending before `at` ends there, on its line: a space,
/// a tab or a delimiter follows, or sentence punctuation and then one of
/// those or the line's end.
fn ends_where_text_goes_on(bytes: &[u8], at: usize) -> bool {
    let ends =
        |byte: Option<&u8>| byte.is_some_and(|&b| b == b' ' || b == b'\t' || b"<>\"`".contains(&b));
    let punctuation = bytes.get(at).is_some_and(|b| b".,;:!?)".contains(b));
    let after = bytes.get(at + 1);
    ends(bytes.get(at)) || (punctuation && (ends(after) || after.is_none_or(|&b| is_line_break(b))))
}

/// The run of punctuation a line starts with after its indentation, when
/// whitespace follows it: a leader, of a kind `lines.rs` may not know.
/// Brackets and quotes open text rather than lead it.
fn punctuation_leader(line: &str) -> &str {
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

/// What `piece` is made of.
fn shape(piece: &str, schemes: &Schemes) -> Shape {
    if holds_scheme(piece, schemes) {
        return Shape::Url;
    }
    let bytes = piece.as_bytes();
    let inner_dot = bytes
        .windows(2)
        .any(|pair| pair[0] == b'.' && pair[1].is_ascii_alphanumeric());
    if piece.contains(PATH_CHARACTERS)
        || inner_dot
        || matches!(bytes.first(), Some(b';' | b':' | b'.'))
    {
        return Shape::Path;
    }
    let first_is_word = piece.chars().next().is_some_and(char::is_alphanumeric);
    let in_name = |c: char| c.is_alphanumeric() || matches!(c, '-' | '(' | ')' | '[' | ']');
    if first_is_word && piece.chars().all(in_name) {
        return Shape::Name;
    }
    Shape::Other
}

/// True when `piece` holds a scheme the scanner would take for a bare
/// URL's: a known one and its `:`, or any followed by `//`.
fn holds_scheme(piece: &str, schemes: &Schemes) -> bool {
    let bytes = piece.as_bytes();
    memchr::memchr_iter(b':', bytes).any(|colon| {
        scheme_before(bytes, colon, 0).is_some_and(|start| {
            bytes[colon + 1..].starts_with(b"//") || schemes.is_known(&piece[start..colon])
        })
    })
}

/// True for `e.g`, `i.e`, `U.S`: letters each followed by a period.
fn is_abbreviation(piece: &str) -> bool {
    let bytes = piece.as_bytes();
    bytes.len() >= 3
        && bytes.iter().enumerate().all(|(at, byte)| match at % 2 {
            0 => byte.is_ascii_alphabetic(),
            _ => *byte == b'.',
        })
}

/// Length of the field or property name and its `:` or `;` that `line`
/// starts with (`Content-Type:`, `ATTENDEE;`): a letter, then letters,
/// digits, `-` and `_`.
fn field_name_len(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    let name = bytes
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        .count();
    matches!(bytes.get(name), Some(b':' | b';')).then_some(name + 1)
}

/// True when `text` holds two or more spaces, or a tab, between two of its
/// characters.
fn has_inner_gap(text: &str) -> bool {
    let inner = text.trim();
    inner.contains("  ") || inner.contains('\t')
}

/// True when `text` starts with two or more spaces, or a tab, and goes on.
fn starts_with_gap(text: &str) -> bool {
    let gap = text.len() - text.trim_start_matches([' ', '\t']).len();
    let wide = text.starts_with('\t') || gap >= 2;
    wide && gap < text.trim_end().len()
}

/// The right margin around `line`: the width that two or more lines
/// holding a space inside reach among [`MARGIN_LINES`] lines on each side
/// (within [`MARGIN_BYTES`]), when it is at least [`MIN_MARGIN`]. One long
/// line does not make a margin, nor does a text of a few short lines.
fn margin(text: &str, line: Line) -> Option<usize> {
    let is_prose = |other: &Line| other.content(text).trim().contains([' ', '\t']);
    let before = std::iter::successors(line.preceding(text), |other| other.preceding(text))
        .take(MARGIN_LINES)
        .take_while(|other| line.start - other.start <= MARGIN_BYTES);
    let after = std::iter::successors(line.following(text), |other| other.following(text))
        .take(MARGIN_LINES)
        .take_while(|other| other.start - line.start <= MARGIN_BYTES);
    // The two widest, in order.
    let (_, second) = before
        .chain(after)
        .filter(is_prose)
        .map(|other| other.width(text))
        .fold((0, 0), |(first, second), width| match width {
            _ if width >= first => (width, first),
            _ if width > second => (first, width),
            _ => (first, second),
        });
    (second >= MIN_MARGIN).then_some(second)
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule;
    use crate::scan::{scan, scan_markup, Markup, ScanOptions};

    /// Every URL the scanner finds in `text`.
    fn urls(text: &str) -> Vec<String> {
        scan(text, &ScanOptions::default())
            .map(|found| found.url)
            .collect()
    }

    /// A prose line of exactly 72 columns, the right margin of the texts
    /// below: RFC text is set to it.
    const MARGIN_LINE: &str =
        "   The quick brown fox jumps over the lazy dog and keeps on running far.";

    /// One row per evidence rule of the module documentation: the rule,
    /// a text whose bare URL goes on over a line break, the URL joined.
    #[rustfmt::skip]
    const JOINED: &[(&str, &str, &str)] = &[
        ("scheme only", "   The list is at http://\n   www.ietf.example/1id-abstracts.txt.\n", "http://www.ietf.example/1id-abstracts.txt"),
        ("unfinished: hyphen", "   IANA, http://www.iana.example/assignments/sasl-\n   mechanisms.\n", "http://www.iana.example/assignments/sasl-mechanisms"),
        ("unfinished: at sign", "   mail mailto:joe@\n   host.example now\n", "mailto:joe@host.example"),
        ("unfinished: ampersand", "   https://a.example/cb?x=1&\n   y=2 for\n", "https://a.example/cb?x=1&y=2"),
        ("unfinished: underscore", "   http://a.example/my_\n   file for\n", "http://a.example/my_file"),
        ("before path: period", "  [3] Cache, http://ds.\n internic.example/drafts/x.txt, March\n", "http://ds.internic.example/drafts/x.txt"),
        ("before path: question mark", "   Location: https://client.example/cb?\n     code=abc\n", "https://client.example/cb?code=abc"),
        ("parameters: comma", "      ldap://ldap.example/o=Org%20Name,\n             c=US?postalAddress\n", "ldap://ldap.example/o=Org%20Name,c=US?postalAddress"),
        ("parameters: colon before a made name", "   imap://joe@a.example/INBOX/;uid=20/;urlauth=anonymous:internal:\n   91354a473744909de610943775f92038\n", "imap://joe@a.example/INBOX/;uid=20/;urlauth=anonymous:internal:91354a473744909de610943775f92038"),
        ("opens with delimiter: slash", "      xmpp:node@example.com\n      /resource%20one\n", "xmpp:node@example.com/resource%20one"),
        ("opens with delimiter: ampersand", "      urn:example:weather?=op=map&lat=39.56\n         &lon=-104.85\n", "urn:example:weather?=op=map&lat=39.56&lon=-104.85"),
        ("slash then path", "  [1] http://zgp.example/pipermail/p2p-hackers/2001-September/\n      000315.html, September 2001.\n", "http://zgp.example/pipermail/p2p-hackers/2001-September/000315.html"),
        ("folded content line", "     ATTACH;FMTTYPE=application/binary:http://host.example/templates/agen\n      da.doc\n", "http://host.example/templates/agenda.doc"),
        ("comment leader", " * http://csrc.example.gov/publications/fips/\n * fips180-2/fips180-2withchangenotice.pdf\n", "http://csrc.example.gov/publications/fips/fips180-2/fips180-2withchangenotice.pdf"),
        ("quote marker", "> see http://lists.example.org/archives/2001-September/\n> 000315.html\n", "http://lists.example.org/archives/2001-September/000315.html"),
        ("three lines", "      xmpp:node@example.com\n      /repulsive%20!%23$%25&'()*+,-.%2F:;%3C=\n      %3E%3F%40%5B~resource\n", "xmpp:node@example.com/repulsive%20!%23$%25&'()*+,-.%2F:;%3C=%3E%3F%40%5B~resource"),
        ("brackets open across the break", "   http://en.example/wiki/Foo_(\n   bar) is a page\n", "http://en.example/wiki/Foo_(bar)"),
        ("crlf line breaks", "   see http://a.example/2001-September/\r\n   000315.html\r\n", "http://a.example/2001-September/000315.html"),
    ];

    #[test]
    fn bare_urls_go_on_where_the_text_says_so() {
        for &(rule, text, url) in JOINED {
            let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
            assert_eq!(found.len(), 1, "{rule}: {text:?}");
            assert_eq!(found[0].url, url, "{rule}: {text:?}");
            assert!(
                found[0]
                    .diagnostics
                    .iter()
                    .any(|d| d.rule == Rule::BrokenBareUrl),
                "{rule}: {:?}",
                found[0].diagnostics
            );
            let cut = &found[0].alternatives[0];
            assert!(
                url.starts_with(&cut.url) && cut.url.len() < url.len(),
                "{rule}: {cut:?}"
            );
        }
    }

    #[test]
    fn at_the_right_margin_a_name_or_a_word_broken_inside_goes_on() {
        for (rule, lines, url) in [
            (
                "slash then a made name",
                "   Provisions Relating to IETF Documents (http://trustee.ietf.example/\n   license-info) in effect on the date of publication of this document.",
                "http://trustee.ietf.example/license-info",
            ),
            (
                "a word broken inside",
                "                  URL=gopher://boombox.micro.example.edu:70/11/gopher/gop\n                  her_protocol/Gopher%2b",
                "gopher://boombox.micro.example.edu:70/11/gopher/gopher_protocol/Gopher%2b",
            ),
        ] {
            let text = format!("{MARGIN_LINE}\n{lines}\n{MARGIN_LINE}\n");
            assert_eq!(urls(&text), [url], "{rule}");
            // In text set wider the first line is not full: nothing says
            // the URL goes on.
            let wide = format!("{MARGIN_LINE}{MARGIN_LINE}\n{lines}\n{MARGIN_LINE}{MARGIN_LINE}\n");
            let cut = urls(&wide);
            assert!(cut.len() == 1 && cut[0] != url, "{rule}: {cut:?}");
        }
    }

    /// Texts whose bare URL ends at a line's end and must stay cut there:
    /// the rule that keeps it, the text, the URLs found.
    #[rustfmt::skip]
    const CUT: &[(&str, &str, &[&str])] = &[
        ("prose after a slash", "   see http://www.example.org/\n   for details.\n", &["http://www.example.org/"]),
        ("prose after a slash at the margin", "   Consequently, the attempt to delete http://www.example.com/container/\n   also failed.  Thus, the client knows that the attempt to delete it fails\n", &["http://www.example.com/container/"]),
        ("a second url", "   http://a.example/one/\n   http://b.example/two/\n", &["http://a.example/one/", "http://b.example/two/"]),
        ("a numbered list", "   see http://a.example/docs/\n   2. Next item\n", &["http://a.example/docs/"]),
        ("a bulleted list", "   http://a.example/docs/x.html\n   o  user manuals\n", &["http://a.example/docs/x.html"]),
        ("a blank line", "   see http://a.example/docs/\n\n   index.html\n", &["http://a.example/docs/"]),
        ("a different indentation", "         http://a.example/docs/\n   index.html is the next one\n", &["http://a.example/docs/"]),
        ("a table row", "      g/            =  http://a/b/c/g/\n      /g            =  http://a/g\n", &["http://a/b/c/g/", "http://a/g"]),
        ("a header field", "     Location: http://blah.example/\n     Content-Type: text/html\n", &["http://blah.example/"]),
        ("a property line", "     ORGANIZER:MAILTO:john@host2.example\n     DTSTART:19971015T050000Z\n", &["MAILTO:john@host2.example"]),
        ("a label", "   http://www.w3.example/People/D%C3%BCrst/\n   Tel/Fax: +81 466 49 1170\n", &["http://www.w3.example/People/D%C3%BCrst/"]),
        ("a sentence ends", "   see http://www.ietf.example/ipr.\n   Copyright (c) 2009.\n", &["http://www.ietf.example/ipr"]),
        ("a reference ends", "   http://a.example/msg02004.html,\n   August 2000.\n", &["http://a.example/msg02004.html"]),
        ("a question ends", "   requests http://host/script and http://host/script?\n   as in both cases\n", &["http://host/script", "http://host/script"]),
        ("a parameter then prose", "   http://a.example/find?q=all&format=text;\n   it takes three fields.\n", &["http://a.example/find?q=all&format=text"]),
        ("an abbreviation", "   http://a.example/docs/\n   e.g. the next line\n", &["http://a.example/docs/"]),
        ("a quote marker lost", "> see http://a.example/docs/\nindex.html\n", &["http://a.example/docs/"]),
        ("a comment ends", "# see http://a.example/docs/\nindex.html\n", &["http://a.example/docs/"]),
        ("ascii art", "      file:////hostname/share/object/names\n      \\_____/\\__________________________ /\n", &["file:////hostname/share/object/names"]),
        ("punctuation only", "   ftp://elm.example/pub/mirrors/phone-list.txt\n   =====\n", &["ftp://elm.example/pub/mirrors/phone-list.txt"]),
        ("code after a doc comment", "/// [link]: https://doc.example/std/foo.html\n#[inline]\nfn f() {}\n", &["https://doc.example/std/foo.html"]),
        ("an attribute after a trailing comment", "#![allow(x)] // see https://git.example/a/issues/7768\n#![allow(clippy::missing_const_for_fn)]\n", &["https://git.example/a/issues/7768"]),
        ("a doc comment's tag", " * See https://example.com/docs\n * @param x the thing\n", &["https://example.com/docs"]),
        ("a reference in code", "   see https://a.example/x/y\n   &mut self\n", &["https://a.example/x/y"]),
        ("an acronym after a long comment line", "   // QNX 7.1: https://www.qnx.example/developers/docs/7.1/index.html#com.qnx.doc.utilities/q/qcc.html\n   // QNX 8.0: https://www.qnx.example/developers/docs/8.0/qcc.html\n", &["https://www.qnx.example/developers/docs/7.1/index.html#com.qnx.doc.utilities/q/qcc.html", "https://www.qnx.example/developers/docs/8.0/qcc.html"]),
        ("a key after a number", "# TODO: Re-enable this once the MSRV is 1.43 or greater, it says\n# See: https://github.example/BurntSushi/termcolor/issues/35\n# doc-comment = \"0.3\"\n# and one more line of comment text that ends here too, at 60\n", &["https://github.example/BurntSushi/termcolor/issues/35"]),
        ("an ellipsis", "    // https://www.unicode.example/roadmaps/bmp/\n    // U+0590...U+08FF\n", &["https://www.unicode.example/roadmaps/bmp/"]),
        ("a scheme without a host", "   see http://\n   for the scheme\n", &[]),
        ("the text ends", "   see http://", &[]),
    ];

    #[test]
    fn bare_urls_stay_cut_where_the_text_does_not_say_they_go_on() {
        for &(rule, text, expected) in CUT {
            let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
            let found_urls: Vec<&str> = found.iter().map(|f| f.url.as_str()).collect();
            assert_eq!(found_urls, expected, "{rule}: {text:?}");
            assert!(
                found
                    .iter()
                    .all(|f| f.diagnostics.is_empty() && f.alternatives.is_empty()),
                "{rule}: a URL left alone draws nothing new"
            );
        }
    }

    #[test]
    fn a_word_broken_at_the_margin_goes_on_unless_the_text_shows_it_whole() {
        // A mailer's hard wrap, inside a word, right at the margin.
        let broken = "[2] https://speakerdeck.example/jgbarah/grimoirelab-a-tool-for-open-develop\nment-analytics\n";
        let text = format!("{MARGIN_LINE}\n{MARGIN_LINE}\n\n{broken}");
        assert_eq!(
            urls(&text),
            ["https://speakerdeck.example/jgbarah/grimoirelab-a-tool-for-open-development-analytics"]
        );
        // Shown elsewhere ending where the line does, the URL is cut there.
        let whole = "   see https://speakerdeck.example/jgbarah/grimoirelab-a-tool-for-open-develop again\n";
        let text = format!("{MARGIN_LINE}\n{MARGIN_LINE}\n{whole}\n{broken}");
        assert_eq!(urls(&text).len(), 2, "{:?}", urls(&text));
        // A line that stops short of the margin was not broken by it.
        let short =
            "[2] https://speakerdeck.example/grimoirelab-a-tool-for-open-develop\nment-analytics\n";
        let text = format!("{MARGIN_LINE}\n{MARGIN_LINE}\n\n{short}");
        assert_eq!(
            urls(&text),
            ["https://speakerdeck.example/grimoirelab-a-tool-for-open-develop"]
        );
    }

    #[test]
    fn a_hyphen_at_a_joined_break_is_weighed_as_in_a_wrapper() {
        // The host is invalid with the hyphen: it is dropped.
        let text = "   see http://ds.internic-\n   .example/rfc/ today\n";
        let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
        assert_eq!(found[0].url, "http://ds.internic.example/rfc/");
        let rules: Vec<Rule> = found[0].diagnostics.iter().map(|d| d.rule).collect();
        assert_eq!(rules, [Rule::BrokenBareUrl, Rule::HyphenBreak]);
        let readings: Vec<&str> = found[0]
            .alternatives
            .iter()
            .map(|a| a.url.as_str())
            .collect();
        assert_eq!(
            readings,
            ["http://ds.internic-", "http://ds.internic-.example/rfc/"]
        );
        // The part appears unbroken elsewhere without the hyphen.
        let text = "   Feeds: http://registry.example.org/harbour-\n   feeds/index.html; see harbourfeeds.\n";
        let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
        assert_eq!(
            found[0].url,
            "http://registry.example.org/harbourfeeds/index.html"
        );
        // No evidence: the hyphen is kept.
        let text = "   IANA, http://www.iana.example/assignments/sasl-\n   mechanisms.\n";
        let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
        let help = &found[0].diagnostics[1].help;
        assert!(help.contains("no evidence decided"), "{help}");
    }

    #[test]
    fn a_joined_url_is_found_whole_once_and_its_pieces_map_to_their_lines() {
        let text = "   see http://a.example/2001-September/\n   000315.html, then more\n";
        let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
        let pieces: Vec<&str> = found[0]
            .segments
            .iter()
            .map(|segment| &text[segment.source.range()])
            .collect();
        assert_eq!(pieces, ["http://a.example/2001-September/", "000315.html"]);
        assert_eq!(
            &text[found[0].outer.range()],
            "http://a.example/2001-September/\n   000315.html"
        );
        let broken = &found[0].diagnostics[0];
        assert_eq!(broken.span, found[0].outer);
        let fix = broken.fix.as_ref().expect("a wrap");
        assert_eq!(
            fix.replacement,
            "<http://a.example/2001-September/\n   000315.html>"
        );
        assert!(broken
            .help
            .contains("the line ends with '/' and the next starts with the path '000315.html'"));
    }

    #[test]
    fn rfc_style_text_is_wrapped_the_rfc_way() {
        let text = "   See <URL:http://b.example/> and http://a.example/2001-September/\n   000315.html.\n";
        let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
        let fix = found[1].diagnostics[0].fix.as_ref().expect("a wrap");
        assert!(
            fix.replacement.starts_with("<URL:http://a.example/"),
            "{fix:?}"
        );
        let prefixed = "   See URL:http://a.example/2001-September/\n   000315.html.\n";
        let found: Vec<_> = scan(prefixed, &ScanOptions::default()).collect();
        let fix = found[0].diagnostics[0].fix.as_ref().expect("a wrap");
        assert!(fix.replacement.starts_with("<URL:http://"), "{fix:?}");
    }

    #[test]
    fn markdown_and_html_prose_ends_a_bare_url_at_a_line_break() {
        let text = "see http://a.example/2001-September/\n000315.html now\n";
        for markup in [Markup::Markdown, Markup::Html, Markup::Rst] {
            let found: Vec<String> = scan_markup(text, markup, &ScanOptions::default())
                .map(|found| found.url)
                .collect();
            assert_eq!(found, ["http://a.example/2001-September/"], "{markup:?}");
        }
        assert_eq!(urls(text), ["http://a.example/2001-September/000315.html"]);
    }

    #[test]
    fn a_restructuredtext_literal_block_read_as_verbatim_keeps_plain_lines() {
        let text =
            "The archive::\n\n   see http://a.example/2001-September/\n   000315.html now\n\n\
                    Prose http://b.example/2001-September/\n000315.html now\n";
        let read = |include_verbatim| -> Vec<String> {
            let options = ScanOptions {
                include_verbatim,
                ..ScanOptions::default()
            };
            scan_markup(text, Markup::Rst, &options)
                .map(|found| found.url)
                .collect()
        };
        assert_eq!(
            read(true),
            [
                "http://a.example/2001-September/000315.html",
                "http://b.example/2001-September/"
            ]
        );
        assert_eq!(read(false), ["http://b.example/2001-September/"]);
    }

    #[test]
    fn a_bare_url_goes_on_past_a_page_break() {
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
                "   The archive is at http://lists.example.org/archives/2001-September/"
            ),
            page(2, "   000315.html, which holds the thread."),
            page(3, "   The end.")
        );
        let found: Vec<_> = scan(&text, &ScanOptions::default()).collect();
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].url,
            "http://lists.example.org/archives/2001-September/000315.html"
        );
        let second = &found[0].segments[1];
        assert!(text[..second.source.start].contains("[Page 1]"));
        assert!(found[0].diagnostics[0].help.contains("past the page break"));
    }
}
