//! What the Python functions return: URLs, findings and fixes as frozen
//! Python objects, placed by [`Checked::locate`] like every reporter's
//! positions, with offsets in the units of what the caller passed.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use super::arguments::Data;
use crate::checked::{Checked, Location};
use crate::input::Collected;
use crate::lint::{Finding as LintFinding, UrlReport};
use crate::report::{fix_instruction, placed_spans};
use crate::source::Widened;
use crate::span::{CharCounter, Span};

/// A repair for a finding: the text that replaces the finding's span of
/// the URL, and the same as an instruction.
#[pyclass(module = "urlint", frozen, get_all)]
#[derive(Debug, Clone)]
pub(super) struct Fix {
    replacement: String,
    /// `machine-applicable` (`check --fix` applies it) or `suggestion`.
    applicability: &'static str,
    instruction: String,
}

#[pymethods]
impl Fix {
    fn __str__(&self) -> &str {
        &self.instruction
    }

    fn __repr__(&self) -> String {
        format!("Fix({:?})", self.instruction)
    }
}

/// Where something lies in what the caller passed: `start`/`end` in its
/// own units (characters of a `str`, bytes of `bytes`), `start_byte`/
/// `end_byte` in bytes (of a `str`'s UTF-8), 1-based lines and columns
/// (columns in characters), `end_line`/`end_column` just past the end.
#[derive(Debug, Clone, Copy, Default)]
struct Place {
    start: usize,
    end: usize,
    start_byte: usize,
    end_byte: usize,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

/// One finding about a URL.
#[pyclass(module = "urlint", frozen, get_all)]
#[derive(Debug, Clone)]
pub(super) struct Finding {
    /// The URL the finding is about.
    url: String,
    rule: &'static str,
    severity: &'static str,
    message: String,
    help: Option<String>,
    fix: Option<Fix>,
    start: usize,
    end: usize,
    start_byte: usize,
    end_byte: usize,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

#[pymethods]
impl Finding {
    fn __str__(&self) -> &str {
        &self.message
    }

    fn __repr__(&self) -> String {
        format!(
            "Finding({}:{}: {}[{}]: {})",
            self.line, self.column, self.severity, self.rule, self.message
        )
    }
}

/// One URL found, with its findings.
#[pyclass(module = "urlint", frozen, get_all, subclass)]
#[derive(Debug, Clone)]
pub(super) struct Url {
    url: String,
    form: &'static str,
    pub(super) findings: Vec<Finding>,
    start: usize,
    end: usize,
    start_byte: usize,
    end_byte: usize,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
}

#[pymethods]
impl Url {
    fn __str__(&self) -> &str {
        &self.url
    }

    fn __repr__(&self) -> String {
        format!(
            "Url({:?}, line={}, column={})",
            self.url, self.line, self.column
        )
    }
}

/// A URL found in a mail archive, with the message and MIME part it is in.
#[pyclass(module = "urlint", frozen, get_all, extends = Url)]
#[derive(Debug, Clone)]
pub(super) struct MailUrl {
    /// 1-based number of the message in the archive.
    message: usize,
    message_id: Option<String>,
    date: Option<String>,
    subject: Option<String>,
    part: String,
    content_type: String,
}

#[pymethods]
impl MailUrl {
    fn __repr__(slf: &Bound<'_, Self>) -> String {
        let url = slf.as_super().get();
        format!(
            "MailUrl({:?}, message={}, line={}, column={})",
            url.url,
            slf.get().message,
            url.line,
            url.column
        )
    }
}

/// A URL, and the message it is in when read from mail.
pub(super) type Record = (Url, Option<MailUrl>);

/// The URLs of the texts `collected` holds, read from `data`, and the
/// warnings reading gave; an input error (urlint panicked) is raised.
pub(super) fn collected_urls(
    collected: Collected,
    data: &Data<'_>,
) -> PyResult<(Vec<Record>, Vec<String>)> {
    if let Some(error) = collected.errors.first() {
        return Err(PyRuntimeError::new_err(error.to_string()));
    }
    let warnings = collected.warnings.iter().map(ToString::to_string).collect();
    Ok((checked_urls(&collected.checked, data), warnings))
}

/// The URLs of `checked` texts read from `data`.
pub(super) fn checked_urls(checked: &[Checked], data: &Data<'_>) -> Vec<Record> {
    let mut placer = Placer::new(data);
    let mut urls: Vec<Record> = checked
        .iter()
        .flat_map(|checked| {
            let mail = checked.mail().map(|mail| MailUrl {
                message: mail.message.number,
                message_id: mail.message.message_id().map(str::to_owned),
                date: mail.message.date().map(str::to_owned),
                subject: mail.message.subject().map(str::to_owned),
                part: mail.part.path.clone(),
                content_type: mail.part.content_type.clone(),
            });
            let placer = &mut placer;
            checked
                .reports
                .iter()
                .map(move |report| (url(checked, report, placer), mail.clone()))
                .collect::<Vec<_>>()
        })
        .collect();
    placer.count_characters(&mut urls);
    urls
}

/// The Python record of one URL, `start`/`end` still in bytes.
fn url(checked: &Checked, report: &UrlReport, placer: &mut Placer) -> Url {
    let found = &report.found;
    let text = match (found.segments.first(), found.segments.last()) {
        (Some(first), Some(last)) => Span::new(first.source.start, last.source.end),
        _ => found.outer,
    };
    let place = placer.place(checked, checked.locate(text), checked.locate(text));
    let findings = report
        .findings
        .iter()
        .map(|finding| self::finding(checked, report, finding, placer))
        .collect();
    Url {
        url: found.url.clone(),
        form: found.form.as_str(),
        findings,
        start: place.start,
        end: place.end,
        start_byte: place.start_byte,
        end_byte: place.end_byte,
        line: place.line,
        column: place.column,
        end_line: place.end_line,
        end_column: place.end_column,
    }
}

/// The Python record of one finding, from its first placed span to its
/// last, as the JSON output places it.
fn finding(
    checked: &Checked,
    report: &UrlReport,
    finding: &LintFinding,
    placer: &mut Placer,
) -> Finding {
    let spans = placed_spans(Some(report), finding);
    let first = spans.first().copied().unwrap_or(report.found.outer);
    let last = spans.last().copied().unwrap_or(first);
    let place = placer.place(checked, checked.locate(first), checked.locate(last));
    let diagnostic = &finding.diagnostic;
    Finding {
        url: report.found.url.clone(),
        rule: diagnostic.rule.name(),
        severity: diagnostic.severity.as_str(),
        message: diagnostic.message.clone(),
        help: (!diagnostic.help.is_empty()).then(|| diagnostic.help.clone()),
        fix: diagnostic.fix.as_ref().map(|fix| Fix {
            replacement: fix.replacement.clone(),
            applicability: fix.applicability.as_str(),
            instruction: fix_instruction(checked, Some(report), finding).unwrap_or_default(),
        }),
        start: place.start,
        end: place.end,
        start_byte: place.start_byte,
        end_byte: place.end_byte,
        line: place.line,
        column: place.column,
        end_line: place.end_line,
        end_column: place.end_column,
    }
}

/// Turns input locations into offsets of what the caller passed.
struct Placer<'d> {
    /// The `str` passed, whose character offsets are counted at the end.
    text: Option<&'d str>,
    /// Where reading `bytes` took the Latin-1 fallback: a text's offsets
    /// index it decoded, and are turned back into offsets of the bytes.
    widened: Widened,
}

impl<'d> Placer<'d> {
    fn new(data: &Data<'d>) -> Self {
        match data {
            Data::Text(text) => Placer {
                text: (!text.is_ascii()).then_some(*text),
                widened: Widened::default(),
            },
            Data::Bytes(bytes) => Placer {
                text: None,
                widened: Widened::of(bytes),
            },
        }
    }

    /// The place from `first`'s start to `last`'s end, in bytes of the
    /// input (mail locations already are; a text's index its decoding).
    fn place(&mut self, checked: &Checked, first: Location, last: Location) -> Place {
        let byte = |offset| match checked.mail() {
            Some(_) => offset,
            None => self.widened.byte_offset(offset),
        };
        let (start_byte, end_byte) = (byte(first.start), byte(last.end));
        Place {
            start: start_byte,
            end: end_byte,
            start_byte,
            end_byte,
            line: first.line,
            column: first.column,
            end_line: last.end_line,
            end_column: last.end_column,
        }
    }

    /// Turn every `start`/`end` into a character offset when the caller
    /// passed a non-ASCII `str`: one pass over the text, in offset order.
    fn count_characters(&self, urls: &mut [Record]) {
        let Some(text) = self.text else { return };
        let mut offsets: Vec<&mut usize> = Vec::new();
        for (url, _) in urls.iter_mut() {
            offsets.push(&mut url.start);
            offsets.push(&mut url.end);
            for finding in &mut url.findings {
                offsets.push(&mut finding.start);
                offsets.push(&mut finding.end);
            }
        }
        offsets.sort_by_key(|offset| **offset);
        let mut counter = CharCounter::new(text);
        for offset in offsets {
            *offset = counter.at(*offset);
        }
    }
}
