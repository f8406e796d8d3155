//! Markdown and HTML inputs through the real binary: which URLs are found,
//! in which form, at which line and column of the file as written, in every
//! output format; the kind chosen by extension, `--input`, `[kinds]`; code
//! skipped unless `--include-verbatim`; suppression comments.

mod common;

use std::fs;

use common::{extracted, first_position, run, transcript, urlint};

const MARKDOWN: &str = "fixtures/markup/project.md";
const HTML: &str = "fixtures/markup/page.html";
const HTML_MAIL: &str = "fixtures/mail/html_entities.eml";

/// Owned rows for comparing with [`extracted`].
fn rows(rows: &[(&str, &str, u64, u64)]) -> Vec<(String, String, u64, u64)> {
    rows.iter()
        .map(|&(form, url, line, column)| (form.to_string(), url.to_string(), line, column))
        .collect()
}

#[test]
fn markdown_destinations_and_prose_urls_at_their_places() {
    assert_eq!(
        extracted(&[MARKDOWN]),
        rows(&[
            (
                "link",
                "https://img.shields.example/crates/v/driftwood.svg",
                6,
                15
            ),
            ("link", "https://crates.example/crates/driftwood", 6, 68),
            ("link", "https://docs.example/driftwood/badge.svg", 6, 117),
            ("link", "https://docs.example/driftwood", 6, 160),
            (
                "link",
                "https://ci.example/driftwood/badge.svg?branch=main",
                7,
                8
            ),
            (
                "link",
                "https://notes.example/driftwood/design notes.html",
                10,
                51
            ),
            ("link", "https://forum.example/c/driftwood", 11, 18),
            (
                "wrapped",
                "http://lists.example.org/pipermail/driftwood-users/",
                12,
                6
            ),
            ("link", "https://spec.example/tides(v2)#tables", 15, 54),
            ("link", "https://search.example/?q=tide&page=2", 16, 45),
            ("bare", "http://driftwood.example.org/download", 18, 28),
            ("bare", "https://mirror.example.net/driftwood/", 19, 2),
            (
                "attribute",
                "https://img.example/driftwood/logo.png",
                32,
                13
            ),
            (
                "attribute",
                "https://img.example/driftwood/logo@2x.png",
                32,
                61
            ),
            ("attribute", "http://people.example.org/~marta/", 33, 29),
            ("bare", "http://builds.example.org:99999/driftwood/", 37, 21),
            ("link", "https://guide.example/driftwood/", 39, 10),
            ("link", "https://ci.example/driftwood", 40, 8),
        ])
    );
}

#[test]
fn html_attributes_and_visible_text_at_their_places() {
    assert_eq!(
        extracted(&[HTML]),
        rows(&[
            ("attribute", "https://tides.example/today.html", 7, 47),
            (
                "attribute",
                "https://tides.example/tables?harbour=kiel&year=2024",
                13,
                26
            ),
            ("attribute", "https://tides.example/café/", 14, 16),
            ("attribute", "https://img.example/chart.png", 15, 13),
            ("attribute", "https://img.example/chart-1x.png", 16, 16),
            ("attribute", "https://img.example/chart-2x.png", 16, 53),
            ("bare", "http://mirror.example.org/~tides/", 17, 14),
            ("wrapped", "ftp://ftp.example.org/pub/tides/", 18, 23),
            ("attribute", "http://old.example.org/~legacy/", 21, 12),
            ("attribute", "http://older.example.org/~legacy/", 22, 12),
        ])
    );
}

#[test]
fn an_html_mail_part_is_read_as_html_on_the_archive_lines() {
    assert_eq!(
        extracted(&[HTML_MAIL]),
        rows(&[
            (
                "attribute",
                "https://tides.example/tables?harbour=kiel&year=2024",
                12,
                37
            ),
            ("attribute", "https://tides.example/café/", 14, 39),
            ("angle", "http://lists.example.org/~tides/", 16, 18),
        ])
    );
}

/// The `short` lines of `check` on `args`, and its exit code.
fn short(args: &[&str]) -> (i32, Vec<String>) {
    let mut all = vec!["check", "--format", "short"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(&mut urlint(&all));
    assert_eq!(stderr, "", "{args:?}");
    (code, stdout.lines().map(str::to_string).collect())
}

#[test]
fn findings_point_at_source_bytes_and_comments_silence_them() {
    let (code, lines) = short(&[MARKDOWN, HTML, HTML_MAIL]);
    assert_eq!(code, 1);
    assert_eq!(
        lines,
        [
            "fixtures/markup/project.md:10:89: error[unsafe-char]: unsafe character ' ' (space) must be encoded as %20",
            "fixtures/markup/project.md:33:55: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            "fixtures/markup/page.html:14:41: error[non-ascii]: non-ASCII character 'é' must be encoded as %C3%A9",
            "fixtures/markup/page.html:17:40: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
            "fixtures/mail/html_entities.eml:14:64: error[non-ascii]: non-ASCII character 'é' must be encoded as %C3%A9",
            "fixtures/mail/html_entities.eml:16:43: error[unsafe-char]: unsafe character '~' must be encoded as %7E",
        ]
    );
}

#[test]
fn human_output_labels_a_markdown_destination() {
    let (_, stdout, _) = run(&mut urlint(&[
        "check",
        "--color",
        "never",
        "--select",
        "unsafe-char",
        MARKDOWN,
    ]));
    let first = stdout.split("\n\n").next().unwrap_or_default();
    insta::assert_snapshot!(first);
}

#[test]
fn a_decoded_reference_is_labelled_and_replaced_whole() {
    let (_, stdout, _) = run(&mut urlint(&["check", "--color", "never", HTML]));
    let first = stdout.split("\n\n").next().unwrap_or_default();
    insta::assert_snapshot!(first);
}

#[test]
fn every_format_places_a_markdown_finding_on_the_same_line_and_column() {
    for format in ["short", "github", "jsonl", "json", "sarif"] {
        assert_eq!(first_position(format, MARKDOWN), (10, 89), "{format}");
    }
}

#[test]
fn the_kind_is_chosen_by_input_flag_extension_or_kinds_glob() {
    let dir = tempfile::tempdir().expect("temp dir");
    let badge = "[![v](https://img.example/v.svg)](https://crates.example/x)\n";
    fs::write(dir.path().join("notes.txt"), badge).expect("write");
    fs::write(dir.path().join("page.mdx"), badge).expect("write");
    let notes = dir.path().join("notes.txt");
    let notes = notes.to_str().unwrap_or_default();
    // Each URL with its form: a Markdown destination is a `link`, the same
    // text read as plain text gives `bare` URLs.
    let urls = |args: &[&str]| -> Vec<String> {
        extracted(args)
            .into_iter()
            .map(|(form, url, _, _)| format!("{form} {url}"))
            .collect()
    };
    let as_markdown = [
        "link https://img.example/v.svg",
        "link https://crates.example/x",
    ];
    assert_eq!(urls(&["--input", "markdown", notes]), as_markdown);
    assert_eq!(
        urls(&[notes]),
        [
            "bare https://img.example/v.svg",
            "bare https://crates.example/x"
        ],
        "a .txt file is text"
    );
    assert_ne!(
        urls(&["--input", "text", MARKDOWN])[0],
        "link https://img.shields.example/crates/v/driftwood.svg"
    );

    let config = dir.path().join("urlint.toml");
    fs::write(&config, "[kinds]\nmarkdown = [\"*.mdx\", \"notes.txt\"]\n").expect("write");
    let config = config.to_str().unwrap_or_default();
    let page = dir.path().join("page.mdx");
    let page = page.to_str().unwrap_or_default();
    assert_eq!(urls(&["--config", config, page]), as_markdown);
    assert_eq!(urls(&["--config", config, notes]), as_markdown);

    let (code, stdout, _) =
        run(urlint(&["extract", "--input", "markdown", "-"]).write_stdin(badge));
    assert_eq!(
        (code, stdout.as_str()),
        (0, "https://img.example/v.svg\nhttps://crates.example/x\n")
    );
}

#[test]
fn code_is_read_only_with_include_verbatim() {
    let code_urls = [
        "http://localhost:8080/~user/",
        "http://example.invalid/~tilde",
        "http://indented.example/~block/",
    ];
    let urls = |args: &[&str]| -> Vec<String> {
        extracted(args)
            .into_iter()
            .map(|(_, url, _, _)| url)
            .collect()
    };
    let skipped = urls(&[MARKDOWN]);
    assert!(code_urls
        .iter()
        .all(|url| !skipped.contains(&url.to_string())));
    let included = urls(&["--include-verbatim", MARKDOWN]);
    for url in code_urls {
        assert!(included.contains(&url.to_string()), "{url}: {included:?}");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("urlint.toml");
    fs::write(&config, "[markdown]\ninclude-verbatim = true\n").expect("write");
    let from_config = urls(&["--config", config.to_str().unwrap_or_default(), MARKDOWN]);
    assert_eq!(from_config, included);
}

#[test]
fn a_bad_kinds_table_is_a_configuration_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("urlint.toml");
    fs::write(&config, "[kinds]\nmarkdwn = [\"*.mdx\"]\n").expect("write");
    let output = transcript(&mut urlint(&[
        "check",
        "--config",
        config.to_str().unwrap_or_default(),
        MARKDOWN,
    ]));
    assert!(output.starts_with("exit: 2\n"), "{output}");
    assert!(output.contains("unknown field `markdwn`"), "{output}");
}

#[test]
fn teletype_text_is_code_as_docutils_writes_inline_literals() {
    let page = "fixtures/markup/rendered-guide.html";
    let prose = rows(&[("bare", "http://tides.example.org/tables/", 6, 41)]);
    assert_eq!(extracted(&[page]), prose);
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "--isolated",
        "--format",
        "short",
        page,
    ]));
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));

    let verbatim: Vec<String> = extracted(&["--include-verbatim", page])
        .into_iter()
        .map(|(_, url, line, _)| format!("{line} {url}"))
        .collect();
    assert_eq!(
        verbatim,
        [
            "5 http://base.example/~crew/",
            "6 http://tides.example.org/tables/",
            "7 http://mirror.example.org/~old/",
        ]
    );
}

/// An HTML page whose first attribute value lost its closing quote: read
/// as a browser reads it, the rest of the page is that value.
const QUOTE_LEFT_OPEN: &str = "<p title=\"oops>see http://a.example/x</p>\n\
                               <p>more</p>\n\
                               <p><a href=http://b.example/~y>b</a></p>\n";

/// The warning for [`QUOTE_LEFT_OPEN`] read from an input named `name`,
/// whose rest is called `rest`.
fn quote_left_open_warning(name: &str, rest: &str) -> String {
    format!(
        "urlint: warning: {name}: the attribute value quoted at line 1, column 10 is never \
         closed: {rest} (to line 3) was read as that value, as a browser reads it, so its \
         URLs were not checked\n"
    )
}

#[test]
fn a_page_that_ends_inside_a_quoted_value_says_where_the_quote_opened() {
    let dir = tempfile::tempdir().expect("temp dir");
    let page = dir.path().join("page.html");
    fs::write(&page, QUOTE_LEFT_OPEN).expect("write");
    let page = page.to_str().unwrap_or_default();
    let (code, stdout, stderr) = run(&mut urlint(&["check", "--isolated", page]));
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        "checked 1 file, found 0 URLs: 0 errors, 0 warnings\n"
    );
    assert_eq!(
        stderr,
        quote_left_open_warning(page, "the rest of the file")
    );
    // Said under -q too, and by every command that reads the page.
    for args in [
        &["check", "-q", "--isolated", page][..],
        &["extract", "--isolated", page],
        &["check", "--isolated", "--diff", page],
    ] {
        let (_, _, stderr) = run(&mut urlint(args));
        assert!(
            stderr.starts_with(&quote_left_open_warning(page, "the rest of the file")),
            "{args:?}: {stderr}"
        );
    }
    let (code, _, stderr) =
        run(urlint(&["check", "--isolated", "--input", "html", "-"]).write_stdin(QUOTE_LEFT_OPEN));
    assert_eq!(code, 0);
    assert_eq!(
        stderr,
        quote_left_open_warning("<stdin>", "the rest of the input")
    );
}

#[test]
fn a_value_that_runs_over_end_tags_to_a_later_quote_is_warned_about() {
    // The lost quote is made up by the next one: the text up to it is the
    // value, and the page after it reads as written.
    let page = "<p title=\"oops>see http://a.example/x</p>\n\
                <p>more http://c.example/~c</p>\n\
                <a href=\"http://b.example/\">b</a>\n\
                <p>after http://d.example/~d</p>\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("page.html");
    fs::write(&path, page).expect("write");
    let path = path.to_str().unwrap_or_default();
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "--isolated",
        "--format",
        "short",
        path,
    ]));
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        format!("{path}:4:27: error[unsafe-char]: unsafe character '~' must be encoded as %7E\n")
    );
    assert_eq!(
        stderr,
        format!(
            "urlint: warning: {path}: the attribute value quoted at line 1, column 10 runs \
             over line breaks and end tags to the quote at line 3, column 9, which most likely \
             opens a later value: the text between was read as that value, as a browser reads \
             it, so its URLs were not checked (is a closing quote missing?)\n"
        )
    );
}

#[test]
fn an_html_mail_part_that_ends_inside_a_quoted_value_names_its_message_and_part() {
    let dir = tempfile::tempdir().expect("temp dir");
    let message = dir.path().join("m.eml");
    let headers = "From: a@example.org\nSubject: page\nMessage-ID: <p1@example.org>\n\
                   MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n\n";
    fs::write(&message, format!("{headers}{QUOTE_LEFT_OPEN}")).expect("write");
    let message = message.to_str().unwrap_or_default();
    let (code, _, stderr) = run(&mut urlint(&["check", "--isolated", message]));
    assert_eq!(code, 0);
    // Lines and columns are the archive's.
    assert_eq!(
        stderr,
        format!(
            "urlint: warning: {message}: message 1 (line 1) <p1@example.org>, part 1: the \
             attribute value quoted at line 7, column 10 is never closed: the rest of the part \
             (to line 9) was read as that value, as a browser reads it, so its URLs were not \
             checked\n"
        )
    );
}

#[test]
fn well_formed_pages_mail_and_markdown_say_nothing_of_markup_left_open() {
    for input in [
        HTML,
        HTML_MAIL,
        MARKDOWN,
        "fixtures/markup/rendered-guide.html",
    ] {
        let (_, _, stderr) = run(&mut urlint(&["check", "--isolated", input]));
        assert_eq!(stderr, "", "{input}");
    }
}
