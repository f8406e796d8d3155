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

/// An empty or blank argument (a shell variable never set) is not "0 URLs,
/// all valid": it is a usage error.
#[test]
fn an_empty_argument_is_a_usage_error() {
    for args in [
        vec!["validate", ""],
        vec!["validate", "http://a.example/", "  "],
    ] {
        let (code, stdout, stderr) = run(&mut urlint(&args));
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert!(
            stderr.contains("an empty argument is not a URL"),
            "{args:?}: {stderr}"
        );
    }
}

/// `urlint validate` with no argument on a terminal says it reads stdin,
/// instead of waiting in silence; on a pipe it says nothing. The terminal
/// is util-linux's `script`, where it exists.
#[test]
fn validate_on_a_terminal_says_it_reads_stdin() {
    let (_, _, stderr) = run(urlint(&["validate"]).write_stdin("http://a.example/\n"));
    assert!(!stderr.contains("reading URLs from stdin"), "{stderr}");
    let binary = assert_cmd::cargo::cargo_bin!("urlint");
    // `script` passes its stdin to the terminal, where Ctrl-D (\x04) ends
    // the input; `timeout` keeps a regression from hanging the suite.
    let spawned = std::process::Command::new("timeout")
        .args(["10", "script", "-qec"])
        .arg(format!("{} validate", binary.display()))
        .arg("/dev/null")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = spawned else {
        eprintln!("skipped: coreutils' `timeout` is not available");
        return;
    };
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write as _;
        stdin
            .write_all(b"http://a.example/\n\x04")
            .expect("write to script");
    }
    let output = child.wait_with_output().expect("script ends");
    if output.status.code() == Some(127) {
        eprintln!("skipped: util-linux `script` is not available");
        return;
    }
    let typescript = String::from_utf8_lossy(&output.stdout);
    assert!(
        typescript.contains("urlint: reading URLs from stdin, one per line; end with Ctrl-D"),
        "{typescript}"
    );
    assert!(
        typescript.contains("valid: http://a.example/"),
        "{typescript}"
    );
}

/// Stdin is validated as it is read: a URL's verdict is written before the
/// next line arrives (a program writing URLs as it finds them), and a long
/// stream is held a batch at a time. It used to be read to its end first.
#[test]
fn each_stdin_line_gets_its_verdict_before_the_next_is_written() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;

    let mut child = Command::new(env!("CARGO_BIN_EXE_urlint"))
        .args(["validate", "--isolated"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("urlint starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, received) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line.expect("utf-8 output")).is_err() {
                break;
            }
        }
    });
    // Generous: a verdict that never comes before the next line fails here
    // instead of hanging the test; this is no measure of speed.
    let wait = Duration::from_secs(30);
    writeln!(stdin, "http://a.example/").expect("first line");
    stdin.flush().expect("flush");
    assert_eq!(
        received.recv_timeout(wait).as_deref(),
        Ok("valid: http://a.example/")
    );
    writeln!(stdin, "http://b.example:99999/").expect("second line");
    drop(stdin);
    assert_eq!(
        received.recv_timeout(wait).as_deref(),
        Ok("invalid: http://b.example:99999/")
    );
    let rest: Vec<String> = received.iter().collect();
    assert!(
        rest.iter().any(|line| line.contains("<stdin>:2:")),
        "{rest:?}"
    );
    assert_eq!(
        rest.last().map(String::as_str),
        Some("validated 2 URLs: 1 error, 0 warnings")
    );
    assert_eq!(child.wait().expect("ends").code(), Some(1));
    reader.join().expect("reader");
}
