//! Every rule in the catalogue documents itself with a bad and a good example;
//! this test runs the whole pipeline on both, so the documentation cannot drift
//! from what the linter does.

use urlint::lint::{lint, LintOptions, RuleLevels};
use urlint::rules::{Level, Rule, CATALOGUE};
use urlint::{validate, ValidateOptions};

/// Options with every rule switched on, so that off-by-default style rules are
/// checked against their own examples too.
fn everything_on() -> LintOptions {
    let mut levels = RuleLevels::default();
    for info in CATALOGUE {
        if info.default_level == Level::Off {
            levels.set(info.rule, Level::Warning);
        }
    }
    LintOptions {
        levels,
        ..LintOptions::default()
    }
}

fn rules_reported(text: &str, options: &LintOptions) -> Vec<&'static str> {
    lint(text, options)
        .flat_map(|report| report.findings)
        .map(|finding| finding.diagnostic.rule.name())
        .collect()
}

#[test]
fn every_bad_example_triggers_its_rule() {
    let options = everything_on();
    for info in CATALOGUE {
        let reported = rules_reported(info.bad_example, &options);
        assert!(
            reported.contains(&info.name),
            "{}: bad example {:?} reported {:?}",
            info.name,
            info.bad_example,
            reported
        );
    }
}

#[test]
fn no_good_example_triggers_its_rule() {
    let options = everything_on();
    for info in CATALOGUE {
        let reported = rules_reported(info.good_example, &options);
        assert!(
            !reported.contains(&info.name),
            "{}: good example {:?} reported {:?}",
            info.name,
            info.good_example,
            reported
        );
    }
}

/// The URL inside the first `<URL:...>` of an example, when it has one
/// on a single line.
fn wrapped_url(example: &str) -> Option<&str> {
    let start = example.find("<URL:")? + "<URL:".len();
    let end = start + example[start..].find('>')?;
    let url = &example[start..end];
    (!url.is_empty() && !url.contains(char::is_whitespace)).then_some(url)
}

/// The validator's own rules: the bad example's URL triggers the rule,
/// the good one's does not. (The scanner rules need the whole pipeline.)
#[test]
fn validator_rule_examples_trigger_their_rule() {
    let options = ValidateOptions {
        fragment_allowed: true,
        ..Default::default()
    };
    let fires = |url: &str, rule: Rule| {
        validate(url, &options)
            .iter()
            .any(|diagnostic| diagnostic.rule == rule)
    };
    for info in CATALOGUE.iter().filter(|info| info.section != "Appendix") {
        let bad = wrapped_url(info.bad_example).expect(info.name);
        let good = wrapped_url(info.good_example).expect(info.name);
        assert!(fires(bad, info.rule), "{}: {bad}", info.name);
        assert!(!fires(good, info.rule), "{}: {good}", info.name);
        let clean = validate(good, &options);
        assert!(clean.is_empty(), "{}: {good}: {clean:?}", info.name);
    }
}
