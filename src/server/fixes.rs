//! Fixes as edits of the document, through the fix engine `check --fix`
//! uses: a finding's fix placed in the document's bytes by
//! [`rewrite::place`], and every fix of the document by
//! [`rewrite::fix_text`], which lints again between passes.
//!
//! Only machine-applicable fixes are offered, as `check --fix` applies only
//! those, and only in a document read as one text: a mail message's URLs
//! are decoded from its archive bytes, and `check --fix` never rewrites
//! mail either.

use super::analysis::{Analysis, PlacedFinding};
use super::edit::SourceEdit;
use crate::diagnostic::Applicability;
use crate::lint::{self, Linted};
use crate::rewrite::{self, FixSelection};
use crate::span::Span;

/// The largest document fixed whole on request: fixing lints the text
/// again after each pass, on the message loop, so a larger one is left to
/// `urlint check --fix`.
pub(super) const FIX_ALL_MAX_LEN: usize = 1 << 20;

/// The edits of `placed`'s fix in the analysed document, when it has a
/// machine-applicable fix that lands on the document's bytes.
pub(super) fn fix_edits(
    analysis: &Analysis,
    placed: &PlacedFinding<'_>,
) -> Option<Vec<SourceEdit>> {
    let checked = analysis.whole_text()?;
    let (report, finding) = (placed.report()?, placed.finding);
    let fix = finding.diagnostic.fix.as_ref()?;
    if fix.applicability != Applicability::MachineApplicable {
        return None;
    }
    let text = checked.text()?;
    let group = rewrite::place(text, checked.source.markup, report, finding)?.ok()?;
    let edits: Vec<SourceEdit> = group
        .into_iter()
        // `whole_text` is the document's one text, so its source offsets
        // are the document's.
        .map(|edit| SourceEdit {
            span: edit.span.of(),
            replacement: edit.replacement,
        })
        .collect();
    (!edits.is_empty()).then_some(edits)
}

/// What fixing the whole document comes to: the one edit that turns its
/// text into the fixed text, and how many findings that fixes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FixedDocument {
    /// The changed bytes, replaced.
    pub edit: SourceEdit,
    /// The findings fixed.
    pub fixed: usize,
}

/// Every machine-applicable fix of the analysed document applied, as
/// `check --fix` applies them; `None` when nothing is fixed, or the
/// document is mail or larger than [`FIX_ALL_MAX_LEN`].
pub(super) fn fix_all(analysis: &Analysis) -> Option<FixedDocument> {
    let checked = analysis.whole_text()?;
    if analysis.text.len() > FIX_ALL_MAX_LEN {
        return None;
    }
    let markup = checked.source.markup;
    let options = &analysis.options;
    let linter = |text: &str, each: &mut dyn FnMut(lint::UrlReport)| {
        lint::lint_markup(text, markup, options)
            .filter_map(Linted::into_url)
            .for_each(each);
    };
    let fixed = rewrite::fix_text(&analysis.text, markup, &linter, FixSelection::default());
    (fixed.fixed > 0).then(|| FixedDocument {
        edit: changed(&analysis.text, &fixed.text),
        fixed: fixed.fixed,
    })
}

/// The edit that turns `old` into `new`: the bytes between their common
/// start and common end replaced.
fn changed(old: &str, new: &str) -> SourceEdit {
    let mut start = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    let mut tail = old[start..]
        .bytes()
        .rev()
        .zip(new[start..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - tail) || !new.is_char_boundary(new.len() - tail) {
        tail -= 1;
    }
    SourceEdit {
        span: Span::new(start, old.len() - tail),
        replacement: new[start..new.len() - tail].to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    use crate::server::analysis::DocumentReading;
    use crate::server::position::Encoding;

    fn analysis(path: &str, text: &str) -> Analysis {
        Analysis::run(
            Some(PathBuf::from(path)),
            1,
            Arc::new(text.to_string()),
            DocumentReading::default(),
            Encoding::Utf16,
        )
    }

    fn applied(text: &str, edits: &[SourceEdit]) -> String {
        let mut text = text.to_string();
        for edit in edits.iter().rev() {
            text.replace_range(edit.span.range(), &edit.replacement);
        }
        text
    }

    #[test]
    fn rfc1738_2_2_a_fix_lands_on_the_document_bytes_of_every_kind() {
        let cases = [
            (
                "/w/a.txt",
                "see <URL:http://h.example/a~b>\n",
                "see <URL:http://h.example/a%7Eb>\n",
            ),
            (
                "/w/a.md",
                "[x](http://h.example/a~b)\n",
                "[x](http://h.example/a%7Eb)\n",
            ),
            (
                "/w/a.rst",
                "See `x <http://h.example/a~b>`_.\n",
                "See `x <http://h.example/a%7Eb>`_.\n",
            ),
            (
                "/w/a.html",
                "<a href=\"http://h.example/a&#126;b\">x</a>\n",
                "<a href=\"http://h.example/a%7Eb\">x</a>\n",
            ),
        ];
        for (path, text, expected) in cases {
            let analysis = analysis(path, text);
            let edits = analysis.each_finding(|placed| fix_edits(&analysis, placed));
            let [Some(edits)] = &edits[..] else {
                panic!("{path}: one finding with a fix: {edits:?}");
            };
            assert_eq!(applied(text, edits), expected, "{path}");
        }
    }

    #[test]
    fn appendix_a_a_fix_across_a_line_break_keeps_the_break() {
        let text = "<URL:http://h.example/a~\n     ~b>\n";
        let analysis = analysis("/w/a.txt", text);
        let edits = analysis.each_finding(|placed| fix_edits(&analysis, placed));
        let edits = edits[0].as_ref().expect("a fix");
        assert_eq!(
            applied(text, edits),
            "<URL:http://h.example/a%7E\n     %7Eb>\n"
        );
    }

    #[test]
    fn suggestions_and_mail_are_not_fixed() {
        let mail = analysis(
            "/w/m.eml",
            "From: a@example.org\nSubject: s\n\nsee http://h.example/~x\n",
        );
        let edits = mail.each_finding(|placed| fix_edits(&mail, placed));
        assert_eq!(edits, [None]);
        assert_eq!(fix_all(&mail), None);
        let suggestions: Vec<_> = {
            let text = "http://h.example:99999/ http://h.example/~x\n";
            let analysis = analysis("/w/a.txt", text);
            analysis.each_finding(|placed| {
                let fix = placed.finding.diagnostic.fix.as_ref();
                let applicability = fix.map(|fix| fix.applicability);
                (applicability, fix_edits(&analysis, placed).is_some())
            })
        };
        for (applicability, offered) in suggestions {
            assert_eq!(
                offered,
                applicability == Some(Applicability::MachineApplicable),
                "{applicability:?}"
            );
        }
    }

    #[test]
    fn fix_all_is_check_fix_as_one_edit() {
        // '{z}' reads as a template: encoding it is only a suggestion.
        let text = "a <URL:http://h.example/~a> b http://k.example/x|y{z}\n";
        let analysis = analysis("/w/a.txt", text);
        let fixed = fix_all(&analysis).expect("fixes");
        assert_eq!(fixed.fixed, 2);
        assert_eq!(
            applied(text, &[fixed.edit]),
            "a <URL:http://h.example/%7Ea> b http://k.example/x%7Cy{z}\n"
        );
        assert_eq!(fix_all(&self::analysis("/w/a.txt", "fine\n")), None);
    }

    #[test]
    fn the_changed_bytes_are_one_edit_on_character_boundaries() {
        let edit = changed("a \u{e9}~b", "a \u{e8}%7Eb");
        assert_eq!(edit.span, Span::new(2, 5));
        assert_eq!(edit.replacement, "\u{e8}%7E");
        assert_eq!(changed("same", "same").span, Span::new(4, 4));
    }
}
