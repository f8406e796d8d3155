//! What linting one URL produces: the URL as found and its findings,
//! placed in the source.

use crate::diagnostic::Diagnostic;
use crate::scan::Found;
use crate::span::Span;

/// A diagnostic placed in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
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
pub struct UrlReport {
    /// The URL as the scanner found it.
    pub found: Found,
    /// Scanner and validator findings, ordered by source position.
    pub findings: Vec<Finding>,
}
