//! Every rule in the catalogue documents itself with bad and good examples,
//! each under the profiles it holds for; this test runs the whole pipeline
//! on both under each of them, so the documentation cannot drift from what
//! the linter does.

use urlint::lint::{lint, LintOptions, Linted, RuleLevels};
use urlint::rules::{Level, RuleInfo, CATALOGUE};
use urlint::validate::{validate, Profile, ValidateOptions};

/// Options for `profile` with every rule switched on, so that off-by-default
/// style rules are checked against their own examples too.
fn everything_on(profile: Profile) -> LintOptions {
    let mut levels = RuleLevels::default();
    for info in CATALOGUE {
        if info.default_level == Level::Off {
            levels.set(info.rule, Level::Warning);
        }
    }
    LintOptions {
        levels,
        profile,
        ..LintOptions::default()
    }
}

fn rules_reported(text: &str, options: &LintOptions) -> Vec<&'static str> {
    lint(text, options)
        .flat_map(Linted::into_findings)
        .map(|finding| finding.diagnostic.rule.name())
        .collect()
}

#[test]
fn every_bad_example_triggers_its_rule() {
    for info in CATALOGUE {
        for example in info.examples {
            for &profile in example.profiles {
                let reported = rules_reported(example.bad, &everything_on(profile));
                assert!(
                    reported.contains(&info.name),
                    "{} ({profile}): bad example {:?} reported {:?}",
                    info.name,
                    example.bad,
                    reported
                );
            }
        }
    }
}

#[test]
fn no_good_example_triggers_its_rule() {
    for info in CATALOGUE {
        for example in info.examples {
            for &profile in example.profiles {
                let reported = rules_reported(example.good, &everything_on(profile));
                assert!(
                    !reported.contains(&info.name),
                    "{} ({profile}): good example {:?} reported {:?}",
                    info.name,
                    example.good,
                    reported
                );
            }
        }
    }
}

/// A rule reports only under the profiles its entry names: its examples
/// stay silent about it under the others.
#[test]
fn rules_report_only_under_their_profiles() {
    for info in CATALOGUE {
        for profile in Profile::ALL.into_iter().filter(|&p| !info.applies_to(p)) {
            for example in info.examples {
                let reported = rules_reported(example.bad, &everything_on(profile));
                assert!(
                    !reported.contains(&info.name),
                    "{} reported under {profile}, which it does not belong to",
                    info.name
                );
            }
        }
    }
}

/// The URL inside the first `<URL:...>` or `<...>` of an example, when
/// it has one on a single line.
fn bracketed_url(example: &str) -> Option<&str> {
    let start = example.find('<')? + 1;
    let end = start + example[start..].find('>')?;
    let url = &example[start..end];
    let url = url.strip_prefix("URL:").unwrap_or(url);
    (!url.is_empty() && !url.contains(char::is_whitespace)).then_some(url)
}

/// Rules the scanner or the lint stage report, whose examples need the
/// whole pipeline (tests/rule_examples.rs runs them): the Appendix's, the
/// inline suppressions', and the template reading's (RFC 6570).
fn reported_by_validator(info: &RuleInfo) -> bool {
    info.sources.iter().all(|source| {
        !source.reference.contains("Appendix")
            && !source.reference.starts_with("RFC 6570")
            && source.reference != "urlint's inline suppressions"
    })
}

/// The validator's own rules: the bad example's URL triggers the rule,
/// the good one's reports nothing at all, under each of its profiles.
#[test]
fn validator_rule_examples_trigger_their_rule() {
    for info in CATALOGUE.iter().filter(|info| reported_by_validator(info)) {
        for example in info.examples {
            for &profile in example.profiles {
                let options = ValidateOptions {
                    profile,
                    ..Default::default()
                };
                let validate = |url| validate(url, &options);
                let bad = bracketed_url(example.bad).expect(info.name);
                let good = bracketed_url(example.good).expect(info.name);
                let fired = validate(bad).iter().any(|d| d.rule == info.rule);
                assert!(fired, "{} ({profile}): {bad}", info.name);
                let clean = validate(good);
                assert!(
                    clean.is_empty(),
                    "{} ({profile}): {good}: {clean:?}",
                    info.name
                );
            }
        }
    }
}
