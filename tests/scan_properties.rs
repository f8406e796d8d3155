//! Invariants of the scanner on generated input: wrapped URLs broken at any
//! line positions come back exactly; on any input the scanner never panics,
//! returns URLs in order without overlaps, and every span lies on char
//! boundaries inside the source.

use proptest::prelude::*;
use urlint::{scan, Form, Found, ScanOptions, SourceSpan};

/// A URL without whitespace, `<` or `>` (so the wrapper's end is its own).
fn url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["http", "ftp", "gopher", "x-new", "z39.50"]),
        "[a-z0-9][a-z0-9.-]{0,20}",
        prop::collection::vec("[A-Za-z0-9._~%;=?&#+$!*'(),@:-]{0,12}", 0..5),
    )
        .prop_map(|(scheme, host, path)| format!("{scheme}://{host}/{}", path.join("/")))
}

/// What starts every line: a mail quote, a comment leader, a gutter or nothing.
#[derive(Debug, Clone)]
enum LineLeader {
    Plain,
    Quote(&'static str),
    Comment(&'static str),
    Gutter(u32),
}

impl LineLeader {
    fn text(&self, line: u32) -> String {
        match self {
            LineLeader::Plain => String::new(),
            LineLeader::Quote(marker) | LineLeader::Comment(marker) => (*marker).to_string(),
            LineLeader::Gutter(first) => format!("{:>5}. ", first + line),
        }
    }
}

fn leader() -> impl Strategy<Value = LineLeader> {
    prop_oneof![
        Just(LineLeader::Plain),
        prop::sample::select(vec!["> ", ">> ", ">", "> > "]).prop_map(LineLeader::Quote),
        prop::sample::select(vec!["# ", "// ", " * ", "-- "]).prop_map(LineLeader::Comment),
        (1u32..100_000).prop_map(LineLeader::Gutter),
    ]
}

/// Indentation and trailing whitespace: spaces, tabs and Unicode spaces.
fn padding() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![" ", "\t", "\u{A0}", "\u{2003}"]),
        0..4,
    )
    .prop_map(|pieces| pieces.concat())
}

/// Cut `url` at `cuts` (byte positions), never right after a hyphen and
/// never so that a piece is empty.
fn pieces(url: &str, cuts: &[usize]) -> Vec<String> {
    let mut positions: Vec<usize> = cuts
        .iter()
        .map(|&c| 1 + c % (url.len() - 1))
        .filter(|&p| url.as_bytes()[p - 1] != b'-')
        .collect();
    positions.sort_unstable();
    positions.dedup();
    let mut start = 0;
    let mut out = Vec::new();
    for p in positions.into_iter().chain([url.len()]) {
        out.push(url[start..p].to_string());
        start = p;
    }
    out
}

/// Check what must hold for every scan of `text`.
fn assert_invariants(text: &str, found: &[Found]) {
    let mut previous_end = 0;
    for f in found {
        assert!(f.outer.start >= previous_end, "overlap at {:?}", f.outer);
        assert!(f.outer.start < f.outer.end && f.outer.end <= text.len());
        previous_end = f.outer.end;
        let on_boundaries =
            |span: SourceSpan| text.is_char_boundary(span.start) && text.is_char_boundary(span.end);
        assert!(on_boundaries(f.outer));
        let mut joined = String::new();
        for segment in &f.segments {
            assert!(on_boundaries(segment.source), "{:?}", segment);
            assert!(f.outer.start <= segment.source.start && segment.source.end <= f.outer.end);
            assert_eq!(segment.url_start, joined.len());
            joined.push_str(&text[segment.source.range()]);
        }
        assert_eq!(joined, f.url);
        for diagnostic in &f.diagnostics {
            assert!(on_boundaries(diagnostic.span.of()) && diagnostic.span.end <= text.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn appendix_broken_wrapped_url_is_joined_back(
        url in url(),
        cuts in prop::collection::vec(any::<usize>(), 0..4),
        leader in leader(),
        indents in prop::collection::vec(padding(), 5),
        trailing in prop::collection::vec(padding(), 5),
        crlf in any::<bool>(),
    ) {
        let newline = if crlf { "\r\n" } else { "\n" };
        let mut text = format!("{}see <URL:", leader.text(0));
        for (line, piece) in pieces(&url, &cuts).iter().enumerate() {
            if line > 0 {
                text.push_str(&trailing[line]);
                text.push_str(newline);
                text.push_str(&leader.text(line as u32));
                text.push_str(&indents[line]);
            }
            text.push_str(piece);
        }
        text.push_str("> and more.");
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
        prop_assert_eq!(found.len(), 1, "{:?}", text);
        prop_assert_eq!(&found[0].url, &url, "{:?}", text);
        prop_assert_eq!(found[0].form, Form::Wrapped);
        prop_assert!(found[0].diagnostics.is_empty(), "{:?}", found[0].diagnostics);
    }

    #[test]
    fn appendix_break_after_a_hyphen_offers_both_readings(
        head in url(),
        tail in "[a-z0-9/.]{1,12}",
        indent in padding(),
    ) {
        let kept = format!("{head}-{tail}");
        let dropped = format!("{head}{tail}");
        let text = format!("<URL:{head}-\n{indent}{tail}>");
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
        prop_assert_eq!(found.len(), 1);
        let readings = [found[0].url.clone(), found[0].alternatives[0].url.clone()];
        prop_assert!(readings == [kept.clone(), dropped.clone()] || readings == [dropped, kept]);
        let hyphens: Vec<&str> = found[0].diagnostics.iter().map(|d| &text[d.span.range()]).collect();
        prop_assert_eq!(hyphens, ["-"]);
    }

    #[test]
    fn scanning_any_text_keeps_the_invariants(
        text in prop::collection::vec(
            prop::sample::select(vec![
                "<", ">", "URL:", "url:", "<URL:", "http", "ftp:", "://", ":", "/", "-", ".", ",",
                "(", ")", "[", "]", "\"", "'", " ", "\t", "\n", "\r\n", "\r", "\u{A0}", "\u{3000}",
                "> ", "# ", "  12. ", "a", "Z", "9", "é", "什么", "😀", "%", "#",
            ]),
            0..80,
        ).prop_map(|pieces| pieces.concat())
    ) {
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
    }

    #[test]
    fn scanning_arbitrary_unicode_keeps_the_invariants(text in any::<String>()) {
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
    }
}

/// The right margin of the paginated documents below.
const MARGIN: usize = 72;

/// A prose line of exactly [`MARGIN`] columns, indented three.
fn prose_line(words: &str) -> String {
    let mut line = String::from("  ");
    while line.len() < MARGIN {
        line.push(' ');
        line.push_str(words);
    }
    line.truncate(MARGIN);
    line.replace_range(MARGIN - 1.., "x");
    line
}

/// The furniture between page `page` and the next: blank lines, the
/// footer, a form feed, the running header and blank lines.
fn page_break(page: usize, newline: &str) -> String {
    format!(
        "{newline}{newline}{newline}Author                   Standards Track                    [Page {page}]\
         {newline}\u{c}{newline}RFC 9876                  Example Title                   March 2011\
         {newline}{newline}"
    )
}

/// A paginated document of three pages whose text is `lines` between
/// prose lines; with `across_page`, a page break after the first of them.
fn paginated(lines: &[String], across_page: bool, newline: &str) -> String {
    let mut text = String::new();
    for _ in 0..4 {
        text.push_str(&prose_line("filler words here"));
        text.push_str(newline);
    }
    for (index, line) in lines.iter().enumerate() {
        text.push_str(line);
        text.push_str(newline);
        if index == 0 && across_page {
            text.push_str(&page_break(1, newline));
        }
    }
    if !across_page {
        text.push_str(&page_break(1, newline));
    }
    for page in 2..=3 {
        for _ in 0..4 {
            text.push_str(&prose_line("more words there"));
            text.push_str(newline);
        }
        text.push_str(&page_break(page, newline));
    }
    text
}

/// URLs without hyphens (a hyphen at a break is its own property) and
/// without runs of dots, ending with a query: whatever column cuts them,
/// one of the join's rules holds.
fn unhyphenated_url() -> impl Strategy<Value = String> {
    (
        "[a-z][a-z0-9]{1,8}(\\.[a-z][a-z0-9]{1,5}){1,2}",
        prop::collection::vec("[a-z0-9_]{1,7}(\\.[a-z0-9]{1,4})?", 1..4),
        "[a-z]{1,5}",
        "[0-9]",
    )
        .prop_map(|(host, path, key, value)| {
            format!("http://{host}/{}?{key}={value}", path.join("/"))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn appendix_a_bare_url_wrapped_at_any_column_of_a_paginated_document_comes_back_whole(
        url in unhyphenated_url(),
        cut in any::<prop::sample::Index>(),
        across_page in any::<bool>(),
        crlf in any::<bool>(),
    ) {
        // The line is filled to the margin, as a typesetter or a mailer
        // leaves a line it breaks a URL on; the cut falls anywhere after
        // `http://`.
        let at = "http://".len() + cut.index(url.len() - "http://".len());
        let (head, tail) = url.split_at(at);
        prop_assume!(!tail.is_empty() && 3 + head.len() <= MARGIN);
        let room = MARGIN - 3 - head.len();
        let first = match room {
            0..=1 => format!("   {head}"),
            _ => format!("   {} {head}", "x".repeat(room - 1)),
        };
        let newline = if crlf { "\r\n" } else { "\n" };
        let lines = [first, format!("   {tail} and so on.")];
        let text = paginated(&lines, across_page, newline);
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
        prop_assert_eq!(found.len(), 1, "{:?}", text);
        prop_assert_eq!(&found[0].url, &url, "{:?}", text);
        prop_assert_eq!(found[0].form, Form::Bare);
        let pieces: Vec<&str> = found[0].segments.iter().map(|s| &text[s.source.range()]).collect();
        prop_assert_eq!(pieces, [head, tail]);
        prop_assert!(head.starts_with(&found[0].alternatives[0].url));
        let rules: Vec<&str> = found[0].diagnostics.iter().map(|d| d.rule.info().name).collect();
        prop_assert_eq!(rules, ["broken-bare-url"]);
    }

    #[test]
    fn appendix_a_wrapped_url_across_a_page_break_comes_back_whole(
        url in url(),
        cut in any::<prop::sample::Index>(),
        crlf in any::<bool>(),
    ) {
        // Never right after a hyphen: that break is a property of its own.
        let first = 1 + cut.index(url.len() - 1);
        let at = (first..url.len()).chain(1..first).find(|&at| !url[..at].ends_with('-'));
        prop_assume!(at.is_some());
        let (head, tail) = url.split_at(at.unwrap_or(1));
        let newline = if crlf { "\r\n" } else { "\n" };
        let lines = [format!("   see <URL:{head}"), format!("   {tail}> and so on.")];
        let text = paginated(&lines, true, newline);
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
        prop_assert_eq!(found.len(), 1, "{:?}", text);
        prop_assert_eq!(&found[0].url, &url);
        prop_assert_eq!(found[0].form, Form::Wrapped);
        prop_assert!(found[0].diagnostics.is_empty(), "{:?}", found[0].diagnostics);
        let pieces: Vec<&str> = found[0].segments.iter().map(|s| &text[s.source.range()]).collect();
        prop_assert_eq!(pieces, [head, tail]);
    }

    #[test]
    fn appendix_a_hyphen_at_a_joined_bare_break_offers_both_readings(
        head in unhyphenated_url(),
        tail in "[a-z0-9]{2,8}(/[a-z0-9]{1,6})?",
    ) {
        let kept = format!("{head}-{tail}");
        let dropped = format!("{head}{tail}");
        let text = format!("   see {head}-\n   {tail} and so on.\n");
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
        prop_assert_eq!(found.len(), 1, "{:?}", text);
        let hyphen_reading = found[0].alternatives[1].url.clone();
        let readings = [found[0].url.clone(), hyphen_reading];
        prop_assert!(readings == [kept.clone(), dropped.clone()] || readings == [dropped, kept]);
        let rules: Vec<&str> = found[0].diagnostics.iter().map(|d| d.rule.info().name).collect();
        prop_assert_eq!(rules, ["broken-bare-url", "hyphen-break"]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_complete_url_before_a_line_of_prose_is_not_joined(
        host in "[a-z]{2,8}\\.(example|org|net)",
        path in "(/[a-z0-9]{1,8}){0,3}(/|\\.html)?",
        end in prop::sample::select(vec!["", ".", ",", ":"]),
        first in "[a-z]{2,6}",
        separator in prop::sample::select(vec![".", "/", "_"]),
        second in "[a-z]{2,6}",
        prose in "( [a-z]{2,7}){1,5}\\.",
    ) {
        // Text set to the margin; the URL's line stops well short of it,
        // and the next line is a sentence whose first word holds a dot,
        // a slash or an underscore (`config.toml holds`, `and/or the`).
        let url = format!("http://{host}{path}");
        // Short of it by more than the next line's first word: the line was
        // not broken for want of room (a full line is joined at the margin).
        let line = format!("   see {url}{end}");
        let word = first.len() + separator.len() + second.len();
        prop_assume!(line.len() + 1 + word <= 72);
        let text = format!(
            "{}\n{}\n   see {url}{end}\n   {first}{separator}{second}{prose}\n",
            prose_line("filler words here"),
            prose_line("more words there"),
        );
        let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
        assert_invariants(&text, &found);
        prop_assert_eq!(found.len(), 1, "{:?}", text);
        prop_assert!(found[0].joins.is_empty(), "{:?} -> {:?}", text, found[0].url);
    }
}
