//! urlint finds URLs in free text and lints them strictly against RFC 1738,
//! reporting every problem like a compiler: rule, severity, message and the
//! exact source bytes, even when a URL was broken across lines.
//!
//! The pipeline is input -> [`scan`] -> [`validate`] -> [`lint`] (span mapping
//! and rule levels) -> report.

pub mod diagnostic;
pub mod lint;
pub mod mail;
pub mod rules;
pub mod scan;
pub mod span;
pub mod validate;

pub use diagnostic::{Diagnostic, Fix, Severity};
pub use lint::{lint, Finding, LintOptions, RuleLevels, UrlReport};
pub use rules::{Level, Rule, RuleInfo};
pub use scan::{scan, Alternative, Form, Found, ScanOptions, Segment};
pub use span::{LineCol, LineIndex, Span};
pub use validate::{validate, ValidateOptions};
