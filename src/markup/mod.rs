//! Markup: Markdown, reStructuredText and HTML documents read into the
//! prose in which the scanner looks for URLs and the link values the markup
//! delimits itself, each with a map back to the source bytes.
//!
//! Markdown goes through pulldown-cmark's offset iterator, HTML through
//! html5gum's tokenizer, reStructuredText through a line-based recognizer
//! of its own; HTML inside Markdown and `raw:: html` in reStructuredText is
//! read as HTML. A [`DocumentPlan`] reads a document no further than its
//! URLs need.

mod attribute;
mod destination;
mod document;
mod facts;
mod html;
mod markdown;
mod plan;
mod rst;
mod sections;
mod unclosed;

pub(crate) use document::{last_made_url_syntax, Document, Link, LinkSyntax};
pub(crate) use facts::{facts, FixWriting};
pub(crate) use plan::DocumentPlan;
pub use unclosed::{Construct, Unclosed};

/// True when the first bytes of a text hold explicit markup only
/// reStructuredText writes (a directive, a hyperlink target or a
/// substitution definition opening a line).
pub(crate) fn looks_like_rst(head: &[u8]) -> bool {
    rst::looks_like_rst(head)
}
