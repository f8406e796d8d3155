//! The configuration file: `urlint.toml`, or a `[tool.urlint]` table in
//! `pyproject.toml`, found by walking up from the current directory.
//!
//! ```toml
//! profile = "rfc3986"         # rfc1738 (the default) | rfc3986; before any table
//!
//! [rules]
//! hyphen-break = "off"        # off | warning | error
//! bare-url = "warning"
//!
//! [schemes]
//! extra = ["https", "irc"]    # accepted without unknown-scheme
//! remove = ["gopher"]         # reported as unknown-scheme
//!
//! [urls]
//! exclude = ['^http://localhost[:/]']   # regular expressions; matches are not reported
//! templates = false           # read placeholders ({}, %s, ${X}) as URL characters
//!
//! [paths]
//! include = ["*.md", "*.txt"] # globs a walked file must match
//! exclude = ["vendor/**"]     # globs that skip files and directories
//!
//! [per-file-ignores]
//! "tests/**" = ["unsafe-char"] # rules turned off in matching files
//!
//! [kinds]
//! markdown = ["*.mdx"]        # globs of files to read as markdown, rst,
//! text = ["CHANGELOG.md"]     # html, text or mail, whatever their extension
//!
//! [markdown]
//! include-verbatim = true     # read code (spans, blocks, literals, comments) too
//! ```
//!
//! Every key is checked while parsing: an unknown key, rule name, level,
//! scheme, regular expression or glob is an error naming the key and its
//! line, so that a typo never silently does nothing. [`Config::settings`]
//! writes a configuration back in the same syntax.

mod discovery;
mod error;
// The `[paths]`, `[per-file-ignores]` and `[kinds]` globs choose and read
// files of a walk: the command's. The Python module is handed its text.
#[cfg(feature = "cli")]
mod filters;
mod schema;
#[cfg(test)]
mod tests;
mod values;

#[cfg(feature = "python")]
pub(crate) use discovery::read;
#[cfg(feature = "cli")]
pub(crate) use discovery::{is_own_file, FILE_NAME, HIDDEN_FILE_NAME, PYPROJECT};
pub(crate) use error::ConfigError;
#[cfg(feature = "cli")]
pub(crate) use filters::{PathFilter, PerFileIgnores};
pub(crate) use values::Config;
