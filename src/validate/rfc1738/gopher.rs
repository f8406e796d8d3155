//! GOPHER (section 3.4): `gopher://<host>:<port>/<gophertype><selector>`,
//! optionally followed by `%09<search>` and `%09<gopher+_string>`.

use std::ops::Range;

use super::chars::{self, Part};
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;
use crate::validate::text::line_break_name;

/// Type and selector: no characters are reserved in a gopher path.
const SELECTOR: Part = Part::xchar("gopher selector");
/// The search string, sent to the server on the selector's line.
const SEARCH: Part = Part {
    decoded_by: Some("Gopher"),
    ..Part::xchar("gopher search")
};
/// The Gopher+ string, whose electronic forms are CR LF separated (3.4.9).
const GOPHER_PLUS: Part = Part::xchar("gopher+ string");

const PATH_HELP: &str = "RFC 1738 section 3.4: a gopher path is <gophertype><selector>, \
     optionally followed by %09<search> and %09<gopher+_string>; a selector holds any \
     octet except TAB, LF and CR";

/// The encoded tab that separates selector, search and Gopher+ string.
const TAB: &[u8] = b"%09";

/// Check the path after the host and port: nothing, or `/` and a gopher path.
pub(crate) fn check_path(collector: &mut Collector, range: Range<usize>) {
    if range.is_empty() {
        return;
    }
    let path = range.start + 1..range.end;
    let first_tab = find_tab(collector.url(), path.clone());
    if first_tab == Some(path.start) {
        let message = "the gopher path starts with an encoded tab instead of a gopher type";
        report(
            collector,
            Span::new(path.start, path.start + TAB.len()),
            message,
        );
    }
    let selector = path.start..first_tab.unwrap_or(path.end);
    chars::check(collector, selector.clone(), &SELECTOR);
    report_selector_line_breaks(collector, selector);
    let Some(first_tab) = first_tab else { return };
    let search_start = first_tab + TAB.len();
    let second_tab = find_tab(collector.url(), search_start..path.end);
    chars::check(
        collector,
        search_start..second_tab.unwrap_or(path.end),
        &SEARCH,
    );
    if let Some(second_tab) = second_tab {
        chars::check(collector, second_tab + TAB.len()..path.end, &GOPHER_PLUS);
    }
}

/// The first `%09` in `range`.
fn find_tab(url: &str, range: Range<usize>) -> Option<usize> {
    let bytes = &url.as_bytes()[range.clone()];
    memchr::memmem::find(bytes, TAB).map(|at| range.start + at)
}

/// The protocol forbids CR and LF in a selector, encoded or not.
fn report_selector_line_breaks(collector: &mut Collector, selector: Range<usize>) {
    let bytes = collector.url().as_bytes();
    let escapes = memchr::memchr_iter(b'%', &bytes[selector.clone()]).map(|at| selector.start + at);
    for at in escapes {
        let Some(name) = bytes
            .get(at..at + 3)
            .filter(|_| at + 3 <= selector.end)
            .and_then(line_break_name)
        else {
            continue;
        };
        let message = format!("a gopher selector cannot contain {name}");
        let diagnostic =
            Diagnostic::new(Rule::GopherPath, Span::new(at, at + 3), message).with_help(PATH_HELP);
        collector.push_char(diagnostic);
    }
}

fn report(collector: &mut Collector, span: Span, message: &str) {
    collector.push(Diagnostic::new(Rule::GopherPath, span, message).with_help(PATH_HELP));
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.4 `gopherurl`, `gtype`, `selector`, search and Gopher+.
    #[test]
    fn rfc1738_3_4_gopher() {
        let cases: &[(&str, Expect)] = &[
            ("gopher://h.example", &[]),
            ("gopher://h.example/", &[]),
            ("gopher://h.example:70/1", &[]),
            ("gopher://h.example/11/pub", &[]),
            ("gopher://h.example/0a;b?c:d@e=f&g/h", &[]),
            ("gopher://h.example/7srch%09query%20words", &[]),
            ("gopher://h.example/7srch%09%09+", &[]),
            ("gopher://h.example/1x%09%09!+ABSTRACT%20+SMELL", &[]),
            (
                "gopher://h.example/1x%09%09+%091%0D%0A+-1%0D%0A.%0D%0A",
                &[],
            ),
            ("gopher://h.example/%09x", &[(GopherPath, "%09", None)]),
            ("gopher://h.example/0a%0Db", &[(GopherPath, "%0D", None)]),
            (
                "gopher://h.example/7s%09q%0Aquit",
                &[(EncodedNewline, "%0A", None)],
            ),
            ("gopher://h.example/0~x", &[(UnsafeChar, "~", Some("%7E"))]),
            ("gopher://h.example/0%9", &[(BadEscape, "%", None)]),
            ("gopher://h.example:25/0x", &[(NondefaultPort, "25", None)]),
            ("gopher://u@h.example/", &[(UserinfoNotAllowed, "u@", None)]),
            ("gopher:h.example", &[(MissingSlashes, "", None)]),
        ];
        assert_cases(cases);
    }
}
