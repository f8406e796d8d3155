//! urlint finds URLs in free text and lints them strictly against RFC 1738
//! (or, under the [`Profile::Rfc3986`] profile, RFC 3986 and today's scheme
//! standards), reporting every problem like a compiler: rule, severity,
//! message and the exact source bytes, even when a URL was broken across
//! lines.
//!
//! The pipeline is input -> [`scan()`] -> [`validate()`] -> [`lint()`] (span mapping
//! and rule levels) -> report.
//!
//! ```
//! use urlint::Rule;
//!
//! let diagnostics = urlint::validate("http://host/~user", &Default::default());
//! assert_eq!(diagnostics.len(), 1);
//! assert_eq!(diagnostics[0].rule, Rule::UnsafeChar);
//! assert_eq!(diagnostics[0].message, "unsafe character '~' must be encoded as %7E");
//! assert_eq!(diagnostics[0].span.range(), 12..13);
//! assert_eq!(diagnostics[0].fix.as_ref().map(|fix| fix.replacement.as_str()), Some("%7E"));
//! ```

#![warn(unreachable_pub)]
#![deny(missing_docs)]
// Without the command line and the Python module the crate is the library
// alone, and the helpers only the reading and reporting side calls (the
// decoded source, character counters, markup facts, message summaries) go
// unused; they stay compiled in one shape for both builds rather than each
// behind its own cfg.
#![cfg_attr(not(feature = "engine"), allow(dead_code, unused_imports))]

#[cfg(feature = "cli")]
mod app;
#[cfg(feature = "engine")]
mod checked;
#[cfg(feature = "engine")]
mod config;
mod diagnostic;
// Input escaped for a terminal or a line-based format: the reporters' and
// the diff's, not the Python module's (Python strings carry any character).
#[cfg(feature = "cli")]
mod escape;
#[cfg(feature = "engine")]
mod input;
pub mod lint;
pub mod mail;
mod markup;
mod offset_map;
mod profile;
#[cfg(feature = "python")]
mod python;
#[cfg(feature = "engine")]
mod report;
#[cfg(feature = "engine")]
mod rewrite;
pub mod rules;
pub mod scan;
#[cfg(feature = "cli")]
mod server;
mod source;
pub mod span;
pub mod template;
pub mod validate;
// Writing files back (`check --fix`, `fmt`) is the command's alone.
#[cfg(feature = "cli")]
mod write;

pub use diagnostic::{Applicability, Diagnostic, Fix};
pub use lint::{lint, lint_markup, At, Finding, LintOptions, Linted, RuleLevels, UrlReport};
pub use profile::Profile;
pub use rules::{Level, Rule, RuleInfo, Severity};
pub use scan::{
    scan, scan_markup, Alternative, Construct, Form, Found, Markup, ScanOptions, Segment, Unclosed,
};
pub use span::{AnyText, InSource, InUrl, LineCol, LineIndex, SourceSpan, Span, UrlSpan};
pub use validate::{validate, ValidateOptions};

/// Run urlint's command line with this process's arguments and return its
/// exit code: the whole of the `urlint` binary.
#[cfg(feature = "cli")]
pub fn run_command_line() -> std::process::ExitCode {
    app::main()
}

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
