//! Reporters: turn linted sources into output. They know nothing of RFC 1738
//! nor of how URLs were found; every position they print is computed here,
//! from the byte spans the linter gives, in one way for all formats.
//!
//! A run hands each [`Checked`] source to a [`Reporter`] in report order,
//! then calls [`Reporter::finish`] once with the [`Totals`].

pub mod escape;
mod excerpt;
pub mod explain;
mod extract;
pub mod frame;
mod github;
mod human;
mod json;
mod sarif;
mod short;

use std::cell::Cell;
use std::io;
use std::ops::Range;
use std::sync::OnceLock;

use codespan_reporting::term::termcolor::WriteColor;

use crate::diagnostic::Severity;
use crate::input::Source;
use crate::lint::{Finding, UrlReport};
use crate::span::{LineCol, LineCursor, LineIndex, Span};

pub use extract::{ExtractFormat, ExtractOptions};
pub use frame::{Base, Frame, MailFrame, RawText};
pub use human::HumanOptions;

/// One source after linting: its text and every URL found in it.
///
/// Positions are placed through its [`Frame`] (see [`Checked::locate`]).
/// Lines are counted only as far as positions are asked for: most windows
/// of a large input have few findings, and a line index of every window
/// cost more than linting it.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The source as read.
    pub source: Source,
    /// Line starts of `source.text`, built on the first lookup the cursor
    /// cannot answer (see [`Checked::lines`]).
    lines: OnceLock<LineIndex>,
    /// Where the last in-order lookup in `source.text` left off.
    cursor: Cell<LineCursor>,
    /// The URLs found, in source order, with their findings.
    pub reports: Vec<UrlReport>,
    /// Where the text sits in its input, for positions.
    pub frame: Frame,
    /// True when this text continues the previous one's input (a later
    /// window of a large file, another part of a mail archive): the input is
    /// counted once, and `json` merges windows of one file.
    pub continuation: bool,
}

impl Checked {
    /// Bundle a whole source with its reports.
    pub fn new(source: Source, reports: Vec<UrlReport>) -> Self {
        Checked {
            lines: OnceLock::new(),
            cursor: Cell::new(LineCursor::default()),
            source,
            reports,
            frame: Frame::Text(Base::START),
            continuation: false,
        }
    }

    /// Line starts of `source.text`, computed on first use and then kept.
    pub fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.source.text))
    }

    /// Line and column of `offset` in `source.text`: walked to from the
    /// previous lookup when it is ahead or just behind, otherwise (or once
    /// the index exists) read from [`Checked::lines`].
    fn source_line_col(&self, offset: usize) -> LineCol {
        let text = &self.source.text;
        if let Some(index) = self.lines.get() {
            return index.line_col(text, offset);
        }
        let mut cursor = self.cursor.get();
        let place = cursor.line_col(text, offset);
        self.cursor.set(cursor);
        place.unwrap_or_else(|| self.lines().line_col(text, offset))
    }

    /// The same, placed in its input by `frame`.
    pub fn in_frame(mut self, frame: Frame) -> Self {
        self.frame = frame;
        self
    }

    /// The same, marked as continuing the previous checked text's input.
    pub fn continuing(mut self, continuation: bool) -> Self {
        self.continuation = continuation;
        self
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

/// The source spans that place `finding`: its own, or, should it have none,
/// the span that indexes the source (the whole URL for a validator finding,
/// whose `diagnostic.span` indexes the URL), so every finding shows somewhere.
pub fn placed_spans(report: &UrlReport, finding: &Finding) -> Vec<Span> {
    if !finding.source_spans.is_empty() {
        return finding.source_spans.clone();
    }
    match finding.url_span {
        Some(_) => vec![report.found.outer],
        None => vec![finding.diagnostic.span],
    }
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
        if !checked.continuation {
            self.files += 1;
        }
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
    /// One SARIF 2.1.0 log for the whole run.
    Sarif,
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
        Format::Sarif => Box::new(sarif::SarifReporter::default()),
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

    use codespan_reporting::term::termcolor::NoColor;

    use super::{Checked, Reporter, Totals};
    use crate::diagnostic::Diagnostic;
    use crate::input::{Origin, Source};
    use crate::lint::{Finding, UrlReport};
    use crate::rules::Rule;
    use crate::scan::{Alternative, Form, Found, Segment};
    use crate::span::Span;

    /// Everything `reporter` writes for `checked`, summary included, without colour.
    pub fn render(reporter: &mut dyn Reporter, checked: &[Checked]) -> String {
        let mut out = NoColor::new(Vec::new());
        let mut totals = Totals::default();
        for checked in checked {
            totals.add(checked);
            reporter.source(&mut out, checked).expect("write to memory");
        }
        reporter.finish(&mut out, &totals).expect("write to memory");
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }

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
        let found = Found::unbroken("http://example.com/", Form::Bare, span);
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
    use crate::diagnostic::Diagnostic;
    use crate::input::Origin;
    use crate::rules::Rule;
    use crate::scan::{Alternative, Form, Found, Segment};
    use codespan_reporting::term::termcolor::NoColor;
    use proptest::prelude::*;

    /// A report whose spans are arbitrary (but `start <= end`, as [`Span`]
    /// requires): possibly out of range or inside a multi-byte character.
    fn arbitrary_checked(text: String, spans: Vec<(usize, usize)>, fix: bool) -> Checked {
        let span = |&(a, b): &(usize, usize)| Span::new(a.min(b), a.max(b));
        let outer = spans.first().map(span).unwrap_or_default();
        let found = Found {
            url: text.chars().rev().collect(),
            form: Form::Angle,
            outer,
            segments: spans
                .iter()
                .map(|pair| Segment {
                    source: span(pair),
                    url_start: pair.0 / 2,
                })
                .collect(),
            alternatives: vec![Alternative {
                url: "a%\n,b".to_string(),
                reason: "r:\r\n".to_string(),
            }],
            diagnostics: Vec::new(),
        };
        let findings = spans
            .iter()
            .enumerate()
            .map(|(index, pair)| {
                let mut diagnostic =
                    Diagnostic::new(Rule::UnsafeChar, span(pair), "m%\n").with_help("h,:");
                if fix {
                    diagnostic = diagnostic.with_fix("%7E");
                }
                Finding {
                    diagnostic,
                    url_span: (index % 2 == 0).then(|| span(pair)),
                    source_spans: spans.iter().take(index).map(span).collect(),
                }
            })
            .collect();
        Checked::new(
            Source::new(Origin::Stdin, text),
            vec![UrlReport { found, findings }],
        )
    }

    proptest! {
        #[test]
        fn reporters_never_fail_on_any_spans(
            text in "[a-z<>:/~é€ \t\r\n-]{0,40}",
            spans in proptest::collection::vec((0usize..60, 0usize..60), 0..4),
            fix: bool,
        ) {
            let checked = arbitrary_checked(text, spans, fix);
            let mut totals = Totals::default();
            totals.add(&checked);
            let formats = [Format::Human, Format::Short, Format::Json, Format::Jsonl, Format::Github, Format::Sarif];
            for format in formats {
                let mut out = NoColor::new(Vec::new());
                let mut reporter = diagnostics_reporter(format, HumanOptions::default());
                prop_assert!(reporter.source(&mut out, &checked).is_ok(), "{format:?}");
                prop_assert!(reporter.finish(&mut out, &totals).is_ok(), "{format:?}");
                let output = String::from_utf8(out.into_inner());
                prop_assert!(output.is_ok(), "{format:?} wrote invalid UTF-8");
                let output = output.unwrap_or_default();
                if matches!(format, Format::Json | Format::Sarif) {
                    prop_assert!(serde_json::from_str::<serde_json::Value>(&output).is_ok());
                }
                if format == Format::Github {
                    prop_assert!(output.lines().all(|line| line.starts_with("::")));
                }
            }
        }
    }

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
    fn a_finding_without_source_spans_is_placed_on_its_url() {
        let checked = fixtures::wrapped();
        let report = &checked.reports[0];
        let mut validator = report.findings[1].clone();
        validator.source_spans.clear();
        assert_eq!(placed_spans(report, &validator), [report.found.outer]);
        let mut scanner = report.findings[0].clone();
        scanner.source_spans.clear();
        assert_eq!(placed_spans(report, &scanner), [scanner.diagnostic.span]);
        assert_eq!(
            placed_spans(report, &report.findings[1]),
            report.findings[1].source_spans
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
