//! Cutting a large mbox into slices of whole messages, so that a cluster
//! reads one archive in many tasks (see `examples/spark/extract_urls.py`).

use std::io::{self, BufRead, BufReader, Read};

use pyo3::exceptions::{PyOSError, PyOverflowError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyType;

use super::arguments::{binary, count, optional};
use crate::input::{Compression, Unicode};
use crate::mail::{self, ArchivePoint};

/// A run of whole messages of an mbox: archive bytes `start` to `end`,
/// whose first byte is on archive line `line`, after `messages_before`
/// messages. Pass it as `at=` to `extract_mail` with those bytes.
#[pyclass(module = "urlint", frozen, get_all, eq, hash)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct ArchiveSlice {
    start: usize,
    end: usize,
    line: usize,
    messages_before: usize,
}

impl ArchiveSlice {
    /// Where the slice starts in its archive, to read `len` bytes from
    /// there: an `OverflowError` when an offset, line or message number
    /// within them could pass `usize::MAX` (they would wrap to 0).
    pub(super) fn point_for(&self, len: usize) -> PyResult<ArchivePoint> {
        numbers_fit(self.start, self.line, self.messages_before, len)?;
        Ok(ArchivePoint {
            offset: self.start,
            line: self.line,
            messages_before: self.messages_before,
        })
    }
}

/// Refuse numbers that reading `len` bytes from them could overflow: each
/// byte may start a line, and each line a message.
fn numbers_fit(start: usize, line: usize, messages_before: usize, len: usize) -> PyResult<()> {
    let fits = |number: usize, extra: usize| number.checked_add(extra).is_some();
    if fits(start, len) && fits(line, len) && fits(messages_before, len.saturating_add(1)) {
        Ok(())
    } else {
        Err(PyOverflowError::new_err(format!(
            "an archive slice of {len} bytes from offset {start}, line {line}, after \
             {messages_before} messages would number past {}",
            usize::MAX
        )))
    }
}

#[pymethods]
impl ArchiveSlice {
    #[new]
    fn new(
        #[pyo3(from_py_with = count)] start: usize,
        #[pyo3(from_py_with = count)] end: usize,
        #[pyo3(from_py_with = count)] line: usize,
        #[pyo3(from_py_with = count)] messages_before: usize,
    ) -> PyResult<Self> {
        if end < start || line == 0 {
            return Err(PyValueError::new_err(
                "a slice ends at or after its start, on line 1 or later",
            ));
        }
        numbers_fit(start, line, messages_before, end - start)?;
        Ok(ArchiveSlice {
            start,
            end,
            line,
            messages_before,
        })
    }

    /// The class and its arguments: `__getnewargs__` would serve pickle
    /// protocols 2 and later only.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (usize, usize, usize, usize)) {
        let this = slf.get();
        let args = (this.start, this.end, this.line, this.messages_before);
        (slf.get_type(), args)
    }

    fn __repr__(&self) -> String {
        format!(
            "ArchiveSlice(start={}, end={}, line={}, messages_before={})",
            self.start, self.end, self.line, self.messages_before
        )
    }
}

/// An [`ArchiveSlice`] or `None`, as an argument (`extract_mail`'s `at`).
pub(super) fn optional_slice(object: &Bound<'_, PyAny>) -> PyResult<Option<ArchiveSlice>> {
    optional(object, "urlint.ArchiveSlice or None", |object| {
        object
            .cast::<ArchiveSlice>()
            .ok()
            .map(|slice| Ok(*slice.get()))
    })
}

/// Cut the mbox read from the binary file object `file` (anything with
/// `read(n)`) into slices of whole messages of at least `target_len` bytes
/// (the last may be shorter), reading it once, a message at a time;
/// `read(n)` returns `bytes`, `bytearray` or `memoryview`. A compressed
/// file is a `ValueError`: slices are of a plain archive, and a compressed
/// one is read whole (`extract_mail` inflates it).
#[pyfunction]
pub(super) fn split_mbox(
    py: Python<'_>,
    file: Py<PyAny>,
    #[pyo3(from_py_with = count)] target_len: usize,
) -> PyResult<Vec<ArchiveSlice>> {
    if target_len == 0 {
        return Err(PyValueError::new_err("target_len must be at least 1"));
    }
    let mut reader = BufReader::with_capacity(1 << 20, PyReader { file });
    let head = reader
        .fill_buf()
        .map_err(|err| PyOSError::new_err(err.to_string()))?;
    if let Some(compression) = Compression::from_magic(head) {
        return Err(PyValueError::new_err(format!(
            "the file is {} compressed, and split_mbox cuts a plain mbox: read a compressed \
             archive whole with extract_mail, without at=",
            compression.name()
        )));
    }
    if let Some(encoding) = Unicode::of(head) {
        return Err(PyValueError::new_err(format!(
            "the file is {} text, and split_mbox cuts an mbox of ASCII-compatible bytes: \
             read it whole with extract_mail, without at=",
            encoding.name()
        )));
    }
    py.detach(|| {
        mail::slices(reader, target_len)
            .map(|slice| {
                slice.map(|slice| ArchiveSlice {
                    start: slice.start.offset,
                    end: slice.end,
                    line: slice.start.line,
                    messages_before: slice.start.messages_before,
                })
            })
            .collect::<io::Result<Vec<_>>>()
    })
    .map_err(|err| {
        let message = err.to_string();
        match err.into_inner().map(|inner| inner.downcast::<PyErr>()) {
            // A signal's exception (KeyboardInterrupt), raised between reads.
            Some(Ok(raised)) => *raised,
            _ => PyOSError::new_err(message),
        }
    })
}

/// A Python binary file object read from Rust, taking the GIL per read.
struct PyReader {
    file: Py<PyAny>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            // Ctrl-C between reads ends the split, as the exception it raised.
            py.check_signals().map_err(io::Error::other)?;
            let chunk = self
                .file
                .call_method1(py, "read", (buf.len(),))
                .map_err(|err| io::Error::other(err.to_string()))?;
            let chunk = binary(chunk.bind(py)).map_err(|_| {
                io::Error::other("the file's read() returned no bytes: open it in binary mode")
            })?;
            let len = chunk.len().min(buf.len());
            buf[..len].copy_from_slice(&chunk[..len]);
            Ok(len)
        })
    }
}
