//! `urlint extract` output: the URLs themselves, as plain lines or JSON.
//!
//! `--unique` keeps the first occurrence of each URL text. `--count` prints
//! each distinct URL once with how many times it occurs, in order of first
//! occurrence (like `uniq -c` without sorting); the total is the sum of the
//! counts, or `urlint extract | wc -l`.

use std::collections::{HashMap, HashSet};
use std::io;

use codespan_reporting::term::termcolor::WriteColor;
use serde::Serialize;

use super::json::{MailJson, UrlJson};
use super::reporter::{is_valid, url_start, Reporter, Totals};
use crate::checked::{Checked, KeepText};
use crate::escape;
use crate::lint::UrlReport;

/// Output formats of `extract`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
#[non_exhaustive]
pub(crate) enum ExtractFormat {
    /// One URL per line.
    #[default]
    Plain,
    /// One JSON object per URL per line.
    Jsonl,
    /// One JSON array of the same objects.
    Json,
}

/// What a `plain` line shows before its URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum PlainPrefix {
    /// Nothing: the URL alone, for pipes.
    #[default]
    None,
    /// `PATH:URL`, as `grep -H -o` prints a match (`--with-filename`).
    Path,
    /// `PATH:LINE:COLUMN:URL`, as `rg --vimgrep -o` prints a match, at the
    /// URL's first character (`--vimgrep`).
    Position,
}

/// How `extract` lists URLs.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ExtractOptions {
    /// Output format.
    pub format: ExtractFormat,
    /// Keep only the first occurrence of each URL text.
    pub unique: bool,
    /// Print each distinct URL once with its number of occurrences.
    pub count: bool,
    /// What `plain` lines show before the URL (not with `count`).
    pub prefix: PlainPrefix,
}

/// A located URL record (`jsonl` line or `json` array element).
#[derive(Serialize)]
struct UrlRecord<'a> {
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    mail: Option<MailJson<'a>>,
    #[serde(flatten)]
    url: UrlJson<'a>,
    /// No error-level finding under the run's profile and rule levels.
    valid: bool,
}

/// A `--count` record.
#[derive(Serialize)]
struct CountRecord<'a> {
    url: &'a str,
    count: usize,
}

/// Lists URLs as they come, or counts them and lists at the end.
pub(super) struct ExtractReporter {
    options: ExtractOptions,
    seen: HashSet<String>,
    counts: Vec<(String, usize)>,
    count_index: HashMap<String, usize>,
    records_written: usize,
}

impl ExtractReporter {
    /// A reporter with nothing seen yet.
    pub(super) fn new(options: ExtractOptions) -> Self {
        ExtractReporter {
            options,
            seen: HashSet::new(),
            counts: Vec::new(),
            count_index: HashMap::new(),
            records_written: 0,
        }
    }

    fn count(&mut self, url: &str) {
        match self.count_index.get(url) {
            Some(&index) => self.counts[index].1 += 1,
            None => {
                self.count_index.insert(url.to_string(), self.counts.len());
                self.counts.push((url.to_string(), 1));
            }
        }
    }

    /// Write one serialisable record in the JSON flavours.
    fn record(&mut self, out: &mut dyn WriteColor, record: &impl Serialize) -> io::Result<()> {
        if self.options.format == ExtractFormat::Json {
            out.write_all(if self.records_written == 0 {
                b"["
            } else {
                b","
            })?;
        }
        self.records_written += 1;
        serde_json::to_writer(&mut *out, record).map_err(io::Error::other)?;
        if self.options.format == ExtractFormat::Jsonl {
            writeln!(out)?;
        }
        Ok(())
    }
}

impl Reporter for ExtractReporter {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        for report in &checked.reports {
            let url = report.found.url.as_str();
            if self.options.count {
                self.count(url);
                continue;
            }
            if self.options.unique && !self.seen.insert(url.to_string()) {
                continue;
            }
            match self.options.format {
                ExtractFormat::Plain => plain_line(out, checked, report, self.options.prefix)?,
                ExtractFormat::Jsonl | ExtractFormat::Json => {
                    let record = UrlRecord {
                        path: &checked.source.name,
                        mail: MailJson::of(checked),
                        url: UrlJson::new(checked, report),
                        valid: is_valid(report),
                    };
                    self.record(out, &record)?;
                }
            }
        }
        Ok(())
    }

    fn texts_read(&self) -> KeepText {
        // Counts, and plain lines but `--vimgrep`'s, show URLs alone or
        // with their file's name.
        let places_urls = !self.options.count
            && (self.options.format != ExtractFormat::Plain
                || self.options.prefix == PlainPrefix::Position);
        if places_urls {
            KeepText::Always
        } else {
            KeepText::Never
        }
    }

    fn finish(&mut self, out: &mut dyn WriteColor, _totals: &Totals) -> io::Result<()> {
        let counts = std::mem::take(&mut self.counts);
        for (url, count) in &counts {
            match self.options.format {
                ExtractFormat::Plain => writeln!(out, "{count}\t{}", escape::line(url))?,
                ExtractFormat::Jsonl | ExtractFormat::Json => {
                    self.record(out, &CountRecord { url, count: *count })?;
                }
            }
        }
        if self.options.format == ExtractFormat::Json {
            let open = if self.records_written == 0 { "[" } else { "" };
            writeln!(out, "{open}]")?;
        }
        Ok(())
    }
}

/// Write one `plain` line for `report`'s URL.
fn plain_line(
    out: &mut dyn WriteColor,
    checked: &Checked,
    report: &UrlReport,
    prefix: PlainPrefix,
) -> io::Result<()> {
    // Control and bidi characters from the input must not drive the
    // terminal nor forge a line.
    let url = escape::line(&report.found.url);
    let path = || escape::line(&checked.source.name);
    match prefix {
        // Written as bytes, not formatted: a line per URL of every input.
        PlainPrefix::None => {
            out.write_all(url.as_bytes())?;
            out.write_all(b"\n")
        }
        PlainPrefix::Path => writeln!(out, "{}:{url}", path()),
        PlainPrefix::Position => {
            let start = checked.locate(url_start(report));
            writeln!(out, "{}:{}:{}:{url}", path(), start.line, start.column)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use codespan_reporting::term::termcolor::NoColor;

    fn run(options: ExtractOptions) -> String {
        let mut reporter = ExtractReporter::new(options);
        let mut out = NoColor::new(Vec::new());
        for checked in [fixtures::clean(), fixtures::wrapped(), fixtures::clean()] {
            reporter
                .source(&mut out, &checked)
                .expect("write to memory");
        }
        reporter
            .finish(&mut out, &Totals::default())
            .expect("write to memory");
        String::from_utf8_lossy(&out.into_inner()).into_owned()
    }

    fn options(format: ExtractFormat, unique: bool, count: bool) -> ExtractOptions {
        ExtractOptions {
            format,
            unique,
            count,
            prefix: PlainPrefix::None,
        }
    }

    #[test]
    fn plain_prefixes_name_the_file_and_the_url_start() {
        let with = |prefix| {
            run(ExtractOptions {
                prefix,
                unique: true,
                ..ExtractOptions::default()
            })
        };
        assert_eq!(
            with(PlainPrefix::Path),
            "home.txt:http://example.com/
\
             docs/list.txt:http://info.example.org/pub-lists/~ann/list.txt
"
        );
        // The wrapped URL's text starts after `<URL:`, at column 10.
        assert_eq!(
            with(PlainPrefix::Position),
            "home.txt:1:7:http://example.com/
\
             docs/list.txt:1:10:http://info.example.org/pub-lists/~ann/list.txt
"
        );
    }

    #[test]
    fn plain_unique_and_count() {
        let cases = [
            (
                options(ExtractFormat::Plain, false, false),
                "http://example.com/\nhttp://info.example.org/pub-lists/~ann/list.txt\nhttp://example.com/\n",
            ),
            (
                options(ExtractFormat::Plain, true, false),
                "http://example.com/\nhttp://info.example.org/pub-lists/~ann/list.txt\n",
            ),
            (
                options(ExtractFormat::Plain, false, true),
                "2\thttp://example.com/\n1\thttp://info.example.org/pub-lists/~ann/list.txt\n",
            ),
        ];
        for (options, expected) in cases {
            assert_eq!(run(options), expected, "{options:?}");
        }
    }

    #[test]
    fn json_flavours_parse_and_carry_positions() {
        let jsonl = run(options(ExtractFormat::Jsonl, true, false));
        let records: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|line| serde_json::from_str(line).expect("each line is JSON"))
            .collect();
        assert_eq!(records.len(), 2);
        assert_eq!(records[1]["path"], "docs/list.txt");
        assert_eq!(records[1]["line"], 1);
        assert_eq!(records[1]["column"], 10);
        assert_eq!(records[1]["segments"][1]["line"], 2);

        let json = run(options(ExtractFormat::Json, false, true));
        let counts: serde_json::Value = serde_json::from_str(&json).expect("one JSON array");
        assert_eq!(
            counts,
            serde_json::json!([
                {"url": "http://example.com/", "count": 2},
                {"url": "http://info.example.org/pub-lists/~ann/list.txt", "count": 1}
            ])
        );
    }

    #[test]
    fn empty_json_output_is_an_empty_array() {
        let mut reporter = ExtractReporter::new(options(ExtractFormat::Json, false, false));
        let mut out = NoColor::new(Vec::new());
        reporter
            .finish(&mut out, &Totals::default())
            .expect("write to memory");
        assert_eq!(out.into_inner(), b"[]\n");
    }
}
