//! Invariants of the validator on arbitrary input: it never panics, and its
//! spans are inside the URL, on character boundaries and in URL order.

use proptest::prelude::*;
use urlint::validate::Profile;
use urlint::{validate, Severity, ValidateOptions};

/// Arbitrary text, and text that looks like URLs of every known scheme.
fn url_like() -> impl Strategy<Value = String> {
    let scheme = prop_oneof![
        Just("http"),
        Just("HTTPS"),
        Just("ftp"),
        Just("gopher"),
        Just("mailto"),
        Just("news"),
        Just("nntp"),
        Just("telnet"),
        Just("wais"),
        Just("file"),
        Just("prospero"),
        Just("x-a"),
        Just("urn"),
    ];
    let rest = "[/:@;?=&%#~ .a-z0-9\u{e9}\u{1F600}\t\\[\\]!$'()*+,|-]{0,40}";
    prop_oneof![
        any::<String>(),
        (scheme.clone(), rest).prop_map(|(scheme, rest)| format!("{scheme}:{rest}")),
        (scheme, rest).prop_map(|(scheme, rest)| format!("{scheme}://{rest}")),
    ]
}

fn check_spans(url: &str, profile: Profile) -> Result<(), TestCaseError> {
    let options = ValidateOptions {
        profile,
        ..ValidateOptions::default()
    };
    let diagnostics = validate(url, &options);
    let mut previous = 0;
    for diagnostic in &diagnostics {
        let span = diagnostic.span;
        prop_assert!(
            span.start <= span.end && span.end <= url.len(),
            "{span:?} in {url:?}"
        );
        prop_assert!(url.is_char_boundary(span.start) && url.is_char_boundary(span.end));
        prop_assert!(span.start >= previous, "not sorted: {diagnostics:?}");
        prop_assert!(!diagnostic.message.is_empty() && !diagnostic.help.is_empty());
        previous = span.start;
    }
    prop_assert!(diagnostics.len() <= url.len() + 1);
    // One diagnostic per problem: never the same rule twice on the same bytes.
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        let duplicate = diagnostics[index + 1..]
            .iter()
            .any(|other| other.rule == diagnostic.rule && other.span == diagnostic.span);
        prop_assert!(!duplicate, "duplicate {diagnostic:?} in {url:?}");
    }
    // No cascades: no byte is blamed by two errors (short URLs stay under the
    // character cap, whose summary spans the unlisted rest).
    let errors: Vec<_> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    for (index, error) in errors.iter().enumerate() {
        let overlap = errors[index + 1..]
            .iter()
            .any(|other| other.span.start < error.span.end && error.span.start < other.span.end);
        prop_assert!(
            !overlap,
            "overlapping errors at {error:?} in {url:?}: {errors:?}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn spans_are_inside_on_boundaries_and_sorted(
        url in url_like(),
        profile in prop::sample::select(Profile::ALL.to_vec()),
    ) {
        check_spans(&url, profile)?;
    }
}
