//! A configuration that cannot be read or parsed, said with the file, the
//! key and its line.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a configuration file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConfigError {
    /// The configuration file at fault.
    pub path: PathBuf,
    /// What is wrong, with the line and key when the file's content is at fault.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid configuration {}: {}",
            self.path.display(),
            self.message
        )
    }
}

impl std::error::Error for ConfigError {}

/// A TOML or schema error in `text`, with toml's own location report ("at
/// line 3, column 1", the line quoted and the key underlined); a line too
/// long to quote whole is quoted around the error.
pub(super) fn parse_error(path: &Path, text: &str, mut err: toml::de::Error) -> ConfigError {
    let long_line = err.span().and_then(|span| {
        let start = text.get(..span.start)?.rfind('\n').map_or(0, |at| at + 1);
        let end = text[start..].find('\n').map_or(text.len(), |at| start + at);
        let line = text[start..end].trim_end_matches('\r');
        (line.chars().count() > QUOTED_CHARS).then_some((start, line, span))
    });
    let message = match long_line {
        None => err.to_string(),
        Some((line_start, line, span)) => {
            err.set_input(None);
            let number = text[..line_start].matches('\n').count() + 1;
            let column = text[line_start..span.start].chars().count();
            let marked = text[span.start..span.end.min(line_start + line.len())]
                .chars()
                .count();
            let (excerpt, caret) = crop(line, column);
            let gutter = " ".repeat(number.to_string().len());
            let shown = excerpt.trim_end_matches('…').chars().count();
            let carets = "^".repeat(marked.min(shown.saturating_sub(caret)).max(1));
            format!(
                "TOML parse error at line {number}, column {}\n{gutter} |\n{number} | {excerpt}\n\
                 {gutter} | {}{carets}\n{err}",
                column + 1,
                " ".repeat(caret)
            )
        }
    };
    ConfigError {
        path: path.to_path_buf(),
        message: message.trim_end().to_string(),
    }
}

/// Characters of a long TOML line or regular expression an error quotes:
/// a few before the place it points at, the rest after.
pub(super) const QUOTED_CHARS: usize = 80;

/// `text` cut to [`QUOTED_CHARS`] characters around character `at`, with
/// `…` where it was cut, and the character position of `at` in the result.
pub(super) fn crop(text: &str, at: usize) -> (String, usize) {
    let before = QUOTED_CHARS / 4;
    let first = at.saturating_sub(before);
    let total = text.chars().count();
    let last = (first + QUOTED_CHARS).min(total);
    let mut excerpt: String = text.chars().skip(first).take(last - first).collect();
    let mut position = at - first;
    if first > 0 {
        excerpt.insert(0, '…');
        position += 1;
    }
    if last < total {
        excerpt.push('…');
    }
    (excerpt, position)
}
