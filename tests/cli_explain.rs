//! `urlint explain`: the rule table, one rule's entry, unknown rules.

mod common;

use common::{run, transcript, urlint};

#[test]
fn without_a_rule_lists_every_rule() {
    let (code, stdout, stderr) = run(&mut urlint(&["explain"]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    for info in urlint::rules::CATALOGUE {
        assert!(
            stdout.lines().any(|line| line.starts_with(info.name)),
            "{} missing",
            info.name
        );
    }
    insta::assert_snapshot!(stdout);
}

#[test]
fn a_rule_prints_its_catalogue_entry() {
    for name in ["unsafe-char", "hyphen-break", "bare-url"] {
        let (code, stdout, stderr) = run(&mut urlint(&["explain", name]));
        assert_eq!((code, stderr.as_str()), (0, ""), "{name}");
        assert!(stdout.starts_with(name), "{stdout}");
        let info = urlint::Rule::from_name(name).map(urlint::Rule::info);
        assert!(info.is_some_and(|info| stdout.contains(info.summary)));
    }
    insta::assert_snapshot!(transcript(&mut urlint(&["explain", "unsafe-char"])));
}

#[test]
fn unknown_rule_exits_2_with_a_suggestion() {
    insta::assert_snapshot!(transcript(&mut urlint(&["explain", "unsafe-chars"])));
    let (code, stdout, stderr) = run(&mut urlint(&["explain", "zzzz"]));
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "error: invalid value 'zzzz' for '[RULE]': unknown rule 'zzzz' \
         (`urlint explain` lists the rules)\n\nFor more information, try '--help'.\n"
    );
}
