//! Large inputs are read in windows; the hidden `--chunk-len` makes the
//! fixtures "large", so every format must print exactly what reading them
//! whole prints, positions included, for files and for stdin.

mod common;

use common::{run, urlint};

/// The text fixtures (the mail one is read as mail, message by message).
const TEXTS: [&str; 2] = ["fixtures/README.md", "fixtures/rfc-style.txt"];

/// Chunk lengths from one byte to a few lines.
const CHUNK_LENS: [&str; 5] = ["1", "7", "64", "333", "1000"];

fn output(args: &[&str]) -> (i32, String, String) {
    run(&mut urlint(args))
}

#[test]
fn every_format_reads_the_same_in_windows() {
    let commands: [&[&str]; 8] = [
        &["check", "--color", "never"],
        &["check", "--format", "short"],
        &["check", "--format", "json"],
        &["check", "--format", "jsonl"],
        &["check", "--format", "github"],
        &["check", "--format", "sarif"],
        &["extract", "--format", "jsonl"],
        &["extract", "--count"],
    ];
    for command in commands {
        let whole = output(&[command, &TEXTS[..]].concat());
        assert!(!whole.1.is_empty(), "{command:?} printed nothing");
        for chunk_len in CHUNK_LENS {
            let windowed = output(&[command, &["--chunk-len", chunk_len], &TEXTS[..]].concat());
            assert_eq!(windowed, whole, "{command:?} --chunk-len {chunk_len}");
        }
    }
}

#[test]
fn stdin_reads_the_same_in_windows() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read(root.join(TEXTS[1])).expect("fixture exists");
    let stdin = |extra: &[&str]| {
        let args = [&["check", "--format", "jsonl"], extra, &["-"]].concat();
        run(urlint(&args).write_stdin(text.clone()))
    };
    let whole = stdin(&[]);
    assert!(whole.1.contains("\"path\":\"<stdin>\""));
    for chunk_len in CHUNK_LENS {
        assert_eq!(stdin(&["--chunk-len", chunk_len]), whole, "{chunk_len}");
    }
}

#[test]
fn invalid_utf8_is_noted_once_for_a_windowed_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("latin1.txt");
    let mut text = b"caf\xE9 http://a.example/\n".repeat(20);
    text.extend_from_slice(b"end http://b.example/~x\n");
    std::fs::write(&path, &text).expect("write temp file");
    let path = path.to_string_lossy().into_owned();
    let whole = output(&["check", "--verbose", "--format", "short", &path]);
    let windowed = output(&[
        "check",
        "--verbose",
        "--format",
        "short",
        "--chunk-len",
        "50",
        &path,
    ]);
    assert_eq!(windowed, whole);
    assert!(
        whole.2.contains("20 byte(s) read as Latin-1"),
        "{}",
        whole.2
    );
}

#[cfg(unix)]
#[test]
fn a_pipe_named_as_a_path_reads_like_stdin() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read(root.join(TEXTS[1])).expect("fixture exists");
    let extract = |path: &str| run(urlint(&["extract", path]).write_stdin(text.clone()));
    let (code, stdout, stderr) = extract("/dev/stdin");
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout, extract("-").1);
    assert!(!stdout.is_empty());
}

#[test]
fn a_windowed_file_whose_first_windows_have_no_url_has_its_own_json_entry() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.txt"), "see http://a.example/x\n").expect("write");
    // Longer than a window and its context, so that streaming cuts it too.
    let mut late = "no link on this line at all\n".repeat(12_000);
    late.push_str("late http://b.example/y\n");
    std::fs::write(dir.path().join("b.txt"), late).expect("write");
    let files = ["a.txt", "b.txt"].map(|name| dir.path().join(name).to_string_lossy().into_owned());
    let json = |extra: &[&str]| {
        let args = [
            &["check", "--format", "json"],
            extra,
            &[&files[0], &files[1]],
        ]
        .concat();
        output(&args)
    };
    let whole = json(&[]);
    assert_eq!(whole.1.matches("\"path\"").count(), 2, "{}", whole.1);
    for threads in ["-j1", "-j2"] {
        assert_eq!(json(&[threads, "--chunk-len", "10000"]), whole, "{threads}");
    }
}

#[test]
fn an_mbox_read_in_slices_on_any_thread_count_reads_as_whole() {
    // The fixtures' archives one after another, twice: list mail, charsets
    // decoded byte by byte, a broken message; small chunks cut the archive
    // into slices of a few messages, and leave the longer messages to the
    // reporting thread.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut archive = Vec::new();
    for _ in 0..2 {
        for name in [
            "list.mbox",
            "erasing_charsets.mbox",
            "broken_then_good.mbox",
        ] {
            let path = root.join("fixtures/mail").join(name);
            archive.extend(std::fs::read(path).expect("fixture exists"));
            archive.push(b'\n');
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("all.mbox");
    std::fs::write(&path, &archive).expect("write archive");
    let path = path.to_string_lossy().into_owned();
    let commands: [&[&str]; 5] = [
        &["check", "--color", "never"],
        &["check", "--format", "json"],
        &["check", "--format", "jsonl"],
        &["check", "--format", "short", "--verbose"],
        &["extract", "--format", "jsonl"],
    ];
    for command in commands {
        let whole = output(&[command, &[path.as_str()]].concat());
        assert!(!whole.1.is_empty(), "{command:?} printed nothing");
        for chunk_len in ["1", "64", "700", "4096"] {
            for threads in ["-j1", "-j2", "-j3"] {
                let args = [command, &["--chunk-len", chunk_len, threads, &path]].concat();
                assert_eq!(
                    output(&args),
                    whole,
                    "{command:?} --chunk-len {chunk_len} {threads}"
                );
            }
        }
    }
}

#[test]
fn a_text_read_in_windows_on_any_thread_count_reads_as_whole() {
    // Latin-1 bytes, CRLF line ends and a four-byte character near every
    // cut, so that windows start inside characters and line breaks unless
    // the cuts avoid them.
    let mut text = Vec::new();
    for index in 0..40 {
        text.extend_from_slice(b"caf\xE9 \xF0\x9F\x8C\x8A <URL:http://h");
        text.extend_from_slice(index.to_string().as_bytes());
        text.extend_from_slice(b".example/a~b>\r\nx\r\n");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("mixed.txt");
    std::fs::write(&path, &text).expect("write text");
    let path = path.to_string_lossy().into_owned();
    for command in [
        &["check", "--format", "json", "--verbose"][..],
        &["extract", "--format", "jsonl"],
    ] {
        let whole = output(&[command, &[path.as_str()]].concat());
        for chunk_len in ["1", "2", "3", "5", "64", "1001"] {
            for threads in ["-j1", "-j2", "-j3"] {
                let args = [command, &["--chunk-len", chunk_len, threads, &path]].concat();
                assert_eq!(
                    output(&args),
                    whole,
                    "{command:?} --chunk-len {chunk_len} {threads}"
                );
            }
        }
    }
}

#[test]
fn hyphen_breaks_are_weighed_the_same_in_windows_of_any_length() {
    // Two runs of 40 hyphen breaks 1 KB apart, 300 KB of prose between
    // them. Each break's part appears unbroken just before it, so a
    // searched break drops its hyphen; in each run the breaks after the
    // 32nd have 32 others within 256 KiB before them and are not searched.
    let filler = format!("{}\n", "plain prose without addresses ".repeat(33));
    let mut text = String::new();
    for run in 0..2 {
        for index in 0..40 {
            let part = format!("r{run}n{index:02}");
            text.push_str(&format!(
                "see {part}xy\n<URL:http://example.org/{part}x-\n  y>\n{filler}"
            ));
        }
        for _ in 0..300 {
            text.push_str(&filler);
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("breaks.txt");
    std::fs::write(&path, &text).expect("write text");
    let path = path.to_string_lossy().into_owned();

    let whole = output(&["extract", &path]);
    let urls: Vec<&str> = whole.1.lines().collect();
    assert_eq!(urls.len(), 80, "{}", whole.2);
    let kept: Vec<&str> = urls
        .iter()
        .copied()
        .filter(|url| url.contains("x-y"))
        .collect();
    assert_eq!(kept.len(), 16, "{kept:?}");
    for run in 0..2 {
        for index in 32..40 {
            assert!(kept.contains(&format!("http://example.org/r{run}n{index}x-y").as_str()));
        }
    }
    let check = output(&["check", "--format", "jsonl", &path]);
    let not_searched = check
        .1
        .lines()
        .filter(|line| line.starts_with(r#"{"type":"finding""#))
        .filter(|line| line.contains("32 other hyphen breaks lie in the 256 KiB before it"))
        .count();
    assert_eq!(not_searched, 16, "{}", check.1);

    for command in [
        &["check", "--format", "json"][..],
        &["extract", "--format", "jsonl"],
    ] {
        let whole = output(&[command, &[path.as_str()]].concat());
        for chunk_len in ["1000", "65536", "300000"] {
            let args = [command, &["--chunk-len", chunk_len, "-j2", &path]].concat();
            assert_eq!(output(&args), whole, "{command:?} --chunk-len {chunk_len}");
        }
    }
}
