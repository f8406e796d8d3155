//! The reading side: what to read (paths, directory walks, stdin), what it
//! holds (text or mail), and reading it into checked texts in bounded
//! memory, handed to a [`Sink`] in order.
//!
//! Two decisions live here and nowhere else: binary files are skipped (see
//! `load`), and invalid UTF-8 never drops a file (see
//! [`crate::source::decode`]).

mod archive;
mod check;
mod kind;
mod load;
// Reading held data is the Python package's; without it only tests read so.
#[cfg_attr(not(feature = "python"), allow(dead_code))]
mod memory;
mod notice;
mod pipe;
mod progress;
mod read;
mod sink;
mod walk;
mod windows;

#[cfg(feature = "python")]
pub(crate) use kind::Content;
pub(crate) use kind::{InputKind, KindGlobs};
#[cfg(feature = "python")]
pub(crate) use memory::{read_held, Held, HeldMail};
pub(crate) use notice::{panicked, InputError, Note};
pub(crate) use read::{read_streamed, read_whole, streams, ReadOptions};
pub(crate) use sink::{Collected, Sink};
pub(crate) use walk::{collect_inputs, glob_overrides, named_inputs, Input, WalkOptions};
pub(crate) use windows::ChunkOptions;
