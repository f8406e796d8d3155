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

mod app;
mod checked;
mod config;
mod diagnostic;
mod escape;
mod input;
pub mod lint;
pub mod mail;
mod markup;
mod offset_map;
mod profile;
#[cfg(feature = "python")]
mod python;
mod report;
mod rewrite;
pub mod rules;
pub mod scan;
mod server;
mod source;
pub mod span;
pub mod template;
pub mod validate;
mod write;

pub use diagnostic::{Applicability, Diagnostic, Fix};
pub use lint::{lint, lint_markup, Finding, LintOptions, Linted, RuleLevels, UrlReport};
pub use profile::Profile;
pub use rules::{Level, Rule, RuleInfo, Severity};
pub use scan::{scan, scan_markup, Alternative, Form, Found, Markup, ScanOptions, Segment};
pub use span::{LineCol, LineIndex, Span};
pub use validate::{validate, ValidateOptions};

/// Run urlint's command line with this process's arguments and return its
/// exit code: the whole of the `urlint` binary.
pub fn run_command_line() -> std::process::ExitCode {
    app::main()
}

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
