//! Inline suppressions through the real binary, in every place a user
//! writes them: a Markdown comment, a code comment, RFC-style plain text.

mod common;

use common::{run, transcript, urlint};

/// `check --format short` of `text` on stdin with the given extra flags.
fn check_stdin(text: &str, flags: &[&str]) -> (i32, String) {
    let mut args = vec!["check", "--isolated", "--format", "short"];
    args.extend_from_slice(flags);
    args.push("-");
    let (code, stdout, stderr) = run(urlint(&args).write_stdin(text));
    assert_eq!(stderr, "");
    (code, stdout)
}

#[test]
fn markdown_code_and_plain_text_comments_all_suppress() {
    let text = "Docs: <URL:http://a.example/~x> <!-- urlint: ignore -->\n\
                // urlint: ignore-next-line[unsafe-char]\n\
                let home = \"<URL:http://b.example/~y>\";\n\
                <URL:HTTP://c.example/~z> # urlint: ignore[scheme-case]\n";
    let (code, stdout) = check_stdin(text, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "<stdin>:4:23: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n"
    );
}

#[test]
fn the_notes_fixture_keeps_its_suppressed_url_silent() {
    insta::assert_snapshot!(transcript(&mut urlint(&[
        "check",
        "--isolated",
        "--format",
        "short",
        "--select",
        "unsafe-char,unused-suppression",
        "fixtures/config/notes.md",
    ])));
}

#[test]
fn unused_suppressions_are_reported_only_when_asked() {
    let text = "<URL:http://a.example/> <!-- urlint: ignore -->\n";
    assert_eq!(check_stdin(text, &[]), (0, String::new()));
    let (code, stdout) = check_stdin(
        text,
        &["--warn", "unused-suppression", "--deny", "warnings"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "<stdin>:1:30: warning[unused-suppression]: \
         this suppression silences nothing on the line it covers\n"
    );
}

/// A misspelt rule name silences nothing, and says so without being asked
/// (ruff reports unknown codes in `noqa` comments by default); the rule
/// can still be turned off.
#[test]
fn an_unknown_rule_name_is_reported_by_default() {
    let text = "<URL:http://a.example:99999/> <!-- urlint: ignore[bad-prot] -->\n";
    let (code, stdout) = check_stdin(text, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "<stdin>:1:23: error[bad-port]: port 99999 is greater than 65535\n\
         <stdin>:1:51: warning[unknown-rule]: unknown rule 'bad-prot' (did you mean 'bad-port'?)\n"
    );
    let (_, stdout) = check_stdin(text, &["--ignore", "unknown-rule"]);
    assert_eq!(
        stdout,
        "<stdin>:1:23: error[bad-port]: port 99999 is greater than 65535\n"
    );
    // A name close to no rule is a placeholder (documentation about urlint).
    let text = "Write `urlint: ignore[rule]` after the URL, as in \
                <URL:http://a.example/> urlint: ignore[RULE, ...]\n";
    assert_eq!(check_stdin(text, &[]), (0, String::new()));
    // A known name next to it still silences its rule.
    let text = "<URL:http://a.example:99999/> <!-- urlint: ignore[bad-prot, bad-port] -->\n";
    let (code, stdout) = check_stdin(text, &[]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("warning[unknown-rule]: unknown rule 'bad-prot'"),
        "{stdout}"
    );
    assert!(!stdout.contains("bad-port]"), "{stdout}");
}

/// A typo in a rule list (an unclosed `[`, other brackets, a comma) made
/// the directive a bare `ignore`: every finding on the line was silenced,
/// exit 0, nothing said. It now silences nothing and says why.
#[test]
fn an_unreadable_rule_list_silences_nothing_and_says_so() {
    for (directive, why) in [
        ("urlint: ignore[bad-port", "not closed with `]`"),
        ("urlint: ignore(bad-port)", "after `(`"),
        ("urlint: ignore,bad-port", "after `,`"),
        ("urlint: ignore-next-line[bad-port", "not closed with `]`"),
    ] {
        let next_line = directive.contains("next-line");
        let text = match next_line {
            true => format!("<!-- {directive} -->\n<URL:http://a.example:99999/>\n"),
            false => format!("<URL:http://a.example:99999/> <!-- {directive} -->\n"),
        };
        let (code, stdout) = check_stdin(&text, &[]);
        assert_eq!(code, 1, "{directive}: {stdout}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{directive}: {stdout}");
        assert!(
            stdout.contains("error[bad-port]: port 99999 is greater than 65535"),
            "{directive}: {stdout}"
        );
        assert!(
            stdout.contains("warning[unknown-rule]: ") && stdout.contains(why),
            "{directive}: {stdout}"
        );
    }
    // Prose after a bare directive is still prose.
    let text = "<URL:http://a.example:99999/> <!-- urlint: ignore, test data -->\n";
    assert_eq!(check_stdin(text, &[]), (0, String::new()));
}

/// `check` of `text` on stdin in `format`, `unused-suppression` on.
fn check_unused(text: &str, format: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec![
        "check",
        "--isolated",
        "--warn",
        "unused-suppression",
        "--format",
        format,
    ];
    args.extend_from_slice(extra);
    args.push("-");
    let (code, stdout, stderr) = run(urlint(&args).write_stdin(text));
    assert_eq!(stderr, "");
    (code, stdout)
}

/// A text without a URL: its directive is its own finding.
const NO_URL: &str = "Notes.\n<!-- urlint: ignore-next-line -->\nplain\n";

#[test]
fn a_text_without_urls_reports_its_unused_directive_in_every_format() {
    let message = "this suppression silences nothing on the line it covers";
    assert_eq!(
        check_unused(NO_URL, "short", &["--deny", "warnings"]),
        (
            1,
            format!("<stdin>:2:6: warning[unused-suppression]: {message}\n")
        )
    );
    let (_, human) = check_unused(NO_URL, "human", &["--color", "never"]);
    assert!(human.contains("┌─ <stdin>:2:6\n"), "{human}");
    assert!(
        human.ends_with("checked 1 file, found 0 URLs: 0 errors, 1 warning\n"),
        "{human}"
    );
    let (_, github) = check_unused(NO_URL, "github", &[]);
    assert!(
        github.starts_with(
            "::warning file=<stdin>,line=2,col=6,endLine=2,endColumn=29,\
             title=urlint(unused-suppression)::"
        ),
        "{github}"
    );
    let (_, json) = check_unused(NO_URL, "json", &[]);
    let json: serde_json::Value = serde_json::from_str(&json).expect("one document");
    let file = &json["files"][0];
    assert_eq!(file["urls"], serde_json::json!([]));
    assert_eq!(
        (&file["findings"][0]["line"], &file["findings"][0]["column"]),
        (&2.into(), &6.into())
    );
    assert_eq!(json["summary"]["warnings"], 1);
    let (_, jsonl) = check_unused(NO_URL, "jsonl", &[]);
    let lines: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON lines"))
        .collect();
    assert_eq!(lines.len(), 2, "{jsonl}");
    assert_eq!(lines[0]["found"], serde_json::Value::Null);
    assert_eq!(
        lines[0]["spans"][0]["start"],
        NO_URL.find("urlint").unwrap()
    );
    assert_eq!(lines[1]["warnings"], 1);
    let (_, sarif) = check_unused(NO_URL, "sarif", &[]);
    let sarif: serde_json::Value = serde_json::from_str(&sarif).expect("one log");
    let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (&region["startLine"], &region["startColumn"]),
        (&2.into(), &6.into())
    );
}

#[test]
fn windows_report_each_unused_directive_once_wherever_the_urls_are() {
    // URLs only near the start: the directives after them lie in windows
    // without a URL of their own.
    let mut text = String::from("see <URL:http://a.example/~x> urlint: ignore\n");
    for line in 0..400 {
        if line % 3 == 0 {
            text.push_str("// urlint: ignore-next-line\n");
        } else {
            text.push_str("prose prose urlint: ignore[bad-port]\n");
        }
    }
    let whole = check_unused(&text, "short", &[]).1;
    assert_eq!(whole.lines().count(), 400, "{whole}");
    assert!(!whole.contains(":1:"), "the used directive is not reported");
    for chunk_len in ["1", "100", "4096"] {
        let windowed = check_unused(&text, "short", &["--chunk-len", chunk_len]).1;
        assert_eq!(windowed, whole, "--chunk-len {chunk_len}");
    }
    let json = check_unused(&text, "json", &["--chunk-len", "100"]).1;
    let json: serde_json::Value = serde_json::from_str(&json).expect("one document");
    assert_eq!(json["files"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        json["files"][0]["findings"].as_array().map(Vec::len),
        Some(400)
    );
    assert_eq!(json["summary"]["warnings"], 400);
}
