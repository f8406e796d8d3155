//! Random edit sequences against the real `urlint server`: whatever ranges
//! a client sends (past the end, inside a surrogate pair, reversed), the
//! server never panics, applies them as the protocol's clamping rules say,
//! its final diagnostics are exactly what `urlint check` reports on the
//! final text, saved as a file of the same kind in the same workspace, and
//! its fix-all action makes the text `urlint check --fix` makes of it.

mod lsp_client;

use lsp_client::{file_uri, range, utf16_position, Client};
use proptest::prelude::*;
use serde_json::{json, Value};

/// Pieces of documents: URLs of every form and kind of markup, broken
/// lines, suppressions, characters of every UTF-8 and UTF-16 length, and
/// every line break.
const PIECES: &[&str] = &[
    "http://h.example/~a",
    "<URL:http://w.example:8x/a~\n   ~b/>",
    "<URL:ftp://f.example/pub/\n     file-\n     name.txt>",
    "https://k.example/{x}",
    "[link](http://m.example/~q)",
    "`http://c.example/~z`",
    "<a href=\"http://e.example/&#126;\">x</a>",
    " urlint: ignore[unsafe-char]",
    "mailto:a@b.example",
    "HTTP://U.example:99999/",
    "\u{1F600}",
    "\u{e9}",
    "\u{20ac}",
    "\r\n",
    "\n",
    "\r",
    " ",
    "see ",
    "<",
    ">",
    ")",
];

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => proptest::sample::select(PIECES).prop_map(str::to_owned),
        1 => "[a-z~:/<>{}()\\[\\] \n]{0,6}",
    ]
}

fn text() -> impl Strategy<Value = String> {
    proptest::collection::vec(piece(), 0..12).prop_map(|pieces| pieces.concat())
}

/// One content change a client may send.
#[derive(Debug, Clone)]
enum Change {
    /// The whole text.
    Full(String),
    /// A range (lines and UTF-16 characters, possibly naming no text) and
    /// what replaces it.
    Range((u32, u32), (u32, u32), String),
}

fn change() -> impl Strategy<Value = Change> {
    let position = (0u32..8, prop_oneof![4 => 0u32..40, 1 => Just(u32::MAX)]);
    prop_oneof![
        1 => text().prop_map(Change::Full),
        8 => (position.clone(), position, text())
            .prop_map(|(start, end, text)| Change::Range(start, end, text)),
    ]
}

/// The byte offset a client's position names in `text`, clamped as the
/// protocol asks: past the last line is the end, past a line's end is the
/// line's end, inside a character is its start.
fn clamped_offset(text: &str, (line, character): (u32, u32)) -> usize {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (at, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(at + 1) != Some(&b'\n')) {
            starts.push(at + 1);
        }
    }
    let Some(&start) = starts.get(line as usize) else {
        return text.len();
    };
    let end = match starts.get(line as usize + 1) {
        None => text.len(),
        Some(&next) if text[..next].ends_with("\r\n") => next - 2,
        Some(&next) => next - 1,
    };
    let mut units = 0u64;
    for (at, c) in text[start..end].char_indices() {
        units += c.len_utf16() as u64;
        if units > u64::from(character) {
            return start + at;
        }
    }
    end
}

/// `text` after `change`, as the server must have applied it.
fn apply(text: &str, change: &Change) -> String {
    match change {
        Change::Full(new) => new.clone(),
        Change::Range(start, end, new) => {
            let (a, b) = (clamped_offset(text, *start), clamped_offset(text, *end));
            let mut edited = text.to_owned();
            edited.replace_range(a.min(b)..a.max(b), new);
            edited
        }
    }
}

fn change_json(change: &Change) -> Value {
    match change {
        Change::Full(text) => json!({"text": text}),
        Change::Range(start, end, text) => json!({"range": range(*start, *end), "text": text}),
    }
}

/// A finding as both sides can say it: rule, severity, message, and the
/// ranges of its pieces.
type Said = (String, u64, String, Vec<Value>);

/// What the server published, as [`Said`]. A diagnostic without a rule is
/// a warning of the reading side, which `check` prints with the line and
/// column in its message and no range, and calls the text a file where
/// the server calls its buffer the input.
fn from_server(diagnostics: &[Value]) -> Vec<Said> {
    let mut said: Vec<Said> = diagnostics
        .iter()
        .map(|diagnostic| {
            if diagnostic.get("code").is_none() {
                let message = diagnostic["message"].as_str().unwrap_or_default();
                let message = message.replace("the rest of the input", "the rest of the file");
                return (String::new(), 2, message, Vec::new());
            }
            let mut ranges = vec![diagnostic["range"].clone()];
            let related = diagnostic["relatedInformation"].as_array();
            ranges.extend(related.into_iter().flatten().filter_map(|info| {
                let message = info["message"].as_str().unwrap_or_default();
                message
                    .ends_with(" continues here")
                    .then(|| info["location"]["range"].clone())
            }));
            (
                diagnostic["code"].as_str().unwrap_or_default().to_owned(),
                diagnostic["severity"].as_u64().unwrap_or_default(),
                diagnostic["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                ranges,
            )
        })
        .collect();
    said.sort_by_key(|said| format!("{said:?}"));
    said
}

/// What `urlint check --format json` reports on `text`, as [`Said`], with
/// the warnings it printed on `stderr` about the file at `path`.
fn from_check(report: &Value, stderr: &str, path: &str, text: &str) -> Vec<Said> {
    let warning = format!("urlint: warning: {path}: ");
    let warnings = stderr
        .lines()
        .filter_map(|line| line.strip_prefix(&warning))
        .map(|message| (String::new(), 2, message.to_owned(), Vec::new()));
    let files = report["files"].as_array().cloned().unwrap_or_default();
    // A URL's findings, then the text's own (unknown-rule at a directive).
    let findings = files
        .iter()
        .flat_map(|file| file["urls"].as_array().cloned().unwrap_or_default())
        .flat_map(|url| url["findings"].as_array().cloned().unwrap_or_default())
        .chain(
            files
                .iter()
                .flat_map(|file| file["findings"].as_array().cloned().unwrap_or_default()),
        );
    let mut said: Vec<Said> = findings
        .map(|finding| {
            let mut message = finding["message"].as_str().unwrap_or_default().to_owned();
            if let Some(help) = finding["help"].as_str() {
                message.push('\n');
                message.push_str(help);
            }
            let severity = match finding["severity"].as_str() {
                Some("error") => 1,
                _ => 2,
            };
            let ranges = finding["spans"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|span| {
                    let at = |key: &str| span[key].as_u64().unwrap_or_default() as usize;
                    range(
                        utf16_position(text, at("start")),
                        utf16_position(text, at("end")),
                    )
                })
                .collect();
            (
                finding["rule"].as_str().unwrap_or_default().to_owned(),
                severity,
                message,
                ranges,
            )
        })
        .chain(warnings)
        .collect();
    said.sort_by_key(|said| format!("{said:?}"));
    said
}

/// The configuration of every case's workspace: a rule off by default
/// turned on, so that both sides must have read it.
const CONFIG: &str = "[rules]\nbare-url = \"warning\"\nscheme-case = \"error\"\n";

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        ..ProptestConfig::default()
    })]

    #[test]
    fn edits_never_panic_and_end_where_urlint_check_ends(
        extension in proptest::sample::select(&["txt", "md", "rst", "html", "eml"][..]),
        start in text(),
        batches in proptest::collection::vec(proptest::collection::vec(change(), 1..4), 1..6),
    ) {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("urlint.toml"), CONFIG).expect("write urlint.toml");
        let path = dir.path().join(format!("doc.{extension}"));
        let uri = file_uri(&path);
        let elsewhere = tempfile::tempdir().expect("temp dir");
        let (mut client, _) = Client::initialized(
            elsewhere.path(),
            json!({"rootUri": file_uri(dir.path())}),
        );
        // A message's URLs are in its body, after the header.
        let start = match extension {
            "eml" => format!("Subject: s\n\n{start}"),
            _ => start,
        };
        client.open(&uri, "plaintext", 1, &start);
        let mut text = start;
        let mut version = 1;
        for batch in &batches {
            version += 1;
            for change in batch {
                text = apply(&text, change);
            }
            let changes: Vec<Value> = batch.iter().map(change_json).collect();
            client.change(&uri, version, Value::Array(changes));
        }
        let published = client.diagnostics(&uri, version);

        std::fs::write(&path, &text).expect("write the final text");
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
            .args(["check", "--format", "json", "--exit-zero"])
            .arg(&path)
            .current_dir(dir.path())
            .output()
            .expect("urlint check runs");
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let mut said = from_check(&report, &stderr, &path.display().to_string(), &text);
        // What the mail reader says of a message's structure ("message 1
        // (line 1): no header block found") the server shows as a message, for the
        // document rather than at a place in it.
        let logged: Vec<String> = client
            .unread()
            .iter()
            .filter(|message| message["method"] == "window/showMessage")
            .filter_map(|message| message["params"]["message"].as_str().map(str::to_owned))
            .collect();
        said.retain(|(rule, _, message, _)| {
            let of_a_message = rule.is_empty() && message.starts_with("message ");
            !(of_a_message && logged.iter().any(|log| log.ends_with(message.as_str())))
        });
        prop_assert_eq!(from_server(&published), said, "{:?}", text);

        // Fix-all is `check --fix` on the same text.
        let actions = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri},
                "range": range((0, 0), (0, 0)),
                "context": {"diagnostics": [], "only": ["source.fixAll"]},
            }),
        );
        let fixed_here = match actions.as_array().and_then(|actions| actions.first()) {
            None => text.clone(),
            Some(action) => {
                let edit = &action["edit"]["changes"][&uri][0];
                let at = |key: &str| {
                    let position = &edit["range"][key];
                    let line = position["line"].as_u64().unwrap_or_default() as u32;
                    let character = position["character"].as_u64().unwrap_or_default() as u32;
                    clamped_offset(&text, (line, character))
                };
                let mut fixed = text.clone();
                fixed.replace_range(at("start")..at("end"), edit["newText"].as_str().unwrap_or_default());
                fixed
            }
        };
        std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
            .args(["check", "--fix", "--exit-zero", "--quiet"])
            .arg(&path)
            .current_dir(dir.path())
            .output()
            .expect("urlint check --fix runs");
        let fixed_there = std::fs::read_to_string(&path).expect("read the fixed file");
        prop_assert_eq!(fixed_here, fixed_there);

        let (status, stderr) = client.shutdown_and_exit();
        prop_assert_eq!(status.code(), Some(0), "{}", stderr);
        prop_assert!(!stderr.contains("panicked"), "{}", stderr);
    }
}
