//! Bad input through the real binary (issue 7): for each kind of garbage a
//! linter in CI or a mail-archive extractor meets, what urlint says on
//! stderr, how it exits, and that the good input next to the bad one is
//! still reported.
//!
//! Every case runs in a temporary directory with a `good.txt` beside the bad
//! input, so each test shows that the run went on. Pathological shapes run
//! under a time limit far below what quadratic work takes on them.

mod common;

use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use common::{after_config_note, run, urlint};

/// The good file every test checks next to its bad input.
const GOOD_NAME: &str = "good.txt";
/// Its text: one URL with one unsafe character.
const GOOD_TEXT: &str = "See <URL:http://good.example/~ann>.\n";
/// The short-format line its one finding gives.
const GOOD_FINDING: &str =
    "good.txt:1:30: error[unsafe-char]: unsafe character '~' must be encoded as %7E";
/// The URL `extract` prints for it.
const GOOD_URL: &str = "http://good.example/~ann";

/// How long any case may take. Quadratic placing of 10,000 findings on one
/// line took 70 to 280 s in a debug build; linear work takes well under 2 s.
const LIMIT: Duration = Duration::from_secs(30);

/// A temporary directory holding `good.txt` and the given files.
fn dir_with(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    write(dir.path(), GOOD_NAME, GOOD_TEXT.as_bytes());
    for (name, bytes) in files {
        write(dir.path(), name, bytes);
    }
    dir
}

/// Write `bytes` to `name` under `dir`, creating parent directories.
fn write(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("create directory");
    }
    fs::write(path, bytes).expect("write file");
}

/// Run `urlint ARGS` in `dir` (so reports name files relatively) within
/// [`LIMIT`]; returns (exit code, stdout, stderr) and fails past the limit.
fn urlint_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let started = Instant::now();
    let mut command = urlint(args);
    command.current_dir(dir).timeout(LIMIT);
    let result = run(&mut command);
    let elapsed = started.elapsed();
    assert!(elapsed < LIMIT, "urlint {args:?} took {elapsed:?}");
    result
}

/// The short-format lines of a `check --format short` run.
fn lines(stdout: &str) -> Vec<&str> {
    stdout.lines().collect()
}

/// Spawn the urlint binary in `dir` with every stream piped.
fn spawn_in(dir: &Path, args: &[&str]) -> Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the urlint binary runs")
}

/// Read a stream to its end, as text, on its own thread (so that a full
/// stderr pipe cannot stall a child whose stdout is being read).
fn read_all(stream: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut stream) = stream {
            // A child killed mid-write leaves what it wrote.
            let _ = stream.read_to_string(&mut text);
        }
        text
    })
}

/// Wait for a spawned child within [`LIMIT`] (killing it past that) and
/// return its exit code (`None` for a signal) and whatever of its stdout
/// and stderr the test has not taken.
fn finish(mut child: Child) -> (Option<i32>, String, String) {
    let stdout = read_all(child.stdout.take());
    let stderr = read_all(child.stderr.take());
    let deadline = Instant::now() + LIMIT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("poll the child") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("urlint did not finish within {LIMIT:?}");
        }
        thread::sleep(Duration::from_millis(10));
    };
    let joined = |reader: thread::JoinHandle<String>| reader.join().expect("reader thread");
    (status.code(), joined(stdout), joined(stderr))
}

/// Spawn `args` in `dir`, read the first bytes of stdout, then close it,
/// as `urlint ... | head -c 16` does; returns what [`finish`] returns.
fn close_stdout_early(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = spawn_in(dir, args);
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut head = [0; 16];
    stdout.read_exact(&mut head).expect("some output");
    drop(stdout);
    finish(child)
}

/// A line of `count` bare URLs, each with one unsafe character; `infix` is
/// put in every path (to make the line non-ASCII, for one).
fn url_line(count: usize, infix: &str) -> String {
    let urls: Vec<String> = (0..count)
        .map(|index| format!("http://a.example/{infix}~u{index}"))
        .collect();
    urls.join(" ") + "\n"
}

#[test]
fn latin1_bytes_around_and_inside_a_url_are_read_as_latin1_and_placed_by_character() {
    // 0xE9 'é' before the URL and in its host, 0xE4 'ä' in its path.
    let latin1: &[u8] = b"Caf\xE9 <URL:http://h\xE9st.example/p\xE4th> x\n";
    let dir = dir_with(&[("latin1.txt", latin1)]);
    let (code, stdout, stderr) = urlint_in(
        dir.path(),
        &["check", "--format", "short", "latin1.txt", GOOD_NAME],
    );
    assert_eq!(code, 1, "{stderr}");
    // Columns count characters: one per Latin-1 byte, as a Latin-1 editor shows.
    assert_eq!(
        lines(&stdout),
        [
            "latin1.txt:1:19: error[bad-host]: character 'é' is not allowed in a host name; \
             the name's ASCII form is xn--hst-bma.example",
            "latin1.txt:1:32: error[non-ascii]: non-ASCII character 'ä' must be encoded as %C3%A4",
            GOOD_FINDING,
        ]
    );
    assert_eq!(stderr, "", "the fallback is a --verbose note, not noise");

    let (_, _, verbose) = urlint_in(dir.path(), &["check", "--verbose", "latin1.txt"]);
    assert_eq!(
        after_config_note(&verbose),
        "urlint: note: latin1.txt: not valid UTF-8: 3 byte(s) read as Latin-1 characters; \
         offsets index the decoded text\n"
    );

    // Byte offsets index the decoded (UTF-8) text: 'é' before the URL is two
    // bytes there, so the wrapper starts at 6 although it is byte 5 of the file.
    let (_, json, _) = urlint_in(
        dir.path(),
        &["extract", "--format", "jsonl", "latin1.txt", GOOD_NAME],
    );
    let records: Vec<serde_json::Value> = json
        .lines()
        .map(|line| serde_json::from_str(line).expect("jsonl"))
        .collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["url"], "http://hést.example/päth");
    assert_eq!(records[0]["outer"]["start"], 6);
    assert_eq!(records[0]["outer"]["column"], 6);
    assert_eq!(records[0]["outer"]["end_column"], 36);
    assert_eq!(records[1]["url"], GOOD_URL);
}

#[test]
fn a_stray_byte_in_utf8_text_keeps_the_other_characters() {
    // Valid UTF-8 'ü' (C3 BC) before the URL, a lone 0xFF inside it.
    let mixed: &[u8] = b"\xC3\xBCber http://a.example/x\xFFy\n";
    let dir = dir_with(&[("mixed.txt", mixed)]);
    let (code, stdout, _) = urlint_in(
        dir.path(),
        &["check", "--format", "short", "mixed.txt", GOOD_NAME],
    );
    assert_eq!(code, 1);
    assert_eq!(
        lines(&stdout),
        [
            "mixed.txt:1:24: error[non-ascii]: non-ASCII character 'ÿ' must be encoded as %C3%BF",
            GOOD_FINDING,
        ]
    );
}

#[test]
fn a_binary_file_is_skipped_and_said_when_named() {
    let binary: &[u8] = b"GIF89a\0\0 http://in.binary.example/~x";
    let dir = dir_with(&[("logo.gif", binary), ("assets/icon.gif", binary)]);

    // Named on the command line: a warning in any mode, and no findings.
    for verbose in [&[][..], &["--verbose"]] {
        let args = [
            &["check", "--format", "short"],
            verbose,
            &["logo.gif", GOOD_NAME],
        ]
        .concat();
        let (code, stdout, stderr) = urlint_in(dir.path(), &args);
        assert_eq!(code, 1, "the good file's finding fails the run");
        assert_eq!(lines(&stdout), [GOOD_FINDING]);
        let stderr = if verbose.is_empty() {
            &stderr
        } else {
            after_config_note(&stderr)
        };
        assert_eq!(
            stderr,
            "urlint: warning: logo.gif: skipped: binary file (NUL byte in the first 8 KiB)\n"
        );
    }

    // Found by a walk: skipped quietly, said with --verbose.
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check", "--format", "short", "."]);
    assert_eq!(code, 1);
    assert_eq!(
        lines(&stdout),
        ["./good.txt:1:30: error[unsafe-char]: unsafe character '~' must be encoded as %7E"]
    );
    assert_eq!(stderr, "");
    let (_, _, stderr) = urlint_in(dir.path(), &["check", "--verbose", "assets"]);
    assert_eq!(
        after_config_note(&stderr),
        "urlint: note: assets/icon.gif: skipped: binary file (NUL byte in the first 8 KiB)\n"
    );
}

#[test]
fn binary_stdin_is_skipped_and_said() {
    let dir = dir_with(&[]);
    let elf = &b"\x7fELF\x02\x01\x01\0\0\0"[..];
    let warning = "urlint: warning: <stdin>: skipped: binary file (NUL byte in the first 8 KiB)\n";
    // check and extract go on to the good file; validate has only stdin.
    let runs: [(&[&str], &str); 3] = [
        (
            &["check", "--format", "short", "-", GOOD_NAME],
            GOOD_FINDING,
        ),
        (&["extract", "-", GOOD_NAME], GOOD_URL),
        (&["validate"], "validated 0 URLs: 0 errors, 0 warnings"),
    ];
    for (args, stdout) in runs {
        let output = urlint(args)
            .current_dir(dir.path())
            .write_stdin(elf)
            .timeout(LIMIT)
            .output()
            .expect("the urlint binary runs");
        let code = output.status.code();
        assert_eq!(code, Some(i32::from(args[0] == "check")), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&output.stderr), warning);
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            format!("{stdout}\n")
        );
    }
}

#[test]
fn a_nul_past_the_sniffed_head_is_text() {
    let mut late_nul = vec![b'.'; 9000];
    late_nul.extend_from_slice(b"\0 http://late.example/~x\n");
    let dir = dir_with(&[("late-nul.txt", &late_nul)]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["extract", "late-nul.txt", GOOD_NAME]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout, format!("http://late.example/~x\n{GOOD_URL}\n"));
}

#[test]
fn an_endless_device_is_sniffed_not_read_whole() {
    let zero = Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let dir = dir_with(&[]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["extract", "/dev/zero", GOOD_NAME]);
    assert_eq!(code, 0);
    assert_eq!(stdout, format!("{GOOD_URL}\n"));
    assert_eq!(
        stderr,
        "urlint: warning: /dev/zero: skipped: binary file (NUL byte in the first 8 KiB)\n"
    );
}

#[test]
fn cr_only_crlf_and_mixed_line_endings_place_findings_alike() {
    // The same five lines; the second URL is wrapped across the break.
    let body = [
        "one",
        "see <URL:http://a.example/x",
        "  y/~z> two",
        "three http://b.example/~q",
        "four",
    ];
    let endings: [(&str, [&str; 5]); 4] = [
        ("lf.txt", ["\n"; 5]),
        ("cr.txt", ["\r"; 5]),
        ("crlf.txt", ["\r\n"; 5]),
        ("mixed.txt", ["\r", "\r", "\r\n", "\n", "\r"]),
    ];
    let files: Vec<(String, Vec<u8>)> = endings
        .iter()
        .map(|(name, breaks)| {
            let text: String = body
                .iter()
                .zip(breaks)
                .flat_map(|(l, b)| [*l, *b])
                .collect();
            (name.to_string(), text.into_bytes())
        })
        .collect();
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
        .collect();
    let dir = dir_with(&refs);
    for (name, _) in &endings {
        let (code, stdout, stderr) =
            urlint_in(dir.path(), &["check", "--format", "short", name, GOOD_NAME]);
        assert_eq!(code, 1, "{stderr}");
        let expected = [
            format!("{name}:3:5: error[unsafe-char]: unsafe character '~' must be encoded as %7E"),
            format!("{name}:4:24: error[unsafe-char]: unsafe character '~' must be encoded as %7E"),
            GOOD_FINDING.to_string(),
        ];
        assert_eq!(lines(&stdout), expected, "{name}");
        let (_, urls, _) = urlint_in(dir.path(), &["extract", name]);
        assert_eq!(
            urls, "http://a.example/xy/~z\nhttp://b.example/~q\n",
            "{name}: the wrapped URL is joined across the break"
        );
    }
}

#[test]
fn a_wrapper_open_at_end_of_file_is_reported_with_its_url() {
    let dir = dir_with(&[("eof.txt", b"text <URL:http://eof.example/~a")]);
    let (code, stdout, stderr) = urlint_in(
        dir.path(),
        &["check", "--format", "short", "eof.txt", GOOD_NAME],
    );
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        lines(&stdout),
        [
            "eof.txt:1:6: error[unterminated-wrapper]: '<URL:' is never closed by '>'",
            "eof.txt:1:30: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            GOOD_FINDING,
        ]
    );
    let (_, urls, _) = urlint_in(dir.path(), &["extract", "eof.txt"]);
    assert_eq!(urls, "http://eof.example/~a\n");
}

#[test]
fn ten_thousand_unterminated_wrappers_are_each_reported_in_bounded_time() {
    let text = "<URL:".repeat(10_000);
    let dir = dir_with(&[("wrappers.txt", text.as_bytes())]);
    let (code, stdout, stderr) = urlint_in(
        dir.path(),
        &["check", "--format", "short", "wrappers.txt", GOOD_NAME],
    );
    assert_eq!((code, stderr.as_str()), (1, ""));
    let findings = lines(&stdout);
    // Each wrapper is reported where it opens: never closed, and empty.
    assert_eq!(findings.len(), 2 * 10_000 + 1);
    for (index, pair) in findings[..20_000].chunks(2).enumerate() {
        let column = 5 * index + 1;
        assert_eq!(
            pair,
            [
                format!("wrappers.txt:1:{column}: error[unterminated-wrapper]: '<URL:' is never closed by '>'"),
                format!("wrappers.txt:1:{column}: error[empty-url]: this wrapper holds no URL"),
            ]
        );
    }
    assert_eq!(findings[20_000], GOOD_FINDING);
}

#[test]
fn deeply_nested_brackets_and_parentheses_keep_the_urls_inside() {
    let nested = [
        format!(
            "{}<URL:http://n.example/~a>{}",
            "(".repeat(50_000),
            ")".repeat(50_000)
        ),
        format!(
            "{}URL:http://m.example/~b{}",
            "<".repeat(20_000),
            ">".repeat(20_000)
        ),
        format!(
            "{}http://k.example/a(b[c{{d}}e]f)g/~h{}",
            "[".repeat(30_000),
            "]".repeat(30_000)
        ),
        format!(
            "x {}http://p.example/{}",
            "(".repeat(100_000),
            ")".repeat(100_000)
        ),
    ]
    .join("\n");
    let dir = dir_with(&[("nested.txt", nested.as_bytes())]);
    let (code, urls, stderr) = urlint_in(dir.path(), &["extract", "nested.txt", GOOD_NAME]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    // Unbalanced closers after a bare URL are prose, not part of it.
    assert_eq!(
        urls,
        format!(
            "http://n.example/~a\nhttp://m.example/~b\nhttp://k.example/a(b[c{{d}}e]f)g/~h\n\
             http://p.example/\n{GOOD_URL}\n"
        )
    );
    let (code, stdout, _) = urlint_in(
        dir.path(),
        &["check", "--format", "short", "nested.txt", GOOD_NAME],
    );
    assert_eq!(code, 1);
    let tildes: Vec<&str> = lines(&stdout)
        .into_iter()
        .filter(|line| line.contains("'~'"))
        .map(|line| line.split(": ").next().unwrap_or_default())
        .collect();
    assert_eq!(
        tildes,
        [
            "nested.txt:1:50023",
            "nested.txt:2:20022",
            "nested.txt:3:30032",
            "good.txt:1:30"
        ]
    );
}

#[test]
fn ten_thousand_urls_on_one_line_are_placed_in_linear_time() {
    // One ASCII line and one where every URL holds a two-byte character, so
    // that columns (characters) and offsets (bytes) differ.
    let ascii = url_line(10_000, "");
    let accented = url_line(10_000, "é");
    let dir = dir_with(&[
        ("ascii.txt", ascii.as_bytes()),
        ("accented.txt", accented.as_bytes()),
    ]);
    // Every format places through the same lookup: the text formats are run
    // on one line, the JSON document (checked in detail) on both.
    let cases: [(&str, &str, &[&str]); 2] = [
        ("ascii.txt", &ascii, &["short", "jsonl", "github"]),
        ("accented.txt", &accented, &["short"]),
    ];
    for (name, line, formats) in cases {
        let last_tilde = line.rfind('~').expect("a tilde");
        let last_column = line[..last_tilde].chars().count() + 1;
        for &format in formats {
            let (code, stdout, stderr) =
                urlint_in(dir.path(), &["check", "--format", format, name, GOOD_NAME]);
            assert_eq!((code, stderr.as_str()), (1, ""), "{format}");
            let tilde_findings = stdout.matches("unsafe-char").count();
            assert_eq!(tilde_findings, 10_001, "{name} {format}");
        }
        let (_, stdout, _) = urlint_in(dir.path(), &["check", "--format", "json", name]);
        let document: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
        let urls = document["files"][0]["urls"].as_array().expect("urls");
        assert_eq!(urls.len(), 10_000);
        let last = &urls[9_999]["findings"].as_array().expect("findings")[..];
        let last = last
            .iter()
            .find(|finding| finding["rule"] == "unsafe-char")
            .expect("the tilde");
        assert_eq!(last["column"], last_column, "{name}");
        assert_eq!(last["spans"][0]["start"], last_tilde, "{name}");
        let (_, extracted, _) = urlint_in(dir.path(), &["extract", "--format", "jsonl", name]);
        assert_eq!(extracted.lines().count(), 10_000);
    }
}

#[test]
fn a_twenty_megabyte_line_is_checked_whole() {
    let huge = format!(
        "{} <URL:http://huge.example/~a> {}http://tail.example/~b\n",
        "x".repeat(10_000_000),
        "y ".repeat(5_000_000)
    );
    let dir = dir_with(&[("huge.txt", huge.as_bytes())]);
    let (code, stdout, stderr) = urlint_in(
        dir.path(),
        &["check", "--format", "short", "huge.txt", GOOD_NAME],
    );
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        lines(&stdout),
        [
            "huge.txt:1:10000027: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            "huge.txt:1:20000051: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            GOOD_FINDING,
        ]
    );
}

#[test]
fn a_missing_path_is_an_error_and_extract_goes_on() {
    let dir = dir_with(&[]);
    let (code, stdout, stderr) =
        urlint_in(dir.path(), &["extract", "no-such-dir/notes.txt", GOOD_NAME]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "urlint: no-such-dir/notes.txt: cannot read: No such file or directory (os error 2)\n"
    );
    assert_eq!(stdout, format!("{GOOD_URL}\n"));
}

#[test]
fn stdin_that_cannot_be_read_is_an_error_and_the_rest_is_checked() {
    // A directory on stdin: opening works, reading fails (also as root).
    let dir = dir_with(&[]);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
        .args(["check", "--format", "short", "-", GOOD_NAME])
        .current_dir(dir.path())
        .stdin(fs::File::open(dir.path()).expect("open the directory"))
        .output()
        .expect("the urlint binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "urlint: <stdin>: cannot read: Is a directory (os error 21)\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!("{GOOD_FINDING}\n")
    );
}

#[test]
fn an_unreadable_directory_in_a_walk_is_reported_when_permissions_apply() {
    use std::os::unix::fs::PermissionsExt;
    let dir = dir_with(&[("locked/inside.txt", b"http://locked.example/~x\n")]);
    let locked = dir.path().join("locked");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).expect("chmod");
    // Root reads through chmod 000; then the file inside is simply checked.
    let enforced = fs::read_dir(&locked).is_err();
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check", "--format", "short", "."]);
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).expect("chmod back");
    let good = "./good.txt:1:30: error[unsafe-char]: unsafe character '~' must be encoded as %7E";
    if enforced {
        assert_eq!(code, 2);
        assert_eq!(
            stderr,
            "urlint: ./locked: cannot walk: Permission denied (os error 13)\n"
        );
        assert_eq!(lines(&stdout), [good]);
    } else {
        assert_eq!((code, stderr.as_str()), (1, ""));
        assert_eq!(stdout.lines().count(), 2, "{stdout}");
    }
}

#[test]
fn symlinks_are_not_followed_in_walks_so_loops_cannot_trap_them() {
    use std::os::unix::fs::symlink;
    let outside = dir_with(&[]);
    let dir = dir_with(&[("sub/note.txt", b"http://sub.example/~s\n")]);
    let root = dir.path();
    symlink(".", root.join("loop")).expect("symlink");
    symlink("..", root.join("sub/up")).expect("symlink");
    symlink("self", root.join("self")).expect("symlink");
    symlink(outside.path().join(GOOD_NAME), root.join("linked.txt")).expect("symlink");
    let (code, stdout, stderr) = urlint_in(root, &["check", "--format", "short", "."]);
    assert_eq!((code, stderr.as_str()), (1, ""));
    // Each real file once; the links (loops, a self-link, a linked file) are skipped.
    assert_eq!(
        lines(&stdout),
        [
            "./good.txt:1:30: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            "./sub/note.txt:1:20: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
        ]
    );
    // Under --verbose the walk says what it passed by.
    let (_, _, stderr) = urlint_in(
        root,
        &["check", "--isolated", "-v", "--format", "short", "."],
    );
    let passed: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("link"))
        .collect();
    let why = "skipped: a symbolic link, which a walk does not follow (name it to check it)";
    assert_eq!(
        passed,
        ["./linked.txt", "./loop", "./self", "./sub/up"]
            .map(|name| format!("urlint: note: {name}: {why}")),
        "{stderr}"
    );
    // Named, a link is the user's choice: its target is read or walked.
    let (code, stdout, stderr) = urlint_in(root, &["extract", "linked.txt", "sub/up", "self"]);
    assert_eq!(code, 2);
    assert_eq!(
        stdout,
        format!("{GOOD_URL}\n{GOOD_URL}\nhttp://sub.example/~s\n"),
        "sub/up walks the directory it points to, without following links inside"
    );
    assert_eq!(
        stderr,
        "urlint: self: cannot read: Too many levels of symbolic links (os error 40)\n"
    );
}

#[test]
fn empty_files_and_empty_stdin_are_checked_and_clean() {
    let dir = dir_with(&[("empty.txt", b"")]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check", "--color", "never", "empty.txt"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "checked 1 file, found 0 URLs: 0 errors, 0 warnings\n"
    );
    // assert_cmd closes stdin without writing: an empty stdin.
    let (code, stdout, stderr) = urlint_in(
        dir.path(),
        &["check", "--format", "short", "-", "empty.txt", GOOD_NAME],
    );
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(lines(&stdout), [GOOD_FINDING]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["validate"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout, "validated 0 URLs: 0 errors, 0 warnings\n");
    let (code, stdout, _) = urlint_in(dir.path(), &["extract", "empty.txt"]);
    assert_eq!((code, stdout.as_str()), (0, ""));
}

#[test]
fn stdin_closed_mid_url_is_checked_up_to_where_it_stopped() {
    let dir = dir_with(&[]);
    let mut child = spawn_in(dir.path(), &["check", "--format", "short", "-", GOOD_NAME]);
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin
        .write_all(b"see <URL:http://cut.example/pa~")
        .expect("write stdin");
    // The writer goes away in the middle of the wrapper.
    drop(stdin);
    let (code, stdout, stderr) = finish(child);
    assert_eq!((code, stderr.as_str()), (Some(1), ""));
    assert_eq!(
        lines(&stdout),
        [
            "<stdin>:1:5: error[unterminated-wrapper]: '<URL:' is never closed by '>'",
            "<stdin>:1:31: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            GOOD_FINDING,
        ]
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_run_quietly() {
    // Far more output than a pipe buffers, so urlint is still writing when
    // the reader goes away (`urlint extract big | head -1`).
    let dir = dir_with(&[("many.txt", url_line(20_000, "").as_bytes())]);
    let runs: [&[&str]; 6] = [
        &["extract", "many.txt"],
        &["extract", "--format", "jsonl", "many.txt"],
        &["extract", "--format", "json", "many.txt"],
        &["check", "--format", "json", "many.txt"],
        &["check", "--format", "sarif", "many.txt"],
        &["check", "--color", "never", "many.txt"],
    ];
    for args in runs {
        let (code, _, stderr) = close_stdout_early(dir.path(), args);
        assert_eq!(stderr, "", "{args:?}: no panic, no error about the pipe");
        assert_eq!(code, Some(0), "{args:?}");
    }
}

#[test]
fn a_closed_output_pipe_keeps_exit_2_for_an_input_error_already_said() {
    let dir = dir_with(&[("many.txt", url_line(20_000, "").as_bytes())]);
    let (code, _, stderr) = close_stdout_early(dir.path(), &["extract", "missing.txt", "many.txt"]);
    assert_eq!(
        stderr,
        "urlint: missing.txt: cannot read: No such file or directory (os error 2)\n"
    );
    assert_eq!(code, Some(2));
}

#[test]
fn a_closed_stderr_does_not_stop_the_report() {
    let dir = dir_with(&[]);
    // -j 1 reads stdin first, so stderr is closed before anything is said.
    let mut child = spawn_in(
        dir.path(),
        &[
            "check",
            "-j",
            "1",
            "--format",
            "short",
            "-",
            "missing.txt",
            GOOD_NAME,
        ],
    );
    drop(child.stderr.take());
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin
        .write_all(b"http://stdin.example/~x\n")
        .expect("write stdin");
    drop(stdin);
    let (code, stdout, _) = finish(child);
    assert_eq!(code, Some(2), "exit 2 for the missing file, no panic (101)");
    assert_eq!(
        lines(&stdout),
        [
            "<stdin>:1:22: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            GOOD_FINDING,
        ]
    );
}

/// Whether `child` has `path` open, polled through /proc until [`LIMIT`];
/// true where /proc is not there to tell (the test then relies on timing).
fn wait_until_open(child: &Child, path: &Path) -> bool {
    let fds = format!("/proc/{}/fd", child.id());
    if !Path::new(&fds).exists() {
        thread::sleep(Duration::from_millis(500));
        return true;
    }
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let deadline = Instant::now() + LIMIT;
    while Instant::now() < deadline {
        let open = fs::read_dir(&fds).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|entry| fs::read_link(entry.path()).is_ok_and(|link| link == target))
        });
        if open {
            return true;
        }
        thread::sleep(Duration::from_millis(5));
    }
    false
}

#[test]
fn a_directory_is_walked_when_its_turn_comes() {
    let dir = dir_with(&[("walked/gone.txt", b"http://gone.example/~g\n")]);
    let fifo = dir.path().join("pause.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|status| status.success());
    if !made {
        return;
    }
    // A named FIFO is read like a file; with -j 1 it holds the run before
    // walked/ is walked, as inputs are found as they are read. The test
    // holds it open for writing from the start (read-write, which does not
    // wait for a reader), so urlint always finds a writer there, however
    // the two processes are scheduled; a FIFO without one would be skipped.
    let mut writer = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .expect("open the FIFO");
    let mut child = spawn_in(
        dir.path(),
        &[
            "check",
            "-j",
            "1",
            "--format",
            "short",
            "pause.fifo",
            "walked",
            GOOD_NAME,
        ],
    );
    // A urlint that never opens the FIFO fails the test in time.
    if !wait_until_open(&child, &fifo) {
        let _ = child.kill();
        panic!("urlint did not open the FIFO within {LIMIT:?}");
    }
    fs::remove_file(dir.path().join("walked/gone.txt")).expect("remove a file");
    write(dir.path(), "walked/new.txt", b"http://new.example/~n\n");
    writer
        .write_all(b"http://fifo.example/~f\n")
        .expect("write the FIFO");
    drop(writer);
    let (code, stdout, stderr) = finish(child);
    assert_eq!((code, stderr.as_str()), (Some(1), ""));
    assert_eq!(
        lines(&stdout),
        [
            "pause.fifo:1:21: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            "walked/new.txt:1:20: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            GOOD_FINDING,
        ]
    );
}

/// A tag with thousands of quoted attributes aborted the whole run with a
/// stack overflow (html5gum recurses once per attribute): in an HTML file
/// and in an HTML mail part, the URLs around it are found and the other
/// files of the run are checked; a tag beyond any stack is read as blank.
#[test]
fn a_tag_with_thousands_of_attributes_crashes_nothing() {
    let tag = |count: usize| {
        let attributes: Vec<String> = (0..count).map(|n| format!("a{n}=\"x\"")).collect();
        format!("<p {}>", attributes.join(" "))
    };
    let page = |count: usize| {
        format!(
            "{}see http://a.example/~x</p><a href=\"http://b.example/~y\">b</a>\n",
            tag(count)
        )
    };
    let mail = format!(
        "From: a@b.example\nSubject: s\nMIME-Version: 1.0\nContent-Type: text/html\n\n{}",
        page(8_000)
    );
    let dir = dir_with(&[
        ("crowded.html", page(8_000).as_bytes()),
        ("beyond.html", page(30_000).as_bytes()),
        ("part.eml", mail.as_bytes()),
        ("plain.txt", b"and http://c.example/~z\n"),
    ]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check", "--format", "short", "."]);
    assert_eq!(code, 1, "{stderr}");
    for name in ["beyond.html", "crowded.html", "part.eml"] {
        let found = lines(&stdout)
            .iter()
            .filter(|line| line.starts_with(&format!("./{name}:")))
            .count();
        assert_eq!(found, 2, "{name}: {stdout}");
    }
    assert!(
        stdout.contains("./plain.txt:1:22: error[unsafe-char]"),
        "{stdout}"
    );
}

/// A socket named on the command line is an error that says what it is;
/// opening one fails with "No such device or address", which said neither.
#[cfg(unix)]
#[test]
fn a_socket_named_to_check_is_said_to_be_a_socket() {
    let dir = tempfile::tempdir().expect("temp dir");
    let socket = dir.path().join("control.sock");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).expect("bind");
    let (code, _, stderr) = run(&mut urlint(&[
        "check",
        "--isolated",
        &socket.to_string_lossy(),
    ]));
    assert_eq!(code, 2);
    assert!(
        stderr.ends_with("control.sock: cannot read: it is a socket, not a file\n"),
        "{stderr}"
    );
}
