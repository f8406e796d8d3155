//! `urlint extract` on the fixtures: plain, jsonl and json, --unique, --count.

mod common;

use common::{run, transcript, urlint, FIXTURES};

fn extract(extra: &[&str]) -> String {
    let mut args = vec!["extract"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&FIXTURES);
    transcript(&mut urlint(&args))
}

#[test]
fn plain() {
    insta::assert_snapshot!(extract(&[]));
}

#[test]
fn jsonl() {
    insta::assert_snapshot!(extract(&["--format", "jsonl"]));
}

#[test]
fn json_is_one_array() {
    let (code, stdout, stderr) = run(&mut urlint(
        &[&["extract", "--format", "json"][..], &FIXTURES[..]].concat(),
    ));
    assert_eq!((code, stderr.as_str()), (0, ""));
    let urls: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON array");
    assert!(urls.is_array());
    insta::assert_snapshot!(serde_json::to_string_pretty(&urls).unwrap_or_default());
}

#[test]
fn unique_and_count() {
    insta::assert_snapshot!("unique", extract(&["--unique"]));
    insta::assert_snapshot!("count", extract(&["--count"]));
    insta::assert_snapshot!("count_jsonl", extract(&["--count", "--format", "jsonl"]));
}

#[test]
fn extract_never_fails_on_findings() {
    let (code, _, stderr) = run(&mut urlint(&[&["extract"][..], &FIXTURES[..]].concat()));
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn stdin_is_read_for_a_dash() {
    let (code, _, stderr) = run(urlint(&["extract", "-"]).write_stdin("<URL:http://a.example/>\n"));
    assert_eq!((code, stderr.as_str()), (0, ""));
}
