//! Inputs on which a fuzz target once failed, kept so that they never fail
//! again. Each test names the target, the date, and what was wrong.

use urlint::ValidateOptions;

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
