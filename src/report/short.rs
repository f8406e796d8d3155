//! One line per finding, `path:line:col: severity[rule]: message`, for
//! editors' quickfix lists and for grep. Input text in a line (the file
//! name, a quoted character) is escaped, so one finding is one line.

use std::io;

use codespan_reporting::term::termcolor::WriteColor;

use super::placed::placed_spans;
use super::reporter::{findings_in_order, Reporter, Totals};
use crate::checked::{Checked, KeepText};
use crate::escape;
use crate::lint::{Finding, UrlReport};

/// Writes each finding on one line; no summary, so every line parses alike.
pub(super) struct ShortReporter;

impl Reporter for ShortReporter {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        for (report, finding) in findings_in_order(checked) {
            writeln!(out, "{}", line(checked, report, finding))?;
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

/// The finding's line, positioned at the start of its first source span.
fn line(checked: &Checked, report: Option<&UrlReport>, finding: &Finding) -> String {
    let diagnostic = &finding.diagnostic;
    let span = placed_spans(report, finding)
        .first()
        .copied()
        .unwrap_or_default();
    let location = checked.locate(span);
    format!(
        "{}:{}:{}: {}[{}]: {}",
        escape::line(&checked.source.name),
        location.line,
        location.column,
        diagnostic.severity.as_str(),
        diagnostic.rule.name(),
        escape::line(&diagnostic.message)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use codespan_reporting::term::termcolor::NoColor;

    #[test]
    fn one_line_per_finding_at_its_first_piece() {
        let mut out = NoColor::new(Vec::new());
        let mut reporter = ShortReporter;
        reporter
            .source(&mut out, &fixtures::wrapped())
            .and_then(|()| reporter.source(&mut out, &fixtures::clean()))
            .and_then(|()| reporter.finish(&mut out, &Totals::default()))
            .expect("write to memory");
        assert_eq!(
            String::from_utf8_lossy(&out.into_inner()),
            "docs/list.txt:1:37: warning[hyphen-break]: line break after '-': the hyphen may not be part of the URL\n\
             docs/list.txt:2:11: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n"
        );
    }
}
