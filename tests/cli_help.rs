//! What urlint says about itself, through the real binary: help texts with
//! examples, `--version`, shell completion scripts and manual pages.

mod common;

use std::io::Write;
use std::process::Command;

use common::{run, urlint};

const SUBCOMMANDS: [&str; 8] = [
    "check",
    "extract",
    "validate",
    "explain",
    "fmt",
    "server",
    "completions",
    "man",
];

#[test]
fn every_help_ends_with_examples() {
    let mut helps = vec![vec!["--help"]];
    helps.extend(SUBCOMMANDS.iter().map(|command| vec![*command, "--help"]));
    for args in helps {
        let (code, help, _) = run(&mut urlint(&args));
        assert_eq!(code, 0, "{args:?}");
        let examples = help
            .rsplit_once("\nExamples:\n")
            .map(|(_, examples)| examples)
            .unwrap_or_default();
        let lines: Vec<&str> = examples.lines().collect();
        assert!((2..=4).contains(&lines.len()), "{args:?}: {help}");
        assert!(
            lines.iter().all(|line| line.contains("urlint ")),
            "{args:?}: {examples}"
        );
    }
}

#[test]
fn version_names_the_build_and_what_it_reads() {
    let (code, short, _) = run(&mut urlint(&["-V"]));
    assert_eq!(code, 0);
    let version = env!("CARGO_PKG_VERSION");
    let short = short.trim_end();
    // The revision is there when the build could ask git for it.
    let rev = short.strip_prefix(&format!("urlint {version}"));
    assert!(
        rev.is_some_and(|rev| rev.is_empty()
            || (rev.starts_with(" (rev ")
                && rev.ends_with(')')
                && rev.len() == " (rev )".len() + 10)),
        "{short}"
    );
    let (_, long, _) = run(&mut urlint(&["--version"]));
    let lines: Vec<&str> = long.lines().collect();
    assert_eq!(lines[0], short);
    assert!(
        lines.contains(&"profiles: rfc1738 (default), rfc3986"),
        "{long}"
    );
    assert!(
        lines.contains(
            &"input kinds: text, markdown, rst, html, mail, mbox, eml (--input auto detects them)"
        ),
        "{long}"
    );
}

/// Print that a test part was skipped, past the test harness's capture, so
/// that a skip is never silent.
fn say_skipped(what: &str) {
    let _ = writeln!(std::io::stderr(), "skipped: {what}");
}

#[test]
fn completion_scripts_pass_their_shells_syntax_check() {
    let dir = tempfile::tempdir().expect("temp dir");
    for shell in ["bash", "zsh", "fish"] {
        let (code, script, stderr) = run(&mut urlint(&["completions", shell]));
        assert_eq!((code, stderr.as_str()), (0, ""), "{shell}");
        for name in ["check", "statistics", "mail-headers", "unsafe-char"] {
            assert!(script.contains(name), "{shell} script lacks {name}");
        }
        let path = dir.path().join(format!("urlint.{shell}"));
        std::fs::write(&path, &script).expect("write script");
        match Command::new(shell).arg("-n").arg(&path).output() {
            Ok(output) => assert!(
                output.status.success(),
                "{shell} -n: {}",
                String::from_utf8_lossy(&output.stderr)
            ),
            Err(_) => say_skipped(&format!(
                "`{shell} -n` on the completion script: {shell} is not installed"
            )),
        }
    }
    // No syntax check for these (pwsh and elvish are rarely installed); their
    // scripts complete options, not option values.
    for shell in ["powershell", "elvish"] {
        let (code, script, _) = run(&mut urlint(&["completions", shell]));
        assert_eq!(code, 0, "{shell}");
        assert!(script.contains("--statistics"), "{shell}");
    }
    let (code, _, stderr) = run(&mut urlint(&["completions", "tcsh"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("[possible values: bash,"), "{stderr}");
}

#[test]
fn man_writes_one_page_per_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = dir.path().to_string_lossy().into_owned();
    let (code, stdout, stderr) = run(&mut urlint(&["man", &target]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    let mut pages = vec!["urlint.1".to_owned()];
    pages.extend(
        SUBCOMMANDS
            .iter()
            .map(|command| format!("urlint-{command}.1")),
    );
    let written: Vec<String> = stdout.lines().map(str::to_owned).collect();
    let expected: Vec<String> = pages
        .iter()
        .map(|page| dir.path().join(page).display().to_string())
        .collect();
    assert_eq!(written, expected);
    let check = std::fs::read_to_string(dir.path().join("urlint-check.1")).expect("written");
    assert!(check.starts_with(".ie"), "roff");
    assert!(check.contains(".TH urlint-check 1"), "{check}");
    assert!(check.contains("\\-\\-statistics"), "{check}");
    assert!(
        check.contains(".SH EXAMPLES\n.nf\n\\&urlint check docs/"),
        "examples line for line: {check}"
    );
    // A directory that does not exist yet is made, as on a fresh account.
    let fresh = dir.path().join("share/man/man1");
    let (code, stdout, stderr) = run(&mut urlint(&["man", &fresh.to_string_lossy()]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout.lines().count(), pages.len());
    assert!(fresh.join("urlint-man.1").is_file());
    // A directory that cannot be made is an error that says why.
    let blocked = dir.path().join("urlint.1").join("man1");
    let (code, _, stderr) = run(&mut urlint(&["man", &blocked.to_string_lossy()]));
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("urlint: cannot make the directory "),
        "{stderr}"
    );
    // A file in the way is named for what it is, not "File exists".
    let file = dir.path().join("urlint.1");
    let (code, _, stderr) = run(&mut urlint(&["man", &file.to_string_lossy()]));
    assert_eq!(code, 2);
    assert!(
        stderr.ends_with(": it exists and is not a directory\n"),
        "{stderr}"
    );
}

#[test]
fn every_command_of_the_readme_is_in_the_command_list() {
    let (_, help, _) = run(&mut urlint(&["--help"]));
    let readme = std::fs::read_to_string("README.md").expect("README.md");
    let listed = readme
        .split_once("## Commands\n\n```text\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("README's command table")
        .0;
    for line in listed.lines() {
        let command = line.split_whitespace().nth(1).expect("urlint COMMAND");
        assert!(
            help.contains(&format!("\n  {command} ")),
            "{command}: {help}"
        );
    }
    for command in SUBCOMMANDS {
        assert!(
            listed.contains(&format!("urlint {command} ")),
            "{command} is missing from README's command table"
        );
    }
}
