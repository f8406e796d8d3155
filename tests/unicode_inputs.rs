//! UTF-16 and UTF-32 text with a byte-order mark, as Windows editors save
//! "Unicode" files, through the real binary: read as the text it holds,
//! whole, streamed, compressed and on stdin, with the lines and columns of
//! its UTF-8 twin; written back by `--fix` and `fmt` in its own encoding;
//! its code units that encode no character read as U+FFFD, and such a file
//! never rewritten.

mod common;

use std::fs;
use std::path::Path;

use common::{run, urlint};

/// A text with findings on three lines, one after a character outside the
/// Basic Multilingual Plane (a surrogate pair in UTF-16).
const TEXT: &str = "see http://a.example/~x\r\n\
                    and <URL:http://b.example/é~>\n\
                    𝄞 http://c.example/|y\n";

/// How an encoding writes a text, after its mark.
type Encode = fn(&str) -> Vec<u8>;

/// The encodings, each with how it writes a text.
const ENCODINGS: [(&str, Encode); 4] = [
    ("utf-16le", |text| {
        mark_and(text, |c| utf16(c, u16::to_le_bytes))
    }),
    ("utf-16be", |text| {
        mark_and(text, |c| utf16(c, u16::to_be_bytes))
    }),
    ("utf-32le", |text| {
        mark_and(text, |c| u32::from(c).to_le_bytes().to_vec())
    }),
    ("utf-32be", |text| {
        mark_and(text, |c| u32::from(c).to_be_bytes().to_vec())
    }),
];

fn mark_and(text: &str, encode: impl Fn(char) -> Vec<u8>) -> Vec<u8> {
    std::iter::once('\u{FEFF}')
        .chain(text.chars())
        .flat_map(encode)
        .collect()
}

fn utf16(c: char, bytes: fn(u16) -> [u8; 2]) -> Vec<u8> {
    let mut units = [0; 2];
    c.encode_utf16(&mut units)
        .iter()
        .flat_map(|&unit| bytes(unit))
        .collect()
}

/// `urlint ARGS` run in `dir`: (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut command = urlint(args);
    command.current_dir(dir);
    run(&mut command)
}

#[test]
fn a_marked_utf16_or_utf32_file_reports_what_its_utf8_twin_reports() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("twin.txt"), TEXT).expect("write");
    for format in ["human", "json"] {
        let twin = run_in(
            dir.path(),
            &["check", "--isolated", "--format", format, "twin.txt"],
        );
        for (name, encode) in ENCODINGS {
            let file = format!("{name}.txt");
            fs::write(dir.path().join(&file), encode(TEXT)).expect("write");
            // Whole, streamed in windows as a large file is, and on stdin.
            for extra in [
                &[][..],
                &["--chunk-len", "32"],
                &["-j", "1", "--chunk-len", "32"],
            ] {
                let mut args = vec!["check", "--isolated", "--format", format];
                args.extend_from_slice(extra);
                args.push(&file);
                let (code, stdout, stderr) = run_in(dir.path(), &args);
                let stdout = stdout.replace(&file, "twin.txt");
                assert_eq!((code, stdout, stderr), twin, "{args:?}");
            }
            let mut stdin = urlint(&["check", "--isolated", "--format", format, "-"]);
            stdin.current_dir(dir.path()).write_stdin(encode(TEXT));
            let (code, stdout, _) = run(&mut stdin);
            assert_eq!(
                (code, stdout.replace("<stdin>", "twin.txt")),
                (twin.0, twin.1.clone()),
                "{name} on stdin"
            );
        }
    }
    // Lines and columns count characters, after the mark.
    let (_, short, _) = run_in(
        dir.path(),
        &["check", "--isolated", "--format", "short", "utf-16le.txt"],
    );
    let places: Vec<&str> = short
        .lines()
        .map(|line| line.split(": ").next().unwrap_or(""))
        .collect();
    assert_eq!(
        places,
        [
            "utf-16le.txt:1:22",
            "utf-16le.txt:2:27",
            "utf-16le.txt:2:28",
            "utf-16le.txt:3:20"
        ]
    );
    let (_, _, verbose) = run_in(dir.path(), &["check", "--isolated", "-v", "utf-32be.txt"]);
    assert!(
        verbose.contains(
            "urlint: note: utf-32be.txt: UTF-32 BE text (byte-order mark), decoded to UTF-8 \
             for reading; offsets index the decoded text\n"
        ),
        "{verbose}"
    );
}

#[test]
fn a_utf8_mark_is_no_column_as_a_utf16_mark_is_none() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("utf8.txt"), format!("\u{FEFF}{TEXT}")).expect("write");
    let (_, encode) = ENCODINGS[0];
    fs::write(dir.path().join("utf16.txt"), encode(TEXT)).expect("write");
    for format in ["short", "github", "human"] {
        // Whole, and read a small window at a time (files this small fit
        // in the first window; a_mark_is_no_column_at_the_input_start_only
        // has windows start later).
        for extra in [&[][..], &["-j", "1", "--chunk-len", "16"]] {
            let places = |file: &str| {
                let mut args = vec!["check", "--isolated", "--format", format];
                args.extend_from_slice(extra);
                args.push(file);
                let (code, stdout, _) = run_in(dir.path(), &args);
                // The human report's excerpt shows the first line as it is.
                (code, stdout.replace(file, "FILE").replace('\u{FEFF}', ""))
            };
            assert_eq!(
                places("utf8.txt"),
                places("utf16.txt"),
                "{format} {extra:?}"
            );
        }
    }
    let (_, short, _) = run_in(
        dir.path(),
        &["check", "--isolated", "--format", "short", "utf8.txt"],
    );
    assert!(short.starts_with("utf8.txt:1:22: "), "{short}");
    // Byte offsets still count the mark's three bytes.
    let (_, json, _) = run_in(
        dir.path(),
        &["check", "--isolated", "--format", "json", "utf8.txt"],
    );
    assert!(
        json.contains(r#""outer":{"start":7,"end":26,"line":1,"column":5,"#),
        "{json}"
    );
}

#[test]
fn a_mark_is_no_column_at_the_input_start_only() {
    // Windows keep 266,240 bytes before the end of what they own (the
    // hyphen-break evidence and two wrappers), so with a chunk length of
    // 300,000 the second window starts at byte 33,760 of the file: here on
    // a U+FEFF that starts a later line, as where marked files were joined
    // by `cat`. That one is a character like any other.
    let joined = format!(
        "{} http://a.example/~x\n\u{FEFF}{} http://b.example/|y\nsee http://c.example/^\n",
        "x".repeat(33_760 - 3 - 21),
        "y".repeat(300_000)
    );
    // A first line that windows start inside of.
    let long_first = format!(
        "{} http://a.example/~x\nsee http://c.example/^\n",
        "x".repeat(400_000)
    );
    let cases = [
        (
            joined,
            ["FILE:1:33755", "FILE:2:300020", "FILE:3:22"].as_slice(),
        ),
        (long_first, ["FILE:1:400019", "FILE:2:22"].as_slice()),
    ];
    let dir = tempfile::tempdir().expect("temp dir");
    let short = |extra: &[&str], file: &str| {
        let mut args = vec!["check", "--isolated", "--format", "short"];
        args.extend_from_slice(extra);
        args.push(file);
        let (code, stdout, _) = run_in(dir.path(), &args);
        (code, stdout.replace(file, "FILE"))
    };
    for (text, places) in cases {
        let marked = format!("\u{FEFF}{text}");
        fs::write(dir.path().join("utf8.txt"), &marked).expect("write");
        let (_, encode) = ENCODINGS[0];
        fs::write(dir.path().join("utf16.txt"), encode(&text)).expect("write");
        let whole = short(&[], "utf8.txt");
        let found: Vec<&str> = whole
            .1
            .lines()
            .map(|line| line.split(": ").next().unwrap_or(""))
            .collect();
        assert_eq!(found, places);
        assert_eq!(short(&[], "utf16.txt"), whole);
        for chunk_len in ["270000", "300000", "400000"] {
            let windows = ["-j", "1", "--chunk-len", chunk_len];
            assert_eq!(
                short(&windows, "utf8.txt"),
                whole,
                "--chunk-len {chunk_len}"
            );
            let mut stdin = urlint(&[
                "check",
                "--isolated",
                "--format",
                "short",
                "--chunk-len",
                chunk_len,
                "-",
            ]);
            stdin.current_dir(dir.path()).write_stdin(marked.clone());
            let (code, stdout, _) = run(&mut stdin);
            assert_eq!(
                (code, stdout.replace("<stdin>", "FILE")),
                whole,
                "stdin, --chunk-len {chunk_len}"
            );
        }
    }
}

#[test]
fn validate_reads_a_marked_utf8_stdin_as_a_marked_utf16_one() {
    let (_, encode) = ENCODINGS[0];
    let urls = "http://a.example/ok\nhttp://b.example/~x\n";
    let validate = |input: Vec<u8>| {
        let mut command = urlint(&["validate", "--isolated", "--format", "short"]);
        command.write_stdin(input);
        run(&mut command)
    };
    let utf16 = validate(encode(urls));
    assert_eq!(
        utf16.1,
        "<stdin>:2:18: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n"
    );
    assert_eq!(validate(format!("\u{FEFF}{urls}").into_bytes()), utf16);
}

#[test]
fn fix_and_diff_note_the_decoding_as_check_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, encode) = ENCODINGS[3];
    for mode in ["--fix", "--diff"] {
        fs::write(dir.path().join("notes.txt"), encode(TEXT)).expect("write");
        let (_, _, stderr) = run_in(
            dir.path(),
            &["check", "--isolated", "-v", mode, "notes.txt"],
        );
        assert!(
            stderr.contains(
                "urlint: note: notes.txt: UTF-32 BE text (byte-order mark), decoded to UTF-8 \
                 for reading; offsets index the decoded text\n"
            ),
            "{mode}: {stderr}"
        );
    }
}

#[test]
fn without_a_mark_nul_bytes_still_make_a_file_binary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let unmarked: Vec<u8> = TEXT.encode_utf16().flat_map(u16::to_le_bytes).collect();
    fs::write(dir.path().join("unmarked.txt"), unmarked).expect("write");
    let (code, stdout, stderr) = run_in(dir.path(), &["check", "--isolated", "unmarked.txt"]);
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "checked 0 files, found 0 URLs: 0 errors, 0 warnings\n"
    );
    assert_eq!(
        stderr,
        "urlint: warning: unmarked.txt: skipped: binary file (NUL byte in the first 8 KiB)\n"
    );
}

#[cfg(feature = "gzip")]
#[test]
fn a_compressed_utf16_file_is_read_as_the_text_it_holds() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("temp dir");
    fs::write(dir.path().join("twin.txt"), TEXT).expect("write");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&ENCODINGS[0].1(TEXT)).expect("gzip");
    let gzipped = encoder.finish().expect("gzip");
    fs::write(dir.path().join("notes.txt.gz"), &gzipped).expect("write");
    let (_, twin, _) = run_in(
        dir.path(),
        &["check", "--isolated", "--format", "short", "twin.txt"],
    );
    // Small (inflated whole) and streamed.
    for extra in [&[][..], &["--chunk-len", "32"]] {
        let mut args = vec!["check", "--isolated", "--format", "short"];
        args.extend_from_slice(extra);
        args.push("notes.txt.gz");
        let (_, stdout, _) = run_in(dir.path(), &args);
        assert_eq!(stdout.replace("notes.txt.gz", "twin.txt"), twin, "{args:?}");
    }
    let mut stdin = urlint(&["check", "--isolated", "--format", "short", "-"]);
    stdin.write_stdin(gzipped);
    let (_, stdout, _) = run(&mut stdin);
    assert_eq!(stdout.replace("<stdin>", "twin.txt"), twin);
}

#[test]
fn fix_and_fmt_write_a_utf16_file_back_in_utf16_with_its_mark() {
    let fixed = "see http://a.example/%7Ex\r\n\
                 and <URL:http://b.example/%C3%A9%7E>\n\
                 𝄞 http://c.example/%7Cy\n";
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, encode) in ENCODINGS {
        let file = format!("{name}.txt");
        let path = dir.path().join(&file);
        fs::write(&path, encode(TEXT)).expect("write");
        let (code, _, stderr) = run_in(dir.path(), &["check", "--isolated", "--diff", &file]);
        assert_eq!(code, 1);
        assert!(
            stderr.contains("text: the diff shows it decoded to UTF-8, which patch cannot apply"),
            "{stderr}"
        );
        let (code, _, stderr) = run_in(dir.path(), &["check", "--isolated", "--fix", &file]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(fs::read(&path).expect("read"), encode(fixed), "{name}");
    }
    // Stdin's fixed text goes to stdout in its own encoding.
    let mut stdin = urlint(&["check", "--isolated", "--fix", "--format", "short", "-"]);
    stdin.write_stdin(ENCODINGS[1].1(TEXT));
    let output = stdin.output().expect("runs");
    assert_eq!(output.stdout, ENCODINGS[1].1(fixed));

    let long = "A line with a long URL http://www.example.org/a/very/long/path/that/goes/on/\
                and/on/past/the/width/index.html ok\r\n";
    let wrapped = "A line with a long URL <URL:http://www.example.org/a/very/long/path/\r\n\
                   that/goes/on/and/on/past/the/width/index.html> ok\r\n";
    let path = dir.path().join("long.txt");
    fs::write(&path, ENCODINGS[0].1(long)).expect("write");
    let (code, _, stderr) = run_in(dir.path(), &["fmt", "--isolated", "long.txt"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(fs::read(&path).expect("read"), ENCODINGS[0].1(wrapped));
}

#[test]
fn an_unpaired_surrogate_reads_as_a_replacement_character_and_keeps_the_file_as_it_is() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut bytes = ENCODINGS[0].1("see http://a.example/~x ");
    bytes.extend(0xD800u16.to_le_bytes());
    bytes.extend(ENCODINGS[0].1("\n").split_off(2));
    let path = dir.path().join("lone.txt");
    fs::write(&path, &bytes).expect("write");
    let (code, stdout, stderr) = run_in(
        dir.path(),
        &["check", "--isolated", "-v", "--format", "short", "lone.txt"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "lone.txt:1:22: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n"
    );
    assert!(
        stderr.contains(
            "lone.txt: UTF-16 LE text (byte-order mark), decoded to UTF-8 for reading; offsets \
             index the decoded text; 1 code unit(s) that encode no character"
        ),
        "{stderr}"
    );
    let (code, _, stderr) = run_in(dir.path(), &["check", "--isolated", "--fix", "lone.txt"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains(
            "urlint: lone.txt: not rewritten: UTF-16 LE text with code units that encode no \
             character"
        ),
        "{stderr}"
    );
    assert_eq!(fs::read(&path).expect("read"), bytes, "left as it was");
}

#[test]
fn validate_reads_a_utf16_stdin_line_by_line() {
    let mut validate = urlint(&["validate", "--isolated", "--format", "short"]);
    validate.write_stdin(ENCODINGS[0].1("http://ok.example/\nhttp://a.example/~x\n"));
    let (code, stdout, _) = run(&mut validate);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "<stdin>:2:18: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n"
    );
}
