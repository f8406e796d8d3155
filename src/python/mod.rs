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
mod records;
mod slices;

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use self::arguments::{input_kind, lint_options, mail_kind, Data, PyConfig};
use self::errors::{ConfigError, MailWarning};
use self::records::{collected_urls, Finding, Fix, MailUrl, Url};
use self::slices::ArchiveSlice;
use crate::checked::Checked;
use crate::input::{read_held, HeldMail, InputKind, KindGlobs};
use crate::lint::{self, Linted};
use crate::mail::{ArchivePoint, HeaderUrls};
use crate::source::{Origin, Source};

/// Every URL in `text` (str or bytes) read as `kind`, with its findings.
#[pyfunction]
#[pyo3(signature = (text, profile=None, kind="text", config=None))]
fn extract(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    profile: Option<&str>,
    kind: &str,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Url>> {
    let kind = input_kind(kind)?;
    let options = lint_options(py, profile, config)?;
    let data = Data::of(text)?;
    let (urls, warnings) = py.detach(|| {
        let mail = HeldMail {
            headers: HeaderUrls::None,
            start: ArchivePoint::START,
        };
        let collected = read_held(data.held(), kind, mail, &options);
        collected_urls(collected, &data)
    })?;
    warn(py, &warnings)?;
    Ok(urls.into_iter().map(|(url, _)| url).collect())
}

/// Every finding in `text` read as `kind`, in source order.
#[pyfunction]
#[pyo3(signature = (text, profile=None, kind="text", config=None))]
fn check(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    profile: Option<&str>,
    kind: &str,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Finding>> {
    let urls = extract(py, text, profile, kind, config)?;
    Ok(urls.into_iter().flat_map(|url| url.findings).collect())
}

/// Every URL in the mail archive `data` (an mbox or one message), with the
/// message it is in; offsets are archive byte offsets.
#[pyfunction]
#[pyo3(signature = (data, profile=None, kind="auto", config=None, at=None))]
fn extract_mail(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    profile: Option<&str>,
    kind: &str,
    config: Option<&Bound<'_, PyAny>>,
    at: Option<Bound<'_, ArchiveSlice>>,
) -> PyResult<Vec<Py<MailUrl>>> {
    let options = lint_options(py, profile, config)?;
    let data = Data::of(data)?;
    if at.is_some() && data.is_text() {
        return Err(PyValueError::new_err(
            "a slice of an archive is given as bytes: its offsets are archive bytes",
        ));
    }
    let kind = mail_kind(kind, data.bytes())?;
    let start = at.map_or(ArchivePoint::START, |slice| slice.get().point());
    let (urls, warnings) = py.detach(|| {
        // Header fields are read for URLs as `urlint extract` reads them
        // by default: not at all (see `--mail-headers`).
        let mail = HeldMail {
            headers: HeaderUrls::None,
            start,
        };
        let collected = read_held(data.held(), kind, mail, &options);
        collected_urls(collected, &data)
    })?;
    warn(py, &warnings)?;
    // Every text of mail input comes from a message (the one without, for
    // an archive without URLs, has no URL to list).
    urls.into_iter()
        .filter_map(|(url, mail)| Some(PyClassInitializer::from(url).add_subclass(mail?)))
        .map(|record| Py::new(py, record))
        .collect()
}

/// The findings of `url` given on its own, as `urlint validate` lints it
/// (one URL per line when `url` has several lines).
#[pyfunction]
#[pyo3(signature = (url, profile=None, config=None))]
fn validate(
    py: Python<'_>,
    url: &Bound<'_, PyString>,
    profile: Option<&str>,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Finding>> {
    let options = lint_options(py, profile, config)?;
    let data = Data::of(url.as_any())?;
    let urls = py.detach(|| {
        let text = String::from_utf8_lossy(data.bytes()).into_owned();
        let reports = lint::lint_lines(&text, &options);
        let checked = Checked::new(
            Source::new(Origin::Memory, text),
            reports.into_iter().map(Linted::Url),
        );
        records::checked_urls(&[checked], &data)
    });
    Ok(urls.into_iter().flat_map(|(url, _)| url.findings).collect())
}

/// The kind urlint reads an input as: by the name's extension, then by
/// the first bytes, as the command line decides (`"text"`, `"mbox"`, ...).
#[pyfunction]
#[pyo3(signature = (head, path=None))]
fn detect_kind(head: &[u8], path: Option<PathBuf>) -> String {
    let content = InputKind::Auto.detect(&KindGlobs::default(), path.as_deref(), head);
    arguments::kind_name(content.into())
}

/// Raise each warning as a Python `MailWarning`.
fn warn(py: Python<'_>, warnings: &[String]) -> PyResult<()> {
    let category = py.get_type::<MailWarning>();
    for warning in warnings {
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
    module.add_function(wrap_pyfunction!(slices::split_mbox, module)?)?;
    Ok(())
}
