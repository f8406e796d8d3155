//! The invariants urlint keeps on every input, as panicking checks.
//!
//! The fuzz targets call these on whatever libFuzzer generates, and
//! `tests/robust_properties.rs` includes this file to check the same
//! invariants on proptest's inputs in every `cargo test`: one statement of
//! each invariant, two ways of searching for a counterexample.
//!
//! Each check panics with a message naming the broken invariant and the
//! offending values, so that a fuzz crash report reads on its own.

use urlint::mail::{self, MailKind, MailText, ParsedMessage};
use urlint::validate::Profile;
use urlint::{
    lint, scan, validate, Diagnostic, Found, Level, LintOptions, Linted, Rule, ScanOptions, Span,
    ValidateOptions,
};

/// True when `span` is a well-formed range inside `text` whose ends fall on
/// char boundaries, so that `&text[span.range()]` cannot panic.
pub fn span_in(text: &str, span: Span) -> bool {
    span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

/// Scan `text` with default options and check every URL found: in source
/// order, without overlaps, each one consistent with the text.
pub fn check_scan(text: &str) -> Vec<Found> {
    let found: Vec<Found> = scan(text, &ScanOptions::default()).collect();
    check_found_in_order(text, &found);
    found
}

/// Check that `found`, scanned from `text`, is in order without overlaps
/// and that each URL is consistent with the text.
pub fn check_found_in_order<'a>(text: &str, found: impl IntoIterator<Item = &'a Found>) {
    let mut previous_end = 0;
    for url in found {
        assert!(
            url.outer.start >= previous_end,
            "URL at {:?} starts before the previous one ended at {previous_end}",
            url.outer
        );
        previous_end = url.outer.end;
        check_found(text, url);
    }
}

/// Check one scanned URL: its outer span is a non-empty char range of the
/// text, its segments lie in order inside it and join to exactly the URL,
/// and the scanner's diagnostics point inside it.
pub fn check_found(text: &str, found: &Found) {
    let outer = found.outer;
    assert!(
        span_in(text, outer) && !outer.is_empty(),
        "outer span {outer:?} is not a non-empty char range of the {}-byte text",
        text.len()
    );
    let mut joined = String::new();
    let mut previous_end = outer.start;
    for segment in &found.segments {
        let source = segment.source;
        assert!(
            span_in(text, source) && previous_end <= source.start && source.end <= outer.end,
            "segment {source:?} is out of order, outside {outer:?} or off a char boundary"
        );
        assert_eq!(
            segment.url_start,
            joined.len(),
            "segment {source:?} claims the wrong URL offset"
        );
        joined.push_str(&text[source.range()]);
        previous_end = source.end;
    }
    assert_eq!(joined, found.url, "segments do not join to the URL");
    for diagnostic in &found.diagnostics {
        assert!(
            span_in(text, diagnostic.span) && inside(diagnostic.span, outer),
            "scanner {:?} span {:?} is not a char range inside {outer:?}",
            diagnostic.rule,
            diagnostic.span
        );
    }
}

/// Validate `url` and check every diagnostic: in URL order, spans on char
/// boundaries inside the URL, and every fix well-formed and effective.
pub fn check_validate(url: &str, options: &ValidateOptions) -> Vec<Diagnostic> {
    let diagnostics = validate(url, options);
    let starts: Vec<usize> = diagnostics.iter().map(|d| d.span.start).collect();
    assert!(
        starts.is_sorted(),
        "diagnostics are not in URL order: {starts:?}"
    );
    for diagnostic in &diagnostics {
        assert!(
            span_in(url, diagnostic.span),
            "{:?} span {:?} is not a char range of the {}-byte URL",
            diagnostic.rule,
            diagnostic.span,
            url.len()
        );
        assert!(
            !diagnostic.message.is_empty(),
            "{:?} has no message",
            diagnostic.rule
        );
        if let Some(fix) = &diagnostic.fix {
            check_fix(url, &diagnostics, diagnostic, &fix.replacement, options);
        }
    }
    diagnostics
}

/// Check that a fix changes something, writes only characters a URL may
/// hold literally, and, applied, removes its diagnostic: the fixed URL has
/// no diagnostic of the same rule where the fix wrote, other than one the
/// URL already had elsewhere and the edit merely moved (the property issue 7
/// asks of every fix). `all` is every diagnostic of `url`.
fn check_fix(
    url: &str,
    all: &[Diagnostic],
    diagnostic: &Diagnostic,
    replacement: &str,
    options: &ValidateOptions,
) {
    let span = diagnostic.span;
    let rule = diagnostic.rule;
    assert_ne!(
        replacement,
        &url[span.range()],
        "{rule:?} fix at {span:?} changes nothing"
    );
    assert!(
        replacement.bytes().all(|b| b.is_ascii_graphic()),
        "{rule:?} fix {replacement:?} writes characters a URL must encode"
    );
    let fixed = format!("{}{replacement}{}", &url[..span.start], &url[span.end..]);
    let edit = Edit {
        removed: span,
        written: Span::new(span.start, span.start + replacement.len()),
    };
    let before: Vec<&Diagnostic> = all
        .iter()
        .filter(|d| d.rule == rule && *d != diagnostic)
        .collect();
    let after = validate(&fixed, options);
    let left = after.iter().find(|d| {
        d.rule == rule
            && touches(d.span, edit.written)
            && !before
                .iter()
                .any(|b| b.message == d.message && edit.moved(b.span) == Some(d.span))
    });
    if let Some(left) = left {
        panic!(
            "{rule:?} fix {replacement:?} at {span:?} of {url:?} gives {fixed:?}, \
             which still has {rule:?} at {:?}: {}",
            left.span, left.message
        );
    }
}

/// One replacement in a URL: the bytes `removed` from the original and the
/// bytes `written` in their place in the result (both starting at the same
/// offset).
struct Edit {
    removed: Span,
    written: Span,
}

impl Edit {
    /// Where a span of the original lies after the edit, if the edit leaves
    /// it standing: before the edit it stays put, after it it moves with the
    /// length change, and around it (the validator's summary of the
    /// character problems past its cap) it stretches or shrinks with it.
    fn moved(&self, span: Span) -> Option<Span> {
        let (removed, written) = (self.removed, self.written);
        if span.end <= removed.start {
            Some(span)
        } else if span.start >= removed.end {
            let start = span.start - removed.end + written.end;
            Some(Span::new(start, start + span.len()))
        } else if span.start <= removed.start && removed.end <= span.end {
            let end = span.end - removed.len() + written.len();
            Some(Span::new(span.start, end))
        } else {
            None
        }
    }
}

/// True when `span` lies within `outer`.
fn inside(span: Span, outer: Span) -> bool {
    outer.start <= span.start && span.end <= outer.end
}

/// True when a diagnostic at `span` is about the bytes a fix wrote at
/// `written`. An empty span is a point: an empty diagnostic touches the
/// written bytes when it points into them, and a deletion (empty `written`)
/// is touched by a diagnostic that spans across the join or points at it.
fn touches(span: Span, written: Span) -> bool {
    match (span.is_empty(), written.is_empty()) {
        (false, false) => span.start < written.end && written.start < span.end,
        (true, false) => written.start <= span.start && span.start < written.end,
        (false, true) => span.start < written.start && written.start < span.end,
        (true, true) => span.start == written.start,
    }
}

/// Lint options with every rule on, so that no finding is filtered out
/// before its spans are checked.
pub fn every_rule_on() -> LintOptions {
    let mut options = LintOptions::default();
    for rule in Rule::all() {
        options.levels.set(rule, Level::Warning);
    }
    options
}

/// Read `archive` as mail of `kind` and check every decoded text: it lints
/// with the invariants of [`check_lint`], and every finding's source span
/// maps to archive bytes inside the message it came from, which have a line
/// and column.
pub fn check_mail(archive: &[u8], kind: MailKind) {
    let options = every_rule_on();
    for message in mail::read(archive, kind) {
        // Reading from memory performs no I/O that could fail.
        let Ok(message) = message else {
            panic!("reading mail from memory failed: {message:?}");
        };
        let end = message.raw.offset + message.raw.bytes.len();
        assert!(
            end <= archive.len(),
            "message {} ends at {end}, past the {}-byte archive",
            message.info.number,
            archive.len()
        );
        for text in &message.texts {
            check_lint(&text.text);
            check_text_maps_into_message(&message, text, &options);
        }
    }
}

/// Check that every finding in `text` maps to archive bytes of `message`
/// that [`ParsedMessage::line_col`] can place.
fn check_text_maps_into_message(message: &ParsedMessage, text: &MailText, options: &LintOptions) {
    let start = message.raw.offset;
    let end = start + message.raw.bytes.len();
    for findings in lint(&text.text, options).map(Linted::into_findings) {
        let spans = findings.iter().flat_map(|f| &f.source_spans);
        for raw in spans.flat_map(|&span| text.map.raw_spans(span)) {
            assert!(
                start <= raw.start && raw.start <= raw.end && raw.end <= end,
                "part {} maps to {raw:?}, outside its message's bytes {start}..{end}",
                text.part.path
            );
            assert!(
                message.line_col(raw.start).is_some(),
                "archive offset {} of message {} has no line",
                raw.start,
                message.info.number
            );
        }
    }
}

/// Lint `text` with every rule on, under each profile, and check the span
/// mapping: items come in source order; every finding of a URL points at a
/// char range inside the URL's match, and a validator finding's source
/// pieces spell exactly the URL bytes it is about; a finding of the text's
/// own is an `unused-suppression` at a `urlint:` directive. Each URL is
/// also validated on its own, so that fixes are checked on URLs as the
/// scanner joins them.
pub fn check_lint(text: &str) {
    for profile in Profile::ALL {
        check_lint_under(text, profile);
    }
}

fn check_lint_under(text: &str, profile: Profile) {
    let options = LintOptions {
        profile,
        ..every_rule_on()
    };
    let linted: Vec<Linted> = lint(text, &options).collect();
    let starts: Vec<usize> = linted.iter().map(Linted::start).collect();
    assert!(starts.is_sorted(), "lint items out of order: {starts:?}");
    let mut reports = Vec::new();
    for item in linted {
        match item {
            Linted::Url(report) => reports.push(report),
            Linted::Text(finding) => check_own_finding(text, &finding),
            other => panic!("unknown lint item {other:?}"),
        }
    }
    check_found_in_order(text, reports.iter().map(|report| &report.found));
    for report in &reports {
        let found = &report.found;
        for finding in &report.findings {
            let rule = finding.diagnostic.rule;
            assert!(
                !finding.source_spans.is_empty(),
                "{rule:?} finding has no source span"
            );
            for &span in &finding.source_spans {
                assert!(
                    span_in(text, span) && inside(span, found.outer),
                    "{rule:?} source span {span:?} is not a char range inside {:?}",
                    found.outer
                );
            }
            if let Some(url_span) = finding.url_span {
                check_mapping(text, found, url_span, &finding.source_spans, rule);
            }
        }
        let validate_options = ValidateOptions {
            profile,
            extra_schemes: options.extra_schemes.clone(),
        };
        check_validate(&found.url, &validate_options);
    }
}

/// Check a finding about the text itself: an `unused-suppression` whose one
/// span is a char range of the text on a `urlint:` directive (a directive,
/// or a rule name in its list).
fn check_own_finding(text: &str, finding: &urlint::Finding) {
    let span = finding.diagnostic.span;
    assert_eq!(
        finding.diagnostic.rule,
        Rule::UnusedSuppression,
        "a finding outside any URL is not about a suppression"
    );
    assert!(
        span_in(text, span) && finding.source_spans == [span],
        "unused-suppression span {span:?} is not a char range of the {}-byte text",
        text.len()
    );
    let line_start = text[..span.start]
        .rfind(['\n', '\r'])
        .map_or(0, |at| at + 1);
    assert!(
        text[line_start..span.end].contains("urlint:"),
        "unused-suppression at {span:?} is on no directive's line"
    );
}

/// Check that the source pieces of a validator finding spell exactly the
/// URL bytes under `url_span`.
fn check_mapping(text: &str, found: &Found, url_span: Span, pieces: &[Span], rule: Rule) {
    assert!(
        span_in(&found.url, url_span),
        "{rule:?} URL span {url_span:?} is not a char range of {:?}",
        found.url
    );
    if url_span.is_empty() {
        return;
    }
    let spelled: String = pieces.iter().map(|span| &text[span.range()]).collect();
    assert_eq!(
        spelled,
        &found.url[url_span.range()],
        "{rule:?} source pieces {pieces:?} do not spell URL span {url_span:?}"
    );
}
