//! What the Python functions return: URLs, findings and fixes as frozen
//! Python objects, placed by [`Checked::locate`] like every reporter's
//! positions, with offsets in the units of what the caller passed. They
//! compare and hash by value and pickle through their class's `_rebuild`
//! (multiprocessing and Spark move them between processes).

use std::hash::{DefaultHasher, Hash, Hasher};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::BoundObject;

use super::arguments::Data;
use crate::checked::{Checked, Location};
use crate::input::Collected;
use crate::lint::{Finding as LintFinding, UrlReport};
use crate::report::{fix_instruction, placed_spans};
use crate::source::Widened;
use crate::span::{CharCounter, Span};

/// A repair for a finding: the text that replaces the finding's span of
/// the URL, and the same as an instruction.
#[pyclass(module = "urlint", frozen, get_all, eq, hash, from_py_object)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Fix {
    replacement: String,
    /// `machine-applicable` (`check --fix` applies it) or `suggestion`.
    applicability: String,
    instruction: String,
}

#[pymethods]
impl Fix {
    /// The fix `__reduce__` gave the parts of.
    #[staticmethod]
    fn _rebuild(replacement: String, applicability: String, instruction: String) -> Self {
        Fix {
            replacement,
            applicability,
            instruction,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.get();
        let parts = (&this.replacement, &this.applicability, &this.instruction);
        reduced(slf, parts)
    }

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
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

/// A place as the tuple a record pickles it to.
type PlaceParts = (usize, usize, usize, usize, usize, usize, usize, usize);

impl Place {
    fn parts(self) -> PlaceParts {
        let Place {
            start,
            end,
            start_byte,
            end_byte,
            line,
            column,
            end_line,
            end_column,
        } = self;
        (
            start, end, start_byte, end_byte, line, column, end_line, end_column,
        )
    }

    fn from_parts(parts: PlaceParts) -> Self {
        let (start, end, start_byte, end_byte, line, column, end_line, end_column) = parts;
        Place {
            start,
            end,
            start_byte,
            end_byte,
            line,
            column,
            end_line,
            end_column,
        }
    }
}

/// One finding about a URL.
#[pyclass(module = "urlint", frozen, get_all, eq, hash, from_py_object)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Finding {
    /// The URL the finding is about.
    url: String,
    rule: String,
    severity: String,
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

impl Finding {
    fn new(said: Said, place: Place) -> Self {
        let (url, rule, severity, message, help, fix) = said;
        Finding {
            url,
            rule,
            severity,
            message,
            help,
            fix,
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

    fn place(&self) -> Place {
        Place {
            start: self.start,
            end: self.end,
            start_byte: self.start_byte,
            end_byte: self.end_byte,
            line: self.line,
            column: self.column,
            end_line: self.end_line,
            end_column: self.end_column,
        }
    }
}

/// What a finding says, as [`Finding::_rebuild`] takes it.
type Said = (String, String, String, String, Option<String>, Option<Fix>);

#[pymethods]
impl Finding {
    /// The finding `__reduce__` gave the parts of.
    #[staticmethod]
    fn _rebuild(said: Said, place: PlaceParts) -> Self {
        Finding::new(said, Place::from_parts(place))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.get();
        let said = (
            &this.url,
            &this.rule,
            &this.severity,
            &this.message,
            &this.help,
            this.fix.clone(),
        );
        reduced(slf, (said, this.place().parts()))
    }

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
#[pyclass(module = "urlint", frozen, get_all, subclass, from_py_object)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct Url {
    url: String,
    form: String,
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

impl Url {
    fn new(url: String, form: String, findings: Vec<Finding>, place: Place) -> Self {
        Url {
            url,
            form,
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

    fn place(&self) -> Place {
        Place {
            start: self.start,
            end: self.end,
            start_byte: self.start_byte,
            end_byte: self.end_byte,
            line: self.line,
            column: self.column,
            end_line: self.end_line,
            end_column: self.end_column,
        }
    }

    /// The URL as [`Url::_rebuild`] takes it.
    fn parts(&self) -> (&str, &str, Vec<Finding>, PlaceParts) {
        let findings = self.findings.clone();
        (&self.url, &self.form, findings, self.place().parts())
    }
}

#[pymethods]
impl Url {
    /// The URL `__reduce__` gave the parts of.
    #[staticmethod]
    fn _rebuild(url: String, form: String, findings: Vec<Finding>, place: PlaceParts) -> Self {
        Url::new(url, form, findings, Place::from_parts(place))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        reduced(slf, slf.get().parts())
    }

    /// Equal to a `Url` of the same fields, findings included; never to a
    /// [`MailUrl`], which has more to compare (and hash).
    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> bool {
        slf.get_type().is(other.get_type()) && slf.get() == other.get()
    }

    fn __hash__(&self) -> u64 {
        hash(self)
    }

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
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct MailUrl {
    /// 1-based number of the message in the archive.
    message: usize,
    message_id: Option<String>,
    date: Option<String>,
    subject: Option<String>,
    part: String,
    content_type: String,
}

/// Where a mail URL is, as [`MailUrl::_rebuild`] takes it.
type Whereabouts = (
    usize,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    String,
);

#[pymethods]
impl MailUrl {
    /// The mail URL `__reduce__` gave the parts of.
    #[staticmethod]
    fn _rebuild(py: Python<'_>, url: Url, whereabouts: Whereabouts) -> PyResult<Py<MailUrl>> {
        let (message, message_id, date, subject, part, content_type) = whereabouts;
        let mail = MailUrl {
            message,
            message_id,
            date,
            subject,
            part,
            content_type,
        };
        Py::new(py, PyClassInitializer::from(url).add_subclass(mail))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let url = slf.as_super().get().clone();
        let this = slf.get();
        let whereabouts = (
            this.message,
            &this.message_id,
            &this.date,
            &this.subject,
            &this.part,
            &this.content_type,
        );
        reduced(slf, (url, whereabouts))
    }

    fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, Self>) -> bool {
        slf.get() == other.get() && slf.as_super().get() == other.as_super().get()
    }

    fn __hash__(slf: &Bound<'_, Self>) -> u64 {
        hash(&(slf.get(), slf.as_super().get()))
    }

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

/// What `__reduce__` returns: a class's `_rebuild` and its arguments.
type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>);

/// `__reduce__`'s value for `record`: its class's `_rebuild`, called with
/// `parts` (the record's parts, in the order `_rebuild` takes them).
fn reduced<'py, T: pyo3::PyClass>(
    record: &Bound<'py, T>,
    parts: impl IntoPyObject<'py, Target = PyTuple>,
) -> PyResult<Reduced<'py>> {
    let rebuild = record.as_any().get_type().getattr("_rebuild")?;
    let parts = parts.into_pyobject(record.py()).map_err(Into::into)?;
    Ok((rebuild, parts.into_bound()))
}

/// The hash of a record, for `__hash__` (consistent with its `__eq__`).
fn hash(record: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    record.hash(&mut hasher);
    hasher.finish()
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
    // Data in memory has no name of its own to give ("<memory>"): the
    // caller knows the one to give it.
    let warnings = collected
        .warnings
        .into_iter()
        .map(|note| note.said())
        .collect();
    Ok((checked_urls(collected.checked, data), warnings))
}

/// The URLs of `checked` texts read from `data`. Each report is dropped
/// once its record is made, so that a text's reports and its records are
/// not both held whole (a million findings took 1.9 GB).
pub(super) fn checked_urls(checked: Vec<Checked>, data: &Data<'_>) -> Vec<Record> {
    let mut placer = Placer::new(data);
    let mut urls: Vec<Record> = checked
        .into_iter()
        .flat_map(|mut checked| {
            let mail = checked.mail().map(|mail| MailUrl {
                message: mail.message.number,
                message_id: mail.message.message_id().map(str::to_owned),
                date: mail.message.date().map(str::to_owned),
                subject: mail.message.subject().map(str::to_owned),
                part: mail.part.path.clone(),
                content_type: mail.part.content_type.clone(),
            });
            let placer = &mut placer;
            let reports = std::mem::take(&mut checked.reports);
            reports
                .into_iter()
                .map(|report| (url(&checked, &report, placer), mail.clone()))
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
    Url::new(
        found.url.clone(),
        found.form.as_str().to_owned(),
        findings,
        place,
    )
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
    let said = (
        report.found.url.clone(),
        diagnostic.rule.name().to_owned(),
        diagnostic.severity.as_str().to_owned(),
        diagnostic.message.clone(),
        (!diagnostic.help.is_empty()).then(|| diagnostic.help.to_string()),
        diagnostic.fix.as_ref().map(|fix| Fix {
            replacement: fix.replacement.clone(),
            applicability: fix.applicability.as_str().to_owned(),
            instruction: fix_instruction(checked, Some(report), finding).unwrap_or_default(),
        }),
    );
    Finding::new(said, place)
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
