//! A rewrite as a unified diff that `patch -p1` applies.
//!
//! The line diff comes from `similar` (Myers' algorithm, hunks with three
//! lines of context, the `\ No newline at end of file` marker), the crate
//! insta already brings into the build.

use similar::TextDiff;

/// Lines of unchanged context around each hunk, as `diff -u` gives.
const CONTEXT_LINES: usize = 3;

/// The change from `old` to `new` of the file `path` as a unified diff,
/// with `a/PATH` and `b/PATH` headers; empty when the texts are equal.
pub(crate) fn unified_diff(path: &str, old: &str, new: &str) -> String {
    if old == new {
        return String::new();
    }
    TextDiff::configure()
        .newline_terminated(true)
        .diff_lines(old, new)
        .unified_diff()
        .context_radius(CONTEXT_LINES)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
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
}
