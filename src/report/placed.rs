//! Where a finding is placed in its source and how its fix reads: what
//! every reporter shows, and what the Python module's findings carry, so
//! that both place and word a finding the same way.

use crate::checked::Checked;
use crate::lint::{At, Finding, UrlReport};
use crate::rewrite::place;
use crate::scan::Segment;
use crate::span::{clamp, SourceSpan};

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
        // A validator's finding comes with its URL's report; without it
        // there is no text to name.
        (At::Url(_), None) => return None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

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
}
