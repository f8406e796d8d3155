//! reStructuredText inputs through the real binary: which URLs are found,
//! in which form, at which line and column of the file as written, in every
//! output format; the kind chosen by extension, `--input`, `[kinds]`;
//! literal blocks, code and comments skipped unless `--include-verbatim`;
//! `.. urlint: ignore-next-line` comments.

mod common;

use std::fs;

use common::{extracted, first_position, run, urlint};
use serde_json::Value;

const GUIDE: &str = "fixtures/markup/guide.rst";

/// The URLs of the guide that sit in code or comments.
const VERBATIM_URLS: [&str; 6] = [
    "http://comment.example/~hidden/",
    "http://localhost:8080/~simple/",
    "http://tides.example/~kiel/today",
    "http://example.invalid/~inline",
    "http://example.invalid/~role",
    "http://tides.example/~doctest/kiel",
];

/// The URLs alone.
fn urls(args: &[&str]) -> Vec<String> {
    extracted(args)
        .into_iter()
        .map(|(_, url, _, _)| url)
        .collect()
}

#[test]
fn rst_links_and_text_urls_at_their_places() {
    let expected = [
        ("link", "https://img.example/pypi/v/tidewatch.svg", 9, 19),
        ("link", "https://pypi.example/project/tidewatch/", 10, 13),
        (
            "link",
            "https://ci.example/tidewatch/badge.svg?branch=main",
            11,
            17,
        ),
        ("link", "https://ci.example/tidewatch", 13, 13),
        ("link", "https://guide.example/tidewatch/", 17, 52),
        (
            "link",
            "https://notes.example/tidewatch/design%20notes.html",
            19,
            2,
        ),
        ("bare", "https://forum.example/c/tidewatch", 20, 1),
        (
            "wrapped",
            "http://lists.example.org/pipermail/tidewatch-users/",
            21,
            6,
        ),
        ("bare", "http://people.example.org/~marta/", 36, 22),
        ("bare", "http://builds.example.org:99999/tidewatch/", 45, 21),
        ("link", "https://img.example/tidewatch/chart.png", 47, 12),
        (
            "attribute",
            "https://tides.example/?harbour=kiel&year=2024",
            52,
            31,
        ),
        ("link", "https://tidewatch.example/changes/", 54, 16),
        (
            "link",
            "https://tidewatch.example/a/very/long/path/index.html",
            56,
            4,
        ),
    ];
    let expected: Vec<(String, String, u64, u64)> = expected
        .iter()
        .map(|&(form, url, line, column)| (form.to_string(), url.to_string(), line, column))
        .collect();
    assert_eq!(extracted(&[GUIDE]), expected);
}

#[test]
fn a_target_continued_over_lines_is_one_url_with_a_span_per_line() {
    let (_, stdout, _) = run(&mut urlint(&["extract", "--format", "jsonl", GUIDE]));
    let record: Value = stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|record| {
            record["url"]
                .as_str()
                .is_some_and(|url| url.ends_with("index.html"))
        })
        .expect("the continued target");
    let lines: Vec<u64> = record["segments"]
        .as_array()
        .map(|segments| {
            segments
                .iter()
                .filter_map(|segment| segment["line"].as_u64())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(lines, [56, 57]);
}

#[test]
fn only_the_text_finding_is_reported_and_the_comment_silences_the_next_line() {
    let (code, stdout, stderr) = run(&mut urlint(&["check", "--format", "short", GUIDE]));
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        stdout,
        "fixtures/markup/guide.rst:36:48: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let unsilenced = dir.path().join("guide.rst");
    let text = fs::read_to_string(GUIDE).expect("fixture");
    fs::write(
        &unsilenced,
        text.replace(".. urlint: ignore-next-line\n", "..\n"),
    )
    .expect("write");
    let (_, stdout, _) = run(&mut urlint(&[
        "check",
        "--format",
        "short",
        unsilenced.to_str().unwrap_or_default(),
    ]));
    assert!(stdout.contains(":45:47: error[bad-port]"), "{stdout}");
}

#[test]
fn every_format_places_an_rst_finding_on_the_same_line_and_column() {
    for format in ["short", "github", "jsonl", "json", "sarif"] {
        assert_eq!(first_position(format, GUIDE), (36, 48), "{format}");
    }
}

#[test]
fn human_output_shows_the_rst_source_line() {
    let (_, stdout, _) = run(&mut urlint(&["check", "--color", "never", GUIDE]));
    assert!(
        stdout.contains(
            "36 │ .. note:: Mirrors at http://people.example.org/~marta/ are unofficial."
        ),
        "{stdout}"
    );
}

#[test]
fn code_literals_and_comments_are_read_only_with_include_verbatim() {
    let skipped = urls(&[GUIDE]);
    for url in VERBATIM_URLS {
        assert!(!skipped.contains(&url.to_string()), "{url}: {skipped:?}");
    }
    let included = urls(&["--include-verbatim", GUIDE]);
    for url in VERBATIM_URLS {
        assert!(included.contains(&url.to_string()), "{url}: {included:?}");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("urlint.toml");
    fs::write(&config, "[markdown]\ninclude-verbatim = true\n").expect("write");
    let from_config = urls(&["--config", config.to_str().unwrap_or_default(), GUIDE]);
    assert_eq!(from_config, included);
}

#[test]
fn the_kind_is_chosen_by_extension_input_flag_or_kinds_glob() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = "Run::\n\n    curl http://code.example/x\n\nSee `docs <http://docs.example/>`_.\n";
    for name in ["a.rst", "b.REST", "notes.txt", "page.inc"] {
        fs::write(dir.path().join(name), text).expect("write");
    }
    let path = |name: &str| {
        dir.path()
            .join(name)
            .to_str()
            .unwrap_or_default()
            .to_string()
    };
    let forms = |args: &[&str]| -> Vec<String> {
        extracted(args)
            .into_iter()
            .map(|(form, url, _, _)| format!("{form} {url}"))
            .collect()
    };
    let as_rst = ["link http://docs.example/"];
    assert_eq!(forms(&[&path("a.rst")]), as_rst);
    assert_eq!(forms(&[&path("b.REST")]), as_rst);
    let as_text = ["bare http://code.example/x", "angle http://docs.example/"];
    assert_eq!(forms(&[&path("notes.txt")]), as_text, ".txt is text");
    assert_eq!(forms(&["--input", "rst", &path("notes.txt")]), as_rst);
    assert_eq!(forms(&["--input", "text", &path("a.rst")]), as_text);

    let config = dir.path().join("urlint.toml");
    fs::write(&config, "[kinds]\nrst = [\"*.inc\"]\ntext = [\"b.REST\"]\n").expect("write");
    let config = config.to_str().unwrap_or_default();
    assert_eq!(forms(&["--config", config, &path("page.inc")]), as_rst);
    assert_eq!(forms(&["--config", config, &path("b.REST")]), as_text);

    let (code, stdout, _) = run(urlint(&["extract", "--input", "rst", "-"]).write_stdin(text));
    assert_eq!((code, stdout.as_str()), (0, "http://docs.example/\n"));
}

#[test]
fn a_txt_file_with_rst_explicit_markup_is_read_as_rst() {
    let guide = "fixtures/markup/harbour-guide.txt";
    let forms = |args: &[&str]| -> Vec<String> {
        extracted(args)
            .into_iter()
            .map(|(form, url, line, _)| format!("{line} {form} {url}"))
            .collect()
    };
    let as_rst = [
        "7 bare http://mirror.example.org/~harbour/",
        "9 link https://tides.example.org/tables/",
    ];
    assert_eq!(forms(&[guide]), as_rst);
    // As text, the doctest and the code directive are read too.
    let as_text = forms(&["--input", "text", guide]);
    assert_eq!(as_text.len(), 5, "{as_text:?}");
    assert!(as_text.contains(&"13 bare file://feeds.example".to_string()));

    // Only the prose URL is checked: the `file://` URLs without a path sit
    // in code.
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "--isolated",
        "--format",
        "short",
        "--profile",
        "rfc3986",
        guide,
    ]));
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
    let (code, stdout, _) = run(&mut urlint(&[
        "check",
        "--isolated",
        "--format",
        "short",
        guide,
    ]));
    assert_eq!(code, 1);
    let rules: Vec<&str> = stdout.lines().filter_map(|l| l.split(' ').nth(1)).collect();
    assert_eq!(rules, ["error[unsafe-char]:"], "{stdout}");

    // A `[kinds]` text glob still reads it as text.
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("harbour-guide.txt");
    fs::copy(guide, &copy).expect("copy");
    let config = dir.path().join("urlint.toml");
    fs::write(&config, "[kinds]\ntext = [\"*.txt\"]\n").expect("write");
    let from_config = forms(&[
        "--config",
        config.to_str().unwrap_or_default(),
        copy.to_str().unwrap_or_default(),
    ]);
    assert_eq!(from_config, as_text);
}

/// docs/cli.md: a `.txt` file is reStructuredText when a line of its first
/// 4 KiB opens with explicit markup. The check of a small file, of a large
/// one read in windows, and the read for a rewrite must all look that far
/// and no further, or one file gets two readings.
#[test]
fn a_txt_file_is_told_rst_from_its_first_4_kib_by_every_reader() {
    let filler: String = (0..120)
        .map(|i| format!("Plain words here, line {i}, nothing to see.\n"))
        .collect();
    assert!(filler.len() > 4096 && filler.len() < 8192 - 200);
    let text = format!(
        "{filler}.. _target: http://a.example/x|y\n\nSee `name <http://b.example/a b>`_ \
         and ``http://d.example/~lit`` here.\n"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("notes.txt");
    fs::write(&path, &text).expect("write");
    let path = path.to_str().unwrap_or_default();
    let rules = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["check", "--isolated", "--format", "short"];
        args.extend_from_slice(extra);
        args.push(path);
        let (code, stdout, stderr) = run(&mut urlint(&args));
        assert_eq!(code, 1, "{stdout}{stderr}");
        stdout
            .lines()
            .map(|line| {
                line.split_once(": ")
                    .map_or(line, |(_, rest)| rest)
                    .to_string()
            })
            .collect()
    };
    // Read as text: the angle-bracketed URL is a wrapper with a space in it.
    let as_text = rules(&[]);
    assert!(
        as_text.iter().any(|line| line.contains("space-in-wrapper")),
        "{as_text:?}"
    );
    assert_eq!(rules(&["--chunk-len", "4096"]), as_text);
    // The rewrite reads it as text too: the URL in what rST would call a
    // literal is fixed with the others.
    let (_, diff, _) = run(&mut urlint(&["check", "--isolated", "--diff", path]));
    assert!(diff.contains("``http://d.example/%7Elit``"), "{diff}");
}
