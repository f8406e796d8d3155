//! Edits of a text: byte ranges and what replaces them.

use crate::span::Span;

/// One change to a text: the bytes under `span` replaced by `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// The bytes replaced (empty for an insertion).
    pub span: Span,
    /// What goes in their place.
    pub replacement: String,
}

/// The edits that make up one change (one fix, one rewrapped URL): applied
/// all together or not at all.
pub(crate) type EditGroup = Vec<Edit>;
