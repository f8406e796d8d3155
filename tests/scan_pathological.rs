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
fn crowded_margin_breaks_are_not_searched_for_their_cut() {
    // Every block a URL broken inside a word at the margin, whose search
    // for the cut shown whole elsewhere reads the whole reach: after 16
    // searches in 256 KiB, later breaks are not weighed by the margin.
    let margin = "   ffffffffff ffffffffff ffffffffff ffffffffff ffffffffff ffffffffff fff\n";
    let lines = [
        "   ffffffffff http://example.org/ffffffffff/ffffffffff/fffffffffffffffff\n",
        "   ffffff_ffffffx.html and on.\n",
    ];
    let block = format!("{margin}{margin}{}", lines.concat());
    let text = block.repeat(5_000);
    let found = scan_all(&text);
    assert_eq!(found.len(), 5_000);
    let joined: Vec<bool> = found.iter().map(|f| !f.joins.is_empty()).collect();
    // The first 16 are searched and joined; in every stretch of 256 KiB
    // after them, no more than 16 are.
    assert!(joined[..16].iter().all(|&joined| joined));
    let per_reach = 256 * 1024 / block.len();
    for stretch in joined.chunks(per_reach) {
        assert!(stretch.iter().filter(|&&joined| joined).count() <= 16);
    }
}

#[test]
fn crowded_false_footers_are_not_looked_into() {
    // A bare URL at a page's end, then a real page break: joined, unless
    // eight or more footer-like lines after URLs crowd the 12 KiB before.
    let page_break = |n: usize| {
        format!(
            "   The archive is at http://lists.example.org/archives/2001-September/\n\n\n\
             Author                   Standards Track                    [Page {n}]\n\u{c}\n\
             RFC 9876                  Example Title                   March 2011\n\n\
             \x20  000315.html, which holds the thread.\n"
        )
    };
    let pages = format!("{}{}{}", page_break(1), page_break(2), page_break(3));
    let joined = |text: &str| {
        scan_all(text)
            .iter()
            .filter(|f| f.joins.iter().any(|join| join.page_break))
            .count()
    };
    assert_eq!(joined(&pages), 3);
    let false_footer = "   see http://a.example/p/\n\nNot a footer [Page 70]\n";
    let crowded = format!("{}{pages}", false_footer.repeat(8));
    assert_eq!(joined(&crowded), 0);
    let far = format!(
        "{}{}{pages}",
        false_footer.repeat(8),
        "words\n".repeat(3_000)
    );
    assert_eq!(joined(&far), 3);
}
