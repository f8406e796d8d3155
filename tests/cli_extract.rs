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

#[test]
fn with_filename_prefixes_each_url_with_its_path() {
    let (code, stdout, stderr) = run(&mut urlint(
        &[&["extract", "-H"][..], &FIXTURES[..]].concat(),
    ));
    assert_eq!((code, stderr.as_str()), (0, ""));
    let bare = run(&mut urlint(&[&["extract"][..], &FIXTURES[..]].concat())).1;
    let split: Vec<(&str, &str)> = stdout
        .lines()
        .map(|line| {
            let path = FIXTURES
                .iter()
                .find(|path| line.starts_with(&format!("{path}:")))
                .expect("every line starts with a fixture path");
            (*path, &line[path.len() + 1..])
        })
        .collect();
    let urls: Vec<&str> = split.iter().map(|(_, url)| *url).collect();
    assert_eq!(
        urls,
        bare.lines().collect::<Vec<_>>(),
        "the same URLs, in order"
    );
    assert_eq!(split[0].0, FIXTURES[0]);
    let (_, long, _) = run(&mut urlint(
        &[&["extract", "--with-filename"][..], &FIXTURES[..]].concat(),
    ));
    assert_eq!(long, stdout);
}

#[test]
fn vimgrep_lines_give_path_line_column_and_url() {
    insta::assert_snapshot!(extract(&["--vimgrep", "--unique"]));
}

#[test]
fn vimgrep_columns_are_where_the_url_text_starts() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("a.txt"),
        "café <URL:http://a.example/\n   b> and http://c.example/\n",
    )
    .expect("write");
    let mut command = urlint(&["extract", "--vimgrep", "a.txt"]);
    command.current_dir(dir.path());
    let (code, stdout, _) = run(&mut command);
    assert_eq!(code, 0);
    // Columns count characters: 'é' is one.
    assert_eq!(
        stdout,
        "a.txt:1:11:http://a.example/b\na.txt:2:11:http://c.example/\n"
    );
}

#[test]
fn file_prefixes_refuse_json_and_counts() {
    for args in [
        &["extract", "--vimgrep", "--format", "jsonl"][..],
        &["extract", "-H", "--format", "json"][..],
        &["extract", "-H", "--count"][..],
        &["extract", "--vimgrep", "--count"][..],
        &["extract", "-H", "--vimgrep"][..],
    ] {
        let (code, stdout, stderr) = run(&mut urlint(args));
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert!(stderr.contains("cannot be used with"), "{args:?}: {stderr}");
    }
}
