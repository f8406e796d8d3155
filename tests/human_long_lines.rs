//! The human format on very long lines: a finding shows a window of its
//! line, so output grows with the findings, not with the line.

mod common;

use std::fs;

use common::{run, urlint};

/// Run `check` in the human format on one file holding `text`.
fn check_human(text: &str) -> (i32, String, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("long.txt");
    fs::write(&path, text).expect("write the input");
    let path = path.to_string_lossy().into_owned();
    run(&mut urlint(&["check", "--color", "never", &path]))
}

/// Source lines of the output (`N │ ...`), which the crop bounds.
fn source_lines(output: &str) -> impl Iterator<Item = &str> {
    output.lines().filter(|line| {
        line.split_once(" │ ")
            .is_some_and(|(gutter, _)| gutter.trim().parse::<usize>().is_ok())
    })
}

#[test]
fn a_thousand_wrappers_on_one_line_print_a_window_each() {
    let (code, stdout, stderr) = check_human(&"<URL:".repeat(1_000));
    assert_eq!((code, stderr.as_str()), (1, ""));
    // Each wrapper is never closed and empty: two findings.
    assert_eq!(stdout.matches("\nerror[").count() + 1, 2_000);
    assert_eq!(source_lines(&stdout).count(), 2_000);
    // 60 characters each side of a five-character label, two ellipses and
    // the gutter; the whole line would be 5,000.
    for line in source_lines(&stdout) {
        assert!(line.chars().count() <= 4 + 60 + 5 + 60 + 2, "{line}");
    }
    assert!(stdout.len() < 1_000_000, "{} bytes", stdout.len());
}

#[test]
fn a_twenty_megabyte_line_prints_two_small_findings() {
    let text = format!(
        "{} <URL:http://huge.example/~a> {}http://tail.example/~b\n",
        "x".repeat(10_000_000),
        "y ".repeat(5_000_000)
    );
    let (code, stdout, stderr) = check_human(&text);
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert!(stdout.contains("long.txt:1:10000027\n"), "{stdout}");
    assert!(stdout.contains("long.txt:1:20000051\n"), "{stdout}");
    assert!(stdout.len() < 2_000, "{} bytes", stdout.len());
}
