//! What linting one URL produces: the URL as found and its findings,
//! placed in the source.

use crate::diagnostic::Diagnostic;
use crate::scan::{Found, Unclosed};
use crate::span::{SourceSpan, UrlSpan};
use crate::template::Template;

/// A diagnostic placed in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The diagnostic, with its severity set by the configured level. Its
    /// span indexes the text its maker read; [`Finding::at`] says which.
    pub diagnostic: Diagnostic,
    /// Where the diagnostic's span is: in the joined URL or in the source.
    pub at: At,
    /// Source byte ranges to label: one per line piece of a wrapped URL.
    pub source_spans: Vec<SourceSpan>,
}

/// Where a finding's diagnostic span is, in the text it indexes.
///
/// Not `#[non_exhaustive]`: a finding is about the URL or about the text,
/// and code that places findings must handle both, exhaustively.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum At {
    /// A validator's finding: these bytes of the joined URL.
    Url(UrlSpan),
    /// A scanner's finding, or one about the text itself (an unused
    /// suppression): these bytes of the source.
    Source(SourceSpan),
}

impl At {
    /// The span in the joined URL, for a validator's finding.
    pub fn url_span(self) -> Option<UrlSpan> {
        match self {
            At::Url(span) => Some(span),
            At::Source(_) => None,
        }
    }
}

impl Finding {
    /// A validator's `diagnostic` about `found`'s URL, labelled on the
    /// source bytes its span maps to.
    pub fn in_url(diagnostic: Diagnostic, found: &Found) -> Self {
        let span = diagnostic.span.of();
        Finding {
            source_spans: found.source_spans(span),
            at: At::Url(span),
            diagnostic,
        }
    }

    /// Where the finding starts in the source: its span there, or for a
    /// validator's finding its first label.
    pub fn source_start(&self) -> usize {
        match self.at {
            At::Source(span) => span.start,
            At::Url(_) => self.source_spans.first().map_or(0, |span| span.start),
        }
    }

    /// A `diagnostic` whose span indexes the source, labelled on
    /// `source_spans`.
    pub fn in_source(diagnostic: Diagnostic, source_spans: Vec<SourceSpan>) -> Self {
        Finding {
            at: At::Source(diagnostic.span.of()),
            diagnostic,
            source_spans,
        }
    }
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
    /// templates are recognised); its spans index the URL. Boxed: most
    /// URLs have none, and a large file's reports may all be held at once.
    pub template: Option<Box<Template>>,
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
    /// Something the markup opened and never closed (an attribute value's
    /// quote, a comment, a `script` element), which took in the rest of
    /// the document or of the HTML block it was written in, as a browser
    /// reads it: no URL there was read. At most one per text, the first.
    Unclosed(Unclosed),
}

impl Linted {
    /// The source offset this item is ordered by.
    pub fn start(&self) -> usize {
        match self {
            Linted::Url(report) => report.found.outer.start,
            Linted::Text(finding) => finding.source_start(),
            Linted::Unclosed(unclosed) => unclosed.swallowed.start,
        }
    }

    /// The URL report, for an item about a URL.
    pub fn into_url(self) -> Option<UrlReport> {
        match self {
            Linted::Url(report) => Some(report),
            Linted::Text(_) | Linted::Unclosed(_) => None,
        }
    }

    /// Every finding of this item: a URL's findings, or the text finding.
    pub fn into_findings(self) -> Vec<Finding> {
        match self {
            Linted::Url(report) => report.findings,
            Linted::Text(finding) => vec![finding],
            Linted::Unclosed(_) => Vec::new(),
        }
    }
}
