//! Where a fix lands in the source: the one place that turns a fix, whose
//! span may index the joined URL, into edits of the source bytes.
//!
//! A validator fix replaces a span of the joined URL. The span is first
//! narrowed to what really changes (the common head and tail of the old and
//! new text are left alone), then mapped through the URL's segments. A
//! change inside one line piece is one edit. A change across a line break
//! of a wrapped URL is split so that the break, the leader and the
//! indentation of the next line stay where they are: a replacement as long
//! as what it replaces is cut where the pieces are cut (`HT`+`TP` becomes
//! `ht`+`tp`); any other goes into the first piece, and the later pieces
//! lose their old text.
//!
//! A fix is placed only where the URL's bytes are the source's bytes. A
//! segment whose URL text was decoded from its source (an HTML attribute's
//! entities, a quoted-printable soft break) maps to source bytes of another
//! length or content; such a fix is refused, with the reason, rather than
//! written over bytes it does not describe.

use std::fmt;

use super::edit::{Edit, EditGroup};
use crate::diagnostic::Fix;
use crate::lint::{Finding, UrlReport};
use crate::span::Span;

/// Why a fix could not be placed in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unplaced {
    /// The fix's span is outside the text or not on character boundaries.
    OutOfText,
    /// The URL text under the fix is not a copy of the source bytes it maps
    /// to (it was decoded from them).
    Decoded,
}

impl fmt::Display for Unplaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unplaced::OutOfText => "the fix does not lie on the text's characters",
            Unplaced::Decoded => {
                "the URL was decoded from its source (entities or a transfer \
                 encoding), so the fix has no source bytes to replace"
            }
        })
    }
}

/// The source edits that apply `finding`'s fix in `text`, the text that
/// `report` was linted from (none for a fix that changes nothing); `None`
/// when the finding has no fix.
pub(crate) fn place(
    text: &str,
    report: &UrlReport,
    finding: &Finding,
) -> Option<Result<EditGroup, Unplaced>> {
    let fix = finding.diagnostic.fix.as_ref()?;
    Some(match finding.url_span {
        None => in_source(text, finding.diagnostic.span, fix),
        Some(url_span) => in_url(text, report, url_span, fix),
    })
}

/// A fix whose span indexes the source already (scanner findings).
fn in_source(text: &str, span: Span, fix: &Fix) -> Result<EditGroup, Unplaced> {
    if !on_boundaries(text, span) {
        return Err(Unplaced::OutOfText);
    }
    let (span, replacement) = narrowed(&text[span.range()], span, &fix.replacement);
    if span.is_empty() && replacement.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![Edit {
        span,
        replacement: replacement.to_string(),
    }])
}

/// A fix whose span indexes the joined URL (validator findings).
fn in_url(
    text: &str,
    report: &UrlReport,
    url_span: Span,
    fix: &Fix,
) -> Result<EditGroup, Unplaced> {
    let url = &report.found.url;
    if !on_boundaries(url, url_span) {
        return Err(Unplaced::OutOfText);
    }
    let (url_span, replacement) = narrowed(&url[url_span.range()], url_span, &fix.replacement);
    if url_span.is_empty() && replacement.is_empty() {
        return Ok(Vec::new());
    }
    let pieces = report.found.source_spans(url_span);
    if !pieces.iter().all(|&piece| on_boundaries(text, piece)) {
        return Err(Unplaced::OutOfText);
    }
    let copied: String = pieces.iter().map(|piece| &text[piece.range()]).collect();
    if copied != url[url_span.range()] {
        return Err(Unplaced::Decoded);
    }
    Ok(split(text, &pieces, replacement))
}

/// One edit per piece: `replacement` cut where the pieces are cut when it
/// is as long as they are and the cuts fall on its character boundaries;
/// otherwise all of it in the first piece and nothing in the others.
fn split(text: &str, pieces: &[Span], replacement: &str) -> EditGroup {
    let total: usize = pieces.iter().map(Span::len).sum();
    let mut cuts = Vec::with_capacity(pieces.len());
    let mut at = 0;
    for piece in pieces {
        at += piece.len();
        cuts.push(at);
    }
    let parallel =
        total == replacement.len() && cuts.iter().all(|&cut| replacement.is_char_boundary(cut));
    let mut start = 0;
    pieces
        .iter()
        .zip(cuts)
        .enumerate()
        .map(|(index, (&piece, cut))| {
            let new = match (parallel, index) {
                (true, _) => &replacement[start..cut],
                (false, 0) => replacement,
                (false, _) => "",
            };
            start = cut;
            debug_assert!(on_boundaries(text, piece));
            Edit {
                span: piece,
                replacement: new.to_string(),
            }
        })
        .collect()
}

/// The part of `span` (whose text is `old`) that `new` really changes, and
/// what replaces it: the common head and tail are left out, on character
/// boundaries.
fn narrowed<'n>(old: &str, span: Span, new: &'n str) -> (Span, &'n str) {
    let head = common_head(old, new);
    let tail = common_tail(&old[head..], &new[head..]);
    let narrowed = Span::new(span.start + head, span.end - tail);
    (narrowed, &new[head..new.len() - tail])
}

/// Bytes of the longest common prefix of `a` and `b`, on a character boundary.
fn common_head(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((at, _), _)| at)
}

/// Bytes of the longest common suffix of `a` and `b`, on a character boundary.
fn common_tail(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum()
}

/// True when `span` lies in `text` on character boundaries.
fn on_boundaries(text: &str, span: Span) -> bool {
    span.start <= span.end && text.get(span.range()).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Applicability, Diagnostic};
    use crate::rules::Rule;
    use crate::scan::{Form, Found, Segment};

    /// A URL joined from `runs` of `text`, with one validator finding at
    /// `url_span` whose fix is `replacement`.
    fn url_report(
        text: &str,
        runs: &[(usize, usize)],
        url_span: Span,
        replacement: &str,
    ) -> UrlReport {
        let mut url = String::new();
        let segments = runs
            .iter()
            .map(|&(start, end)| {
                let segment = Segment::copied(Span::new(start, end), url.len());
                url.push_str(&text[start..end]);
                segment
            })
            .collect();
        let found = Found {
            url,
            form: Form::Wrapped,
            outer: Span::new(0, text.len()),
            segments,
            alternatives: Vec::new(),
            diagnostics: Vec::new(),
        };
        let diagnostic = Diagnostic::new(Rule::SchemeCase, url_span, "m")
            .with_fix(replacement, Applicability::MachineApplicable);
        let finding = Finding {
            source_spans: found.source_spans(url_span),
            url_span: Some(url_span),
            diagnostic,
        };
        UrlReport {
            found,
            findings: vec![finding],
        }
    }

    fn placed(text: &str, report: &UrlReport) -> Result<Vec<(String, String)>, Unplaced> {
        let edits = place(text, report, &report.findings[0]).expect("has a fix")?;
        Ok(edits
            .into_iter()
            .map(|edit| (text[edit.span.range()].to_string(), edit.replacement))
            .collect())
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn appendix_a_fix_across_a_line_break_keeps_the_break() {
        // "<URL:HT\n   TP://a.example/>": the scheme is split by the break.
        let text = "<URL:HT\n   TP://a.example/>";
        let report = url_report(text, &[(5, 7), (11, 26)], Span::new(0, 4), "http");
        assert_eq!(
            placed(text, &report),
            Ok(pairs(&[("HT", "ht"), ("TP", "tp")]))
        );
    }

    #[test]
    fn a_longer_replacement_goes_into_the_first_piece() {
        // A port ":21" broken as ":2" / "1": removed from both lines.
        let text = "<URL:file://h:2\n  1/x>";
        let report = url_report(text, &[(5, 15), (18, 21)], Span::new(8, 11), "");
        assert_eq!(placed(text, &report), Ok(pairs(&[(":2", ""), ("1", "")])));
        // "?" -> "/?" narrows to an insertion before the '?'.
        let text = "<URL:http://h?\n  q>";
        let report = url_report(text, &[(5, 14), (17, 18)], Span::new(8, 9), "/?");
        assert_eq!(placed(text, &report), Ok(pairs(&[("", "/")])));
    }

    #[test]
    fn unchanged_head_and_tail_are_left_alone() {
        let text = "<URL:HTTP://a/>";
        let report = url_report(text, &[(5, 14)], Span::new(0, 4), "hTTP");
        assert_eq!(placed(text, &report), Ok(pairs(&[("H", "h")])));
    }

    #[test]
    fn a_decoded_url_is_not_written_over() {
        // An HTML attribute "a&#126;b" read as the URL "a~b": the segment's
        // source bytes are not the URL's.
        let text = "http://h/a&#126;b";
        let mut report = url_report(text, &[(0, 10)], Span::new(10, 11), "%7E");
        report.found.url = "http://h/a~b".to_string();
        report
            .found
            .segments
            .push(Segment::decoded(Span::new(10, 16), Span::new(10, 11)));
        report.findings[0].source_spans = report.found.source_spans(Span::new(10, 11));
        assert_eq!(placed(text, &report), Err(Unplaced::Decoded));
    }
}
