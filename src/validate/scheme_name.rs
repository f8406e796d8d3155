//! The scheme-name checks both profiles share: the syntax that ends a
//! scheme with `:`, and a scheme written with an upper-case letter, fixed by
//! writing it in lower case.

use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;
use crate::validate::text::{char_span, describe_char};

/// How a profile spells a scheme and words its `bad-scheme` findings.
#[derive(Debug)]
pub(crate) struct SchemeSyntax {
    /// What the profile checks: "URL" or "URI".
    pub noun: &'static str,
    /// What a fragment without a scheme is, in the profile's words.
    pub fragment_alone: &'static str,
    /// Whether the first character must be a letter (RFC 3986's `ALPHA`;
    /// RFC 1738 allows any scheme character).
    pub letter_first: bool,
    /// The help of every `bad-scheme` finding.
    pub help: &'static str,
}

/// The offset of the `:` that ends the scheme of `url[..end]`, when the
/// scheme is well formed; otherwise report why not and return `None`, the
/// rest of the URL being unreadable.
pub(crate) fn colon(collector: &mut Collector, end: usize, syntax: &SchemeSyntax) -> Option<usize> {
    let url = collector.url();
    let head = &url.as_bytes()[..end];
    let noun = syntax.noun;
    let problem = match memchr::memchr(b':', head) {
        None if url.is_empty() => (
            Span::new(0, 0),
            format!("the {noun} is empty: it has no scheme"),
        ),
        None if head.is_empty() => (
            Span::new(0, 1),
            format!("{}: it has no scheme", syntax.fragment_alone),
        ),
        None => (
            Span::new(0, end),
            format!("no ':' ends a scheme: this is not a {noun}"),
        ),
        Some(0) => (
            Span::new(0, 1),
            "the scheme before ':' is empty".to_string(),
        ),
        Some(_) if syntax.letter_first && !head[0].is_ascii_alphabetic() => (
            char_span(url, 0),
            format!(
                "a scheme starts with a letter, not {}",
                describe_char(url, 0)
            ),
        ),
        Some(colon) => match head[..colon].iter().position(|&b| !is_scheme_byte(b)) {
            None => return Some(colon),
            Some(bad) => (
                char_span(url, bad),
                format!(
                    "character {} is not allowed in a scheme name",
                    describe_char(url, bad)
                ),
            ),
        },
    };
    let (span, message) = problem;
    collector.push(Diagnostic::new(Rule::BadScheme, span, message).with_help(syntax.help));
    None
}

/// Scheme bytes of either case (case is checked separately).
pub(crate) fn is_scheme_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'-' | b'.')
}

/// Report an upper-case letter in the scheme `name` (at the start of the
/// URL), with the profile's `help`; `known` when the profile or the
/// configuration knows the scheme.
pub(crate) fn check(collector: &mut Collector, name: &str, known: bool, help: &'static str) {
    if !name.bytes().any(|b| b.is_ascii_uppercase()) {
        return;
    }
    let lower = name.to_ascii_lowercase();
    let message = format!("scheme '{name}' is written in upper case; write '{lower}'");
    // Schemes are case-insensitive: the lower-case name is the same scheme.
    // An unknown name may be no scheme at all (a qualified name in code
    // before `://`), so lowering it is only suggested.
    let applicability = if known {
        Applicability::MachineApplicable
    } else {
        Applicability::Suggestion
    };
    collector.push(
        Diagnostic::new(Rule::SchemeCase, Span::new(0, name.len()), message)
            .with_help(help)
            .with_fix(lower, applicability),
    );
}

#[cfg(test)]
mod tests {
    use crate::diagnostic::Applicability;
    use crate::profile::Profile;
    use crate::rules::Rule;
    use crate::rules::Rule::{BadScheme, SchemeCase};
    use crate::validate::test_cases::{assert_cases_with, Expect};
    use crate::validate::{validate, ValidateOptions};

    /// RFC 1738 section 2.1 and RFC 3986 section 3.1 agree on these: a
    /// scheme of letters, digits, `+`, `-` and `.`, ended by `:`, and written
    /// in lower case.
    #[test]
    fn scheme_syntax_in_both_profiles() {
        let cases: &[(&str, Expect)] = &[
            ("hostname", &[(BadScheme, "hostname", None)]),
            ("", &[(BadScheme, "", None)]),
            (":nothing", &[(BadScheme, ":", None)]),
            ("#top", &[(BadScheme, "#", None)]),
            ("ht_tp://h.example/", &[(BadScheme, "_", None)]),
            ("h\u{e9}:x", &[(BadScheme, "\u{e9}", None)]),
            ("HTTP://h.example/", &[(SchemeCase, "HTTP", Some("http"))]),
            (
                "Mailto:a@h.example",
                &[(SchemeCase, "Mailto", Some("mailto"))],
            ),
        ];
        for profile in [Profile::Rfc1738, Profile::Rfc3986] {
            let options = ValidateOptions {
                profile,
                ..ValidateOptions::default()
            };
            assert_cases_with(&options, cases);
        }
    }

    /// The applicability of the `scheme-case` fix of `url`.
    fn applicability(url: &str, options: &ValidateOptions) -> Option<Applicability> {
        validate(url, options)
            .into_iter()
            .find(|diagnostic| diagnostic.rule == Rule::SchemeCase)
            .and_then(|diagnostic| diagnostic.fix)
            .map(|fix| fix.applicability)
    }

    /// A known scheme's case is fixed unasked, in both profiles; an unknown
    /// name's only on request, unless the configuration names it.
    #[test]
    fn an_unknown_schemes_case_fix_is_a_suggestion() {
        for profile in [Profile::Rfc1738, Profile::Rfc3986] {
            let options = ValidateOptions {
                profile,
                ..ValidateOptions::default()
            };
            let cases = [
                ("HTTP://h.example/", Some(Applicability::MachineApplicable)),
                (
                    "proj.Transport://h.example/",
                    Some(Applicability::Suggestion),
                ),
                ("http://h.example/", None),
            ];
            for (url, expected) in cases {
                assert_eq!(applicability(url, &options), expected, "{url} {profile:?}");
            }
            let configured = ValidateOptions {
                extra_schemes: vec!["proj.transport".to_string()],
                ..options
            };
            assert_eq!(
                applicability("proj.Transport://h.example/", &configured),
                Some(Applicability::MachineApplicable)
            );
        }
    }
}
