//! Delimited URLs, `<URL:...>` and `<scheme:...>` (RFC 1738 Appendix): where
//! they open and close, which source runs make up the URL, and what is
//! reported about the whitespace and line breaks inside them. Between two
//! pages of a paginated document the footer, form feed and header are not
//! text: a wrapper goes on past them (`pages.rs`).

use super::chars::{char_at, space_len};
use super::crowd::Crowd;
use super::found::Form;
use super::lines::Leader;
use super::pages;
use super::scheme::{is_path_separator, scheme_then_colon, Schemes};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::{line_break_len, Span};

/// Most lines a wrapper may span before it counts as unterminated.
pub(crate) const MAX_LINES: usize = 5;

/// Most source bytes a wrapper may span before it counts as unterminated.
pub(crate) const MAX_BYTES: usize = 2048;

/// The prefix that makes `<` a [`Form::Wrapped`] opening (case-insensitive).
const URL_PREFIX: &[u8] = b"URL:";

/// Where a wrapper opens and where its URL text starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Opening {
    /// Wrapped or angle.
    pub(crate) form: Form,
    /// Offset of the first byte after the opening delimiter.
    pub(crate) body: usize,
}

/// A parsed wrapper, before hyphen breaks are resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wrapper {
    /// Wrapped or angle.
    pub(crate) form: Form,
    /// The whole match, delimiters included.
    pub(crate) outer: Span,
    /// Source runs that make up the URL, in order.
    pub(crate) spans: Vec<Span>,
    /// Source offsets of hyphens that end a line inside the URL.
    pub(crate) hyphens: Vec<usize>,
    /// Whitespace, empty-wrapper and unterminated findings (source spans).
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Where the text after each line break starts, and whether page
    /// furniture lay between.
    pub(crate) breaks: Vec<(usize, bool)>,
}

/// Why a wrapper without its `>` was cut where it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// The text ended.
    EndOfText,
    /// A blank line (after the leader) ends the paragraph.
    BlankLine,
    /// The wrapper reached [`MAX_LINES`].
    LineLimit,
    /// The wrapper reached [`MAX_BYTES`].
    ByteLimit,
    /// Another `<URL:` or `<scheme:` opened.
    NewWrapper,
}

impl Cut {
    /// How the help text names the place where the URL was cut.
    fn describe(self) -> String {
        match self {
            Cut::EndOfText => "the end of the text".to_string(),
            Cut::BlankLine => "the blank line that follows it".to_string(),
            Cut::LineLimit => format!("its {MAX_LINES}th line, the most a wrapper may span"),
            Cut::ByteLimit => format!("{MAX_BYTES} bytes, the most a wrapper may span"),
            Cut::NewWrapper => "the next '<' that opens a wrapper".to_string(),
        }
    }
}

/// The wrapper opening at `at`, if the `<` there opens one: `<URL:` in any
/// case, or `<scheme:` for a known scheme or one followed by `//`, and
/// then by what may start a URL ([`Schemes::opens_body`]). Other
/// names are left alone so that XML tags such as `<xsl:template>` are not
/// taken for URLs, and so is a name followed by `::`, a path in code's
/// generics (`Vec<url::Url>`, `Result<http::Response>`).
pub(crate) fn opening_at(text: &str, at: usize, schemes: &Schemes) -> Option<Opening> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'<') {
        return None;
    }
    let rest = bytes.get(at + 1..)?;
    if rest.len() >= URL_PREFIX.len() && rest[..URL_PREFIX.len()].eq_ignore_ascii_case(URL_PREFIX) {
        if is_placeholder(&rest[URL_PREFIX.len()..])
            || is_path_separator(rest, URL_PREFIX.len() - 1)
        {
            return None;
        }
        return Some(Opening {
            form: Form::Wrapped,
            body: at + 1 + URL_PREFIX.len(),
        });
    }
    let len = scheme_then_colon(rest);
    if len == 0 || is_path_separator(rest, len) {
        return None;
    }
    let name = text.get(at + 1..at + 1 + len)?;
    let after = rest.get(len + 1..).unwrap_or_default();
    let slashes = after.starts_with(b"//");
    ((slashes || schemes.is_known(name)) && schemes.opens_body(name, after)).then_some(Opening {
        form: Form::Angle,
        body: at + 1,
    })
}

/// True when a `<URL:` body is prose naming the notation, not a URL:
/// `<URL:...>`, `<URL:…>` and a quoted or code-span `<URL:` (as in
/// "between `<URL:` and `>`") are how documents talk about wrappers, and
/// reporting them as broken URLs is noise.
fn is_placeholder(body: &[u8]) -> bool {
    body.starts_with(b"...")
        || body.starts_with("\u{2026}".as_bytes())
        || matches!(body.first(), Some(b'`' | b'\'' | b'"'))
}

/// Parse the wrapper opening at `at`; `footers` are the footer-like lines
/// as page footers before, in vain.
pub(crate) fn parse(
    text: &str,
    at: usize,
    schemes: &Schemes,
    footers: &mut Crowd,
) -> Option<Wrapper> {
    let opening = opening_at(text, at, schemes)?;
    let walker = Walker::new(text, at, Leader::of_line(text, at), footers);
    Some(walker.walk(opening, schemes))
}

/// State of the walk through a wrapper's body, one character at a time.
struct Walker<'t, 'p> {
    text: &'t str,
    /// Lines looked into as page footers in vain, near this wrapper.
    footers: &'p mut Crowd,
    /// Offset of the opening `<`.
    open: usize,
    /// The first line's leader, skipped on each continuation line.
    leader: Leader,
    /// Source runs of URL text collected so far.
    spans: Vec<Span>,
    /// Start of the source run being collected.
    run: Option<usize>,
    /// Whitespace seen after URL text on this line, not yet known to be
    /// followed by more URL text on the same line.
    pending: Option<Span>,
    /// Whether URL text was seen on the current line (whitespace before it
    /// is indentation, not a space inside the URL).
    line_has_text: bool,
    /// Lines the wrapper spans so far.
    lines: usize,
    /// Hyphens that end a line before the URL goes on.
    hyphens: Vec<usize>,
    /// Whitespace runs inside a line, each followed by more URL text.
    spaces: Vec<Span>,
    /// Where each continuation line's text starts, and whether page
    /// furniture lay before it.
    breaks: Vec<(usize, bool)>,
}

impl<'t, 'p> Walker<'t, 'p> {
    fn new(text: &'t str, open: usize, leader: Leader, footers: &'p mut Crowd) -> Self {
        Walker {
            text,
            footers,
            open,
            leader,
            spans: Vec::new(),
            run: None,
            pending: None,
            line_has_text: false,
            lines: 1,
            hyphens: Vec::new(),
            spaces: Vec::new(),
            breaks: Vec::new(),
        }
    }

    /// Walk from the opening to the closing `>` or to where the wrapper
    /// must be cut.
    fn walk(mut self, opening: Opening, schemes: &Schemes) -> Wrapper {
        let bytes = self.text.as_bytes();
        let mut at = opening.body;
        loop {
            if at - self.open > MAX_BYTES {
                return self.unterminated(opening, Cut::ByteLimit, at);
            }
            let Some(&byte) = bytes.get(at) else {
                return self.unterminated(opening, Cut::EndOfText, at);
            };
            match byte {
                b'>' => return self.closed(opening.form, at),
                b'<' if opening_at(self.text, at, schemes).is_some() => {
                    return self.unterminated(opening, Cut::NewWrapper, at);
                }
                b'\r' | b'\n' => match self.line_break(at) {
                    Ok(next) => at = next,
                    Err(cut) => return self.unterminated(opening, cut, at),
                },
                _ => at = self.character(at),
            }
        }
    }

    /// Take the character at `at` as whitespace or URL text; returns the
    /// offset of the next character.
    fn character(&mut self, at: usize) -> usize {
        let space = space_len(self.text, at);
        if space > 0 {
            self.end_run(at);
            if self.line_has_text {
                let start = self.pending.map_or(at, |pending| pending.start);
                self.pending = Some(Span::new(start, at + space));
            }
            return at + space;
        }
        if let Some(space) = self.pending.take() {
            self.spaces.push(space);
        }
        self.run.get_or_insert(at);
        self.line_has_text = true;
        self.text_end(at)
    }

    /// End of the URL text that starts with the character at `at`: that
    /// character, then every plain byte after it, each of which the walk
    /// would take the same way one at a time. Stops where the walk must
    /// check [`MAX_BYTES`], so that the cut falls where it always did.
    fn text_end(&self, at: usize) -> usize {
        let bytes = self.text.as_bytes();
        let next = at + char_at(self.text, at).map_or(1, char::len_utf8);
        let limit = bytes.len().min(self.open + MAX_BYTES + 1);
        let plain = bytes.get(next..limit).map_or(0, |rest| {
            rest.iter().take_while(|&&byte| is_plain_text(byte)).count()
        });
        next + plain
    }

    /// Go on to the next line's text, or say why the wrapper cannot.
    fn line_break(&mut self, at: usize) -> Result<usize, Cut> {
        self.end_run(at);
        self.pending = None;
        let bytes = self.text.as_bytes();
        self.lines += 1;
        if self.lines > MAX_LINES {
            return Err(Cut::LineLimit);
        }
        let line_start = at + line_break_len(bytes, at);
        // Between two pages, the footer, form feed and header are not text.
        let next_page = pages::next_page(self.text, line_start, self.footers);
        let next_text = next_page.map_or(line_start, |line| line.start);
        let next = self.leader.skip(self.text, next_text);
        match bytes.get(next) {
            None => Err(Cut::EndOfText),
            Some(b'\r' | b'\n') => Err(Cut::BlankLine),
            Some(_) => {
                self.note_hyphen();
                self.line_has_text = false;
                self.breaks.push((next, next_page.is_some()));
                Ok(next)
            }
        }
    }

    /// Record the hyphen ending this line's URL text, now that the URL is
    /// known to go on after the break (a hyphen before a wrapper's cut is
    /// just the URL's last character).
    fn note_hyphen(&mut self) {
        let last_byte = self
            .spans
            .last()
            .filter(|_| self.line_has_text)
            .map(|span| span.end - 1);
        if let Some(hyphen) = last_byte.filter(|&at| self.text.as_bytes().get(at) == Some(&b'-')) {
            self.hyphens.push(hyphen);
        }
    }

    fn end_run(&mut self, at: usize) {
        if let Some(start) = self.run.take() {
            self.spans.push(Span::new(start, at));
        }
    }

    /// The wrapper closed by the `>` at `close`.
    fn closed(mut self, form: Form, close: usize) -> Wrapper {
        self.end_run(close);
        let outer = Span::new(self.open, close + 1);
        let diagnostics = self
            .spaces
            .iter()
            .map(|&s| space_in_wrapper(self.text, s))
            .collect();
        self.into_wrapper(form, outer, diagnostics)
    }

    /// The wrapper as far as it could be taken without its `>`. Prose
    /// usually follows an unclosed wrapper on the same line, so the URL stops
    /// at the first whitespace inside a line rather than swallowing words.
    fn unterminated(mut self, opening: Opening, cut: Cut, at: usize) -> Wrapper {
        let form = opening.form;
        self.end_run(at);
        if let Some(first_space) = self.spaces.first().map(|s| s.start) {
            self.spans.retain(|s| s.end <= first_space);
            self.hyphens.retain(|&h| h < first_space);
        }
        let body_end = self.spans.last().map_or(opening.body, |s| s.end);
        let outer = Span::new(self.open, body_end);
        let opener = if form == Form::Wrapped { "<URL:" } else { "<" };
        let diagnostics = vec![Diagnostic::new(
            Rule::UnterminatedWrapper,
            outer,
            format!("'{opener}' is never closed by '>'"),
        )
        .with_help(format!(
            "RFC 1738 Appendix: a wrapper ends at '>'; this one was taken up to {}. Close it with '>' where the URL ends",
            cut.describe()
        ))];
        self.into_wrapper(form, outer, diagnostics)
    }

    /// The finished wrapper, with `empty-url` added when no URL text was found.
    fn into_wrapper(self, form: Form, outer: Span, mut diagnostics: Vec<Diagnostic>) -> Wrapper {
        if self.spans.is_empty() {
            diagnostics.push(empty_url(outer));
        }
        let breaks = match self.spans.last() {
            Some(last) => self
                .breaks
                .into_iter()
                .filter(|&(next, _)| next < last.end)
                .collect(),
            None => Vec::new(),
        };
        Wrapper {
            form,
            outer,
            spans: self.spans,
            hyphens: self.hyphens,
            diagnostics,
            breaks,
        }
    }
}

/// True for the bytes that are always URL text inside a wrapper: printable
/// ASCII other than the `<` and `>` the walk must look at.
fn is_plain_text(byte: u8) -> bool {
    byte.is_ascii_graphic() && byte != b'<' && byte != b'>'
}

/// `empty-url` for a wrapper with nothing between its delimiters.
fn empty_url(outer: Span) -> Diagnostic {
    Diagnostic::new(Rule::EmptyUrl, outer, "this wrapper holds no URL").with_help(
        "RFC 1738 Appendix: <URL:...> delimits a URL; write one between the delimiters or remove them",
    )
}

/// The finding for whitespace inside a line of a wrapper, with `%20` for
/// each whitespace character as a suggestion: the author probably meant the
/// space to be part of the URL, but it may as well be a stray one.
fn space_in_wrapper(text: &str, span: Span) -> Diagnostic {
    let spaces = text.get(span.range()).map_or(0, |run| run.chars().count());
    Diagnostic::new(
        Rule::SpaceInWrapper,
        span,
        "whitespace inside a line of a wrapped URL is dropped",
    )
    .with_help(
        "RFC 1738 Appendix: whitespace in a wrapper is ignored when extracting the URL, \
             so the URL is read without it; if the space belongs to the URL encode it as %20, \
             otherwise remove it or break the line there",
    )
    .with_fix("%20".repeat(spaces), Applicability::Suggestion)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::found::join;

    /// A finding's rule with the source text under its span.
    type Finding<'t> = (Rule, &'t str);

    /// The wrapper at the first `<` of `text`: joined URL, form, outer text
    /// and its findings.
    fn wrapper(text: &str) -> Option<(String, Form, &str, Vec<Finding<'_>>)> {
        let at = text.find('<')?;
        let parsed = parse(text, at, &Schemes::new(&[]), &mut pages::footer_looks())?;
        let findings = parsed
            .diagnostics
            .iter()
            .map(|d| (d.rule, &text[d.span.range()]))
            .collect();
        Some((
            join(text, &parsed.spans),
            parsed.form,
            &text[parsed.outer.range()],
            findings,
        ))
    }

    fn url(text: &str) -> String {
        wrapper(text).map(|(url, ..)| url).unwrap_or_default()
    }

    #[test]
    fn appendix_wrapper_forms() {
        for (text, form) in [
            ("<URL:http://a.b/>", Some(Form::Wrapped)),
            ("<url:http://a.b/>", Some(Form::Wrapped)),
            ("<Url: http://a.b/>", Some(Form::Wrapped)),
            ("<http://a.b/>", Some(Form::Angle)),
            ("<news:comp.x>", Some(Form::Angle)),
            ("<magic://a/>", Some(Form::Angle)),
            ("<xsl:template match=\"/\">", None),
            ("<uri@bunyip.com>", None),
            ("<host>:<port>", None),
            ("<url::Url>", None),
            ("<http::Response<Body>>", None),
            ("<File::create>", None),
            ("< URL:http://a.b/>", None),
            ("<", None),
        ] {
            assert_eq!(wrapper(text).map(|w| w.1), form, "{text:?}");
        }
    }

    #[test]
    fn appendix_whitespace_in_wrappers_is_ignored() {
        for (text, expected) in [
            (
                "<URL:ftp://ds.in\n      ternic.net/rfc>",
                "ftp://ds.internic.net/rfc",
            ),
            (
                "<URL:ftp://info.cern.ch/pub/www/doc;\n      type=d>",
                "ftp://info.cern.ch/pub/www/doc;type=d",
            ),
            ("<URL:http://a.b/\r\n   c>", "http://a.b/c"),
            ("<URL:http://a.b/\r   c>", "http://a.b/c"),
            ("<URL:http://a.b/  \t\n\tc  \n  >", "http://a.b/c"),
            ("<URL:\n  http://a.b/c>", "http://a.b/c"),
            ("<URL:  http://a.b/c  >", "http://a.b/c"),
            ("<URL:http://a.b/\u{A0}\n\u{A0}\u{A0}c>", "http://a.b/c"),
            ("<URL:http://a.b/\u{2003}\n\u{3000}c>", "http://a.b/c"),
            ("<URL:http://a.b/#frag>", "http://a.b/#frag"),
            ("<URL:http://é.b/>", "http://é.b/"),
        ] {
            let (joined, _, _, findings) = wrapper(text).unwrap();
            assert_eq!(joined, expected, "{text:?}");
            assert_eq!(findings, [], "{text:?}");
        }
    }

    #[test]
    fn appendix_space_inside_a_line_is_flagged() {
        let text = "<gopher://g.b/00/Information\n   About Gopher/About\u{A0}\u{A0}Gopher>";
        let (joined, _, _, findings) = wrapper(text).unwrap();
        assert_eq!(joined, "gopher://g.b/00/InformationAboutGopher/AboutGopher");
        assert_eq!(
            findings,
            [
                (Rule::SpaceInWrapper, " "),
                (Rule::SpaceInWrapper, "\u{A0}\u{A0}")
            ]
        );
    }

    #[test]
    fn appendix_continuation_lines_skip_quote_comment_and_gutter_leaders() {
        for (text, expected) in [
            (
                "> see <URL:ftp://ds.in\n>    ternic.net/rfc>",
                "ftp://ds.internic.net/rfc",
            ),
            (">> <URL:ftp://a.b/\n>> c/d\n>> >", "ftp://a.b/c/d"),
            ("# see <URL:ftp://a.b/\n#   c>", "ftp://a.b/c"),
            ("// <URL:ftp://a.b/\n// c>", "ftp://a.b/c"),
            (" * <URL:ftp://a.b/\n *   c>", "ftp://a.b/c"),
            (
                "  792. type=d> but <URL:ftp://ds.in\n  793. ternic.net/rfc>",
                "ftp://ds.internic.net/rfc",
            ),
            (
                "  1377. \u{A0}\u{A0}<ftp://a.b/c/\n  1378. \u{A0}\u{A0}d> .",
                "ftp://a.b/c/d",
            ),
            // A line that merely starts like a leader keeps its text.
            ("<URL:ftp://a.b/\n# c>", "ftp://a.b/#c"),
        ] {
            assert_eq!(url(text), expected, "{text:?}");
        }
    }

    #[test]
    fn appendix_unterminated_wrappers_are_bounded_and_reported() {
        let long_line = format!("<URL:http://a.b/{}", "x".repeat(3000));
        let cases: Vec<(&str, &str, &str)> = vec![
            ("<URL:http://a.b/c", "http://a.b/c", "<URL:http://a.b/c"),
            (
                "<URL:http://a.b/c\n  d/e\n\nmore>",
                "http://a.b/cd/e",
                "<URL:http://a.b/c\n  d/e",
            ),
            (
                "<URL:http://a.b/c is great\nand so on.\n\nNext",
                "http://a.b/c",
                "<URL:http://a.b/c",
            ),
            (
                "<URL:http://a.b/c <URL:http://d.e/>",
                "http://a.b/c",
                "<URL:http://a.b/c",
            ),
            (
                "<URL:http://a/\nb\nc\nd\ne\nf\ng>",
                "http://a/bcde",
                "<URL:http://a/\nb\nc\nd\ne",
            ),
            ("<URL:\n\nhttp://a/>", "", "<URL:"),
            (
                &long_line,
                &long_line[5..MAX_BYTES + 1],
                &long_line[..MAX_BYTES + 1],
            ),
        ];
        for (text, expected, outer) in cases {
            let (joined, _, got_outer, findings) = wrapper(text).unwrap();
            assert_eq!(joined, expected, "{text:?}");
            assert_eq!(got_outer, outer, "{text:?}");
            assert_eq!(
                findings.first().map(|f| f.0),
                Some(Rule::UnterminatedWrapper),
                "{text:?}"
            );
        }
    }

    #[test]
    fn appendix_placeholder_wrappers_are_prose() {
        for text in [
            "every <URL:...> in the text",
            "a <URL:…> wrapper",
            "<url:...>",
            "between `<URL:` and `>`",
            "'<URL:' and '>'",
            "return '<mailto:' + url + '>';",
            "<http://|>",
        ] {
            assert_eq!(wrapper(text), None, "{text:?}");
        }
        assert_eq!(url("<URL:http://a.example/...>"), "http://a.example/...");
    }

    #[test]
    fn appendix_empty_wrapper_is_reported() {
        for text in ["<URL:>", "<URL: \n >", "<url:\t>"] {
            let (joined, _, outer, findings) = wrapper(text).unwrap();
            assert_eq!(joined, "", "{text:?}");
            assert_eq!(findings, [(Rule::EmptyUrl, outer)], "{text:?}");
        }
    }

    #[test]
    fn appendix_hyphens_at_line_breaks_are_recorded() {
        let text = "<URL:http://info.cern.ch/marie-\n   claude/a-b-  \n c>";
        let at = text.find('<').unwrap();
        let parsed = parse(text, at, &Schemes::new(&[]), &mut pages::footer_looks()).unwrap();
        let hyphens: Vec<&str> = parsed.hyphens.iter().map(|&h| &text[h..h + 2]).collect();
        assert_eq!(hyphens, ["-\n", "- "]);
    }

    #[test]
    fn appendix_hyphen_before_a_cut_is_not_a_break() {
        let text = "<URL:http://a.b/c-\n\nd";
        let parsed = parse(text, 0, &Schemes::new(&[]), &mut pages::footer_looks()).unwrap();
        assert_eq!(join(text, &parsed.spans), "http://a.b/c-");
        assert!(parsed.hyphens.is_empty());
    }
}
