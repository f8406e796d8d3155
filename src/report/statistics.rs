//! `check --statistics`: how often each rule was reported, one line per
//! rule and severity, most frequent first, instead of the findings (as
//! `ruff check --statistics` prints them). The counts add up to the
//! findings `--format jsonl` lists.

use std::collections::HashMap;
use std::io;

use codespan_reporting::term::termcolor::WriteColor;
use serde::Serialize;

use super::human;
use super::json::{self, SCHEMA_VERSION};
use super::reporter::{findings_in_order, Reporter, Totals};
use crate::checked::{Checked, KeepText};
use crate::rules::{Rule, Severity};

/// How the counts are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Layout {
    /// `COUNT<TAB>RULE<TAB>SEVERITY` lines, the rule names padded to one
    /// width, then the summary line if asked for.
    Text { summary: bool },
    /// One document: `{"version":1,"statistics":[...],"summary":{...}}`.
    Json,
    /// One `{"type":"statistic",...}` object per line, then the summary line.
    Jsonl,
}

/// One rule's count at one severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
struct Statistic {
    count: usize,
    #[serde(serialize_with = "rule_name")]
    rule: Rule,
    #[serde(serialize_with = "severity_name")]
    severity: Severity,
}

/// A `jsonl` line.
#[derive(Serialize)]
struct StatisticRecord {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(flatten)]
    statistic: Statistic,
}

/// The `json` document.
#[derive(Serialize)]
struct StatisticsDocument<'a> {
    version: u32,
    statistics: &'a [Statistic],
    summary: &'a Totals,
}

fn rule_name<S: serde::Serializer>(rule: &Rule, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(rule.name())
}

fn severity_name<S: serde::Serializer>(
    severity: &Severity,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(severity.as_str())
}

/// Counts findings as sources arrive and writes the table at the end.
pub(super) struct StatisticsReporter {
    layout: Layout,
    counts: HashMap<(Rule, Severity), usize>,
}

impl StatisticsReporter {
    /// Counts to be written in `layout`.
    pub(super) fn new(layout: Layout) -> Self {
        StatisticsReporter {
            layout,
            counts: HashMap::new(),
        }
    }

    /// The counts, most frequent first; ties by severity (errors first),
    /// then in catalogue order.
    fn sorted(&self) -> Vec<Statistic> {
        let mut statistics: Vec<Statistic> = self
            .counts
            .iter()
            .map(|(&(rule, severity), &count)| Statistic {
                count,
                rule,
                severity,
            })
            .collect();
        statistics.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(b.severity.cmp(&a.severity))
                .then(a.rule.cmp(&b.rule))
        });
        statistics
    }
}

impl Reporter for StatisticsReporter {
    fn source(&mut self, _out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        for (_, finding) in findings_in_order(checked) {
            let key = (finding.diagnostic.rule, finding.diagnostic.severity);
            *self.counts.entry(key).or_default() += 1;
        }
        Ok(())
    }

    fn texts_read(&self) -> KeepText {
        // Findings are counted, never placed.
        KeepText::Never
    }

    fn finish(&mut self, out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()> {
        let statistics = self.sorted();
        match self.layout {
            Layout::Text { summary } => {
                let count_width = statistics.first().map_or(1, |s| s.count.to_string().len());
                let rule_width = statistics
                    .iter()
                    .map(|s| s.rule.name().len())
                    .max()
                    .unwrap_or(0);
                for s in &statistics {
                    writeln!(
                        out,
                        "{:>count_width$}\t{:<rule_width$}\t{}",
                        s.count,
                        s.rule.name(),
                        s.severity.as_str()
                    )?;
                }
                if summary {
                    human::summary_line(out, totals, false)?;
                }
                Ok(())
            }
            Layout::Json => {
                let document = StatisticsDocument {
                    version: SCHEMA_VERSION,
                    statistics: &statistics,
                    summary: totals,
                };
                serde_json::to_writer(&mut *out, &document).map_err(io::Error::other)?;
                writeln!(out)
            }
            Layout::Jsonl => {
                for &statistic in &statistics {
                    let record = StatisticRecord {
                        kind: "statistic",
                        statistic,
                    };
                    serde_json::to_writer(&mut *out, &record).map_err(io::Error::other)?;
                    writeln!(out)?;
                }
                json::summary_line(out, totals)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures::{self, render};

    #[test]
    fn text_counts_each_rule_most_frequent_first() {
        let mut reporter = StatisticsReporter::new(Layout::Text { summary: true });
        let output = render(
            &mut reporter,
            &[fixtures::wrapped(), fixtures::clean(), fixtures::wrapped()],
        );
        assert_eq!(
            output,
            "2\tunsafe-char \terror\n\
             2\thyphen-break\twarning\n\
             checked 3 files, found 3 URLs: 2 errors, 2 warnings\n"
        );
    }

    #[test]
    fn text_without_summary_is_the_table_alone() {
        let mut reporter = StatisticsReporter::new(Layout::Text { summary: false });
        let output = render(&mut reporter, &[fixtures::wrapped()]);
        assert_eq!(output, "1\tunsafe-char \terror\n1\thyphen-break\twarning\n");
    }

    #[test]
    fn json_flavours_carry_counts_and_the_summary() {
        let mut reporter = StatisticsReporter::new(Layout::Json);
        let output = render(&mut reporter, &[fixtures::wrapped()]);
        let document: serde_json::Value = serde_json::from_str(&output).expect("one document");
        assert_eq!(
            document,
            serde_json::json!({
                "version": 1,
                "statistics": [
                    {"count": 1, "rule": "unsafe-char", "severity": "error"},
                    {"count": 1, "rule": "hyphen-break", "severity": "warning"}
                ],
                "summary": {"files": 1, "urls": 1, "errors": 1, "warnings": 1}
            })
        );
        let mut reporter = StatisticsReporter::new(Layout::Jsonl);
        let output = render(&mut reporter, &[fixtures::wrapped()]);
        let kinds: Vec<String> = output
            .lines()
            .map(|line| {
                let record: serde_json::Value = serde_json::from_str(line).expect("JSON");
                record["type"].as_str().unwrap_or_default().to_owned()
            })
            .collect();
        assert_eq!(kinds, ["statistic", "statistic", "summary"]);
    }

    #[test]
    fn nothing_found_is_no_lines_but_the_summary() {
        let mut reporter = StatisticsReporter::new(Layout::Text { summary: true });
        let output = render(&mut reporter, &[fixtures::clean()]);
        assert_eq!(
            output,
            "checked 1 file, found 1 URL: 0 errors, 0 warnings\n"
        );
    }
}
