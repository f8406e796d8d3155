//! Properties of `check --fix -` and `fmt -` through the real binary on
//! generated text: after fixing, no finding with a machine-applicable fix
//! is left and as many URLs are found; after formatting, the same URLs are
//! extracted. (The library-level properties in `src/rewrite/` run many
//! more cases; these check that the command line keeps them.)

mod common;

use common::{run, urlint};
use proptest::prelude::*;

/// A URL with characters fixes are about.
fn url() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["http", "HTTP", "ftp", "gopher", "file"]),
        "[a-z]{1,6}\\.example",
        prop::collection::vec("[a-z0-9~{}|^;é%#-]{0,8}", 0..4),
    )
        .prop_map(|(scheme, host, path)| format!("{scheme}://{host}/{}", path.join("/")))
}

/// Prose with bare, wrapped and broken URLs.
fn document() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z ,.]{1,10}",
        url().prop_map(|url| format!(" {url} ")),
        url().prop_map(|url| format!("<URL:{url}>")),
        (
            url(),
            1usize..20,
            prop::sample::select(vec!["", "> ", "# "])
        )
            .prop_map(|(url, cut, leader)| {
                let at = (1..url.len())
                    .map(|at| (at + cut) % url.len())
                    .find(|&at| at > 0 && url.is_char_boundary(at))
                    .unwrap_or(url.len());
                format!(
                    "\n{leader}<URL:{}\n{leader}   {}>\n",
                    &url[..at],
                    &url[at..]
                )
            }),
        Just("\n".to_string()),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

/// `urlint ARGS -` with `input` on stdin: exit code and stdout.
fn with_stdin(args: &[&str], input: &str) -> (i32, String) {
    let mut all = args.to_vec();
    all.extend(["--isolated", "-"]);
    let (code, stdout, stderr) = run(urlint(&all).write_stdin(input));
    assert!(code < 2, "urlint {args:?} failed: {stderr}");
    (code, stdout)
}

/// Findings of `text` that carry a machine-applicable fix.
fn machine_fixes(text: &str) -> usize {
    let (_, stdout) = with_stdin(&["check", "--format", "jsonl"], text);
    stdout
        .lines()
        .filter(|line| line.contains("\"applicability\":\"machine-applicable\""))
        .count()
}

fn url_count(text: &str) -> usize {
    with_stdin(&["extract"], text).1.lines().count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn fix_leaves_no_machine_fix_and_as_many_urls(text in document()) {
        let (_, fixed) = with_stdin(&["check", "--fix", "--format", "short"], &text);
        prop_assert_eq!(machine_fixes(&fixed), 0, "{:?} -> {:?}", text, fixed);
        prop_assert_eq!(url_count(&fixed), url_count(&text));
    }

    #[test]
    fn fmt_extracts_the_same_urls(text in document(), width in 20u16..80) {
        let (_, formatted) = with_stdin(&["fmt", "--width", &width.to_string()], &text);
        prop_assert_eq!(with_stdin(&["extract"], &formatted).1, with_stdin(&["extract"], &text).1);
    }
}
