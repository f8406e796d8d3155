//! Markup: Markdown, reStructuredText and HTML documents read into the
//! prose in which the scanner looks for URLs and the link values the markup
//! delimits itself, each with a map back to the source bytes.
//!
//! Markdown goes through pulldown-cmark's offset iterator, HTML through
//! html5gum's tokenizer, reStructuredText through a line-based recognizer
//! of its own; HTML inside Markdown and `raw:: html` in reStructuredText is
//! read as HTML.

mod attribute;
mod destination;
mod document;
mod facts;
mod html;
mod markdown;
mod rst;
mod sections;

pub(crate) use document::{last_made_url_syntax, Document, Link, LinkSyntax};
pub(crate) use facts::{facts, FixWriting};
pub(crate) use markdown::Part as MarkdownPart;

use crate::span::Span;

/// Read a Markdown document; `verbatim` reads code spans and code blocks
/// as prose too.
pub(crate) fn markdown(source: &str, verbatim: bool) -> Document {
    markdown::document(source, verbatim)
}

/// Read the part of a Markdown document that holds a given place, the
/// rest blanked, when it reads as the whole does (see [`MarkdownPart`]).
pub(crate) fn markdown_part(source: &str, part: MarkdownPart, verbatim: bool) -> Option<Document> {
    markdown::document_part(source, part, verbatim)
}

/// Where a Markdown document's block structure starts afresh, up to the
/// first place after `through`: the starts of the sections that read alone
/// as they read in the whole (see [`sections`]). Empty when the document
/// is one section.
pub(crate) fn markdown_fresh_starts(source: &str, through: usize) -> Vec<usize> {
    sections::fresh_starts(source, through)
}

/// Read the `runs` of a Markdown document, each one or more adjacent
/// sections (starting at `starts`, [`markdown_fresh_starts`]) in source
/// order, the rest blanked, when they read as in the whole document.
pub(crate) fn markdown_runs(
    source: &str,
    starts: &[usize],
    runs: &[Span],
    verbatim: bool,
) -> Option<Document> {
    markdown::document_runs(source, starts, runs, verbatim)
}

/// Read a reStructuredText document; `verbatim` reads literal blocks, code
/// directives, doctest blocks, inline literals, interpreted text and
/// comments as prose too.
pub(crate) fn rst(source: &str, verbatim: bool) -> Document {
    rst::document(source, verbatim)
}

/// True when the first bytes of a text hold explicit markup only
/// reStructuredText writes (a directive, a hyperlink target or a
/// substitution definition opening a line).
pub(crate) fn looks_like_rst(head: &[u8]) -> bool {
    rst::looks_like_rst(head)
}

/// Read an HTML document; `verbatim` reads the text of code elements
/// (`code`, `pre`, `kbd`, `samp`, `tt`) as prose too.
pub(crate) fn html(source: &str, verbatim: bool) -> Document {
    html::document(source, verbatim)
}
