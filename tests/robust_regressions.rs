//! Inputs on which a fuzz target once failed, kept so that they never fail
//! again. Each test names the target, the date, and what was wrong.

mod common;

use common::{run, urlint};
use urlint::{Markup, ValidateOptions};

#[path = "../fuzz/src/lib.rs"]
// Only the checks a regression needs are called here.
#[allow(dead_code)]
mod invariants;

/// fuzz target `validate`, 2026-11-23: not a validator bug but one in the
/// fix check. Past 64 character problems the validator sums the rest up in
/// one diagnostic spanning from the first unlisted problem to the last; the
/// nntp fix that drops the '/' before the fragment lies inside that span,
/// so the summary survives the fix, one byte shorter. The check took it
/// for the fixed diagnostic left in place; a diagnostic around the edit now
/// counts as moved by it.
#[test]
fn fix_inside_the_character_problem_summary() {
    let url = format!("nntp:///1{}:/#\u{6}t", "|".repeat(70));
    let diagnostics = invariants::check_validate(&url, &ValidateOptions::default());
    assert!(diagnostics
        .iter()
        .any(|d| d.fix.is_some() && &url[d.span.range()] == "/"));
}

/// fuzz target `lint` (CI's fuzz smoke, seeded from fixtures/config/),
/// 2026-11-23: not a linter bug but one in the check. With every rule on,
/// `unused-suppression` reports an unused `urlint: ignore` directive where
/// the directive is, beside the URL rather than inside its match; the check
/// required every finding to lie inside its URL's match.
#[test]
fn unused_suppression_points_at_its_directive() {
    let text = "   at http://www.example.org/notes.txt.  urlint: ignore\n   \
                urlint: ignore-next-line\n   The URL that was here has been removed.\n";
    invariants::check_lint(text);
}

/// `extract` of a mail fixture: (exit code, URLs, stderr).
fn extract_mail(fixture: &str) -> (i32, Vec<String>, String) {
    let path = format!("fixtures/mail/{fixture}");
    let (code, stdout, stderr) = run(&mut urlint(&["extract", "--isolated", &path]));
    (code, stdout.lines().map(str::to_owned).collect(), stderr)
}

/// property `nested_mime_loses_no_part_silently` (the `mail_nested`
/// invariants), 2026-11-23: a multipart whose first delimiter is its close
/// delimiter (`--inner--`). mail-parser read the `--` as the header of a
/// first part that ran to the end of every enclosing multipart, so the
/// base64 text after it was one raw text of encoded bytes: its URL lost,
/// exit 0, no warning. Such a multipart is now parked before parsing.
#[test]
fn an_empty_multipart_does_not_swallow_the_parts_after_it() {
    let (code, urls, stderr) = extract_mail("empty_multipart.eml");
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(urls, ["http://lists.example.org/~hal/"]);
    invariants::check_nested_mail(&[0, 53, 5, 253, 26, 61, 44, 103, 152]);
}

/// property `nested_mime_loses_no_part_silently`, 2026-11-23: two nested
/// multiparts with one boundary. Its close delimiter ended both, and
/// mail-parser stopped there: the parts after them in the enclosing
/// multipart were never read, without a warning. They are now read again
/// from that line as parts, with a warning.
#[test]
fn parts_after_a_shared_boundary_are_read_with_a_warning() {
    let (code, urls, stderr) = extract_mail("shared_boundary.eml");
    assert_eq!(code, 0);
    assert_eq!(
        urls,
        [
            "http://first.example.org/~a",
            "http://second.example.org/~b"
        ]
    );
    assert_eq!(
        stderr,
        "urlint: warning: fixtures/mail/shared_boundary.eml: message 1 (line 1) \
         <shared-boundary@example.org>: parts after a '--outer' line were not parsed \
         (a boundary used by two nested multiparts ends both); read again from that line\n"
    );
    invariants::check_nested_mail(&[0, 125, 6, 125, 100]);
    invariants::check_nested_mail(&[0, 29, 78, 109, 9, 85, 197, 0, 87]);
}

/// fuzz target `mail_nested`, 2026-11-23: boundaries shared by nested
/// multiparts, and a multipart whose boundary never comes, which
/// mail-parser reads as text. That text ran on over the delimiters of the
/// multiparts around it and swallowed a base64 HTML part: its URL lost, exit
/// 0, no warning. A part holding a delimiter line of a multipart around it,
/// and a multipart read as text, are now warned about; since 2026-11-24 the
/// text also ends at that line, and the base64 part after it is decoded.
#[test]
fn a_part_swallowing_enclosing_delimiters_is_warned_about() {
    let program = [
        0, 229, 229, 229, 229, 229, 229, 7, 29, 7, 229, 7, 229, 229, 7, 7, 229, 229, 229, 159, 229,
        229, 229, 229, 229, 5, 10, 6, 36, 6, 132, 0, 17, 132, 68,
    ];
    invariants::check_nested_mail(&program);
    let built = invariants::nested_mail(&program);
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("nested.eml"), &built.archive).expect("write message");
    let mut command = urlint(&["extract", "--isolated", "nested.eml"]);
    command.current_dir(dir.path());
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("http://p3.example/~x"),
        "the swallowed base64 part is read again as a part and decoded: {stdout}"
    );
    assert!(
        stderr.contains(
            "part 1.1.2.1.2.1.2: part holds a delimiter line of a multipart around it, \
             which RFC 2046 forbids: parts after it may be misread or read raw\n"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "part 1.1.2.1.2.1.2: multipart whose boundary 'b1' delimits no part; its body \
             read as one text part\n"
        ),
        "{stderr}"
    );
}

/// fuzz target `mail_nested` (CI's fuzz smoke), 2026-11-24: a multipart
/// without parts (`--empty--`, parked as an opaque part) inside a multipart
/// whose parent shares its grandparent's boundary. mail-parser does not look
/// for the enclosing delimiters inside the opaque part, so it ran on over
/// the next `--outer` line and the forwarded message after it, and the walk
/// skipped it whole: the URL lost, exit 0, no warning. What follows such a
/// line is now read again as parts, with a warning.
#[test]
fn an_empty_multipart_running_on_over_an_enclosing_delimiter_is_read() {
    let (code, urls, stderr) = extract_mail("empty_multipart_runs_on.eml");
    assert_eq!(code, 0);
    assert_eq!(urls, ["http://lists.example.org/~hal/notes.txt"]);
    assert_eq!(
        stderr,
        "urlint: warning: fixtures/mail/empty_multipart_runs_on.eml: message 1 (line 1) \
         <empty-runs-on@example.org>, part 1.1.1: part holds a delimiter line of a \
         multipart around it, which RFC 2046 forbids: parts after it may be misread or \
         read raw\n"
    );
    invariants::check_nested_mail(&[
        0, 5, 11, 6, 6, 0, 65, 45, 6, 6, 114, 0, 69, 8, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 48, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 249, 249, 6, 132, 68,
    ]);
}

/// Found by hand, 2026-11-23, then by the `mail_nested` builder once it
/// could hold a close delimiter back: a multipart without parts that shares
/// its parent's boundary and is closed only after the multipart around
/// both. mail-parser reads everything up to that close as its preamble,
/// the enclosing multipart's later parts included, and they were dropped
/// without a warning. Such a preamble is now read as text, with a warning
/// (`fixtures/mail/closed_out_of_order.eml` through the binary).
#[test]
fn a_multipart_closed_after_its_parent_keeps_the_parts_between() {
    invariants::check_nested_mail(&[0, 5, 10, 5, 137, 5, 100, 144]);
}

/// property `nested_mime_loses_no_part_silently`, 2026-11-23, once the
/// builder closed multiparts out of order: a base64 text part of a
/// multipart closed after its parent ran on over the parent's delimiters.
/// mail-parser gave up on its encoding; it was decoded up to the enclosing
/// delimiter and the rest, a base64 part, read raw without a warning.
#[test]
fn an_encoded_part_cut_at_an_enclosing_delimiter_warns_about_the_rest() {
    invariants::check_nested_mail(&[0, 229, 6, 109, 117, 152, 136]);
}

/// property `nested_mime_loses_no_part_silently`, 2026-11-23: the same
/// for a base64 message/rfc822 part. Its body, run on over the enclosing
/// delimiters, did not decode, so the nested message and its URL were lost
/// without a warning. The message is now decoded up to the delimiter, with
/// a warning, and the rest read raw.
#[test]
fn an_encoded_message_part_ends_at_an_enclosing_delimiter() {
    invariants::check_nested_mail(&[0, 229, 5, 109, 117, 239, 8, 0]);
}

/// fuzz target `mail_nested`, 2026-11-23: an empty multipart inside a
/// multipart that shares its boundary. Once the empty one is parked, its
/// close delimiter ends the one around it for mail-parser, whose own parts
/// after that line lie beyond its end: they were looked for only inside
/// it and lost without a warning. They are now looked for up to the next
/// delimiter line of a multipart around it, and read raw with a warning.
#[test]
fn parts_after_a_shared_close_beyond_the_multipart_are_read() {
    invariants::check_nested_mail(&[
        0, 5, 158, 6, 6, 0, 198, 60, 5, 11, 6, 4, 250, 68, 40, 78, 6, 6, 6, 198, 4, 30, 255, 132,
        68,
    ]);
}

/// fuzz target `markup`, 2026-11-24: a line shaped like a reference
/// definition right after a tight list item's text (`- a` then
/// `[x]:<ht://d>`). It continues the item's paragraph, and its autolink was
/// read once as an autolink and once more as a definition, since a tight
/// item's text is in no paragraph: one URL reported twice, overlapping.
#[test]
fn a_lazy_definition_line_in_a_tight_list_is_one_link() {
    invariants::check_markup("- \"\n[]:<ht://d>", Markup::Markdown);
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(
        dir.path().join("notes.md"),
        "- fixed\n[x]:<ht://d.example>\n",
    )
    .expect("write document");
    let mut command = urlint(&["extract", "--isolated", "notes.md"]);
    command.current_dir(dir.path());
    assert_eq!(
        run(&mut command),
        (0, "ht://d.example\n".into(), String::new())
    );
}

/// fuzz target `scan` (a local fuzz smoke), 2026-12-02: a wrapper that
/// turns out unterminated has looked at the page furniture of lines ahead
/// of the bare URL the scanner reads next, whose join then asks about an
/// earlier line: the footer crowd took its candidates to come in source
/// order (a debug assertion; in release an earlier one was counted as the
/// newest). A candidate met late now takes its place among the others.
#[test]
fn a_footer_look_behind_an_unterminated_wrappers_look_ahead() {
    let text = concat!(
        "Harbour Working Group                                      A. Author\n",
        "Internet-Draft                     \u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}",
        "\u{fffd}\u{fffd}\u{2}         \u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0} ",
        "            Example Po\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}",
        "\u{fffd}\u{fffd}rt\n",
        "ple/\n",
        "   for details,!see the next section.\n",
        "\n",
        "2.  Tide tables\n",
        "\n",
        "   Tables are served per harbour and per month, and the archive of the\n",
        "   tables for each month is kept at <URL:http://archive.harbour.example",
        "/\n",
        "   tables/\n",
        "\n",
        "\n",
        "Harbour Working Group     Feeds         ]         March 2011\n",
        "\n",
        "\n",
        "  trbour.example/\n",
        "   tables/\n",
        "\n",
        "\n",
        "Harbour Working Group     Expires September 2011\u{1}\u{0}\u{0}w line: ",
        "<URL:ht          [Page 1]\n",
        "\u{c}\n",
        "Internet-Draft              Harbour Feeds         ]         March 2011\n",
        "\n",
        "\n",
        "  the archive, at\n",
        "   http://archive.harbour.example/tables/current/\n",
        "\n",
        "\n",
        "Harbour Working Group     Expires September 2011              [Page 2]\n",
        "\u{c}\n",
        "Internet-Draft              Harbour Feeds                   March 2011\n",
        "\n",
        "\n",
        "   index.htmh, and is rewritten every hour by the tide daemon.\n",
        "\n",
        "   The feedsires September 2011\u{1}\u{0}\u{0}w line: <URL:ht          ",
        "[Page 1]\n",
        "\u{c}\n",
        "Internet-Draft              Harbour Feeds         ]         March 2011\n",
        "\n",
        "\n",
        "  the archive, at\n",
        "   http://archive.harbour.example/tables/current/\n",
        "\n",
        "\n",
        "Harbour Working Group     Expires September 2011              [Page 2]\n",
        "\u{c}\n",
        "Internet-Draft              Harbour Feeds                   Marc are li",
        "sted by harbour:\n",
        "\n",
        "         /*\n",
    );
    invariants::check_scan(text);
}

/// fuzz targets `lint` and `markup` (a local fuzz smoke), 2026-12-02: not a
/// linter bug but one in the check, which took every finding about the
/// text itself for an `unused-suppression`; a directive naming a rule that
/// does not exist (`unsafe-cHar`) is an `unknown-rule` finding, on the
/// directive too.
#[test]
fn an_unknown_rule_in_a_directive_is_a_finding_of_the_text() {
    invariants::check_lint("see http://a.example/~y (urlint: ignore[unsafe-cHar]).\n");
    invariants::check_markup(
        "see <http://a.example/~x> <!-- urlint: ignore[unsafe-cHar] -->\n",
        Markup::Markdown,
    );
}
