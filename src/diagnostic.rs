//! Diagnostics as data: built by the scanner and the validator, rendered last.

use crate::rules::{Rule, Severity};
use crate::span::Span;
use std::borrow::Cow;

/// Whether a fix may be applied without asking the author.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Applicability {
    /// The fixed URL means what the author wrote (an encoding of the same
    /// character, a case or spelling the RFC calls equivalent): `check
    /// --fix` applies it.
    MachineApplicable,
    /// The fix changes what the URL means, drops part of it, or picks one of
    /// several repairs: shown, and applied only with `--unsafe-fixes`.
    Suggestion,
}

impl Applicability {
    /// The name machine output uses: `machine-applicable` or `suggestion`.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::MachineApplicable => "machine-applicable",
            Applicability::Suggestion => "suggestion",
        }
    }
}

/// A replacement that repairs the diagnostic's span.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Fix {
    /// Text that replaces the bytes under the diagnostic's span.
    pub replacement: String,
    /// Whether the repair may be applied unasked.
    pub applicability: Applicability,
}

/// One problem, with the exact bytes it is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Diagnostic {
    /// The rule that found the problem.
    pub rule: Rule,
    /// Severity; starts as the rule's default and may be changed by configuration.
    pub severity: Severity,
    /// The offending bytes. Validator diagnostics index the URL text; scanner
    /// diagnostics index the source text (see [`crate::scan::Found`]).
    pub span: Span,
    /// What is wrong, naming the character or part ("unsafe character '~' ...").
    pub message: String,
    /// Why it is wrong and what to do, with the RFC and section the profile
    /// cites: most are fixed texts, held without a copy per finding.
    pub help: Cow<'static, str>,
    /// The repair, where one can be named.
    pub fix: Option<Fix>,
}

impl Diagnostic {
    /// A diagnostic at the rule's default severity, without help or fix.
    ///
    /// Rules that are off by default start as warnings; they are only reported
    /// when configuration turns them on, at the level it gives.
    pub fn new(rule: Rule, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            rule,
            severity: rule
                .info()
                .default_level
                .severity()
                .unwrap_or(Severity::Warning),
            span,
            message: message.into(),
            help: Cow::Borrowed(""),
            fix: None,
        }
    }

    /// The same diagnostic with a help text.
    pub fn with_help(mut self, help: impl Into<Cow<'static, str>>) -> Self {
        self.help = help.into();
        self
    }

    /// The same diagnostic with a fix replacing its span.
    pub fn with_fix(
        mut self,
        replacement: impl Into<String>,
        applicability: Applicability,
    ) -> Self {
        self.fix = Some(Fix {
            replacement: replacement.into(),
            applicability,
        });
        self
    }
}
