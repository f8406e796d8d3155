//! `urlint check` on the bundled fixtures, in every format, with exit codes.
//!
//! The snapshots record the exit code with the output, so a change in what
//! the scanner or validator finds shows up in review as one diff.

mod common;

use common::{run, transcript, urlint, FIXTURES};

fn check(extra: &[&str]) -> String {
    let mut args = vec!["check"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&FIXTURES);
    transcript(&mut urlint(&args))
}

#[test]
fn human_without_colour() {
    insta::assert_snapshot!(check(&["--color", "never"]));
}

#[test]
fn human_bare_urls_broken_across_lines_and_pages() {
    // Each join names its evidence, labels both pieces and suggests the
    // wrapper; the cut reading is spelled out once.
    let paginated = [
        "check",
        "--color",
        "never",
        "fixtures/scan/paginated-draft.txt",
    ];
    insta::assert_snapshot!(transcript(&mut urlint(&paginated)));
}

#[test]
fn human_is_uncoloured_when_piped() {
    // `auto` must not colour a pipe; the default is `auto`.
    assert_eq!(check(&[]), check(&["--color", "never"]));
}

#[test]
fn short_format() {
    insta::assert_snapshot!(check(&["--format", "short"]));
}

#[test]
fn json_format() {
    let (code, stdout, _) = run(&mut urlint(
        &[&["check", "--format", "json"][..], &FIXTURES[..]].concat(),
    ));
    let document: serde_json::Value =
        serde_json::from_str(&stdout).expect("--format json prints one JSON document");
    assert_eq!(document["version"], 1);
    assert_eq!(document["summary"]["files"], 3);
    let pretty = serde_json::to_string_pretty(&document).unwrap_or_default();
    insta::assert_snapshot!(format!("exit: {code}\n{pretty}"));
}

#[test]
fn jsonl_format() {
    let output = check(&["--format", "jsonl"]);
    let stdout = output
        .split("--- stdout\n")
        .nth(1)
        .and_then(|rest| rest.split("--- stderr\n").next())
        .unwrap_or_default();
    for line in stdout.lines() {
        let record: serde_json::Value =
            serde_json::from_str(line).expect("every jsonl line is JSON");
        assert!(record["type"] == "finding" || record["type"] == "summary");
    }
    assert!(stdout
        .lines()
        .last()
        .is_some_and(|line| line.contains("\"type\":\"summary\"")));
    insta::assert_snapshot!(output);
}

#[test]
fn github_format() {
    insta::assert_snapshot!(check(&["--format", "github"]));
}

#[test]
fn deny_warnings_and_rule_selection() {
    insta::assert_snapshot!(
        "deny_warnings",
        check(&["--format", "short", "--deny", "warnings"])
    );
    insta::assert_snapshot!(
        "select_two_rules",
        check(&["--format", "short", "--select", "hyphen-break,unsafe-char"])
    );
}

#[test]
fn output_is_the_same_for_every_thread_count() {
    let one = check(&["--format", "jsonl", "-j", "1"]);
    for threads in ["2", "4"] {
        assert_eq!(
            check(&["--format", "jsonl", "-j", threads]),
            one,
            "-j {threads}"
        );
    }
}

#[test]
fn stdin_is_read_for_a_dash() {
    let text = "Docs: <URL:http://www.example.org/a b> and\n<URL:ftp://ftp.example.org/pub/\n  readme.txt>\n";
    insta::assert_snapshot!(transcript(
        urlint(&["check", "--format", "short", "-"]).write_stdin(text)
    ));
    let (code, stdout, stderr) = run(urlint(&["check", "-"]).write_stdin(""));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "checked 1 file, found 0 URLs: 0 errors, 0 warnings\n"
    );
}

#[test]
fn usage_errors_exit_2() {
    let cases: &[&[&str]] = &[
        &[],
        &["check", "--format", "xml"],
        &["check", "--select", "no-such-rule"],
        &["check", "--deny", "errors"],
        &["check", "-j", "-1"],
        &["lint"],
    ];
    for args in cases {
        let (code, stdout, stderr) = run(&mut urlint(args));
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert!(!stderr.is_empty(), "{args:?}");
    }
    let (_, _, stderr) = run(&mut urlint(&["check", "--ignore", "bad-prot"]));
    assert!(stderr.contains("did you mean 'bad-port'?"), "{stderr}");
}

#[test]
fn colour_follows_the_color_flag() {
    let has_escapes = |args: &[&str], no_color: bool| {
        let mut command = urlint(args);
        if no_color {
            command.env("NO_COLOR", "1");
        }
        let (_, stdout, _) = run(command.write_stdin("text\n"));
        stdout.contains('\u{1b}')
    };
    assert!(has_escapes(&["check", "--color", "always", "-"], false));
    assert!(
        has_escapes(&["check", "--color", "always", "-"], true),
        "explicit always wins"
    );
    assert!(!has_escapes(&["check", "--color", "never", "-"], false));
    assert!(
        !has_escapes(&["check", "-"], false),
        "auto does not colour a pipe"
    );
}

/// The global options go before or after the command's name, as ruff's and
/// cargo's do: both spellings are the same run.
#[test]
fn global_options_go_on_either_side_of_the_command() {
    let file = "fixtures/config/notes.md";
    let pairs: [(&[&str], &[&str]); 4] = [
        (&["-q", "check", file], &["check", "-q", file]),
        (
            &["-v", "--isolated", "check", file],
            &["check", "-v", "--isolated", file],
        ),
        (
            &["--config", "fixtures/config/strict.toml", "extract", file],
            &["extract", "--config", "fixtures/config/strict.toml", file],
        ),
        (
            &["--quiet", "validate", "http://a.example/~x"],
            &["validate", "http://a.example/~x", "--quiet"],
        ),
    ];
    for (before, after) in pairs {
        let first = transcript(&mut urlint(before));
        assert_eq!(first, transcript(&mut urlint(after)), "{before:?}");
        assert!(!first.contains("unexpected argument"), "{first}");
    }
    let (code, _, stderr) = run(&mut urlint(&["-q", "-v", "check", file]));
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

/// `-j 0` chooses the number of threads, as ripgrep's does.
#[test]
fn zero_threads_means_choose_for_me() {
    let one = transcript(&mut urlint(&[
        "check",
        "-j",
        "1",
        "--format",
        "short",
        "fixtures/",
    ]));
    let zero = transcript(&mut urlint(&[
        "check",
        "-j",
        "0",
        "--format",
        "short",
        "fixtures/",
    ]));
    assert_eq!(zero, one);
}

/// GitHub matches annotation paths, and code scanning SARIF URIs, against
/// the repository's paths, which have no `./`.
#[test]
fn github_and_sarif_name_files_as_repository_paths() {
    let mut github = urlint(&["check", "--format", "github", "."]);
    github.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/config"));
    let (_, stdout, _) = run(&mut github);
    assert!(stdout.contains("::error file=notes.md,line=3,"), "{stdout}");
    assert!(!stdout.contains("file=./"), "{stdout}");
    let mut sarif = urlint(&["check", "--format", "sarif", "."]);
    sarif.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/config"));
    let (_, stdout, _) = run(&mut sarif);
    assert!(stdout.contains(r#""uri":"notes.md""#), "{stdout}");
    assert!(!stdout.contains(r#""uri":"./"#), "{stdout}");
}

/// A first run of the default profile says, in one line, how many of its
/// findings `--profile rfc3986` would not report; a chosen profile, `-q`
/// and machine formats say nothing of it.
#[test]
fn the_summary_names_the_other_profile_when_it_would_report_less() {
    let text = "<URL:http://a.example/~x> <URL:http://a.example:99999/>\n\
                <URL:http://[2001:db8::1]/> <URL:http://user@a.example/>\n";
    let check = |args: &[&str]| {
        let mut full = vec!["check", "--isolated"];
        full.extend_from_slice(args);
        full.push("-");
        run(urlint(&full).write_stdin(text)).1
    };
    let hint = "3 of these findings are not reported under --profile rfc3986 (modern URLs)\n";
    let default = check(&[]);
    assert!(
        default.ends_with(&format!("4 errors, 0 warnings\n{hint}")),
        "{default}"
    );
    for args in [
        &["--profile", "rfc1738"][..],
        &["-q"],
        &["--format", "short"],
    ] {
        let out = check(args);
        assert!(!out.contains("--profile rfc3986"), "{args:?}: {out}");
    }
    let rfc3986 = check(&["--profile", "rfc3986"]);
    assert!(
        rfc3986.contains("found 4 URLs: 1 error, 1 warning\n"),
        "{rfc3986}"
    );
}
