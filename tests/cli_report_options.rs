//! How a `check` run reports, through the real binary: `--statistics`,
//! `--exit-zero`, `-q/--quiet` and `--output-file`.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::{run, transcript, urlint, FIXTURES};
use serde_json::Value;

/// `urlint check ARGS FIXTURES`.
fn check(args: &[&str]) -> (i32, String, String) {
    run(&mut urlint(&[&["check"], args, &FIXTURES[..]].concat()))
}

/// Findings per (rule, severity) in a `--format jsonl` run.
fn jsonl_counts(stdout: &str) -> BTreeMap<(String, String), u64> {
    let mut counts = BTreeMap::new();
    for line in stdout.lines() {
        let record: Value = serde_json::from_str(line).expect("jsonl");
        if record["type"] == "finding" {
            let key = (
                record["rule"].as_str().unwrap_or_default().to_owned(),
                record["severity"].as_str().unwrap_or_default().to_owned(),
            );
            *counts.entry(key).or_default() += 1;
        }
    }
    counts
}

#[test]
fn statistics_count_what_jsonl_lists() {
    let (jsonl_code, jsonl, _) = check(&["--format", "jsonl"]);
    let expected = jsonl_counts(&jsonl);
    assert!(expected.len() > 3, "the fixtures break several rules");

    let (code, stdout, stderr) = check(&["--statistics"]);
    assert_eq!((code, stderr.as_str()), (jsonl_code, ""));
    let mut lines: Vec<&str> = stdout.lines().collect();
    // The line on what --profile rfc3986 would not report ends the summary.
    assert!(lines
        .pop()
        .is_some_and(|hint| hint.ends_with("--profile rfc3986 (modern URLs)")));
    let summary = lines.pop().unwrap_or_default();
    let rows: Vec<(u64, String, String)> = lines
        .iter()
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "COUNT<TAB>RULE<TAB>SEVERITY: {line:?}");
            let count = fields[0].parse().expect("a count");
            (count, fields[1].to_owned(), fields[2].to_owned())
        })
        .collect();
    let counted: BTreeMap<(String, String), u64> = rows
        .iter()
        .map(|(count, rule, severity)| ((rule.clone(), severity.clone()), *count))
        .collect();
    assert_eq!(counted, expected);
    assert!(
        rows.windows(2).all(|pair| pair[0].0 >= pair[1].0),
        "most frequent first: {stdout}"
    );
    let total: u64 = expected.values().sum();
    let errors = expected
        .iter()
        .filter(|((_, severity), _)| severity == "error")
        .map(|(_, count)| count)
        .sum::<u64>();
    assert!(
        summary.ends_with(&format!(": {errors} errors, {} warnings", total - errors)),
        "{summary}"
    );
}

#[test]
fn statistics_in_text() {
    insta::assert_snapshot!(transcript(&mut urlint(
        &[&["check", "--statistics"][..], &FIXTURES[..]].concat()
    )));
}

#[test]
fn statistics_in_json_and_jsonl_carry_the_same_counts() {
    let (_, jsonl, _) = check(&["--format", "jsonl"]);
    let expected = jsonl_counts(&jsonl);
    let as_counts = |statistics: &[Value]| -> BTreeMap<(String, String), u64> {
        statistics
            .iter()
            .map(|s| {
                let field = |name: &str| s[name].as_str().unwrap_or_default().to_owned();
                (
                    (field("rule"), field("severity")),
                    s["count"].as_u64().unwrap_or_default(),
                )
            })
            .collect()
    };

    let (_, json, _) = check(&["--statistics", "--format", "json"]);
    let document: Value = serde_json::from_str(&json).expect("one JSON document");
    let statistics = document["statistics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(as_counts(&statistics), expected);
    assert_eq!(document["version"], 1);
    let summary_of_jsonl: Value =
        serde_json::from_str(jsonl.lines().last().unwrap_or_default()).expect("summary");
    assert_eq!(document["summary"]["errors"], summary_of_jsonl["errors"]);

    let (_, lines, _) = check(&["--statistics", "--format", "jsonl"]);
    let records: Vec<Value> = lines
        .lines()
        .map(|line| serde_json::from_str(line).expect("jsonl"))
        .collect();
    let (statistics, summary) = records.split_at(records.len() - 1);
    assert!(statistics
        .iter()
        .all(|record| record["type"] == "statistic"));
    assert_eq!(as_counts(statistics), expected);
    assert_eq!(summary[0], summary_of_jsonl);
}

#[test]
fn statistics_refuse_formats_made_of_findings() {
    let (code, stdout, stderr) = check(&["--statistics", "--format", "sarif"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with("error: --statistics cannot be used with --format sarif"),
        "{stderr}"
    );
    assert!(stderr.contains("Usage: urlint check"), "{stderr}");
}

#[test]
fn exit_zero_keeps_the_output_and_exits_0() {
    let (code, stdout, _) = check(&["--format", "short"]);
    assert_eq!(code, 1);
    let (zero, zero_stdout, _) = check(&["--format", "short", "--exit-zero"]);
    assert_eq!((zero, zero_stdout), (0, stdout));
    // Trouble is not a finding: an unreadable input still exits 2.
    let (code, _, stderr) = run(&mut urlint(&["check", "--exit-zero", "no/such/file.txt"]));
    assert_eq!(code, 2, "{stderr}");
    // validate has the flag too.
    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "--exit-zero",
        "http://a.example/~x",
    ]));
    assert_eq!(code, 0);
    assert!(stdout.contains("error[unsafe-char]"), "{stdout}");
}

#[test]
fn quiet_prints_the_findings_without_the_summary() {
    let (_, loud, _) = check(&["--color", "never"]);
    let (code, quiet, stderr) = check(&["--color", "never", "-q"]);
    assert_eq!((code, stderr.as_str()), (1, ""));
    let summary = &loud[loud.rfind("\nchecked ").expect("a summary") + 1..];
    assert!(summary.starts_with("checked 3 files"), "{summary}");
    assert!(summary.ends_with("not reported under --profile rfc3986 (modern URLs)\n"));
    assert_eq!(format!("{quiet}{summary}"), loud);

    let (_, statistics, _) = check(&["--statistics", "--quiet"]);
    assert!(statistics.lines().all(|line| line.split('\t').count() == 3));

    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "-q",
        "http://a.example/",
        "http://a.example/~x",
    ]));
    assert_eq!(code, 1);
    assert!(stdout.starts_with("error[unsafe-char]"), "{stdout}");
    assert!(
        !stdout.contains("valid"),
        "no verdicts, no summary: {stdout}"
    );
}

#[test]
fn quiet_and_verbose_exclude_each_other() {
    let (code, _, stderr) = check(&["-q", "-v"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

#[test]
fn output_file_holds_the_bytes_stdout_would_get() {
    let dir = tempfile::tempdir().expect("temp dir");
    for format in ["human", "short", "json", "jsonl", "github", "sarif"] {
        let report = dir.path().join(format!("report.{format}"));
        let report_arg = report.to_string_lossy().into_owned();
        let (code, stdout, _) = check(&["--format", format]);
        let (file_code, file_stdout, _) =
            check(&["--format", format, "--output-file", &report_arg]);
        assert_eq!((file_code, file_stdout.as_str()), (code, ""), "{format}");
        assert_eq!(
            fs::read(&report).expect("the report was written"),
            stdout.as_bytes(),
            "{format}"
        );
    }
    // Colour never reaches the file, whatever --color says.
    let report = dir.path().join("coloured.txt");
    let report_arg = report.to_string_lossy().into_owned();
    check(&["--color", "always", "--output-file", &report_arg]);
    let written = fs::read(&report).expect("written");
    assert!(!written.contains(&0x1b), "no escape codes in the file");
    assert_eq!(written, check(&["--color", "never"]).1.as_bytes());
    // extract writes to a file too.
    let urls = dir.path().join("urls.txt");
    let urls_arg = urls.to_string_lossy().into_owned();
    let extracted = run(&mut urlint(&[&["extract"][..], &FIXTURES[..]].concat())).1;
    run(&mut urlint(
        &[&["extract", "--output-file", &urls_arg][..], &FIXTURES[..]].concat(),
    ));
    assert_eq!(fs::read_to_string(&urls).expect("written"), extracted);
}

/// Names of the entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("list")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn an_output_file_in_the_checked_tree_is_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("a.txt"), "see http://a.example/~x\n").expect("write");
    // A previous report holds the URL too; reading it would double the findings.
    let mut command = urlint(&["check", "--format", "short", "--output-file", "report.txt"]);
    command.current_dir(dir.path());
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (1, "", ""));
    let first = fs::read_to_string(dir.path().join("report.txt")).expect("written");
    assert_eq!(
        first,
        "a.txt:1:22: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n"
    );
    let (code, _, stderr) = run(&mut command);
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        fs::read_to_string(dir.path().join("report.txt")).expect("written"),
        first
    );
    assert_eq!(
        entries(dir.path()),
        ["a.txt", "report.txt"],
        "no temporary file left"
    );

    // Named on the command line it is an input, which the report must not
    // replace: the run ends before anything is read or written.
    let mut named = urlint(&[
        "check",
        "--format",
        "short",
        "--output-file",
        "report.txt",
        "report.txt",
        "a.txt",
    ]);
    named.current_dir(dir.path());
    let (code, stdout, stderr) = run(&mut named);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert_eq!(
        stderr,
        "urlint: cannot write the report to report.txt: it is the input report.txt \
         (name another file)\n"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("report.txt")).expect("kept"),
        first
    );
}

/// `urlint check . > report.txt` (or `>> report.txt`): the file the shell
/// redirects stdout to is in the checked tree, and reading it would check
/// the report being written, its own URLs reported back into it. It is
/// skipped as an `--output-file` is; appending makes it hold a URL to find.
#[cfg(unix)]
#[test]
fn the_file_stdout_is_redirected_to_is_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("a.txt"), "see http://a.example/~x\n").expect("write");
    let previous = "report.txt:1:1: see http://b.example/~y\n";
    fs::write(dir.path().join("report.txt"), previous).expect("write");
    let report = fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("report.txt"))
        .expect("open the report");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
        .args(["--isolated", "check", "--format", "short", "-q", "."])
        .current_dir(dir.path())
        .stdout(report)
        .status()
        .expect("the urlint binary runs");
    assert_eq!(status.code(), Some(1));
    assert_eq!(
        fs::read_to_string(dir.path().join("report.txt")).expect("written"),
        format!(
            "{previous}./a.txt:1:22: error[unsafe-char]: unsafe character '~' must be \
             encoded as %7E\n"
        )
    );
}

/// An `--output-file` that names an input, itself or through a symbolic
/// or hard link, would replace the text the report is about: every
/// reporting command refuses it, exit 2, and the input is left as it was.
#[cfg(unix)]
#[test]
fn an_output_file_that_is_a_named_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "see http://host.example/~ann/\n";
    fs::write(dir.path().join("notes.txt"), text).expect("write");
    std::os::unix::fs::symlink("notes.txt", dir.path().join("link.txt")).expect("symlink");
    fs::hard_link(dir.path().join("notes.txt"), dir.path().join("hard.txt")).expect("link");
    let runs: [&[&str]; 5] = [
        &["extract", "notes.txt", "--output-file", "notes.txt"],
        &["check", "notes.txt", "--output-file", "link.txt"],
        &["check", "--fix", "notes.txt", "--output-file", "hard.txt"],
        &["fmt", "notes.txt", "--output-file", "./notes.txt"],
        &["check", "link.txt", "--output-file", "notes.txt"],
    ];
    for args in runs {
        let mut command = urlint(args);
        command.current_dir(dir.path());
        let (code, stdout, stderr) = run(&mut command);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}");
        assert!(
            stderr.contains(": it is the input ") && stderr.ends_with("(name another file)\n"),
            "{args:?}: {stderr}"
        );
        let kept = fs::read_to_string(dir.path().join("notes.txt")).expect("kept");
        assert_eq!(kept, text, "{args:?}");
    }
    assert_eq!(entries(dir.path()), ["hard.txt", "link.txt", "notes.txt"]);
}

#[test]
fn an_output_file_that_cannot_be_written_is_exit_2_and_leaves_no_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("no/such/dir/report.txt");
    let missing_arg = missing.to_string_lossy().into_owned();
    let (code, stdout, stderr) = check(&["--output-file", &missing_arg]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with(&format!(
            "urlint: cannot write the report to {missing_arg}: "
        )),
        "{stderr}"
    );
    let as_dir = dir.path().to_string_lossy().into_owned();
    let (code, _, stderr) = check(&["--output-file", &as_dir]);
    assert_eq!(code, 2);
    assert!(stderr.ends_with(": it is a directory\n"), "{stderr}");
    assert!(entries(dir.path()).is_empty());
}

/// A closed stdout (`>&-`) is told, exit 2, before anything is done: Rust
/// opens /dev/null in its place before `main`, so the report would vanish
/// while the exit code said it was written. `>/dev/null` still discards it,
/// as does Python's `subprocess.DEVNULL` (opened read-write).
#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_is_an_error_and_dev_null_is_not() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("f.txt"), "<URL:http://a.example/~x>\n").expect("write");
    let urlint = assert_cmd::cargo::cargo_bin!("urlint");
    let shell = |redirect: &str, args: &str| {
        let output = std::process::Command::new("sh")
            .current_dir(dir.path())
            .arg("-c")
            .arg(format!("exec \"$0\" {args} {redirect}"))
            .arg(urlint)
            .output()
            .expect("sh runs");
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let closed = "urlint: cannot write output: standard output is closed";
    for args in [
        "check --isolated f.txt",
        "extract f.txt",
        "explain",
        "fmt --check f.txt",
        "--version",
        "check --help",
        "help check",
    ] {
        let (code, stderr) = shell(">&-", args);
        assert_eq!(code, 2, "{args}: {stderr}");
        assert!(stderr.starts_with(closed), "{args}: {stderr}");
    }
    // Through a name for stdout, or a stdout open for reading only (whose
    // EBADF Rust's stdout takes for a written report).
    for (redirect, args) in [
        (">&-", "check --isolated --output-file /dev/stdout f.txt"),
        (
            ">&-",
            "check --isolated --output-file /proc/self/fd/1 f.txt",
        ),
        ("1</dev/null", "check --isolated f.txt"),
    ] {
        let (code, stderr) = shell(redirect, args);
        assert_eq!(code, 2, "{redirect} {args}: {stderr}");
        assert!(stderr.starts_with(closed), "{redirect} {args}: {stderr}");
    }
    let (code, stderr) = shell(">&-", "check --fix --isolated f.txt");
    assert_eq!(code, 2, "{stderr}");
    let kept = std::fs::read_to_string(dir.path().join("f.txt")).expect("read");
    assert_eq!(kept, "<URL:http://a.example/~x>\n", "nothing was done");
    for redirect in [">/dev/null", "<>/dev/null 1>&0"] {
        let (code, stderr) = shell(redirect, "check --isolated f.txt");
        assert_eq!((code, stderr.as_str()), (1, ""), "{redirect}");
    }
    let (code, stderr) = shell(">&-", "check --isolated --output-file r.txt f.txt");
    assert_eq!(
        (code, stderr.as_str()),
        (1, ""),
        "a report file needs no stdout"
    );
}

/// A closed stdin is an input that cannot be read, not an empty text that
/// passes (Rust's runtime opens `/dev/null` in its place before `main`);
/// the other inputs of the run are still read and reported.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdin_cannot_be_read_and_the_other_inputs_are() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("f.txt"), "<URL:http://a.example/~x>\n").expect("write");
    let urlint = assert_cmd::cargo::cargo_bin!("urlint");
    let shell = |args: &str| {
        let output = std::process::Command::new("sh")
            .current_dir(dir.path())
            .arg("-c")
            .arg(format!("exec \"$0\" {args} <&-"))
            .arg(urlint)
            .output()
            .expect("sh runs");
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let closed = "urlint: <stdin>: cannot read: standard input is closed";
    for args in [
        "check --isolated -",
        "extract -",
        "validate",
        "fmt --check -",
    ] {
        let (code, _, stderr) = shell(args);
        assert_eq!(code, 2, "{args}: {stderr}");
        assert!(stderr.starts_with(closed), "{args}: {stderr}");
    }
    let (code, stdout, stderr) = shell("check --isolated --format short - f.txt");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(closed), "{stderr}");
    assert!(
        stdout.contains("f.txt:1:"),
        "f.txt is still checked: {stdout}"
    );
    let (code, _, stderr) = shell("check --isolated f.txt");
    assert_eq!((code, stderr.contains("stdin")), (1, false), "{stderr}");
}

/// `--output-file` writes through a device, FIFO or link as the shell's `>`
/// would, and replaces only a regular file: as root, a report renamed over
/// `/dev/full` or `/dev/null` would have replaced the machine's device.
#[cfg(unix)]
#[test]
fn an_output_file_that_is_a_device_or_link_is_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let (code, stdout, _) = check(&["--output-file", "/dev/null"]);
    assert_eq!((code, stdout.as_str()), (1, ""), "the findings' exit code");
    let null = std::fs::metadata("/dev/null").expect("/dev/null");
    assert!(null.file_type().is_char_device());
    if std::path::Path::new("/dev/full").exists() {
        let (code, _, stderr) = check(&["--output-file", "/dev/full"]);
        assert_eq!(code, 2, "a full device is trouble: {stderr}");
        assert!(stderr.contains("No space left on device"), "{stderr}");
        let full = std::fs::metadata("/dev/full").expect("/dev/full");
        assert!(
            full.file_type().is_char_device(),
            "/dev/full is still a device"
        );
    }
    // A link to another report: the link stays, the report behind it is new.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("report.txt"), "old report\n").expect("write");
    let link = dir.path().join("latest.txt");
    std::os::unix::fs::symlink("report.txt", &link).expect("link");
    let (_, stdout, _) = check(&["--format", "short"]);
    check(&[
        "--format",
        "short",
        "--output-file",
        &link.to_string_lossy(),
    ]);
    assert!(std::fs::symlink_metadata(&link)
        .expect("link")
        .file_type()
        .is_symlink());
    let written = std::fs::read_to_string(dir.path().join("report.txt")).expect("read");
    assert_eq!(written, stdout);
    assert_eq!(entries(dir.path()).len(), 2, "no temporary file left");
}
