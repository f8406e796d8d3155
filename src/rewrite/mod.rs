//! Rewriting texts: fixes applied in the source bytes (`check --fix`),
//! reStructuredText grid tables kept aligned around them, long URLs wrapped the RFC 1738 Appendix way (`fmt`), and the unified
//! diff of a rewrite (`--diff`). Everything here works on text in memory;
//! reading and writing files is the application's.

// Rewriting a text is the command's (`check --fix`, `fmt`, `--diff`, the
// language server's fixes); the Python module places a fix only to name
// the edit it makes in the source (see `report::fix_instruction`).
#[cfg(feature = "cli")]
mod diff;
mod edit;
#[cfg(feature = "cli")]
mod fixes;
mod place;
mod table;
#[cfg(test)]
mod test_texts;
#[cfg(feature = "cli")]
mod wrap;

pub(crate) use place::place;
#[cfg(feature = "cli")]
pub(crate) use {
    diff::unified_diff,
    fixes::{fix_text, fix_text_keeping, FixSelection, Fixed, Stopped, MAX_PASSES},
    wrap::{wrap_text, WrapOptions},
};
