//! One document linted: the checked texts the reading side made of it, and
//! every URL and finding placed in the document's own bytes.
//!
//! The document is read as the command line reads a file (plain text, or
//! mail by its name or content), so findings and their places are those
//! `urlint check` reports. Places go through [`Checked::locate_runs`], the
//! one mapping reporters use, so a URL in a mail part is placed on the
//! archive lines it was decoded from.
//!
//! An analysis is held while its document is open, and a large document
//! may hold a million URLs, each with findings: holding every report took
//! twelve times the document. A URL whose bytes are its text's own is held
//! as its place and the pieces it was read from, and its report is linted
//! again when a diagnostic, a hover or a code action asks for it; linting
//! one URL takes microseconds, and reading hands the reports over a batch
//! at a time, so the full reports of only one batch are held at once.

use std::borrow::Cow;
use std::ops::{ControlFlow, Range};
use std::path::PathBuf;
use std::sync::Arc;

use crate::checked::{Base, Checked, Frame};
use crate::input::{
    read_document, unclosed_note, unclosed_places, InputError, InputKind, KindGlobs, Note, Sink,
};
use crate::lint::{self, Finding, LintOptions, UrlReport};
use crate::report::placed_spans;
use crate::scan::{Form, Found, Segment};
use crate::span::{SourceSpan, Span};

use super::position::{Encoding, PositionIndex};

/// A URL of the document as held: its place, and what makes its report.
#[derive(Debug)]
struct HeldUrl {
    /// Which checked text holds it.
    checked: usize,
    /// From its first byte to its last, delimiters included.
    extent: Span,
    /// How many findings its report holds.
    findings: usize,
    /// Its report, or what makes it again.
    report: HeldReport,
}

/// A URL's report, or what makes it again.
#[derive(Debug)]
enum HeldReport {
    /// A URL copied unchanged from its text's bytes, which no directive
    /// silences a finding of: its report is what linting its `Found`
    /// again makes, and the `Found` is its form and source pieces.
    Relinted {
        /// How it was written.
        form: Form,
        /// Its match in the text, delimiters included.
        outer: SourceSpan,
        /// The text's bytes it is made of, in order.
        pieces: SourcePieces,
    },
    /// Any other URL's report (decoded from markup, joined at a hyphen
    /// break or across lines, with findings of the scanner's, or with
    /// findings silenced), held as it was made.
    Made(Box<UrlReport>),
}

/// The source pieces of a URL's bytes: nearly always one, so one is held
/// without an allocation of its own.
#[derive(Debug)]
enum SourcePieces {
    One(SourceSpan),
    Several(Box<[SourceSpan]>),
}

impl SourcePieces {
    fn as_slice(&self) -> &[SourceSpan] {
        match self {
            SourcePieces::One(piece) => std::slice::from_ref(piece),
            SourcePieces::Several(pieces) => pieces,
        }
    }
}

/// A finding about a text itself (an unused suppression), placed.
#[derive(Debug)]
struct TextFinding {
    /// Which checked text it is about.
    checked: usize,
    /// The finding.
    finding: Finding,
    /// The document bytes it is about, one span per run.
    pieces: Box<[Span]>,
}

/// A URL of the document with its report, placed.
#[derive(Debug)]
pub(super) struct PlacedUrl<'a> {
    /// Its index among the document's URLs, in source order.
    pub index: usize,
    /// The checked text holding it.
    pub checked: &'a Checked,
    /// Its report: held, or linted again for this call.
    pub report: Cow<'a, UrlReport>,
    /// From its first byte to its last, delimiters included.
    pub extent: Span,
    /// The document bytes of each of its segments' runs, in order: one per
    /// line piece of a wrapped URL.
    pub pieces: Vec<Span>,
}

/// A finding placed in the document.
#[derive(Debug)]
pub(super) struct PlacedFinding<'p> {
    /// The URL it is about; `None` for a finding about the text itself.
    pub url: Option<&'p PlacedUrl<'p>>,
    /// The checked text holding it.
    pub checked: &'p Checked,
    /// The finding.
    pub finding: &'p Finding,
    /// The document bytes it is about, one span per run (line piece); its
    /// URL's extent when it is about no characters in particular.
    pub pieces: Vec<Span>,
}

impl PlacedFinding<'_> {
    /// The report of the URL it is about.
    pub(super) fn report(&self) -> Option<&UrlReport> {
        self.url.map(|url| &*url.report)
    }

    /// True when one of its pieces touches `span` (shares a byte with it,
    /// or meets it at either end).
    pub(super) fn touches(&self, span: Span) -> bool {
        self.pieces
            .iter()
            .any(|piece| piece.start <= span.end && span.start <= piece.end)
    }
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
    /// The checked texts the document was read into, without their
    /// reports and findings, which `urls` and `text_findings` hold.
    checked: Vec<Checked>,
    /// Every URL, by its first byte.
    urls: Vec<HeldUrl>,
    /// Every finding about a text itself, by its first byte.
    text_findings: Vec<TextFinding>,
    /// How many findings the document has.
    pub finding_count: usize,
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
        let mut holding = Holding {
            document: &text,
            options: &reading.options,
            checked: Vec::new(),
            urls: Vec::new(),
            text_findings: Vec::new(),
            may_suppress: false,
            unclosed: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
        };
        // Holding never refuses what it is handed.
        let _ = read_document(
            reading.kind,
            path.as_deref(),
            String::clone(&text),
            &reading.globs,
            &reading.options,
            &mut holding,
        );
        let Holding {
            checked,
            mut urls,
            mut text_findings,
            unclosed,
            errors,
            warnings,
            ..
        } = holding;
        // What the markup left open is shown as a diagnostic where it
        // opened, not said again as a message.
        let warnings = warnings
            .into_iter()
            .filter(|warning| !unclosed.iter().any(|(_, note)| note == warning))
            .map(|warning| warning.to_string())
            .collect::<Vec<_>>();
        let unclosed = unclosed.into_iter().map(|(placed, _)| placed).collect();
        // A mail archive's parts are read in order, and a text's URLs are
        // in order; sorted all the same, as the archive's lines are what
        // the document shows.
        urls.sort_by_key(|url| url.extent.start);
        urls.shrink_to_fit();
        // Stable: findings of one place keep their text's order.
        text_findings.sort_by_key(|finding| finding.start());
        let finding_count =
            urls.iter().map(|url| url.findings).sum::<usize>() + text_findings.len();
        let index = PositionIndex::new(&text, encoding);
        Analysis {
            version,
            text,
            index,
            options: reading.options,
            checked,
            urls,
            text_findings,
            finding_count,
            unclosed,
            problems: errors.into_iter().chain(warnings).collect(),
        }
    }

    /// What `each` makes of every finding, in document order: for tests,
    /// which look at them all.
    #[cfg(test)]
    pub(super) fn each_finding<R>(&self, mut each: impl FnMut(&PlacedFinding<'_>) -> R) -> Vec<R> {
        let mut made = Vec::new();
        let _ = self.visit_findings(self.all_urls(), &mut |placed| {
            made.push(each(placed));
            ControlFlow::Continue(())
        });
        made
    }

    /// URL `index` (in source order) with its report, placed.
    pub(super) fn url(&self, index: usize) -> PlacedUrl<'_> {
        let held = &self.urls[index];
        let checked = &self.checked[held.checked];
        let report = match &held.report {
            HeldReport::Made(report) => Cow::Borrowed(&**report),
            HeldReport::Relinted {
                form,
                outer,
                pieces,
            } => Cow::Owned(relinted(checked, *form, *outer, pieces, &self.options)),
        };
        let segments: Vec<SourceSpan> = report
            .found
            .segments
            .iter()
            .map(|segment| segment.source)
            .collect();
        let pieces = runs(checked, &segments);
        PlacedUrl {
            index,
            checked,
            report,
            extent: held.extent,
            pieces,
        }
    }

    /// The URLs that touch `span` (share a byte with it, or meet it at
    /// either end), as a range of their indices: URLs do not overlap, so
    /// they are in order of their ends too.
    pub(super) fn urls_touching(&self, span: Span) -> Range<usize> {
        let first = self.urls.partition_point(|url| url.extent.end < span.start);
        let after = self
            .urls
            .partition_point(|url| url.extent.start <= span.end);
        first..after.max(first)
    }

    /// Visit, in document order, the findings of URLs `urls` (a range of
    /// their indices) and every finding about a text itself, until `visit`
    /// breaks: a URL's by the URL's first byte, in its report's order, a
    /// text's own by its first byte, after a URL's at the same byte.
    pub(super) fn visit_findings(
        &self,
        urls: Range<usize>,
        visit: &mut dyn FnMut(&PlacedFinding<'_>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut own = self.text_findings.iter().peekable();
        for index in urls {
            let held = &self.urls[index];
            while let Some(text_finding) =
                own.next_if(|finding| finding.start() < held.extent.start)
            {
                visit(&self.text_finding(text_finding))?;
            }
            // A URL without findings is not linted again for nothing: most
            // URLs of a document have none.
            if held.findings == 0 {
                continue;
            }
            let url = self.url(index);
            for finding in &url.report.findings {
                visit(&url_finding(&url, finding))?;
            }
        }
        own.try_for_each(|text_finding| visit(&self.text_finding(text_finding)))
    }

    /// A finding about a text itself, placed.
    fn text_finding<'p>(&'p self, held: &'p TextFinding) -> PlacedFinding<'p> {
        PlacedFinding {
            url: None,
            checked: &self.checked[held.checked],
            finding: &held.finding,
            pieces: held.pieces.to_vec(),
        }
    }

    /// The range of every URL's index, for [`Analysis::visit_findings`].
    pub(super) fn all_urls(&self) -> Range<usize> {
        0..self.urls.len()
    }

    /// The document's one checked text, when the document was read as one
    /// text whose bytes are the document's own, so that its spans are the
    /// document's bytes and it can be edited through them.
    pub(super) fn whole_text(&self) -> Option<&Checked> {
        let [checked] = &self.checked[..] else {
            return None;
        };
        let whole = matches!(checked.frame, Frame::Text(base) if base == Base::START)
            && checked.text().map(str::len) == Some(self.text.len());
        whole.then_some(checked)
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

impl TextFinding {
    /// The document byte it is ordered by.
    fn start(&self) -> usize {
        self.pieces.first().map_or(0, |piece| piece.start)
    }
}

/// A finding of `url`'s report, placed.
fn url_finding<'p>(url: &'p PlacedUrl<'p>, finding: &'p Finding) -> PlacedFinding<'p> {
    let mut pieces = runs(url.checked, &placed_spans(Some(&url.report), finding));
    // A finding about no characters in particular is about its URL, as
    // reporters show it.
    if pieces.is_empty() {
        pieces.push(url.extent);
    }
    PlacedFinding {
        url: Some(url),
        checked: url.checked,
        finding,
        pieces,
    }
}

/// Where a document's reading goes: each checked text kept without its
/// reports, and each report held as little as makes it again, as the
/// batches come.
struct Holding<'a> {
    /// The document's text, which a text read whole shares.
    document: &'a Arc<String>,
    /// The options the document is linted with.
    options: &'a LintOptions,
    checked: Vec<Checked>,
    urls: Vec<HeldUrl>,
    text_findings: Vec<TextFinding>,
    /// Whether the last checked text may hold a directive.
    may_suppress: bool,
    /// What each text's markup left open, with the warning said of it.
    unclosed: Vec<(PlacedUnclosed, Note)>,
    errors: Vec<String>,
    warnings: Vec<Note>,
}

impl Sink for Holding<'_> {
    fn checked(&mut self, mut checked: Checked) -> std::io::Result<()> {
        checked.share_text(self.document);
        let reports = std::mem::take(&mut checked.reports);
        let findings = std::mem::take(&mut checked.findings);
        // A batch of a document read whole continues the text before it:
        // one checked text holds them all, so the document stays one text.
        let continues = self.checked.last().is_some_and(|last| {
            let same_frame = matches!(
                (&last.frame, &checked.frame),
                (Frame::Text(a), Frame::Text(b)) if a == b
            );
            checked.continuation
                && same_frame
                && last.text().map(str::as_ptr) == checked.text().map(str::as_ptr)
        });
        let index = match continues {
            true => self.checked.len() - 1,
            false => self.checked.len(),
        };
        self.unclosed.extend(place_unclosed(&checked));
        // A batch continues its text, already searched for directives.
        if !continues {
            self.may_suppress = checked.text().is_some_and(lint::may_suppress);
        }
        let may_suppress = self.may_suppress;
        for report in reports {
            let held = hold(&checked, index, report, may_suppress, self.options);
            self.urls.push(held);
        }
        for finding in findings {
            let pieces = runs(&checked, &placed_spans(None, &finding)).into_boxed_slice();
            self.text_findings.push(TextFinding {
                checked: index,
                finding,
                pieces,
            });
        }
        if !continues {
            self.checked.push(checked);
        }
        Ok(())
    }

    fn note(&mut self, _: Note) {}

    fn warning(&mut self, note: Note) {
        self.warnings.push(note);
    }

    fn error(&mut self, error: InputError) {
        self.errors.push(error.to_string());
    }
}

/// `report`, of checked text `checked` (whose index is `index`), held: as
/// what makes it again when it is the report [`relinted`] makes; a text
/// that `may_suppress` is linted again to tell.
fn hold(
    checked: &Checked,
    index: usize,
    report: UrlReport,
    may_suppress: bool,
    options: &LintOptions,
) -> HeldUrl {
    let outer = checked.locate(report.found.outer);
    let extent = Span::new(outer.start, outer.end);
    let findings = report.findings.len();
    let remade = checked
        .text()
        .and_then(|text| copied_pieces(&report.found, text))
        .filter(|pieces| {
            !may_suppress
                || relinted(
                    checked,
                    report.found.form,
                    report.found.outer,
                    pieces,
                    options,
                ) == report
        });
    let report = match remade {
        Some(pieces) => HeldReport::Relinted {
            form: report.found.form,
            outer: report.found.outer,
            pieces,
        },
        None => HeldReport::Made(Box::new(report)),
    };
    HeldUrl {
        checked: index,
        extent,
        findings,
        report,
    }
}

/// The pieces of `text` that `found` is copied from, when it is made of
/// them alone: its bytes are theirs, unchanged and in order, and the
/// scanner said nothing about it and saw no other reading.
fn copied_pieces(found: &Found, text: &str) -> Option<SourcePieces> {
    let plain = found.alternatives.is_empty()
        && found.diagnostics.is_empty()
        && found.joins.is_empty()
        && !found.segments.is_empty();
    if !plain {
        return None;
    }
    let mut joined = 0;
    for segment in &found.segments {
        let bytes = text.get(segment.source.range())?;
        let copied = segment.is_copied()
            && segment.url_start == joined
            && found.url.get(joined..joined + bytes.len()) == Some(bytes);
        if !copied {
            return None;
        }
        joined += bytes.len();
    }
    if joined != found.url.len() {
        return None;
    }
    Some(match &found.segments[..] {
        [one] => SourcePieces::One(one.source),
        several => SourcePieces::Several(several.iter().map(|s| s.source).collect()),
    })
}

/// The report of a URL held as [`HeldReport::Relinted`]: its `Found` made
/// again from `checked`'s bytes, linted.
fn relinted(
    checked: &Checked,
    form: Form,
    outer: SourceSpan,
    pieces: &SourcePieces,
    options: &LintOptions,
) -> UrlReport {
    // Held only for a checked text that is kept (see `copied_pieces`).
    let text = checked.text().unwrap_or_default();
    let mut found = Found::unbroken("", form, outer);
    found.segments.clear();
    for &piece in pieces.as_slice() {
        found.segments.push(Segment::copied(piece, found.url.len()));
        found
            .url
            .push_str(text.get(piece.range()).unwrap_or_default());
    }
    lint::lint_found(found, options)
}

/// What the markup of a checked text left open, placed in the document,
/// with the warning the reading side gave about it.
fn place_unclosed(checked: &Checked) -> Option<(PlacedUnclosed, Note)> {
    let note = unclosed_note(checked)?;
    let (opening, end) = unclosed_places(checked)?;
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
        analysis.each_finding(|placed| {
            let text: Vec<&str> = placed
                .pieces
                .iter()
                .map(|span| &analysis.text[span.range()])
                .collect();
            (placed.finding.diagnostic.rule, text)
        })
    }

    /// The document bytes of URL `index`'s line pieces.
    fn url_lines<'t>(analysis: &Analysis, text: &'t str, index: usize) -> Vec<&'t str> {
        let url = analysis.url(index);
        url.pieces.iter().map(|span| &text[span.range()]).collect()
    }

    /// Every report of `text` read as a file at `path` is, as the document's
    /// analysis gives it, the report reading made, in the same order; and
    /// how many of them were held as what makes them again.
    fn reports_made_again(path: &str, text: &str) -> usize {
        let options = LintOptions::default();
        let mut read = crate::input::Collected::default();
        let path = PathBuf::from(path);
        read_document(
            InputKind::Auto,
            Some(&path),
            text.to_string(),
            &KindGlobs::default(),
            &options,
            &mut read,
        )
        .expect("a collecting sink accepts");
        let mut made: Vec<(usize, &UrlReport)> = read
            .checked
            .iter()
            .flat_map(|checked| {
                let starts = |report: &UrlReport| checked.locate(report.found.outer).start;
                checked
                    .reports
                    .iter()
                    .map(move |report| (starts(report), report))
            })
            .collect();
        made.sort_by_key(|&(start, _)| start);
        let analysis = analysis(path.to_str().unwrap(), text);
        assert_eq!(analysis.urls.len(), made.len(), "{text:?}");
        for (index, (_, report)) in made.iter().enumerate() {
            assert_eq!(&*analysis.url(index).report, *report, "{text:?}");
        }
        let findings = made
            .iter()
            .map(|(_, report)| report.findings.len())
            .sum::<usize>();
        let own = read
            .checked
            .iter()
            .map(|checked| checked.findings.len())
            .sum::<usize>();
        assert_eq!(analysis.finding_count, findings + own, "{text:?}");
        analysis
            .urls
            .iter()
            .filter(|url| matches!(url.report, HeldReport::Relinted { .. }))
            .count()
    }

    #[test]
    fn every_url_held_small_is_given_with_the_report_reading_made() {
        let cases: &[(&str, &str, usize)] = &[
            // Bare URLs copied from the text are held small, whatever their
            // findings; a template's report is made again with it.
            (
                "/w/a.txt",
                "see http://h.example/a|b, http://k.example:99999/ and \
                 http://{host}/x~y then http://ok.example/.\n",
                4,
            ),
            // Joined across lines, or with the scanner's own findings (a
            // space in a wrapper), or read two ways at a hyphen break: held
            // as made.
            (
                "/w/a.txt",
                "<URL:http://h.example/a~\n  ~b> <URL:http://s.example/a b>\n\
                 http://hy.example/long-\nname/x~ http://plain.example/~\n",
                1,
            ),
            // A directive silences one of two findings: held as made; the
            // URL it does not cover is held small.
            (
                "/w/a.txt",
                "http://h.example/a|b~ urlint: ignore[unsafe-char]\n\
                 http://k.example/a|b~\nurlint: ignore-next-line\nhttp://q.example/\n",
                2,
            ),
            // Decoded from markup: held as made, except where the value is
            // the source's own bytes.
            (
                "/w/a.md",
                "[x](http://h.example/\\~x) <http://a.example/~> http://b.example/|\n",
                2,
            ),
            (
                "/w/a.html",
                "<a href=\"http://h.example/&#126;x\">x</a> <a href=\"http://k.example/~\">k</a>\n",
                1,
            ),
            (
                "/w/m.eml",
                "From: a@example.org\nSubject: s\n\
                 Content-Transfer-Encoding: quoted-printable\n\n\
                 see http://exa=\nmple.org/~x and http://b.example/|\n",
                // A mail part's text is the decoded part, whose own bytes
                // its URLs are.
                2,
            ),
        ];
        for &(path, text, small) in cases {
            assert_eq!(reports_made_again(path, text), small, "{text:?}");
        }
    }

    /// A document of more URLs than reading hands over at once is held as
    /// one text, which fixes can edit, with every URL held small.
    #[test]
    fn a_document_read_in_batches_is_held_as_one_text() {
        let urls = (1 << 16) + 5;
        let text: String = (0..urls)
            .map(|i| format!("see http://h.example/~{i} here\n"))
            .collect();
        let analysis = analysis("/w/big.txt", &text);
        assert_eq!(analysis.checked.len(), 1);
        assert!(analysis.whole_text().is_some());
        assert_eq!((analysis.urls.len(), analysis.finding_count), (urls, urls));
        assert!(analysis
            .urls
            .iter()
            .all(|url| matches!(url.report, HeldReport::Relinted { .. })));
        let last = analysis.url(urls - 1);
        assert_eq!(
            last.report.found.url,
            format!("http://h.example/~{}", urls - 1)
        );
        assert_eq!(analysis.urls_touching(last.extent), urls - 1..urls);
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
        assert_eq!(
            url_lines(&analysis, text, 0),
            ["http://h.example:8x/a~", "~b/"]
        );
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
        assert!(analysis.whole_text().is_some());
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
        assert_eq!(url_lines(&analysis, text, 0), ["http://exa", "mple.org/~x"]);
        assert_eq!(pieces(&analysis), [(Rule::UnsafeChar, vec!["~"])]);
    }
}
