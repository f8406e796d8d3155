//! Linting one decoded text for the reading side: a panic while linting
//! becomes an error for that input alone, so one bad input cannot stop the
//! run.

use std::ops::Range;
use std::panic::{self, AssertUnwindSafe};

use super::load::Loaded;
#[cfg(feature = "cli")]
use super::notice::Note;
use super::notice::{panicked, InputError};
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
            Ok(linted) => collected.checked.push(Checked::new(source, linted)),
            Err(err) => collected.error(err),
        }
    }
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
        Linted::Text(_) => None,
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
    let at = advance(base, &source.text[..start]);
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
        Ok(checked) if keep.keeps(&checked) => {
            collected.checked.push(checked.with_text(text.to_owned()))
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
