//! Where the validator's checks put their diagnostics, with the cap that
//! keeps a URL full of bad characters from flooding the report.

use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;

/// How many character-level diagnostics one URL reports one by one; the rest
/// are summed up in a single diagnostic so that output stays linear and
/// readable on pathological input (a whole paragraph glued to a URL).
pub(crate) const CHAR_DIAGNOSTIC_LIMIT: usize = 64;

/// The character problems beyond the limit.
#[derive(Debug)]
struct Overflow {
    rule: Rule,
    span: Span,
    count: usize,
}

/// The URL under validation and the diagnostics found so far.
#[derive(Debug)]
pub(crate) struct Collector<'u> {
    url: &'u str,
    diagnostics: Vec<Diagnostic>,
    char_reports: usize,
    overflow: Option<Overflow>,
}

impl<'u> Collector<'u> {
    /// A collector for `url` with nothing reported yet.
    pub fn new(url: &'u str) -> Self {
        Collector {
            url,
            diagnostics: Vec::new(),
            char_reports: 0,
            overflow: None,
        }
    }

    /// The URL being validated.
    pub fn url(&self) -> &'u str {
        self.url
    }

    /// Report a structural problem (one per URL part, never capped).
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Report a problem with one character or escape, subject to the cap.
    pub fn push_char(&mut self, diagnostic: Diagnostic) {
        if self.char_reports < CHAR_DIAGNOSTIC_LIMIT {
            self.char_reports += 1;
            self.diagnostics.push(diagnostic);
            return;
        }
        match &mut self.overflow {
            Some(overflow) => {
                overflow.span.end = diagnostic.span.end.max(overflow.span.end);
                overflow.count += 1;
            }
            None => {
                self.overflow = Some(Overflow {
                    rule: diagnostic.rule,
                    span: diagnostic.span,
                    count: 1,
                })
            }
        }
    }

    /// The diagnostics in URL order, the overflow summary included.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        if let Some(overflow) = self.overflow.take() {
            let message = format!(
                "{} more character problems from here on are not listed one by one",
                overflow.count
            );
            let help = format!(
                "urlint lists the first {CHAR_DIAGNOSTIC_LIMIT} character problems of a URL; \
                 this many usually means that text around the URL was taken as part of it"
            );
            self.diagnostics
                .push(Diagnostic::new(overflow.rule, overflow.span, message).with_help(help));
        }
        self.diagnostics
            .sort_by_key(|diagnostic| (diagnostic.span.start, diagnostic.span.end));
        self.diagnostics
    }
}
