//! Hover on a URL: the URL as joined, how it is written, and each finding
//! with the rule's explanation, the same text as `urlint explain RULE`.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use super::analysis::Analysis;
use super::diagnostics::range;
use crate::markup;
use crate::report::{explain, fix_instruction};
use crate::rules::Rule;
use crate::scan::Form;
use crate::source::Markup;

/// What hovering byte `offset` of the analysed document shows, if it is
/// on a URL; Markdown when the client reads it, else plain text.
pub(super) fn hover(analysis: &Analysis, offset: usize, markdown: bool) -> Option<Hover> {
    let placed = analysis.url(analysis.url_at(offset)?);
    let checked = placed.checked;
    let report = &*placed.report;
    let found = &report.found;
    let text = Text { markdown };
    let mut out = format!("{} {}\n\n", text.strong("URL"), text.code(&found.url));
    let lines = placed.pieces.len();
    let written = form(found.form, checked.source.markup, &text);
    out.push_str(&format!("Written {written}"));
    if lines > 1 {
        out.push_str(&format!(", across {lines} lines"));
    }
    out.push_str(".\n");
    for alternative in &found.alternatives {
        out.push_str(&format!(
            "\nCould also read {}: {}\n",
            text.code(&alternative.url),
            alternative.reason
        ));
    }
    if report.findings.is_empty() {
        out.push_str("\nNo findings.\n");
    }
    let mut explained: Vec<Rule> = Vec::new();
    for finding in &report.findings {
        let diagnostic = &finding.diagnostic;
        out.push_str(&text.rule());
        let heading = format!(
            "{}[{}]",
            diagnostic.severity.as_str(),
            diagnostic.rule.name()
        );
        out.push_str(&format!(
            "{} {}\n",
            text.strong(&heading),
            diagnostic.message
        ));
        if !diagnostic.help.is_empty() {
            out.push_str(&format!("\n{}\n", diagnostic.help));
        }
        if let Some(instruction) = fix_instruction(checked, Some(report), finding) {
            out.push_str(&format!("\nFix: {instruction}.\n"));
        }
        if !explained.contains(&diagnostic.rule) {
            explained.push(diagnostic.rule);
            out.push('\n');
            out.push_str(&text.block(&explain::rule_entry(diagnostic.rule.info())));
        }
    }
    let kind = if markdown {
        MarkupKind::Markdown
    } else {
        MarkupKind::PlainText
    };
    let here = placed
        .pieces
        .iter()
        .find(|piece| piece.start <= offset && offset < piece.end)
        .copied()
        .unwrap_or(placed.extent);
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind, value: out }),
        range: Some(range(analysis, here)),
    })
}

/// How a URL was written in a text in `markup`, in words.
fn form(form: Form, markup: Markup, text: &Text) -> String {
    match form {
        Form::Wrapped => format!(
            "in the RFC 1738 Appendix wrapper {}",
            text.code("<URL:...>")
        ),
        Form::Angle => format!(
            "in angle brackets without the prefix, {}",
            text.code("<...>")
        ),
        Form::Prefixed => format!("with the prefix but no brackets, {}", text.code("URL:...")),
        Form::Bare => "bare, in running text".to_owned(),
        Form::Link => markup::facts(markup)
            .link_form
            .unwrap_or("as a link of the markup")
            .to_owned(),
        Form::Attribute => "as an HTML attribute value".to_owned(),
    }
}

/// Hover text, in Markdown or plain.
struct Text {
    markdown: bool,
}

impl Text {
    fn strong(&self, words: &str) -> String {
        if self.markdown {
            format!("**{}**", escape_markdown(words))
        } else {
            words.to_owned()
        }
    }

    /// `code` as a code span, whatever backticks it holds.
    fn code(&self, code: &str) -> String {
        if !self.markdown {
            return code.to_owned();
        }
        let ticks = "`".repeat(longest_backtick_run(code) + 1);
        let pad = if code.starts_with('`') || code.ends_with('`') {
            " "
        } else {
            ""
        };
        format!("{ticks}{pad}{code}{pad}{ticks}")
    }

    /// `block` kept as written, in a fenced block in Markdown.
    fn block(&self, block: &str) -> String {
        if !self.markdown {
            return block.to_owned();
        }
        let fence = "`".repeat((longest_backtick_run(block) + 1).max(3));
        format!("{fence}text\n{}\n{fence}\n", block.trim_end())
    }

    /// A separator before each finding.
    fn rule(&self) -> String {
        if self.markdown {
            "\n---\n\n".to_owned()
        } else {
            "\n".to_owned()
        }
    }
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// `words` with Markdown's emphasis characters escaped.
fn escape_markdown(words: &str) -> String {
    let mut escaped = String::with_capacity(words.len());
    for c in words.chars() {
        if matches!(c, '*' | '_' | '[' | ']' | '`' | '\\') {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    use crate::server::analysis::DocumentReading;
    use crate::server::position::Encoding;

    fn analysis(text: &str) -> Analysis {
        analysis_of("/w/a.txt", text)
    }

    fn analysis_of(path: &str, text: &str) -> Analysis {
        Analysis::run(
            Some(PathBuf::from(path)),
            1,
            Arc::new(text.to_string()),
            DocumentReading::default(),
            Encoding::Utf16,
        )
    }

    fn value(hover: &Hover) -> &str {
        match &hover.contents {
            HoverContents::Markup(markup) => &markup.value,
            _ => "",
        }
    }

    #[test]
    fn a_wrapped_url_shows_joined_with_each_explanation() {
        let text = "see <URL:http://h.example:8x/a~\n     ~b/>\n";
        let analysis = analysis(text);
        let on_second_line = text.rfind('~').unwrap();
        let hover = hover(&analysis, on_second_line, true).expect("on the URL");
        let shown = value(&hover);
        assert!(
            shown.starts_with("**URL** `http://h.example:8x/a~~b/`\n\n"),
            "{shown}"
        );
        assert!(shown.contains("across 2 lines"), "{shown}");
        assert!(shown.contains("**error\\[bad-port\\]** "), "{shown}");
        for rule in [Rule::BadPort, Rule::UnsafeChar] {
            let entry = explain::rule_entry(rule.info());
            assert!(shown.contains(entry.trim_end()), "{rule:?}: {shown}");
        }
        assert!(
            shown.contains("Fix: replace `~~` with `%7E%7E`."),
            "{shown}"
        );
        assert_eq!(hover.range.map(|r| r.start.line), Some(1));
        assert!(super::hover(&analysis, 1, true).is_none());
    }

    #[test]
    fn plain_text_hover_has_no_markup() {
        let analysis = analysis("<URL:http://h.example/~a>");
        let hover = hover(&analysis, 3, false).expect("on the URL");
        let shown = value(&hover);
        assert!(shown.starts_with("URL http://h.example/~a\n"), "{shown}");
        assert!(
            shown.contains("\nerror[unsafe-char] unsafe character"),
            "{shown}"
        );
        assert!(!shown.contains("```") && !shown.contains("**"), "{shown}");
        assert_eq!(Text { markdown: true }.code("`a``b"), "``` `a``b ```");
    }

    /// Each markup's links are described in its own words.
    #[test]
    fn a_link_is_described_as_its_markup_writes_it() {
        let cases = [
            ("/w/a.md", "[x](http://h.example/~a)", "as a Markdown link"),
            (
                "/w/a.rst",
                "`x <http://h.example/~a>`_",
                "as a reStructuredText link",
            ),
            (
                "/w/a.html",
                "<a href=\"http://h.example/~a\">x</a>",
                "as an HTML attribute",
            ),
            (
                "/w/a.txt",
                "see http://h.example/~a now",
                "bare, in running text",
            ),
        ];
        for (path, text, words) in cases {
            let analysis = analysis_of(path, text);
            let on_url = text.find("h.example").unwrap();
            let hover = hover(&analysis, on_url, false).expect("on the URL");
            assert!(value(&hover).contains(words), "{path}: {}", value(&hover));
        }
    }
}
