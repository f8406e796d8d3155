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
