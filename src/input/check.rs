//! Linting one decoded text for the reading side: a panic while linting
//! becomes an error for that input alone, so one bad input cannot stop the
//! run.

use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};

use super::load::Loaded;
#[cfg(feature = "cli")]
use super::notice::Note;
use super::notice::{panicked, unclosed_note, InputError};
use super::sink::{Collected, Sink};
#[cfg(feature = "cli")]
use super::windows::advance;
use crate::checked::Checked;
#[cfg(feature = "cli")]
use crate::checked::{Base, KeepText};
use crate::lint::{self, LintOptions, Linted};
use crate::source::Source;
#[cfg(feature = "cli")]
use crate::source::{Markup, Named, Origin};

/// Check the sources of a loaded text, each whole.
pub(super) fn check_loaded(loaded: Loaded, lint: &LintOptions, collected: &mut Collected) {
    collected.notes.extend(loaded.notes);
    for source in loaded.sources {
        match lint_source(&source, lint, &(0..usize::MAX)) {
            Ok(linted) => {
                let checked = Checked::new(source, linted);
                collected.warnings.extend(unclosed_note(&checked));
                collected.checked.push(checked);
            }
            Err(err) => collected.error(err),
        }
    }
}

/// How many items of a large document's lint are reported together: the
/// document's text is held whole while it is read, its reports a batch at
/// a time. Large enough that the reporters' walk to each batch's first
/// line, from the text's start, costs little beside the lint.
#[cfg(feature = "cli")]
const DOCUMENT_BATCH: usize = 1 << 16;

/// Check `loaded`, a large document read whole, handing its lint to `sink`
/// a batch at a time as it is made, each batch sharing the document's text,
/// instead of holding every URL's report until the end (a Markdown file
/// of a million URLs took 0.8 GB more). A panic while linting becomes an
/// error for this input, after the batches made before it.
#[cfg(feature = "cli")]
pub(super) fn check_document_in_batches(
    loaded: Loaded,
    lint: &LintOptions,
    sink: &mut dyn Sink,
) -> std::io::Result<()> {
    loaded.notes.into_iter().for_each(|note| sink.note(note));
    for source in loaded.sources {
        let (named, text) = source.into_parts();
        let text = std::sync::Arc::new(text);
        let mut items = lint::lint_markup(&text, named.markup, lint);
        let mut continuation = false;
        loop {
            let batch = panic::catch_unwind(AssertUnwindSafe(|| {
                items.by_ref().take(DOCUMENT_BATCH).collect::<Vec<_>>()
            }));
            let Ok(batch) = batch else {
                sink.error(panicked(named.name.clone()));
                break;
            };
            let last = batch.len() < DOCUMENT_BATCH;
            // A document without URLs is still reported, as one checked text.
            if !(batch.is_empty() && continuation) {
                let checked =
                    Checked::sharing(named.clone(), &text, batch).continuing(continuation);
                if let Some(note) = unclosed_note(&checked) {
                    sink.warning(note);
                }
                sink.checked(checked)?;
            }
            continuation = true;
            if last {
                break;
            }
        }
    }
    Ok(())
}

/// Where the first of a window's owned URLs that ends at (or just before,
/// its trailing punctuation left out) the end of `source`'s text starts:
/// where the window's bytes end, which cuts a URL longer than the window's
/// context. Only an undelimited URL that started more than a context
/// before can reach it, so a URL that merely ends near a window's end is
/// never one.
#[cfg(feature = "cli")]
pub(super) fn url_at_end(items: &[Linted], source: &Source) -> Option<usize> {
    const TRAILING_PUNCTUATION: usize = 64;
    items.iter().find_map(|item| match item {
        Linted::Url(report) => (report.found.outer.end + TRAILING_PUNCTUATION >= source.text.len())
            .then_some(report.found.outer.start),
        Linted::Text(_) | Linted::Unclosed(_) => None,
    })
}

/// The warning that a streamed window (of stdin, a pipe, a compressed
/// file) whose text starts at `base` in the input cut one of its URLs
/// (`linted`, of `source`), when more input follows (`last` is false): a
/// streamed window cannot be read again wider, as a large file's is, so
/// the URL was checked only as far as the window reaches.
#[cfg(feature = "cli")]
pub(super) fn cut_url_note(
    origin: &Origin,
    base: Base,
    last: bool,
    linted: &[Linted],
    source: &Source,
) -> Option<Note> {
    let start = url_at_end(linted, source).filter(|_| !last)?;
    let at = advance(base.for_text(&source.text), &source.text[..start]);
    Some(Note {
        name: origin.to_string(),
        left: None,
        message: format!(
            "the URL at line {}, column {} runs on for more than {} bytes without whitespace, \
             past what a streamed window holds; it was checked only that far (name the file, \
             or its decompressed copy, to check it whole)",
            at.line,
            at.column,
            source.text.len() - start
        ),
        skipped: false,
    })
}

/// Check `text`, read from `origin` and written in `markup` and borrowed
/// from where it was read (see [`ReadOptions::keep_text`]): the checked
/// text's source has its name, and its text only when `keep` says the
/// reporter reads it. The URLs go into the checked text as they
/// are found, not into a list of their own first.
///
/// [`ReadOptions::keep_text`]: super::ReadOptions::keep_text
#[cfg(feature = "cli")]
pub(super) fn check_borrowed(
    text: &str,
    origin: Origin,
    markup: Markup,
    lint: &LintOptions,
    keep: KeepText,
    collected: &mut Collected,
) {
    let named = Named::new(origin, markup);
    let name = named.name.clone();
    let checked = panic::catch_unwind(AssertUnwindSafe(|| {
        Checked::without_text(named, lint::lint_markup(text, markup, lint))
    }));
    match checked {
        // A text whose markup left something open is kept for the warning
        // to say where.
        Ok(checked) if keep.keeps(&checked) || checked.unclosed.is_some() => {
            let checked = checked.with_text(text.to_owned());
            collected.warnings.extend(unclosed_note(&checked));
            collected.checked.push(checked);
        }
        Ok(checked) => collected.checked.push(checked),
        Err(_) => collected.error(panicked(name)),
    }
}

/// Lint `source`, keeping the URLs whose match starts in `owned` and the
/// findings of the text's own that start there (a window reports what it
/// owns, so every item is reported by exactly one window); a panic becomes
/// an internal error for this source, so one bad input does not stop the
/// run.
pub(super) fn lint_source(
    source: &Source,
    options: &LintOptions,
    owned: &Range<usize>,
) -> Result<Vec<Linted>, InputError> {
    // Lint yields items in source order, so those owned are one run.
    let linted = panic::catch_unwind(AssertUnwindSafe(|| {
        lint::lint_markup(&source.text, source.markup, options)
            .skip_while(|item| item.start() < owned.start)
            .take_while(|item| item.start() < owned.end)
            .collect()
    }));
    linted.map_err(|_| panicked(source.name.clone()))
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;
    use crate::source::{Markup, Origin};

    /// A document of more URLs than a batch is handed over in batches that
    /// continue one another, share one text, and together hold the lint of
    /// the whole, in order.
    #[test]
    fn a_large_document_is_reported_in_batches_that_make_up_its_lint() {
        let urls = DOCUMENT_BATCH + 10;
        let text: String = (0..urls)
            .map(|i| format!("- [page](http://a.example/~{i})\n"))
            .collect();
        let options = LintOptions::default();
        let whole: Vec<Linted> = lint::lint_markup(&text, Markup::Markdown, &options).collect();
        assert_eq!(whole.len(), urls);

        let source = Source::new(Origin::Stdin, text.clone()).written_in(Markup::Markdown);
        let loaded = Loaded {
            sources: vec![source],
            notes: Vec::new(),
        };
        let mut collected = Collected::default();
        check_document_in_batches(loaded, &options, &mut collected).expect("collects");
        let batches = collected.checked_texts();
        let sizes: Vec<usize> = batches.iter().map(|batch| batch.reports.len()).collect();
        assert_eq!(sizes, [DOCUMENT_BATCH, 10]);
        let continued: Vec<bool> = batches.iter().map(|batch| batch.continuation).collect();
        assert_eq!(continued, [false, true]);
        assert!(batches
            .iter()
            .all(|batch| batch.text() == Some(text.as_str())));
        let reported: Vec<&str> = batches
            .iter()
            .flat_map(|batch| &batch.reports)
            .map(|report| report.found.url.as_str())
            .collect();
        let expected: Vec<&str> = whole
            .iter()
            .filter_map(|item| match item {
                Linted::Url(report) => Some(report.found.url.as_str()),
                Linted::Text(_) | Linted::Unclosed(_) => None,
            })
            .collect();
        assert_eq!(reported, expected);
    }
}
