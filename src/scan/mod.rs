//! The scanner: finds URLs in free text following RFC 1738's Appendix, joins
//! wrapped URLs across line breaks (and page breaks), joins a bare URL with
//! the next line when the text says it goes on, and remembers where every
//! byte came from.
//!
//! The scanner knows nothing of schemes' grammars; it asks the validator only
//! for the hyphen-break evidence rule.
//!
//! The hot loop is a `memchr` for the two bytes that can start a URL's
//! recognition, `<` (a wrapper) and `:` (the end of a scheme); everything
//! else is per-URL work bounded by the URL's own length and, for the
//! evidence a hyphen break or a join weighs, by a fixed reach around it
//! (the costliest looks crowded out where they come thick, see `crowd.rs`),
//! so scanning is linear in the text. Scanning is lazy: each `next` scans
//! only as far as the next URL.
//!
//! ```
//! use urlint::{scan, Form, ScanOptions};
//!
//! let text = "See <URL:ftp://ds.in\n   ternic.net/rfc> or http://info.cern.ch/.";
//! let found: Vec<_> = scan(text, &ScanOptions::default()).collect();
//! assert_eq!(found[0].url, "ftp://ds.internic.net/rfc");
//! assert_eq!(found[0].form, Form::Wrapped);
//! assert_eq!(found[1].url, "http://info.cern.ch/");
//! ```

mod bare;
mod chars;
mod continued;
mod crowd;
mod document;
mod found;
mod hyphen;
mod layout;
mod lines;
mod options;
mod pages;
mod pattern;
mod rfc_style;
mod scanner;
mod scheme;
mod wrapper;

/// The characters the scanner splits words on, which also surround a URL
/// given on its own.
pub(crate) use chars::is_space;
/// How far around a URL the hyphen-break evidence looks, and how long a
/// wrapper may be: the bounds that let the reading side cut a large text
/// into windows without changing what is found.
pub(crate) use hyphen::SEARCH_WINDOW as EVIDENCE_WINDOW;
/// How wide text is in columns, as the scanner measures lines.
#[cfg(feature = "cli")]
pub(crate) use layout::columns;
/// How a wrapper may be laid out: most lines, and where a continuation
/// line's text starts once its leader is skipped.
#[cfg(feature = "cli")]
pub(crate) use lines::continuation_text_start;
pub(crate) use wrapper::MAX_BYTES as MAX_WRAPPER_BYTES;
#[cfg(feature = "cli")]
pub(crate) use wrapper::MAX_LINES as MAX_WRAPPER_LINES;

use crate::markup;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::{validate, ValidateOptions};
use scanner::{LineJoins, Scanner};
use scheme::Schemes;
use std::borrow::Cow;

pub use crate::markup::{Construct, Unclosed};
pub use crate::source::Markup;
pub use found::{Alternative, Form, Found, Join, Segment};
pub use options::ScanOptions;

/// Find every URL in `text`, in source order, without overlaps.
pub fn scan<'t>(text: &'t str, options: &ScanOptions) -> impl Iterator<Item = Found> + 't {
    Scanner::new(
        text,
        options,
        host_invalid_by_validator,
        LineJoins::Everywhere,
    )
}

/// The scan of a document's prose, whose `plain_text_blocks` are its
/// [`markup::Document::plain_text_blocks`]: a line break ends a bare URL,
/// as the markup's readers have it, but in the blocks that keep the lines
/// of plain text.
fn scan_prose<'t>(
    prose: Cow<'t, str>,
    plain_text_blocks: Cow<'t, [Span]>,
    options: &ScanOptions,
) -> Scanner<'t> {
    let joins = match plain_text_blocks.is_empty() {
        true => LineJoins::Nowhere,
        false => LineJoins::Within(plain_text_blocks),
    };
    Scanner::new(prose, options, host_invalid_by_validator, joins)
}

/// Find every URL in `text` written in `markup`, in source order: in plain
/// text everywhere (as [`scan`]); in Markdown, reStructuredText and HTML the
/// links the markup delimits ([`Form::Link`], [`Form::Attribute`]) and the
/// URLs in its prose.
///
/// A plain text is scanned lazily; a document is parsed first, unless
/// nothing in it can start a URL: a Markdown document only in the
/// sections that may hold one, or as far as the last place one may start,
/// when either reads as the whole does. Its prose is then scanned and its
/// URLs placed lazily too: the parsed document is held, not its URLs.
///
/// ```
/// use urlint::scan::{scan_markup, Form, Markup, ScanOptions};
///
/// let text = "[![v](https://img.example/v.svg)](https://crates.example/x) `http://code/`";
/// let found: Vec<_> = scan_markup(text, Markup::Markdown, &ScanOptions::default()).collect();
/// assert_eq!(found.len(), 2);
/// assert_eq!(found[0].url, "https://img.example/v.svg");
/// assert_eq!(found[1].form, Form::Link);
/// assert_eq!(&text[found[1].outer.range()], "https://crates.example/x");
/// ```
pub fn scan_markup<'t>(
    text: &'t str,
    markup: Markup,
    options: &ScanOptions,
) -> impl Iterator<Item = Found> + 't {
    read_markup(text, markup, options).0
}

/// [`scan_markup`], with what the markup left open at the end of the
/// document or of an HTML block in it, which took in the text after it.
pub(crate) fn read_markup<'t>(
    text: &'t str,
    markup: Markup,
    options: &ScanOptions,
) -> (impl Iterator<Item = Found> + 't, Option<Unclosed>) {
    if markup == Markup::Plain {
        return (Urls::Scanned(scan(text, options)), None);
    }
    let schemes = Schemes::new(&options.extra_schemes);
    // Nothing in it can start a URL, so nothing left open hides one.
    let Some(last) = last_url_syntax(text, markup, &schemes) else {
        return (Urls::Empty, None);
    };
    let Some(plan) = markup::DocumentPlan::new(text, markup, options.include_verbatim, last) else {
        return (Urls::Scanned(scan(text, options)), None);
    };
    let (placed, unclosed) = parsed(&plan, markup, options, &schemes);
    (Urls::Placed(Box::new(placed)), unclosed)
}

/// Where the last URL a reading of `text` as `markup` may find holds its
/// first run of URL syntax; `None` when no reading finds a URL, so that
/// the document need not be parsed.
///
/// Every URL the scanner finds in a document's prose, and every link value
/// taken for a URL, holds a scheme's `:` followed by `//`, a known
/// scheme's name and its `:`, `<URL:` or `URL:` and a letter: a run of URL
/// syntax (ASCII letters and digits, `+ - . : / <`). Where the markup's
/// reader makes no run of URL syntax the source does not hold
/// ([`markup::last_made_url_syntax`]: a character reference, a Markdown
/// escape of URL syntax, reStructuredText anywhere), such a run is the
/// source's, where [`Schemes::last_url_opening`] looks for each of them.
fn last_url_syntax(text: &str, markup: Markup, schemes: &Schemes) -> Option<usize> {
    let made = markup::last_made_url_syntax(text, markup);
    if made == Some(text.len()) {
        // Nothing in the source comes later (reStructuredText).
        return made;
    }
    made.max(schemes.last_url_opening(text))
}

/// Every URL of the document `plan` reads: from the first reading of
/// the document in part that can be used, else from the whole; with what
/// the reading found left open.
fn parsed(
    plan: &markup::DocumentPlan<'_>,
    markup: Markup,
    options: &ScanOptions,
    schemes: &Schemes,
) -> (document::Placed, Option<Unclosed>) {
    let may_hold_url = |part: &str| last_url_syntax(part, markup, schemes).is_some();
    let in_part = plan
        .in_part(may_hold_url)
        .find(|document| !holds_hyphen_break(document, options));
    placed(
        in_part.unwrap_or_else(|| plan.whole()),
        markup,
        options,
        schemes,
    )
}

/// The URLs of a document, its prose scanned and its links, placed in the
/// source as they are asked for; with what it left open.
fn placed(
    document: markup::Document,
    markup: Markup,
    options: &ScanOptions,
    schemes: &Schemes,
) -> (document::Placed, Option<Unclosed>) {
    let markup::Document {
        prose,
        map,
        links,
        plain_text_blocks,
        unclosed,
        blank_starts,
    } = document;
    let in_prose = scan_prose(prose.into(), plain_text_blocks.into(), options);
    let placed = document::Placed::new(in_prose, map, links, blank_starts, markup, schemes);
    (placed, unclosed)
}

/// True when the prose of `document`, a reading in part, holds a hyphen
/// break (a URL the scanner reads another way too): its reading is
/// weighed by searching the prose around it, the parts not read included,
/// so that only the whole document reads it right. A scan of its own,
/// which keeps none of the URLs it finds, before the one that places them.
fn holds_hyphen_break(document: &markup::Document, options: &ScanOptions) -> bool {
    // Only a wrapper, which a `<` opens, and a bare URL joined with the
    // next line are read another way too; a prose's line breaks end a bare
    // URL but in its blocks of plain text. Most prose has neither, and
    // needs no scan.
    let joined = !document.plain_text_blocks.is_empty();
    if !joined && memchr::memchr(b'<', document.prose.as_bytes()).is_none() {
        return false;
    }
    let prose = Cow::Borrowed(document.prose.as_str());
    let blocks = Cow::Borrowed(document.plain_text_blocks.as_slice());
    scan_prose(prose, blocks, options).any(|found| !found.alternatives.is_empty())
}

/// The URLs of a text, found as they are asked for.
enum Urls<S> {
    /// A plain text's, scanned.
    Scanned(S),
    /// A document's, its prose scanned and its links read, placed in the
    /// source.
    Placed(Box<document::Placed>),
    /// None: nothing in the document can start one.
    Empty,
}

impl<S: Iterator<Item = Found>> Iterator for Urls<S> {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        match self {
            Urls::Scanned(urls) => urls.next(),
            Urls::Placed(urls) => urls.next(),
            Urls::Empty => None,
        }
    }
}

/// True when the validator finds the URL's host invalid: the hyphen-break
/// evidence that one reading cannot be right.
fn host_invalid_by_validator(url: &str) -> bool {
    validate(url, &ValidateOptions::default())
        .iter()
        .any(|diagnostic| diagnostic.rule == Rule::BadHost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    /// Every URL of `text` written in `markup`, read whole.
    fn read_whole(
        text: &str,
        markup: Markup,
        options: &ScanOptions,
        schemes: &Schemes,
    ) -> Vec<Found> {
        let verbatim = options.include_verbatim;
        match markup::DocumentPlan::new(text, markup, verbatim, text.len()) {
            Some(plan) => placed(plan.whole(), markup, options, schemes).0.collect(),
            None => scan(text, options).collect(),
        }
    }

    /// The URLs of a Markdown document read in part as `reading` picks
    /// from its plan (`last` being where its last URL may be), when that
    /// reading can be used.
    fn markdown_read(
        text: &str,
        options: &ScanOptions,
        schemes: &Schemes,
        last: usize,
        reading: impl FnOnce(&markup::DocumentPlan<'_>) -> Option<markup::Document>,
    ) -> Option<Vec<Found>> {
        let verbatim = options.include_verbatim;
        let plan = markup::DocumentPlan::new(text, Markup::Markdown, verbatim, last)?;
        let document = reading(&plan).filter(|document| !holds_hyphen_break(document, options))?;
        Some(
            placed(document, Markup::Markdown, options, schemes)
                .0
                .collect(),
        )
    }

    /// The URLs of a Markdown document read as far as the empty line after
    /// `last`, when that reading can be used.
    fn markdown_part(
        text: &str,
        options: &ScanOptions,
        schemes: &Schemes,
        last: usize,
    ) -> Option<Vec<Found>> {
        markdown_read(text, options, schemes, last, |plan| plan.up_to_last())
    }

    /// The URLs of a Markdown document read in the sections that may hold
    /// one, when that reading can be used.
    fn markdown_sections(
        text: &str,
        options: &ScanOptions,
        schemes: &Schemes,
        last: usize,
    ) -> Option<Vec<Found>> {
        let may_hold_url = |part: &str| last_url_syntax(part, Markup::Markdown, schemes).is_some();
        markdown_read(text, options, schemes, last, |plan| {
            plan.in_sections(may_hold_url)
        })
    }

    fn urls(text: &str) -> Vec<(Form, String)> {
        scan(text, &ScanOptions::default())
            .map(|found| (found.form, found.url))
            .collect()
    }

    #[test]
    fn appendix_forms_are_found_in_source_order() {
        let text = "A <URL:ftp://a.b/x> B <http://c.d/> C URL:news:comp.x D \
                    gopher://e.f/1 E Note: this. F <xsl:t a=\"http://g.h/\">";
        assert_eq!(
            urls(text),
            [
                (Form::Wrapped, "ftp://a.b/x".to_string()),
                (Form::Angle, "http://c.d/".to_string()),
                (Form::Prefixed, "news:comp.x".to_string()),
                (Form::Bare, "gopher://e.f/1".to_string()),
                (Form::Bare, "http://g.h/".to_string()),
            ]
        );
    }

    #[test]
    fn appendix_examples_join_and_map_back_to_the_source() {
        let text = "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n   \
                    type=d> but you can probably pick it up from <URL:ftp://ds.in\n   \
                    ternic.net/rfc>.  Note the warning in <URL:http://ds.internic.\n   \
                    net/instructions/overview.html#WARNING>.";
        let found: Vec<Found> = scan(text, &ScanOptions::default()).collect();
        let joined: Vec<&str> = found.iter().map(|f| f.url.as_str()).collect();
        assert_eq!(
            joined,
            [
                "ftp://info.cern.ch/pub/www/doc;type=d",
                "ftp://ds.internic.net/rfc",
                "http://ds.internic.net/instructions/overview.html#WARNING",
            ]
        );
        let second = &found[1];
        assert_eq!(
            &text[second.outer.range()],
            "<URL:ftp://ds.in\n   ternic.net/rfc>"
        );
        let pieces: Vec<&str> = second
            .source_spans(Span::new(6, 21))
            .iter()
            .map(|span| &text[span.range()])
            .collect();
        assert_eq!(pieces, ["ds.in", "ternic.net"]);
        assert!(found.iter().all(|f| f.diagnostics.is_empty()));
    }

    #[test]
    fn a_wrapper_hides_the_urls_inside_it() {
        assert_eq!(
            urls("<URL:http://a.b/?u=http://c.d/> http://e.f/"),
            [
                (Form::Wrapped, "http://a.b/?u=http://c.d/".to_string()),
                (Form::Bare, "http://e.f/".to_string()),
            ]
        );
    }

    #[test]
    fn appendix_invalid_host_prefers_the_hyphenless_reading() {
        fn label_ends_in_hyphen(url: &str) -> bool {
            url.contains("-.")
        }
        let text = "<URL:http://ds.internic-\n .net/>";
        let found: Vec<Found> = Scanner::new(
            text,
            &ScanOptions::default(),
            label_ends_in_hyphen,
            LineJoins::Everywhere,
        )
        .collect();
        assert_eq!(found[0].url, "http://ds.internic.net/");
        assert_eq!(found[0].alternatives[0].url, "http://ds.internic-.net/");
        assert_eq!(found[0].diagnostics[0].rule, Rule::HyphenBreak);
        let covered: String = found[0]
            .segments
            .iter()
            .map(|segment| &text[segment.source.range()])
            .collect();
        assert_eq!(covered, found[0].url);
    }

    #[test]
    fn extra_schemes_are_recognised() {
        let options = ScanOptions {
            extra_schemes: vec!["doi".to_string()],
            ..ScanOptions::default()
        };
        let found: Vec<String> = scan("see doi:10.1000/182.", &options)
            .map(|found| found.url)
            .collect();
        assert_eq!(found, ["doi:10.1000/182"]);
        assert_eq!(urls("see doi:10.1000/182."), []);
    }

    /// Every URL of `text` read as `markup`, scanned as callers do (not
    /// parsed, or parsed in part) and read whole, which must agree.
    fn skipped_and_parsed(text: &str, markup: Markup, options: &ScanOptions) -> Vec<Found> {
        let found: Vec<Found> = scan_markup(text, markup, options).collect();
        let schemes = Schemes::new(&options.extra_schemes);
        assert_eq!(
            found,
            read_whole(text, markup, options, &schemes),
            "{text:?}"
        );
        found
    }

    #[test]
    fn documents_whose_urls_a_reading_writes_or_delimits_are_parsed() {
        let options = ScanOptions::default();
        let schemes = Schemes::new(&[]);
        for (text, markup, url) in [
            // A reference or an escape writes the URL syntax.
            (
                "see http&#58;//a.example/ now",
                Markup::Markdown,
                "http://a.example/",
            ),
            (
                "<a href=\"http&#x3a;//b.example/\">b</a>",
                Markup::Html,
                "http://b.example/",
            ),
            (
                "<a href=\"http&#x3a;//b.example/\">b</a>",
                Markup::Markdown,
                "http://b.example/",
            ),
            ("&lt;URL:\nc:d&gt;", Markup::Html, "c:d"),
            ("&lt;URL:\nc:d&gt;", Markup::Markdown, "c:d"),
            (
                "[a](http\\://e.example/)",
                Markup::Markdown,
                "http://e.example/",
            ),
            ("[a](http\\:f.example)", Markup::Markdown, "http:f.example"),
            ("[a](z39\\.50:g)", Markup::Markdown, "z39.50:g"),
            ("[a](xy:\\//i.example)", Markup::Markdown, "xy://i.example"),
            // The markup delimits what the scanner alone would not take: a
            // link value needs no `/` after a known scheme, keeps its final
            // period and its quote; blanked code leaves a wrapper open.
            ("[a](http:j)", Markup::Markdown, "http:j"),
            ("[a](http://.)", Markup::Markdown, "http://."),
            ("<a href=\"https://'k\">", Markup::Html, "https://'k"),
            ("see <URL:`code` l", Markup::Markdown, "l"),
            // reStructuredText joins a URI's lines.
            (".. _m: htt\n   p:m.example", Markup::Rst, "http:m.example"),
        ] {
            assert!(
                last_url_syntax(text, markup, &schemes).is_some(),
                "{text:?}"
            );
            let found = skipped_and_parsed(text, markup, &options);
            let urls: Vec<&str> = found.iter().map(|found| found.url.as_str()).collect();
            assert_eq!(urls, [url], "{text:?}");
        }
    }

    #[test]
    fn documents_in_which_no_url_can_start_are_not_parsed() {
        let schemes = Schemes::new(&[]);
        for (text, markup) in [
            (
                "Note: at 12:30, `a::b` [x](docs/a.md) & <b>bold</b>",
                Markup::Markdown,
            ),
            (
                "Note: at 12:30, `a::b` [x](docs/a.md) & <b>bold</b>",
                Markup::Html,
            ),
            (
                "the URL: field, \\* \\_ \\` \\\\ \\[ escaped",
                Markup::Markdown,
            ),
            ("<p title=\"a:b\">key: value</p>", Markup::Html),
            // A container's HTML lines are joined after their line breaks.
            (
                "> <div>\n> <a href=\"htt\n> p:n\">n</a>\n> </div>\n",
                Markup::Markdown,
            ),
        ] {
            assert_eq!(last_url_syntax(text, markup, &schemes), None, "{text:?}");
            for include_verbatim in [false, true] {
                let options = ScanOptions {
                    include_verbatim,
                    ..ScanOptions::default()
                };
                let schemes = Schemes::new(&options.extra_schemes);
                assert_eq!(read_whole(text, markup, &options, &schemes), [], "{text:?}");
                assert_eq!(scan_markup(text, markup, &options).count(), 0);
            }
        }
    }

    #[test]
    fn a_markdown_document_is_read_as_far_as_the_empty_line_after_its_last_url() {
        let options = ScanOptions::default();
        let schemes = Schemes::new(&[]);
        let read_in_part = |text: &str| {
            let last = last_url_syntax(text, Markup::Markdown, &schemes).expect("a URL");
            markdown_part(text, &options, &schemes, last).is_some()
        };
        for (text, in_part) in [
            (
                "See http://a.example/x and\n[b](https://b.example/).\n\n# Notes\n\nplain words\n",
                true,
            ),
            // The empty line may end a line of any kind.
            ("- http://a.example/\r\n\r\n- item: done\r\n", true),
            // A container's marker makes a line not empty.
            ("> http://a.example/\n>\n> quoted\n\nafter\n", true),
            // A fenced block read past the part's end loses only later lines.
            ("```\nhttp://code.example/\n\nmore code\n```\ntext\n", true),
            // A link before the part's end may use a definition after it.
            ("[a][r] http://a.example/\n\ntext\n\n[r]: /docs\n", false),
            ("x[^1] http://a.example/\n\ntext\n\n[^1]: note\n", false),
            // An HTML block that blank lines do not end goes on past it.
            (
                "<!-- http://a.example/\n\n<a href=\"/x\">x</a> -->\ntext\n",
                false,
            ),
            (
                "<PRE>\n<a href=\"http://a.example/\"\n\ntitle=\"t\">x</a>\n</pre>\n",
                false,
            ),
            // A lone carriage return is a line break to pulldown-cmark in
            // some places only: a fence's info string runs to the `\n`.
            ("```p://e\r\r&t`", false),
            ("e\r```p://e\r\r`&r", false),
            // An HTML block that one does end reads alone as in the whole.
            (
                "<div>\n<a href=\"http://a.example/\">a</a>\n</div>\n\ntext\n",
                true,
            ),
            // So does one closed by its end on the part's last line, with
            // any line break, after an opening tag alone on its line too.
            ("See http://a.example/\n<!-- end -->\n\ntext\n", true),
            (
                "See http://a.example/\r\n<!-- end -->\r\n\r\ntext\r\n",
                true,
            ),
            ("<pre\nhttp://a.example/\n</pre>\n\ntext\n", true),
            // A hyphen break's reading is weighed against the whole prose.
            ("<URL:http://ab-\ncd.example/>\n\nabcd.example\n", false),
            // Nothing follows the empty line, or no empty line follows.
            ("http://a.example/\n\n", false),
            ("http://a.example/\ntext\n", false),
        ] {
            assert_eq!(read_in_part(text), in_part, "{text:?}");
            for include_verbatim in [false, true] {
                let options = ScanOptions {
                    include_verbatim,
                    ..ScanOptions::default()
                };
                skipped_and_parsed(text, Markup::Markdown, &options);
            }
        }
    }

    /// Lines of a reStructuredText literal block.
    const LITERAL_LINES: &[&str] = &[
        "\n",
        "    http://lit.example/a-\n",
        "    b/ and http://lit.example/c\n",
        "    d.html words\n",
        "    text http://t.example/\n",
    ];

    /// True when a scan of the prose of `document` finds a URL read
    /// another way too: what [`holds_hyphen_break`] answers, asked of
    /// every URL.
    fn reads_another_way(document: &markup::Document, options: &ScanOptions) -> bool {
        let prose = Cow::Borrowed(document.prose.as_str());
        let blocks = Cow::Borrowed(document.plain_text_blocks.as_slice());
        scan_prose(prose, blocks, options).any(|found| !found.alternatives.is_empty())
    }

    #[test]
    fn a_reading_in_part_with_a_hyphen_break_gives_way_to_the_whole() {
        let options = ScanOptions::default();
        let schemes = Schemes::new(&[]);
        for (text, hyphen_break, url) in [
            // The hyphen's reading weighs `abcd.example` in the part not read.
            (
                "# A\n\n<URL:http://ab-\ncd.example/>\n\n# B\n\nabcd.example\n",
                true,
                "http://abcd.example/",
            ),
            // A `<` that opens no wrapper, and no `<` at all.
            (
                "# A\n\na < b http://a.example/\n\n# B\n\ntext\n",
                false,
                "http://a.example/",
            ),
            (
                "# A\n\nhttp://ab-\ncd.example/\n\n# B\n\ntext\n",
                false,
                "http://ab-",
            ),
        ] {
            let last = last_url_syntax(text, Markup::Markdown, &schemes).expect("a URL");
            let plan =
                markup::DocumentPlan::new(text, Markup::Markdown, false, last).expect("a plan");
            let in_part = plan.in_part(|_| true).next().expect("a reading in part");
            assert_eq!(
                holds_hyphen_break(&in_part, &options),
                hyphen_break,
                "{text:?}"
            );
            assert_eq!(
                reads_another_way(&in_part, &options),
                hyphen_break,
                "{text:?}"
            );
            let found = skipped_and_parsed(text, Markup::Markdown, &options);
            assert_eq!(found[0].url, url, "{text:?}");
        }
    }

    #[test]
    fn typical_markdown_documents_are_read_in_sections() {
        let options = ScanOptions::default();
        let schemes = Schemes::new(&[]);
        let in_sections = |text: &str| {
            let last = last_url_syntax(text, Markup::Markdown, &schemes).expect("a URL");
            let found = markdown_sections(text, &options, &schemes, last);
            if let Some(found) = &found {
                assert_eq!(
                    found,
                    &read_whole(text, Markup::Markdown, &options, &schemes)
                );
            }
            found.is_some()
        };
        for (text, sections) in [
            (
                "# Title\n\nSee [the docs][d] and http://a.example/.\n\n## More\n\ntext\n\n\
                 [d]: https://docs.example/\n",
                true,
            ),
            (
                "```sh\ncurl http://code.example/\n\nmore\n```\n\nthen http://a.example/\n\nend\n",
                true,
            ),
            (
                "1. Install:\n\n   ```sh\n   cargo install x\n   ```\n\n2. Read http://a.example/\n\nEnd\n",
                true,
            ),
            // HTML blocks that blank lines do not end, closed by their
            // end on the run's last line.
            ("See http://a.example/\n<!-- links end -->\n\nmore\n\nend\n", true),
            ("See http://a.example/\r\n<!-- end -->\r\n\r\nmore\r\n\r\nend\r\n", true),
            ("<script\nvar u = 'http://a.example/';\n</script>\n\nmore\n\nend\n", true),
            ("<pre>\nhttp://a.example/\n\nmore\n</pre>\n\ntext\n\nend\n", true),
            // Footnotes: their references are resolved without a callback,
            // which matters only to a run that holds one.
            ("A note[^1] on http://a.example/\n\ntext\n\n[^1]: see http://b.example/\n", false),
            ("A note[^1] here\n\ntext http://a.example/\n\nend\n\n[^1]: a note\n", true),
            // A fence that may close only as a list item's.
            ("- item\n  ```\n      ```\n\nhttp://a.example/\n\nend\n", false),
        ] {
            assert_eq!(in_sections(text), sections, "{text:?}");
        }
        // More references times the longest definition than pulldown-cmark
        // expands: the whole document and a run may stop at different ones.
        let long = format!("[a]: http://a.example/{}\n\n", "x".repeat(200));
        let references = "[a] ".repeat(600);
        let text = format!("{long}{references}http://b.example/\n\nend\n");
        assert!(!in_sections(&text));
        let few = format!("{long}{}http://b.example/\n\nend\n", "[a] ".repeat(100));
        assert!(in_sections(&few));
    }

    /// Pieces of generated documents: characters of Markdown's and HTML's
    /// syntax and of URLs; words that make schemes, wrappers, tags, links
    /// and block markers; now and then a reference or an escape.
    fn document_piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        use proptest::sample::select;
        const CHARACTERS: &str = ":/<>[]()&#\\*_~`\"'=.-+|!; \n\r\tahlpstxLRU";
        const WORDS: &[&str] = &[
            "http",
            "URL",
            "URL:",
            "ftp",
            "mailto",
            "doi",
            "z39.50",
            "x.example",
            "x:",
            "://",
            "//",
            "<URL:",
            "<a href=\"",
            "\">",
            "</a>",
            "<div>",
            "<!-- ",
            " -->",
            "<pre>\n",
            "</pre>\n",
            "> ",
            "- ",
            "1. ",
            "```\n",
            "\n\n",
            "    ",
            "[r]: ",
            "[r]",
            "](",
            "![i](",
            "|-|",
        ];
        const DECODED: &[&str] = &[
            "&#58;",
            "&#x2f;",
            "&lt;",
            "&amp;",
            "&colon;",
            "&sol;&sol;",
            "&period;",
            "&ltURL:",
            "&mut ",
            "&nbsp;",
            "http&#58;",
            "\\:",
            "\\/",
            "\\.",
            "\\<",
            "\\*",
            "z39\\.50:",
        ];
        prop_oneof![
            12 => select(CHARACTERS.chars().collect::<Vec<_>>()).prop_map(String::from),
            6 => select(WORDS).prop_map(str::to_string),
            1 => select(DECODED).prop_map(str::to_string),
        ]
    }

    /// `text` with each `:` that may end a scheme made a `;`, which is not
    /// URL syntax: no other `:` changes its part.
    fn colons_defused(text: &str, schemes: &Schemes) -> String {
        text.char_indices()
            .map(|(at, c)| match c {
                ':' if schemes.may_end_scheme(text, at) => ';',
                _ => c,
            })
            .collect()
    }

    /// `text` with the `&` of each reference made a `%` and the `\` of each
    /// escape of URL syntax a `|`, neither of them URL syntax.
    fn decoding_defused(text: &str) -> String {
        let bytes = text.as_bytes();
        text.char_indices()
            .map(|(at, c)| {
                let next = bytes.get(at + 1).copied().unwrap_or(b' ');
                match c {
                    '&' if next == b'#' || next.is_ascii_alphanumeric() => '%',
                    '\\' if b"+-.:/<".contains(&next) => '|',
                    _ => c,
                }
            })
            .collect()
    }

    /// Whole lines of generated Markdown documents: mostly prose with
    /// URLs in text, code and links, and blank lines; then the blocks that
    /// go on past blank lines (fences, HTML of kinds 1 to 5, lists, quotes)
    /// and what may claim or end them; reference definitions and links
    /// that use them; now and then a lone carriage return.
    fn markdown_line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        use proptest::sample::select;
        const BLANK: &[&str] = &["", "", "  ", "\t", "\u{c}"];
        const PROSE: &[&str] = &[
            "text http://a.example/x",
            "see <http://b.example/> and [l](http://c.example/)",
            "`http://code.example/` words",
            "<URL:http://w.example/a-",
            "b/c>",
            "plain words: here",
            "more plain words, `&t` and &mut self",
            "[x] and [x][] http://ref.example/",
            "# head http://j.example/",
            "    indented http://i.example/",
        ];
        const BLOCKS: &[&str] = &[
            "```",
            "````",
            "~~~",
            "``` rust",
            "```a`b",
            "  ```",
            "   ~~~  ",
            "    ```",
            "- ```",
            "> ```",
            "\t```",
            "<!--",
            "-->",
            "<!-->",
            "<!-- x --> http://after.example/",
            "<pre>",
            "<pre",
            "</pre>",
            "</PRE>",
            "<script src=\"http://s.example/\">",
            "</script>",
            "<?x",
            "?>",
            "<!DOCTYPE x",
            ">",
            "<![CDATA[",
            "]]>",
            "<div>",
            "</div>",
            "<a href=\"http://h.example/\">",
            "<span>x",
        ];
        const CONTAINERS: &[&str] = &[
            "- item http://li.example/",
            "* item",
            "1. item",
            "2) item",
            "-",
            "  - nested",
            "  continued http://cont.example/",
            "  item code http://item-code.example/",
            "      ```",
            "   ```",
            "> quote http://q.example/",
            ">",
            "| a | http://t.example/ |",
            "|---|---|",
            "a | b",
            "===",
            "---",
            "***",
            "[^1]",
        ];
        const DEFINITIONS: &[&str] = &[
            "`&t`",
            "[x]: http://def.example/",
            "[x]:\u{c} http://ff.example/",
            "> [y]:\u{b} http://quoted.example/",
            "[X]: /relative",
            "[y]: <http://y.example/> \"title\"",
            "[y]: /later-duplicate",
            "  [z]:",
            "  /z-on-the-next-line",
            "[http://in.label.example/]",
            "[text](http://inline.example/) [y] [http://in.text.example/][x]",
            "[^1]: a footnote",
            "[^1]: http://fn-def.example/ a footnote",
            "see[^1](http://fn-paren.example/) and http://fn.example/[^1]",
        ];
        let line = prop_oneof![
            8 => select(BLANK),
            10 => select(PROSE),
            3 => select(BLOCKS),
            3 => select(CONTAINERS),
            2 => select(DEFINITIONS),
            1 => Just("lone\r"),
        ];
        let end = prop_oneof![6 => Just("\n"), 2 => Just("\r\n"), 1 => Just("\r")];
        (line, end).prop_map(|(line, end)| format!("{line}{end}"))
    }

    /// Lines of documents that break lines with a lone `\r` too: fences,
    /// code spans and HTML comments, with URLs (`with_urls`) or without URL
    /// syntax.
    fn lone_carriage_return_line(
        with_urls: bool,
    ) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        use proptest::sample::select;
        const LINES: &[&str] = &["```", "~~~ x", "`", "`&t`", "text", "", "<!--"];
        const URLS: &[&str] = &["```http://a.example/", "[l](http://c.example/)"];
        let line = if with_urls {
            prop_oneof![select(LINES), select(URLS)].boxed()
        } else {
            select(LINES).boxed()
        };
        let end = prop_oneof![3 => Just("\r"), 1 => Just("\n"), 1 => Just("\r\n")];
        (line, end).prop_map(|(line, end)| format!("{line}{end}"))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

        #[test]
        fn a_document_not_parsed_has_no_url_a_parse_would_find(
            pieces in proptest::collection::vec(document_piece(), 0..80),
            html: bool,
            include_verbatim: bool,
        ) {
            let text = pieces.concat();
            let markup = if html { Markup::Html } else { Markup::Markdown };
            let options = ScanOptions {
                extra_schemes: vec!["doi".to_string()],
                include_verbatim,
                no_templates: false,
            };
            let schemes = Schemes::new(&options.extra_schemes);
            skipped_and_parsed(&text, markup, &options);
            // Near misses: what is left once the source's own scheme
            // colons are gone, and then its references and escapes.
            let colons = colons_defused(&text, &schemes);
            skipped_and_parsed(&colons, markup, &options);
            let quiet = decoding_defused(&colons);
            proptest::prop_assert_eq!(last_url_syntax(&quiet, markup, &schemes), None, "{:?}", quiet);
            proptest::prop_assert_eq!(skipped_and_parsed(&quiet, markup, &options), []);
        }

        #[test]
        fn a_markdown_document_read_in_part_reads_as_read_whole(
            head in proptest::collection::vec(document_piece(), 0..80),
            tail in proptest::collection::vec(document_piece(), 0..80),
            include_verbatim: bool,
        ) {
            // A tail in which no URL can start, after an empty line: read
            // in part unless the head leaves something open.
            let options = ScanOptions {
                extra_schemes: vec!["doi".to_string()],
                include_verbatim,
                no_templates: false,
            };
            let schemes = Schemes::new(&options.extra_schemes);
            let tail = decoding_defused(&colons_defused(&tail.concat(), &schemes));
            let text = format!("{}\n\n{}", head.concat(), tail);
            skipped_and_parsed(&text, Markup::Markdown, &options);
        }

        #[test]
        fn a_markdown_document_with_lone_carriage_returns_reads_as_read_whole(
            head in proptest::collection::vec(lone_carriage_return_line(true), 0..8),
            tail in proptest::collection::vec(lone_carriage_return_line(false), 0..8),
        ) {
            // pulldown-cmark takes a lone `\r` for a line break in some
            // places only (a fence's info string runs to the `\n`): no
            // part of such a document is read alone. The tail holds no URL
            // syntax, so that a part may end before it.
            let text = format!("{}{}", head.concat(), tail.concat());
            skipped_and_parsed(&text, Markup::Markdown, &ScanOptions::default());
        }

        #[test]
        fn a_markdown_document_read_in_sections_reads_as_read_whole(
            lines in proptest::collection::vec(markdown_line(), 0..60),
            include_verbatim: bool,
        ) {
            let options = ScanOptions {
                include_verbatim,
                ..ScanOptions::default()
            };
            skipped_and_parsed(&lines.concat(), Markup::Markdown, &options);
        }

        #[test]
        fn prose_without_a_wrapper_or_a_join_is_not_scanned_for_hyphen_breaks(
            pieces in proptest::collection::vec(document_piece(), 0..80),
            lines in proptest::collection::vec(markdown_line(), 0..40),
            literal in proptest::collection::vec(proptest::sample::select(LITERAL_LINES), 0..12),
            include_verbatim: bool,
        ) {
            // A reStructuredText literal block, read verbatim, joins bare
            // URLs over its lines.
            let text = format!(
                "{}\n\n{}\n\nA literal block::\n\n{}",
                pieces.concat(),
                lines.concat(),
                literal.concat()
            );
            for markup in [Markup::Markdown, Markup::Html, Markup::Rst] {
                let plan = markup::DocumentPlan::new(&text, markup, include_verbatim, text.len())
                    .expect("a markup");
                let options = ScanOptions { include_verbatim, ..ScanOptions::default() };
                for document in std::iter::once(plan.whole()).chain(plan.in_part(|_| true)) {
                    proptest::prop_assert_eq!(
                        holds_hyphen_break(&document, &options),
                        reads_another_way(&document, &options),
                        "{:?} {:?}", markup, text
                    );
                }
            }
        }
    }
}
