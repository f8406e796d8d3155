//! Every rule in the catalogue documents itself with a bad and a good example;
//! this test runs the whole pipeline on both, so the documentation cannot drift
//! from what the linter does.

use urlint::lint::{lint, LintOptions, RuleLevels};
use urlint::rules::{Level, CATALOGUE};

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
