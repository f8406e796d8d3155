//! Where a run's configuration comes from: the file names urlint reads,
//! the walk up from the current directory, `--config` and `--isolated`,
//! and reading a file with a bound on its size.

use std::path::Path;
#[cfg(feature = "cli")]
use std::path::PathBuf;

use super::error::ConfigError;
use super::schema;
use super::values::Config;

/// The configuration file's own name.
#[cfg(feature = "cli")]
pub(crate) const FILE_NAME: &str = "urlint.toml";

/// The Python project file that may hold a `[tool.urlint]` table.
pub(crate) const PYPROJECT: &str = "pyproject.toml";

/// True when `path` names a file of urlint's own configuration
/// (`urlint.toml`, or `.urlint.toml` as a hidden file may be called): it
/// holds URL patterns and settings, not text to lint.
#[cfg(feature = "cli")]
pub(crate) fn is_own_file(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name == FILE_NAME || name == HIDDEN_FILE_NAME)
}

/// The configuration file's name when it is kept hidden.
#[cfg(feature = "cli")]
pub(crate) const HIDDEN_FILE_NAME: &str = ".urlint.toml";

impl Config {
    /// Find the configuration for a run started in `dir`: the nearest
    /// `urlint.toml` or `.urlint.toml`, or `pyproject.toml` with a
    /// `[tool.urlint]` table, in `dir` or one of its ancestors. `Ok(None)`
    /// when there is none.
    ///
    /// In one directory `urlint.toml` wins over `.urlint.toml`, which wins
    /// over `pyproject.toml`, and a `pyproject.toml` without the table does
    /// not stop the walk.
    #[cfg(feature = "cli")]
    pub(crate) fn discover(dir: &Path) -> Result<Option<Config>, ConfigError> {
        for ancestor in dir.ancestors() {
            for name in [FILE_NAME, HIDDEN_FILE_NAME] {
                let own = ancestor.join(name);
                if own.is_file() {
                    return Config::load(&own).map(Some);
                }
            }
            let pyproject = ancestor.join(PYPROJECT);
            if pyproject.is_file() {
                if let Some(config) = Config::load_pyproject(&pyproject)? {
                    return Ok(Some(config));
                }
            }
        }
        Ok(None)
    }

    /// Read the configuration file at `path` (`urlint.toml` syntax, or a
    /// `pyproject.toml`, recognised by its name, whose table is required).
    pub(crate) fn load(path: &Path) -> Result<Config, ConfigError> {
        Config::parse_file(&read(path)?, path)
    }

    /// Parse the text of the configuration file at `path`: a
    /// `pyproject.toml`, recognised by its name, must have the table;
    /// any other name is `urlint.toml` syntax.
    pub(crate) fn parse_file(text: &str, path: &Path) -> Result<Config, ConfigError> {
        if path.file_name().is_some_and(|name| name == PYPROJECT) {
            return Config::parse_pyproject(text, path)?.ok_or_else(|| ConfigError {
                path: path.to_path_buf(),
                message: "it has no [tool.urlint] table".to_string(),
            });
        }
        Config::parse(text, path)
    }

    /// Read the `[tool.urlint]` table of a `pyproject.toml`, if it has one.
    #[cfg(feature = "cli")]
    fn load_pyproject(path: &Path) -> Result<Option<Config>, ConfigError> {
        Config::parse_pyproject(&read(path)?, path)
    }

    /// The `[tool.urlint]` table of `pyproject.toml` text, if it has one.
    fn parse_pyproject(text: &str, path: &Path) -> Result<Option<Config>, ConfigError> {
        schema::parse_pyproject(text, path)
    }

    /// Parse `urlint.toml` text; errors name `path`.
    pub(crate) fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        schema::parse(text, path)
    }

    /// The configuration of a run: the file given with `--config`, none
    /// under `--isolated`, otherwise the one [`Config::discover`] finds from
    /// the current directory (the defaults if there is none).
    #[cfg(feature = "cli")]
    pub(crate) fn for_run(path: Option<&Path>, isolated: bool) -> Result<Config, ConfigError> {
        if isolated {
            return Ok(Config::default());
        }
        if let Some(path) = path {
            return Config::load(path);
        }
        let cwd = std::env::current_dir().map_err(|err| ConfigError {
            path: PathBuf::from("."),
            message: format!("cannot find the current directory to search from: {err}"),
        })?;
        Ok(Config::discover(&cwd)?.unwrap_or_default())
    }
}

/// The largest configuration file read: far beyond any real one, and a
/// bound on what a wrong `--config` (a log, an image) costs.
const MAX_CONFIG_LEN: u64 = 16 * 1024 * 1024;

/// The text of the configuration file at `path`, which must be a regular
/// file: a FIFO would wait for a writer forever, and `/dev/zero` never ends.
pub(crate) fn read(path: &Path) -> Result<String, ConfigError> {
    let error = |message: String| ConfigError {
        path: path.to_path_buf(),
        message,
    };
    // Asked before opening: opening a FIFO waits for a writer.
    let meta = std::fs::metadata(path).map_err(|err| error(format!("cannot read it: {err}")))?;
    if !meta.is_file() {
        return Err(error(
            "it is not a regular file (a named pipe, device or socket); \
             a configuration is read from a file"
                .to_owned(),
        ));
    }
    if meta.len() > MAX_CONFIG_LEN {
        return Err(error(format!(
            "it holds {} bytes, more than a configuration file can ({} MiB)",
            meta.len(),
            MAX_CONFIG_LEN >> 20
        )));
    }
    let file = std::fs::File::open(path).map_err(|err| error(format!("cannot read it: {err}")))?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, MAX_CONFIG_LEN), &mut text)
        .map_err(|err| error(format!("cannot read it: {err}")))?;
    Ok(text)
}
