//! `urlint fmt` through the real binary: long bare URLs wrapped the RFC
//! 1738 Appendix way, the same URLs extracted before and after, a second
//! run changing nothing, `--check` and `--diff`, and files that are not
//! plain text left alone.

mod common;

use std::fs;
use std::path::Path;

use assert_cmd::Command as Urlint;
use common::{apply_patch, run};

/// `urlint ARGS` run in `dir`, without configuration files.
fn urlint_in(dir: &Path, args: &[&str]) -> Urlint {
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("urlint");
    command
        .current_dir(dir)
        .arg(args[0])
        .arg("--isolated")
        .args(&args[1..]);
    command
}

/// A temporary directory holding the fmt fixture as `docs/draft.txt`.
fn draft_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    fs::create_dir(dir.path().join("docs")).expect("mkdir");
    fs::copy("fixtures/fmt/draft.txt", dir.path().join("docs/draft.txt")).expect("copy");
    dir
}

fn extracted(dir: &Path, file: &str) -> String {
    let (code, stdout, stderr) = run(&mut urlint_in(dir, &["extract", file]));
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn appendix_long_urls_are_wrapped_and_extract_the_same() {
    let dir = draft_dir();
    let before = extracted(dir.path(), "docs/draft.txt");
    let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &["fmt", "docs"]));
    assert_eq!((code, stdout.as_str()), (0, ""));
    assert_eq!(stderr, "urlint: wrapped 5 URLs in 1 file\n");
    let expected = fs::read_to_string("fixtures/fmt/draft.wrapped").expect("fixture");
    let formatted = fs::read_to_string(dir.path().join("docs/draft.txt")).expect("read");
    assert_eq!(formatted, expected);
    assert_eq!(extracted(dir.path(), "docs/draft.txt"), before);
    for line in formatted.lines().filter(|line| line.contains("://")) {
        assert!(line.chars().count() <= 72, "{line:?}");
    }
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["fmt", "docs"]));
    assert_eq!(
        (code, stderr.as_str()),
        (0, "urlint: wrapped 0 URLs in 0 files\n")
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("docs/draft.txt")).expect("read"),
        expected
    );
}

#[test]
fn check_lists_and_diff_patches_without_writing() {
    let dir = draft_dir();
    let original = fs::read(dir.path().join("docs/draft.txt")).expect("read");
    let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &["fmt", "--check", "docs"]));
    assert_eq!(code, 1);
    assert_eq!(stdout, "would reformat: docs/draft.txt\n");
    assert_eq!(stderr, "urlint: would wrap 5 URLs in 1 file\n");
    let (code, diff, _) = run(&mut urlint_in(dir.path(), &["fmt", "--diff", "docs"]));
    assert_eq!(code, 1);
    assert!(
        diff.starts_with("--- a/docs/draft.txt\n+++ b/docs/draft.txt\n"),
        "{diff}"
    );
    assert_eq!(
        fs::read(dir.path().join("docs/draft.txt")).expect("read"),
        original
    );
    apply_patch(dir.path(), &diff);
    let expected = fs::read_to_string("fixtures/fmt/draft.wrapped").expect("fixture");
    assert_eq!(
        fs::read_to_string(dir.path().join("docs/draft.txt")).expect("read"),
        expected
    );
}

#[test]
fn width_breaks_after_slashes_and_never_after_a_hyphen() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (code, stdout, _) = run(
        urlint_in(dir.path(), &["fmt", "--width", "40", "-"]).write_stdin(
            "   See http://www.example.org/marie-claude/notes-and-drafts/index.html now.\n",
        ),
    );
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "   See <URL:http://www.example.org/\n   marie-claude/notes-and-drafts/\n   \
         index.html> now.\n"
    );
}

#[test]
fn files_that_are_not_plain_text_are_left_alone() {
    let long =
        "see http://www.example.org/a/very/long/path/that/runs/past/the/width/of/the/line.html\n";
    let dir = tempfile::tempdir().expect("a temporary directory");
    for name in ["notes.md", "page.html", "list.mbox"] {
        fs::write(dir.path().join(name), long).expect("write");
    }
    let (code, _, stderr) = run(&mut urlint_in(
        dir.path(),
        &["fmt", "notes.md", "page.html", "list.mbox"],
    ));
    // Named and left alone fails the run: `fmt --check` must not pass a
    // file it never read for URLs to wrap.
    assert_eq!(code, 2, "{stderr}");
    for name in ["notes.md", "page.html", "list.mbox"] {
        assert!(
            stderr.contains(&format!(
                "urlint: {name}: not formatted: fmt rewrites plain text only"
            )),
            "{stderr}"
        );
        assert_eq!(
            fs::read_to_string(dir.path().join(name)).expect("read"),
            long
        );
    }
    // A link is formatted as the file it leads to, which is the one
    // rewritten: a `.txt` name for a Markdown file does not make it text.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("notes.md", dir.path().join("link.txt")).expect("link");
        let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["fmt", "link.txt"]));
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("link.txt: not formatted: fmt rewrites plain text only"),
            "{stderr}"
        );
        assert_eq!(
            fs::read_to_string(dir.path().join("notes.md")).expect("read"),
            long
        );
        fs::remove_file(dir.path().join("link.txt")).expect("remove the link");
    }
    // A walked directory skips them quietly; `--input text` takes them.
    let (_, _, stderr) = run(&mut urlint_in(dir.path(), &["fmt", "."]));
    assert_eq!(stderr, "urlint: wrapped 0 URLs in 0 files\n");
    let (_, _, stderr) = run(&mut urlint_in(
        dir.path(),
        &["fmt", "--input", "text", "notes.md"],
    ));
    assert_eq!(stderr, "urlint: wrapped 1 URL in 1 file\n");
}
