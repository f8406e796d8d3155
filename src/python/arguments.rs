//! Python arguments to library values: the data to read, the profile and
//! kind by name (unknown names are a `ValueError` listing the accepted
//! ones, taken from the library's own lists), and the configuration. An
//! argument of a wrong type is a `TypeError` worded one way for all.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyInt, PyMemoryView, PyString, PyTuple};

use super::errors::ConfigError;
use crate::config::Config;
use crate::input::{inflate_all, Broken, Compression, Held, InputKind, Unicode};
use crate::lint::LintOptions;
use crate::mail::{MailKind, SNIFF_LEN};
use crate::validate::Profile;

/// The text or bytes a caller passed: a `str` borrowed from the Python
/// object for as long as the call runs, `bytes` too; a `bytearray` or
/// `memoryview` copied, since Python code may change it while the GIL is
/// released.
pub(super) enum Data<'py> {
    /// A `str`: offsets count its characters.
    Text(&'py str),
    /// Binary data: offsets count its bytes.
    Bytes(Cow<'py, [u8]>),
}

impl Data<'_> {
    /// The data as bytes (a `str` as UTF-8).
    pub(super) fn bytes(&self) -> &[u8] {
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

/// `data` as it is read: binary data that opens with a compression
/// format's magic bytes (gzip, bzip2, xz, zstd) is the data it holds,
/// inflated whole with the GIL released, with the break if its stream
/// broke (the data is then the text before the break). Then binary data
/// that opens with a UTF-16 or UTF-32 byte-order mark is the text it holds,
/// decoded to UTF-8 (a code unit that encodes no character as U+FFFD), as
/// a file's is: records index that text, as they index what compressed data
/// holds. A `str` is text, never compressed. Compressed or UTF-16 data given
/// with a slice (`sliced`), or compressed in a format this build does not
/// read, is a `ValueError`.
pub(super) fn inflated<'d>(
    py: Python<'_>,
    data: Data<'d>,
    sliced: bool,
) -> PyResult<(Data<'d>, Option<Broken>)> {
    let (data, broken) = decompressed(py, data, sliced)?;
    Ok((decoded(py, data, sliced)?, broken))
}

/// `data` inflated, as [`inflated`] says.
fn decompressed<'d>(
    py: Python<'_>,
    data: Data<'d>,
    sliced: bool,
) -> PyResult<(Data<'d>, Option<Broken>)> {
    let Data::Bytes(bytes) = &data else {
        return Ok((data, None));
    };
    let Some(compression) = Compression::from_magic(bytes) else {
        return Ok((data, None));
    };
    if sliced {
        return Err(PyValueError::new_err(format!(
            "the data is {} compressed, and at= is a slice of a plain archive: pass a \
             compressed archive whole, without at=",
            compression.name()
        )));
    }
    if !compression.is_supported() {
        return Err(PyValueError::new_err(compression.unsupported_message()));
    }
    let (text, broken) = py.detach(|| inflate_all(compression, bytes));
    Ok((Data::Bytes(Cow::Owned(text)), broken))
}

/// `data` decoded from UTF-16 or UTF-32, as [`inflated`] says.
fn decoded<'d>(py: Python<'_>, data: Data<'d>, sliced: bool) -> PyResult<Data<'d>> {
    let Data::Bytes(bytes) = &data else {
        return Ok(data);
    };
    let Some(encoding) = Unicode::of(bytes) else {
        return Ok(data);
    };
    if sliced {
        // A slice's offsets are bytes of the archive as it is stored.
        return Err(PyValueError::new_err(format!(
            "the data is {} text, and at= is a slice of an archive of ASCII-compatible \
             bytes: pass the archive whole, without at=",
            encoding.name()
        )));
    }
    let (text, _replaced) = py.detach(|| encoding.decode(bytes));
    Ok(Data::Bytes(Cow::Owned(text.into_bytes())))
}

// Argument extractors, for `#[pyo3(from_py_with = ...)]`: every argument of
// a wrong type is the same `TypeError`, "expected WHAT, got TYPE" (PyO3
// adds a note naming the argument), whatever the argument's Rust type.

/// A `str`, `bytes`, `bytearray` or `memoryview`.
pub(super) fn data<'a>(object: &'a Bound<'_, PyAny>) -> PyResult<Data<'a>> {
    if let Ok(text) = object.cast::<PyString>() {
        return Ok(Data::Text(text.to_str()?));
    }
    match read_binary(object) {
        Some(bytes) => Ok(Data::Bytes(bytes?)),
        None => Err(expected("str, bytes, bytearray or memoryview", object)),
    }
}

/// A `bytes`, `bytearray` or `memoryview`.
pub(super) fn binary<'a>(object: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    required(object, "bytes, bytearray or memoryview", read_binary)
}

/// A `str`.
pub(super) fn text<'a>(object: &'a Bound<'_, PyAny>) -> PyResult<&'a str> {
    required(object, "str", read_text)
}

/// A `str` or `None`.
pub(super) fn optional_text<'a>(object: &'a Bound<'_, PyAny>) -> PyResult<Option<&'a str>> {
    optional(object, "str or None", read_text)
}

/// A path: `str` or `os.PathLike`.
pub(super) fn path(object: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    required(object, "str or os.PathLike", read_path)
}

/// A path or `None`.
pub(super) fn optional_path(object: &Bound<'_, PyAny>) -> PyResult<Option<PathBuf>> {
    optional(object, "str, os.PathLike or None", read_path)
}

/// A count or offset: an `int` of 0 or more.
pub(super) fn count(object: &Bound<'_, PyAny>) -> PyResult<usize> {
    required(object, "int", |object| {
        object.is_instance_of::<PyInt>().then(|| {
            object.extract().map_err(|_| {
                let what = match object.lt(0) {
                    Ok(true) => "an int of 0 or more".to_string(),
                    _ => format!("an int up to {}", usize::MAX),
                };
                PyValueError::new_err(format!("expected {what}, got {object}"))
            })
        })
    })
}

/// A configuration or `None`: a [`PyConfig`], or a path to load.
pub(super) fn optional_config<'a>(
    object: &'a Bound<'_, PyAny>,
) -> PyResult<Option<ConfigSource<'a>>> {
    optional(
        object,
        "urlint.Config, str, os.PathLike or None",
        |object| match object.cast::<PyConfig>() {
            Ok(config) => Some(Ok(ConfigSource::Parsed(&config.get().config))),
            Err(_) => read_path(object).map(|path| path.map(ConfigSource::File)),
        },
    )
}

/// The value `read` makes of `object`, or the `TypeError` naming `what`
/// when `read` does not take objects of its type (`None`).
fn required<'a, 'py, T>(
    object: &'a Bound<'py, PyAny>,
    what: &str,
    read: impl FnOnce(&'a Bound<'py, PyAny>) -> Option<PyResult<T>>,
) -> PyResult<T> {
    read(object).unwrap_or_else(|| Err(expected(what, object)))
}

/// As [`required`], with `None` for `None`.
pub(super) fn optional<'a, 'py, T>(
    object: &'a Bound<'py, PyAny>,
    what: &str,
    read: impl FnOnce(&'a Bound<'py, PyAny>) -> Option<PyResult<T>>,
) -> PyResult<Option<T>> {
    if object.is_none() {
        return Ok(None);
    }
    required(object, what, read).map(Some)
}

/// The `TypeError` for an argument that is not `what`.
fn expected(what: &str, object: &Bound<'_, PyAny>) -> PyErr {
    match object.get_type().name() {
        Ok(name) => PyTypeError::new_err(format!("expected {what}, got {name}")),
        Err(err) => err,
    }
}

// The readers: `None` for an object of a type they do not take, else
// what reading it gave.

fn read_text<'a>(object: &'a Bound<'_, PyAny>) -> Option<PyResult<&'a str>> {
    let text = object.cast::<PyString>().ok()?;
    Some(text.to_str())
}

fn read_binary<'a>(object: &'a Bound<'_, PyAny>) -> Option<PyResult<Cow<'a, [u8]>>> {
    if let Ok(bytes) = object.cast::<PyBytes>() {
        return Some(Ok(Cow::Borrowed(bytes.as_bytes())));
    }
    if let Ok(array) = object.cast::<PyByteArray>() {
        return Some(Ok(Cow::Owned(array.to_vec())));
    }
    let view = object.cast::<PyMemoryView>().ok()?;
    Some(
        view.call_method0("tobytes")
            .and_then(|copy| Ok(Cow::Owned(copy.cast::<PyBytes>()?.as_bytes().to_vec()))),
    )
}

fn read_path(object: &Bound<'_, PyAny>) -> Option<PyResult<PathBuf>> {
    let path_like = object.is_instance_of::<PyString>() || object.hasattr("__fspath__").ok()?;
    path_like.then(|| object.extract())
}

/// Where a call's configuration comes from.
pub(super) enum ConfigSource<'a> {
    /// A [`PyConfig`] the caller parsed.
    Parsed(&'a Config),
    /// A file to load.
    File(PathBuf),
}

/// Every input kind's name, `auto` first.
pub(super) fn kind_names() -> Vec<String> {
    InputKind::ALL.map(|kind| kind.name().to_owned()).to_vec()
}

/// Every profile's name.
pub(super) fn profile_names() -> Vec<&'static str> {
    Profile::ALL.iter().map(|profile| profile.name()).collect()
}

/// The input kind called `name`.
pub(super) fn input_kind(name: &str) -> PyResult<InputKind> {
    InputKind::from_name(name).ok_or_else(|| unknown("kind", name, &kind_names()))
}

/// The mail kind called `name`; any other kind is a `ValueError`. `auto`
/// and `mail` are decided by the first bytes of `data`, as [`read_as`]
/// decides `mail`.
pub(super) fn mail_kind(name: &str, data: &[u8]) -> PyResult<InputKind> {
    let mail_or_auto = |kind: &InputKind| {
        matches!(
            kind,
            InputKind::Auto | InputKind::Mail | InputKind::Mbox | InputKind::Eml
        )
    };
    let mail_names: Vec<String> = InputKind::ALL
        .iter()
        .filter(|kind| mail_or_auto(kind))
        .map(|kind| kind.name().to_owned())
        .collect();
    let kind = InputKind::from_name(name)
        .filter(mail_or_auto)
        .ok_or_else(|| unknown("mail kind", name, &mail_names))?;
    // Among mail kinds, `auto` is `mail`: an mbox or a message.
    let asked = if kind == InputKind::Auto {
        InputKind::Mail
    } else {
        kind
    };
    read_as(asked, data)
}

/// The kind `data` is read as when `kind` is asked for: `mail` is an mbox
/// or a message by the first bytes, and data that is neither is a
/// `ValueError` (read as a message of no header fields, it would list no
/// URL, which reads as an answer); every other kind is read as it is.
pub(super) fn read_as(kind: InputKind, data: &[u8]) -> PyResult<InputKind> {
    match kind {
        InputKind::Mail => {
            let head = &data[..data.len().min(SNIFF_LEN)];
            match MailKind::sniff(head) {
                Some(mail) => Ok(mail.into()),
                None => Err(PyValueError::new_err(
                    "the data does not look like mail (an mbox opens with a 'From ' line, a \
                     message with header fields): pass kind='mbox' or kind='eml' to read it as one",
                )),
            }
        }
        InputKind::Auto
        | InputKind::Text
        | InputKind::Markdown
        | InputKind::Rst
        | InputKind::Html
        | InputKind::Mbox
        | InputKind::Eml => Ok(kind),
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

/// Lint options for a call: the configuration's (given, loaded from a
/// file, or the defaults), under `profile` (the configuration's profile
/// when `None`, as the CLI's `--profile` overrides the file's).
pub(super) fn lint_options(
    py: Python<'_>,
    profile: Option<&str>,
    config: Option<ConfigSource<'_>>,
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
        Some(ConfigSource::Parsed(config)) => config,
        Some(ConfigSource::File(path)) => {
            loaded = py.detach(|| Config::load(&path)).map_err(config_error)?;
            &loaded
        }
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
    fn from_file(
        py: Python<'_>,
        #[pyo3(from_py_with = self::path)] path: PathBuf,
    ) -> PyResult<Self> {
        // As the command line reads it: a FIFO or `/dev/zero` is refused.
        let text = crate::config::read(&path).map_err(config_error)?;
        PyConfig::from_toml(py, &text, path)
    }

    /// The configuration written in `text`, read as the file `name` (a
    /// `pyproject.toml` must have a `[tool.urlint]` table).
    #[staticmethod]
    #[pyo3(
        signature = (text, name=PathBuf::from("urlint.toml")),
        text_signature = "(text, name='urlint.toml')"
    )]
    fn from_toml(
        py: Python<'_>,
        #[pyo3(from_py_with = self::text)] text: &str,
        #[pyo3(from_py_with = self::path)] name: PathBuf,
    ) -> PyResult<Self> {
        let config = py
            .detach(|| Config::parse_file(text, &name))
            .map_err(config_error)?;
        let text = text.to_owned();
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
