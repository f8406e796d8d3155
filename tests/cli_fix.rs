//! `urlint check --fix`, `--unsafe-fixes` and `--diff` through the real
//! binary: the exact bytes each fix writes, a second run changing nothing,
//! wrapped URLs fixed on the right lines, Markdown, reStructuredText and
//! HTML fixed in their own bytes (references and escapes replaced whole,
//! the markup around a URL as it was, grid tables aligned), the diff applying with `patch -p1`, and every input that must
//! not be rewritten left alone.

mod common;

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use assert_cmd::Command as Urlint;
use common::{apply_patch, run};

/// `urlint ARGS` run in `dir`, without configuration files.
fn urlint_in(dir: &Path, args: &[&str]) -> Urlint {
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("urlint");
    command
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("URLINT_TEST_BEFORE_REPLACE")
        .env_remove("URLINT_TEST_SIGNAL_BEFORE_REPLACE")
        .arg(args[0])
        .arg("--isolated")
        .args(&args[1..]);
    command
}

/// A temporary directory holding `files`.
fn dir_with(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, bytes) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).expect("create the directory");
        }
        fs::write(path, bytes).expect("write the file");
    }
    dir
}

fn read(dir: &Path, name: &str) -> String {
    fs::read_to_string(dir.join(name)).expect("read the file")
}

/// One fix: the rule, the flags it needs, the text before and after, and
/// how many findings the run fixes.
struct Case {
    rule: &'static str,
    flags: &'static [&'static str],
    before: &'static str,
    after: &'static str,
    fixed: usize,
}

/// Every kind of fix, machine-applicable ones first, then suggestions
/// (which need --unsafe-fixes).
const CASES: &[Case] = &[
    Case {
        rule: "scheme-case",
        flags: &[],
        before: "See <URL:HTTP://h.example/>.\n",
        after: "See <URL:http://h.example/>.\n",
        fixed: 1,
    },
    Case {
        rule: "unsafe-char",
        flags: &[],
        before: "<URL:http://h.example/~u/a[b]>\n",
        after: "<URL:http://h.example/%7Eu/a%5Bb%5D>\n",
        fixed: 3,
    },
    Case {
        rule: "control-char",
        flags: &[],
        before: "<URL:http://h.example/a\u{7f}b>\n",
        after: "<URL:http://h.example/a%7Fb>\n",
        fixed: 1,
    },
    Case {
        rule: "non-ascii",
        flags: &[],
        before: "<URL:http://h.example/café>\n",
        after: "<URL:http://h.example/caf%C3%A9>\n",
        fixed: 1,
    },
    Case {
        rule: "unsafe-char",
        flags: &[],
        before: "<URL:http://h.example/p#a#b>\n",
        after: "<URL:http://h.example/p#a%23b>\n",
        fixed: 1,
    },
    Case {
        rule: "reserved-char",
        flags: &[],
        before: "<URL:http://h.example?q=1>\n",
        after: "<URL:http://h.example/?q=1>\n",
        fixed: 1,
    },
    Case {
        rule: "bad-port",
        flags: &[],
        before: "<URL:http://h.example:/x>\n",
        after: "<URL:http://h.example/x>\n",
        fixed: 1,
    },
    Case {
        rule: "file-host",
        flags: &[],
        before: "<URL:file:/etc/motd>\n",
        after: "<URL:file:///etc/motd>\n",
        fixed: 1,
    },
    Case {
        rule: "unsafe-char",
        flags: &["--profile", "rfc3986"],
        before: "<URL:file:///c|/x>\n",
        after: "<URL:file:///c:/x>\n",
        fixed: 1,
    },
    Case {
        rule: "mailto-address",
        flags: &["--profile", "rfc3986"],
        before: "<URL:mailto:a@b.example?>\n",
        after: "<URL:mailto:a@b.example>\n",
        fixed: 1,
    },
    Case {
        rule: "missing-url-prefix",
        flags: &["--select", "missing-url-prefix"],
        before: "see <http://h.example/>\n",
        after: "see <URL:http://h.example/>\n",
        fixed: 1,
    },
    Case {
        rule: "reserved-char",
        flags: &["--unsafe-fixes"],
        before: "<URL:ftp://h.example/a;b>\n",
        after: "<URL:ftp://h.example/a%3Bb>\n",
        fixed: 1,
    },
    Case {
        rule: "non-ascii",
        flags: &["--unsafe-fixes", "--profile", "rfc3986"],
        before: "<URL:http://café.example/>\n",
        after: "<URL:http://caf%C3%A9.example/>\n",
        fixed: 1,
    },
    Case {
        rule: "file-host",
        flags: &["--unsafe-fixes"],
        before: "<URL:file://h.example:21/x>\n",
        after: "<URL:file://h.example/x>\n",
        fixed: 1,
    },
    Case {
        rule: "nntp-article",
        flags: &["--unsafe-fixes"],
        before: "<URL:nntp://h.example/comp.x/>\n",
        after: "<URL:nntp://h.example/comp.x>\n",
        fixed: 1,
    },
    Case {
        rule: "space-in-wrapper",
        flags: &["--unsafe-fixes"],
        before: "<URL:http://h.example/a b>\n",
        after: "<URL:http://h.example/a%20b>\n",
        fixed: 1,
    },
    Case {
        rule: "hyphen-break",
        flags: &["--unsafe-fixes"],
        before: "<URL:http://h.example/marie-\n  claude>\n",
        after: "<URL:http://h.example/marie%2D\n  claude>\n",
        fixed: 1,
    },
    Case {
        rule: "hyphen-break",
        flags: &["--unsafe-fixes"],
        before: "<URL:http://ds.internic-\n  .example/>\n",
        after: "<URL:http://ds.internic\n  .example/>\n",
        fixed: 1,
    },
    Case {
        rule: "bare-url",
        flags: &["--unsafe-fixes", "--select", "bare-url"],
        before: "see http://h.example/ now\n",
        after: "see <URL:http://h.example/> now\n",
        fixed: 1,
    },
];

#[test]
fn each_fix_writes_exactly_its_bytes_and_a_second_run_changes_nothing() {
    for case in CASES {
        let dir = dir_with(&[("doc.txt", case.before.as_bytes())]);
        let mut args = vec!["check", "--fix"];
        args.extend_from_slice(case.flags);
        args.push("doc.txt");
        let label = format!("{} {:?}", case.rule, case.before);
        if case.flags.contains(&"--unsafe-fixes") {
            let safe: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| *a != "--unsafe-fixes")
                .collect();
            run(&mut urlint_in(dir.path(), &safe));
            assert_eq!(
                read(dir.path(), "doc.txt"),
                case.before,
                "{label}: a suggestion applied unasked"
            );
        }
        let (_, _, stderr) = run(&mut urlint_in(dir.path(), &args));
        assert_eq!(read(dir.path(), "doc.txt"), case.after, "{label}");
        let findings = if case.fixed == 1 {
            "finding"
        } else {
            "findings"
        };
        let summary = format!(
            "urlint: fixed {} {findings} in 1 file; 0 remain\n",
            case.fixed
        );
        assert!(stderr.ends_with(&summary), "{label}: {stderr}");
        let (code, _, stderr) = run(&mut urlint_in(dir.path(), &args));
        assert_eq!(
            read(dir.path(), "doc.txt"),
            case.after,
            "{label}: second run"
        );
        assert!(
            stderr.ends_with("fixed 0 findings in 0 files; 0 remain\n"),
            "{label}: {stderr}"
        );
        assert_eq!(code, 0, "{label}");
    }
}

#[test]
fn appendix_fixes_in_wrapped_urls_land_on_their_lines() {
    let before = fs::read("fixtures/fix/wrapped.txt").expect("fixture");
    let expected = fs::read_to_string("fixtures/fix/wrapped.fixed").expect("fixture");
    let dir = dir_with(&[("wrapped.txt", &before)]);
    let (code, stdout, stderr) = run(&mut urlint_in(
        dir.path(),
        &["check", "--fix", "--format", "short", "wrapped.txt"],
    ));
    assert_eq!(read(dir.path(), "wrapped.txt"), expected);
    // The suggestion is left, reported, and fails the run.
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "wrapped.txt:28:29: error[reserved-char]: reserved character ';' has no role in the \
         ftp path; encode it as %3B\n"
    );
    assert_eq!(stderr, "urlint: fixed 10 findings in 1 file; 1 remain\n");
}

/// The text of `name` in `dir` before, between and after the URLs that
/// `urlint extract` finds in it: what a fix must leave byte for byte.
fn outside_urls(dir: &Path, name: &str) -> Vec<String> {
    let (_, stdout, _) = run(&mut urlint_in(dir, &["extract", "--format", "jsonl", name]));
    let text = fs::read(dir.join(name)).expect("read the file");
    let mut gaps = Vec::new();
    let mut at = 0;
    for line in stdout.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
        let offset = |key: &str| record["outer"][key].as_u64().expect("an offset") as usize;
        gaps.push(String::from_utf8_lossy(&text[at..offset("start")]).into_owned());
        at = offset("end");
    }
    gaps.push(String::from_utf8_lossy(&text[at..]).into_owned());
    gaps
}

#[test]
fn markup_fixes_land_in_their_bytes_and_a_second_run_changes_nothing() {
    // What remains: in harbour.rst a URL in a grid table cell too narrow
    // for its fix. Template placeholders (`{{ version }}`, `{owner}`) are
    // no findings at all.
    let table = "urlint: warning: harbour.rst: 1 fix not applied: the fix would make a line \
                 of a reStructuredText grid table's cell wider than its padding allows";
    let cases = [
        ("notes.md", 17, 0, None),
        ("page.html", 14, 0, None),
        ("harbour.rst", 10, 1, Some(table)),
    ];
    for (name, fixes, remain, warning) in cases {
        let before = fs::read(format!("fixtures/fix/{name}")).expect("fixture");
        let expected = fs::read_to_string(format!("fixtures/fix/{name}.fixed")).expect("fixture");
        let dir = dir_with(&[(name, &before)]);
        let outside = outside_urls(dir.path(), name);
        let args = ["check", "--fix", "--format", "short", name];
        let (code, stdout, stderr) = run(&mut urlint_in(dir.path(), &args));
        assert_eq!(read(dir.path(), name), expected, "{name}");
        let summary = format!("urlint: fixed {fixes} findings in 1 file; {remain} remain\n");
        assert!(stderr.ends_with(&summary), "{stderr}");
        assert_eq!(
            warning.is_some_and(|warning| stderr.starts_with(warning)),
            stderr != summary,
            "{stderr}"
        );
        assert_eq!(stdout.lines().count(), remain, "{stdout}");
        assert_eq!(code, i32::from(remain > 0), "{name}");
        if warning.is_none() {
            assert_eq!(outside_urls(dir.path(), name), outside, "{name}");
        }
        let (_, again, stderr) = run(&mut urlint_in(dir.path(), &args));
        assert_eq!(read(dir.path(), name), expected, "{name}: second run");
        assert_eq!(again, stdout, "{name}: second run");
        assert!(
            stderr.ends_with(&format!("fixed 0 findings in 0 files; {remain} remain\n")),
            "{stderr}"
        );
    }
}

#[test]
fn a_wrapper_suggested_for_markup_is_written_as_the_markup_reads_it() {
    let prose = b"Prose http://p.example/a?b=1&amp;c=2 here.\n";
    let dir = dir_with(&[("w.html", prose), ("w.md", prose)]);
    let args = [
        "check",
        "--fix",
        "--unsafe-fixes",
        "--select",
        "bare-url",
        "w.html",
        "w.md",
    ];
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &args));
    // In HTML `<` and `&` become references, so the URL reads the same.
    assert_eq!(
        read(dir.path(), "w.html"),
        "Prose &lt;URL:http://p.example/a?b=1&amp;c=2&gt; here.\n"
    );
    // Markdown would read `<URL:...>` as an autolink to a `URL:` scheme,
    // and has no escape that works there: the suggestion is refused.
    assert_eq!(read(dir.path(), "w.md").as_bytes(), prose);
    assert!(
        stderr.contains(
            "urlint: warning: w.md: 1 fix not applied: the replacement holds characters \
             that Markdown or reStructuredText would read as markup"
        ),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("fixed 1 finding in 1 file; 1 remain\n"),
        "{stderr}"
    );
    // What remains is a warning, which does not fail the run.
    assert_eq!(code, 0);
}

#[test]
fn markdown_on_stdin_is_fixed_as_markdown() {
    let dir = dir_with(&[]);
    let (code, stdout, stderr) = run(urlint_in(
        dir.path(),
        &["check", "--fix", "--input", "markdown", "-"],
    )
    .write_stdin("[x](http://h.example/a\\~b) and `http://c.example/~b`\n"));
    assert_eq!(
        stdout,
        "[x](http://h.example/a%7Eb) and `http://c.example/~b`\n"
    );
    assert!(
        stderr.ends_with("urlint: fixed 1 finding in 1 file; 0 remain\n"),
        "{stderr}"
    );
    assert_eq!(code, 0);
}

/// Copy `files` into two directories under `docs/`: fix one with --fix,
/// patch the other with --diff's output, and compare.
#[test]
fn the_diff_applies_with_patch_and_equals_the_fix() {
    let wrapped = fs::read("fixtures/fix/wrapped.txt").expect("fixture");
    let mut files: Vec<(String, Vec<u8>)> = vec![
        ("docs/wrapped.txt".into(), wrapped),
        (
            "docs/clean.txt".into(),
            b"<URL:http://h.example/>\n".to_vec(),
        ),
        (
            "docs/no-newline.txt".into(),
            b"end <URL:HTTP://h.example/~x>".to_vec(),
        ),
        (
            "docs/crlf.txt".into(),
            b"a\r\n<URL:HTTP://h.example/\r\n  ~x>\r\n".to_vec(),
        ),
        (
            "docs/notes.md".into(),
            fs::read("fixtures/fix/notes.md").expect("fixture"),
        ),
        (
            "docs/page.html".into(),
            fs::read("fixtures/fix/page.html").expect("fixture"),
        ),
        (
            "docs/harbour.rst".into(),
            fs::read("fixtures/fix/harbour.rst").expect("fixture"),
        ),
    ];
    files.extend(CASES.iter().enumerate().map(|(index, case)| {
        (
            format!("docs/case-{index}.txt"),
            case.before.as_bytes().to_vec(),
        )
    }));
    let borrowed: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let fixed = dir_with(&borrowed);
    let patched = dir_with(&borrowed);

    let (code, diff, stderr) = run(&mut urlint_in(patched.path(), &["check", "--diff", "docs"]));
    assert_eq!(code, 1, "{stderr}");
    assert!(diff.starts_with("--- a/docs/"), "{diff}");
    for (name, bytes) in &files {
        assert_eq!(
            fs::read(patched.path().join(name)).expect("read"),
            *bytes,
            "--diff wrote {name}"
        );
    }
    // The summary comes last, after harbour.rst's warning about its table.
    let would = stderr
        .lines()
        .last()
        .and_then(|line| line.strip_prefix("urlint: would fix "))
        .expect("a summary line")
        .to_string();

    apply_patch(patched.path(), &diff);

    let (_, _, stderr) = run(&mut urlint_in(fixed.path(), &["check", "--fix", "docs"]));
    assert!(
        stderr.contains(&format!("fixed {would};")),
        "{stderr} vs {would}"
    );
    for (name, _) in &files {
        let via_fix = fs::read(fixed.path().join(name)).expect("read");
        let via_patch = fs::read(patched.path().join(name)).expect("read");
        assert_eq!(
            String::from_utf8_lossy(&via_patch),
            String::from_utf8_lossy(&via_fix),
            "{name}"
        );
    }
    let (code, diff, _) = run(&mut urlint_in(fixed.path(), &["check", "--diff", "docs"]));
    assert_eq!((code, diff.as_str()), (0, ""));
}

#[test]
fn stdin_is_fixed_to_stdout_and_reported_on_stderr() {
    let dir = dir_with(&[]);
    let (code, stdout, stderr) = run(urlint_in(
        dir.path(),
        &["check", "--fix", "--format", "short", "-"],
    )
    .write_stdin("a <URL:HTTP://h.example/~x> b <URL:ftp://h.example/a;b>\n"));
    assert_eq!(
        stdout,
        "a <URL:http://h.example/%7Ex> b <URL:ftp://h.example/a;b>\n"
    );
    assert_eq!(
        stderr,
        "<stdin>:1:55: error[reserved-char]: reserved character ';' has no role in the ftp \
         path; encode it as %3B\nurlint: fixed 2 findings in 1 file; 1 remain\n"
    );
    assert_eq!(code, 1);
    // Input that cannot be rewritten passes through unchanged.
    let mail =
        "From a@b.example Mon Jan  1 00:00:00 2024\nSubject: x\n\n<URL:http://h.example/~x>\n";
    let (_, stdout, _) = run(urlint_in(dir.path(), &["check", "--fix", "-"]).write_stdin(mail));
    assert_eq!(stdout, mail);
}

#[cfg(unix)]
#[test]
fn a_read_only_file_is_refused_with_exit_2_and_the_others_are_fixed() {
    use std::os::unix::fs::PermissionsExt;
    let text = b"<URL:HTTP://h.example/>\n";
    let dir = dir_with(&[("a-locked.txt", text), ("b-open.txt", text)]);
    let locked = dir.path().join("a-locked.txt");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o444)).expect("chmod");
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["check", "--fix", "."]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "urlint: ./a-locked.txt: not rewritten: read-only: the file's mode has no write bit"
        ),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("fixed 1 finding in 1 file; 1 remain\n"),
        "{stderr}"
    );
    assert_eq!(fs::read(&locked).expect("read"), text);
    assert_eq!(read(dir.path(), "b-open.txt"), "<URL:http://h.example/>\n");
}

#[test]
fn a_file_changed_during_the_run_is_reported_and_left_as_it_now_is() {
    let dir = dir_with(&[("doc.txt", b"<URL:HTTP://h.example/>\n")]);
    let (code, _, stderr) = run(urlint_in(dir.path(), &["check", "--fix", "doc.txt"])
        .env("URLINT_TEST_BEFORE_REPLACE", "edited meanwhile\n"));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("doc.txt: not rewritten: the file changed while urlint was working on it"),
        "{stderr}"
    );
    assert_eq!(
        read(dir.path(), "doc.txt"),
        "<URL:HTTP://h.example/>\nedited meanwhile\n"
    );
    let names: Vec<_> = fs::read_dir(dir.path()).expect("list").collect();
    assert_eq!(names.len(), 1, "no temporary file is left behind");
}

/// A process that holds the file open and keeps writing (a logger, an
/// editor's autosave) would write into the replaced file after the rename
/// and lose it: such a file is left alone, with exit 2.
#[cfg(target_os = "linux")]
#[test]
fn a_file_another_process_holds_open_for_writing_is_left_alone() {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let dir = dir_with(&[("doc.txt", b"<URL:HTTP://h.example/>\n")]);
    let path = dir.path().join("doc.txt");
    let probe = fs::File::open(&path).expect("open");
    // SAFETY: fcntl on a descriptor the test owns.
    let leases = unsafe {
        let leased = libc::fcntl(probe.as_raw_fd(), libc::F_SETLEASE, libc::F_RDLCK) == 0;
        libc::fcntl(probe.as_raw_fd(), libc::F_SETLEASE, libc::F_UNLCK);
        leased
    };
    drop(probe);
    if !leases {
        eprintln!("skipped: this file system has no leases, so no open writer can be told");
        return;
    }
    let mut writer = fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .expect("open for writing");
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["check", "--fix", "doc.txt"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("doc.txt: not rewritten: another process has the file open for writing"),
        "{stderr}"
    );
    writer.write_all(b"a line written later\n").expect("write");
    drop(writer);
    assert_eq!(
        read(dir.path(), "doc.txt"),
        "<URL:HTTP://h.example/>\na line written later\n",
        "what the writer wrote is in the file"
    );
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["check", "--fix", "doc.txt"]));
    assert_eq!(code, 0, "fixed once the writer is gone: {stderr}");
    assert_eq!(
        read(dir.path(), "doc.txt"),
        "<URL:http://h.example/>\na line written later\n"
    );
}

/// A run stopped by a signal (Ctrl-C, SIGTERM, SIGHUP) while its temporary
/// file is on disk removes it, ends by the signal as before, and leaves the
/// file as it was.
#[cfg(unix)]
#[test]
fn a_run_stopped_by_a_signal_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let dir = dir_with(&[("doc.txt", b"<URL:HTTP://h.example/>\n")]);
    let mut urlint = urlint_in(dir.path(), &["check", "--fix", "doc.txt"]);
    urlint.env("URLINT_TEST_SIGNAL_BEFORE_REPLACE", "1");
    let output = urlint.output().expect("urlint runs");
    assert_eq!(output.status.signal(), Some(15), "{:?}", output.status);
    assert_eq!(read(dir.path(), "doc.txt"), "<URL:HTTP://h.example/>\n");
    let names: Vec<_> = fs::read_dir(dir.path())
        .expect("list")
        .map(|entry| entry.expect("entry").file_name())
        .collect();
    assert_eq!(names, ["doc.txt"], "no temporary file is left behind");
}

#[test]
fn files_that_are_not_rewritten_keep_their_bytes_and_mtime() {
    let mail =
        b"From a@b.example Mon Jan  1 00:00:00 2024\nSubject: x\n\n<URL:http://h.example/~x>\n";
    let files: &[(&str, &[u8])] = &[
        ("clean.txt", b"nothing to fix: <URL:http://h.example/>\n"),
        ("list.mbox", mail),
        ("binary.dat", b"\0\x01 <URL:HTTP://h.example/~x>\n"),
        (
            "ignored.txt",
            b"<URL:HTTP://h.example/> urlint: ignore[scheme-case]\n",
        ),
    ];
    let dir = dir_with(files);
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    for (name, _) in files {
        let file = fs::File::options()
            .write(true)
            .open(dir.path().join(name))
            .expect("open");
        file.set_modified(old).expect("set mtime");
    }
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["check", "--fix", "."]));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("note: ./list.mbox: not rewritten: mail archives never are"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("fixed 0 findings in 0 files; 1 remain\n"),
        "{stderr}"
    );
    for (name, bytes) in files {
        let path = dir.path().join(name);
        assert_eq!(fs::read(&path).expect("read"), *bytes, "{name}");
        let mtime = fs::metadata(&path)
            .and_then(|meta| meta.modified())
            .expect("mtime");
        assert_eq!(mtime, old, "{name} was rewritten");
    }
}

/// A Latin-1 file (an old RFC mirror, a mail export) is fixed: the fixes
/// are ASCII, and every byte that is not UTF-8 is written back as it was,
/// inside a fixed URL too; a fix that would change such a byte is not
/// applied, and a warning says so. `fmt` still leaves the file alone.
#[test]
fn a_file_that_is_not_utf8_is_fixed_and_keeps_its_other_bytes() {
    let before: &[u8] = b"Caf\xE9 notes \xA9 1994: <URL:HTTP://h.example/~x>\r\n\
        and http://h.example/men\xFC/~y, http://h.example/\xE9t\xE9\n\xFF\n";
    let after: &[u8] = b"Caf\xE9 notes \xA9 1994: <URL:http://h.example/%7Ex>\r\n\
        and http://h.example/men\xFC/%7Ey, http://h.example/\xE9t\xE9\n\xFF\n";
    let dir = dir_with(&[("latin1.txt", before)]);
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["check", "--fix", "."]));
    assert_eq!(code, 1, "the non-ASCII characters remain: {stderr}");
    assert_eq!(
        fs::read(dir.path().join("latin1.txt")).expect("read"),
        after
    );
    assert!(
        stderr.contains("warning: ./latin1.txt: 3 fixes not applied: the fix would change a byte that is not valid UTF-8"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("fixed 3 findings in 1 file; 3 remain\n"),
        "{stderr}"
    );
    // Fixing again changes nothing; the diff shows the characters as read.
    let dir = dir_with(&[("latin1.txt", before)]);
    let (code, diff, _) = run(&mut urlint_in(
        dir.path(),
        &["check", "--diff", "latin1.txt"],
    ));
    assert_eq!(code, 1);
    assert!(
        diff.contains("+and http://h.example/men\u{fc}/%7Ey"),
        "{diff}"
    );
    assert_eq!(
        fs::read(dir.path().join("latin1.txt")).expect("read"),
        before
    );
    let (code, _, stderr) = run(&mut urlint_in(dir.path(), &["fmt", "latin1.txt"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("latin1.txt: not formatted: not valid UTF-8"),
        "{stderr}"
    );
    assert_eq!(
        fs::read(dir.path().join("latin1.txt")).expect("read"),
        before
    );
    // Through stdin, the fixed bytes come out as they went in.
    let mut stdin = urlint_in(dir.path(), &["check", "--fix", "-"]);
    let output = stdin.write_stdin(before).output().expect("runs");
    assert_eq!(output.stdout, after);
}

#[test]
fn the_remaining_findings_are_reported_in_the_chosen_format() {
    let dir = dir_with(&[(
        "doc.txt",
        b"<URL:HTTP://h.example/~x> <URL:ftp://h.example/a;b>\n",
    )]);
    let (code, stdout, stderr) = run(&mut urlint_in(
        dir.path(),
        &["check", "--fix", "--format", "json", "doc.txt"],
    ));
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let findings = &json["files"][0]["urls"][1]["findings"];
    assert_eq!(findings[0]["rule"], "reserved-char");
    assert_eq!(findings[0]["fix"]["applicability"], "suggestion");
    assert_eq!(json["summary"]["errors"], 1);
    assert_eq!(stderr, "urlint: fixed 2 findings in 1 file; 1 remain\n");
}

#[test]
fn unused_suppressions_are_reported_after_the_fixes() {
    // The fixed URL's line and a text line without a URL: both directives
    // silence nothing once the fix is made, and are reported as such.
    let dir = dir_with(&[(
        "doc.txt",
        b"<URL:HTTP://h.example/x> urlint: ignore[bad-port]
plain urlint: ignore
",
    )]);
    let (code, stdout, stderr) = run(&mut urlint_in(
        dir.path(),
        &[
            "check",
            "--fix",
            "--warn",
            "unused-suppression",
            "--format",
            "short",
            "doc.txt",
        ],
    ));
    assert_eq!(
        read(dir.path(), "doc.txt").lines().next(),
        Some("<URL:http://h.example/x> urlint: ignore[bad-port]")
    );
    assert_eq!(code, 0, "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("doc.txt:1:26: warning[unused-suppression]"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("doc.txt:2:7: warning[unused-suppression]"),
        "{stdout}"
    );
    assert_eq!(stderr, "urlint: fixed 1 finding in 1 file; 2 remain\n");
}

#[test]
fn per_file_ignores_keep_their_findings_unfixed() {
    let text: &[u8] = b"<URL:HTTP://h.example/~x>\n";
    let dir = dir_with(&[
        (
            "urlint.toml",
            b"[per-file-ignores]\n\"legacy/**\" = [\"unsafe-char\"]\n",
        ),
        ("legacy/old.txt", text),
        ("new.txt", text),
    ]);
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("urlint");
    command
        .current_dir(dir.path())
        .args(["check", "--fix", "legacy/old.txt", "new.txt"]);
    let (code, _, stderr) = run(&mut command);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        read(dir.path(), "legacy/old.txt"),
        "<URL:http://h.example/~x>\n"
    );
    assert_eq!(read(dir.path(), "new.txt"), "<URL:http://h.example/%7Ex>\n");
}

#[test]
fn unsafe_fixes_needs_fix_or_diff() {
    let dir = dir_with(&[]);
    let (code, _, stderr) = run(&mut urlint_in(
        dir.path(),
        &["check", "--unsafe-fixes", "."],
    ));
    assert_eq!(code, 2);
    assert!(stderr.contains("--fix"), "{stderr}");
}

#[test]
fn an_unknown_schemes_case_is_fixed_only_with_unsafe_fixes() {
    let dir = dir_with(&[]);
    let text = "transport: proj.Transports.Tcp://h.example/q and HTTP://h.example/\n";
    let (_, stdout, _) = run(urlint_in(dir.path(), &["check", "--fix", "-"]).write_stdin(text));
    assert_eq!(
        stdout,
        "transport: proj.Transports.Tcp://h.example/q and http://h.example/\n"
    );
    let (_, stdout, _) =
        run(urlint_in(dir.path(), &["check", "--fix", "--unsafe-fixes", "-"]).write_stdin(text));
    assert_eq!(
        stdout,
        "transport: proj.transports.tcp://h.example/q and http://h.example/\n"
    );
}

/// A named pipe or a device named to a rewriting command is left alone
/// with an error (exit 2: what was asked was not done), at once: opening a pipe would wait for a writer forever,
/// and `/dev/zero` would be read to the end of memory. `--config` refuses
/// them the same way.
#[cfg(unix)]
#[test]
fn pipes_and_devices_are_not_rewritten_and_never_waited_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("notes.txt");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    let commands: [&[&str]; 5] = [
        &["check", "--fix"],
        &["check", "--diff"],
        &["fmt"],
        &["fmt", "--check"],
        &["check", "--fix", "--unsafe-fixes"],
    ];
    for command in commands {
        for target in ["notes.txt", "/dev/zero"] {
            let mut args = command.to_vec();
            args.push(target);
            let mut urlint = urlint_in(dir.path(), &args);
            urlint.timeout(Duration::from_secs(20));
            let (code, _, stderr) = run(&mut urlint);
            // Named, and neither read nor rewritten: the run failed.
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(
                stderr.contains(&format!(
                    "urlint: {target}: not rewritten: not a regular file"
                )),
                "{args:?}: {stderr}"
            );
        }
        // Found by a walk, such a file is passed over with a note.
        let mut args = command.to_vec();
        args.push(".");
        let (code, _, stderr) = run(urlint_in(dir.path(), &args).timeout(Duration::from_secs(20)));
        assert_eq!(code, 0, "{args:?}: {stderr}");
    }
    let mut config = assert_cmd::cargo::cargo_bin_cmd!("urlint");
    config
        .current_dir(dir.path())
        .args(["check", "--config", "notes.txt", "-"])
        .timeout(Duration::from_secs(20))
        .write_stdin("");
    let (code, _, stderr) = run(&mut config);
    assert_eq!(code, 2);
    assert!(stderr.contains("it is not a regular file"), "{stderr}");
    use std::os::unix::fs::FileTypeExt;
    assert!(fs::symlink_metadata(&fifo)
        .expect("fifo")
        .file_type()
        .is_fifo());
}

/// A large binary file is told from its first bytes, as `check` tells it:
/// `--fix` does not read the rest.
#[test]
fn a_binary_file_is_skipped_from_its_head() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("image.bin");
    let file = fs::File::create(&path).expect("create");
    // Sparse: 8 GiB of zeroes that take no disk, and would take 8 GiB of memory.
    file.set_len(8 << 30).expect("set_len");
    let mut urlint = urlint_in(dir.path(), &["check", "--fix", "image.bin"]);
    urlint.timeout(Duration::from_secs(20));
    let (code, _, stderr) = run(&mut urlint);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("skipped: binary file"), "{stderr}");
}
