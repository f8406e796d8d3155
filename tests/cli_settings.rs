//! Which settings a run uses, through the real binary: `-v` naming the
//! configuration file, `check --show-settings`, and `[per-file-ignores]`.

mod common;

use std::fs;
use std::path::Path;

use common::{run, transcript, urlint};

/// `urlint ARGS` run in `dir`.
fn urlint_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut command = urlint(args);
    command.current_dir(dir);
    run(&mut command)
}

/// A temporary project: `urlint.toml` holding `config`, and `files`.
fn project(config: Option<&str>, files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    if let Some(config) = config {
        fs::write(dir.path().join("urlint.toml"), config).expect("write config");
    }
    for (name, text) in files {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        fs::write(path, text).expect("write file");
    }
    dir
}

/// The canonical form of `dir`, as urlint names it (temporary directories
/// can sit behind a symbolic link).
fn shown(dir: &Path) -> String {
    dir.display().to_string()
}

#[test]
fn verbose_names_the_configuration_file_as_an_absolute_path() {
    let dir = project(
        Some("[rules]\nbare-url = \"warning\"\n"),
        &[("docs/a.txt", "")],
    );
    let docs = dir.path().join("docs");
    for command in ["check", "extract"] {
        let (code, _, stderr) = urlint_in(&docs, &[command, "-v", "a.txt"]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            stderr,
            format!(
                "urlint: note: configuration: {}\n",
                shown(&dir.path().join("urlint.toml"))
            ),
            "{command}"
        );
    }
    // A relative --config is made absolute.
    let (_, _, stderr) = urlint_in(
        dir.path(),
        &[
            "validate",
            "-v",
            "--config",
            "urlint.toml",
            "http://a.example/",
        ],
    );
    assert_eq!(
        stderr,
        format!(
            "urlint: note: configuration: {}\n",
            shown(&dir.path().join("urlint.toml"))
        )
    );
}

#[test]
fn verbose_says_when_no_configuration_is_used() {
    let dir = project(None, &[("a.txt", "")]);
    let (_, _, stderr) = urlint_in(dir.path(), &["check", "--verbose", "a.txt"]);
    assert_eq!(
        stderr,
        format!(
            "urlint: note: no configuration file found in {} or its parents; using the defaults\n",
            shown(dir.path())
        )
    );
    let (_, _, stderr) = urlint_in(dir.path(), &["check", "-v", "--isolated", "a.txt"]);
    assert_eq!(
        stderr,
        "urlint: note: configuration files ignored (--isolated)\n"
    );
}

/// `explain` reads no configuration and writes no report: it offers no
/// output options, and the global ones only under their own heading (they
/// go on either side of any command's name).
#[test]
fn explain_offers_no_output_options_and_the_global_ones_apart() {
    let (code, help, _) = run(&mut urlint(&["explain", "--help"]));
    assert_eq!(code, 0);
    for option in ["--color", "--output-file", "--format"] {
        assert!(!help.contains(option), "explain --help lists {option}");
    }
    let global = help
        .split_once("Global options:\n")
        .expect("a Global options heading")
        .1;
    for option in ["--config", "--isolated", "--quiet", "--verbose"] {
        assert!(global.contains(option), "{help}");
    }
    let (code, _, stderr) = run(&mut urlint(&["explain", "--color", "never"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("unexpected argument '--color'"), "{stderr}");
}

#[test]
fn show_settings_of_a_configuration_file() {
    let mut output = transcript(&mut urlint(&[
        "check",
        "--config",
        "fixtures/config/strict.toml",
        "--ignore",
        "bad-port",
        "--show-settings",
    ]));
    // The comment names the file by its absolute path.
    let root = env!("CARGO_MANIFEST_DIR");
    output = output.replace(root, "[ROOT]");
    insta::assert_snapshot!(output);
}

#[test]
fn show_settings_read_back_give_the_same_settings() {
    let config = "[rules]\nhyphen-break = \"off\"\n\
                  [schemes]\nextra = [\"irc\"]\n\
                  [urls]\nexclude = ['^http://localhost(:\\d+)?/']\n\
                  [paths]\nexclude = [\"vendor\"]\n\
                  [per-file-ignores]\n\"tests/**\" = [\"unsafe-char\"]\n";
    let dir = project(Some(config), &[]);
    let (code, settings, stderr) = urlint_in(
        dir.path(),
        &["check", "--warn", "bad-port", "--show-settings"],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(settings.contains("bad-port = \"warning\"\n"), "{settings}");
    assert!(settings.contains("hyphen-break = \"off\"\n"), "{settings}");
    fs::write(dir.path().join("settings.toml"), &settings).expect("write");
    let (code, again, stderr) = urlint_in(
        dir.path(),
        &["check", "--config", "settings.toml", "--show-settings"],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    let body = |text: &str| {
        text.lines()
            .skip_while(|line| line.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(body(&again), body(&settings));
}

/// A tree where every file has the same two findings: `unsafe-char` and
/// `bad-port`.
const BAD: &str = "see http://a.example:99999/~x\n";

#[test]
fn per_file_ignores_only_affect_matching_files() {
    let config = "[per-file-ignores]\n\
                  \"tests/**\" = [\"unsafe-char\"]\n\
                  \"*.eml.txt\" = [\"unsafe-char\", \"bad-port\"]\n";
    let files = [
        ("docs/a.txt", BAD),
        ("tests/b.txt", BAD),
        ("tests/deep/c.txt", BAD),
        ("src/tests/d.txt", BAD),
        ("archive/e.eml.txt", BAD),
    ];
    let dir = project(Some(config), &files);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check", "--format", "short", "-j", "1"]);
    assert_eq!((code, stderr.as_str()), (1, ""));
    insta::assert_snapshot!(stdout);

    // The same tree checked from a subdirectory: globs stay relative to the
    // configuration file, and named files are covered too.
    let (_, from_tests, _) = urlint_in(
        &dir.path().join("tests"),
        &["check", "--format", "short", "b.txt", "../docs/a.txt"],
    );
    let rules: Vec<&str> = from_tests
        .lines()
        .map(|line| line.split(": ").nth(1).unwrap_or_default())
        .collect();
    assert_eq!(
        rules,
        ["error[bad-port]", "error[bad-port]", "error[unsafe-char]"],
        "{from_tests}"
    );

    // --isolated drops the table with the rest of the file.
    let (_, isolated, _) = urlint_in(dir.path(), &["check", "--format", "short", "--isolated"]);
    assert_eq!(isolated.lines().count(), 2 * files.len());
}

#[test]
fn per_file_ignores_reject_unknown_rules_with_a_suggestion() {
    let config = "[rules]\nbare-url = \"off\"\n\n[per-file-ignores]\n\
                  \"tests/**\" = [\"unsafe-char\", \"bad-prot\"]\n";
    let dir = project(Some(config), &[("a.txt", BAD)]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    let stderr = stderr.replace(&shown(dir.path()), "[DIR]");
    insta::assert_snapshot!(stderr);
}
