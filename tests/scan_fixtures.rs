//! The scanner on excerpts of RFC 1738 and the 1994 URI draft: every URL the
//! text holds, joined exactly, in order (see fixtures/scan/README.md).

use std::path::PathBuf;

use urlint::{scan, Form, Found, Rule, ScanOptions};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/scan")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Scan `name`.txt and compare with `name`.expected ("form url" per line).
fn assert_matches_expectations(name: &str) -> Vec<Found> {
    let text = fixture(&format!("{name}.txt"));
    let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
    let got: Vec<String> = found
        .iter()
        .map(|f| format!("{} {}", f.form.as_str(), f.url))
        .collect();
    let expected: Vec<String> = fixture(&format!("{name}.expected"))
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(got, expected, "{name}");
    for f in &found {
        let joined: String = f.segments.iter().map(|s| &text[s.source.range()]).collect();
        assert_eq!(joined, f.url, "{name}: segments of {}", f.url);
    }
    found
}

fn rules(found: &Found) -> Vec<Rule> {
    found.diagnostics.iter().map(|d| d.rule).collect()
}

#[test]
fn appendix_rfc1738_every_wrapped_url() {
    let found = assert_matches_expectations("rfc1738-wrapped");
    assert_eq!(found.len(), 30);
    assert!(found
        .iter()
        .all(|f| f.form == Form::Wrapped && f.diagnostics.is_empty()));
}

#[test]
fn appendix_rfc1738_with_line_number_gutters() {
    let found = assert_matches_expectations("rfc1738-gutter");
    assert!(found.iter().all(|f| f.diagnostics.is_empty()));
}

#[test]
fn appendix_uri_draft_bare_and_angle_urls() {
    let found = assert_matches_expectations("www-uri-draft");
    let gopher = found
        .iter()
        .find(|f| f.url.starts_with("gopher:"))
        .expect("gopher reference");
    assert_eq!(rules(gopher), [Rule::SpaceInWrapper, Rule::SpaceInWrapper]);
    assert!(found
        .iter()
        .filter(|f| !f.url.starts_with("gopher:"))
        .all(|f| f.diagnostics.is_empty()));
}

#[test]
fn appendix_uri_draft_with_gutters_and_no_break_spaces() {
    let text = fixture("www-uri-draft-gutter-nbsp.txt");
    let found = assert_matches_expectations("www-uri-draft-gutter-nbsp");
    let spaces: Vec<&str> = found[1]
        .diagnostics
        .iter()
        .map(|d| &text[d.span.range()])
        .collect();
    assert_eq!(spaces, ["\u{A0}", "\u{A0}"]);
}

#[test]
fn appendix_a_paginated_draft_joins_across_lines_and_pages() {
    let found = assert_matches_expectations("paginated-draft");
    let joined: Vec<&str> = found
        .iter()
        .filter(|f| rules(f).contains(&Rule::BrokenBareUrl))
        .map(|f| f.url.as_str())
        .collect();
    assert_eq!(joined.len(), 5, "{joined:?}");
    // Across the first page break: the wrapper, its pieces on two pages.
    let wrapped = found
        .iter()
        .find(|f| f.form == Form::Wrapped)
        .expect("the wrapper");
    assert!(wrapped.diagnostics.is_empty(), "{:?}", wrapped.diagnostics);
    assert_eq!(wrapped.segments.len(), 3);
    // Left alone: the complete URL before prose and the table's rows.
    for left in [
        "http://www.harbour.example/",
        "http://feeds.harbour.example/north/",
        "http://www.harbour.example/tides/",
    ] {
        let url = found.iter().find(|f| f.url == left).expect(left);
        assert!(
            url.diagnostics.is_empty() && url.alternatives.is_empty(),
            "{left}"
        );
    }
}
