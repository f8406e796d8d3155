//! An edit of a document's bytes, as code actions hand them to the client.

use crate::span::Span;

/// One change to the document: the bytes under `span` replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SourceEdit {
    /// The bytes replaced (empty for an insertion).
    pub span: Span,
    /// What goes in their place.
    pub replacement: String,
}
