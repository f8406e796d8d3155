//! `sarif`: one SARIF 2.1.0 log for the whole run, for code-scanning
//! dashboards (GitHub's `upload-sarif` among them).
//!
//! The rule metadata is generated from the catalogue, every rule in
//! catalogue order, so that a result's `ruleIndex` is its rule's position in
//! [`CATALOGUE`]. Results are streamed: the log's head is written with the
//! first source, each result as it comes, the closing brackets at the end.
//!
//! Columns and character offsets count Unicode code points, as
//! `columnKind: "unicodeCodePoints"` declares, the same columns every other
//! format prints.
//!
//! A fix is a `fix` object (SARIF 2.1.0 section 3.55) with one replacement
//! per source piece it edits, placed as `check --fix` places it. SARIF has
//! no field for whether a fix is safe to apply unasked, so the fix's
//! property bag (section 3.8) carries `applicability` (`machine-applicable`
//! or `suggestion`), and its description says so for a suggestion.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io;

use codespan_reporting::term::termcolor::WriteColor;
use serde::Serialize;

use super::explain::{example_profiles, rule_entry};
use super::placed::{fix_instruction, placed_spans};
use super::reporter::{findings_in_order, repository_path, Reporter, Totals};
use crate::checked::{Checked, KeepText};
use crate::diagnostic::Applicability;
use crate::lint::{Finding, UrlReport};
use crate::rewrite::place;
use crate::rules::{Level, RuleInfo, CATALOGUE};
use crate::source::Origin;
use crate::span::{CharCounter, SourceSpan};

/// The JSON schema of SARIF 2.1.0.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Where to read about urlint: the package's repository, or the standard it
/// checks while the package names none.
fn information_uri() -> &'static str {
    match env!("CARGO_PKG_REPOSITORY") {
        "" => "https://www.rfc-editor.org/rfc/rfc1738",
        repository => repository,
    }
}

/// `tool`: urlint and its rules.
#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<RuleDescriptor>,
}

/// `reportingDescriptor`: one rule, from its catalogue entry.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor {
    id: &'static str,
    short_description: Text,
    full_description: Text,
    help: Help,
    default_configuration: Configuration,
    properties: RuleProperties,
}

impl RuleDescriptor {
    fn new(info: &'static RuleInfo) -> Self {
        RuleDescriptor {
            id: info.name,
            short_description: Text::new(info.summary),
            full_description: Text::new(info.explanation),
            help: Help {
                text: rule_entry(info),
                markdown: help_markdown(info),
            },
            default_configuration: Configuration {
                // A rule off by default reports warnings once turned on.
                level: match info.default_level {
                    Level::Error => "error",
                    Level::Warning | Level::Off => "warning",
                },
                enabled: info.default_level != Level::Off,
            },
            properties: RuleProperties {
                profiles: info
                    .sources
                    .iter()
                    .map(|source| (source.profile.name(), source.reference))
                    .collect(),
            },
        }
    }
}

#[derive(Serialize)]
struct Text {
    text: String,
}

impl Text {
    fn new(text: impl Into<String>) -> Self {
        Text { text: text.into() }
    }
}

#[derive(Serialize)]
struct Help {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
    enabled: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleProperties {
    /// Each profile that reports the rule, with the section it comes from.
    profiles: BTreeMap<&'static str, &'static str>,
}

/// The rule's documentation as Markdown, for dashboards that render it.
fn help_markdown(info: &RuleInfo) -> String {
    let mut markdown = format!(
        "**{}**: {}\n\n{}\n",
        info.name, info.summary, info.explanation
    );
    for example in info.examples {
        let profiles = example_profiles(info, example);
        for (title, example) in [("Bad", example.bad), ("Good", example.good)] {
            let _ = write!(
                markdown,
                "\n{title}{profiles}:\n\n```text\n{example}\n```\n"
            );
        }
    }
    markdown
}

/// One finding.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<SarifLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<SarifLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize, Clone)]
struct ArtifactLocation {
    uri: String,
}

/// A region: lines and columns 1-based with an exclusive end, offsets and
/// lengths in code points.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    char_offset: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    char_length: Option<usize>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: Vec<ArtifactChange>,
    properties: FixProperties,
}

/// The property bag of a fix.
#[derive(Serialize)]
struct FixProperties {
    applicability: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: Region,
    inserted_content: Text,
}

/// Builds the results of one source.
struct SourceResults<'c> {
    checked: &'c Checked,
    uri: ArtifactLocation,
    chars: CharCounter<'c>,
}

impl<'c> SourceResults<'c> {
    fn new(checked: &'c Checked) -> Self {
        SourceResults {
            checked,
            uri: ArtifactLocation {
                uri: artifact_uri(&checked.source.origin, &checked.source.name),
            },
            chars: CharCounter::new(checked.display().text),
        }
    }

    fn region(&mut self, span: SourceSpan) -> Region {
        let location = self.checked.locate(span);
        // Code points are counted in the displayed text, from its base: a
        // window of a large file knows the characters before it, a mail
        // archive does not (the region then has lines and columns only).
        let base = self.checked.display().base;
        let (char_offset, char_length) = match base.chars {
            Some(before) => {
                let shown = self.checked.display_extent(span);
                let start = self.chars.at(shown.start);
                let end = self.chars.at(shown.end);
                (Some(before + start), Some(end - start))
            }
            None => (None, None),
        };
        Region {
            start_line: location.line,
            start_column: location.column,
            end_line: location.end_line,
            end_column: location.end_column,
            char_offset,
            char_length,
        }
    }

    fn location(&mut self, span: SourceSpan, message: Option<Text>) -> SarifLocation {
        SarifLocation {
            physical_location: PhysicalLocation {
                artifact_location: self.uri.clone(),
                region: self.region(span),
            },
            message,
        }
    }

    fn result(&mut self, report: Option<&UrlReport>, finding: &Finding) -> SarifResult {
        let diagnostic = &finding.diagnostic;
        let spans = placed_spans(report, finding);
        let (first, rest) = match spans.split_first() {
            Some((first, rest)) => (*first, rest),
            None => (SourceSpan::default(), &[][..]),
        };
        let mut message = diagnostic.message.clone();
        if !diagnostic.help.is_empty() {
            message.push('\n');
            message.push_str(&diagnostic.help);
        }
        SarifResult {
            rule_id: diagnostic.rule.name(),
            rule_index: diagnostic.rule as usize,
            level: diagnostic.severity.as_str(),
            message: Text::new(message),
            locations: vec![self.location(first, None)],
            related_locations: rest
                .iter()
                .map(|&span| self.location(span, Some(Text::new("the URL continues here"))))
                .collect(),
            fixes: self.fix(report, finding).into_iter().collect(),
        }
    }

    /// The fix as replacements of source text, one per piece of the source
    /// it edits (a fix across a line break of a wrapped URL edits both
    /// lines and leaves the break alone); a finding about the text itself
    /// has none.
    fn fix(&mut self, report: Option<&UrlReport>, finding: &Finding) -> Option<SarifFix> {
        let fix = finding.diagnostic.fix.as_ref()?;
        // A fix edits the decoded URL; the archive bytes it came from may be
        // encoded (quoted-printable, base64), so no archive edit is offered.
        if self.checked.mail().is_some() {
            return None;
        }
        let report = report?;
        let edits = place(
            self.checked.text()?,
            self.checked.source.markup,
            report,
            finding,
        )?
        .ok()?;
        if edits.is_empty() {
            return None;
        }
        let mut description = fix_instruction(self.checked, Some(report), finding)?;
        if fix.applicability == Applicability::Suggestion {
            description.push_str(" (a suggestion: only --unsafe-fixes applies it)");
        }
        let replacements = edits
            .into_iter()
            .map(|edit| Replacement {
                deleted_region: self.region(edit.span),
                inserted_content: Text::new(edit.replacement),
            })
            .collect();
        Some(SarifFix {
            description: Text::new(description),
            artifact_changes: vec![ArtifactChange {
                artifact_location: self.uri.clone(),
                replacements,
            }],
            properties: FixProperties {
                applicability: fix.applicability.as_str(),
            },
        })
    }
}

/// The URI of a source: a file named by an absolute path as a `file:` URI
/// (RFC 8089, `file:///dir/a.md`), since a relative reference must not
/// start with `/` (SARIF's validator rejects it, SARIF1004); any other
/// name as a relative reference (`docs/a.md`, `%3Cstdin%3E`).
fn artifact_uri(origin: &Origin, name: &str) -> String {
    match origin {
        Origin::File(path) if path.is_absolute() => {
            let path = absolute_path_bytes(path);
            // A Windows path (`C:/dir`) gets the slash that starts a URI path.
            let slash = if path.starts_with(b"/") { "" } else { "/" };
            format!("file://{slash}{}", percent_encode(&path, b":"))
        }
        _ => percent_encode(repository_path(&name.replace('\\', "/")).as_bytes(), b""),
    }
}

/// The bytes of an absolute path with `/` separators: on Unix exactly the
/// file name's bytes (UTF-8 or not), elsewhere its text.
fn absolute_path_bytes(path: &std::path::Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().replace('\\', "/").into_bytes()
    }
}

/// `bytes` with `/`, RFC 3986's unreserved characters and the bytes of
/// `keep` as they are, and every other byte percent-encoded.
fn percent_encode(bytes: &[u8], keep: &[u8]) -> String {
    let mut uri = String::with_capacity(bytes.len());
    for &byte in bytes {
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/')
            || keep.contains(&byte)
        {
            uri.push(char::from(byte));
        } else {
            let _ = write!(uri, "%{byte:02X}");
        }
    }
    uri
}

/// Serialisation of our own structs cannot fail; I/O can.
fn json_error(err: serde_json::Error) -> io::Error {
    io::Error::other(err)
}

/// Streams one SARIF log.
#[derive(Default)]
pub(super) struct SarifReporter {
    opened: bool,
    results_written: usize,
}

impl SarifReporter {
    /// Write the log's head, up to the opening of `results`, once.
    fn open(&mut self, out: &mut dyn WriteColor) -> io::Result<()> {
        if self.opened {
            return Ok(());
        }
        self.opened = true;
        let tool = Tool {
            driver: Driver {
                name: "urlint",
                version: env!("CARGO_PKG_VERSION"),
                information_uri: information_uri(),
                rules: CATALOGUE.iter().map(RuleDescriptor::new).collect(),
            },
        };
        write!(
            out,
            "{{\"$schema\":\"{SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{{\"tool\":"
        )?;
        serde_json::to_writer(&mut *out, &tool).map_err(json_error)?;
        write!(out, ",\"columnKind\":\"unicodeCodePoints\",\"results\":[")
    }
}

impl Reporter for SarifReporter {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        self.open(out)?;
        let mut results = SourceResults::new(checked);
        for (report, finding) in findings_in_order(checked) {
            if self.results_written > 0 {
                write!(out, ",")?;
            }
            let result = results.result(report, finding);
            serde_json::to_writer(&mut *out, &result).map_err(json_error)?;
            self.results_written += 1;
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn WriteColor, _totals: &Totals) -> io::Result<()> {
        self.open(out)?;
        writeln!(out, "]}}]}}")
    }

    fn texts_read(&self) -> KeepText {
        // A result is a finding; URLs without findings are not listed.
        KeepText::WithFindings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use codespan_reporting::term::termcolor::NoColor;
    use serde_json::Value;

    fn log(checked: &[Checked]) -> Value {
        let mut out = NoColor::new(Vec::new());
        let mut reporter = SarifReporter::default();
        let mut totals = Totals::default();
        for checked in checked {
            totals.add(checked);
            reporter.source(&mut out, checked).expect("write to memory");
        }
        reporter.finish(&mut out, &totals).expect("write to memory");
        serde_json::from_slice(&out.into_inner()).expect("one JSON document")
    }

    #[test]
    fn a_wrapped_url_is_placed_by_lines_columns_and_code_points() {
        let log = log(&[fixtures::wrapped(), fixtures::clean()]);
        let results = &log["runs"][0]["results"];
        assert_eq!(results.as_array().map(Vec::len), Some(2));
        let tilde = &results[1];
        assert_eq!(tilde["ruleId"], "unsafe-char");
        assert_eq!(tilde["level"], "error");
        let location = &tilde["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "docs/list.txt");
        let offset = fixtures::WRAPPED_TEXT.find('~').unwrap_or(0);
        assert_eq!(
            location["region"],
            serde_json::json!({"startLine": 2, "startColumn": 11, "endLine": 2,
                "endColumn": 12, "charOffset": offset, "charLength": 1})
        );
        let replacement = &tilde["fixes"][0]["artifactChanges"][0]["replacements"][0];
        assert_eq!(replacement["insertedContent"]["text"], "%7E");
        assert_eq!(replacement["deletedRegion"]["charOffset"], offset);
    }

    #[test]
    fn a_fix_across_a_line_break_replaces_each_line_piece() {
        let text = "<URL:HT\n  TP://h.example/a>\n<URL:http://h.example/a b>\n";
        let source = crate::source::Source::new(
            crate::source::Origin::File("x.txt".into()),
            text.to_string(),
        );
        let linted: Vec<_> = crate::lint::lint(text, &Default::default()).collect();
        let log = log(&[Checked::new(source, linted)]);
        let results = log["runs"][0]["results"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let by_rule = |rule: &str| {
            results
                .iter()
                .find(|result| result["ruleId"] == rule)
                .cloned()
                .unwrap_or_default()
        };
        let case = by_rule("scheme-case");
        let fix = &case["fixes"][0];
        assert_eq!(fix["properties"]["applicability"], "machine-applicable");
        let pieces: Vec<(u64, u64, &str)> = fix["artifactChanges"][0]["replacements"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|replacement| {
                let region = &replacement["deletedRegion"];
                (
                    region["charOffset"].as_u64().unwrap_or(0),
                    region["charLength"].as_u64().unwrap_or(0),
                    replacement["insertedContent"]["text"]
                        .as_str()
                        .unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(pieces, [(5, 2, "ht"), (10, 2, "tp")]);
        let space = by_rule("space-in-wrapper");
        let fix = &space["fixes"][0];
        assert_eq!(fix["properties"]["applicability"], "suggestion");
        assert!(fix["description"]["text"]
            .as_str()
            .is_some_and(|text| text.ends_with("(a suggestion: only --unsafe-fixes applies it)")));
    }

    #[test]
    fn an_empty_run_is_still_a_complete_log() {
        let log = log(&[]);
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["runs"][0]["results"], serde_json::json!([]));
        let rules = &log["runs"][0]["tool"]["driver"]["rules"];
        assert_eq!(rules.as_array().map(Vec::len), Some(CATALOGUE.len()));
    }

    #[test]
    fn source_names_become_relative_uri_references() {
        let cases = [
            ("docs/a.md", "docs/a.md"),
            ("docs\\win dows.txt", "docs/win%20dows.txt"),
            ("<stdin>", "%3Cstdin%3E"),
            ("caf\u{e9}.txt", "caf%C3%A9.txt"),
            ("a#b?c%d", "a%23b%3Fc%25d"),
        ];
        for (name, uri) in cases {
            let origin = Origin::File(name.into());
            assert_eq!(artifact_uri(&origin, name), uri, "{name}");
        }
        assert_eq!(artifact_uri(&Origin::Stdin, "<stdin>"), "%3Cstdin%3E");
    }

    #[cfg(unix)]
    #[test]
    fn absolute_paths_become_file_uris_with_their_exact_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let cases: [(&[u8], &str); 4] = [
            (b"/srv/docs/a.md", "file:///srv/docs/a.md"),
            (
                b"/tmp/a b#c?d%e:f.txt",
                "file:///tmp/a%20b%23c%3Fd%25e:f.txt",
            ),
            (
                "/home/café/ü.md".as_bytes(),
                "file:///home/caf%C3%A9/%C3%BC.md",
            ),
            (b"/x/\xE9\\y", "file:///x/%E9%5Cy"),
        ];
        for (bytes, uri) in cases {
            let path = std::path::PathBuf::from(std::ffi::OsStr::from_bytes(bytes));
            let name = path.display().to_string();
            assert_eq!(artifact_uri(&Origin::File(path), &name), uri, "{name}");
        }
    }
}
