//! How `check` finds and reads its inputs: directory walks with .gitignore,
//! hidden files and globs, binary and non-UTF-8 files, unreadable paths.
//!
//! These tests read the human summary line ("checked N files") and the
//! verbose notes, so they do not depend on what the linter finds.

mod common;

use std::fs;
use std::path::Path;

use common::{after_config_note, run, urlint};

/// A tree with a .gitignore, a hidden file, a nested directory and a binary.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    let files: &[(&str, &[u8])] = &[
        (".gitignore", b"generated/\n*.log\n"),
        ("guide.md", b"See <URL:http://www.example.org/guide>.\n"),
        ("notes/todo.txt", b"nothing here\n"),
        ("generated/api.md", b"<URL:http://gen.example.org/>\n"),
        ("build.log", b"http://log.example.org/\n"),
        (".secret/keys.txt", b"ftp://hidden.example.org/\n"),
        ("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
    ];
    for (name, bytes) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create directory");
        }
        fs::write(path, bytes).expect("write file");
    }
    dir
}

/// Run `check` on `dir` with `extra` flags and return (exit, stdout, stderr).
fn check_dir(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["check", "--color", "never"];
    args.extend_from_slice(extra);
    let mut command = urlint(&args);
    command.arg(dir);
    run(&mut command)
}

/// The "checked N files" count of a human summary.
fn files_checked(stdout: &str) -> usize {
    let summary = stdout.lines().last().unwrap_or_default();
    summary
        .strip_prefix("checked ")
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no summary in {stdout:?}"))
}

#[test]
fn walk_respects_gitignore_and_hidden_files() {
    let dir = tree();
    // By default: guide.md and notes/todo.txt. logo.png is binary (skipped),
    // .gitignore and .secret/ are hidden, generated/ and build.log ignored.
    let cases: &[(&[&str], usize)] = &[
        (&[], 2),
        (&["--no-ignore"], 4),
        (&["--hidden"], 4),
        (&["--hidden", "--no-ignore"], 6),
        (&["--glob", "*.md"], 1),
        (&["--exclude", "notes"], 1),
        (&["--glob", "*.md", "--no-ignore"], 2),
    ];
    for &(flags, expected) in cases {
        let (code, stdout, stderr) = check_dir(dir.path(), flags);
        assert!(code == 0 || code == 1, "{flags:?}: {stderr}");
        assert_eq!(files_checked(&stdout), expected, "{flags:?}: {stdout}");
    }
}

#[test]
fn a_file_named_explicitly_is_read_even_if_ignored() {
    let dir = tree();
    let (_, stdout, _) = check_dir(&dir.path().join("build.log"), &[]);
    assert_eq!(files_checked(&stdout), 1);
}

#[test]
fn binary_and_latin1_files_are_noted_in_verbose_mode() {
    let dir = tree();
    fs::write(
        dir.path().join("latin1.txt"),
        b"Caf\xE9 <URL:http://www.example.org/>\n",
    )
    .expect("write file");
    let (_, quiet_out, quiet_err) = check_dir(dir.path(), &[]);
    assert_eq!(quiet_err, "");
    let (_, stdout, stderr) = check_dir(dir.path(), &["--verbose"]);
    assert_eq!(stdout, quiet_out, "notes go to stderr only");
    let logo = dir.path().join("logo.png");
    let latin1 = dir.path().join("latin1.txt");
    assert_eq!(
        after_config_note(&stderr),
        format!(
            "urlint: note: {}: not valid UTF-8: 1 byte(s) read as Latin-1 characters; \
             offsets index the decoded text\n\
             urlint: note: {}: skipped: binary file (NUL byte in the first 8 KiB)\n",
            latin1.display(),
            logo.display()
        )
    );
    // The Latin-1 file is checked, not dropped.
    assert_eq!(files_checked(&stdout), 3);
}

#[test]
fn verbose_notes_come_in_path_order_for_any_thread_count() {
    let dir = tempfile::tempdir().expect("temporary directory");
    for index in 0..40 {
        fs::write(dir.path().join(format!("blob{index:02}.bin")), b"\0binary").expect("write file");
    }
    let expected: String = (0..40)
        .map(|index| {
            let path = dir.path().join(format!("blob{index:02}.bin"));
            format!(
                "urlint: note: {}: skipped: binary file (NUL byte in the first 8 KiB)\n",
                path.display()
            )
        })
        .collect();
    for threads in ["1", "2", "8"] {
        let (code, stdout, stderr) = check_dir(dir.path(), &["--verbose", "-j", threads]);
        assert_eq!(code, 0);
        assert_eq!(after_config_note(&stderr), expected, "-j {threads}");
        assert_eq!(
            stdout,
            "checked 0 files, found 0 URLs: 0 errors, 0 warnings\n"
        );
    }
}

#[test]
fn missing_file_is_reported_and_the_rest_still_checked() {
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "fixtures/no-such-file.txt",
        "fixtures/mail.txt",
    ]));
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "urlint: fixtures/no-such-file.txt: cannot read: No such file or directory (os error 2)\n"
    );
    assert_eq!(files_checked(&stdout), 1);
}

#[test]
fn unreadable_paths_exit_2_after_checking_the_rest() {
    let dir = tree();
    let good = dir.path().join("guide.md");
    // Reading fails even as root: a dangling symlink and a path through a file.
    let dangling = dir.path().join("dangling.md");
    std::os::unix::fs::symlink(dir.path().join("gone.md"), &dangling).expect("symlink");
    let through_file = good.join("child.md");
    let mut unreadable = vec![dangling.clone(), through_file.clone()];
    // chmod 000 only stops non-root users; include it when it does.
    let locked = dir.path().join("locked.md");
    fs::write(&locked, "secret\n").expect("write file");
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).expect("chmod");
    if fs::read(&locked).is_err() {
        unreadable.push(locked.clone());
    }
    let mut command = urlint(&["check", "--color", "never"]);
    command.args(&unreadable).arg(&good);
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(
        files_checked(&stdout),
        1,
        "the readable file is still checked"
    );
    assert_eq!(stderr.lines().count(), unreadable.len(), "{stderr}");
    for (line, path) in stderr.lines().zip(&unreadable) {
        assert!(
            line.starts_with(&format!("urlint: {}: cannot read: ", path.display())),
            "{line}"
        );
    }
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o644)).expect("chmod back");
}

#[test]
fn no_path_walks_the_current_directory_with_relative_names() {
    let dir = tree();
    fs::write(dir.path().join("zz.bin"), b"\0").expect("write file");
    let mut command = urlint(&["check", "--verbose", "--color", "never"]);
    command.current_dir(dir.path());
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(files_checked(&stdout), 2);
    assert_eq!(
        after_config_note(&stderr),
        "urlint: note: logo.png: skipped: binary file (NUL byte in the first 8 KiB)\n\
         urlint: note: zz.bin: skipped: binary file (NUL byte in the first 8 KiB)\n"
    );
}
