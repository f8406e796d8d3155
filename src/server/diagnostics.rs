//! Findings as the protocol's diagnostics.
//!
//! A diagnostic's range is the first piece of its finding. A finding on a
//! URL wrapped across lines has one piece per line it touches, each exact;
//! the others, and the URL's other line pieces, are the diagnostic's
//! related information, so a client shows every line the problem is on.

use std::ops::ControlFlow;
use std::str::FromStr;

use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag,
    Location, NumberOrString, Range, Uri,
};

use super::analysis::{Analysis, PlacedFinding, PlacedUnclosed};
use crate::profile::Profile;
use crate::rules::{Rule, RuleInfo, Severity};
use crate::span::Span;

/// Most diagnostics published for one document: past a few thousand, a
/// client spends seconds drawing what no one reads, and the first ones are
/// the ones to fix first.
pub(super) const MAX_DIAGNOSTICS: usize = 5000;

/// The name diagnostics give as their source.
const SOURCE: &str = "urlint";

/// The diagnostics of a document at `uri`, at most [`MAX_DIAGNOSTICS`]:
/// what its markup left open first, then its findings.
pub(super) fn diagnostics(analysis: &Analysis, uri: &Uri) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = analysis
        .unclosed
        .iter()
        .map(|placed| unclosed_diagnostic(analysis, uri, placed))
        .take(MAX_DIAGNOSTICS)
        .collect();
    let _ = analysis.visit_findings(analysis.all_urls(), &mut |placed| {
        if diagnostics.len() == MAX_DIAGNOSTICS {
            return ControlFlow::Break(());
        }
        diagnostics.push(diagnostic(analysis, uri, placed));
        ControlFlow::Continue(())
    });
    diagnostics
}

/// The warning that the markup left something open at `placed`, with where
/// what it took in ends as related information.
fn unclosed_diagnostic(analysis: &Analysis, uri: &Uri, placed: &PlacedUnclosed) -> Diagnostic {
    let end = DiagnosticRelatedInformation {
        location: location(analysis, uri, placed.end),
        message: "read as part of it up to here".to_owned(),
    };
    Diagnostic {
        range: range(analysis, placed.opening),
        severity: Some(DiagnosticSeverity::WARNING),
        source: Some(SOURCE.to_owned()),
        message: placed.message.clone(),
        related_information: Some(vec![end]),
        ..Diagnostic::default()
    }
}

/// The diagnostic of one placed finding.
pub(super) fn diagnostic(analysis: &Analysis, uri: &Uri, placed: &PlacedFinding<'_>) -> Diagnostic {
    let found = &placed.finding.diagnostic;
    let info = found.rule.info();
    let first = placed.pieces.first().copied().unwrap_or_default();
    let mut related: Vec<DiagnosticRelatedInformation> = placed
        .pieces
        .iter()
        .skip(1)
        .map(|&piece| DiagnosticRelatedInformation {
            location: location(analysis, uri, piece),
            message: format!("{} continues here", info.name),
        })
        .collect();
    if let Some(url) = placed.url.filter(|url| url.pieces.len() > 1) {
        let url_pieces = &url.pieces;
        let count = url_pieces.len();
        related.extend(
            url_pieces
                .iter()
                .enumerate()
                .filter(|(_, piece)| !placed.pieces.iter().any(|own| overlaps(*own, **piece)))
                .map(|(k, &piece)| DiagnosticRelatedInformation {
                    location: location(analysis, uri, piece),
                    message: format!(
                        "line {} of {count} of the URL {}",
                        k + 1,
                        url.report.found.url
                    ),
                }),
        );
    }
    let mut message = found.message.clone();
    if !found.help.is_empty() {
        message.push('\n');
        message.push_str(&found.help);
    }
    Diagnostic {
        range: range(analysis, first),
        severity: Some(severity(found.severity)),
        code: Some(NumberOrString::String(info.name.to_owned())),
        code_description: reference(info, analysis.options.profile)
            .map(|href| CodeDescription { href }),
        source: Some(SOURCE.to_owned()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: tags(found.rule),
        data: None,
    }
}

/// The protocol range of a document span.
pub(super) fn range(analysis: &Analysis, span: Span) -> Range {
    let text: &str = &analysis.text;
    Range::new(
        analysis.index.position(text, span.start),
        analysis.index.position(text, span.end),
    )
}

fn location(analysis: &Analysis, uri: &Uri, span: Span) -> Location {
    Location::new(uri.clone(), range(analysis, span))
}

/// True when two spans share a byte.
fn overlaps(a: Span, b: Span) -> bool {
    a.start < b.end && b.start < a.end
}

fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
    }
}

/// Tags a client draws findings with: a suppression that silences nothing
/// is greyed out as unused, deprecated userinfo is struck through.
fn tags(rule: Rule) -> Option<Vec<DiagnosticTag>> {
    match rule {
        Rule::UnusedSuppression => Some(vec![DiagnosticTag::UNNECESSARY]),
        Rule::DeprecatedUserinfo => Some(vec![DiagnosticTag::DEPRECATED]),
        _ => None,
    }
}

/// Where a rule is documented under `profile`: the section of the standard
/// it checks, on the RFC Editor's site (`RFC 1738 section 3.1` is
/// `https://www.rfc-editor.org/rfc/rfc1738#section-3.1`). Rules from no
/// RFC (urlint's own suppressions) have none; their explanation is the
/// hover's.
pub(super) fn reference(info: &RuleInfo, profile: Profile) -> Option<Uri> {
    let reference = info.source(profile)?.reference;
    let rest = reference.strip_prefix("RFC ")?;
    let (number, place) = rest.split_once(' ').unwrap_or((rest, ""));
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let anchor = if let Some(section) = place.strip_prefix("section ") {
        format!("#section-{section}")
    } else if let Some(appendix) = place.strip_prefix("Appendix ") {
        format!("#appendix-{appendix}")
    } else {
        String::new()
    };
    Uri::from_str(&format!(
        "https://www.rfc-editor.org/rfc/rfc{number}{anchor}"
    ))
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    use crate::server::analysis::DocumentReading;
    use crate::server::position::Encoding;
    use lsp_types::Position;

    fn span_range(line: u32, start: u32, end_line: u32, end: u32) -> Range {
        Range::new(Position::new(line, start), Position::new(end_line, end))
    }

    #[test]
    fn rule_references_name_the_rfc_section_of_the_profile() {
        let href = |rule: Rule, profile| reference(rule.info(), profile).map(|uri| uri.to_string());
        assert_eq!(
            href(Rule::BadPort, Profile::Rfc1738).as_deref(),
            Some("https://www.rfc-editor.org/rfc/rfc1738#section-3.1")
        );
        assert_eq!(
            href(Rule::BadPort, Profile::Rfc3986).as_deref(),
            Some("https://www.rfc-editor.org/rfc/rfc3986#section-3.2.3")
        );
        assert_eq!(
            href(Rule::HyphenBreak, Profile::Rfc1738).as_deref(),
            Some("https://www.rfc-editor.org/rfc/rfc1738")
        );
        assert_eq!(href(Rule::UnusedSuppression, Profile::Rfc1738), None);
        assert_eq!(href(Rule::NewsGroup, Profile::Rfc3986), None);
    }

    #[test]
    fn a_wrapped_finding_is_ranged_on_its_first_piece_and_related_to_the_rest() {
        let text = "\u{1F600} <URL:http://h.example/a~\n      ~b/\n      c>\n";
        let analysis = Analysis::run(
            Some(PathBuf::from("/w/a.txt")),
            3,
            Arc::new(text.to_string()),
            DocumentReading::default(),
            Encoding::Utf16,
        );
        let uri = Uri::from_str("file:///w/a.txt").expect("a URI");
        let found = diagnostics(&analysis, &uri);
        assert_eq!(found.len(), 1);
        let diagnostic = &found[0];
        // The emoji is two UTF-16 units: '~' is at character 26 of line 0.
        assert_eq!(diagnostic.range, span_range(0, 26, 0, 27));
        assert_eq!(diagnostic.severity, Some(DiagnosticSeverity::ERROR));
        assert_eq!(
            diagnostic.code,
            Some(NumberOrString::String("unsafe-char".into()))
        );
        let related: Vec<(Range, &str)> = diagnostic
            .related_information
            .iter()
            .flatten()
            .map(|info| (info.location.range, info.message.as_str()))
            .collect();
        assert_eq!(
            related,
            [
                (span_range(1, 6, 1, 7), "unsafe-char continues here"),
                (
                    span_range(2, 6, 2, 7),
                    "line 3 of 3 of the URL http://h.example/a~~b/c"
                ),
            ]
        );
        assert!(diagnostic.message.starts_with("unsafe character '~'"));
    }
}
