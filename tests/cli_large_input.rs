//! Large inputs are read in windows; the hidden `--chunk-len` makes the
//! fixtures "large", so every format must print exactly what reading them
//! whole prints, positions included, for files and for stdin.

mod common;

use common::{run, urlint};

/// The text fixtures (the mail one is read as mail, message by message);
/// the paginated draft's URLs go on over lines and page breaks.
const TEXTS: [&str; 3] = [
    "fixtures/README.md",
    "fixtures/rfc-style.txt",
    "fixtures/scan/paginated-draft.txt",
];

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
        // One thread reads the windows in turn; several lint them at once
        // while one reads the stream, reported in order.
        for threads in ["-j1", "-j2", "-j5"] {
            let windowed = stdin(&["--chunk-len", chunk_len, threads]);
            assert_eq!(windowed, whole, "{chunk_len} {threads}");
        }
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

/// Bytes the hyphen-break evidence searches on each side of a wrapper, and
/// how far before a break the breaks that may keep it from being searched
/// lie.
const EVIDENCE_REACH: usize = 256 * 1024;

/// Breaks within [`EVIDENCE_REACH`] before a break that keep it from being
/// searched.
const CROWDING_BREAKS: usize = 16;

/// `text` written to a file in `dir`, and its path.
fn write_text(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write text");
    path.to_string_lossy().into_owned()
}

/// The findings of `check --format jsonl` whose help says the text was
/// not searched.
fn not_searched(path: &str) -> Vec<String> {
    output(&["check", "--format", "jsonl", path])
        .1
        .lines()
        .filter(|line| line.starts_with(r#"{"type":"finding""#))
        .filter(|line| line.contains("or more other hyphen breaks lie in the 256 KiB before it"))
        .map(str::to_string)
        .collect()
}

/// `check --format json` and `extract --format jsonl` print the same for
/// `path` whole and in windows of each of `chunk_lens` bytes.
fn assert_windows_read_as_whole(path: &str, chunk_lens: &[usize]) {
    for command in [
        &["check", "--format", "json"][..],
        &["extract", "--format", "jsonl"],
    ] {
        let whole = output(&[command, &[path]].concat());
        for chunk_len in chunk_lens {
            let chunk_len = chunk_len.to_string();
            let args = [command, &["--chunk-len", &chunk_len, "-j2", path]].concat();
            assert_eq!(output(&args), whole, "{command:?} --chunk-len {chunk_len}");
        }
    }
}

/// Lines of prose without URLs up to `len` bytes of `text`.
fn pad_to(text: &mut String, len: usize) {
    const LINE: &str = "plain prose without any address in it\n";
    assert!(text.len() <= len, "{} > {len}", text.len());
    while len - text.len() > LINE.len() {
        text.push_str(LINE);
    }
    let short = len - text.len();
    text.push_str(&"z".repeat(short.saturating_sub(1)));
    if short > 0 {
        text.push('\n');
    }
}

#[test]
fn crowded_hyphen_breaks_are_weighed_the_same_in_windows_of_any_length() {
    // Two runs of 40 hyphen breaks 1 KB apart, 300 KB of prose between
    // them. Each break's part appears unbroken just before it, so a
    // searched break drops its hyphen; in each run the breaks after the
    // 16th have 16 others within 256 KiB before them and are not searched.
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
    let path = write_text(&dir, "breaks.txt", &text);

    let whole = output(&["extract", &path]);
    let urls: Vec<&str> = whole.1.lines().collect();
    assert_eq!(urls.len(), 80, "{}", whole.2);
    for run in 0..2 {
        for index in 0..40 {
            let searched = index < CROWDING_BREAKS;
            let hyphen = if searched { "" } else { "-" };
            let url = format!("http://example.org/r{run}n{index:02}x{hyphen}y");
            assert!(urls.contains(&url.as_str()), "{url} in {urls:?}");
        }
    }
    assert_eq!(not_searched(&path).len(), 2 * (40 - CROWDING_BREAKS));
    assert_windows_read_as_whole(&path, &[1000, 65536, 300_000]);
}

#[test]
fn hyphen_breaks_at_the_edges_of_the_evidence_reach_read_the_same_in_windows() {
    let mut text = String::from("Breaks far apart.\n");
    // Sixteen breaks, the first in a long wrapper whose `<` lies 1.5 KB
    // before its hyphen.
    let long = format!("<URL:http://example.org/{}e00-\n  z>\n", "a".repeat(1500));
    let first_hyphen = text.len() + long.find('-').expect("a hyphen");
    text.push_str(&long);
    for index in 1..CROWDING_BREAKS {
        text.push_str(&format!("<URL:http://example.org/e{index:02}-\n  z>\n"));
    }
    // A break whose hyphen lies exactly the reach after the first: all
    // sixteen crowd it, so its unbroken part just before goes unseen.
    let crowded = "see t1partxy\n<URL:http://example.org/t1partx-\n  y>\n";
    pad_to(
        &mut text,
        first_hyphen + EVIDENCE_REACH - crowded.find('-').expect("a hyphen"),
    );
    let crowded_start = text.len() + crowded.find('<').expect("a wrapper");
    text.push_str(crowded);
    // Well past them, a break searched, whose part appears unbroken at the
    // far end of the reach after its wrapper.
    let past = text.len() + 300_000;
    pad_to(&mut text, past);
    let searched = "<URL:http://example.org/t2partx-\n  y>";
    let searched_start = text.len();
    text.push_str(searched);
    text.push('\n');
    let searched_end = searched_start + searched.len();
    pad_to(&mut text, searched_end + EVIDENCE_REACH - "t2partxy".len());
    text.push_str("t2partxy");
    let end = text.len() + 1000;
    pad_to(&mut text, end);

    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_text(&dir, "edges.txt", &text);
    let urls = output(&["extract", &path]).1;
    assert!(urls.contains("http://example.org/t1partx-y\n"), "{urls}");
    assert!(urls.contains("http://example.org/t2partxy\n"), "{urls}");
    let not_searched = not_searched(&path);
    assert_eq!(not_searched.len(), 1, "{not_searched:?}");
    assert!(not_searched[0].contains("t1partx"), "{}", not_searched[0]);

    // Windows cut just where each break's window must reach furthest: one
    // starting at the crowded wrapper, which must still see the long
    // wrapper's `<`; one ending just after the searched wrapper's `<`,
    // which must still see the whole reach after it.
    assert_windows_read_as_whole(&path, &[crowded_start, searched_start + 1, 100_000]);
}

/// An undelimited URL longer than a window's context (no whitespace for
/// 700 KB, as in a generated query or an inlined blob) runs past the
/// window's end. A file's window is read again wider, so the URL is checked
/// whole, its last character included; a stream cannot be, and says where
/// it cut the URL instead of passing over the rest in silence.
#[test]
fn a_url_longer_than_a_window_is_checked_whole_or_said_to_be_cut() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("long.txt");
    let mut text = "a line before\n".repeat(100);
    text.push_str("see http://a.example/");
    text.push_str(&"a".repeat(700_000));
    text.push_str("~ and http://b.example/~y\nafter\n");
    std::fs::write(&path, &text).expect("write temp file");
    let path = path.to_string_lossy().into_owned();
    let short =
        |extra: &[&str]| output(&[&["check", "--format", "short"], extra, &[&path]].concat());
    let whole = short(&[]);
    assert_eq!(whole.2, "");
    assert_eq!(whole.1.lines().count(), 2, "{}", whole.1);
    assert_eq!(short(&["--chunk-len", "4096"]), whole);
    let extract = output(&["extract", "--chunk-len", "4096", &path]);
    let longest = extract.1.lines().map(str::len).max();
    assert_eq!(longest, Some("http://a.example/~".len() + 700_000));

    let streamed = run(
        urlint(&["check", "--format", "short", "--chunk-len", "4096", "-"])
            .write_stdin(text.clone()),
    );
    assert!(
        streamed
            .2
            .contains("<stdin>: the URL at line 101, column 5 runs on for more than"),
        "{}",
        streamed.2
    );
    // The URL after the cut one is still found.
    assert!(streamed.1.contains("<stdin>:101:700045:"), "{}", streamed.1);
}
