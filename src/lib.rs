//! urlint finds URLs in free text and lints them strictly against RFC 1738,
//! reporting every problem like a compiler: rule, severity, message and the
//! exact source bytes, even when a URL was broken across lines.
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

pub mod chunk;
pub mod cli;
pub mod config;
pub mod diagnostic;
pub mod input;
pub mod lint;
pub mod mail;
pub mod parallel;
pub mod progress;
pub mod report;
pub mod rules;
pub mod run;
pub mod scan;
pub mod span;
pub mod stream;
pub mod suppress;
pub mod validate;

pub use diagnostic::{Diagnostic, Fix, Severity};
pub use lint::{lint, Finding, LintOptions, RuleLevels, UrlReport};
pub use rules::{Level, Rule, RuleInfo};
pub use scan::{scan, Alternative, Form, Found, ScanOptions, Segment};
pub use span::{LineCol, LineIndex, Span};
pub use validate::{validate, Profile, ValidateOptions};

/// The README's Rust examples, compiled and run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
