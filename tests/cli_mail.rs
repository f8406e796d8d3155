//! `urlint check` and `extract` on mail: archive positions through
//! quoted-printable soft breaks, message fields, `--unique` across MIME
//! alternatives, `--input`, malformed messages and mail on stdin.

mod common;

use common::{run, transcript, urlint};
use serde_json::Value;

/// Parse every stdout line as JSON.
fn json_lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("every jsonl line is JSON"))
        .collect()
}

/// `(url, line, column, message, part)` of each `extract --format jsonl` record.
fn placed_urls(stdout: &str) -> Vec<(String, u64, u64, u64, String)> {
    json_lines(stdout)
        .iter()
        .map(|record| {
            (
                record["url"].as_str().unwrap_or_default().to_string(),
                record["line"].as_u64().unwrap_or_default(),
                record["column"].as_u64().unwrap_or_default(),
                record["mail"]["message"].as_u64().unwrap_or_default(),
                record["mail"]["part"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            )
        })
        .collect()
}

fn read_fixture(path: &str) -> Vec<u8> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read(root.join(path)).expect("fixture exists")
}

#[test]
fn human_labels_the_archive_bytes_on_both_sides_of_a_soft_break() {
    let output = transcript(&mut urlint(&["check", "fixtures/mail/qp_errors.eml"]));
    assert!(output.contains("11 │ The old server http://old.example.org:99=\n"));
    assert!(output.contains("12 │ 999/pub/ is gone.\n"));
    insta::assert_snapshot!(output);
}

#[test]
fn short_points_into_the_archive() {
    insta::assert_snapshot!(transcript(&mut urlint(&[
        "check",
        "--format",
        "short",
        "--mail-headers",
        "list",
        "fixtures/mail/list.mbox",
        "fixtures/mail/qp_errors.eml",
        "fixtures/mail/latin1.eml",
    ])));
}

#[test]
fn jsonl_findings_carry_archive_spans_and_message_fields() {
    let (code, stdout, _) = run(&mut urlint(&[
        "check",
        "--format",
        "jsonl",
        "fixtures/mail/qp_errors.eml",
    ]));
    assert_eq!(code, 1);
    let records = json_lines(&stdout);
    let port = &records[0];
    assert_eq!(port["rule"], "bad-port");
    assert_eq!(
        (port["line"].as_u64(), port["column"].as_u64()),
        (Some(11), Some(39))
    );
    let spans: Vec<(u64, u64, u64, u64)> = port["spans"]
        .as_array()
        .map(|spans| {
            spans
                .iter()
                .map(|span| {
                    let field = |name: &str| span[name].as_u64().unwrap_or_default();
                    (
                        field("line"),
                        field("column"),
                        field("end_line"),
                        field("end_column"),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        spans,
        [(11, 39, 11, 41), (12, 1, 12, 4)],
        "one span per raw run"
    );
    let archive = read_fixture("fixtures/mail/qp_errors.eml");
    let start = port["found"]["outer"]["start"].as_u64().unwrap_or_default() as usize;
    let end = port["found"]["outer"]["end"].as_u64().unwrap_or_default() as usize;
    assert_eq!(
        &archive[start..end],
        b"http://old.example.org:99=\n999/pub/",
        "byte offsets index the archive"
    );
    assert_eq!(
        port["mail"],
        serde_json::json!({
            "message": 1,
            "message_id": "qp-err-1@example.org",
            "date": "2024-01-01T10:00:00Z",
            "subject": "Errors across soft breaks",
            "part": "1",
            "content_type": "text/plain",
            "charset": "us-ascii",
            "encoding": "quoted-printable"
        })
    );
    assert_eq!(records.last().map(|r| r["files"].clone()), Some(1.into()));
}

#[test]
fn extract_places_every_url_of_an_archive() {
    let (code, stdout, stderr) = run(&mut urlint(&[
        "extract",
        "--format",
        "jsonl",
        "--mail-headers",
        "list",
        "fixtures/mail/list.mbox",
    ]));
    assert_eq!((code, stderr.as_str()), (0, ""));
    let expected = [
        ("http://lists.example.org/archive/", 7, 16, 1, "header"),
        ("http://lists.example.org/leave", 8, 20, 1, "header"),
        (
            "mailto:list-request@example.org?subject=unsubscribe",
            9,
            3,
            1,
            "header",
        ),
        (
            "http://lists.example.org/archive/2024/1",
            10,
            15,
            1,
            "header",
        ),
        // Joined across the soft break, placed where it starts in the archive.
        ("http://ftp.example.org/pub/mirrors.txt", 16, 23, 1, "1"),
        // Placed in the archive line, which still has its mboxrd '>'.
        ("http://www.example.org/status", 25, 19, 2, "1"),
        ("gopher://gopher.example.org/1/", 34, 11, 3, "1"),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|&(url, line, column, message, part)| {
            (url.to_string(), line, column, message, part.to_string())
        })
        .collect();
    assert_eq!(placed_urls(&stdout), expected);
    let records = json_lines(&stdout);
    assert_eq!(records[4]["mail"]["message_id"], "mbox-1@example.org");
    assert_eq!(records[0]["mail"]["content_type"], "text/rfc822-headers");
    assert_eq!(records[5]["mail"]["subject"], "Re: Mirrors");
}

#[test]
fn extract_plain_formats() {
    insta::assert_snapshot!(transcript(&mut urlint(&[
        "extract",
        "fixtures/mail/list.mbox",
        "fixtures/mail/qp_soft_breaks.eml",
        "fixtures/mail/reply.eml",
        "fixtures/mail/koi8r.eml",
    ])));
}

#[test]
fn unique_collapses_the_same_url_in_text_and_html_alternatives() {
    let all = run(&mut urlint(&["extract", "fixtures/mail/alternative.eml"])).1;
    let unique = run(&mut urlint(&[
        "extract",
        "--unique",
        "--format",
        "jsonl",
        "fixtures/mail/alternative.eml",
    ]))
    .1;
    assert!(all.lines().count() > 1, "{all}");
    assert!(all
        .lines()
        .all(|url| url == "http://www.example.org/notes?id=7&view=full"));
    let kept = placed_urls(&unique);
    assert_eq!(kept.len(), 1, "{unique}");
    assert_eq!(kept[0].4, "1", "the first occurrence, in the text part");
}

#[test]
fn a_base64_part_points_at_the_part() {
    let (_, stdout, _) = run(&mut urlint(&[
        "extract",
        "--format",
        "jsonl",
        "fixtures/mail/alternative.eml",
    ]));
    let records = json_lines(&stdout);
    let html = records
        .iter()
        .find(|record| record["mail"]["encoding"] == "base64")
        .expect("a URL from the base64 HTML part");
    assert_eq!(html["mail"]["content_type"], "text/html");
    assert_eq!(
        (html["line"].as_u64(), html["column"].as_u64()),
        (Some(19), Some(1))
    );
}

#[test]
fn input_forces_the_kind() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("note.txt");
    // One header field is not enough to sniff a message.
    std::fs::write(
        &path,
        "Subject: x\nContent-Transfer-Encoding: quoted-printable\n\nsee http://a.exa=\nmple.org/\n",
    )
    .expect("write temp file");
    let path = path.to_string_lossy().into_owned();
    let extract = |kind: &str| run(&mut urlint(&["extract", "--input", kind, &path])).1;
    // Read as text, the soft line break's `=` is a character a URL does
    // not end on: the URL goes on over the next line, `=` and all.
    assert_eq!(extract("auto"), "http://a.exa=mple.org/\n");
    assert_eq!(extract("text"), "http://a.exa=mple.org/\n");
    assert_eq!(extract("eml"), "http://a.example.org/\n");
    assert_eq!(extract("mbox"), "http://a.example.org/\n");
    let forced_text = run(&mut urlint(&[
        "extract",
        "--input",
        "text",
        "fixtures/mail/qp_soft_breaks.eml",
    ]))
    .1;
    assert!(
        forced_text.contains("http://ftp.exam=ple.org/pub/mirrors.txt\n"),
        "{forced_text}"
    );
}

#[test]
fn a_malformed_message_is_warned_about_and_the_next_one_read() {
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "--format",
        "short",
        "fixtures/mail/broken_then_good.mbox",
    ]));
    assert_eq!(code, 1, "the good message's error still fails the run");
    assert_eq!(
        stdout,
        "fixtures/mail/broken_then_good.mbox:23:38: error[unsafe-char]: \
         unsafe character '~' must be encoded as %7E\n"
    );
    insta::assert_snapshot!(stderr);
}

#[test]
fn mbox_on_stdin_is_sniffed() {
    let archive = read_fixture("fixtures/mail/list.mbox");
    let from_stdin = run(urlint(&["extract", "--format", "jsonl", "-"]).write_stdin(archive)).1;
    let from_file = run(&mut urlint(&[
        "extract",
        "--format",
        "jsonl",
        "fixtures/mail/list.mbox",
    ]))
    .1;
    assert_eq!(placed_urls(&from_stdin), placed_urls(&from_file));
    assert!(json_lines(&from_stdin)
        .iter()
        .all(|record| record["path"] == "<stdin>"));
}

#[test]
fn json_document_has_one_entry_per_part_with_urls() {
    let (_, stdout, _) = run(&mut urlint(&[
        "check",
        "--format",
        "json",
        "--mail-headers",
        "list",
        "fixtures/mail/list.mbox",
    ]));
    let document: Value = serde_json::from_str(&stdout).expect("one JSON document");
    let parts: Vec<(u64, &str)> = document["files"]
        .as_array()
        .map(|files| {
            files
                .iter()
                .map(|file| {
                    (
                        file["mail"]["message"].as_u64().unwrap_or_default(),
                        file["mail"]["part"].as_str().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(parts, [(1, "header"), (1, "1"), (2, "1"), (3, "1")]);
    assert_eq!(document["summary"]["files"], 1);
    assert_eq!(document["summary"]["urls"], 7);
}

/// The `--vimgrep` lines of `extract --mail-headers WHICH` on the headers
/// fixture, without the path.
fn header_urls(which: &str) -> Vec<String> {
    let (code, stdout, stderr) = run(&mut urlint(&[
        "extract",
        "--vimgrep",
        "--mail-headers",
        which,
        "fixtures/mail/headers.eml",
    ]));
    assert_eq!((code, stderr.as_str()), (0, ""), "{which}");
    stdout
        .lines()
        .map(|line| line.replacen("fixtures/mail/headers.eml:", "", 1))
        .collect()
}

#[test]
fn mail_headers_choose_which_header_urls_are_read() {
    let body = "15:16:http://body.example.org/";
    let list = [
        "6:13:mailto:list@example.org",
        "7:16:http://lists.example.org/archive/",
        // The X- spelling of a list field is a list field.
        "8:17:http://lists.example.org/archive/2024/2",
    ];
    assert_eq!(header_urls("none"), [body]);
    assert_eq!(header_urls("list"), [&list[..], &[body]].concat());
    assert_eq!(
        header_urls("all"),
        [
            &["3:33:http://subject.example.org/"][..],
            &list[..],
            &[
                "9:17:http://origin.example.org/post/7",
                "10:15:http://base.example.org/",
                body,
            ],
        ]
        .concat()
    );
    // The default reads the messages' texts only.
    let default = run(&mut urlint(&["extract", "fixtures/mail/headers.eml"])).1;
    assert_eq!(default, "http://body.example.org/\n");
}

#[test]
fn mail_headers_apply_to_check_too() {
    let findings = |which: &str| {
        run(&mut urlint(&[
            "check",
            "--format",
            "short",
            "--mail-headers",
            which,
            "fixtures/mail/list.mbox",
        ]))
        .1
    };
    // List-Unsubscribe's mailto with '?subject=' is no RFC 1738 mailto URL.
    assert!(!findings("none").contains("mailto-address"));
    assert!(findings("list").contains("fixtures/mail/list.mbox:9:34: error[mailto-address]"));
}

#[test]
fn byte_offsets_after_latin1_bytes_are_archive_offsets() {
    let archive = read_fixture("fixtures/mail/latin1.eml");
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "--format",
        "jsonl",
        "fixtures/mail/latin1.eml",
    ]));
    assert_eq!((code, stderr.as_str()), (1, ""));
    let records = json_lines(&stdout);
    let findings: Vec<&Value> = records.iter().filter(|r| r["type"] == "finding").collect();
    assert_eq!(findings.len(), 3);
    for finding in findings {
        // Each span covers the flagged character: one Latin-1 byte.
        let span = &finding["spans"][0];
        let (start, end) = (span["start"].as_u64(), span["end"].as_u64());
        let (start, end) = (start.unwrap_or(0) as usize, end.unwrap_or(0) as usize);
        let flagged: String = archive[start..end].iter().map(|&b| char::from(b)).collect();
        let message = finding["message"].as_str().unwrap_or_default();
        assert!(
            message.contains(&format!("'{flagged}'")),
            "{flagged:?} at {start}..{end}: {message}"
        );
    }
}
