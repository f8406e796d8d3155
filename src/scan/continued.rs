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
//! comment); when the next line is indented less than the URL's by more
//! than two columns (a new block; a reference list's first line may stand
//! out by a column or two), unless the URL's last character is one it
//! cannot end on; or when the URL sits in a table row (a wide gap before it
//! on its line, and one after the piece on the next).
//!
//! Otherwise one [`Reason`] must say that the URL goes on, judged from the
//! URL's last character before the break and the piece's shape: a *path*
//! holds one of `/ ? = & % @ # ~ _` or a `.` inside, a *name* is letters,
//! digits and hyphens. Certain, whatever follows the piece:
//! - `scheme://` ends the line and the piece reads as a host;
//! - the URL ends with a character it does not end on (`- _ = & % + ~ @`
//!   and an opening bracket);
//! - the next line is a folded content line, indented one column more
//!   than a `NAME:` or `NAME;` line, as iCalendar and vCard fold lines.
//!
//! Likely, unless the piece is followed by words of prose on its line
//! (`README.txt describes the files`, `and/or the mirror`) while the URL's
//! line stops short of the right margin:
//! - the piece starts with a URL delimiter (`/ ? # & ; = @ % :`), which
//!   starts no word, before a path (or, after `:`, `/` and `=`, a digit);
//!   one that opens code instead (`#[inline]`, `@param`, `&mut`), or a `/`
//!   after the URL's `/`, is never joined;
//! - it ends with `?`, `#` or `.` and a path follows (after `.`, not one
//!   starting with a capital: a new sentence, `Node.js users ...`);
//! - it ends with `:` or `;` before a path, or with `:`, `;` or `,` among
//!   its parameters (`=` or `;` before it) before a path or a name that
//!   reads as made (below: `91354a47...`, not `it`);
//! - it ends with `/` and a path follows.
//!
//! At the right margin only (the piece's first segment would not have
//! fitted on the URL's line), and unless the text shows the URL as cut,
//! whole, elsewhere (where 16 such breaks crowd the 256 KiB before one, it
//! is not weighed at all):
//! - it ends with `/` before a name that reads as made (a digit, a hyphen,
//!   an underscore, or a capital inside a mixed-case name: `license-info`,
//!   not `also` or `QNX`);
//! - the line is filled to the margin and breaks inside a word, before a
//!   path or, letters on both sides, such a name (`open-develop` then
//!   `ment-analytics`).
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
use super::found::{Alternative, Form};
use super::hyphen::SEARCH_WINDOW as EVIDENCE_WINDOW;
use super::layout::{columns, ends_line, has_inner_gap, Line};
use super::lines::{own_text_start, punctuation_leader, Leader};
use super::pages;
use super::scheme::{scheme_before, Schemes};
use super::wrapper::{MAX_BYTES, MAX_LINES};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::{is_line_break, Span};
use memchr::memmem;

/// How many lines on each side of a URL's line are looked at for the right
/// margin.
const MARGIN_LINES: usize = 12;

/// How many bytes on each side of a URL's line those lines may take.
const MARGIN_BYTES: usize = 2 * 1024;

// A windowed scan reads this much context around each window; a margin
// measured further away would differ there from a whole scan's.
const _: () = assert!(MARGIN_BYTES <= EVIDENCE_WINDOW);

/// How many columns short of the right margin a line broken inside a word
/// may end: authors count the margin loosely.
const MID_WORD_SLACK: usize = 3;

/// The columns mailers and editors fill text to (RFC 5322's 78, the
/// common 72, 76 and 80).
const FILL_COLUMNS: [usize; 4] = [72, 76, 78, 80];

/// How many columns past the right margin a line broken inside a word may
/// reach: a filled text stops at its margin, while a line of code or a
/// comment that runs past the others (the widest of its stretch) was not
/// broken by any margin.
const PAST_MARGIN_SLACK: usize = 1;

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

/// Spaces that set a table's columns apart.
const TABLE_GAP: usize = 2;

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

/// Why the scanner joined a line break, one variant per rule of the module
/// documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Reason {
    /// `scheme://` ends the line; the next starts with a host.
    SchemeOnly,
    /// The URL ends with a character it does not end on.
    Unfinished(char),
    /// The next line starts with a URL delimiter.
    OpensWithDelimiter(char),
    /// The next line is a folded content line.
    Folded,
    /// The URL ends with `?`, `#` or `.` and the next line starts a path.
    BeforePath(char),
    /// The URL ends with a separator of its parameters.
    Parameters(char),
    /// The URL ends with `/` and the next line starts with a path.
    SlashThenPath,
    /// The URL ends with `/` at the right margin; a name follows.
    SlashThenName,
    /// The line reaches the right margin inside a word; a path follows.
    AtMargin,
}

impl Reason {
    /// True for the reasons that hold whatever follows the piece: the
    /// text could not be read otherwise.
    pub(super) fn is_certain(&self) -> bool {
        matches!(
            self,
            Reason::SchemeOnly | Reason::Unfinished(_) | Reason::Folded
        )
    }

    /// The reason in words, for a finding's help.
    fn describe(&self, piece: &str) -> String {
        match self {
            Reason::SchemeOnly => format!(
                "the line ends with the scheme and '//', and the next starts with the host '{piece}'"
            ),
            Reason::Unfinished(c) => {
                format!("the line ends with '{c}', which a URL does not end on")
            }
            Reason::OpensWithDelimiter(c) => format!(
                "the next line starts with '{c}', which goes on a URL and starts no word ('{piece}')"
            ),
            Reason::Folded => format!(
                "the next line ('{piece}') is a folded continuation line, indented one column more, as iCalendar and vCard fold long lines"
            ),
            Reason::BeforePath(c) => {
                format!("the line ends with '{c}' and the next goes on with the path '{piece}'")
            }
            Reason::Parameters(c) => format!(
                "the line ends with '{c}' among the URL's parameters, and the next goes on with '{piece}'"
            ),
            Reason::SlashThenPath => {
                format!("the line ends with '/' and the next starts with the path '{piece}'")
            }
            Reason::SlashThenName => format!(
                "the line ends with '/' at the right margin and the next starts with the name '{piece}'"
            ),
            Reason::AtMargin => format!(
                "the line reaches the right margin inside a word and the next goes on with '{piece}'"
            ),
        }
    }
}

/// One line break a bare URL was joined across.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Break {
    /// What said the URL goes on.
    pub(super) reason: Reason,
    /// The piece of the next line that goes on the URL, as the source has it.
    pub(super) piece: Span,
    /// True when a page's footer and header lie between the two lines.
    pub(super) page: bool,
    /// True when the URL's line reached the right margin: the break was
    /// forced there.
    pub(super) at_margin: bool,
}

impl Break {
    /// True when the text could not be read otherwise: the reason holds
    /// whatever follows, or the line was full and had to break.
    pub(super) fn is_certain(&self) -> bool {
        self.reason.is_certain() || self.at_margin
    }
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
/// a later look: footer-like lines, and searches for a cut URL shown
/// whole elsewhere.
pub(super) struct Looks<'c> {
    /// See [`pages::footer_looks`].
    pub(super) footers: &'c mut Crowd,
    /// See [`cut_searches`].
    pub(super) cut_searches: &'c mut Crowd,
}

/// The searches for a cut URL shown whole elsewhere, each of which reads up
/// to [`EVIDENCE_WINDOW`] on both sides, counted over that reach: after
/// [`CROWDING_SEARCHES`] of them, the weakest reasons are not weighed.
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
    if !ends_line(text.as_bytes(), url.run_end) {
        return None;
    }
    let first_line = Line::holding(text, url.url.start)?;
    // Most URLs at a line's end end a paragraph: nothing more to weigh.
    let first_next = next_line(text, first_line, looks.footers)?;
    let mut join = Join {
        text,
        url,
        schemes,
        leader: Leader::of_line(text, url.url.start),
        state: State {
            line: first_line,
            indent: columns(&text[first_line.start..leader_end(text, first_line, url.url.start)]),
            folded: false,
            pairs: url.pairs.clone(),
        },
        spans: vec![Span::new(url.url.start, url.run_end)],
        hyphens: Vec::new(),
        breaks: Vec::new(),
    };
    let mut next = Some(first_next);
    while let Some(line) = next.take() {
        if join.spans.len() >= MAX_LINES || !join.go_on(line, looks.cut_searches) {
            break;
        }
        let last = *join.spans.last().expect("a joined piece");
        if ends_line(text.as_bytes(), last.end) {
            next = next_line(text, join.state.line, looks.footers);
        }
    }
    join.finish()
}

/// A bare URL being joined line by line.
struct Join<'a> {
    text: &'a str,
    url: &'a Undelimited,
    schemes: &'a Schemes,
    /// The URL's first line's leader, skipped on the lines after it.
    leader: Leader,
    /// Where the URL stands after its last line so far.
    state: State,
    /// Source runs of the URL so far, the last one ending its line.
    spans: Vec<Span>,
    hyphens: Vec<usize>,
    breaks: Vec<Break>,
}

impl Join<'_> {
    /// Weigh `next`, the line after the URL's last so far, and take its
    /// piece when a reason says so; false when the URL ends here.
    fn go_on(&mut self, next: NextLine, cut_searches: &mut Crowd) -> bool {
        let text = self.text;
        let Some(text_start) = self.leader.skip_matching(text, next.line.start) else {
            return false;
        };
        let mut pairs = self.state.pairs.clone();
        let piece_run = run_end(text, text_start, self.url.quoted, &mut pairs, self.url.tags);
        let piece = Span::new(
            text_start,
            trimmed_end(text.as_bytes(), text_start, piece_run, &pairs),
        );
        if piece_run - self.url.url.start > MAX_BYTES || piece.is_empty() {
            return false;
        }
        let previous = *self.spans.last().expect("the first line's run");
        let candidate = Candidate {
            text,
            url: self.url,
            joined: &self.spans,
            previous,
            line: self.state.line,
            indent: self.state.indent,
            folded_before: self.state.folded,
            first_break: self.breaks.is_empty(),
            next: next.line,
            next_indent: columns(&text[next.line.start..text_start]),
            piece,
            schemes: self.schemes,
        };
        let Some(reason) = candidate.weigh(cut_searches) else {
            return false;
        };
        if text.as_bytes()[previous.end - 1] == b'-' {
            self.hyphens.push(previous.end - 1);
        }
        self.state = State {
            line: next.line,
            indent: candidate.next_indent,
            folded: reason == Reason::Folded,
            pairs,
        };
        let at_margin = reason.is_certain() || candidate.at_margin();
        self.breaks.push(Break {
            reason,
            piece,
            page: next.page,
            at_margin,
        });
        self.spans.push(Span::new(text_start, piece_run));
        true
    }

    /// The joined URL, its last piece trimmed as a bare URL's end is;
    /// `None` when no break was joined.
    fn finish(mut self) -> Option<Continued> {
        if self.breaks.is_empty() {
            return None;
        }
        let last = self.spans.last_mut().expect("a joined piece");
        last.end = trimmed_end(
            self.text.as_bytes(),
            last.start,
            last.end,
            &self.state.pairs,
        );
        Some(Continued {
            spans: self.spans,
            hyphens: self.hyphens,
            breaks: self.breaks,
        })
    }
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
    /// The line, past any page furniture.
    line: Line,
    /// True when a page break lies between.
    page: bool,
}

/// The line after `line`, past page furniture; `None` when the text ends
/// or a blank line ends the paragraph.
fn next_line(text: &str, line: Line, footers: &mut Crowd) -> Option<NextLine> {
    let start = line.next?;
    if let Some(next_page) = pages::next_page(text, start, footers) {
        return Some(NextLine {
            line: next_page,
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
    /// That line's indentation, its leader included.
    indent: usize,
    /// True when that line was itself a folded continuation line.
    folded_before: bool,
    /// True for the URL's first line break.
    first_break: bool,
    /// The line that may go on with the URL.
    next: Line,
    /// That line's indentation, its leader included.
    next_indent: usize,
    /// What a bare URL would take from the next line's text.
    piece: Span,
    /// The schemes a piece may hold a URL of its own with.
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
    /// The reason that the URL goes on with the piece, or `None`;
    /// `cut_searches` are those made for the weakest reasons before.
    fn weigh(&self, cut_searches: &mut Crowd) -> Option<Reason> {
        let piece = self.piece_text();
        if !piece.chars().any(char::is_alphanumeric) || self.is_list_marker() {
            return None;
        }
        let shape = shape(piece, self.schemes);
        if shape == Shape::Url {
            return None;
        }
        if self.is_folded() {
            return Some(Reason::Folded);
        }
        let first = piece.chars().next()?;
        let last = self.last_char();
        let refused = shape == Shape::Other
            || !(first.is_alphanumeric() || PIECE_OPENERS.contains(&first))
            || is_abbreviation(piece)
            || piece.contains("...")
            || self.is_label()
            || self.starts_field()
            || (self.next_indent + DEDENT_SLACK < self.indent && !UNFINISHED.contains(&last))
            || !self.leaders_agree()
            || self.is_table_row()
            || self.opens_with_code(first, last)
            || self.is_troff_request();
        if refused {
            return None;
        }
        let reason = self.certain(last, first).or_else(|| {
            self.likely(last, first, shape)
                .filter(|_| !self.prose_follows() || self.at_margin() || self.number_after_slash())
        });
        reason.or_else(|| self.at_the_margin(last, first, shape, cut_searches))
    }

    /// The reasons that hold whatever follows the piece.
    fn certain(&self, last: char, first: char) -> Option<Reason> {
        if self.url.scheme_only && self.first_break {
            let host = first.is_alphanumeric() && self.piece_text().contains('.');
            return host.then_some(Reason::SchemeOnly);
        }
        UNFINISHED
            .contains(&last)
            .then_some(Reason::Unfinished(last))
    }

    /// The reasons that hold unless prose follows the piece on a line that
    /// stops short of the margin.
    fn likely(&self, last: char, first: char, shape: Shape) -> Option<Reason> {
        if OPENING_DELIMITERS.contains(&first) {
            return Some(Reason::OpensWithDelimiter(first));
        }
        let path = shape == Shape::Path;
        if BEFORE_PATH.contains(&last) {
            let new_sentence = last == '.' && first.is_uppercase();
            return (path && !new_sentence).then_some(Reason::BeforePath(last));
        }
        if PARAMETER_SEPARATORS.contains(&last) {
            let parameters = self.holds_parameters();
            let goes_on = match (path, parameters) {
                (true, _) => parameters || last != ',',
                (false, true) => self.name_looks_made(),
                (false, false) => false,
            };
            return goes_on.then_some(Reason::Parameters(last));
        }
        (last == '/' && path).then_some(Reason::SlashThenPath)
    }

    /// The weakest reasons: the margin says the line was full, and the
    /// text must not show the URL as it is cut, whole, elsewhere.
    fn at_the_margin(
        &self,
        last: char,
        first: char,
        shape: Shape,
        cut_searches: &mut Crowd,
    ) -> Option<Reason> {
        if BEFORE_PATH.contains(&last) || PARAMETER_SEPARATORS.contains(&last) {
            return None;
        }
        let made_name = shape == Shape::Name && self.name_looks_made();
        // Inside a word, letters on both sides: `develop` then `ment-...`,
        // not `issues/35` then `doc-comment`.
        let inside_word = last.is_alphabetic() && first.is_alphabetic();
        // A word broken at the margin goes on in its own case: `behavior`
        // then `DATE_INPUT_FORMATS` is a new word.
        let new_word = last.is_lowercase() && first.is_uppercase();
        let (reason, full) = match last {
            '/' => (made_name.then_some(Reason::SlashThenName), self.at_margin()),
            _ => (
                (shape == Shape::Path || (made_name && inside_word)).then_some(Reason::AtMargin),
                !new_word && self.filled_to_margin() && !self.comment_goes_on(),
            ),
        };
        let reason = reason?;
        if !full || !cut_searches.admits(self.piece.start) {
            return None;
        }
        (!self.cut_appears_whole_elsewhere()).then_some(reason)
    }

    /// The piece's text.
    fn piece_text(&self) -> &str {
        &self.text[self.piece.range()]
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
        // A step's section number before its text: `3.2.2. Assert: ...`.
        let section = || {
            let number = word.strip_suffix('.').unwrap_or("");
            let after = self.piece.start + word.len();
            number.contains('.')
                && number
                    .split('.')
                    .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
                && !ends_line(self.text.as_bytes(), after)
        };
        match bytes {
            [b'o' | b'*' | b'+' | b'-'] => true,
            _ if word == "\u{2022}" => true,
            _ if section() => true,
            [inner @ .., b'.' | b')'] if numbered(inner) => true,
            [b'(', inner @ .., b')'] | [b'[', inner @ .., b']'] => numbered(inner),
            _ => false,
        }
    }

    /// True when the URL's line is a comment of code (a leader other than
    /// a mail quote's `>`) and the next line holds more after the piece:
    /// code comments are wrapped by hand, each line a phrase of its own
    /// (`# https://...#section-8.6-2` then `# msg.headers is already
    /// stripped`), so a margin break inside a word is read only when the
    /// piece is all the next line holds.
    fn comment_goes_on(&self) -> bool {
        let before_url = &self.text[self.line.start..self.url.url.start.max(self.line.start)];
        let leader = punctuation_leader(before_url);
        let comment = !leader.is_empty() && !leader.starts_with('>');
        comment && !self.text[self.piece.end..self.next.end].trim().is_empty()
    }

    /// True when the next line is a troff request of a manual page (`.EE`,
    /// `.PP`, `.B text`): a `.` and one or two capitals, alone on the line
    /// or before a space, not a file name's extension.
    fn is_troff_request(&self) -> bool {
        let word = self.first_word();
        word.strip_prefix('.').is_some_and(|name| {
            (1..=2).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_uppercase())
        })
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

    /// True when words of prose follow the piece on its line: after the
    /// piece and a space comes a lower-case letter (`README.txt describes
    /// the files`), not punctuation, a date or a parenthesis (`000315.html,
    /// September 2001`, `license-info) in effect`).
    fn prose_follows(&self) -> bool {
        let rest = &self.text[self.piece.end..self.next.end];
        let Some(words) = rest.strip_prefix(' ') else {
            return false;
        };
        words
            .trim_start_matches(' ')
            .chars()
            .next()
            .is_some_and(char::is_lowercase)
    }

    /// True when the piece continues a path no sentence would open
    /// with: after the URL's `/` comes a digit (`000315.html`,
    /// `2001-September/`), a message's or a date's number. A word of
    /// prose there (`config.toml holds the settings`) may open a sentence.
    fn number_after_slash(&self) -> bool {
        self.last_char() == '/'
            && self
                .piece_text()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
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
        let gap_after = after.len() - after.trim_start_matches([' ', '\t']).len();
        let opens_gap = after.starts_with('\t') || gap_after >= TABLE_GAP;
        self.first_break
            && has_inner_gap(before.trim_end(), TABLE_GAP)
            && opens_gap
            && gap_after < after.trim_end().len()
    }

    /// True when the piece opens with a URL delimiter that starts no URL
    /// text here: code or markup (`#[inline]`, `@param`), or a `/` after the
    /// URL's own `/`.
    fn opens_with_code(&self, first: char, last: char) -> bool {
        OPENING_DELIMITERS.contains(&first)
            && ((last == '/' && first == '/') || !self.delimiter_opens_url_text(first))
    }

    /// True when what follows the delimiter `first` that opens the piece
    /// reads as URL text, not as code or markup that starts with the same
    /// character (`#[inline]`, `#![allow(...)]`, `#include`, `@param`,
    /// `&mut`, `:param`, `%d`): a letter, a digit or one of `% _ . ~ -`
    /// and then a path, or for `:`, `/` and `=` a digit (`:8080`, `=1`).
    fn delimiter_opens_url_text(&self, first: char) -> bool {
        let rest = &self.text[self.piece.start + first.len_utf8()..self.piece.end];
        if first == '@' {
            // What comes before a host's `@` is its userinfo: the piece
            // goes on with a host, not a decorator or a doc tag
            // (`@functools.wraps(cls)`, `@cb_kwargs`).
            return reads_as_host(rest);
        }
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
        let before_url = &self.text[self.line.start..self.url.url.start.max(self.line.start)];
        let own = match punctuation_leader(before_url) {
            "/*" | "/**" => "*",
            own => own,
        };
        let next = punctuation_leader(self.next.content(self.text));
        own.is_empty() || own == next || (matches!(own, "*" | "-" | "+") && next.is_empty())
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
        let piece = self.piece_text();
        let segment = piece.find('/').map_or(piece, |slash| &piece[..=slash]);
        self.line.width(self.text) + 1 + columns(segment) > margin
    }

    /// True when the line is filled to the right margin, as a break inside
    /// a word leaves it (a mailer or an author cuts there, never earlier),
    /// and the piece would not have fitted on it.
    fn filled_to_margin(&self) -> bool {
        let width = self.line.width(self.text);
        let reaches =
            |margin: usize| width + MID_WORD_SLACK >= margin && width <= margin + PAST_MARGIN_SLACK;
        // A mailer fills to a column of its own, which a short message's
        // other lines need not reach; no line around may run past it.
        let fill_column = || {
            let widest = widest_around(self.text, self.line);
            FILL_COLUMNS
                .iter()
                .any(|&column| reaches(column) && widest <= column + PAST_MARGIN_SLACK)
        };
        (margin(self.text, self.line).is_some_and(reaches) || fill_column()) && self.at_margin()
    }

    /// True for a name that reads as made, not as a word of prose: it holds
    /// a digit, a hyphen or an underscore, or mixes cases with a capital
    /// after its first letter (`TechReport`, not `QNX` or `Also`).
    fn name_looks_made(&self) -> bool {
        let piece = self.piece_text();
        let camel_case =
            piece.chars().any(char::is_lowercase) && piece.chars().skip(1).any(char::is_uppercase);
        camel_case
            || piece
                .chars()
                .any(|c| c.is_ascii_digit() || c == '-' || c == '_')
    }

    /// True when the URL as far as this line's end appears elsewhere in
    /// the text (within [`EVIDENCE_WINDOW`]) followed by a space, a tab, a
    /// delimiter or the sentence's end: there the author ended it. One cut
    /// at a line's end is no evidence: it may be another break.
    fn cut_appears_whole_elsewhere(&self) -> bool {
        let cut: String = self
            .joined
            .iter()
            .map(|span| &self.text[span.range()])
            .collect();
        let bytes = self.text.as_bytes();
        let own: Span = Span::new(self.url.url.start, self.piece.end);
        let from = own.start.saturating_sub(EVIDENCE_WINDOW);
        let to = bytes.len().min(own.end + EVIDENCE_WINDOW);
        memmem::find_iter(&bytes[from..to], cut.as_bytes())
            .map(|at| from + at)
            .filter(|&at| at + cut.len() <= own.start || at >= own.end)
            .take(MAX_OCCURRENCES)
            .any(|at| ends_where_text_goes_on(bytes, at + cut.len()))
    }
}

/// The `broken-bare-url` finding of a bare URL `url` joined as `continued`
/// over `outer`, in `rfc_style` text or not, with the reading cut at the
/// first line's end as the alternative.
pub(super) fn finding(
    text: &str,
    url: &Undelimited,
    continued: &Continued,
    outer: Span,
    rfc_style: bool,
) -> (Diagnostic, Alternative) {
    let cut = &text[url.url.range()];
    let because = continued
        .breaks
        .iter()
        .map(|each| {
            let page = match each.page {
                true => " (past the page break between them)",
                false => "",
            };
            format!("{}{page}", each.reason.describe(&text[each.piece.range()]))
        })
        .collect::<Vec<_>>()
        .join("; then ");
    // The wrapper keeps the author's lines: its line breaks, leaders and
    // page furniture are ignored inside it, so the URL reads the same. It
    // is a suggestion: where the URL ends is the scanner's reading.
    let opener = match (url.form, rfc_style) {
        (Form::Prefixed, _) => "<",
        (_, true) => "<URL:",
        (_, false) => "<",
    };
    let replacement = format!("{opener}{}>", &text[outer.range()]);
    let diagnostic = Diagnostic::new(
        Rule::BrokenBareUrl,
        outer,
        "bare URL broken across lines: a reader may take only its first line",
    )
    .with_help(format!(
        "RFC 1738 Appendix: a URL that has to be broken across lines should be wrapped, \
         as <URL:...>, since whitespace inside a wrapper is ignored while a bare URL ends at it. \
         urlint joined this one because {because}. Cut at the line's end it reads {cut}. \
         Wrap it, or keep it on one line"
    ))
    .with_fix(replacement, Applicability::Suggestion);
    let alternative = Alternative {
        url: cut.to_string(),
        reason: format!("the URL cut at its line's end; it was joined as {because}"),
    };
    (diagnostic, alternative)
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

/// True when `text` starts with a host name of two labels or more, and
/// nothing but a port, a path, a query or a fragment follows it.
fn reads_as_host(text: &str) -> bool {
    let host_end = text.find(['/', ':', '?', '#']).unwrap_or(text.len());
    let host = &text[..host_end];
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

/// The width of the widest line among [`MARGIN_LINES`] lines on each
/// side of `line` (within [`MARGIN_BYTES`]), but for lines holding a URL,
/// which run as long as their URL whatever the text's margin.
fn widest_around(text: &str, line: Line) -> usize {
    let before = std::iter::successors(line.preceding(text), |other| other.preceding(text))
        .take(MARGIN_LINES)
        .take_while(|other| line.start - other.start <= MARGIN_BYTES);
    let after = std::iter::successors(line.following(text), |other| other.following(text))
        .take(MARGIN_LINES)
        .take_while(|other| other.start - line.start <= MARGIN_BYTES);
    before
        .chain(after)
        .filter(|other| !other.holds(text, b"://"))
        .map(|other| other.width(text))
        .max()
        .unwrap_or(0)
}

/// The right margin around `line`: the width that two or more lines
/// holding a space inside reach among [`MARGIN_LINES`] lines on each side
/// (within [`MARGIN_BYTES`]), when it is at least [`MIN_MARGIN`]. One long
/// line does not make a margin, nor does a text of a few short lines.
fn margin(text: &str, line: Line) -> Option<usize> {
    // A line holding a URL of its own is as wide as its URL, not as the
    // text is set: a stretch of code comments citing URLs has no margin.
    let is_prose = |other: &Line| other.has_word_space(text) && !other.holds(text, b"://");
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
    use super::Reason;
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

    /// One row per rule of the module documentation: the rule, a text whose
    /// bare URL goes on over a line break, the URL joined, and the reason
    /// its first break was joined for.
    #[rustfmt::skip]
    const JOINED: &[(&str, &str, &str, Reason)] = &[
        ("scheme only", "   The list is at http://\n   www.ietf.example/1id-abstracts.txt.\n", "http://www.ietf.example/1id-abstracts.txt", Reason::SchemeOnly),
        ("unfinished: hyphen", "   IANA, http://www.iana.example/assignments/sasl-\n   mechanisms.\n", "http://www.iana.example/assignments/sasl-mechanisms", Reason::Unfinished('-')),
        ("unfinished: at sign", "   mail mailto:joe@\n   host.example now\n", "mailto:joe@host.example", Reason::Unfinished('@')),
        ("unfinished: ampersand", "   https://a.example/cb?x=1&\n   y=2 for\n", "https://a.example/cb?x=1&y=2", Reason::Unfinished('&')),
        ("unfinished: underscore", "   http://a.example/my_\n   file for\n", "http://a.example/my_file", Reason::Unfinished('_')),
        ("before path: period", "  [3] Cache, http://ds.\n internic.example/drafts/x.txt, March\n", "http://ds.internic.example/drafts/x.txt", Reason::BeforePath('.')),
        ("before path: question mark", "   Location: https://client.example/cb?\n     code=abc\n", "https://client.example/cb?code=abc", Reason::BeforePath('?')),
        ("parameters: comma", "      ldap://ldap.example/o=Org%20Name,\n             c=US?postalAddress\n", "ldap://ldap.example/o=Org%20Name,c=US?postalAddress", Reason::Parameters(',')),
        ("parameters: colon before a made name", "   imap://joe@a.example/INBOX/;uid=20/;urlauth=anonymous:internal:\n   91354a473744909de610943775f92038\n", "imap://joe@a.example/INBOX/;uid=20/;urlauth=anonymous:internal:91354a473744909de610943775f92038", Reason::Parameters(':')),
        ("opens with delimiter: slash", "      xmpp:node@example.com\n      /resource%20one\n", "xmpp:node@example.com/resource%20one", Reason::OpensWithDelimiter('/')),
        ("opens with delimiter: at sign before a host", "      ftp://anonymous:guest\n      @ftp.host.example/pub/\n", "ftp://anonymous:guest@ftp.host.example/pub/", Reason::OpensWithDelimiter('@')),
        ("opens with delimiter: ampersand", "      urn:example:weather?=op=map&lat=39.56\n         &lon=-104.85\n", "urn:example:weather?=op=map&lat=39.56&lon=-104.85", Reason::OpensWithDelimiter('&')),
        ("slash then path", "  [1] http://zgp.example/pipermail/p2p-hackers/2001-September/\n      000315.html, September 2001.\n", "http://zgp.example/pipermail/p2p-hackers/2001-September/000315.html", Reason::SlashThenPath),
        ("slash then path: a number before prose", "   See http://archive.example.org/lists/2001-September/\n   000315.html for the thread.\n", "http://archive.example.org/lists/2001-September/000315.html", Reason::SlashThenPath),
        ("folded content line", "     ATTACH;FMTTYPE=application/binary:http://host.example/templates/agen\n      da.doc\n", "http://host.example/templates/agenda.doc", Reason::Folded),
        ("comment leader", " * http://csrc.example.gov/publications/fips/\n * fips180-2/fips180-2withchangenotice.pdf\n", "http://csrc.example.gov/publications/fips/fips180-2/fips180-2withchangenotice.pdf", Reason::SlashThenPath),
        ("quote marker", "> see http://lists.example.org/archives/2001-September/\n> 000315.html\n", "http://lists.example.org/archives/2001-September/000315.html", Reason::SlashThenPath),
        ("three lines", "      xmpp:node@example.com\n      /repulsive%20!%23$%25&'()*+,-.%2F:;%3C=\n      %3E%3F%40%5B~resource\n", "xmpp:node@example.com/repulsive%20!%23$%25&'()*+,-.%2F:;%3C=%3E%3F%40%5B~resource", Reason::OpensWithDelimiter('/')),
        ("brackets open across the break", "   http://en.example/wiki/Foo_(\n   bar) is a page\n", "http://en.example/wiki/Foo_(bar)", Reason::Unfinished('(')),
        ("crlf line breaks", "   see http://a.example/2001-September/\r\n   000315.html\r\n", "http://a.example/2001-September/000315.html", Reason::SlashThenPath),
    ];

    #[test]
    fn bare_urls_go_on_where_the_text_says_so() {
        for (rule, text, url, reason) in JOINED {
            let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
            assert_eq!(found.len(), 1, "{rule}: {text:?}");
            assert_eq!(found[0].url, *url, "{rule}: {text:?}");
            let piece = &text[found[0].segments[1].source.range()];
            let help = &found[0].diagnostics[0].help;
            assert!(help.contains(&reason.describe(piece)), "{rule}: {help}");
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
        ("a decorator after a comment", "    # Type-checking fails due to https://git.example/python/mypy/issues/14458\n    # @functools.wraps(cls)\n", &["https://git.example/python/mypy/issues/14458"]),
        ("a docstring's contract line", "        @url http://scrapy.example\n        @cb_kwargs {\"a\": 1}\n", &["http://scrapy.example"]),
        ("a comment's next sentence after a margin break", "    # Shouldn't allow +/- or other number formats.\n    # https://www.rfc.example/rfc/rfc9110#section-8.6-2\n    # msg.headers is already stripped of leading/trailing wsp and more\n    # one more line of comment that is about as wide as the rest is\n", &["https://www.rfc.example/rfc/rfc9110#section-8.6-2"]),
        ("a troff request", ".EX\nsee: https://docs.example.com/en/|version|/howto/deployment/\n.EE\n", &["https://docs.example.com/en/|version|/howto/deployment/"]),
        ("a step's section number", "      // https://fetch.example/#concept-header-list-sort-and-combine\n      // 3.2.2. Assert: value is non-null.\n", &["https://fetch.example/#concept-header-list-sort-and-combine"]),
        ("a comment wider than the code around it", "x = 1\ny = 2\n# see https://docs.example.org/library/datetime.html#strftime-behavior\n# DATE_INPUT_FORMATS =\nz = 3\nprint(x, y, z, 'and a little more text on a line of code')\nprint(x, y, z, 'and a little more text on a line of code')\n", &["https://docs.example.org/library/datetime.html#strftime-behavior"]),
        ("a doc comment's tag", " * See https://example.com/docs\n * @param x the thing\n", &["https://example.com/docs"]),
        ("a reference in code", "   see https://a.example/x/y\n   &mut self\n", &["https://a.example/x/y"]),
        ("an acronym after a long comment line", "   // QNX 7.1: https://www.qnx.example/developers/docs/7.1/index.html#com.qnx.doc.utilities/q/qcc.html\n   // QNX 8.0: https://www.qnx.example/developers/docs/8.0/qcc.html\n", &["https://www.qnx.example/developers/docs/7.1/index.html#com.qnx.doc.utilities/q/qcc.html", "https://www.qnx.example/developers/docs/8.0/qcc.html"]),
        ("a key after a number", "# TODO: Re-enable this once the MSRV is 1.43 or greater, it says\n# See: https://github.example/BurntSushi/termcolor/issues/35\n# doc-comment = \"0.3\"\n# and one more line of comment text that ends here too, at 60\n", &["https://github.example/BurntSushi/termcolor/issues/35"]),
        ("prose after a period: a new sentence", "   Read the docs at http://a.example.\n   Node.js users should read on.\n", &["http://a.example"]),
        ("prose after a slash: a file name in a sentence", "   Download from http://a.example/pub/\n   README.txt describes the files.\n", &["http://a.example/pub/"]),
        ("prose after a slash: a lower-case file name in a sentence", "   Download from http://a.example/pub/\n   config.toml holds the settings.\n", &["http://a.example/pub/"]),
        ("prose after a slash: and/or", "   see http://example.com/\n   and/or the mirror.\n", &["http://example.com/"]),
        ("prose after a colon", "   see http://a.example/docs:\n   /etc/passwd holds the users.\n", &["http://a.example/docs"]),
        ("prose after a slash: a home path", "   see http://a.example/\n   ~/.bashrc is read first.\n", &["http://a.example/"]),
        ("prose after a slash in a comment", "   // see https://example.com/\n   // foo.bar() is called next.\n", &["https://example.com/"]),
        ("prose after a question mark", "   why http://a.example/?\n   I/O errors are logged.\n", &["http://a.example/"]),
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
        let cut = "https://speakerdeck.example/jgbarah/grimoirelab-a-tool-for-open-develop";
        assert_eq!(urls(&text), [cut, cut]);
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
        assert_eq!(broken.span, found[0].outer.of());
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
        let text = "see http://a.example/2001-September/\n000315.html, now\n";
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
            "The archive::\n\n   see http://a.example/2001-September/\n   000315.html, now\n\n\
                    Prose http://b.example/2001-September/\n000315.html, now\n";
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
