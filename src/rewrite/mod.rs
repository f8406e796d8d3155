//! Rewriting texts: fixes placed in the source bytes they repair.

mod edit;
mod place;

pub(crate) use place::place;
