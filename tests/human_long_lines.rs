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

/// The `path:line:col` of each finding: from the short format's lines, or
/// from the human format's `┌─` headers.
fn positions(output: &str, human: bool) -> Vec<String> {
    output
        .lines()
        .filter_map(|line| match human {
            true => line.trim_start().strip_prefix("┌─ ").map(str::to_string),
            false => line
                .split(": ")
                .next()
                .filter(|_| line.contains("]: "))
                .map(str::to_string),
        })
        .collect()
}

#[test]
fn cropped_mail_lines_keep_the_archive_line_and_column() {
    // The second message's body is one long 8-bit line: findings are shown
    // on the raw archive line, far from its start.
    let long_line = format!(
        "{} http://mail.example/é/~a {}",
        "é".repeat(400),
        "word ".repeat(200)
    );
    let archive = format!(
        "From a@example.org Mon Jan  1 10:00:00 2024\nSubject: one\n\nhttp://first.example/~b\n\n\
         From b@example.org Mon Jan  1 11:00:00 2024\nSubject: two\n\
         Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n\
         {long_line}\n"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    fs::write(dir.path().join("long.mbox"), &archive).expect("write the archive");
    let check = |format| {
        run(
            urlint(&["check", "--color", "never", "--format", format, "long.mbox"])
                .current_dir(dir.path()),
        )
    };
    let (code, human, stderr) = check("human");
    assert_eq!((code, stderr.as_str()), (1, ""));
    let (_, short, _) = check("short");
    let expected = positions(&short, false);
    assert_eq!(
        expected,
        ["long.mbox:4:22", "long.mbox:11:422", "long.mbox:11:424"]
    );
    assert_eq!(positions(&human, true), expected);
    for line in source_lines(&human) {
        assert!(line.chars().count() <= 140, "{line}");
    }
}

/// A finding over thousands of lines (the overflow summary of a
/// quoted-printable URL over its soft breaks) shows its first and last
/// pieces and says how many it leaves out: output grows with the findings,
/// not with the lines one of them covers.
#[test]
fn a_finding_over_thousands_of_lines_shows_its_ends() {
    let lines = 5_000;
    let body: String = (0..lines)
        .map(|_| format!("~{}=\n", "x".repeat(70)))
        .collect();
    let mail = format!(
        "From: a@b.example\nSubject: s\nMIME-Version: 1.0\nContent-Type: text/plain\n\
         Content-Transfer-Encoding: quoted-printable\n\nhttp://a.example/{body}end\n"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("long.eml");
    fs::write(&path, mail).expect("write the input");
    let path = path.to_string_lossy().into_owned();
    let (code, stdout, stderr) = run(&mut urlint(&["check", "--color", "never", &path]));
    assert_eq!((code, stderr.as_str()), (1, ""));
    let overflow = stdout
        .split("\n\n")
        .find(|block| block.contains("more unsafe-char problems from here on"))
        .expect("the overflow finding");
    assert_eq!(source_lines(overflow).count(), 6, "{overflow}");
    assert!(
        overflow.contains(&format!(
            "note: {} more line pieces of this finding are not shown",
            lines - 64 - 6
        )),
        "{overflow}"
    );
    assert!(source_lines(&stdout).count() < 100);
}
