//! Page furniture of paginated text: the blank lines, footer, form feed,
//! running header and blank lines between the last line of one page and
//! the first of the next, as RFCs and Internet-Drafts are laid out:
//!
//! ```text
//!    last line of page 7 with <URL:http://www.example.org/
//!
//! Author                   Standards Track                    [Page 7]
//! \x0c
//! RFC 9876                  Example Title                   March 2011
//!
//!    docs/page.html> goes on on page 8.
//! ```
//!
//! RFC 1738's Appendix ignores whitespace and line breaks inside a wrapper;
//! the furniture between two pages is not part of the text either, so a
//! wrapper, or a bare URL joined across lines, goes on past it. The layout
//! is told from the document itself: a footer ends with `[Page N]` and the
//! document numbers its neighbour `N-1` or `N+1` the same way, or it stands
//! before a form feed and the last line before a neighbouring page's form
//! feed reads the same (page numbers aside); the header reads the same as
//! another page's, or, under such a footer and after a form feed, is set in
//! parts apart (`RFC 9876   Title   March 2011`). Nothing here is skipped
//! anywhere but inside a URL's join.
//!
//! Each look reads at most [`REPEAT_REACH`] on both sides, and a stretch
//! crowded with footer-like lines is not looked into ([`footer_looks`]).

use memchr::memmem;

use super::crowd::Crowd;
use super::hyphen::SEARCH_WINDOW as EVIDENCE_WINDOW;
use super::layout::{has_inner_gap, Line};

/// Most blank lines before a page's footer or after its header: a short
/// page, such as the last of a section, ends in many.
const MAX_BLANK_LINES: usize = 48;

/// How far from a page break the neighbouring page's footer, or another
/// page's header, is looked for: two pages of long lines.
const REPEAT_REACH: usize = 12 * 1024;

// A windowed scan reads this much context around each window; a look
// that reached further would see less there than in a whole scan.
const _: () = assert!(REPEAT_REACH <= EVIDENCE_WINDOW);

/// Most footer-like lines in [`REPEAT_REACH`] that are looked into. Real
/// documents have a footer every few kilobytes; text made of footer-like
/// lines stops being searched, so that every text costs a bounded amount
/// of searching per byte.
const CROWDING_FOOTERS: usize = 8;

/// Spaces that set a running header's parts apart.
const HEADER_GAP: usize = 3;

/// The longest page number looked for.
const MAX_PAGE_DIGITS: usize = 5;

/// The form feed that starts a new page.
const FORM_FEED: u8 = 0x0C;

/// The label of a page number, `[Page ` (any case).
const PAGE_LABEL: &[u8] = b"[page ";

/// The footer-like lines of a text, counted over [`REPEAT_REACH`]: one
/// with [`CROWDING_FOOTERS`] or more others before it is not looked into.
pub(crate) fn footer_looks() -> Crowd {
    Crowd::new(REPEAT_REACH, CROWDING_FOOTERS)
}

/// The first line of the next page, when the lines from the line start
/// `from` (the line after a page's last line of text) are page furniture;
/// `footers` are the footer-like lines met before ([`footer_looks`]).
pub(crate) fn next_page(text: &str, from: usize, footers: &mut Crowd) -> Option<Line> {
    let line = Line::at(text, from);
    // Nearly every line after a URL's is text: only a blank line, a form
    // feed or a `[Page N]` footer may start furniture (a footer without a
    // page label follows a blank line, as page bottoms are laid out).
    let opens = line.is_blank(text)
        || starts_with_form_feed(text, line)
        || page_number(line.content(text)).is_some();
    if !opens {
        return None;
    }
    let mut form_feed = false;
    let first = skip_blank(text, line, &mut form_feed)?;
    let (footer, header) = if form_feed || starts_with_form_feed(text, first) {
        form_feed = true;
        (None, first)
    } else if looks_like_footer(text, first) {
        let header = skip_blank(text, first.following(text)?, &mut form_feed)?;
        form_feed |= starts_with_form_feed(text, header);
        (Some(first), header)
    } else {
        return None;
    };
    if !footers.admits(first.start) {
        return None;
    }
    let header_reads_as_one = || {
        header_repeats(text, header)
            || (form_feed && has_inner_gap(header.content(text), HEADER_GAP))
    };
    let is_furniture = match footer {
        Some(footer) => footer_repeats(text, footer, header, form_feed) && header_reads_as_one(),
        None => header_repeats(text, header),
    };
    let mut ignored = false;
    is_furniture
        .then(|| skip_blank(text, header.following(text)?, &mut ignored))
        .flatten()
}

/// The first line from `line` on that is not blank, at most
/// [`MAX_BLANK_LINES`] on; notes whether a blank line held a form feed.
fn skip_blank(text: &str, mut line: Line, form_feed: &mut bool) -> Option<Line> {
    for _ in 0..MAX_BLANK_LINES {
        if !line.is_blank(text) {
            return Some(line);
        }
        *form_feed |= line.content(text).as_bytes().contains(&FORM_FEED);
        line = line.following(text)?;
    }
    (!line.is_blank(text)).then_some(line)
}

/// True when the line's first character that is not a space is a form feed.
fn starts_with_form_feed(text: &str, line: Line) -> bool {
    line.content(text)
        .trim_start_matches([' ', '\t'])
        .as_bytes()
        .first()
        == Some(&FORM_FEED)
}

/// True for a line that may end a page: it ends with `[Page N]`, or a
/// form feed follows it after blank lines.
fn looks_like_footer(text: &str, line: Line) -> bool {
    if page_number(line.content(text)).is_some() {
        return true;
    }
    let mut form_feed = false;
    line.following(text)
        .and_then(|next| skip_blank(text, next, &mut form_feed))
        .is_some_and(|next| form_feed || starts_with_form_feed(text, next))
}

/// True when `bytes` start with the label of a page number, `[Page `, in
/// any case: how RFCs and Internet-Drafts end their footers.
pub(crate) fn opens_page_label(bytes: &[u8]) -> bool {
    bytes
        .get(..PAGE_LABEL.len())
        .is_some_and(|label| label.eq_ignore_ascii_case(PAGE_LABEL))
}

/// The number of a footer that ends with `[Page N]` (any case).
fn page_number(content: &str) -> Option<u64> {
    let trimmed = content.trim_end().strip_suffix(']')?;
    let digits_start = trimmed.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let digits = &trimmed[digits_start..];
    let label_start = digits_start.checked_sub(PAGE_LABEL.len())?;
    let labelled = opens_page_label(&trimmed.as_bytes()[label_start..]);
    (labelled && !digits.is_empty() && digits.len() <= MAX_PAGE_DIGITS)
        .then(|| digits.parse().ok())
        .flatten()
}

/// True when `hay` holds the label of page `number`, `[Page N]` (any case).
fn holds_page_label(hay: &[u8], number: u64) -> bool {
    let end = format!("{number}]");
    memmem::find_iter(hay, end.as_bytes()).any(|at| {
        at.checked_sub(PAGE_LABEL.len())
            .is_some_and(|label| opens_page_label(&hay[label..]))
    })
}

/// True when the footer's neighbour says the same: `[Page N-1]` within
/// [`REPEAT_REACH`] before it or `[Page N+1]` after it; or, for a footer
/// without a page label before a `form_feed`, the last line before the
/// neighbouring page's form feed (the one before the footer, or the first
/// after the `header`) reads the same, its numbers aside.
fn footer_repeats(text: &str, footer: Line, header: Line, form_feed: bool) -> bool {
    let bytes = text.as_bytes();
    let before = &bytes[footer.start.saturating_sub(REPEAT_REACH)..footer.start];
    let after_start = header.end.min(bytes.len());
    let after = &bytes[after_start..bytes.len().min(after_start + REPEAT_REACH)];
    if let Some(number) = page_number(footer.content(text)) {
        let neighbour = |hay: &[u8], n: Option<u64>| n.is_some_and(|n| holds_page_label(hay, n));
        return neighbour(before, number.checked_sub(1)) || neighbour(after, number.checked_add(1));
    }
    if !form_feed {
        return false;
    }
    let shape = numbers_masked(footer.content(text));
    let previous = memchr::memrchr(FORM_FEED, before).map(|at| footer.start - before.len() + at);
    let next = memchr::memchr(FORM_FEED, after).map(|at| after_start + at);
    [previous, next].into_iter().flatten().any(|form_feed| {
        last_text_line_before(text, form_feed)
            .is_some_and(|line| numbers_masked(line.content(text)) == shape)
    })
}

/// The last line that is not blank before the form feed at `at`, at most
/// [`MAX_BLANK_LINES`] back.
fn last_text_line_before(text: &str, at: usize) -> Option<Line> {
    let mut line = Line::holding(text, at)?.preceding(text)?;
    for _ in 0..MAX_BLANK_LINES {
        if !line.is_blank(text) {
            return Some(line);
        }
        line = line.preceding(text)?;
    }
    (!line.is_blank(text)).then_some(line)
}

/// `content` with its runs of spaces made one and its runs of digits one
/// `#`: two pages' footers read alike this way.
fn numbers_masked(content: &str) -> String {
    let mut masked = String::with_capacity(content.len());
    for c in content.trim().chars() {
        let run = if c.is_ascii_digit() {
            '#'
        } else if c.is_whitespace() {
            ' '
        } else {
            masked.push(c);
            continue;
        };
        if !masked.ends_with(run) {
            masked.push(run);
        }
    }
    masked
}

/// True when the header's text appears again within [`REPEAT_REACH`] of
/// it: every page after the first carries the same running header.
fn header_repeats(text: &str, header: Line) -> bool {
    let content = header
        .content(text)
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{c}');
    if content.len() < 8 {
        return false;
    }
    let bytes = text.as_bytes();
    let before = &bytes[header.start.saturating_sub(REPEAT_REACH)..header.start];
    let after = &bytes[header.end..bytes.len().min(header.end + REPEAT_REACH)];
    let finder = memmem::Finder::new(content.as_bytes());
    finder.find(before).is_some() || finder.find(after).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A paginated document: `pages` pages of `body` lines each, with the
    /// RFC Editor's footer, form feed and header between them.
    fn paginated(pages: usize, body: &[&str]) -> String {
        let mut text = String::new();
        for page in 1..=pages {
            if page > 1 {
                text.push_str(
                    "RFC 9876                  Example Title                   March 2011\n\n",
                );
            }
            for line in body {
                text.push_str(line);
                text.push('\n');
            }
            text.push_str(&format!(
                "\n\nAuthor                   Standards Track                    [Page {page}]\n\u{c}\n"
            ));
        }
        text
    }

    /// Where the page break after the first line holding `marker` leads.
    fn resume_after(text: &str, marker: &str) -> Option<String> {
        let line = Line::holding(text, text.find(marker).expect("marker")).expect("a line");
        let from = line.next?;
        next_page(text, from, &mut footer_looks()).map(|next| next.content(text).to_string())
    }

    #[test]
    fn a_footer_form_feed_and_header_between_pages_are_furniture() {
        let text = paginated(3, &["   first line", "   last line of the page"]);
        assert_eq!(
            resume_after(&text, "last line").as_deref(),
            Some("   first line")
        );
    }

    #[test]
    fn furniture_without_blank_lines_or_form_feed_is_furniture_too() {
        let text = paginated(3, &["   text", "   last"])
            .replace("\n\nAuthor", "\nAuthor")
            .replace("\u{c}\n", "");
        assert_eq!(resume_after(&text, "last").as_deref(), Some("   text"));
    }

    #[test]
    fn a_form_feed_between_pages_is_a_page_break_when_the_header_repeats() {
        let page = "   text\n   last\n\n\u{c}\nShort Title              March 2011\n\n";
        let text = page.repeat(3);
        assert_eq!(resume_after(&text, "last").as_deref(), Some("   text"));
    }

    #[test]
    fn footers_without_page_labels_repeat_before_each_form_feed() {
        let page = |n: usize| {
            format!("   text\n   last {n}\n\n  August 13, 1982      - {n} -      RFC #822\n\u{c}\n\n     Standard for Messages\n\n")
        };
        let text: String = (1..=3).map(page).collect();
        assert_eq!(resume_after(&text, "last 1").as_deref(), Some("   text"));
    }

    #[test]
    fn lines_that_merely_look_like_furniture_are_text() {
        for text in [
            // A page number with no neighbour: a footnote, not a footer.
            "   see below\n\n   as said on [Page 7]\n   More text here\n\n   end\n".to_string(),
            // A blank line and then text: a paragraph ends.
            "   one\n\n   two\n".to_string(),
            // The last page: nothing follows the form feed.
            paginated(1, &["   only page"]),
        ] {
            let first = text.lines().next().expect("a line");
            assert_eq!(resume_after(&text, first), None, "{text:?}");
        }
    }

    #[test]
    fn a_footer_whose_header_does_not_repeat_is_not_a_page_break_without_a_form_feed() {
        let text = "   a\n   last\nX [Page 1]\nA heading line\n   b\nX [Page 2]\n";
        assert_eq!(resume_after(text, "last"), None);
    }

    #[test]
    fn page_labels_are_read_in_any_case() {
        assert_eq!(
            page_number("Author   Standards Track   [Page 12]  "),
            Some(12)
        );
        assert_eq!(page_number("Author [page 3]"), Some(3));
        assert_eq!(page_number("Author [Page ]"), None);
        assert_eq!(page_number("Author [Pages 3]"), None);
        assert_eq!(page_number("[Page 3]"), Some(3));
        assert_eq!(page_number("see [Page 3] here"), None);
        assert!(holds_page_label(b"x [PAGE 17] y", 17));
        assert!(!holds_page_label(b"x [Page 17] y", 7));
    }

    #[test]
    fn crowded_footer_like_lines_stop_being_looked_into() {
        let page = |n: usize| {
            format!("   text\n   last {n}\n\nAuthor   Track   [Page {n}]\n\u{c}\nRFC 9876   Title   March 2011\n\n")
        };
        // The next pages found after every line, asked in source order as
        // a scan asks.
        let breaks = |text: &str| {
            let mut looks = footer_looks();
            let mut found = std::collections::BTreeSet::new();
            let mut line = Line::at(text, 0);
            while let Some(next) = line.following(text) {
                found.extend(next_page(text, next.start, &mut looks).map(|page| page.start));
                line = next;
            }
            found.len()
        };
        let pages = format!("{}{}{}", page(1), page(2), page(3));
        assert_eq!(breaks(&pages), 2);
        // Footer-like lines before them crowd the real breaks out.
        let mut crowd = String::new();
        for n in 0..CROWDING_FOOTERS {
            crowd.push_str(&format!("   line {n}\n\nNot a footer [Page {}]\n", n * 10));
        }
        assert_eq!(breaks(&format!("{crowd}{pages}")), 0);
    }
}
