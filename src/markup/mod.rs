//! Markup: Markdown and HTML documents read through real parsers, into the
//! prose in which the scanner looks for URLs and the link values the markup
//! delimits itself, each with a map back to the source bytes.
//!
//! Markdown goes through pulldown-cmark's offset iterator, HTML through
//! html5gum's tokenizer; HTML inside Markdown is read as HTML.

mod attribute;
mod destination;
mod document;
mod html;
mod markdown;

pub(crate) use document::{Document, Link, LinkSyntax};

/// Read a Markdown document; `verbatim` reads code spans and code blocks
/// as prose too.
pub(crate) fn markdown(source: &str, verbatim: bool) -> Document {
    markdown::document(source, verbatim)
}

/// Read an HTML document; `verbatim` reads the text of code elements
/// (`code`, `pre`, `kbd`, `samp`) as prose too.
pub(crate) fn html(source: &str, verbatim: bool) -> Document {
    html::document(source, verbatim)
}
