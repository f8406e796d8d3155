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
