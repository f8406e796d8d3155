//! The configuration file through the real binary: a file that silences a
//! rule, discovery from a subdirectory, errors, and flags over the file.

mod common;

use std::path::Path;

use common::{run, transcript, urlint};

const NOTES: &str = "fixtures/config/notes.md";

/// `urlint` run in `dir` (outside the repository, so no file of ours is
/// discovered by accident).
fn urlint_in(dir: &Path, args: &[&str]) -> assert_cmd::Command {
    let mut command = urlint(args);
    command.current_dir(dir);
    command
}

/// A temporary project: `urlint.toml` with `config` at its root and
/// `docs/notes.md` with `text`.
fn project(config: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("docs")).expect("mkdir");
    std::fs::write(dir.path().join("urlint.toml"), config).expect("write config");
    std::fs::write(dir.path().join("docs/notes.md"), text).expect("write text");
    dir
}

#[test]
fn without_config_the_tilde_fails_the_run() {
    insta::assert_snapshot!(transcript(&mut urlint(&[
        "check",
        "--isolated",
        "--format",
        "short",
        NOTES
    ])));
}

#[test]
fn a_config_that_silences_unsafe_char_passes_the_run() {
    insta::assert_snapshot!(transcript(&mut urlint(&[
        "check",
        "--config",
        "fixtures/config/silence-unsafe-char.toml",
        "--format",
        "short",
        NOTES
    ])));
}

#[test]
fn strict_rfc_config_uses_every_table() {
    insta::assert_snapshot!(transcript(&mut urlint(&[
        "check",
        "--config",
        "fixtures/config/strict.toml",
        "--format",
        "short",
        "fixtures/config/rfc-text.txt"
    ])));
}

#[test]
fn the_file_is_found_from_a_subdirectory() {
    let dir = project(
        "[rules]\nunsafe-char = \"off\"\n",
        "<URL:http://a.example/~x>\n",
    );
    let docs = dir.path().join("docs");
    let (code, stdout, _) = run(&mut urlint_in(&docs, &["check", "--format", "short"]));
    assert_eq!((code, stdout.as_str()), (0, ""));
    let (code, stdout, _) = run(&mut urlint_in(
        &docs,
        &["check", "--format", "short", "--isolated"],
    ));
    assert_eq!(code, 1);
    assert!(stdout.contains("error[unsafe-char]"), "{stdout}");
}

#[test]
fn a_bad_file_is_exit_2_naming_the_key_and_line() {
    let dir = project(
        "[rules]\nbad-port = \"error\"\nhyphen_break = \"off\"\n",
        "",
    );
    let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &["check"]));
    assert_eq!((code, stdout.as_str()), (2, ""));
    let stderr = stderr.replace(&dir.path().display().to_string(), "<project>");
    insta::assert_snapshot!(stderr);
    // `explain` documents the defaults and still works beside a broken file.
    let (code, _, _) = run(&mut urlint_in(dir.path(), &["explain", "bad-port"]));
    assert_eq!(code, 0);
}

#[test]
fn flags_override_the_file() {
    let dir = project(
        "[rules]\nunsafe-char = \"off\"\nscheme-case = \"error\"\nbare-url = \"error\"\n",
        "<URL:HTTP://a.example/~x> and http://b.example/\n",
    );
    let check = |flags: &[&str]| {
        let mut args = vec!["check", "--format", "short"];
        args.extend_from_slice(flags);
        let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &args));
        assert_eq!(stderr, "", "{flags:?}");
        let rules: Vec<String> = stdout
            .lines()
            .filter_map(|line| line.split(": ").nth(1).map(str::to_string))
            .collect();
        (code, rules)
    };
    assert_eq!(
        check(&[]),
        (
            1,
            vec!["error[scheme-case]".into(), "error[bare-url]".into()]
        )
    );
    assert_eq!(
        check(&["--ignore", "bare-url", "--warn", "scheme-case,unsafe-char"]),
        (
            0,
            vec!["warning[scheme-case]".into(), "warning[unsafe-char]".into()]
        )
    );
    assert_eq!(
        check(&["--select", "unsafe-char", "--deny", "warnings"]),
        (1, vec!["warning[unsafe-char]".into()])
    );
}

#[test]
fn path_excludes_apply_to_files_named_on_the_command_line() {
    let dir = project(
        "[paths]\nexclude = [\"docs\"]\n",
        "<URL:http://a.example/~x>\n",
    );
    std::fs::write(dir.path().join("top.md"), "<URL:http://b.example/~y>\n").expect("write");
    let (code, stdout, _) = run(&mut urlint_in(
        dir.path(),
        &["check", "--format", "short", "docs/notes.md", "top.md"],
    ));
    assert_eq!(code, 1);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("top.md:1:"), "{stdout}");
}

#[test]
fn extract_lists_what_the_file_makes_a_url() {
    let dir = project(
        "[schemes]\nextra = [\"irc\"]\n[urls]\nexclude = ['^http://localhost']\n",
        "see irc:tides, http://localhost/y and http://host.example/z\n",
    );
    let (code, stdout, _) = run(&mut urlint_in(dir.path(), &["extract"]));
    assert_eq!(
        (code, stdout.as_str()),
        (0, "irc:tides\nhttp://host.example/z\n")
    );
}

#[test]
fn validate_honours_removed_schemes_and_url_excludes() {
    let dir = project(
        "[schemes]\nremove = [\"gopher\"]\n[urls]\nexclude = ['^http://localhost']\n",
        "",
    );
    let validate = |urls: &[&str]| {
        let mut args = vec!["validate", "--format", "short"];
        args.extend_from_slice(urls);
        let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &args));
        assert_eq!(stderr, "", "{urls:?}");
        (code, stdout)
    };
    let (code, stdout) = validate(&["gopher://g.example/1menu"]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "<arguments>:1:1: warning[unknown-scheme]: scheme 'gopher' is not accepted here: \
         the configuration removes it\n"
    );
    // An excluded URL is not reported, as `check` does not report it.
    assert_eq!(validate(&["http://localhost/~dev"]), (0, String::new()));
    let (code, stdout) = validate(&["http://localhost/~dev", "http://host.example/~x"]);
    assert_eq!(code, 1);
    assert!(
        stdout.starts_with("<arguments>:2:21: error[unsafe-char]"),
        "{stdout}"
    );
    // The same configuration, read from stdin.
    let mut stdin = urlint_in(dir.path(), &["validate", "--format", "short"]);
    stdin.write_stdin("gopher://g.example/1menu\nhttp://localhost/~dev\n");
    let (code, stdout, _) = run(&mut stdin);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("<stdin>:1:1: warning[unknown-scheme]"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
}

#[test]
fn config_and_isolated_conflict() {
    let (code, _, stderr) = run(&mut urlint(&[
        "check",
        "--config",
        "urlint.toml",
        "--isolated",
    ]));
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

#[test]
fn a_huge_bad_pattern_is_quoted_around_its_error_only() {
    let cases = [
        (
            format!("({}", "a".repeat(1_000_000)),
            "invalid regular expression: unclosed group, at character 1 of a \
             1000001-character pattern:\n    (aaaa",
        ),
        (
            format!("{})", "a".repeat(1_000_000)),
            "invalid regular expression: unopened group, at character 1000001 of a \
             1000001-character pattern:\n    …aaaa",
        ),
    ];
    for (pattern, expected) in cases {
        let config = format!("[rules]\nbad-port = \"off\"\n\n[urls]\nexclude = [\"{pattern}\"]\n");
        let dir = project(&config, "http://a.example/\n");
        let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &["check", "docs"]));
        assert_eq!((code, stdout.as_str()), (2, ""));
        assert!(stderr.len() < 1_000, "{} bytes of stderr", stderr.len());
        assert!(
            stderr.contains("TOML parse error at line 5, column 11\n"),
            "{stderr}"
        );
        assert!(stderr.contains(expected), "{stderr}");
    }
}

/// A glob braces nested past what the glob compiler takes.
fn too_deep_glob() -> String {
    format!("{}b{}", "{a,".repeat(200), "}".repeat(200))
}

#[test]
fn a_glob_that_does_not_compile_ends_the_run_before_anything_is_read_or_reported() {
    let deep = too_deep_glob();
    // (configuration, flags, what stderr names)
    let cases: Vec<(String, Vec<String>, String)> = vec![
        (
            String::new(),
            vec!["--glob".into(), "[".into()],
            "urlint: invalid --glob: error parsing glob '[': unclosed character class".into(),
        ),
        (
            String::new(),
            vec![
                "--glob".into(),
                "*.md".into(),
                "--exclude".into(),
                deep.clone(),
            ],
            format!("urlint: invalid --exclude: error parsing glob '{deep}': too complex to match"),
        ),
        (
            format!("[paths]\nexclude = [\"{deep}\"]\n"),
            Vec::new(),
            format!("[paths]: error parsing glob '{deep}': too complex to match"),
        ),
        (
            format!("[kinds]\ntext = [\"{deep}\"]\n"),
            Vec::new(),
            format!("[kinds]: error parsing glob '{deep}': too complex to match"),
        ),
    ];
    for (config, flags, named) in &cases {
        let dir = project(config, "see http://a.example/~x\n");
        let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
        for command in [
            &["check"][..],
            &["check", "--format", "json"],
            &["check", "--fix"],
            &["check", "--diff"],
            &["check", "--output-file", "report.txt"],
            &["extract"],
            &["fmt", "--check"],
        ] {
            let args: Vec<&str> = command
                .iter()
                .chain(&flags)
                .copied()
                .chain(["docs"])
                .collect();
            let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &args));
            assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
            assert!(stderr.contains(named.as_str()), "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: said once: {stderr}");
        }
        assert!(!dir.path().join("report.txt").exists(), "no report written");
        let notes = std::fs::read_to_string(dir.path().join("docs/notes.md")).expect("read");
        assert_eq!(notes, "see http://a.example/~x\n", "nothing fixed");
    }
}
