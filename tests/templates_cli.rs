//! Templates and placeholders on the command line (fixtures/templates/):
//! a URL built from placeholders draws no URL error, its literal parts are
//! still checked, a malformed RFC 6570 expression is `bad-template`, a
//! regular expression holding a scheme is no URL, urlint's configuration
//! is not linted, and `--no-templates` or `urlint.toml`'s `templates =
//! false` bring back the characters-only reading.

mod common;

use std::fs;
use std::path::Path;

use common::{run, urlint};

const INPUTS: &str = "fixtures/templates/in";

/// A temporary directory holding the given files.
fn dir_with(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, bytes) in files {
        fs::write(dir.path().join(name), bytes).expect("write file");
    }
    dir
}

/// `urlint ARGS` run in `dir`, whose configuration it discovers.
fn urlint_in(dir: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut command = urlint(args);
    command.current_dir(dir);
    command
}

fn expected(name: &str) -> String {
    fs::read_to_string(format!("fixtures/templates/{name}")).expect("expected output")
}

#[test]
fn placeholders_draw_no_error_and_the_literal_parts_are_checked() {
    let (code, stdout, stderr) = run(&mut urlint(&["check", "--format", "short", INPUTS]));
    assert_eq!(stdout, expected("check.expected"));
    assert_eq!((code, stderr.as_str()), (1, ""));
    // Each file's real problem beside its placeholders is still reported.
    for file in [
        "client.rs",
        "client.py",
        "deploy.sh",
        "page.jinja",
        "api.md",
        "syntax.txt",
    ] {
        assert!(
            stdout
                .lines()
                .any(|line| line.contains(file) && line.contains("unsafe character '~'")),
            "{file}: {stdout}"
        );
    }
    let errors = stdout
        .lines()
        .filter(|line| line.contains("error["))
        .count();
    let template_errors = stdout
        .lines()
        .filter(|line| line.contains("bad-template"))
        .count();
    assert_eq!((errors, template_errors), (9, 2), "{stdout}");
}

#[test]
fn without_templates_every_placeholder_is_read_as_url_characters() {
    let args = ["check", "--format", "short", "--no-templates", INPUTS];
    let (code, stdout, _) = run(&mut urlint(&args));
    assert_eq!(stdout, expected("check-no-templates.expected"));
    assert_eq!(code, 1);
    for (place, rule) in [
        ("client.rs:10:", "bad-host"),
        ("client.py:9:", "bad-host"),
        ("deploy.sh:8:", "bad-host"),
        ("syntax.txt:5:", "bad-port"),
        ("syntax.txt:13:", "bad-host"),
    ] {
        assert!(
            stdout
                .lines()
                .any(|line| line.contains(place) && line.contains(rule)),
            "{place} {rule}: {stdout}"
        );
    }
    assert!(!stdout.contains("bad-template"), "{stdout}");
}

#[test]
fn extract_names_each_templates_languages() {
    let (code, stdout, stderr) = run(&mut urlint(&["extract", "--format", "jsonl", INPUTS]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    let listed: String = stdout
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
            let languages = match &record["template"] {
                serde_json::Value::Null => "-".to_string(),
                template => template["languages"]
                    .as_array()
                    .expect("languages")
                    .iter()
                    .map(|language| language.as_str().expect("a name"))
                    .collect::<Vec<_>>()
                    .join(","),
            };
            let (path, line, url) = (&record["path"], &record["line"], &record["url"]);
            format!(
                "{}:{line} {} {languages}\n",
                path.as_str().expect("a path"),
                url.as_str().expect("a URL")
            )
        })
        .collect();
    assert_eq!(listed, expected("extract.expected"));
    // Each placeholder is placed on its bytes of the URL.
    for line in stdout.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        let url = record["url"].as_str().expect("a URL");
        for placeholder in record["template"]["placeholders"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let start = placeholder["url_start"].as_u64().expect("start") as usize;
            let end = placeholder["url_end"].as_u64().expect("end") as usize;
            assert_eq!(&url[start..end], placeholder["text"], "{url}");
        }
    }
}

#[test]
fn regular_expressions_holding_a_scheme_are_not_urls() {
    let (_, stdout, _) = run(&mut urlint(&["extract", INPUTS]));
    assert!(!stdout.contains("git\\.example"), "{stdout}");
    assert!(!stdout.contains("urn:cid"), "{stdout}");
    let (_, literal, _) = run(&mut urlint(&["extract", "--no-templates", INPUTS]));
    assert!(
        literal.contains("urn:cid:.+@([^\\.]+\\.)(.*)$!\\2!i"),
        "{literal}"
    );
}

#[test]
fn urlints_own_configuration_is_not_linted() {
    // Named on the command line, as a pre-commit hook names a changed file.
    let own = format!("{INPUTS}/urlint.toml");
    let (code, stdout, stderr) = run(&mut urlint(&["check", "--format", "short", &own]));
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
    // A pyproject.toml's [tool.urlint] tables are skipped, the rest read.
    let pyproject = format!("{INPUTS}/pyproject.toml");
    let (_, stdout, _) = run(&mut urlint(&["extract", &pyproject]));
    assert_eq!(
        stdout,
        "https://tides.example.org/\nhttp://tides.example.org/~archive/\n"
    );
    // A hidden .urlint.toml is the configuration too, and not linted.
    let dir = dir_with(&[
        (
            ".urlint.toml",
            b"# see http://docs.example.org/~config\n[urls]\nexclude = ['http://localhost']\n",
        ),
        ("notes.txt", b"see http://localhost:8080/~x\n"),
    ]);
    let (code, stdout, _) = run(&mut urlint_in(
        dir.path(),
        &["check", "--format", "short", "--hidden", "."],
    ));
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn the_configuration_turns_templates_off_as_the_flag_does() {
    let source = fs::read(format!("{INPUTS}/client.rs")).expect("fixture");
    let with_config = dir_with(&[
        ("urlint.toml", b"[urls]\ntemplates = false\n"),
        ("client.rs", &source),
    ]);
    let args = ["check", "--format", "short", "client.rs"];
    let (_, off, _) = run(&mut urlint_in(with_config.path(), &args));
    let plain = dir_with(&[("client.rs", &source)]);
    let flagged = ["check", "--format", "short", "--no-templates", "client.rs"];
    let (_, flag, _) = run(&mut urlint_in(plain.path(), &flagged));
    assert_eq!(off, flag);
    let (_, on, _) = run(&mut urlint_in(plain.path(), &args));
    assert!(off.lines().count() > on.lines().count(), "{off}\n{on}");
}

#[test]
fn validate_reads_a_template_and_names_its_flaw() {
    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "--format",
        "short",
        "https://api.example.org/repos/{owner}/{repo}{?page,per_page}",
        "http://%s:%d/status",
    ]));
    assert_eq!((code, stdout.as_str()), (0, ""));
    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "--format",
        "short",
        "https://api.example.org/search{=q}",
    ]));
    assert_eq!(code, 1);
    assert!(
        stdout.contains("error[bad-template]: operator '=' is reserved"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "--format",
        "short",
        "--no-templates",
        "http://%s:%d/status",
    ]));
    assert_eq!(code, 1);
    assert!(stdout.contains("bad-host"), "{stdout}");
}
