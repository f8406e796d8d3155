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

/// The "checked N files" count of a human summary (followed, at most, by
/// the line on the other profile).
fn files_checked(stdout: &str) -> usize {
    let summary = stdout
        .lines()
        .rfind(|line| line.starts_with("checked "))
        .unwrap_or_default();
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

#[test]
fn a_file_reached_twice_is_checked_once() {
    let dir = tempfile::tempdir().expect("temporary directory");
    fs::create_dir_all(dir.path().join("d/sub")).expect("create directory");
    fs::write(dir.path().join("d/sub/f.txt"), "http://a.example/~x\n").expect("write file");
    #[cfg(unix)]
    std::os::unix::fs::symlink("d", dir.path().join("link")).expect("link to d");
    let cases: &[&[&str]] = &[
        &["d", "d"],
        &["d", "d/sub/f.txt"],
        &["d/sub/f.txt", "d"],
        &["d/sub/f.txt", "./d/sub/f.txt", "d/sub/../sub/f.txt"],
        &["d/sub", "./d/../d"],
        #[cfg(unix)]
        &["link", "d/sub", "link/sub/f.txt"],
    ];
    for paths in cases {
        let mut command = urlint(&["check", "--isolated", "--format", "short"]);
        command.current_dir(dir.path()).args(*paths);
        let (code, stdout, stderr) = run(&mut command);
        assert_eq!((code, stderr.as_str()), (1, ""), "{paths:?}");
        assert_eq!(stdout.lines().count(), 1, "{paths:?}: {stdout}");
        let mut command = urlint(&["check", "--isolated", "--color", "never"]);
        command.current_dir(dir.path()).args(*paths);
        assert_eq!(files_checked(&run(&mut command).1), 1, "{paths:?}");
    }
}

/// A file with one finding, beside which a named input is given.
#[cfg(unix)]
fn one_finding(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("a.txt");
    fs::write(&path, "see http://a.example/~x\n").expect("write file");
    path
}

#[cfg(unix)]
#[test]
fn a_named_pipe_without_a_writer_is_skipped_and_the_rest_reported() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let file = one_finding(dir.path());
    let mut command = urlint(&["check", "--isolated", "--format", "short"]);
    command
        .arg(&fifo)
        .arg(&file)
        .timeout(std::time::Duration::from_secs(60));
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "{}:1:22: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n",
            file.display()
        )
    );
    assert_eq!(
        stderr,
        format!(
            "urlint: warning: {}: skipped: a named pipe that no process has open for \
             writing (to wait for a writer, give `-` and redirect the pipe to stdin)\n",
            fifo.display()
        )
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_from_process_substitution_is_read_to_its_end() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = one_finding(dir.path());
    // The writer says nothing for a while, then writes, then ends: the read
    // waits for it, then takes everything.
    let script = format!(
        "'{}' check --isolated --format short <(sleep 0.5; printf 'http://b.example/~y\\n') '{}'",
        env!("CARGO_BIN_EXE_urlint"),
        file.display()
    );
    let output = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("/dev/fd/"), "{stdout}");
    assert!(lines[0]
        .ends_with(":1:18: error[unsafe-char]: unsafe character '~' must be encoded as %7E"));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
}
