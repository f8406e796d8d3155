//! Invariants of the scanner on generated input: wrapped URLs broken at any
//! line positions come back exactly; on any input the scanner never panics,
//! returns URLs in order without overlaps, and every span lies on char
//! boundaries inside the source.

use proptest::prelude::*;
use urlint::{scan, Form, Found, ScanOptions, Span};

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
            |span: Span| text.is_char_boundary(span.start) && text.is_char_boundary(span.end);
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
            assert!(on_boundaries(diagnostic.span) && diagnostic.span.end <= text.len());
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
