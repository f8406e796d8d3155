//! The corpus promises that the benchmark figures rely on: exact sizes,
//! determinism, and the densities and shapes each kind is named for.

use super::pathological::{
    COLON_LINE, HYPHEN_BREAK_SPACING, LINE_BREAK_SPACING, PAREN_DEPTH, UNTERMINATED_PER_BLOCK,
};
use super::*;

/// Scheme prefixes the generator writes; counting them counts URLs.
const SCHEMES: &[&str] = &[
    "http:", "https:", "ftp:", "mailto:", "news:", "gopher:", "telnet:", "wais:",
];

fn url_count(text: &str) -> usize {
    SCHEMES
        .iter()
        .map(|scheme| text.matches(scheme).count())
        .sum()
}

#[test]
fn every_kind_has_exactly_the_requested_size() {
    for kind in Kind::all() {
        for size in [0, 1, 999, 100_003, 1_200_000] {
            assert_eq!(
                generate(kind, size, DEFAULT_SEED).len(),
                size,
                "{}",
                kind.name()
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_corpus_and_another_seed_another() {
    for kind in [Kind::Prose, Kind::Rfc, Kind::Dense, Kind::Unterminated] {
        let first = generate(kind, 50_000, 42);
        assert_eq!(first, generate(kind, 50_000, 42), "{}", kind.name());
        assert_ne!(first, generate(kind, 50_000, 43), "{}", kind.name());
    }
}

#[test]
fn streamed_pieces_concatenate_to_the_generated_text() {
    let mut pieces = Vec::new();
    let streamed: Result<(), ()> = stream(Kind::Prose, 3_500_000, 9, |piece| {
        pieces.push(piece.to_owned());
        Ok(())
    });
    assert_eq!(streamed, Ok(()));
    assert!(pieces.len() >= 3, "{} pieces", pieces.len());
    assert!(pieces.iter().all(|piece| piece.len() <= 2 * PIECE));
    assert_eq!(pieces.concat(), generate(Kind::Prose, 3_500_000, 9));
}

#[test]
fn a_failing_sink_stops_the_stream() {
    let mut calls = 0;
    let result = stream(Kind::Dense, 5_000_000, 1, |_| {
        calls += 1;
        Err("disk full")
    });
    assert_eq!((result, calls), (Err("disk full"), 1));
}

#[test]
fn truncation_never_splits_a_character() {
    let mut text = String::from("ab\u{fc}cd");
    truncate_exactly(&mut text, 3);
    assert_eq!(text, "ab ");
}

#[test]
fn prose_has_one_url_per_one_to_two_kilobytes_and_some_non_ascii() {
    let text = generate(Kind::Prose, 1_000_000, DEFAULT_SEED);
    let per_kb = url_count(&text) as f64 / 1_000.0;
    assert!((0.45..=1.0).contains(&per_kb), "{per_kb} URLs per KB");
    assert!(!text.is_ascii());
    assert!(text.lines().all(|line| line.len() < 200));
}

#[test]
fn long_line_is_prose_without_a_line_break() {
    let text = generate(Kind::LongLine, 1_000_000, DEFAULT_SEED);
    assert!(!text.contains('\n'));
    assert!(url_count(&text) > 400);
}

#[test]
fn rfc1738_appendix_rfc_text_wraps_references_after_slash_hyphen_and_prefix() {
    let text = generate(Kind::Rfc, 1_000_000, DEFAULT_SEED);
    let references = text.matches("<URL:").count();
    assert!(
        (1_000..=2_500).contains(&references),
        "{references} references"
    );
    assert!(text.contains("<URL:\n"), "break after the prefix");
    let broken_lines: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("<URL:") && !line.contains('>'))
        .collect();
    assert!(
        broken_lines.iter().any(|line| line.ends_with('-')),
        "break after a hyphen"
    );
    assert!(
        broken_lines.iter().any(|line| line.ends_with('/')),
        "break after a slash"
    );
    assert!(
        text.contains("\n\t") && text.contains("\n      "),
        "continuation indents"
    );
}

#[test]
fn dense_text_has_a_url_every_fifty_bytes() {
    let text = generate(Kind::Dense, 1_000_000, DEFAULT_SEED);
    let bytes_per_url = 1_000_000 / url_count(&text).max(1);
    assert!(
        (40..=60).contains(&bytes_per_url),
        "{bytes_per_url} bytes per URL"
    );
}

#[test]
fn colons_come_in_lines_of_one_hundred_thousand() {
    let text = generate(Kind::Colons, 1_000_000, DEFAULT_SEED);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|line| line.len() == COLON_LINE && line.bytes().all(|b| b == b':')));
}

#[test]
fn unterminated_wrappers_are_never_closed() {
    let text = generate(Kind::Unterminated, 1_000_000, DEFAULT_SEED);
    assert!(!text.contains('>'));
    assert!(text.matches("<URL:").count() >= UNTERMINATED_PER_BLOCK);
}

#[test]
fn angles_hold_many_brackets_and_no_url() {
    let text = generate(Kind::Angles, 1_000_000, DEFAULT_SEED);
    assert_eq!(url_count(&text), 0);
    assert!(text.matches('<').count() > 100_000);
}

#[test]
fn parens_nest_thousands_deep_around_urls() {
    let text = generate(Kind::Parens, 1_000_000, DEFAULT_SEED);
    let open_run = "(".repeat(PAREN_DEPTH);
    assert!(text.contains(&format!("{open_run}http://")));
    assert!(url_count(&text) > 10);
}

#[test]
fn hyphen_breaks_come_one_per_spacing_and_never_unbroken() {
    let text = generate(Kind::HyphenBreaks, 1_000_000, DEFAULT_SEED);
    let breaks: Vec<usize> = text.match_indices("-\n ").map(|(at, _)| at).collect();
    assert_eq!(breaks.len(), 1_000_000 / HYPHEN_BREAK_SPACING + 1);
    assert!(breaks
        .windows(2)
        .all(|pair| pair[1] - pair[0] == HYPHEN_BREAK_SPACING));
    assert!(!text.contains("eeeeeeeeee-eeeeeeeeeex"));
    assert!(!text.contains("eeeeeeeeeeeeeeeeeeeex"));
}

#[test]
fn line_breaks_come_one_per_spacing_at_the_margin() {
    let text = generate(Kind::LineBreaks, 1_000_000, DEFAULT_SEED);
    let breaks: Vec<usize> = text
        .match_indices("fffff\n   ffffff_")
        .map(|(at, _)| at)
        .collect();
    assert_eq!(breaks.len(), 1_000_000 / LINE_BREAK_SPACING + 1);
    assert!(breaks
        .windows(2)
        .all(|pair| pair[1] - pair[0] == LINE_BREAK_SPACING));
    assert!(text
        .lines()
        .filter(|line| line.starts_with("   ffffffffff f"))
        .all(|line| line.len() == 72));
}

#[test]
fn kinds_round_trip_through_their_names() {
    for kind in Kind::all() {
        assert_eq!(Kind::parse(kind.name()), Ok(kind));
    }
    assert!(Kind::parse("poetry").is_err());
    assert_eq!(Kind::pathological().count(), 10);
}

#[test]
fn an_unsafe_run_is_one_url_as_long_as_the_corpus() {
    let text = generate(Kind::UnsafeRun, 300_000, DEFAULT_SEED);
    assert_eq!(text.len(), 300_000);
    assert!(text.starts_with("see http://a.example/||||"));
    assert!(!text.contains('\n'));
    assert_eq!(text.trim_end().matches("http://").count(), 1);
}

#[test]
fn a_brace_run_and_a_host_of_placeholders_are_one_url_each() {
    let text = generate(Kind::BraceRun, 300_000, DEFAULT_SEED);
    assert_eq!(text.len(), 300_000);
    assert!(text.starts_with("see http://a.example/${${"));
    assert!(!text.contains('\n'));
    assert_eq!(text.trim_end().matches("http://").count(), 1);
    let text = generate(Kind::HostPlaceholders, 300_000, DEFAULT_SEED);
    assert_eq!(text.len(), 300_000);
    assert!(text.starts_with("see http://{a}{a}"));
    assert!(!text.contains('\n'));
    assert_eq!(text.trim_end().matches("http://").count(), 1);
}
