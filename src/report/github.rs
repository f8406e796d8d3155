//! GitHub Actions workflow commands (`::error file=...::message`), which the
//! runner turns into annotations on the pull request's diff.
//!
//! Positions: `line`/`col` are where the finding's first source piece starts;
//! `endLine`/`endColumn` are the last character of its last piece
//! (inclusive, as GitHub reads them), so a URL wrapped over lines is
//! annotated over all of them.

use std::io;

use codespan_reporting::term::termcolor::WriteColor;

use super::placed::placed_spans;
use super::reporter::{findings_in_order, fix_line, repository_path, Reporter, Totals};
use crate::checked::{Checked, KeepText};
use crate::lint::{Finding, UrlReport};
use crate::span::SourceSpan;

/// Writes one workflow command per finding.
pub(super) struct GithubReporter;

impl Reporter for GithubReporter {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        for (report, finding) in findings_in_order(checked) {
            writeln!(out, "{}", command(checked, report, finding))?;
        }
        Ok(())
    }

    fn finish(&mut self, _out: &mut dyn WriteColor, _totals: &Totals) -> io::Result<()> {
        Ok(())
    }

    fn texts_read(&self) -> KeepText {
        KeepText::WithFindings
    }
}

/// The workflow command for one finding.
fn command(checked: &Checked, report: Option<&UrlReport>, finding: &Finding) -> String {
    let diagnostic = &finding.diagnostic;
    let spans = placed_spans(report, finding);
    let first = spans.first().copied().unwrap_or_default();
    let last = spans.last().copied().unwrap_or(first);
    let start = checked.locate(first);
    // The last character's column: one before the exclusive end, but never
    // before the start (an empty span marks one position).
    let end = checked.locate(SourceSpan::new(
        last.end.saturating_sub(1).max(last.start),
        last.end,
    ));
    let mut message = diagnostic.message.clone();
    if !diagnostic.help.is_empty() {
        message.push('\n');
        message.push_str(&diagnostic.help);
    }
    if let Some(line) = fix_line(checked, report, finding, "fix") {
        message.push('\n');
        message.push_str(&line);
    }
    format!(
        "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        diagnostic.severity.as_str(),
        escape_property(repository_path(&checked.source.name)),
        start.line,
        start.column,
        end.line,
        end.column,
        escape_property(&format!("urlint({})", diagnostic.rule.name())),
        escape_data(&message)
    )
}

/// Escape a command's message: `%`, CR and LF would end or corrupt it
/// (GitHub decodes `%25`, `%0D` and `%0A`). Other control characters (an
/// ESC in a file name would drive the terminal of whoever reads the log)
/// and bidirectional controls are written as urlint's escapes, `\x1b`.
fn escape_data(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => escaped.push_str("%25"),
            '\r' => escaped.push_str("%0D"),
            '\n' => escaped.push_str("%0A"),
            c if crate::escape::is_escaped(c) => crate::escape::push_escape(&mut escaped, c),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Escape a property value: as data, plus `:` and `,`, which separate
/// properties.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;

    #[test]
    fn escaping_follows_the_workflow_command_rules() {
        let cases = [
            ("100% sure", "100%25 sure", "100%25 sure"),
            ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
            ("a:b,c", "a:b,c", "a%3Ab%2Cc"),
            ("%0A", "%250A", "%250A"),
            ("a\x1b]0;x\x07b", "a\\x1b]0;x\\x07b", "a\\x1b]0;x\\x07b"),
            ("a\u{202e}b", "a\\u{202e}b", "a\\u{202e}b"),
        ];
        for (raw, data, property) in cases {
            assert_eq!(escape_data(raw), data, "{raw:?}");
            assert_eq!(escape_property(raw), property, "{raw:?}");
        }
    }

    #[test]
    fn a_wrapped_finding_becomes_one_annotation_with_escaped_help() {
        let checked = fixtures::wrapped();
        let report = &checked.reports[0];
        let commands: Vec<String> = report
            .findings
            .iter()
            .map(|finding| command(&checked, Some(report), finding))
            .collect();
        assert_eq!(
            commands,
            [
                "::warning file=docs/list.txt,line=1,col=37,endLine=1,endColumn=37,\
                 title=urlint(hyphen-break)::line break after '-': the hyphen may not be part of the URL",
                "::error file=docs/list.txt,line=2,col=11,endLine=2,endColumn=11,\
                 title=urlint(unsafe-char)::unsafe character '~' must be encoded as %257E\
                 %0ARFC 1738 section 2.2 lists '~' among the unsafe characters\
                 %0Afix: replace `~` with `%257E`",
            ]
        );
    }

    #[test]
    fn path_with_separators_is_escaped() {
        let mut checked = fixtures::clean();
        checked.source.name = "docs/a,b:c.txt".to_string();
        let mut finding = fixtures::wrapped().reports[0].findings[1].clone();
        finding.source_spans = vec![SourceSpan::new(6, 25)];
        checked.reports[0].findings.push(finding);
        let report = &checked.reports[0];
        let line = command(&checked, Some(report), &report.findings[0]);
        assert!(line
            .starts_with("::error file=docs/a%2Cb%3Ac.txt,line=1,col=7,endLine=1,endColumn=25,"));
    }
}
