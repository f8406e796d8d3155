//! Compiler-style output through codespan-reporting: each finding labels the
//! exact source characters, one label per line piece of a wrapped URL, with
//! the help, the fix and the other readings as notes.

use std::io;
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as CodespanDiagnostic, Severity};
use codespan_reporting::files::Error as FilesError;
use codespan_reporting::term;
use codespan_reporting::term::termcolor::{ColorSpec, WriteColor};

use super::excerpt::Excerpt;
use super::placed::placed_spans;
use super::reporter::{entries, fix_line, is_valid, Reporter, Totals};
use crate::checked::{Checked, KeepText, MailFrame};
use crate::escape;
use crate::lint::{Finding, UrlReport};
use crate::rules::{self, Rule};

/// Options of the human format.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HumanOptions {
    /// Print a valid/invalid verdict before each URL's diagnostics, and
    /// summarise in URLs rather than files (`urlint validate`).
    pub verdicts: bool,
    /// Print the diagnostics only: no verdicts, no summary line (`--quiet`).
    pub quiet: bool,
}

/// Renders findings as rustc-like diagnostics, then a summary line.
pub(super) struct HumanReporter {
    options: HumanOptions,
    config: term::Config,
}

impl HumanReporter {
    /// A reporter with codespan's default layout, which shows no context
    /// lines around labels (an [`Excerpt`] holds only labelled lines).
    pub(super) fn new(options: HumanOptions) -> Self {
        HumanReporter {
            options,
            config: term::Config::default(),
        }
    }

    /// Write "valid: URL" or "invalid: URL" for `urlint validate`.
    fn verdict(&self, out: &mut dyn WriteColor, report: &UrlReport) -> io::Result<()> {
        let verdict = if is_valid(report) { "valid" } else { "invalid" };
        writeln!(out, "{verdict}: {}", escape::line(&report.found.url))
    }
}

impl Reporter for HumanReporter {
    fn source(&mut self, out: &mut dyn WriteColor, checked: &Checked) -> io::Result<()> {
        for (report, findings) in entries(checked) {
            let verdict = self.options.verdicts && !self.options.quiet;
            if let (true, Some(report)) = (verdict, report) {
                self.verdict(out, report)?;
            }
            let alternatives_at = report.and_then(alternatives_finding);
            for (index, finding) in findings.iter().enumerate() {
                let mut spans = label_spans(checked, report, finding);
                let hidden = elide_middle(&mut spans);
                let excerpt = Excerpt::new(&checked.source.name, checked.display(), &spans);
                let mut rendered =
                    render(checked, report, finding).with_labels(excerpt.labels(&spans));
                if hidden > 0 {
                    rendered.notes.push(format!(
                        "note: {hidden} more line pieces of this finding are not shown \
                         (`--format json` lists them all)"
                    ));
                }
                if let Some(report) = report.filter(|_| Some(index) == alternatives_at) {
                    rendered.notes.extend(alternative_notes(report));
                }
                for note in &mut rendered.notes {
                    *note = escape::text(note).into_owned();
                }
                term::emit_to_write_style(out, &self.config, &excerpt, &rendered)
                    .map_err(files_error)?;
            }
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn WriteColor, totals: &Totals) -> io::Result<()> {
        if self.options.quiet {
            return Ok(());
        }
        summary_line(out, totals, self.options.verdicts)
    }

    fn texts_read(&self) -> KeepText {
        // A verdict shows the URL alone; excerpts are of findings.
        KeepText::WithFindings
    }
}

/// Write the bold summary line: "checked 3 files, found 29 URLs: 9 errors,
/// 2 warnings", or "validated 5 URLs: ..." for `verdicts`.
pub(super) fn summary_line(
    out: &mut dyn WriteColor,
    totals: &Totals,
    verdicts: bool,
) -> io::Result<()> {
    let counts = format!(
        "{}, {}",
        plural(totals.errors, "error"),
        plural(totals.warnings, "warning")
    );
    let summary = if verdicts {
        format!("validated {}: {counts}", plural(totals.urls, "URL"))
    } else {
        format!(
            "checked {}, found {}: {counts}",
            plural(totals.files, "file"),
            plural(totals.urls, "URL")
        )
    };
    out.set_color(ColorSpec::new().set_bold(true))?;
    write!(out, "{summary}")?;
    out.reset()?;
    writeln!(out)?;
    if totals.spared_by_rfc3986 > 0 {
        // A first run on modern docs meets RFC 1738's strictness (`~`,
        // IPv6 literals, user names) without knowing a second profile exists.
        let count = totals.spared_by_rfc3986;
        let these = if count == 1 {
            "of these findings is"
        } else {
            "of these findings are"
        };
        writeln!(
            out,
            "{count} {these} not reported under --profile rfc3986 (modern URLs)"
        )?;
    }
    Ok(())
}

/// "1 file", "3 files".
fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// The displayed-text ranges a finding labels: one per line piece.
fn label_spans(
    checked: &Checked,
    report: Option<&UrlReport>,
    finding: &Finding,
) -> Vec<Range<usize>> {
    placed_spans(report, finding)
        .into_iter()
        .flat_map(|span| checked.display_spans(span))
        .map(|span| span.range())
        .collect()
}

/// Most line pieces of one finding an excerpt shows: a finding over a URL
/// of thousands of lines (a quoted-printable URL over its soft breaks)
/// would print them all, in time that grows with their square.
const MAX_SHOWN_PIECES: usize = 6;

/// Keep the first and last pieces of `spans` when there are more than
/// [`MAX_SHOWN_PIECES`]; returns how many were left out.
fn elide_middle(spans: &mut Vec<Range<usize>>) -> usize {
    const LAST: usize = 2;
    if spans.len() <= MAX_SHOWN_PIECES {
        return 0;
    }
    let hidden = spans.len() - MAX_SHOWN_PIECES;
    spans.drain(MAX_SHOWN_PIECES - LAST..spans.len() - LAST);
    hidden
}

/// Build the codespan diagnostic for one finding, without its labels
/// (they index the finding's [`Excerpt`]).
fn render(
    checked: &Checked,
    report: Option<&UrlReport>,
    finding: &Finding,
) -> CodespanDiagnostic<()> {
    let diagnostic = &finding.diagnostic;
    let severity = match diagnostic.severity {
        rules::Severity::Error => Severity::Error,
        rules::Severity::Warning => Severity::Warning,
    };
    let mut notes = Vec::new();
    if !diagnostic.help.is_empty() {
        notes.push(format!("help: {}", diagnostic.help));
    }
    notes.extend(fix_line(checked, report, finding, "help"));
    if let Some(report) = report.filter(|report| report.found.is_decoded()) {
        notes.push(format!(
            "note: the URL with its escapes and character references decoded reads `{}`",
            report.found.url
        ));
    } else if let Some(report) = report.filter(|report| report.found.segments.len() > 1) {
        notes.push(format!(
            "note: the URL joined across lines reads `{}`",
            report.found.url
        ));
    }
    if let Some(mail) = checked.mail() {
        notes.push(format!("note: {}", mail_note(mail)));
    }
    CodespanDiagnostic::new(severity)
        .with_code(diagnostic.rule.name())
        .with_message(escape::text(&diagnostic.message))
        .with_notes(notes)
}

/// Which finding carries the URL's other readings: the hyphen-break finding
/// that explains them, else the first one, so they are shown exactly once.
fn alternatives_finding(report: &UrlReport) -> Option<usize> {
    if report.found.alternatives.is_empty() {
        return None;
    }
    let hyphen = report
        .findings
        .iter()
        .position(|finding| finding.diagnostic.rule == Rule::HyphenBreak);
    hyphen.or((!report.findings.is_empty()).then_some(0))
}

/// One note per alternative reading, except those a finding's help
/// already spells out (the scanner's hyphen-break and broken-bare-url
/// helps name their other reading themselves).
fn alternative_notes(report: &UrlReport) -> impl Iterator<Item = String> + '_ {
    let spelled_out = |url: &str| {
        report
            .findings
            .iter()
            .any(|finding| finding.diagnostic.help.contains(url))
    };
    report
        .found
        .alternatives
        .iter()
        .filter(move |alternative| !spelled_out(&alternative.url))
        .map(|alternative| {
            format!(
                "note: could also read `{}`: {}",
                alternative.url, alternative.reason
            )
        })
}

/// Rendering fails only on a bad label range or on I/O; both surface as I/O.
fn files_error(err: FilesError) -> io::Error {
    match err {
        FilesError::Io(err) => err,
        other => io::Error::other(other.to_string()),
    }
}

/// One sentence naming the message and part a text came from, for the
/// human format's notes.
fn mail_note(mail: &MailFrame) -> String {
    let message = &mail.message;
    let mut note = format!("in message {}", message.number);
    let fields = [
        ("Message-ID", message.message_id()),
        ("Date", message.date()),
        ("Subject", message.subject()),
    ];
    for (name, value) in fields {
        if let Some(value) = value {
            note.push_str(&format!(", {name}: {value:?}"));
        }
    }
    let part = &mail.part;
    note.push_str(&format!(
        "; part {} ({}, {})",
        part.path,
        part.content_type,
        part.encoding.name()
    ));
    note
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixtures;
    use codespan_reporting::term::termcolor::Ansi;

    fn render_plain(checked: &[Checked], options: HumanOptions) -> String {
        fixtures::render(&mut HumanReporter::new(options), checked)
    }

    #[test]
    fn wrapped_url_labels_each_line_piece() {
        let output = render_plain(
            &[fixtures::wrapped(), fixtures::clean()],
            HumanOptions::default(),
        );
        insta::assert_snapshot!(output);
    }

    #[test]
    fn a_span_across_the_line_break_is_labelled_on_both_lines() {
        let mut checked = fixtures::wrapped();
        let report = &mut checked.reports[0];
        let url_span = crate::span::Span::new(24, 33); // "pub-lists"
        let finding = Finding::in_url(
            crate::diagnostic::Diagnostic::new(
                Rule::HyphenBreak,
                url_span,
                "path segment 'pub-lists' is split after its hyphen",
            ),
            &report.found,
        );
        report.findings = vec![finding];
        let output = render_plain(&[checked], HumanOptions::default());
        insta::assert_snapshot!(output);
    }

    #[test]
    fn an_alternative_named_in_the_help_is_not_repeated() {
        let mut checked = fixtures::wrapped();
        let report = &mut checked.reports[0];
        report.findings[0].diagnostic.help =
            "the other reading is http://info.example.org/publists/~ann/list.txt".into();
        let output = render_plain(&[checked], HumanOptions::default());
        assert_eq!(output.matches("publists").count(), 1, "{output}");
    }

    #[test]
    fn validate_mode_prints_verdicts() {
        let output = render_plain(
            &[fixtures::wrapped(), fixtures::clean()],
            HumanOptions {
                verdicts: true,
                quiet: false,
            },
        );
        assert!(output.contains("invalid: http://info.example.org/pub-lists/~ann/list.txt\n"));
        assert!(output.contains("valid: http://example.com/\n"));
        assert!(output.ends_with("validated 2 URLs: 1 error, 1 warning\n"));
    }

    #[test]
    fn quiet_prints_the_diagnostics_alone() {
        let checked = [fixtures::wrapped(), fixtures::clean()];
        let quiet = HumanOptions {
            verdicts: true,
            quiet: true,
        };
        let output = render_plain(&checked, quiet);
        let loud = render_plain(&checked, HumanOptions::default());
        assert!(!output.contains("valid: ") && !output.contains("validated"));
        assert!(output.starts_with("warning[hyphen-break]"), "{output}");
        assert_eq!(
            loud.strip_suffix("checked 2 files, found 2 URLs: 1 error, 1 warning\n"),
            Some(output.as_str())
        );
    }

    #[test]
    fn colour_is_written_only_to_colour_writers() {
        let mut out = Ansi::new(Vec::new());
        HumanReporter::new(HumanOptions::default())
            .source(&mut out, &fixtures::wrapped())
            .expect("write to memory");
        assert!(out.into_inner().contains(&0x1b), "ANSI escapes expected");
        let plain = render_plain(&[fixtures::wrapped()], HumanOptions::default());
        assert!(!plain.contains('\u{1b}'));
    }

    /// `text` as a file named `long.txt`, linted by the real linter.
    fn linted(text: &str) -> Checked {
        let reports: Vec<_> = crate::lint::lint(text, &Default::default()).collect();
        let source = crate::source::Source::new(
            crate::source::Origin::File("long.txt".into()),
            text.to_string(),
        );
        Checked::new(source, reports)
    }

    /// The column (in characters) of each caret line's first `^`, paired
    /// with the character shown above it on the source line before it.
    fn carets(output: &str) -> Vec<(usize, Option<char>)> {
        let lines: Vec<&str> = output.lines().collect();
        lines
            .windows(2)
            .filter_map(|pair| {
                let column = pair[1].chars().position(|ch| ch == '^')?;
                pair[1].contains('│').then_some(())?;
                Some((column, pair[0].chars().nth(column)))
            })
            .collect()
    }

    #[test]
    fn a_finding_mid_way_along_a_long_line_shows_a_window_with_the_true_column() {
        let text = format!(
            "{} http://mid.example/~x {}\n",
            "a".repeat(5_000),
            "b".repeat(4_976)
        );
        let output = render_plain(&[linted(&text)], HumanOptions::default());
        let column = 5_000 + " http://mid.example/".len() + 1;
        assert!(
            output.contains(&format!("┌─ long.txt:1:{column}\n")),
            "{output}"
        );
        assert!(output.len() < 1_000, "{} bytes", output.len());
        assert_eq!(carets(&output), [(column_of_caret(&output), Some('~'))]);
        insta::assert_snapshot!(output);
    }

    /// Where the caret of a one-finding output is, for comparing with the
    /// character above it.
    fn column_of_caret(output: &str) -> usize {
        carets(output).first().map_or(0, |&(column, _)| column)
    }

    #[test]
    fn a_url_wrapped_across_two_long_lines_is_cropped_on_both() {
        let text = format!(
            "{} <URL:http://long.example/pub-\n    lists/~ann/list.txt> {}\n",
            "p".repeat(300),
            "q".repeat(300)
        );
        let output = render_plain(&[linted(&text)], HumanOptions::default());
        assert!(output.len() < 2_000, "{} bytes", output.len());
        assert!(output.contains("┌─ long.txt:1:330\n"), "{output}");
        assert!(output.contains("┌─ long.txt:2:11\n"), "{output}");
        let shown: Vec<Option<char>> = carets(&output).into_iter().map(|(_, ch)| ch).collect();
        assert_eq!(shown, [Some('-'), Some('~')]);
        insta::assert_snapshot!(output);
    }

    #[test]
    fn crop_edges_among_multibyte_characters_keep_whole_characters() {
        // Shifting the text by one to three bytes moves each crop edge
        // through every byte of the two-, three- and four-byte characters.
        for shift in 0..4 {
            let text = format!(
                "{}{} http://x.example/~y {}\n",
                "a".repeat(shift),
                "é€𝄞".repeat(100),
                "𝄞€é".repeat(100)
            );
            let output = render_plain(&[linted(&text)], HumanOptions::default());
            let column = shift + 300 + " http://x.example/".len() + 1;
            assert!(
                output.contains(&format!("long.txt:1:{column}\n")),
                "{output}"
            );
            assert_eq!(output.matches('…').count(), 2, "{output}");
            assert_eq!(carets(&output), [(column_of_caret(&output), Some('~'))]);
        }
    }

    #[test]
    fn short_lines_around_a_long_one_are_shown_whole() {
        let text = format!("<URL:http://a.example/~b\n{}\n>\n", "c".repeat(500));
        let output = render_plain(&[linted(&text)], HumanOptions::default());
        assert!(
            output.contains("1 │ <URL:http://a.example/~b\n"),
            "{output}"
        );
        assert!(output.len() < 3_000, "{} bytes", output.len());
    }

    #[test]
    fn out_of_range_spans_do_not_fail_rendering() {
        let mut checked = fixtures::clean();
        let mut finding = fixtures::wrapped().reports[0].findings[1].clone();
        finding.source_spans = vec![crate::span::Span::new(500, 900)];
        checked.reports[0].findings.push(finding);
        let output = render_plain(&[checked], HumanOptions::default());
        assert!(output.contains("error[unsafe-char]"));
    }
}
