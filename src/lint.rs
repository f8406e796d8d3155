//! The pipeline for one source text: scan, validate each URL, map the
//! validator's URL spans back to source spans, and apply rule levels.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::rules::{Level, Rule};
use crate::scan::{self, Form, Found, ScanOptions};
use crate::span::Span;
use crate::validate::{self, ValidateOptions};

/// Rule levels after configuration: the catalogue's defaults plus overrides.
#[derive(Debug, Clone, Default)]
pub struct RuleLevels {
    overrides: HashMap<Rule, Level>,
}

impl RuleLevels {
    /// Set `rule` to `level`, replacing its default.
    pub fn set(&mut self, rule: Rule, level: Level) {
        self.overrides.insert(rule, level);
    }

    /// The level `rule` reports at.
    pub fn level(&self, rule: Rule) -> Level {
        self.overrides
            .get(&rule)
            .copied()
            .unwrap_or(rule.info().default_level)
    }
}

/// Options for [`lint`].
#[derive(Debug, Clone, Default)]
pub struct LintOptions {
    /// How to find URLs.
    pub scan: ScanOptions,
    /// Schemes to accept without `unknown-scheme`, beyond RFC 1738's own.
    pub extra_schemes: Vec<String>,
    /// Which rules report, and at what severity.
    pub levels: RuleLevels,
}

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

/// Scan `text` and lint every URL in it, in source order.
pub fn lint<'t>(text: &'t str, options: &'t LintOptions) -> impl Iterator<Item = UrlReport> + 't {
    scan::scan(text, &options.scan).map(move |found| lint_found(found, options))
}

/// Validate one scanned URL and place its findings in the source.
pub fn lint_found(found: Found, options: &LintOptions) -> UrlReport {
    let validate_options = ValidateOptions {
        fragment_allowed: found.form.is_delimited(),
        extra_schemes: options.extra_schemes.clone(),
    };
    let mut findings: Vec<Finding> = found
        .diagnostics
        .iter()
        .map(|diagnostic| Finding {
            diagnostic: diagnostic.clone(),
            url_span: None,
            source_spans: vec![diagnostic.span],
        })
        .collect();
    findings.extend(form_findings(&found));
    // An empty wrapper already carries `empty-url`; validating "" would only
    // add a cascade of scheme errors about the same nothing.
    let diagnostics = if found.url.is_empty() {
        Vec::new()
    } else {
        validate::validate(&found.url, &validate_options)
    };
    findings.extend(diagnostics.into_iter().map(|diagnostic| Finding {
        url_span: Some(diagnostic.span),
        source_spans: found.source_spans(diagnostic.span),
        diagnostic,
    }));
    findings.retain_mut(
        |finding| match options.levels.level(finding.diagnostic.rule).severity() {
            Some(severity) => {
                finding.diagnostic.severity = severity;
                true
            }
            None => false,
        },
    );
    findings.sort_by_key(|finding| finding.source_spans.first().copied());
    UrlReport { found, findings }
}

/// Style findings about how the URL was written (off unless configured).
fn form_findings(found: &Found) -> Option<Finding> {
    let (rule, message) = match found.form {
        Form::Wrapped => return None,
        Form::Angle => (
            Rule::MissingUrlPrefix,
            "URL in angle brackets without the 'URL:' prefix",
        ),
        Form::Prefixed | Form::Bare => (Rule::BareUrl, "URL without '<URL:...>' delimiters"),
    };
    let span = found.outer;
    let diagnostic = Diagnostic::new(rule, span, message).with_help(
        "RFC 1738 Appendix recommends writing URLs in text as <URL:scheme:...>, \
         so that their ends are unambiguous",
    );
    Some(Finding {
        diagnostic,
        url_span: None,
        source_spans: vec![span],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_in(text: &str, options: &LintOptions) -> Vec<Rule> {
        lint(text, options)
            .flat_map(|report| report.findings)
            .map(|finding| finding.diagnostic.rule)
            .collect()
    }

    #[test]
    fn appendix_empty_wrapper_is_one_finding() {
        let options = LintOptions::default();
        assert_eq!(rules_in("see <URL:> here", &options), vec![Rule::EmptyUrl]);
    }

    #[test]
    fn validator_spans_map_to_both_lines_of_a_wrapped_url() {
        let text = "<URL:http://host.example/a~\n  ~b>";
        let options = LintOptions::default();
        let report = lint(text, &options).next().expect("one URL");
        let labels: Vec<&str> = report
            .findings
            .iter()
            .flat_map(|finding| finding.source_spans.iter())
            .map(|span| &text[span.range()])
            .collect();
        assert_eq!(labels, vec!["~", "~"]);
        assert_eq!(
            report.findings[1].source_spans[0].start,
            text.rfind('~').unwrap()
        );
    }

    #[test]
    fn rule_levels_silence_and_raise() {
        let text = "<URL:HTTP://host.example/> and <http://host.example/>";
        let mut options = LintOptions::default();
        assert_eq!(rules_in(text, &options), vec![Rule::SchemeCase]);
        options.levels.set(Rule::SchemeCase, Level::Off);
        options.levels.set(Rule::MissingUrlPrefix, Level::Error);
        let findings: Vec<Finding> = lint(text, &options).flat_map(|r| r.findings).collect();
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].diagnostic.rule, Rule::MissingUrlPrefix);
        assert_eq!(findings[0].diagnostic.severity, crate::Severity::Error);
    }
}
