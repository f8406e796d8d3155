//! A document that ends inside something its markup opened: HTML read as
//! the standard reads it takes the rest of the text for part of an
//! attribute value, a tag, a comment or a script never closed, as a
//! browser does, so no URL after the opening is read. The reader says
//! where, for the reading side to tell the user.

use crate::span::SourceSpan;

/// What a markup opened and never closed, and the text it took in: no URL
/// in that text was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unclosed {
    /// What was left open.
    pub construct: Construct,
    /// From the byte that opened it (a quote, a `<`) to the end of the text
    /// read as part of it: the end of the document, or of the HTML block or
    /// `raw:: html` directive it was written in.
    pub swallowed: SourceSpan,
}

/// What a markup left open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Construct {
    /// A quoted attribute value whose closing quote never comes.
    QuotedValue,
    /// A quoted attribute value that runs over line breaks and end tags to
    /// a quote that most likely opened a later value: its own closing
    /// quote was left out, and the text up to that quote read as the value.
    OverrunValue,
    /// A tag never closed by `>`.
    Tag,
    /// A comment (`<!--`, or `<?`, `<!`, `</` read as one) never closed.
    Comment,
    /// A `script` element never closed: the rest is read as its code.
    Script,
    /// A `style` element never closed: the rest is read as its style sheet.
    Style,
}
