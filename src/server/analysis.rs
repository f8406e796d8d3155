//! One document linted: the checked texts the reading side made of it, and
//! every URL and finding placed in the document's own bytes.
//!
//! The document is read as the command line reads a file (plain text, or
//! mail by its name or content), so findings and their places are those
//! `urlint check` reports. Places go through [`Checked::locate_runs`], the
//! one mapping reporters use, so a URL in a mail part is placed on the
//! archive lines it was decoded from.

use std::path::PathBuf;
use std::sync::Arc;

use crate::checked::{Base, Checked, Frame};
use crate::input::{read_document, unclosed_note, InputKind, KindGlobs, Note};
use crate::lint::{Finding, LintOptions, UrlReport};
use crate::report::placed_spans;
use crate::span::{SourceSpan, Span};

use super::position::{Encoding, PositionIndex};

/// A URL placed in the document.
#[derive(Debug, Clone)]
pub(super) struct PlacedUrl {
    /// Which checked text holds it.
    pub checked: usize,
    /// Its report in that text.
    pub report: usize,
    /// From its first byte to its last, delimiters included.
    pub extent: Span,
    /// The document bytes of each of its segments' runs, in order: one per
    /// line piece of a wrapped URL. Boxed, not a `Vec`: held for every URL
    /// while the document is open, so without a vector's spare room.
    pub pieces: Box<[Span]>,
}

/// A finding placed in the document.
#[derive(Debug, Clone)]
pub(super) struct PlacedFinding {
    /// The URL it is about (an index into [`Analysis::urls`]); `None` for a
    /// finding about the text itself (an unused suppression).
    pub url: Option<usize>,
    /// Which checked text holds it.
    pub checked: usize,
    /// Its index in the URL's report, or among the text's own findings.
    pub finding: usize,
    /// The document bytes it is about, one span per run (line piece); its
    /// URL's extent when it is about no characters in particular. Boxed
    /// as [`PlacedUrl::pieces`] is.
    pub pieces: Box<[Span]>,
}

/// Something the document's markup left open, which took in the text
/// after it unread: shown where it opened, as a warning diagnostic, since
/// a message would pop up on every edit until the quote is typed.
#[derive(Debug, Clone)]
pub(super) struct PlacedUnclosed {
    /// The document bytes that opened it (a quote, a `<`).
    pub opening: Span,
    /// Where what it took in ends in the document.
    pub end: Span,
    /// The reading side's warning about it, without the document's name.
    pub message: String,
}

/// How a document is read and linted.
#[derive(Debug, Clone, Default)]
pub(super) struct DocumentReading {
    /// The kind it is read as: `Auto` to decide as the command line does
    /// for its file (by the globs, the name, then the content).
    pub kind: InputKind,
    /// The configuration's `[kinds]` globs.
    pub globs: Arc<KindGlobs>,
    /// The lint options.
    pub options: Arc<LintOptions>,
}

/// A document linted at one version.
#[derive(Debug)]
pub(super) struct Analysis {
    /// The document version linted.
    pub version: i32,
    /// The text linted.
    pub text: Arc<String>,
    /// Positions of `text`.
    pub index: PositionIndex,
    /// The options it was linted with.
    pub options: Arc<LintOptions>,
    /// The checked texts the document was read into.
    pub checked: Vec<Checked>,
    /// Every URL, by its first byte.
    pub urls: Vec<PlacedUrl>,
    /// Every finding, by its URL, then as the URL's report orders them; a
    /// finding about the text itself by its first byte among them.
    pub findings: Vec<PlacedFinding>,
    /// What its markup left open, at most one per checked text.
    pub unclosed: Vec<PlacedUnclosed>,
    /// What went wrong reading it (an internal error on some text).
    pub problems: Vec<String>,
}

impl Analysis {
    /// Lint `text`, version `version` of the document at `path`, read as
    /// `reading` says, and place what was found for positions in `encoding`.
    pub(super) fn run(
        path: Option<PathBuf>,
        version: i32,
        text: Arc<String>,
        reading: DocumentReading,
        encoding: Encoding,
    ) -> Analysis {
        let collected = read_document(
            reading.kind,
            path.as_deref(),
            String::clone(&text),
            &reading.globs,
            &reading.options,
        );
        let index = PositionIndex::new(&text, encoding);
        let unclosed: Vec<(PlacedUnclosed, Note)> = collected
            .checked
            .iter()
            .filter_map(place_unclosed)
            .collect();
        let mut problems: Vec<String> = collected.errors.iter().map(ToString::to_string).collect();
        let shown = |warning: &&Note| !unclosed.iter().any(|(_, note)| note == *warning);
        problems.extend(
            collected
                .warnings
                .iter()
                .filter(shown)
                .map(ToString::to_string),
        );
        let unclosed = unclosed.into_iter().map(|(placed, _)| placed).collect();
        let mut checked = collected.checked;
        // Held until the next edit: without the room the reading grew them
        // with (up to as much again), and a document read whole as one text
        // held once, not also as that text's copy.
        for checked_text in &mut checked {
            checked_text.reports.shrink_to_fit();
            checked_text.findings.shrink_to_fit();
            checked_text.share_text(&text);
        }
        let mut urls = Vec::new();
        for (c, checked) in checked.iter().enumerate() {
            for (r, report) in checked.reports.iter().enumerate() {
                urls.push(place_url(checked, c, r, report));
            }
        }
        urls.sort_by_key(|url| url.extent.start);
        let mut findings: Vec<PlacedFinding> = urls
            .iter()
            .enumerate()
            .flat_map(|(u, url)| {
                let checked = &checked[url.checked];
                let report = &checked.reports[url.report];
                report.findings.iter().enumerate().map(move |(f, finding)| {
                    let mut pieces = runs(checked, &placed_spans(Some(report), finding));
                    // A finding about no characters in particular is
                    // about its URL, as reporters show it.
                    if pieces.is_empty() {
                        pieces.push(url.extent);
                    }
                    PlacedFinding {
                        url: Some(u),
                        checked: url.checked,
                        finding: f,
                        pieces: pieces.into_boxed_slice(),
                    }
                })
            })
            .collect();
        urls.shrink_to_fit();
        for (c, text) in checked.iter().enumerate() {
            for (f, finding) in text.findings.iter().enumerate() {
                findings.push(PlacedFinding {
                    url: None,
                    checked: c,
                    finding: f,
                    pieces: runs(text, &placed_spans(None, finding)).into_boxed_slice(),
                });
            }
        }
        // Stable: a URL's findings keep their report's order.
        findings.sort_by_key(|placed| match placed.url {
            Some(u) => urls[u].extent.start,
            None => placed.pieces.first().map_or(0, |piece| piece.start),
        });
        findings.shrink_to_fit();
        Analysis {
            version,
            text,
            index,
            options: reading.options,
            checked,
            urls,
            findings,
            unclosed,
            problems,
        }
    }

    /// The report of a placed URL.
    pub(super) fn report(&self, url: &PlacedUrl) -> &UrlReport {
        &self.checked[url.checked].reports[url.report]
    }

    /// The finding a placed finding is, with its URL's report (`None` for a
    /// finding about the text itself).
    pub(super) fn finding(&self, placed: &PlacedFinding) -> (Option<&UrlReport>, &Finding) {
        match placed.url {
            Some(u) => {
                let report = self.report(&self.urls[u]);
                (Some(report), &report.findings[placed.finding])
            }
            None => (None, &self.checked[placed.checked].findings[placed.finding]),
        }
    }

    /// The checked text a placed URL is in.
    pub(super) fn checked_of(&self, url: &PlacedUrl) -> &Checked {
        &self.checked[url.checked]
    }

    /// True when `checked` is the document read whole as one text, so that
    /// its spans are the document's bytes and it can be edited through them.
    pub(super) fn is_whole_text(&self, checked: &Checked) -> bool {
        matches!(checked.frame, Frame::Text(base) if base == Base::START)
            && checked.text().map(str::len) == Some(self.text.len())
    }

    /// The URL whose extent holds byte `offset`, if any. URLs do not
    /// overlap, so only the last one starting at or before it can.
    pub(super) fn url_at(&self, offset: usize) -> Option<usize> {
        let after = self.urls.partition_point(|url| url.extent.start <= offset);
        let last = after.checked_sub(1)?;
        (offset < self.urls[last].extent.end).then_some(last)
    }

    /// True when byte `offset` lies strictly inside some URL (after its
    /// first byte, before its end): text written there would become part of
    /// the URL.
    pub(super) fn inside_url(&self, offset: usize) -> bool {
        let after = self.urls.partition_point(|url| url.extent.start < offset);
        after
            .checked_sub(1)
            .is_some_and(|last| offset < self.urls[last].extent.end)
    }
}

/// Place one URL of a checked text.
fn place_url(checked: &Checked, c: usize, r: usize, report: &UrlReport) -> PlacedUrl {
    let outer = checked.locate(report.found.outer);
    let segments: Vec<SourceSpan> = report
        .found
        .segments
        .iter()
        .map(|segment| segment.source)
        .collect();
    PlacedUrl {
        checked: c,
        report: r,
        extent: Span::new(outer.start, outer.end),
        pieces: runs(checked, &segments).into_boxed_slice(),
    }
}

/// What the markup of a checked text left open, placed in the document,
/// with the warning the reading side gave about it.
fn place_unclosed(checked: &Checked) -> Option<(PlacedUnclosed, Note)> {
    let note = unclosed_note(checked)?;
    let swallowed = checked.unclosed?.swallowed;
    let opening = checked.locate(SourceSpan::new(swallowed.start, swallowed.start + 1));
    let last_byte = swallowed.end.saturating_sub(1).max(swallowed.start);
    let end = checked.locate(SourceSpan::new(last_byte, swallowed.end));
    let placed = PlacedUnclosed {
        opening: Span::new(opening.start, opening.end),
        end: Span::new(end.start, end.end),
        message: note.said(),
    };
    Some((placed, note))
}

/// The document bytes of `spans` of a checked text, one span per
/// displayed run.
fn runs(checked: &Checked, spans: &[SourceSpan]) -> Vec<Span> {
    spans
        .iter()
        .flat_map(|&span| checked.locate_runs(span))
        .map(|location| Span::new(location.start, location.end))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn analysis(path: &str, text: &str) -> Analysis {
        Analysis::run(
            Some(PathBuf::from(path)),
            1,
            Arc::new(text.to_string()),
            DocumentReading::default(),
            Encoding::Utf16,
        )
    }

    fn pieces(analysis: &Analysis) -> Vec<(Rule, Vec<&str>)> {
        analysis
            .findings
            .iter()
            .map(|placed| {
                let (_, finding) = analysis.finding(placed);
                let text: Vec<&str> = placed
                    .pieces
                    .iter()
                    .map(|span| &analysis.text[span.range()])
                    .collect();
                (finding.diagnostic.rule, text)
            })
            .collect()
    }

    #[test]
    fn appendix_a_wrapped_url_is_placed_on_each_line_piece() {
        let text = "see <URL:http://h.example:8x/a~\n     ~b/> and http://k.example/a|b\n";
        let analysis = analysis("/w/notes.txt", text);
        assert_eq!(
            pieces(&analysis),
            [
                (Rule::BadPort, vec!["8x"]),
                (Rule::UnsafeChar, vec!["~", "~"]),
                (Rule::UnsafeChar, vec!["|"]),
            ]
        );
        let wrapped = &analysis.urls[0];
        let lines: Vec<&str> = wrapped.pieces.iter().map(|s| &text[s.range()]).collect();
        assert_eq!(lines, ["http://h.example:8x/a~", "~b/"]);
        let tilde = text.find('~').unwrap();
        assert_eq!(analysis.url_at(tilde), Some(0));
        assert_eq!(analysis.url_at(text.find("and").unwrap()), None);
        assert!(analysis.inside_url(text.find('\n').unwrap()));
        assert!(!analysis.inside_url(text.len() - 1));
    }

    #[test]
    fn a_document_read_whole_is_held_once() {
        let analysis = analysis("/w/notes.txt", "see http://h.example/a|b\n");
        let [checked] = &analysis.checked[..] else {
            panic!("one text: {:?}", analysis.checked.len());
        };
        let kept = checked.text().expect("the text is kept");
        assert_eq!(kept.as_ptr(), analysis.text.as_ptr());
        assert!(analysis.is_whole_text(checked));
        // A mail archive's text is its decoded parts, not the document.
        let mail = "From: a@example.org\nSubject: s\n\nsee http://h.example/~x\n";
        let analysis = self::analysis("/w/message.eml", mail);
        let checked = &analysis.checked[0];
        assert_ne!(
            checked.text().map(str::as_ptr),
            Some(analysis.text.as_ptr())
        );
    }

    #[test]
    fn markup_links_are_placed_on_the_bytes_they_were_decoded_from() {
        let html = "<p><a href=\"http://h.example/&#126;x\">it</a> http://k.example/a|b</p>\n";
        let analysis = analysis("/w/page.html", html);
        assert_eq!(
            pieces(&analysis),
            [
                (Rule::UnsafeChar, vec!["&#126;"]),
                (Rule::UnsafeChar, vec!["|"])
            ]
        );
        let markdown = "See [x](http://h.example/\\~x) and `http://code.example/{`\n";
        let analysis = self::analysis("/w/notes.md", markdown);
        assert_eq!(pieces(&analysis), [(Rule::UnsafeChar, vec!["\\~"])]);
        let rst = "See `x <http://h.example/~x>`_ and ``http://code.example/{``.\n";
        let analysis = self::analysis("/w/notes.rst", rst);
        assert_eq!(pieces(&analysis), [(Rule::UnsafeChar, vec!["~"])]);
    }

    #[test]
    fn rfc2045_mail_is_placed_on_its_archive_lines() {
        let text = "From: a@example.org\nSubject: s\n\
                    Content-Transfer-Encoding: quoted-printable\n\n\
                    see http://exa=\nmple.org/~x today\n";
        let analysis = analysis("/w/message.eml", text);
        let url: Vec<&str> = analysis.urls[0]
            .pieces
            .iter()
            .map(|span| &text[span.range()])
            .collect();
        assert_eq!(url, ["http://exa", "mple.org/~x"]);
        assert_eq!(pieces(&analysis), [(Rule::UnsafeChar, vec!["~"])]);
    }
}
