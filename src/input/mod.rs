//! The reading side: what to read (paths, directory walks, stdin), what it
//! holds (text or mail), and reading it into checked texts in bounded
//! memory, handed to a [`Sink`] in order.
//!
//! Four decisions live here and nowhere else: binary files are skipped
//! (see `load`), UTF-16 and UTF-32 text is told by its byte-order mark and
//! decoded (see `unicode`), invalid UTF-8 never drops a file (see
//! [`crate::source::decode`]), and only plain text whose bytes can be
//! written back as they were is ever rewritten (see `rewritable`).

mod archive;
mod check;
mod compressed;
mod kind;
#[cfg(feature = "cli")]
mod large;
#[cfg(feature = "cli")]
mod lines;
mod load;
mod memory;
mod notice;
// Reading files, pipes and directory trees, in parallel and in parts, and
// for a rewrite: the command's. The Python module reads text and bytes it
// is handed, in memory.
#[cfg(feature = "cli")]
mod parts;
#[cfg(feature = "cli")]
mod pipe;
#[cfg(feature = "cli")]
mod progress;
#[cfg(feature = "cli")]
mod read;
#[cfg(feature = "cli")]
mod rewritable;
mod sink;
#[cfg(feature = "cli")]
mod stdin;
#[cfg(feature = "cli")]
mod streamed;
mod unicode;
#[cfg(feature = "cli")]
mod walk;
mod windows;

pub(crate) use compressed::Compression;
#[cfg(feature = "python")]
pub(crate) use compressed::{inflate_all, inflate_head, inner_name, Broken};
pub(crate) use kind::{InputKind, KindGlobs};
#[cfg(feature = "python")]
pub(crate) use memory::{read_held, Held, HeldMail};
pub(crate) use sink::Collected;
#[cfg(feature = "python")]
pub(crate) use unicode::decoded_head;
#[cfg(any(feature = "cli", feature = "python"))]
pub(crate) use unicode::Unicode;
#[cfg(feature = "cli")]
pub(crate) use {
    kind::Content,
    large::LargeInput,
    lines::{Batch, LineBatch, LineBatches},
    memory::read_document,
    notice::{panicked, unclosed_note, unclosed_places, InputError, Left, Note},
    parts::{plan_large, LargePlan},
    read::{read_input, read_streamed, ReadOptions, WorkerRead},
    rewritable::{read_for_rewrite, ForRewrite, Kept},
    sink::Sink,
    walk::{glob_overrides, named_inputs, walk_inputs, Input, Reached, WalkOptions},
    windows::ChunkOptions,
};
