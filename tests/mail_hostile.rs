//! Hostile and broken MIME through the real binary: nests deep enough to
//! exhaust a stack, multiparts cut before their closing line, boundaries
//! that delimit nothing, and charset labels whose decoders erase the text.
//!
//! Each case checks a good file in the same run, so that one bad message is
//! seen not to cost the others their findings. Deep nests are generated here,
//! the small cases are fixtures in `fixtures/mail/`.

mod common;

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::Duration;

use common::{run, urlint};

/// A good file beside every bad input, and the URL `extract` prints for it.
const GOOD: (&str, &str) = ("good.txt", "See <URL:http://good.example/~ann>.\n");
const GOOD_URL: &str = "http://good.example/~ann";

/// The URL at the bottom of every generated nest.
const DEEP_URL: &str = "http://deep.example/~x";

/// Far below what a stack overflow or quadratic work would take, in a
/// debug build.
const LIMIT: Duration = Duration::from_secs(60);

/// Run `urlint ARGS` in a temporary directory holding the good file and
/// `name` with `bytes`; returns (exit code, stdout, stderr).
fn urlint_beside_good(name: &str, bytes: &[u8], args: &[&str]) -> (i32, String, String) {
    let dir = tempfile::tempdir().expect("temporary directory");
    fs::write(dir.path().join(GOOD.0), GOOD.1).expect("write good file");
    fs::write(dir.path().join(name), bytes).expect("write bad file");
    let mut command = urlint(args);
    command.current_dir(dir.path()).timeout(LIMIT);
    run(&mut command)
}

/// `extract --format plain` of a fixture and the good file (good last).
fn extract_fixture(fixture: &str) -> (i32, Vec<String>, String) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = fs::read(root.join("fixtures/mail").join(fixture)).expect("fixture exists");
    let (code, stdout, stderr) = urlint_beside_good(
        fixture,
        &bytes,
        &["extract", "--format", "plain", fixture, GOOD.0],
    );
    (code, stdout.lines().map(str::to_owned).collect(), stderr)
}

/// A message of `depth` multiparts, each the only part of the one around
/// it, the URL at the bottom; closed or not.
fn nested_multiparts(depth: usize, closed: bool) -> String {
    let mut message = String::from("Subject: deep\nContent-Type: multipart/mixed; boundary=b0\n\n");
    for level in 1..depth {
        let _ = write!(
            message,
            "--b{}\nContent-Type: multipart/mixed; boundary=b{level}\n\n",
            level - 1
        );
    }
    let _ = writeln!(message, "--b{}\n\n{DEEP_URL}", depth - 1);
    if closed {
        for level in (0..depth).rev() {
            let _ = writeln!(message, "--b{level}--");
        }
    }
    message
}

/// A message holding a message/rfc822 part `depth` times over.
fn nested_messages(depth: usize) -> String {
    let mut message = String::new();
    for level in 0..depth {
        let _ = write!(
            message,
            "Subject: l{level}\nContent-Type: message/rfc822\n\n"
        );
    }
    let _ = writeln!(message, "Subject: leaf\n\n{DEEP_URL}");
    message
}

/// Run `urlint extract -j 1 ARGS` in `dir` with 200 MB of address space
/// (`ulimit -v`); returns (exit code, stdout, stderr), the code `None` when
/// a signal (an allocation failure's abort) ended it.
#[cfg(unix)]
fn extract_in_200_mb(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = std::process::Command::new("sh")
        .args(["-c", "ulimit -v 200000 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_urlint"))
        .args(["extract", "-j", "1"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("sh runs");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
    )
}

/// The stderr lines of a run.
fn warning_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().collect()
}

#[test]
fn rfc2046_5_1_a_deep_nest_of_multiparts_is_read_to_its_url() {
    let (code, stdout, stderr) = urlint_beside_good(
        "deep.eml",
        nested_multiparts(3_000, true).as_bytes(),
        &["extract", "--format", "plain", GOOD.0, "deep.eml"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, format!("{GOOD_URL}\n{DEEP_URL}\n"));
    let warnings = warning_lines(&stderr);
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].contains("nested more than 64 levels deep; the rest read as raw text"),
        "{stderr}"
    );
}

#[test]
fn rfc2046_5_2_1_a_deep_nest_of_messages_is_read_to_its_url() {
    let (code, stdout, stderr) = urlint_beside_good(
        "deep.eml",
        nested_messages(10_000).as_bytes(),
        &["check", "--format", "short", GOOD.0, "deep.eml"],
    );
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "good.txt:1:30: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            "deep.eml:30003:21: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
        ]
    );
    assert_eq!(warning_lines(&stderr).len(), 1, "{stderr}");
}

#[test]
fn rfc2046_5_1_1_an_unterminated_deep_nest_warns_in_a_few_short_lines() {
    let (code, stdout, stderr) = urlint_beside_good(
        "deep.eml",
        nested_multiparts(10_000, false).as_bytes(),
        &["extract", "--format", "plain", GOOD.0, "deep.eml"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, format!("{GOOD_URL}\n{DEEP_URL}\n"));
    let warnings = warning_lines(&stderr);
    // Eight unterminated multiparts, the depth cap, and the count of the rest.
    assert_eq!(warnings.len(), 10, "{stderr}");
    assert!(stderr.len() < 3_000, "{} bytes of warnings", stderr.len());
    assert!(
        warnings[9].ends_with("56 more warnings of this kind (malformed multipart) not shown"),
        "{stderr}"
    );
}

#[test]
fn rfc2046_5_2_1_a_base64_forwarded_message_is_decoded_and_placed_on_its_part() {
    let (code, urls, stderr) = extract_fixture("forwarded_base64.eml");
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(urls, ["http://original.example.org/~gil/", GOOD_URL]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = fs::read(root.join("fixtures/mail/forwarded_base64.eml")).expect("fixture");
    let (_, short, _) = urlint_beside_good(
        "forwarded_base64.eml",
        &bytes,
        &["check", "--format", "short", "forwarded_base64.eml"],
    );
    // The base64 body starts on line 18; decoded text maps onto it whole.
    assert!(
        short.starts_with("forwarded_base64.eml:18:1: error[unsafe-char]"),
        "{short}"
    );
}

#[test]
fn rfc2046_5_1_1_an_unclosed_multipart_still_decodes_its_last_base64_part() {
    let (code, urls, stderr) = extract_fixture("unclosed_base64.eml");
    assert_eq!(code, 0);
    assert_eq!(
        urls,
        [
            "http://notes.example.org/~fay/",
            "http://mirror.example.org/~lists/all.txt",
            GOOD_URL,
        ]
    );
    assert_eq!(
        stderr,
        "urlint: warning: unclosed_base64.eml: message 1 (line 1) <cut-b64@example.org>: \
         multipart has no closing '--cut--' line; read up to the end of the message\n"
    );
}

#[test]
fn rfc2045_6_7_an_unclosed_multipart_still_joins_soft_breaks_in_its_last_part() {
    let (code, urls, stderr) = extract_fixture("unclosed_qp.eml");
    assert_eq!(code, 0);
    assert_eq!(
        urls,
        [
            "http://notes.example.org/~fay/",
            "http://old.example.org:99999/pub/",
            GOOD_URL,
        ]
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn rfc2046_5_1_1_an_unclosed_inner_multipart_ends_at_the_outer_delimiter() {
    let (code, urls, stderr) = extract_fixture("nested_unclosed.eml");
    assert_eq!(code, 0);
    // The base64 part is decoded up to `--outer`; the outer part after it
    // is read as raw text, which the second warning says.
    assert_eq!(
        urls,
        [
            "http://forward.example.org/~gil/",
            "http://after.example.org/~fay/",
            GOOD_URL,
        ]
    );
    assert_eq!(
        stderr,
        format!(
            "urlint: warning: nested_unclosed.eml: message 1 (line 1) <cut-inner@example.org>, \
             part 1: multipart has no closing '--inner--' line; read up to the end of the \
             message\n{}",
            swallowed_warning("nested_unclosed.eml", "cut-inner@example.org", "1.1")
        ),
        "the outer multipart is closed"
    );
}

#[test]
fn rfc2046_5_1_1_an_empty_boundary_reads_the_body_as_one_text() {
    let (code, urls, stderr) = extract_fixture("empty_boundary.eml");
    assert_eq!(code, 0);
    assert_eq!(urls, ["http://lists.example.org/~hal/", GOOD_URL]);
    assert_eq!(
        stderr,
        "urlint: warning: empty_boundary.eml: message 1 (line 1) <empty-boundary@example.org>, \
         part 1: multipart without a usable boundary parameter; its body read as one text part\n"
    );
}

#[test]
fn rfc2046_5_1_1_a_multipart_whose_boundary_delimits_no_part_is_read_as_text_with_a_warning() {
    let (code, urls, stderr) = extract_fixture("unused_boundary.eml");
    assert_eq!(code, 0);
    assert_eq!(
        urls,
        [
            "http://notes.example.org/~hal/",
            "http://talks.example.org/~hal/mime.pdf",
            GOOD_URL,
        ]
    );
    assert_eq!(
        stderr,
        "urlint: warning: unused_boundary.eml: message 1 (line 1) <unused-boundary@example.org>, \
         part 1: multipart whose boundary 'alt' delimits no part; its body read as one text part\n"
    );
}

/// The warning on a part that holds a delimiter line of a multipart around
/// it, at `part`.
fn swallowed_warning(fixture: &str, message_id: &str, part: &str) -> String {
    format!(
        "urlint: warning: {fixture}: message 1 (line 1) <{message_id}>, part {part}: part holds \
         a delimiter line of a multipart around it, which RFC 2046 forbids: parts after it may \
         be misread or read raw\n"
    )
}

#[test]
fn rfc2046_5_1_1_a_part_running_over_an_enclosing_delimiter_is_warned_about() {
    // mail-parser reads the alternative as text up to the end of the
    // message, the base64 part after "--outer" inside it. The text ends at
    // that line, with a warning, and what follows is read again as parts:
    // the base64 part is decoded and its URL found.
    let fixture = "swallowed_delimiter.eml";
    let (code, urls, stderr) = extract_fixture(fixture);
    assert_eq!(code, 0);
    assert_eq!(
        urls,
        [
            "http://notes.example.org/~hal/",
            "http://talks.example.org/~hal/mime.pdf",
            GOOD_URL
        ]
    );
    let prefix = "urlint: warning: swallowed_delimiter.eml: message 1 (line 1) \
                  <swallowed-delimiter@example.org>, ";
    assert_eq!(
        stderr,
        format!(
            "{prefix}part 1: multipart has no closing '--alt--' line; read up to the end of \
             the message\n\
             {prefix}part 1.1: multipart whose boundary 'alt' delimits no part; its body read as \
             one text part\n\
             {}",
            swallowed_warning(fixture, "swallowed-delimiter@example.org", "1.1")
        )
    );
}

#[test]
fn rfc2046_5_1_1_an_encoded_part_after_a_shared_close_delimiter_is_decoded() {
    // One close delimiter ends both nested alternatives, and mail-parser
    // stops reading the enclosing multipart there: the base64 part after
    // the next "--outer" line is read again as a part and decoded, with
    // the warning, where it used to be raw base64 and its URL lost.
    let (code, urls, stderr) = extract_fixture("shared_boundary_base64.eml");
    assert_eq!(code, 0);
    assert_eq!(
        urls,
        [
            "http://first.example.org/~a",
            "http://second.example.org/~b",
            GOOD_URL
        ]
    );
    assert_eq!(
        stderr,
        "urlint: warning: shared_boundary_base64.eml: message 1 (line 1) \
         <shared-boundary-base64@example.org>: parts after a '--outer' line were not parsed \
         (a boundary used by two nested multiparts ends both); read again from that line\n"
    );
}

#[test]
fn rfc2046_5_1_1_a_preamble_holding_an_enclosing_delimiter_is_read_with_a_warning() {
    // A multipart without parts whose close delimiter comes after the
    // enclosing multipart's: its preamble held the rest of the message and
    // was dropped without a word. It is read as text, placed in the archive.
    let fixture = "closed_out_of_order.eml";
    let (code, urls, stderr) = extract_fixture(fixture);
    assert_eq!(code, 0);
    assert_eq!(urls, ["http://notes.example.org/~hal/", GOOD_URL]);
    assert_eq!(
        stderr,
        swallowed_warning(fixture, "closed-out-of-order@example.org", "1.1")
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = format!("fixtures/mail/{fixture}");
    let mut command = urlint(&["extract", "--isolated", "--vimgrep", &path]);
    command.current_dir(root);
    let (_, placed, _) = run(&mut command);
    assert_eq!(
        placed,
        format!("{path}:19:20:http://notes.example.org/~hal/\n")
    );
}

#[test]
fn charsets_whose_decoders_erase_text_are_read_byte_by_byte_with_a_warning() {
    let (code, urls, stderr) = extract_fixture("erasing_charsets.mbox");
    assert_eq!(code, 0);
    assert_eq!(
        urls,
        [
            "http://kr.example.org/~list/",
            "http://cn.example.org/~list/",
            "http://hz.example.org/~list/",
            "http://repl.example.org/~list/",
            "http://u16.example.org/~list/",
            "http://u16b64.example.org/~list/",
            "http://real16.example.org/~list/",
            GOOD_URL,
        ]
    );
    let labels: Vec<&str> = stderr
        .lines()
        .map(|line| {
            let label = line.split("charset '").nth(1).unwrap_or(line);
            label.split('\'').next().unwrap_or(label)
        })
        .collect();
    assert_eq!(
        labels,
        [
            "iso-2022-kr",
            "iso-2022-cn",
            "hz-gb-2312",
            "replacement",
            "utf-16",
            "utf-16"
        ],
        "{stderr}"
    );
}

#[test]
fn a_charset_read_byte_by_byte_keeps_archive_positions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = fs::read(root.join("fixtures/mail/erasing_charsets.mbox")).expect("fixture");
    let (_, stdout, _) = urlint_beside_good(
        "erasing_charsets.mbox",
        &bytes,
        &["check", "--format", "short", "erasing_charsets.mbox"],
    );
    let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    let places: Vec<(usize, usize)> = stdout
        .lines()
        .map(|finding| {
            let mut fields = finding.split(':').skip(1);
            let mut number = || fields.next().and_then(|n| n.parse().ok()).unwrap_or(0);
            (number(), number())
        })
        .collect();
    assert_eq!(places.len(), 7, "{stdout}");
    // The first five are the '~' of a URL in a 7bit body; these lines are
    // ASCII (the ESC of iso-2022-kr's designator included), so a column is
    // a byte. The last two are in base64 bodies, which map as a whole.
    for &(line, column) in &places[..5] {
        let at = lines[line - 1].get(column - 1);
        assert_eq!(at, Some(&b'~'), "{line}:{column}");
    }
    assert!(
        places[5..].iter().all(|&(_, column)| column == 1),
        "{stdout}"
    );
}

#[cfg(unix)]
#[test]
fn a_huge_part_is_checked_window_by_window_in_bounded_memory() {
    // 250,000 URLs in one 11 MB body. Holding every URL's report at once
    // took 30 times the message (335 MB); by 1 MiB windows it takes 80 MB.
    let mut archive =
        String::from("From a@example.org Mon Jan  1 00:00:00 2024\nSubject: many\n\n");
    for index in 0..250_000 {
        let _ = writeln!(archive, "see http://host{index}.example.org/~{index} now");
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    fs::write(dir.path().join("many.mbox"), &archive).expect("write archive");
    let (code, stdout, stderr) =
        extract_in_200_mb(dir.path(), &["--chunk-len", "1048576", "many.mbox"]);
    assert_eq!(code, Some(0), "{stderr}");
    let urls: Vec<&str> = stdout.lines().collect();
    assert_eq!(urls.len(), 250_000);
    assert_eq!(urls[0], "http://host0.example.org/~0");
    assert_eq!(urls[249_999], "http://host249999.example.org/~249999");
}

#[cfg(unix)]
#[test]
fn rfc2046_5_2_1_messages_inside_a_base64_message_are_not_copied() {
    // mail-parser gave each of these 4,000 messages a copy of the whole
    // decoded part: 1.2 GB for a 400 KB message.
    let mut inner = String::from("Subject: in\nContent-Type: multipart/mixed; boundary=i\n\n");
    for index in 0..4_000 {
        let _ = write!(
            inner,
            "--i\nContent-Type: message/rfc822\n\nSubject: n{index}\n\nsee http://n{index}.example/\n"
        );
    }
    inner.push_str("--i--\n");
    let mut message = b"Subject: outer\nContent-Type: message/rfc822\n\
        Content-Transfer-Encoding: base64\n\n"
        .to_vec();
    message.extend(common::base64_lines(&inner));
    let dir = tempfile::tempdir().expect("temporary directory");
    fs::write(dir.path().join("copies.eml"), &message).expect("write message");
    let (code, stdout, stderr) = extract_in_200_mb(dir.path(), &["copies.eml"]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    let urls: Vec<&str> = stdout.lines().collect();
    assert_eq!(urls.len(), 4_000);
    assert_eq!(urls[3_999], "http://n3999.example/");
}

#[cfg(unix)]
#[test]
fn rfc2046_5_2_1_a_deep_nest_of_messages_is_parsed_one_level_at_a_time() {
    // Parsed at once, these 200,000 levels (9 MB) took 314 MB before the
    // walk could stop at its depth cap.
    let dir = tempfile::tempdir().expect("temporary directory");
    fs::write(dir.path().join("deep.eml"), nested_messages(200_000)).expect("write message");
    let (code, stdout, stderr) = extract_in_200_mb(dir.path(), &["deep.eml"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, format!("{DEEP_URL}\n"));
    assert_eq!(warning_lines(&stderr).len(), 1, "{stderr}");
}
