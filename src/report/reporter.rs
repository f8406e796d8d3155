//! What every reporter shares: the streaming interface, the run's totals,
//! where a finding is placed and how its fix reads.

use std::io;

use codespan_reporting::term::termcolor::WriteColor;

use crate::checked::{Checked, KeepText};
use crate::diagnostic::Applicability;
use crate::lint::{At, Finding, UrlReport};
use crate::rewrite::place;
use crate::rules::Severity;
use crate::scan::Segment;
use crate::span::{clamp, SourceSpan};

/// A streaming output: sources arrive in report order, then `finish`.
pub(crate) trait Reporter {
    /// Write what this format shows for one checked source.
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()>;
    /// Write whatever closes the output (summary, closing brackets).
    fn finish(&mut self, out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()>;
    /// Which checked texts [`Reporter::source`] reads itself (to place or
    /// show a URL or finding), rather than only their names and URLs.
    fn texts_read(&self) -> KeepText {
        KeepText::Always
    }
}

/// The findings of `checked` in source order, grouped: each URL with its
/// findings (URLs without findings included), and each finding about the
/// text itself on its own, at its place among the URLs.
pub(super) fn entries(checked: &Checked) -> impl Iterator<Item = (Option<&UrlReport>, &[Finding])> {
    let mut reports = checked.reports.iter().peekable();
    let mut own = checked.findings.iter().peekable();
    std::iter::from_fn(move || match (reports.peek(), own.peek()) {
        (Some(report), Some(finding)) if finding.source_start() < report.found.outer.start => own
            .next()
            .map(|finding| (None, std::slice::from_ref(finding))),
        (Some(_), _) => reports
            .next()
            .map(|report| (Some(report), report.findings.as_slice())),
        (None, _) => own
            .next()
            .map(|finding| (None, std::slice::from_ref(finding))),
    })
}

/// Every finding of `checked` in source order, each with the URL it is
/// about (`None` for a finding about the text itself).
pub(super) fn findings_in_order(
    checked: &Checked,
) -> impl Iterator<Item = (Option<&UrlReport>, &Finding)> {
    entries(checked)
        .flat_map(|(report, findings)| findings.iter().map(move |finding| (report, finding)))
}

/// A source's name as a repository path: `./docs/a.md` is `docs/a.md`.
/// GitHub matches annotation paths, and SARIF viewers artifact URIs,
/// against the repository's paths, which never start with `./`; walking
/// `.` names every file that way.
pub(crate) fn repository_path(name: &str) -> &str {
    let mut path = name;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.trim_start_matches('/');
    }
    path
}

/// The source spans that place `finding`, never none: its own, or, should
/// it have none, its span in the source (the whole URL for a validator
/// finding, whose span indexes the URL), so every finding shows somewhere.
pub(crate) fn placed_spans(report: Option<&UrlReport>, finding: &Finding) -> Vec<SourceSpan> {
    if !finding.source_spans.is_empty() {
        return finding.source_spans.clone();
    }
    match (finding.at, report) {
        (At::Source(span), _) => vec![span],
        (At::Url(_), Some(report)) => vec![report.found.outer],
        // A validator's finding comes with its URL's report; were one
        // given without, it would show at the text's start.
        (At::Url(_), None) => vec![SourceSpan::default()],
    }
}

/// The source span where `report`'s URL text begins: its first segment,
/// past any `<URL:` wrapper (the whole match when it has no segments).
pub(super) fn url_start(report: &UrlReport) -> SourceSpan {
    let found = &report.found;
    found
        .segments
        .first()
        .map_or(found.outer, |segment| segment.source)
}

/// The fix of `finding` as an instruction ("replace `~` with `%7E`").
///
/// The replaced text is read from the URL when the finding indexes it, and
/// from the source otherwise.
pub(crate) fn fix_instruction(
    checked: &Checked,
    report: Option<&UrlReport>,
    finding: &Finding,
) -> Option<String> {
    let fix = finding.diagnostic.fix.as_ref()?;
    // A reporter that shows fixes keeps the texts with findings.
    let text = checked.text()?;
    // A decoded URL's bytes are not what the source shows (`&eacute;` for
    // `é`): the edit that `--fix` makes in the source is named instead.
    if let Some(report) = report.filter(|report| report.found.is_decoded()) {
        let placed = place(text, checked.source.markup, report, finding);
        if let Some(Ok(edits)) = placed {
            if let [edit] = edits.as_slice() {
                return Some(instruction(&text[edit.span.range()], &edit.replacement));
            }
        }
    }
    let old = match (finding.at, report) {
        (At::Url(span), Some(report)) => &report.found.url[clamp(&report.found.url, span)],
        (At::Url(_), None) => "",
        (At::Source(span), _) => &text[clamp(text, span)],
    };
    if let Some((before, after)) = around(old, &fix.replacement) {
        // A URL wrapped where it stands: named by its first and last pieces,
        // without the leaders and page furniture between them.
        let pieces = report
            .map(|report| &report.found.segments[..])
            .unwrap_or_default();
        let piece = |segment: Option<&Segment>, line: Option<&str>| {
            segment
                .and_then(|segment| text.get(segment.source.range()))
                .or(line)
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        let first = piece(pieces.first(), old.lines().next());
        let last = piece(pieces.last(), old.lines().next_back());
        return Some(format!(
            "wrap `{first}` ... `{last}` in `{before}` and `{after}`"
        ));
    }
    Some(instruction(old, &fix.replacement))
}

/// "replace `old` with `new`", or an insertion or removal.
fn instruction(old: &str, new: &str) -> String {
    match (old.is_empty(), new.is_empty()) {
        (true, _) => format!("insert `{new}`"),
        (false, true) => format!("remove `{old}`"),
        (false, false) => format!("replace `{old}` with `{new}`"),
    }
}

/// What `new` puts before and after `old`, when `old` spans several lines
/// and `new` is `old` with text on both sides.
fn around<'n>(old: &str, new: &'n str) -> Option<(&'n str, &'n str)> {
    if !old.contains('\n') {
        return None;
    }
    let at = new.find(old)?;
    let (before, after) = (&new[..at], &new[at + old.len()..]);
    (!before.is_empty() && !after.is_empty()).then_some((before, after))
}

/// The fix of `finding` as a line of text: `{label}: replace ...` for a
/// machine-applicable fix, `suggestion: replace ... (only --unsafe-fixes
/// applies it)` for a suggestion, so that a reader sees which fixes
/// `check --fix` would make.
pub(super) fn fix_line(
    checked: &Checked,
    report: Option<&UrlReport>,
    finding: &Finding,
    label: &str,
) -> Option<String> {
    let instruction = fix_instruction(checked, report, finding)?;
    let applicability = finding.diagnostic.fix.as_ref()?.applicability;
    Some(match applicability {
        Applicability::Suggestion => {
            format!("suggestion: {instruction} (only --unsafe-fixes applies it)")
        }
        _ => format!("{label}: {instruction}"),
    })
}

/// Counts over a whole run, for summaries and the exit code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Totals {
    /// Sources checked (files, stdin, argument lists).
    pub files: usize,
    /// URLs found.
    pub urls: usize,
    /// Findings at error severity.
    pub errors: usize,
    /// Findings at warning severity.
    pub warnings: usize,
    /// Findings that `--profile rfc3986` would not report, counted only
    /// when the run's profile is rfc1738 by default (not chosen). Only the
    /// human summary says it; machine formats keep their schema.
    #[serde(skip)]
    pub spared_by_rfc3986: usize,
}

impl Totals {
    /// Add one checked source's counts.
    pub(crate) fn add(&mut self, checked: &Checked) {
        if !checked.continuation {
            self.files += 1;
        }
        self.urls += checked.reports.len();
        let findings = checked.reports.iter().flat_map(|report| &report.findings);
        for finding in findings.chain(&checked.findings) {
            match finding.diagnostic.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
            }
        }
    }
}

/// True when `report` has no error-level finding.
pub(super) fn is_valid(report: &UrlReport) -> bool {
    report
        .findings
        .iter()
        .all(|finding| finding.diagnostic.severity != Severity::Error)
}

#[cfg(test)]
mod tests {
    #[test]
    fn repository_paths_have_no_leading_dot_slash() {
        assert_eq!(super::repository_path("./docs/a.md"), "docs/a.md");
        assert_eq!(super::repository_path("././/a.md"), "a.md");
        assert_eq!(super::repository_path("../a.md"), "../a.md");
        assert_eq!(super::repository_path(".hidden/a.md"), ".hidden/a.md");
        assert_eq!(super::repository_path("<stdin>"), "<stdin>");
    }

    use super::*;
    use crate::report::fixtures;

    #[test]
    fn locate_counts_columns_in_characters_with_exclusive_end() {
        let checked = fixtures::wrapped();
        let tilde = checked.text().and_then(|text| text.find('~')).unwrap_or(0);
        let location = checked.locate(crate::span::SourceSpan::new(tilde, tilde + 1));
        assert_eq!(
            (
                location.line,
                location.column,
                location.end_line,
                location.end_column
            ),
            (2, 11, 2, 12)
        );
    }

    #[test]
    fn fix_instruction_names_the_url_text_it_replaces() {
        let checked = fixtures::wrapped();
        let report = &checked.reports[0];
        let instructions: Vec<Option<String>> = report
            .findings
            .iter()
            .map(|finding| fix_instruction(&checked, Some(report), finding))
            .collect();
        assert_eq!(
            instructions,
            [None, Some("replace `~` with `%7E`".to_string())]
        );
    }

    #[test]
    fn fix_instruction_of_a_decoded_url_names_the_edit_in_the_source() {
        use crate::source::{Markup, Origin, Source};
        // `&bne;` reads as '=' and U+20E5; only the second needs encoding.
        let text = "<a href=\"http://h.example/a&bne;b\">x</a>\n";
        let options = crate::lint::LintOptions::default();
        let reports: Vec<_> = crate::lint::lint_markup(text, Markup::Html, &options).collect();
        let source = Source::new(Origin::File("x.html".into()), text.to_string());
        let checked = Checked::new(source.written_in(Markup::Html), reports);
        let report = &checked.reports[0];
        let instructions: Vec<String> = report
            .findings
            .iter()
            .filter_map(|finding| fix_instruction(&checked, Some(report), finding))
            .collect();
        assert_eq!(instructions, ["replace `&bne;` with `=%E2%83%A5`"]);
    }

    #[test]
    fn a_finding_without_source_spans_is_placed_on_its_url() {
        let checked = fixtures::wrapped();
        let report = &checked.reports[0];
        let mut validator = report.findings[1].clone();
        validator.source_spans.clear();
        assert_eq!(placed_spans(Some(report), &validator), [report.found.outer]);
        let mut scanner = report.findings[0].clone();
        scanner.source_spans.clear();
        assert_eq!(
            placed_spans(Some(report), &scanner),
            [scanner.diagnostic.span.of()]
        );
        assert_eq!(
            placed_spans(Some(report), &report.findings[1]),
            report.findings[1].source_spans
        );
    }

    #[test]
    fn totals_count_severities_and_urls() {
        let mut totals = Totals::default();
        totals.add(&fixtures::wrapped());
        totals.add(&fixtures::clean());
        assert_eq!(
            totals,
            Totals {
                files: 2,
                urls: 2,
                errors: 1,
                warnings: 1,
                spared_by_rfc3986: 0,
            }
        );
        assert!(!is_valid(&fixtures::wrapped().reports[0]));
        assert!(is_valid(&fixtures::clean().reports[0]));
    }
}
