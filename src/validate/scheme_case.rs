//! The `scheme-case` check both profiles share: a scheme written with an
//! upper-case letter, fixed by writing it in lower case.

use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

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
    use crate::validate::{validate, ValidateOptions};

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
