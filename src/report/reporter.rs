//! What every reporter shares: the streaming interface, the run's totals,
//! and a fix as a line of text (where a finding is placed and how its fix
//! reads are in `placed`, which the Python module shares).

use std::io;

use codespan_reporting::term::termcolor::WriteColor;

use super::placed::fix_instruction;
use crate::checked::{Checked, KeepText};
use crate::diagnostic::Applicability;
use crate::lint::{Finding, UrlReport};
use crate::rules::Severity;
use crate::span::SourceSpan;

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

/// The source span where `report`'s URL text begins: its first segment,
/// past any `<URL:` wrapper (the whole match when it has no segments).
pub(super) fn url_start(report: &UrlReport) -> SourceSpan {
    let found = &report.found;
    found
        .segments
        .first()
        .map_or(found.outer, |segment| segment.source)
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
