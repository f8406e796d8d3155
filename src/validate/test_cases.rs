//! Table-driven test helpers shared by the grammar files' tests: a URL and
//! the exact diagnostics it must give.

use super::options::ValidateOptions;
use super::validate;
use crate::profile::Profile;
use crate::rules::Rule;

/// Expected diagnostics: rule, the exact text under the span, the fix.
pub(crate) type Expect<'a> = &'a [(Rule, &'a str, Option<&'a str>)];

/// Rule, spanned text and fix of every diagnostic of `url`.
pub(crate) fn diagnose_with(
    url: &str,
    options: &ValidateOptions,
) -> Vec<(Rule, String, Option<String>)> {
    validate(url, options)
        .into_iter()
        .map(|d| {
            let text = url
                .get(d.span.range())
                .unwrap_or("<not on a char boundary>");
            (d.rule, text.to_string(), d.fix.map(|fix| fix.replacement))
        })
        .collect()
}

/// Assert that each URL reports exactly its expected diagnostics.
pub(crate) fn assert_cases_with(options: &ValidateOptions, cases: &[(&str, Expect)]) {
    for (url, expected) in cases {
        let expected: Vec<_> = expected
            .iter()
            .map(|(rule, text, fix)| (*rule, text.to_string(), fix.map(str::to_string)))
            .collect();
        assert_eq!(diagnose_with(url, options), expected, "{url:?}");
    }
}

/// [`assert_cases_with`] under the default profile, RFC 1738.
pub(crate) fn assert_cases(cases: &[(&str, Expect)]) {
    assert_cases_with(&ValidateOptions::default(), cases);
}

/// [`assert_cases_with`] under the RFC 3986 profile.
pub(crate) fn assert_rfc3986_cases(cases: &[(&str, Expect)]) {
    let options = ValidateOptions {
        profile: Profile::Rfc3986,
        ..ValidateOptions::default()
    };
    assert_cases_with(&options, cases);
}
