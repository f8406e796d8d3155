//! A rewrite as a unified diff that `patch -p1` applies.
//!
//! A rewrite that keeps every line where it was (a fix edits characters
//! inside lines) is diffed line by line in linear time: line N of the old
//! text against line N of the new. Any other (fmt's wraps add lines) comes
//! from `similar` (Myers' algorithm, hunks with three lines of context, the
//! `\ No newline at end of file` marker), the crate insta already brings
//! into the build, with a deadline: Myers' time grows with the product of
//! the text's length and the number of changes, and past the deadline
//! `similar` gives a coarser diff that still applies.

use std::fmt::Write as _;
use std::time::Duration;

use similar::TextDiff;

/// Lines of unchanged context around each hunk, as `diff -u` gives.
const CONTEXT_LINES: usize = 3;

/// How long Myers' algorithm may look for the smallest diff.
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// The change from `old` to `new` of the file `path` as a unified diff,
/// with `a/PATH` and `b/PATH` headers; empty when the texts are equal.
pub(crate) fn unified_diff(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    let (from, to) = (header_path("a/", path), header_path("b/", path));
    let (old_lines, new_lines) = (lines(old), lines(new));
    if old_lines.len() == new_lines.len() {
        return line_for_line(&from, &to, &old_lines, &new_lines);
    }
    TextDiff::configure()
        .newline_terminated(true)
        .timeout(DIFF_DEADLINE)
        .diff_lines(old, new)
        .unified_diff()
        .context_radius(CONTEXT_LINES)
        .header(&from, &to)
        .to_string()
}

/// `prefix` and `path` as a diff header names them, quoted as git quotes
/// them when the path holds a control character, a quote or a backslash
/// (`"a/new\nline.txt"`): a newline in a file name would otherwise forge
/// lines of the diff, an ESC drive the terminal it is shown on.
fn header_path(prefix: &str, path: &str) -> String {
    let plain = !path
        .chars()
        .any(|c| c == '"' || c == '\\' || c == '\n' || c == '\t' || crate::escape::is_escaped(c));
    if plain {
        return format!("{prefix}{path}");
    }
    let mut quoted = String::from("\"");
    quoted.push_str(prefix);
    for c in path.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            c if crate::escape::is_escaped(c) => {
                let mut bytes = [0; 4];
                for byte in c.encode_utf8(&mut bytes).bytes() {
                    let _ = write!(quoted, "\\{byte:03o}");
                }
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// The lines of `text`, each with its line break (the last may have none).
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The unified diff of two texts of as many lines, line N against line N:
/// each run of changed lines is its old lines then its new ones, with
/// [`CONTEXT_LINES`] of context, hunks closer than twice that merged.
fn line_for_line(from: &str, to: &str, old: &[&str], new: &[&str]) -> String {
    let changed: Vec<usize> = (0..old.len()).filter(|&at| old[at] != new[at]).collect();
    let mut out = format!("--- {from}\n+++ {to}\n");
    let mut next = 0;
    while next < changed.len() {
        // The changes of one hunk: each within 2 * CONTEXT_LINES of the last.
        let mut last = next;
        while last + 1 < changed.len() && changed[last + 1] - changed[last] <= 2 * CONTEXT_LINES + 1
        {
            last += 1;
        }
        let start = changed[next].saturating_sub(CONTEXT_LINES);
        let end = (changed[last] + CONTEXT_LINES + 1).min(old.len());
        let range = match end - start {
            1 => format!("{}", start + 1),
            len => format!("{},{len}", start + 1),
        };
        let _ = writeln!(out, "@@ -{range} +{range} @@");
        let mut at = start;
        while at < end {
            if old[at] == new[at] {
                push_line(&mut out, ' ', old[at]);
                at += 1;
                continue;
            }
            let run_end = (at..end)
                .find(|&line| old[line] == new[line])
                .unwrap_or(end);
            old[at..run_end]
                .iter()
                .for_each(|line| push_line(&mut out, '-', line));
            new[at..run_end]
                .iter()
                .for_each(|line| push_line(&mut out, '+', line));
            at = run_end;
        }
        next = last + 1;
    }
    out
}

/// One line of a hunk, marked, with the marker for a missing final newline.
fn push_line(out: &mut String, mark: char, line: &str) {
    out.push(mark);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_one_hunk_with_context() {
        let old = "1\n2\n3\n4\n<URL:HTTP://a/>\n6\n7\n8\n9\n";
        let new = "1\n2\n3\n4\n<URL:http://a/>\n6\n7\n8\n9\n";
        assert_eq!(
            unified_diff("docs/x.txt", old, new),
            "--- a/docs/x.txt\n+++ b/docs/x.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n\
             -<URL:HTTP://a/>\n+<URL:http://a/>\n 6\n 7\n 8\n"
        );
    }

    #[test]
    fn a_last_line_without_newline_is_marked() {
        assert_eq!(
            unified_diff("x", "a ~", "a %7E"),
            "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a ~\n\\ No newline at end of file\n\
             +a %7E\n\\ No newline at end of file\n"
        );
        assert_eq!(unified_diff("x", "same\n", "same\n"), "");
    }

    #[test]
    fn a_name_with_control_characters_is_quoted_as_git_quotes_it() {
        let diff = unified_diff("new\nline\x1b[2J\"q\".txt", "a\n", "b\n");
        let headers: Vec<&str> = diff.lines().take(2).collect();
        assert_eq!(
            headers,
            [
                r#"--- "a/new\nline\033[2J\"q\".txt""#,
                r#"+++ "b/new\nline\033[2J\"q\".txt""#
            ]
        );
        assert_eq!(diff.lines().count(), 5, "no forged line: {diff}");
        assert!(unified_diff("é.txt", "a\n", "b\n").starts_with("--- a/é.txt\n"));
    }

    /// Line for line, the diff is the one Myers' algorithm gives, in linear
    /// time.
    #[test]
    fn a_diff_line_for_line_is_the_myers_diff() {
        let old: String = (0..40)
            .map(|n| format!("line {n} http://a/~{n}\n"))
            .collect();
        let cases = [
            vec![0],
            vec![39],
            vec![5, 6, 7],
            vec![3, 10],
            vec![3, 11],
            vec![0, 8, 16, 24, 32, 39],
        ];
        for changed in cases {
            let new: String = old
                .lines()
                .enumerate()
                .map(|(n, line)| match changed.contains(&n) {
                    true => format!("{}\n", line.replace('~', "%7E")),
                    false => format!("{line}\n"),
                })
                .collect();
            let myers = TextDiff::configure()
                .newline_terminated(true)
                .diff_lines(old.as_str(), new.as_str())
                .unified_diff()
                .context_radius(CONTEXT_LINES)
                .header("a/x", "b/x")
                .to_string();
            assert_eq!(unified_diff("x", &old, &new), myers, "{changed:?}");
            let unterminated = (old.trim_end(), new.trim_end());
            let myers = TextDiff::configure()
                .newline_terminated(true)
                .diff_lines(unterminated.0, unterminated.1)
                .unified_diff()
                .context_radius(CONTEXT_LINES)
                .header("a/x", "b/x")
                .to_string();
            assert_eq!(
                unified_diff("x", unterminated.0, unterminated.1),
                myers,
                "{changed:?}"
            );
        }
    }
}
