//! A large input, left by the worker that met it for the reporting thread:
//! a file of at least a chunk is read in parts or streamed when its turn
//! comes, so that its results come out in input order as they are read.

use super::pipe::PipeReader;
use super::walk::Input;

/// A large input a worker left for the reporting thread.
#[derive(Debug)]
pub(crate) struct LargeInput {
    pub(super) input: Input,
    /// A pipe (a file that is not a regular file) the worker began to read:
    /// open after the bytes it gave, all of them kept, as it cannot be read
    /// again. A regular file is closed and opened again when its turn
    /// comes, so that a tree of large files does not hold a descriptor per
    /// file waiting.
    pub(super) pipe: Option<(PipeReader, Vec<u8>)>,
}

impl LargeInput {
    /// The input.
    pub(crate) fn input(&self) -> &Input {
        &self.input
    }
}
