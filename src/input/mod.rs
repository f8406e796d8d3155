//! The reading side: what to read (paths, directory walks, stdin), what it
//! holds (text or mail), and reading it into checked texts in bounded
//! memory, handed to a [`Sink`] in order.
//!
//! Three decisions live here and nowhere else: binary files are skipped
//! (see `load`), invalid UTF-8 never drops a file (see
//! [`crate::source::decode`]), and only plain UTF-8 text is ever rewritten
//! (see `rewritable`).

mod archive;
mod check;
mod compressed;
mod kind;
mod large;
mod load;
mod memory;
mod notice;
mod parts;
mod pipe;
mod progress;
mod read;
mod rewritable;
mod sink;
mod stdin;
mod streamed;
mod walk;
mod windows;

pub(crate) use compressed::Compression;
#[cfg(feature = "python")]
pub(crate) use compressed::{inflate_all, inflate_head, inner_name, Broken};
pub(crate) use kind::{Content, InputKind, KindGlobs};
pub(crate) use large::LargeInput;
pub(crate) use memory::read_document;
#[cfg(feature = "python")]
pub(crate) use memory::{read_held, Held, HeldMail};
pub(crate) use notice::{panicked, InputError, Left, Note};
pub(crate) use parts::{plan_large, LargePlan};
pub(crate) use read::{read_input, read_streamed, ReadOptions, WorkerRead};
pub(crate) use rewritable::{read_for_rewrite, ForRewrite, Kept};
pub(crate) use sink::{Collected, Sink};
pub(crate) use walk::{glob_overrides, named_inputs, walk_inputs, Input, Reached, WalkOptions};
pub(crate) use windows::ChunkOptions;
