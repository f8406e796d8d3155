//! Rewriting texts: fixes applied in the source bytes (`check --fix`),
//! reStructuredText grid tables kept aligned around them, long URLs wrapped the RFC 1738 Appendix way (`fmt`), and the unified
//! diff of a rewrite (`--diff`). Everything here works on text in memory;
//! reading and writing files is the application's.

mod diff;
mod edit;
mod fixes;
mod place;
mod table;
#[cfg(test)]
mod test_texts;
mod wrap;

pub(crate) use diff::unified_diff;
pub(crate) use fixes::{fix_text, fix_text_keeping, FixSelection, Fixed, Stopped, MAX_PASSES};
pub(crate) use place::place;
pub(crate) use wrap::{wrap_text, WrapOptions};
