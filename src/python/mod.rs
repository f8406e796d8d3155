//! The `urlint` Python package's native module (`--features python`, built
//! by maturin from `pyproject.toml`): the library's reading, linting and
//! placing, called from Python with the GIL released.
//!
//! Nothing here decides what a URL is or where it sits: texts are read by
//! [`crate::input::read_held`] as files of their kind are, configuration
//! is parsed by [`crate::config`], positions come from
//! [`crate::checked::Checked::locate`]. This module turns Python arguments
//! into those calls and their results into Python objects.

mod arguments;
mod errors;
mod interrupt;
mod records;
mod slices;

use std::borrow::Cow;
use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use self::arguments::{binary, data, inflated, optional_config, optional_path};
use self::arguments::{input_kind, lint_options, mail_kind, read_as, ConfigSource, Data};
use self::arguments::{optional_text, text, PyConfig};
use self::errors::{ConfigError, MailWarning};
use self::interrupt::interruptible;
use self::records::{collected_urls, Finding, Fix, MailUrl, Url};
use self::slices::{optional_slice, ArchiveSlice};
use crate::checked::Checked;
use crate::input::{
    decoded_head, inflate_head, inner_name, read_held, Broken, Compression, HeldMail,
};
use crate::input::{InputKind, KindGlobs};
use crate::lint::{self, Linted};
use crate::mail::{ArchivePoint, HeaderUrls};
use crate::source::{Origin, Source};

/// Every URL in `text` (str or binary data) read as `kind`, with its
/// findings.
#[pyfunction]
#[pyo3(signature = (text, profile=None, kind="text", config=None))]
fn extract(
    py: Python<'_>,
    #[pyo3(from_py_with = data)] text: Data<'_>,
    #[pyo3(from_py_with = optional_text)] profile: Option<&str>,
    #[pyo3(from_py_with = self::text)] kind: &str,
    #[pyo3(from_py_with = optional_config)] config: Option<ConfigSource<'_>>,
) -> PyResult<Vec<Url>> {
    extract_urls(py, text, profile, kind, config)
}

/// Every finding in `text` read as `kind`, in source order.
#[pyfunction]
#[pyo3(signature = (text, profile=None, kind="text", config=None))]
fn check(
    py: Python<'_>,
    #[pyo3(from_py_with = data)] text: Data<'_>,
    #[pyo3(from_py_with = optional_text)] profile: Option<&str>,
    #[pyo3(from_py_with = self::text)] kind: &str,
    #[pyo3(from_py_with = optional_config)] config: Option<ConfigSource<'_>>,
) -> PyResult<Vec<Finding>> {
    let urls = extract_urls(py, text, profile, kind, config)?;
    Ok(urls.into_iter().flat_map(|url| url.findings).collect())
}

/// The URLs of `extract` and `check`; compressed data is read as the data
/// it holds, and its records placed in that.
fn extract_urls(
    py: Python<'_>,
    data: Data<'_>,
    profile: Option<&str>,
    kind: &str,
    config: Option<ConfigSource<'_>>,
) -> PyResult<Vec<Url>> {
    let kind = input_kind(kind)?;
    let (data, broken) = inflated(py, data, false)?;
    let kind = read_as(kind, data.bytes())?;
    let options = lint_options(py, profile, config)?;
    let held = py.detach(|| data.held());
    let mail = HeldMail {
        headers: HeaderUrls::None,
        start: ArchivePoint::START,
    };
    let len = data.bytes().len();
    let collected = interruptible(py, len, move || read_held(held, kind, mail, &options))?;
    let (urls, warnings) = py.detach(|| collected_urls(collected, &data))?;
    warn(py, &warnings, broken.as_ref())?;
    Ok(urls.into_iter().map(|(url, _)| url).collect())
}

/// Every URL in the mail archive `data` (an mbox or one message), with the
/// message it is in; offsets are archive byte offsets (of the archive a
/// compressed `data` holds).
#[pyfunction]
#[pyo3(signature = (data, profile=None, kind="auto", config=None, at=None))]
fn extract_mail(
    py: Python<'_>,
    #[pyo3(from_py_with = self::data)] data: Data<'_>,
    #[pyo3(from_py_with = optional_text)] profile: Option<&str>,
    #[pyo3(from_py_with = text)] kind: &str,
    #[pyo3(from_py_with = optional_config)] config: Option<ConfigSource<'_>>,
    #[pyo3(from_py_with = optional_slice)] at: Option<ArchiveSlice>,
) -> PyResult<Vec<Py<MailUrl>>> {
    let options = lint_options(py, profile, config)?;
    if at.is_some() && data.is_text() {
        return Err(PyValueError::new_err(
            "a slice of an archive is given as bytes: its offsets are archive bytes",
        ));
    }
    let (data, broken) = inflated(py, data, at.is_some())?;
    let kind = mail_kind(kind, data.bytes())?;
    let start = match at {
        Some(slice) => slice.point_for(data.bytes().len())?,
        None => ArchivePoint::START,
    };
    // Header fields are read for URLs as `urlint extract` reads them by
    // default: not at all (see `--mail-headers`).
    let mail = HeldMail {
        headers: HeaderUrls::None,
        start,
    };
    let held = py.detach(|| data.held());
    let len = data.bytes().len();
    let collected = interruptible(py, len, move || read_held(held, kind, mail, &options))?;
    let (urls, warnings) = py.detach(|| collected_urls(collected, &data))?;
    warn(py, &warnings, broken.as_ref())?;
    // Every text of mail input comes from a message (the one without, for
    // an archive without URLs, has no URL to list).
    urls.into_iter()
        .filter_map(|(url, mail)| Some(PyClassInitializer::from(url).add_subclass(mail?)))
        .map(|record| Py::new(py, record))
        .collect()
}

/// The findings of `url`, one URL given on its own, as `urlint validate`
/// lints it (surrounding whitespace is not part of it). A text without a
/// URL, or with several non-blank lines, is a `ValueError`: no findings,
/// or several URLs' findings, would read as this one URL's.
#[pyfunction]
#[pyo3(signature = (url, profile=None, config=None))]
fn validate(
    py: Python<'_>,
    #[pyo3(from_py_with = text)] url: &str,
    #[pyo3(from_py_with = optional_text)] profile: Option<&str>,
    #[pyo3(from_py_with = optional_config)] config: Option<ConfigSource<'_>>,
) -> PyResult<Vec<Finding>> {
    // Lines as `lint_lines` splits them: at `\n`, `\r\n` and a lone `\r`.
    let lines = url
        .split(['\n', '\r'])
        .filter(|line| !line.trim().is_empty());
    match lines.count() {
        0 => {
            return Err(PyValueError::new_err(
                "validate takes one URL, and the text is empty or all whitespace",
            ))
        }
        1 => {}
        lines => {
            return Err(PyValueError::new_err(format!(
                "validate takes one URL, and the text has {lines} non-blank lines: validate \
                 each on its own, or find the URLs in a text with check() or extract()"
            )))
        }
    }
    let options = lint_options(py, profile, config)?;
    let urls = py.detach(|| {
        let reports = lint::lint_lines(url, &options);
        let checked = Checked::new(
            Source::new(Origin::Memory, url.to_owned()),
            reports.into_iter().map(Linted::Url),
        );
        records::checked_urls(vec![checked], &Data::Text(url))
    });
    Ok(urls.into_iter().flat_map(|(url, _)| url.findings).collect())
}

/// The kind urlint reads an input as: by the name's extension, then by
/// the first bytes, as the command line decides (`"text"`, `"mbox"`, ...).
/// A compressed input (by its name's extension, else its magic bytes) is
/// told by what it holds: the name without the compression's extension,
/// and the head that `head`, the compressed file's head, inflates to. A
/// head that starts with a UTF-16 or UTF-32 byte-order mark is told by the
/// text it decodes to.
#[pyfunction]
#[pyo3(signature = (head, path=None))]
fn detect_kind(
    py: Python<'_>,
    #[pyo3(from_py_with = binary)] head: Cow<'_, [u8]>,
    #[pyo3(from_py_with = optional_path)] path: Option<PathBuf>,
) -> String {
    let globs = KindGlobs::default();
    let path = path.as_deref();
    let content = match Compression::of(path, &head) {
        Some(compression) => {
            let inner = path.map(inner_name);
            let kind = match (path, &inner) {
                (Some(path), Some(inner)) => InputKind::Auto.for_compressed(&globs, path, inner),
                _ => InputKind::Auto,
            };
            let head = py.detach(|| inflate_head(compression, &head));
            kind.detect(&globs, inner.as_deref(), &decoded_head(&head))
        }
        None => InputKind::Auto.detect(&globs, path, &decoded_head(&head)),
    };
    InputKind::from(content).name().to_owned()
}

/// The compression format of an input, by its name's extension, else its
/// magic bytes (`"gzip"`, `"bzip2"`, `"xz"`, `"zstd"`), as the command line
/// tells it; `None` for an input that is not compressed.
#[pyfunction]
#[pyo3(signature = (head, path=None))]
fn detect_compression(
    #[pyo3(from_py_with = binary)] head: Cow<'_, [u8]>,
    #[pyo3(from_py_with = optional_path)] path: Option<PathBuf>,
) -> Option<&'static str> {
    Compression::of(path.as_deref(), &head).map(Compression::name)
}

/// Raise each warning, then the break of a compressed stream, as a Python
/// `MailWarning`.
fn warn(py: Python<'_>, warnings: &[String], broken: Option<&Broken>) -> PyResult<()> {
    let category = py.get_type::<MailWarning>();
    let broken = broken.map(Broken::describe);
    for warning in warnings.iter().chain(&broken) {
        let message =
            std::ffi::CString::new(warning.replace('\0', " ")).expect("NULs were replaced");
        PyErr::warn(py, &category, &message, 1)?;
    }
    Ok(())
}

/// The `urlint._urlint` module; `urlint/__init__.py` re-exports it.
#[pymodule]
fn _urlint(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add("PROFILES", arguments::profile_names())?;
    module.add("KINDS", arguments::kind_names())?;
    module.add("ConfigError", py.get_type::<ConfigError>())?;
    module.add("MailWarning", py.get_type::<MailWarning>())?;
    module.add_class::<PyConfig>()?;
    module.add_class::<Url>()?;
    module.add_class::<MailUrl>()?;
    module.add_class::<Finding>()?;
    module.add_class::<Fix>()?;
    module.add_class::<ArchiveSlice>()?;
    module.add_function(wrap_pyfunction!(extract, module)?)?;
    module.add_function(wrap_pyfunction!(check, module)?)?;
    module.add_function(wrap_pyfunction!(extract_mail, module)?)?;
    module.add_function(wrap_pyfunction!(validate, module)?)?;
    module.add_function(wrap_pyfunction!(detect_kind, module)?)?;
    module.add_function(wrap_pyfunction!(detect_compression, module)?)?;
    module.add_function(wrap_pyfunction!(slices::split_mbox, module)?)?;
    Ok(())
}
