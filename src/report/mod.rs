//! Reporters: turn linted sources into output. They know nothing of URL grammars
//! nor of how URLs were found; every position they print is computed here,
//! from the byte spans the linter gives, in one way for all formats.
//!
//! A run hands each [`Checked`](crate::checked::Checked) source to a
//! [`Reporter`] in report order, then calls [`Reporter::finish`] once with
//! the [`Totals`].

// The reporters are the command's; the Python module hands its findings
// to Python as records, placed and worded as the reporters place and word
// them (`placed`).
#[cfg(feature = "cli")]
mod excerpt;
#[cfg(feature = "cli")]
pub(crate) mod explain;
#[cfg(feature = "cli")]
mod extract;
#[cfg(feature = "cli")]
mod github;
#[cfg(feature = "cli")]
mod human;
#[cfg(feature = "cli")]
mod json;
mod placed;
#[cfg(feature = "cli")]
mod reporter;
#[cfg(feature = "cli")]
mod sarif;
#[cfg(feature = "cli")]
mod short;
#[cfg(feature = "cli")]
mod statistics;

pub(crate) use placed::{fix_instruction, placed_spans};
#[cfg(feature = "cli")]
pub(crate) use {
    extract::{ExtractFormat, ExtractOptions, PlainPrefix},
    human::HumanOptions,
    reporter::{repository_path, Reporter, Totals},
};

/// Output formats for diagnostics (`check` and `validate`).
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[non_exhaustive]
pub(crate) enum Format {
    /// Compiler-style diagnostics with source excerpts and a summary.
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

/// The reporter for a diagnostics format.
#[cfg(feature = "cli")]
pub(crate) fn diagnostics_reporter(format: Format, human: HumanOptions) -> Box<dyn Reporter> {
    match format {
        Format::Human => Box::new(human::HumanReporter::new(human)),
        Format::Short => Box::new(short::ShortReporter),
        Format::Json => Box::new(json::JsonReporter::default()),
        Format::Jsonl => Box::new(json::JsonlReporter),
        Format::Github => Box::new(github::GithubReporter),
        Format::Sarif => Box::new(sarif::SarifReporter::default()),
    }
}

/// The reporter for `check --statistics` in `format` (a text table unless
/// `json` or `jsonl`; `quiet` leaves out `human`'s summary line).
#[cfg(feature = "cli")]
pub(crate) fn statistics_reporter(format: Format, quiet: bool) -> Box<dyn Reporter> {
    let layout = match format {
        Format::Json => statistics::Layout::Json,
        Format::Jsonl => statistics::Layout::Jsonl,
        Format::Human => statistics::Layout::Text { summary: !quiet },
        Format::Short | Format::Github | Format::Sarif => {
            statistics::Layout::Text { summary: false }
        }
    };
    Box::new(statistics::StatisticsReporter::new(layout))
}

/// The reporter of `check`'s findings: the statistics table when
/// `statistics` (`--statistics`), else the findings in `format`.
#[cfg(feature = "cli")]
pub(crate) fn check_reporter(format: Format, statistics: bool, quiet: bool) -> Box<dyn Reporter> {
    if statistics {
        return statistics_reporter(format, quiet);
    }
    let human = HumanOptions {
        verdicts: false,
        quiet,
    };
    diagnostics_reporter(format, human)
}

/// The reporter for `extract`.
#[cfg(feature = "cli")]
pub(crate) fn extract_reporter(options: ExtractOptions) -> Box<dyn Reporter> {
    Box::new(extract::ExtractReporter::new(options))
}

#[cfg(test)]
pub(crate) mod fixtures {
    //! Hand-built reports, so that reporters are tested without the scanner
    //! and the validator.

    use codespan_reporting::term::termcolor::NoColor;

    use super::{Reporter, Totals};
    use crate::checked::Checked;
    use crate::diagnostic::{Applicability, Diagnostic};
    use crate::lint::{At, Finding, Linted, UrlReport};
    use crate::rules::Rule;
    use crate::scan::{Alternative, Form, Found, Segment};
    use crate::source::{Origin, Source};
    use crate::span::Span;

    /// Everything `reporter` writes for `checked`, summary included, without colour.
    pub(crate) fn render(reporter: &mut dyn Reporter, checked: &[Checked]) -> String {
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
    pub(crate) const WRAPPED_TEXT: &str =
        "See <URL:http://info.example.org/pub-\n    lists/~ann/list.txt> for the list.\n";

    /// A wrapped URL across two lines with an unsafe-char and a hyphen-break.
    pub(crate) fn wrapped() -> Checked {
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
                Segment::copied(first, 0),
                Segment::copied(second, first.len()),
            ],
            alternatives: vec![Alternative {
                url: "http://info.example.org/publists/~ann/list.txt".to_string(),
                reason: "the hyphen may be a hyphenation added at the line break".to_string(),
            }],
            diagnostics: Vec::new(),
            joins: Vec::new(),
        };
        let hyphen = Span::new(first.end - 1, second.start);
        let findings = vec![
            Finding::in_source(
                Diagnostic::new(
                    Rule::HyphenBreak,
                    hyphen,
                    "line break after '-': the hyphen may not be part of the URL",
                ),
                vec![Span::new(first.end - 1, first.end)],
            ),
            Finding {
                diagnostic: Diagnostic::new(
                    Rule::UnsafeChar,
                    Span::new(tilde_url, tilde_url + 1),
                    "unsafe character '~' must be encoded as %7E",
                )
                .with_help("RFC 1738 section 2.2 lists '~' among the unsafe characters")
                .with_fix("%7E", Applicability::MachineApplicable),
                at: At::Url(Span::new(tilde_url, tilde_url + 1)),
                source_spans: vec![Span::new(tilde_source, tilde_source + 1)],
            },
        ];
        Checked::new(
            Source::new(Origin::File("docs/list.txt".into()), text.to_string()),
            vec![Linted::Url(UrlReport {
                found,
                findings,
                template: None,
            })],
        )
    }

    /// A clean bare URL on a line of its own.
    pub(crate) fn clean() -> Checked {
        let text = "home: http://example.com/\n";
        let span = Span::new(6, 25);
        let found = Found::unbroken("http://example.com/", Form::Bare, span);
        Checked::new(
            Source::new(Origin::File("home.txt".into()), text.to_string()),
            vec![Linted::Url(UrlReport {
                found,
                findings: Vec::new(),
                template: None,
            })],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checked::Checked;
    use crate::diagnostic::{Applicability, Diagnostic};
    use crate::lint::{At, Finding, Linted, UrlReport};
    use crate::rules::Rule;
    use crate::scan::{Alternative, Form, Found, Segment};
    use crate::source::{Origin, Source};
    use crate::span::Span;
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
                .map(|pair| Segment::copied(span(pair), pair.0 / 2))
                .collect(),
            alternatives: vec![Alternative {
                url: "a%\n,b".to_string(),
                reason: "r:\r\n".to_string(),
            }],
            diagnostics: Vec::new(),
            joins: Vec::new(),
        };
        let findings = spans
            .iter()
            .enumerate()
            .map(|(index, pair)| {
                let mut diagnostic =
                    Diagnostic::new(Rule::UnsafeChar, span(pair).of(), "m%\n").with_help("h,:");
                if fix {
                    diagnostic = diagnostic.with_fix("%7E", Applicability::MachineApplicable);
                }
                Finding {
                    at: match index % 2 == 0 {
                        true => At::Url(span(pair).of()),
                        false => At::Source(span(pair).of()),
                    },
                    diagnostic,
                    source_spans: spans
                        .iter()
                        .take(index)
                        .map(|pair| span(pair).of())
                        .collect(),
                }
            })
            .collect();
        Checked::new(
            Source::new(Origin::Stdin, text),
            vec![Linted::Url(UrlReport {
                found,
                findings,
                template: None,
            })],
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
}
