//! Reporters: turn linted sources into output. They know nothing of RFC 1738
//! nor of how URLs were found; every position they print is computed here,
//! from the byte spans the linter gives, in one way for all formats.
//!
//! A run hands each [`Checked`] source to a [`Reporter`] in report order,
//! then calls [`Reporter::finish`] once with the [`Totals`].

pub mod explain;
mod extract;
mod github;
mod human;
mod json;
mod short;

use std::io;
use std::ops::Range;

use codespan_reporting::term::termcolor::WriteColor;

use crate::diagnostic::Severity;
use crate::input::Source;
use crate::lint::{Finding, UrlReport};
use crate::span::{LineIndex, Span};

pub use extract::{ExtractFormat, ExtractOptions};
pub use human::HumanOptions;

/// One source after linting: its text, line index and every URL found in it.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The source as read.
    pub source: Source,
    /// Line starts of `source.text`, computed once for every reporter.
    pub lines: LineIndex,
    /// The URLs found, in source order, with their findings.
    pub reports: Vec<UrlReport>,
}

impl Checked {
    /// Bundle a source with its reports.
    pub fn new(source: Source, reports: Vec<UrlReport>) -> Self {
        Checked {
            lines: LineIndex::new(&source.text),
            source,
            reports,
        }
    }

    /// Where `span` lies in this source, in bytes and in lines and columns.
    pub fn locate(&self, span: Span) -> Location {
        let range = clamp(&self.source.text, span);
        let start = self.lines.line_col(&self.source.text, range.start);
        let end = self.lines.line_col(&self.source.text, range.end);
        Location {
            start: range.start,
            end: range.end,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }
}

/// A span placed in its source. `end_line`/`end_column` give the position
/// just past the last character (exclusive), like the byte range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: usize,
    /// 1-based column of `start`, in characters.
    pub column: usize,
    /// 1-based line of `end`.
    pub end_line: usize,
    /// 1-based column of `end`, in characters.
    pub end_column: usize,
}

/// The byte range of `span` inside `text`, cut to the text and moved outward
/// to character boundaries, so that no reporter can slice mid-character.
pub fn clamp(text: &str, span: Span) -> Range<usize> {
    let mut start = span.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    if span.end <= span.start {
        return start..start;
    }
    let mut end = span.end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// The fix of `finding` as an instruction ("replace `~` with `%7E`").
///
/// The replaced text is read from the URL when the finding indexes it, and
/// from the source otherwise.
pub fn fix_instruction(checked: &Checked, report: &UrlReport, finding: &Finding) -> Option<String> {
    let fix = finding.diagnostic.fix.as_ref()?;
    let old = match finding.url_span {
        Some(span) => &report.found.url[clamp(&report.found.url, span)],
        None => &checked.source.text[clamp(&checked.source.text, finding.diagnostic.span)],
    };
    Some(match (old.is_empty(), fix.replacement.is_empty()) {
        (true, _) => format!("insert `{}`", fix.replacement),
        (false, true) => format!("remove `{old}`"),
        (false, false) => format!("replace `{old}` with `{}`", fix.replacement),
    })
}

/// Counts over a whole run, for summaries and the exit code.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Totals {
    /// Sources checked (files, stdin, argument lists).
    pub files: usize,
    /// URLs found.
    pub urls: usize,
    /// Findings at error severity.
    pub errors: usize,
    /// Findings at warning severity.
    pub warnings: usize,
}

impl Totals {
    /// Add one checked source's counts.
    pub fn add(&mut self, checked: &Checked) {
        self.files += 1;
        self.urls += checked.reports.len();
        for finding in checked.reports.iter().flat_map(|report| &report.findings) {
            match finding.diagnostic.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
            }
        }
    }
}

/// True when `report` has no error-level finding.
pub fn is_valid(report: &UrlReport) -> bool {
    report
        .findings
        .iter()
        .all(|finding| finding.diagnostic.severity != Severity::Error)
}

/// Output formats for diagnostics (`check` and `validate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Compiler-style diagnostics with source excerpts.
    Human,
    /// `path:line:col: severity[rule]: message`, one finding per line.
    Short,
    /// One JSON document for the whole run.
    Json,
    /// One JSON object per finding, then a summary object.
    Jsonl,
    /// GitHub Actions workflow-command annotations.
    Github,
}

/// A streaming output: sources arrive in report order, then `finish`.
pub trait Reporter {
    /// Write what this format shows for one checked source.
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()>;
    /// Write whatever closes the output (summary, closing brackets).
    fn finish(&mut self, out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()>;
}

/// The reporter for a diagnostics format.
pub fn diagnostics_reporter(format: Format, human: HumanOptions) -> Box<dyn Reporter> {
    match format {
        Format::Human => Box::new(human::HumanReporter::new(human)),
        Format::Short => Box::new(short::ShortReporter),
        Format::Json => Box::new(json::JsonReporter::default()),
        Format::Jsonl => Box::new(json::JsonlReporter),
        Format::Github => Box::new(github::GithubReporter),
    }
}

/// The reporter for `extract`.
pub fn extract_reporter(options: ExtractOptions) -> Box<dyn Reporter> {
    Box::new(extract::ExtractReporter::new(options))
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Hand-built reports, so that reporters are tested without the scanner
    //! and the validator.

    use super::Checked;
    use crate::diagnostic::Diagnostic;
    use crate::input::{Origin, Source};
    use crate::lint::{Finding, UrlReport};
    use crate::rules::Rule;
    use crate::scan::{Alternative, Form, Found, Segment};
    use crate::span::Span;

    /// The text of [`wrapped`]: a `<URL:...>` broken after a hyphen, with a
    /// `~` on its second line.
    pub const WRAPPED_TEXT: &str =
        "See <URL:http://info.example.org/pub-\n    lists/~ann/list.txt> for the list.\n";

    /// A wrapped URL across two lines with an unsafe-char and a hyphen-break.
    pub fn wrapped() -> Checked {
        let text = WRAPPED_TEXT;
        let first = Span::new(9, 37); // "http://info.example.org/pub-"
        let second_start = text.find("lists").unwrap_or(0);
        let second = Span::new(second_start, second_start + "lists/~ann/list.txt".len());
        let url = "http://info.example.org/pub-lists/~ann/list.txt".to_string();
        let tilde_url = url.find('~').unwrap_or(0);
        let tilde_source = text.find('~').unwrap_or(0);
        let found = Found {
            url,
            form: Form::Wrapped,
            outer: Span::new(4, second.end + 1),
            segments: vec![
                Segment {
                    source: first,
                    url_start: 0,
                },
                Segment {
                    source: second,
                    url_start: first.len(),
                },
            ],
            alternatives: vec![Alternative {
                url: "http://info.example.org/publists/~ann/list.txt".to_string(),
                reason: "the hyphen may be a hyphenation added at the line break".to_string(),
            }],
            diagnostics: Vec::new(),
        };
        let hyphen = Span::new(first.end - 1, second.start);
        let findings = vec![
            Finding {
                diagnostic: Diagnostic::new(
                    Rule::HyphenBreak,
                    hyphen,
                    "line break after '-': the hyphen may not be part of the URL",
                ),
                url_span: None,
                source_spans: vec![Span::new(first.end - 1, first.end)],
            },
            Finding {
                diagnostic: Diagnostic::new(
                    Rule::UnsafeChar,
                    Span::new(tilde_url, tilde_url + 1),
                    "unsafe character '~' must be encoded as %7E",
                )
                .with_help("RFC 1738 section 2.2 lists '~' among the unsafe characters")
                .with_fix("%7E"),
                url_span: Some(Span::new(tilde_url, tilde_url + 1)),
                source_spans: vec![Span::new(tilde_source, tilde_source + 1)],
            },
        ];
        Checked::new(
            Source::new(Origin::File("docs/list.txt".into()), text.to_string()),
            vec![UrlReport { found, findings }],
        )
    }

    /// A clean bare URL on a line of its own.
    pub fn clean() -> Checked {
        let text = "home: http://example.com/\n";
        let span = Span::new(6, 25);
        let found = Found {
            url: "http://example.com/".to_string(),
            form: Form::Bare,
            outer: span,
            segments: vec![Segment {
                source: span,
                url_start: 0,
            }],
            alternatives: Vec::new(),
            diagnostics: Vec::new(),
        };
        Checked::new(
            Source::new(Origin::File("home.txt".into()), text.to_string()),
            vec![UrlReport {
                found,
                findings: Vec::new(),
            }],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamp_never_cuts_a_character() {
        let text = "aé<b"; // 'é' is bytes 1..3
        let cases = [
            (Span::new(0, 1), 0..1),
            (Span::new(2, 2), 1..1),
            (Span::new(2, 3), 1..3),
            (Span::new(1, 2), 1..3),
            (Span::new(3, 99), 3..5),
            (Span::new(99, 120), 5..5),
        ];
        for (span, expected) in cases {
            assert_eq!(clamp(text, span), expected, "{span:?}");
        }
    }

    #[test]
    fn locate_counts_columns_in_characters_with_exclusive_end() {
        let checked = fixtures::wrapped();
        let tilde = checked.source.text.find('~').unwrap_or(0);
        let location = checked.locate(Span::new(tilde, tilde + 1));
        assert_eq!(
            (
                location.line,
                location.column,
                location.end_line,
                location.end_column
            ),
            (2, 11, 2, 12)
        );
    }

    #[test]
    fn fix_instruction_names_the_url_text_it_replaces() {
        let checked = fixtures::wrapped();
        let report = &checked.reports[0];
        let instructions: Vec<Option<String>> = report
            .findings
            .iter()
            .map(|finding| fix_instruction(&checked, report, finding))
            .collect();
        assert_eq!(
            instructions,
            [None, Some("replace `~` with `%7E`".to_string())]
        );
    }

    #[test]
    fn totals_count_severities_and_urls() {
        let mut totals = Totals::default();
        totals.add(&fixtures::wrapped());
        totals.add(&fixtures::clean());
        assert_eq!(
            totals,
            Totals {
                files: 2,
                urls: 2,
                errors: 1,
                warnings: 1
            }
        );
        assert!(!is_valid(&fixtures::wrapped().reports[0]));
        assert!(is_valid(&fixtures::clean().reports[0]));
    }
}
