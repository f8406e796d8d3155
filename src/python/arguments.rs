//! Python arguments to library values: the data to read, the profile and
//! kind by name (unknown names are a `ValueError` listing the accepted
//! ones, taken from the library's own lists), and the configuration.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};

use super::errors::ConfigError;
use crate::config::Config;
use crate::input::{Content, Held, InputKind, KindGlobs};
use crate::lint::LintOptions;
use crate::validate::Profile;

/// The text or bytes a caller passed, borrowed from the Python object for
/// as long as the call runs.
pub(super) enum Data<'py> {
    /// A `str`: offsets count its characters.
    Text(&'py str),
    /// A `bytes`: offsets count its bytes.
    Bytes(&'py [u8]),
}

impl<'py> Data<'py> {
    /// The data of `object`, which must be `str` or `bytes`.
    pub(super) fn of(object: &'py Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(text) = object.cast::<PyString>() {
            return Ok(Data::Text(text.to_str()?));
        }
        if let Ok(bytes) = object.cast::<PyBytes>() {
            return Ok(Data::Bytes(bytes.as_bytes()));
        }
        Err(PyTypeError::new_err(format!(
            "expected str or bytes, got {}",
            object.get_type().name()?
        )))
    }

    /// The data as bytes (a `str` as UTF-8).
    pub(super) fn bytes(&self) -> &'py [u8] {
        match self {
            Data::Text(text) => text.as_bytes(),
            Data::Bytes(bytes) => bytes,
        }
    }

    /// True for a `str`.
    pub(super) fn is_text(&self) -> bool {
        matches!(self, Data::Text(_))
    }

    /// The data to hand to the reading side (a copy: it owns its text).
    pub(super) fn held(&self) -> Held {
        match self {
            Data::Text(text) => Held::Text((*text).to_string()),
            Data::Bytes(bytes) => Held::Bytes(bytes.to_vec()),
        }
    }
}

/// The name of `kind`, as `--input` spells it.
pub(super) fn kind_name(kind: InputKind) -> String {
    kind.to_possible_value()
        .map(|value| value.get_name().to_string())
        .unwrap_or_default()
}

/// Every input kind's name, `auto` first.
pub(super) fn kind_names() -> Vec<String> {
    InputKind::value_variants()
        .iter()
        .map(|&kind| kind_name(kind))
        .collect()
}

/// Every profile's name.
pub(super) fn profile_names() -> Vec<&'static str> {
    Profile::ALL.iter().map(|profile| profile.name()).collect()
}

/// The input kind called `name`.
pub(super) fn input_kind(name: &str) -> PyResult<InputKind> {
    InputKind::from_str(name, true).map_err(|_| unknown("kind", name, &kind_names()))
}

/// The mail kind called `name` (`auto` decides by the first bytes of
/// `data`); any other kind is a `ValueError`.
pub(super) fn mail_kind(name: &str, data: &[u8]) -> PyResult<InputKind> {
    let mail_or_auto = |kind: &InputKind| {
        matches!(
            kind,
            InputKind::Auto | InputKind::Mail | InputKind::Mbox | InputKind::Eml
        )
    };
    let mail_names: Vec<String> = InputKind::value_variants()
        .iter()
        .filter(|kind| mail_or_auto(kind))
        .map(|&kind| kind_name(kind))
        .collect();
    let kind = InputKind::from_str(name, true)
        .ok()
        .filter(mail_or_auto)
        .ok_or_else(|| unknown("mail kind", name, &mail_names))?;
    match kind.detect(&KindGlobs::default(), None, data) {
        Content::Mail(mail) => Ok(mail.into()),
        Content::Text(_) => Err(PyValueError::new_err(
            "the data does not look like mail (an mbox opens with a 'From ' line, a message \
             with header fields): pass kind='mbox' or kind='eml' to read it as one",
        )),
    }
}

/// A `ValueError` for an unknown name, listing the accepted ones.
fn unknown(what: &str, name: &str, accepted: &[impl AsRef<str>]) -> PyErr {
    let accepted: Vec<&str> = accepted.iter().map(AsRef::as_ref).collect();
    PyValueError::new_err(format!(
        "unknown {what} '{name}': expected one of {}",
        accepted.join(", ")
    ))
}

/// Lint options for a call: the configuration's (a [`PyConfig`], a path to
/// load, or the defaults), under `profile` (the configuration's profile
/// when `None`, as the CLI's `--profile` overrides the file's).
pub(super) fn lint_options(
    py: Python<'_>,
    profile: Option<&str>,
    config: Option<&Bound<'_, PyAny>>,
) -> PyResult<LintOptions> {
    let profile = match profile {
        None => None,
        Some(name) => Some(
            Profile::from_name(name).ok_or_else(|| unknown("profile", name, &profile_names()))?,
        ),
    };
    let loaded;
    let config = match config {
        None => &Config::default(),
        Some(object) => match object.cast::<PyConfig>() {
            Ok(config) => {
                loaded = config.get().config.clone();
                &loaded
            }
            Err(_) => {
                let path: PathBuf = object.extract()?;
                loaded = py.detach(|| Config::load(&path)).map_err(config_error)?;
                &loaded
            }
        },
    };
    Ok(config.lint_options(config.levels(), profile))
}

/// A configuration error as Python's `ConfigError`, with the CLI's message.
fn config_error(err: crate::config::ConfigError) -> PyErr {
    ConfigError::new_err(err.to_string())
}

/// A parsed configuration: `urlint.toml` or a `pyproject.toml` with a
/// `[tool.urlint]` table, read once and passed to every call.
#[pyclass(name = "Config", module = "urlint", frozen)]
pub(super) struct PyConfig {
    config: Config,
    /// The text it was parsed from, so that it pickles (to Spark executors).
    text: String,
}

#[pymethods]
impl PyConfig {
    /// The configuration in the file at `path`.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path).map_err(|err| {
            config_error(crate::config::ConfigError {
                path: path.clone(),
                message: format!("cannot read it: {err}"),
            })
        })?;
        PyConfig::from_toml(py, text, path)
    }

    /// The configuration written in `text`, read as the file `name` (a
    /// `pyproject.toml` must have a `[tool.urlint]` table).
    #[staticmethod]
    #[pyo3(signature = (text, name=PathBuf::from("urlint.toml")))]
    fn from_toml(py: Python<'_>, text: String, name: PathBuf) -> PyResult<Self> {
        let config = py
            .detach(|| Config::parse_file(&text, &name))
            .map_err(config_error)?;
        Ok(PyConfig { config, text })
    }

    /// The file the configuration was read from.
    #[getter]
    fn path(&self) -> Option<PathBuf> {
        self.config.path.clone()
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let this = slf.get();
        let name = this
            .config
            .path
            .as_deref()
            .unwrap_or(Path::new("urlint.toml"));
        let args = (this.text.as_str(), name).into_pyobject(slf.py())?;
        Ok((slf.get_type().getattr("from_toml")?, args))
    }

    fn __repr__(&self) -> String {
        match &self.config.path {
            Some(path) => format!("Config({:?})", path.display().to_string()),
            None => "Config()".to_string(),
        }
    }
}
