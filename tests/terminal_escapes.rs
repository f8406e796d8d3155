//! Input text never drives the terminal or forges a record, through the
//! real binary: control and bidirectional characters from file contents,
//! file names and mail headers are written as escapes in the human, short
//! and plain formats and on stderr, the human format's carets stay under
//! them, and the JSON formats keep them exact.

mod common;

use std::fs;
use std::path::Path;

use common::{run, urlint};

/// A line that sets the window title and writes the clipboard, with a URL
/// holding both sequences and one holding a right-to-left override.
const HOSTILE_TEXT: &str = "Title \u{1b}]0;pwned\u{7} see \
    <URL:http://a.example/x\u{1b}]52;c;ZXZpbA==\u{7}y> and <URL:http://b.example/~z\u{202e}txt>\n";

/// Run `urlint ARGS` in `dir`; returns (exit code, stdout, stderr).
fn urlint_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut command = urlint(args);
    command.current_dir(dir);
    run(&mut command)
}

/// A temporary directory holding `files`.
fn dir_with(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    for (name, bytes) in files {
        fs::write(dir.path().join(name), bytes).expect("write file");
    }
    dir
}

/// The first character that must not reach a terminal raw, if any: a
/// control character other than tab and newline, or a bidi control.
fn raw_control(output: &str) -> Option<char> {
    output.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

#[test]
fn human_output_escapes_source_lines_and_keeps_carets_under_escapes() {
    let dir = dir_with(&[("osc.txt", HOSTILE_TEXT.as_bytes())]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check", "osc.txt"]);
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(raw_control(&stdout), None, "{stdout}");
    let source_line = "1 │ Title \\x1b]0;pwned\\x07 see <URL:http://a.example/x\\x1b]52;c;\
        ZXZpbA==\\x07y> and <URL:http://b.example/~z\\u{202e}txt>";
    assert!(stdout.contains(source_line), "{stdout}");
    assert!(
        stdout.contains("= help: replace `\\x1b` with `%1B`"),
        "{stdout}"
    );
    // The ESC inside the wrapper is labelled by four carets under `\x1b`,
    // and the header still gives its true column.
    let esc_column = HOSTILE_TEXT.find("x\u{1b}]52").unwrap_or(0) + 2;
    assert!(
        stdout.contains(&format!("┌─ osc.txt:1:{esc_column}\n")),
        "{stdout}"
    );
    let shown_at = source_line.find("x\\x1b]52").unwrap_or(0) + 1;
    let carets = format!("\n  │ {}^^^^\n", " ".repeat(shown_at - "1 │ ".len()));
    assert!(stdout.contains(&carets), "{carets:?} in\n{stdout}");
}

#[test]
fn plain_and_json_extract_escape_and_keep_the_url() {
    let dir = dir_with(&[("osc.txt", HOSTILE_TEXT.as_bytes())]);
    let (_, plain, _) = urlint_in(dir.path(), &["extract", "osc.txt"]);
    assert_eq!(
        plain,
        "http://a.example/x\\x1b]52;c;ZXZpbA==\\x07y\nhttp://b.example/~z\\u{202e}txt\n"
    );
    let (_, jsonl, _) = urlint_in(dir.path(), &["extract", "--format", "jsonl", "osc.txt"]);
    let urls: Vec<String> = jsonl
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).expect("jsonl");
            record["url"].as_str().unwrap_or_default().to_owned()
        })
        .collect();
    assert_eq!(
        urls,
        [
            "http://a.example/x\u{1b}]52;c;ZXZpbA==\u{7}y",
            "http://b.example/~z\u{202e}txt"
        ],
        "JSON stays exact"
    );
}

#[test]
fn non_ascii_message_shows_a_bidi_override_escaped() {
    let dir = dir_with(&[("osc.txt", HOSTILE_TEXT.as_bytes())]);
    let (_, short, _) = urlint_in(dir.path(), &["check", "--format", "short", "osc.txt"]);
    assert_eq!(raw_control(&short), None, "{short}");
    assert!(
        short.contains("non-ASCII character '\\u{202e}' must be encoded as %E2%80%AE"),
        "{short}"
    );
}

#[cfg(unix)]
#[test]
fn a_newline_in_a_file_name_cannot_forge_a_short_record() {
    let forged = "a.txt:9:9: error[bad-port]: forged\nb.txt";
    let dir = dir_with(&[
        (forged, b"http://x.example/~y\n"),
        ("r\u{202e}txt.exe", b"http://r.example/~y\n"),
    ]);
    let (code, stdout, stderr) = urlint_in(dir.path(), &["check", "--format", "short", "."]);
    assert_eq!((code, stderr.as_str()), (1, ""));
    let mut lines: Vec<&str> = stdout.lines().collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "./a.txt:9:9: error[bad-port]: forged\\x0ab.txt:1:18: error[unsafe-char]: \
             unsafe character '~' must be encoded as %7E",
            "./r\\u{202e}txt.exe:1:18: error[unsafe-char]: \
             unsafe character '~' must be encoded as %7E",
        ]
    );
    let (_, human, _) = urlint_in(dir.path(), &["check", "."]);
    assert_eq!(raw_control(&human), None, "{human}");
    assert!(human.contains("┌─ ./r\\u{202e}txt.exe:1:18\n"), "{human}");
}

#[test]
fn mail_header_fields_in_warnings_are_escaped() {
    let message = "Subject: s\nMessage-ID: <\u{1b}]0;id\u{7}@x>\n\
        Content-Type: multipart/mixed; boundary=\"\u{1b}[31mB\"\n\n\
        --\u{1b}[31mB\nContent-Type: text/plain; charset=\"x-\u{1b}]0;cs\u{7}\"\n\n\
        http://m.example/~m\n";
    let dir = dir_with(&[("inj.eml", message.as_bytes())]);
    let (code, _, stderr) = urlint_in(dir.path(), &["check", "--format", "short", "inj.eml"]);
    assert_eq!(code, 1);
    assert_eq!(raw_control(&stderr), None, "{stderr}");
    assert_eq!(
        stderr,
        "urlint: warning: inj.eml: message 1 (line 1) <\\x1b]0;id\\x07@x>: \
         multipart has no closing '--\\x1b[31mB--' line; read up to the end of the message\n\
         urlint: warning: inj.eml: message 1 (line 1) <\\x1b]0;id\\x07@x>, part 1: \
         unknown charset 'x-\\x1b]0;cs\\x07'; read as UTF-8\n"
    );
}

/// Characters a file name is made of: letters, separators the short format
/// uses, and every kind of control: C0, DEL, C1, bidi.
#[cfg(unix)]
const NAME_CHARS: &[char] = &[
    'a', 'b', '.', ' ', ':', 'é', '\n', '\r', '\t', '\u{1b}', '\u{7}', '\u{8}', '\u{7f}', '\u{85}',
    '\u{9b}', '\u{61c}', '\u{200f}', '\u{202e}', '\u{2066}',
];

/// Pieces of hostile text: URLs in every form, terminal sequences inside
/// and around them, bidi controls, suppressions, bytes that are not UTF-8
/// (read as Latin-1, so 0x85 and 0x9b become C1 controls) and a NUL (which
/// makes the file binary: skipped with a warning naming it).
#[cfg(unix)]
const TEXT_PIECES: &[&[u8]] = &[
    b"http://a.example/",
    b"<URL:http://b.example/~",
    b">",
    b"<ftp://c.example:99999/",
    b"mailto:",
    b"\x1b]0;title\x07",
    b"\x1b]52;c;ZXZpbA==\x07",
    b"\x1b[31m",
    b"\x08\x0b\x0c\x7f",
    b"\r",
    b"\n",
    b"\n   ",
    b"-\n",
    b" ",
    b"\t",
    "\u{202e}".as_bytes(),
    "\u{2067}\u{200e}".as_bytes(),
    "\u{85}\u{9b}".as_bytes(),
    b"\x85\x9b\xe9",
    b"urlint: ignore",
    b"urlint: ignore-next-line[\x1b[1m]",
    b"\x00",
];

/// A mail header block whose fields hold terminal sequences, for texts
/// read as mail.
#[cfg(unix)]
const HOSTILE_HEADERS: &[u8] = b"Message-ID: <\x1b]0;id\x07@x>\n\
    Subject: =?utf-8?q?=1B]0;t=07_=E2=80=AE?=\n\
    Content-Type: multipart/mixed; boundary=\"\x1b[31mB\"\n\n\
    --\x1b[31mB\nContent-Type: text/plain; charset=\"x-\x1b]0;cs\x07\"\n\n";

#[cfg(unix)]
proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

    /// Whatever a file's name and text, nothing below 0x20 but tab and
    /// newline, no DEL or C1 control and no bidi control reaches the human,
    /// short or plain output, or stderr, with every rule on.
    #[test]
    fn no_control_or_bidi_character_reaches_a_terminal_format(
        name in proptest::collection::vec(proptest::sample::select(NAME_CHARS), 1..10),
        pieces in proptest::collection::vec(proptest::sample::select(TEXT_PIECES), 0..40),
        mail: bool,
    ) {
        let name: String = name.into_iter().collect();
        let name = format!("{name}{}", if mail { ".eml" } else { ".txt" });
        let mut text = if mail { HOSTILE_HEADERS.to_vec() } else { Vec::new() };
        text.extend(pieces.concat());
        let dir = dir_with(&[(name.as_str(), text.as_slice())]);
        let every_rule: Vec<&str> = urlint::rules::CATALOGUE.iter().map(|rule| rule.name).collect();
        let every_rule = every_rule.join(",");
        let commands: [&[&str]; 3] = [
            &["check", "--isolated", "--verbose", "--color", "never", "--warn", &every_rule],
            &["check", "--isolated", "--verbose", "--format", "short", "--warn", &every_rule],
            &["extract", "--isolated", "--verbose"],
        ];
        for args in commands {
            let mut command = urlint(args);
            command.current_dir(dir.path()).arg(&name);
            let output = command.output().expect("the urlint binary runs");
            for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
                let raw = bytes
                    .iter()
                    .find(|&&byte| (byte < 0x20 && byte != b'\t' && byte != b'\n') || byte == 0x7f);
                let text = String::from_utf8_lossy(bytes);
                proptest::prop_assert_eq!(raw, None, "{:?} {}: {}", args, stream, text);
                proptest::prop_assert_eq!(raw_control(&text), None, "{:?} {}: {}", args, stream, text);
            }
        }
    }
}

/// A file name with a newline, ESC or BEL reaches no output raw and forges
/// no line: `--format github` escapes it, `fmt --check` lists it escaped,
/// and the diff headers of `check --diff` and `fmt --diff` quote it as git
/// does.
#[cfg(unix)]
#[test]
fn file_names_with_control_characters_are_escaped_everywhere() {
    let name = "evil\n::error file=x::forged\u{1b}]0;t\u{7}.txt";
    let long = format!("See http://a.example/{}/~x for it\n", "x".repeat(80));
    let dir = dir_with(&[(name, long.as_bytes())]);
    // (the arguments, whether the output is a diff)
    let runs: [(&[&str], bool); 5] = [
        (&["check", "--format", "github", "."], false),
        (&["check", "--diff", "."], true),
        (&["fmt", "--diff", "."], true),
        (&["fmt", "--check", "."], false),
        (&["check", "--format", "short", "."], false),
    ];
    for (args, is_diff) in runs {
        let (_, stdout, stderr) = urlint_in(dir.path(), args);
        assert_eq!(raw_control(&stdout), None, "{args:?}: {stdout:?}");
        assert_eq!(raw_control(&stderr), None, "{args:?}: {stderr:?}");
        assert!(
            !stdout
                .lines()
                .any(|line| line.starts_with("::error file=x")),
            "{args:?} forged a record: {stdout}"
        );
        if is_diff {
            assert!(
                stdout.contains(r#"--- "a/evil\n::error"#),
                "{args:?}: {stdout}"
            );
        }
    }
}
