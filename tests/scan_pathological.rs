//! Hostile input (DESIGN section 7): each case must finish, without panic
//! and with the URLs that are there. Nothing is timed here; the point is
//! that none of these shapes makes the scanner revisit the text.

use urlint::{scan, Form, Found, Rule, ScanOptions};

fn scan_all(text: &str) -> Vec<Found> {
    scan(text, &ScanOptions::default()).collect()
}

#[test]
fn a_line_of_colons_holds_no_url() {
    assert!(scan_all(&":".repeat(100_000)).is_empty());
    assert!(scan_all(&"a:".repeat(50_000)).is_empty());
    assert!(scan_all(&"<".repeat(100_000)).is_empty());
}

#[test]
fn ten_thousand_unterminated_wrappers_are_each_reported() {
    let text = "<URL:".repeat(10_000);
    let found = scan_all(&text);
    assert_eq!(found.len(), 10_000);
    assert!(found.iter().all(|f| f
        .diagnostics
        .iter()
        .any(|d| d.rule == Rule::UnterminatedWrapper)));
}

#[test]
fn an_unclosed_wrapper_before_a_huge_line_is_bounded() {
    let text = format!("<URL:http://a.b/{}", "x".repeat(1_000_000));
    let found = scan_all(&text);
    assert_eq!(found.len(), 1);
    assert!(found[0].outer.len() <= 2049);
}

#[test]
fn ten_thousand_urls_on_one_line() {
    let text = "http://a.b/c <URL:ftp://d.e/f> ".repeat(5_000);
    let found = scan_all(&text);
    assert_eq!(found.len(), 10_000);
    assert_eq!(
        found.iter().filter(|f| f.form == Form::Wrapped).count(),
        5_000
    );
}

#[test]
fn a_ten_megabyte_url_and_deep_parentheses() {
    let long = format!("http://a.b/{}", "y".repeat(10_000_000));
    assert_eq!(scan_all(&long)[0].url.len(), long.len());
    let parens = format!("http://a.b/{}{}", "(".repeat(100_000), ")".repeat(100_001));
    assert_eq!(scan_all(&parens)[0].url.len(), parens.len() - 1);
}

#[test]
fn crowded_hyphen_breaks_are_not_searched_for_evidence() {
    let text = "<URL:http://host-\n name.example/> ".repeat(20_000);
    let found = scan_all(&text);
    assert_eq!(found.len(), 20_000);
    assert!(found.iter().all(|f| f.alternatives.len() == 1));
    // Only the first 16 breaks have fewer than 16 others in the 256 KiB
    // before them; every later one is weighed without searching the text.
    let not_searched = found
        .iter()
        .filter(|f| f.alternatives[0].reason.contains("not searched"))
        .count();
    assert_eq!(not_searched, 20_000 - 16);
}

#[test]
fn crowded_line_joins_and_false_footers_stay_bounded() {
    // Every block a URL broken inside a word at the margin, whose search
    // for the cut shown whole elsewhere reads the whole reach, and a false
    // footer after a URL: after 16 searches in 256 KiB, later breaks are
    // not weighed by the margin; after 8 false footers, later ones are not
    // looked into.
    let margin = "   ffffffffff ffffffffff ffffffffff ffffffffff ffffffffff ffffffffff fff\n";
    let lines = [
        "   ffffffffff http://example.org/ffffffffff/ffffffffff/fffffffffffffffff\n",
        "   ffffff_ffffffx.html and on.\n",
        "   see http://example.org/ffffffffff/\n\n",
        "Not a footer                                       [Page 7]\n",
    ];
    let block = format!("{margin}{margin}{}", lines.concat());
    let text = block.repeat(5_000);
    let found = scan_all(&text);
    assert_eq!(found.len(), 10_000);
    let joined = found
        .iter()
        .filter(|f| f.diagnostics.iter().any(|d| d.rule == Rule::BrokenBareUrl))
        .count();
    let reach_blocks = 256 * 1024 / block.len();
    assert!(
        joined >= 16 && joined <= 5_000 / reach_blocks * 16 + 16,
        "{joined}"
    );
}
