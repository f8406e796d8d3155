//! Compressed inputs (`.gz`, `.bz2`, `.xz`, `.zst`): read as the plain file
//! they hold, with the same URLs, places and message numbers; a broken
//! stream keeps what came before the break and exits 2; `--fix` and `fmt`
//! leave them as they are. Every compressed file is made here from a plain
//! fixture or generated text, none is committed.
#![cfg(all(feature = "gzip", feature = "bzip2", feature = "xz", feature = "zstd"))]

mod common;

use std::io::Write;
use std::path::Path;

use common::{run, urlint};

/// How one format compresses a plain text.
type Compress = fn(&[u8]) -> Vec<u8>;

/// The four formats, by extension, and how each compresses.
const FORMATS: [(&str, Compress); 4] = [("gz", gzip), ("bz2", bzip2), ("xz", xz), ("zst", zstd)];

fn gzip(plain: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(plain).expect("gzip");
    encoder.finish().expect("gzip")
}

fn bzip2(plain: &[u8]) -> Vec<u8> {
    // Level 1: blocks of 100 kB, so that a cut archive keeps whole blocks.
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    encoder.write_all(plain).expect("bzip2");
    encoder.finish().expect("bzip2")
}

fn xz(plain: &[u8]) -> Vec<u8> {
    let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 1);
    encoder.write_all(plain).expect("xz");
    encoder.finish().expect("xz")
}

fn zstd(plain: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(plain, 1).expect("zstd")
}

/// Run urlint in `dir` with `args`: (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run(urlint(args).current_dir(dir))
}

/// `args` run on `name` in `dir`, with `name` written as `plain` in each
/// output, so that a compressed file's report compares with its plain
/// file's.
fn report_as(dir: &Path, args: &[&str], name: &str, plain: &str) -> (i32, String) {
    let mut all = args.to_vec();
    all.push(name);
    let (code, stdout, _) = run_in(dir, &all);
    (code, stdout.replace(name, plain))
}

/// A text of `lines` lines, each with a URL naming its line.
fn numbered_urls(lines: usize) -> String {
    (1..=lines)
        .map(|line| format!("line {line} cites http://h.example/doc/{line} here\n"))
        .collect()
}

/// The URLs `extract` printed, one per line.
fn urls(stdout: &str) -> Vec<&str> {
    stdout.lines().collect()
}

#[test]
fn each_format_gives_the_urls_places_and_messages_of_the_plain_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fixtures = [
        "fixtures/mail/list.mbox",
        "fixtures/mail.txt",
        "fixtures/rfc-style.txt",
        "fixtures/markup/project.md",
        "fixtures/markup/page.html",
        "fixtures/mail/alternative.eml",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for fixture in fixtures {
        let plain = std::fs::read(root.join(fixture)).expect("fixture");
        let name = Path::new(fixture)
            .file_name()
            .and_then(|name| name.to_str())
            .expect("name");
        std::fs::write(dir.path().join(name), &plain).expect("write");
        for args in [
            &["extract", "--format", "json"][..],
            &["check", "--format", "json"][..],
            &["check", "--format", "human"][..],
        ] {
            let (plain_code, expected) = report_as(dir.path(), args, name, name);
            assert!(expected.len() > 2, "{fixture} {args:?} has URLs");
            for (extension, compress) in FORMATS {
                let compressed = format!("{name}.{extension}");
                std::fs::write(dir.path().join(&compressed), compress(&plain)).expect("write");
                let (code, got) = report_as(dir.path(), args, &compressed, name);
                assert_eq!(code, plain_code, "{compressed} {args:?}");
                assert_eq!(got, expected, "{compressed} {args:?}");
            }
        }
    }
}

#[test]
fn stdin_and_a_file_without_an_extension_are_told_by_their_magic_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = std::fs::read(root.join("fixtures/mail/list.mbox")).expect("fixture");
    let args = ["extract", "--format", "json", "-"];
    let (_, expected, _) = run(urlint(&args).write_stdin(plain.clone()));
    assert!(expected.contains("\"message\":3"), "{expected}");
    for (extension, compress) in FORMATS {
        let (code, got, stderr) = run(urlint(&args).write_stdin(compress(&plain)));
        assert_eq!(
            (code, got.as_str()),
            (0, expected.as_str()),
            "{extension}: {stderr}"
        );
        // Named without an extension: the content says what it holds.
        std::fs::write(dir.path().join("archive"), compress(&plain)).expect("write");
        let (_, got) = report_as(
            dir.path(),
            &["extract", "--format", "json"],
            "archive",
            "<stdin>",
        );
        assert_eq!(got, expected, "{extension} named archive");
    }
}

/// A pipe may hand over its first bytes one read at a time (a network
/// stream, `ssh host cat`): the format is told from the first 8 KiB however
/// they arrive. The first read of one byte used to make gzip a binary file.
#[test]
fn a_pipe_whose_first_read_is_one_byte_is_still_told_by_its_magic_bytes() {
    use std::process::{Command, Stdio};
    let plain = b"see http://a.example/~x here\n";
    for (extension, compress) in FORMATS {
        let packed = compress(plain);
        let mut child = Command::new(env!("CARGO_BIN_EXE_urlint"))
            .args(["check", "--isolated", "--format", "short", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("urlint starts");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(&packed[..1]).expect("first byte");
        stdin.flush().expect("flush");
        std::thread::sleep(std::time::Duration::from_millis(300));
        stdin.write_all(&packed[1..]).expect("the rest");
        drop(stdin);
        let output = child.wait_with_output().expect("urlint ends");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{extension}: {stdout}{stderr}"
        );
        assert!(
            stdout.starts_with("<stdin>:1:22: error[unsafe-char]"),
            "{extension}: {stdout}{stderr}"
        );
    }
}

#[test]
fn the_inner_name_says_what_the_archive_holds() {
    let dir = tempfile::tempdir().expect("temp dir");
    let markdown = "# Notes\n\nSee [docs](http://docs.example/) and `http://code.example/`.\n";
    for (name, expected) in [
        // Markdown: code spans are not read.
        ("notes.md.gz", "http://docs.example/\n"),
        // Text: every URL is.
        (
            "notes.txt.gz",
            "http://docs.example/\nhttp://code.example/\n",
        ),
    ] {
        std::fs::write(dir.path().join(name), gzip(markdown.as_bytes())).expect("write");
        let (code, stdout, stderr) = run_in(dir.path(), &["extract", name]);
        assert_eq!((code, stdout.as_str()), (0, expected), "{name}: {stderr}");
    }
    // `--input` still chooses, and mail by its inner name is read as mail.
    std::fs::write(dir.path().join("notes.gz"), gzip(markdown.as_bytes())).expect("write");
    let (_, stdout, _) = run_in(dir.path(), &["extract", "--input", "markdown", "notes.gz"]);
    assert_eq!(stdout, "http://docs.example/\n");
}

#[test]
fn a_multi_member_gzip_is_read_to_its_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let plain = std::fs::read(root.join("fixtures/mail/list.mbox")).expect("fixture");
    std::fs::write(dir.path().join("list.mbox"), &plain).expect("write");
    // Cut inside a message as well as between them: members are bytes,
    // not messages (logrotate and `cat a.gz b.gz` cut anywhere).
    let mut members = Vec::new();
    for part in plain.chunks(plain.len() / 3 + 1) {
        members.extend(gzip(part));
    }
    std::fs::write(dir.path().join("list.mbox.gz"), members).expect("write");
    let args = ["extract", "--format", "json"];
    let (_, expected) = report_as(dir.path(), &args, "list.mbox", "list.mbox");
    let (code, got) = report_as(dir.path(), &args, "list.mbox.gz", "list.mbox");
    assert_eq!((code, got), (0, expected));
}

#[test]
fn a_truncated_stream_keeps_the_urls_before_the_break_and_exits_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = numbered_urls(30_000);
    let (_, whole, _) = run(urlint(&["extract", "-"]).write_stdin(plain.clone()));
    let whole = urls(&whole);
    assert_eq!(whole.len(), 30_000);
    for (extension, compress) in FORMATS {
        let compressed = compress(plain.as_bytes());
        let name = format!("cut.txt.{extension}");
        std::fs::write(
            dir.path().join(&name),
            &compressed[..compressed.len() * 3 / 5],
        )
        .expect("write");
        // Another file after it is still read.
        std::fs::write(dir.path().join("z.txt"), "see http://after.example/\n").expect("write");
        let (code, stdout, stderr) = run_in(dir.path(), &["extract", &name, "z.txt"]);
        assert_eq!(code, 2, "{name}: {stderr}");
        let prefix = format!("{name}: broken compressed stream: the ");
        let told = stderr
            .lines()
            .find_map(|line| line.split_once(&prefix).map(|(_, cause)| cause))
            .unwrap_or_else(|| panic!("{name}: {stderr}"));
        assert!(told.contains("(truncated?)"), "{told}");
        // "... breaks after N bytes of text, in line L: ..."
        let line: usize = told
            .split_once(", in line ")
            .and_then(|(_, rest)| rest.split(':').next())
            .and_then(|number| number.parse().ok())
            .unwrap_or_else(|| panic!("{told}"));
        let found = urls(&stdout);
        assert_eq!(found.last(), Some(&"http://after.example/"), "{name}");
        let before = &found[..found.len() - 1];
        assert!(
            line > 1000,
            "{name}: most of the text came through ({line})"
        );
        // Every line before the one the break falls in is read whole.
        assert!(
            before.len() >= line - 1,
            "{name}: {} < {line}",
            before.len()
        );
        assert_eq!(before[..line - 1], whole[..line - 1], "{name}");
    }
}

#[test]
fn a_corrupt_stream_and_a_misnamed_file_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plain = numbered_urls(2_000);
    let mut corrupt = gzip(plain.as_bytes());
    let middle = corrupt.len() / 2;
    corrupt[middle] ^= 0x55;
    std::fs::write(dir.path().join("corrupt.txt.gz"), corrupt).expect("write");
    std::fs::write(dir.path().join("plain.txt.gz"), &plain).expect("write");
    for name in ["corrupt.txt.gz", "plain.txt.gz"] {
        let (code, _, stderr) = run_in(dir.path(), &["extract", name]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "{name}: broken compressed stream: the gzip stream breaks"
            )),
            "{name}: {stderr}"
        );
    }
    let (_, _, stderr) = run_in(dir.path(), &["extract", "plain.txt.gz"]);
    assert!(
        stderr.contains("after 0 bytes of text, in line 1"),
        "{stderr}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_decompression_bomb_streams_in_bounded_memory() {
    // 256 MiB of text in about a quarter of a megabyte of gzip: read
    // window by window, never whole.
    const TEXT_LEN: usize = 256 << 20;
    let line = "x".repeat(1023) + "\n";
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let mut written = 0;
    while written < TEXT_LEN {
        encoder.write_all(line.as_bytes()).expect("gzip");
        written += line.len();
    }
    encoder
        .write_all(b"and at the end http://end.example/\n")
        .expect("gzip");
    let bomb = encoder.finish().expect("gzip");
    assert!(bomb.len() < 2 << 20, "{}", bomb.len());
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("bomb.txt.gz"), bomb).expect("write");
    let (code, stdout, stderr) = run_in(dir.path(), &["extract", "bomb.txt.gz"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, "http://end.example/\n"),
        "{stderr}"
    );
    let peak = peak_child_memory();
    // Other tests' children count too, but none holds a quarter gigabyte.
    assert!(peak < (TEXT_LEN as u64) / 2, "peak {peak} bytes");
}

/// The largest resident size of any child process that has ended, in bytes.
#[cfg(target_os = "linux")]
fn peak_child_memory() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole rusage into the pointer it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_CHILDREN, usage.as_mut_ptr());
        usage.assume_init()
    };
    // Linux reports kilobytes.
    u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024
}

#[test]
fn fix_and_fmt_leave_compressed_files_as_they_are_and_say_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "see <URL:http://a.example/~x> now\n";
    for (extension, compress) in FORMATS {
        let name = format!("notes.txt.{extension}");
        let compressed = compress(text.as_bytes());
        std::fs::write(dir.path().join(&name), &compressed).expect("write");
        let (code, stdout, stderr) = run_in(dir.path(), &["check", "--fix", &name]);
        assert_eq!(code, 1, "{name}: the finding is reported: {stdout}{stderr}");
        assert!(stdout.contains("unsafe-char"), "{stdout}");
        let note = format!("{name}: not rewritten: ");
        assert_eq!(stderr.matches(&note).count(), 1, "{name}: {stderr}");
        // fmt reports nothing else: a file named to it and left alone fails
        // the run, or `fmt --check` would pass it unread.
        let (code, _, stderr) = run_in(dir.path(), &["fmt", &name]);
        assert_eq!(code, 2, "{name}: {stderr}");
        let fmt_note = format!("{name}: not formatted: ");
        assert_eq!(stderr.matches(&fmt_note).count(), 1, "{name}: {stderr}");
        let after = std::fs::read(dir.path().join(&name)).expect("read");
        assert_eq!(after, compressed, "{name} is untouched");
    }
    // Stdin is passed through as it came.
    let compressed = gzip(text.as_bytes());
    let output = urlint(&["fmt", "-"])
        .write_stdin(compressed.clone())
        .output()
        .expect("urlint runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("<stdin>: not formatted: gzip compressed"),
        "{stderr}"
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(output.stdout, compressed);
}

/// The shared corpus of real mail, when it is beside the project
/// (`URLINT_SHARED`, `../shared`, or `/work/shared`).
fn shared_mail() -> Option<std::path::PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::env::var_os("URLINT_SHARED")
        .map(std::path::PathBuf::from)
        .into_iter()
        .chain([manifest.join("../shared"), "/work/shared".into()])
        .map(|shared| shared.join("corpus/mail"))
        .find(|mail| mail.is_dir())
}

/// Every file under `dir`, relative to it, sorted.
fn relative_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(relative) = path.strip_prefix(dir) {
                found.push(relative.to_path_buf());
            }
        }
    }
    found.sort();
    found
}

/// `extract --format json --mail-headers all` on the tree `dir`, as
/// records grouped by the file they name with `suffix` taken off, and the
/// warnings told on stderr with it taken off too, sorted.
fn records_by_file(dir: &Path, suffix: &str) -> (Vec<(String, String)>, Vec<String>) {
    let (code, stdout, stderr) = run_in(
        dir,
        &["extract", "--format", "json", "--mail-headers", "all", "."],
    );
    assert!(code <= 1, "{}: exit {code}: {stderr}", dir.display());
    let records: Vec<serde_json::Value> = serde_json::from_str(&stdout).expect("json");
    let mut grouped: Vec<(String, String)> = records
        .into_iter()
        .map(|mut record| {
            let path = record["path"].as_str().unwrap_or_default().to_owned();
            let path = path.strip_suffix(suffix).unwrap_or(&path).to_owned();
            record["path"] = path.clone().into();
            (path, record.to_string())
        })
        .collect();
    // Files come in path order, which a suffix can change; a file's own
    // records keep their order.
    grouped.sort_by(|a, b| a.0.cmp(&b.0));
    let mut warnings: Vec<String> = stderr
        .lines()
        .map(|line| line.replace(&format!("{suffix}:"), ":"))
        .collect();
    warnings.sort();
    (grouped, warnings)
}

#[test]
fn the_shared_mail_corpus_reads_the_same_compressed() {
    let Some(corpus) = shared_mail() else {
        eprintln!("shared mail corpus not found: skipped");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let files = relative_files(&corpus);
    assert!(files.len() > 100, "{}", files.len());
    let tree = |name: &str, suffix: &str, compress: &dyn Fn(&[u8]) -> Vec<u8>| {
        let root = dir.path().join(name);
        for file in &files {
            let bytes = std::fs::read(corpus.join(file)).expect("corpus file");
            let mut target = root.join(file).into_os_string();
            target.push(suffix);
            let target = std::path::PathBuf::from(target);
            std::fs::create_dir_all(target.parent().expect("parent")).expect("dir");
            std::fs::write(target, compress(&bytes)).expect("write");
        }
        root
    };
    let plain = tree("plain", "", &|bytes: &[u8]| bytes.to_vec());
    let (expected, expected_warnings) = records_by_file(&plain, "");
    assert!(expected.len() > 1000, "{} URLs", expected.len());
    for (extension, compress) in FORMATS {
        let suffix = format!(".{extension}");
        let root = tree(extension, &suffix, &compress);
        let (got, warnings) = records_by_file(&root, &suffix);
        assert_eq!(got.len(), expected.len(), "{extension}");
        for (got, expected) in got.iter().zip(&expected) {
            assert_eq!(got, expected, "{extension}");
        }
        assert_eq!(warnings, expected_warnings, "{extension}");
    }
}
