//! Properties of `check --fix -` and `fmt -` through the real binary on
//! generated text, Markdown and HTML: after fixing, no finding with a
//! machine-applicable fix is left and as many URLs are found; after
//! formatting, the same URLs are
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

/// Markdown or HTML with the URLs in links, attributes and text, some
/// characters written as character references.
fn markup_document(html: bool) -> BoxedStrategy<String> {
    let url = || {
        url().prop_map(|url| {
            url.replacen('~', "&#126;", 1)
                .replacen('{', "&#x7B;", 1)
                .replacen('é', "&eacute;", 1)
        })
    };
    let piece = match html {
        true => prop_oneof![
            "[a-z ,.]{1,10}",
            url().prop_map(|url| format!("<a href=\"{url}\">x</a>")),
            url().prop_map(|url| format!("<img src='{url}'>")),
            url().prop_map(|url| format!("<p>see {url} now</p>")),
            Just("\n".to_string()),
        ]
        .boxed(),
        false => prop_oneof![
            "[a-z ,.]{1,10}",
            url().prop_map(|url| format!("[x]({url})")),
            url().prop_map(|url| format!("\n\n[r]: {url}\n\n")),
            url().prop_map(|url| format!(" see {url} now ")),
            url().prop_map(|url| format!(" `{url}` ")),
            Just("\n".to_string()),
        ]
        .boxed(),
    };
    prop::collection::vec(piece, 0..8)
        .prop_map(|pieces| pieces.concat())
        .boxed()
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
    fn markup_fix_leaves_no_machine_fix_and_as_many_urls(
        (html, text) in any::<bool>()
            .prop_flat_map(|html| markup_document(html).prop_map(move |text| (html, text))),
    ) {
        let kind = if html { "html" } else { "markdown" };
        let check = |args: &[&str], text: &str| {
            let mut all = vec![args[0], "--input", kind];
            all.extend_from_slice(&args[1..]);
            with_stdin(&all, text)
        };
        let (_, fixed) = check(&["check", "--fix", "--format", "short"], &text);
        let (_, left) = check(&["check", "--format", "jsonl"], &fixed);
        prop_assert!(
            !left.contains("\"applicability\":\"machine-applicable\""),
            "{:?} -> {:?}: {}", text, fixed, left
        );
        prop_assert_eq!(
            check(&["extract"], &fixed).1.lines().count(),
            check(&["extract"], &text).1.lines().count()
        );
    }

    #[test]
    fn fmt_extracts_the_same_urls(text in document(), width in 20u16..80) {
        let (_, formatted) = with_stdin(&["fmt", "--width", &width.to_string()], &text);
        prop_assert_eq!(with_stdin(&["extract"], &formatted).1, with_stdin(&["extract"], &text).1);
    }
}
