//! Machine output: `json` (one document) and `jsonl` (one object per line,
//! streamed). The schema is documented in `docs/output-formats.md`; the
//! structs below are that schema, so change both together.

use std::io;

use codespan_reporting::term::termcolor::WriteColor;
use serde::Serialize;

use super::placed::{fix_instruction, placed_spans};
use super::reporter::{findings_in_order, is_valid, url_start, Reporter, Totals};
use crate::checked::MailFrame;
use crate::checked::{Checked, Location};
use crate::lint::{Finding, UrlReport};
use crate::span::{SourceSpan, UrlSpan};
use crate::template::{Language, Template};

/// Version of the JSON schema, bumped on incompatible changes.
pub(super) const SCHEMA_VERSION: u32 = 1;

/// A URL as found: its text, form, and where every piece of it is.
#[derive(Serialize)]
pub(super) struct UrlJson<'a> {
    url: &'a str,
    form: &'static str,
    line: usize,
    column: usize,
    outer: Location,
    segments: Vec<SegmentJson>,
    alternatives: Vec<AlternativeJson<'a>>,
    template: Option<TemplateJson<'a>>,
}

impl<'a> UrlJson<'a> {
    /// Describe `report`'s URL, with positions in `checked`.
    pub(super) fn new(checked: &Checked, report: &'a UrlReport) -> Self {
        let found = &report.found;
        let start = checked.locate(url_start(report));
        UrlJson {
            url: &found.url,
            form: found.form.as_str(),
            line: start.line,
            column: start.column,
            outer: checked.locate(found.outer),
            segments: found
                .segments
                .iter()
                .map(|segment| SegmentJson {
                    source: checked.locate(segment.source),
                    url_start: segment.url().start,
                    url_end: segment.url().end,
                })
                .collect(),
            alternatives: found
                .alternatives
                .iter()
                .map(|alternative| AlternativeJson {
                    url: &alternative.url,
                    reason: &alternative.reason,
                })
                .collect(),
            template: report
                .template
                .as_ref()
                .map(|template| TemplateJson::new(&found.url, template)),
        }
    }
}

/// A URL read as a template: the languages of its placeholders and each
/// placeholder.
#[derive(Serialize)]
struct TemplateJson<'a> {
    languages: Vec<&'static str>,
    placeholders: Vec<PlaceholderJson<'a>>,
}

impl<'a> TemplateJson<'a> {
    fn new(url: &'a str, template: &Template) -> Self {
        TemplateJson {
            languages: template
                .languages()
                .into_iter()
                .map(Language::as_str)
                .collect(),
            placeholders: template
                .placeholders
                .iter()
                .map(|placeholder| PlaceholderJson {
                    text: url.get(placeholder.span.range()).unwrap_or_default(),
                    language: placeholder.language.as_str(),
                    url_start: placeholder.span.start,
                    url_end: placeholder.span.end,
                })
                .collect(),
        }
    }
}

/// One placeholder of a template, by its bytes in the URL.
#[derive(Serialize)]
struct PlaceholderJson<'a> {
    text: &'a str,
    language: &'static str,
    url_start: usize,
    url_end: usize,
}

/// The message and MIME part a mail text came from (`mail` in every record
/// about mail input).
#[derive(Serialize)]
pub(super) struct MailJson<'a> {
    message: usize,
    message_id: Option<&'a str>,
    date: Option<&'a str>,
    subject: Option<&'a str>,
    part: &'a str,
    content_type: &'a str,
    charset: Option<&'a str>,
    encoding: &'static str,
}

impl<'a> MailJson<'a> {
    /// The `mail` object of `checked`, when it came from mail.
    pub(super) fn of(checked: &'a Checked) -> Option<Self> {
        checked.mail().map(MailJson::new)
    }

    fn new(mail: &'a MailFrame) -> Self {
        let (message, part) = (&mail.message, &mail.part);
        MailJson {
            message: message.number,
            message_id: message.message_id(),
            date: message.date(),
            subject: message.subject(),
            part: &part.path,
            content_type: &part.content_type,
            charset: part.charset.as_deref(),
            encoding: part.encoding.name(),
        }
    }
}

/// A source run of the URL and the URL bytes it became.
#[derive(Serialize)]
struct SegmentJson {
    #[serde(flatten)]
    source: Location,
    url_start: usize,
    url_end: usize,
}

/// Another reading of an ambiguous URL.
#[derive(Serialize)]
struct AlternativeJson<'a> {
    url: &'a str,
    reason: &'a str,
}

/// One finding, positioned in the source.
#[derive(Serialize)]
struct FindingJson<'a> {
    rule: &'static str,
    severity: &'static str,
    message: &'a str,
    help: Option<&'a str>,
    fix: Option<FixJson<'a>>,
    line: usize,
    column: usize,
    spans: Vec<Location>,
    url_span: Option<SpanJson>,
}

impl<'a> FindingJson<'a> {
    fn new(checked: &Checked, report: Option<&UrlReport>, finding: &'a Finding) -> Self {
        let diagnostic = &finding.diagnostic;
        let spans: Vec<Location> = placed_spans(report, finding)
            .into_iter()
            .flat_map(|span| checked.locate_runs(span))
            .collect();
        let first = spans
            .first()
            .copied()
            .unwrap_or_else(|| checked.locate(SourceSpan::default()));
        FindingJson {
            rule: diagnostic.rule.name(),
            severity: diagnostic.severity.as_str(),
            message: &diagnostic.message,
            help: (!diagnostic.help.is_empty()).then_some(&*diagnostic.help),
            fix: diagnostic.fix.as_ref().map(|fix| FixJson {
                replacement: &fix.replacement,
                applicability: fix.applicability.as_str(),
                instruction: fix_instruction(checked, report, finding).unwrap_or_default(),
            }),
            line: first.line,
            column: first.column,
            spans,
            url_span: finding.at.url_span().map(SpanJson::from),
        }
    }
}

/// A fix: the replacement for the finding's span, whether `check --fix`
/// applies it (`machine-applicable`) or only `--unsafe-fixes` does
/// (`suggestion`), and the same as a sentence.
#[derive(Serialize)]
struct FixJson<'a> {
    replacement: &'a str,
    applicability: &'static str,
    instruction: String,
}

/// A byte range without line information (it indexes the URL, not a source).
#[derive(Serialize)]
struct SpanJson {
    start: usize,
    end: usize,
}

impl From<UrlSpan> for SpanJson {
    fn from(span: UrlSpan) -> Self {
        SpanJson {
            start: span.start,
            end: span.end,
        }
    }
}

/// A `jsonl` line for one finding.
#[derive(Serialize)]
struct FindingRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mail: Option<MailJson<'a>>,
    #[serde(flatten)]
    finding: FindingJson<'a>,
    /// The URL the finding is about; null for a finding about the text.
    found: Option<UrlJson<'a>>,
}

/// The last `jsonl` line.
#[derive(Serialize)]
struct SummaryRecord<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    totals: &'a Totals,
}

/// One URL in the `json` document, with its findings.
#[derive(Serialize)]
struct UrlEntry<'a> {
    #[serde(flatten)]
    url: UrlJson<'a>,
    valid: bool,
    findings: Vec<FindingJson<'a>>,
}

/// The head of one source in the `json` document; its `urls` array is
/// written after it, entry by entry, so that the windows of one large input
/// share one entry.
#[derive(Serialize)]
struct FileHead<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mail: Option<MailJson<'a>>,
}

/// Serialisation of our own structs cannot fail; I/O can.
fn json_error(err: serde_json::Error) -> io::Error {
    io::Error::other(err)
}

/// Streams one finding per line, then a summary line.
pub(super) struct JsonlReporter;

impl Reporter for JsonlReporter {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        for (report, finding) in findings_in_order(checked) {
            let record = FindingRecord {
                kind: "finding",
                path: &checked.source.name,
                mail: MailJson::of(checked),
                finding: FindingJson::new(checked, report, finding),
                found: report.map(|report| UrlJson::new(checked, report)),
            };
            serde_json::to_writer(&mut *out, &record).map_err(json_error)?;
            writeln!(out)?;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()> {
        summary_line(out, totals)
    }
}

/// Write the last `jsonl` line, `{"type":"summary",...}`.
pub(super) fn summary_line(out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()> {
    let record = SummaryRecord {
        kind: "summary",
        totals,
    };
    serde_json::to_writer(&mut *out, &record).map_err(json_error)?;
    writeln!(out)
}

/// Writes one document, `{"version":..,"files":[..],"summary":{..}}`,
/// streaming each source's entry as it comes.
#[derive(Default)]
pub(super) struct JsonReporter {
    files_written: usize,
    /// An entry is open: its `urls` array awaits more URLs or its close.
    entry_open: bool,
    /// URLs written in the open entry.
    entry_urls: usize,
    /// The open entry's own findings, serialised and comma-separated: its
    /// `findings` array follows `urls`, which later windows may extend.
    entry_findings: Vec<u8>,
}

impl JsonReporter {
    /// Open the document or separate entries.
    fn open(&self, out: &mut dyn WriteColor) -> io::Result<()> {
        if self.files_written == 0 {
            write!(out, "{{\"version\":{SCHEMA_VERSION},\"files\":[")
        } else {
            write!(out, ",")
        }
    }

    /// Close the open entry, if any, with its own findings.
    fn close_entry(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if std::mem::take(&mut self.entry_open) {
            write!(out, "],\"findings\":[")?;
            out.write_all(&std::mem::take(&mut self.entry_findings))?;
            write!(out, "]}}")?;
        }
        Ok(())
    }

    /// Start a new entry for `checked`: its head fields, then `"urls":[`.
    fn start_entry(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        self.close_entry(out)?;
        self.open(out)?;
        self.files_written += 1;
        let head = FileHead {
            path: &checked.source.name,
            mail: MailJson::of(checked),
        };
        let head = serde_json::to_string(&head).map_err(json_error)?;
        // `head` is an object; reopen it to append the URL array.
        let fields = head.strip_suffix('}').unwrap_or(&head);
        write!(out, "{fields},\"urls\":[")?;
        self.entry_open = true;
        self.entry_urls = 0;
        Ok(())
    }
}

impl Reporter for JsonReporter {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        if !checked.continuation {
            // A new input: its first windows may have no URLs, and its
            // later ones must not extend the previous input's entry.
            self.close_entry(out)?;
        }
        if checked.is_empty() {
            return Ok(());
        }
        // A later window of the same text input extends its entry; mail
        // parts are entries of their own, each with its message.
        let extends = self.entry_open && checked.continuation && checked.mail().is_none();
        if !extends {
            self.start_entry(out, checked)?;
        }
        for report in &checked.reports {
            if self.entry_urls > 0 {
                write!(out, ",")?;
            }
            let entry = UrlEntry {
                url: UrlJson::new(checked, report),
                valid: is_valid(report),
                findings: report
                    .findings
                    .iter()
                    .map(|finding| FindingJson::new(checked, Some(report), finding))
                    .collect(),
            };
            serde_json::to_writer(&mut *out, &entry).map_err(json_error)?;
            self.entry_urls += 1;
        }
        for finding in &checked.findings {
            if !self.entry_findings.is_empty() {
                self.entry_findings.push(b',');
            }
            let finding = FindingJson::new(checked, None, finding);
            serde_json::to_writer(&mut self.entry_findings, &finding).map_err(json_error)?;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()> {
        self.close_entry(out)?;
        if self.files_written == 0 {
            write!(out, "{{\"version\":{SCHEMA_VERSION},\"files\":[")?;
        }
        write!(out, "],\"summary\":")?;
        serde_json::to_writer(&mut *out, totals).map_err(json_error)?;
        writeln!(out, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{self, render as run};
    use serde_json::Value;

    #[test]
    fn jsonl_has_every_schema_field() {
        let output = run(
            &mut JsonlReporter,
            &[fixtures::wrapped(), fixtures::clean()],
        );
        let lines: Vec<Value> = output
            .lines()
            .map(|line| serde_json::from_str(line).expect("each line is JSON"))
            .collect();
        assert_eq!(lines.len(), 3, "two findings and the summary");
        let unsafe_char = &lines[1];
        for field in [
            "type", "path", "rule", "severity", "message", "help", "fix", "line", "column",
            "spans", "url_span", "found",
        ] {
            assert!(unsafe_char.get(field).is_some(), "missing {field}");
        }
        assert_eq!(unsafe_char["rule"], "unsafe-char");
        assert_eq!(unsafe_char["fix"]["replacement"], "%7E");
        assert_eq!(unsafe_char["fix"]["instruction"], "replace `~` with `%7E`");
        assert_eq!(
            unsafe_char["url_span"],
            serde_json::json!({"start": 34, "end": 35})
        );
        let found = &unsafe_char["found"];
        assert_eq!(found["form"], "wrapped");
        assert_eq!(found["segments"].as_array().map(Vec::len), Some(2));
        assert_eq!(found["segments"][1]["line"], 2);
        assert_eq!(found["segments"][1]["url_start"], 28);
        assert_eq!(
            found["alternatives"][0]["url"],
            "http://info.example.org/publists/~ann/list.txt"
        );
        assert_eq!(lines[0]["help"], Value::Null);
        assert_eq!(
            lines[2],
            serde_json::json!({"type": "summary", "files": 2, "urls": 2, "errors": 1, "warnings": 1})
        );
    }

    #[test]
    fn json_document_nests_files_urls_findings() {
        let output = run(
            &mut JsonReporter::default(),
            &[fixtures::wrapped(), fixtures::clean()],
        );
        let document: Value = serde_json::from_str(&output).expect("one JSON document");
        insta::assert_snapshot!(serde_json::to_string_pretty(&document).unwrap_or_default());
    }

    #[test]
    fn json_document_without_urls_is_still_valid() {
        let output = run(&mut JsonReporter::default(), &[]);
        let document: Value = serde_json::from_str(&output).expect("one JSON document");
        assert_eq!(document["files"], serde_json::json!([]));
        assert_eq!(document["summary"]["files"], 0);
    }
}
