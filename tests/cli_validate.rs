//! `urlint validate`: URLs as arguments or stdin lines, every format.

mod common;

use common::{run, transcript, urlint};

/// URLs exercising several rules of RFC 1738 (sections 2.2, 3.1, 3.2.2).
const URLS: [&str; 5] = [
    "http://www.example.org/index.html",
    "http://www.example.org/~user/",
    "ftp://ftp.example.org/file;type=q",
    "http://host.example:99999/",
    "HTTP://www.example.org/",
];

fn validate(extra: &[&str]) -> String {
    let mut args = vec!["validate"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&URLS);
    transcript(&mut urlint(&args))
}

#[test]
fn human_with_verdicts() {
    insta::assert_snapshot!(validate(&["--color", "never"]));
}

#[test]
fn machine_formats() {
    insta::assert_snapshot!("short", validate(&["--format", "short"]));
    insta::assert_snapshot!("jsonl", validate(&["--format", "jsonl"]));
    insta::assert_snapshot!("github", validate(&["--format", "github"]));
}

#[test]
fn json_document_has_one_entry_per_url() {
    let (_, stdout, _) = run(&mut urlint(
        &[&["validate", "--format", "json"][..], &URLS[..]].concat(),
    ));
    let document: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let urls = &document["files"][0]["urls"];
    assert_eq!(urls.as_array().map(Vec::len), Some(URLS.len()));
    for (entry, url) in urls.as_array().into_iter().flatten().zip(URLS) {
        assert_eq!(entry["url"], url);
        assert!(entry["valid"].is_boolean());
    }
    assert_eq!(document["files"][0]["path"], "<arguments>");
}

#[test]
fn stdin_one_url_per_line_matches_arguments() {
    let stdin = format!("{}\n\n", URLS.join("\n"));
    let (code, stdout, stderr) = run(urlint(&["validate", "--format", "short"]).write_stdin(stdin));
    let (arg_code, arg_stdout, _) = run(&mut urlint(
        &[&["validate", "--format", "short"][..], &URLS[..]].concat(),
    ));
    assert_eq!(stderr, "");
    assert_eq!(code, arg_code);
    assert_eq!(stdout, arg_stdout.replace("<arguments>", "<stdin>"));
}

#[test]
fn a_valid_url_exits_0() {
    let (code, stdout, stderr) = run(&mut urlint(&[
        "validate",
        "http://www.example.org/index.html",
    ]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "valid: http://www.example.org/index.html\nvalidated 1 URL: 0 errors, 0 warnings\n"
    );
}

#[test]
fn a_run_of_one_unsafe_character_is_one_finding_with_one_fix() {
    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "--isolated",
        "--format",
        "jsonl",
        "http://h.example/~~~docs/~x",
    ]));
    assert_eq!(code, 1);
    let findings: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .filter(|record: &serde_json::Value| record["type"] == "finding")
        .collect();
    let placed: Vec<(u64, u64, &str)> = findings
        .iter()
        .map(|finding| {
            (
                finding["column"].as_u64().unwrap_or_default(),
                finding["spans"][0]["end_column"]
                    .as_u64()
                    .unwrap_or_default(),
                finding["fix"]["replacement"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(placed, [(18, 21, "%7E%7E%7E"), (26, 27, "%7E")]);
    assert_eq!(
        findings[0]["message"],
        "unsafe character '~' must be encoded as %7E: 3 in a row"
    );
}
