//! What linting one URL produces: the URL as found and its findings,
//! placed in the source.

use crate::diagnostic::Diagnostic;
use crate::scan::Found;
use crate::span::Span;
use crate::template::Template;

/// A diagnostic placed in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The diagnostic, with its severity set by the configured level.
    pub diagnostic: Diagnostic,
    /// The span in the joined URL, for validator findings; `None` for scanner
    /// findings, whose `diagnostic.span` already indexes the source.
    pub url_span: Option<Span>,
    /// Source byte ranges to label: one per line piece of a wrapped URL.
    pub source_spans: Vec<Span>,
}

/// One URL and everything reported about it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UrlReport {
    /// The URL as the scanner found it.
    pub found: Found,
    /// Scanner and validator findings, ordered by source position.
    pub findings: Vec<Finding>,
    /// The URL read as a template, when it holds placeholders (and
    /// templates are recognised); its spans index the URL.
    pub template: Option<Template>,
}

/// One item of a text's lint. [`crate::lint()`] yields them in source
/// order, by where each starts: a URL at the start of its match, a
/// finding of the text's own at the start of its span.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Linted {
    /// A URL and its findings.
    Url(UrlReport),
    /// A finding about the text itself, which belongs to no URL: an
    /// `urlint: ignore` directive that silences nothing or names an unknown
    /// rule (`unused-suppression`). Its diagnostic's span indexes the source.
    Text(Finding),
}

impl Linted {
    /// The source offset this item is ordered by.
    pub fn start(&self) -> usize {
        match self {
            Linted::Url(report) => report.found.outer.start,
            Linted::Text(finding) => finding.diagnostic.span.start,
        }
    }

    /// The URL report, for an item about a URL.
    pub fn into_url(self) -> Option<UrlReport> {
        match self {
            Linted::Url(report) => Some(report),
            Linted::Text(_) => None,
        }
    }

    /// Every finding of this item: a URL's findings, or the text finding.
    pub fn into_findings(self) -> Vec<Finding> {
        match self {
            Linted::Url(report) => report.findings,
            Linted::Text(finding) => vec![finding],
        }
    }
}
