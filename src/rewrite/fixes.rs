//! Applying fixes to a text: lint, place every selected fix, apply the ones
//! that do not overlap, lint again, and repeat until nothing is left to
//! apply or the pass limit is reached.
//!
//! Fixes that overlap wait for the next pass, where they are placed anew
//! in the changed text, so no edit is ever applied to bytes another edit
//! has moved. A fix must leave every URL where it was, and the text around
//! them as it was (but for the padding of a reStructuredText grid table's
//! cell): one that would move where a URL starts or ends, or change how
//! many the text holds (an encoded `{` that lets a later `)` balance an
//! earlier `(` and join the URL, a fix that glues two URLs together), is
//! not applied, and the rest of its pass is tried one fix at a time.

use super::edit::{apply, non_overlapping, shifted, touches, EditGroup};
use super::place::{place, Unplaced};
use crate::diagnostic::Applicability;
use crate::lint::UrlReport;
use crate::source::Markup;
use crate::span::SourceSpan;

/// Most passes over one text. Each pass fixes every URL's first 64
/// character problems (the validator's cap) and every fix that overlaps
/// none before it, so a handful of passes is all real text needs; the
/// bound keeps fixes that undo each other from looping.
pub(crate) const MAX_PASSES: usize = 10;

/// Which fixes a run applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct FixSelection {
    /// Apply suggestions too (`--unsafe-fixes`), not only machine-applicable fixes.
    pub suggestions: bool,
}

impl FixSelection {
    /// Whether a fix of this applicability is applied.
    pub(crate) fn allows(self, applicability: Applicability) -> bool {
        match applicability {
            Applicability::MachineApplicable => true,
            Applicability::Suggestion => self.suggestions,
        }
    }
}

/// Why fixing stopped with selected fixes left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stopped {
    /// [`MAX_PASSES`] passes ran.
    PassLimit,
    /// The fixes left would move where a URL starts or ends, or change how
    /// many URLs the text holds.
    UrlsMoved,
}

/// What fixing a text came to.
#[derive(Debug)]
pub(crate) struct Fixed {
    /// The text with the fixes applied (the text itself when none was).
    pub text: String,
    /// The findings fixed, over all passes.
    pub fixed: usize,
    /// The URLs of `text`, linted: what remains.
    pub reports: Vec<UrlReport>,
    /// Selected fixes that could not be placed in the source, and why.
    pub unplaced: Vec<Unplaced>,
    /// Why the passes stopped early, if they did.
    pub stopped: Option<Stopped>,
    /// Where the characters [`fix_text_keeping`] was told to keep are in
    /// `text`.
    pub kept: Vec<usize>,
}

/// Lints a whole text: [`crate::lint::lint_markup`] with the text's markup,
/// whose URL segments map back to the text it is given.
pub(crate) type Linter<'a> = &'a (dyn Fn(&str) -> Vec<UrlReport> + Sync);

/// Apply the fixes `selection` allows to `text`, written in `markup` and
/// linted by `linter`.
pub(crate) fn fix_text(
    text: &str,
    markup: Markup,
    linter: Linter<'_>,
    selection: FixSelection,
) -> Fixed {
    fix_text_keeping(text, Vec::new(), markup, linter, selection)
}

/// [`fix_text`] that leaves the two-byte characters at the sorted offsets
/// `kept` of `text` as they are: the bytes of a file that is not valid
/// UTF-8, read as Latin-1, which only an untouched character writes back
/// as the byte it was. A fix that would change one is not applied.
pub(crate) fn fix_text_keeping(
    text: &str,
    kept: Vec<usize>,
    markup: Markup,
    linter: Linter<'_>,
    selection: FixSelection,
) -> Fixed {
    let mut fixed = Fixed {
        text: text.to_string(),
        fixed: 0,
        reports: linter(text),
        unplaced: Vec::new(),
        stopped: None,
        kept,
    };
    for pass in 0..=MAX_PASSES {
        let mut groups = Vec::new();
        fixed.unplaced.clear();
        for report in &fixed.reports {
            for finding in &report.findings {
                let selected = finding
                    .diagnostic
                    .fix
                    .as_ref()
                    .is_some_and(|fix| selection.allows(fix.applicability));
                match place(&fixed.text, markup, report, finding).filter(|_| selected) {
                    Some(Ok(group)) if touches(&group, &fixed.kept) => {
                        fixed.unplaced.push(Unplaced::NotUtf8);
                    }
                    Some(Ok(group)) => groups.push(group),
                    Some(Err(why)) => fixed.unplaced.push(why),
                    None => {}
                }
            }
        }
        let chosen = non_overlapping(groups);
        if chosen.is_empty() {
            break;
        }
        if pass == MAX_PASSES {
            fixed.stopped = Some(Stopped::PassLimit);
            break;
        }
        // The text between URLs is all the pass needs of this text's
        // reports: they go before the fixed text is linted, so that a large
        // file's findings are held once, not twice, while it is.
        let before = between_urls_collapsed(&fixed.text, &std::mem::take(&mut fixed.reports));
        let Some(kept) = keeping_urls_in_place(&fixed.text, &before, chosen, linter) else {
            // What remains is this text's reports, which linting it again
            // gives back as they were.
            fixed.reports = linter(&fixed.text);
            fixed.stopped = Some(Stopped::UrlsMoved);
            break;
        };
        fixed.fixed += kept.applied.len();
        fixed.kept = shifted(&fixed.kept, &kept.applied);
        fixed.text = kept.text;
        fixed.reports = kept.reports;
    }
    fixed
}

/// Fixes of one pass applied and the text linted again.
struct Pass {
    /// The fix groups applied.
    applied: Vec<EditGroup>,
    text: String,
    reports: Vec<UrlReport>,
}

/// `chosen` applied to `text` when that leaves the text outside its URLs
/// as it was (`before`, from [`between_urls_collapsed`]): all of them at
/// once, else each that does, tried one after another in text order;
/// `None` when none does.
fn keeping_urls_in_place(
    text: &str,
    before: &[String],
    chosen: Vec<EditGroup>,
    linter: Linter<'_>,
) -> Option<Pass> {
    let attempt = |groups: &[EditGroup]| {
        let text = apply(text, groups);
        let reports = linter(&text);
        let after = between_urls(&text, &reports);
        let kept = after.len() == before.len()
            && after
                .iter()
                .zip(before)
                .all(|(gap, old)| padding_collapsed(gap) == *old);
        kept.then(|| Pass {
            applied: groups.to_vec(),
            text,
            reports,
        })
    };
    if let Some(pass) = attempt(&chosen) {
        return Some(pass);
    }
    let (mut kept, mut last) = (Vec::new(), None);
    for group in chosen {
        kept.push(group);
        match attempt(&kept) {
            Some(pass) => last = Some(pass),
            None => drop(kept.pop()),
        }
    }
    last
}

/// `gap` with each run of spaces as one space: a fix in a
/// reStructuredText grid table's cell may take spaces from the padding
/// before the cell's border, or give them back, and nothing else.
fn padding_collapsed(gap: &str) -> String {
    let mut collapsed = String::with_capacity(gap.len());
    for c in gap.chars() {
        if !(c == ' ' && collapsed.ends_with(' ')) {
            collapsed.push(c);
        }
    }
    collapsed
}

/// The text between `reports`' URLs in `text`, each run of spaces as one
/// (see [`padding_collapsed`]): what a pass of fixes must leave as it was.
fn between_urls_collapsed(text: &str, reports: &[UrlReport]) -> Vec<String> {
    between_urls(text, reports)
        .iter()
        .map(|gap| padding_collapsed(gap))
        .collect()
}

/// The text before, between and after the URLs of `reports` (linted from
/// `text`): what no fix may change, but for padding (see
/// [`padding_collapsed`]).
fn between_urls<'t>(text: &'t str, reports: &[UrlReport]) -> Vec<&'t str> {
    let mut outers: Vec<SourceSpan> = reports.iter().map(|report| report.found.outer).collect();
    outers.sort_by_key(|outer| (outer.start, outer.end));
    let mut gaps = Vec::with_capacity(outers.len() + 1);
    let mut at = 0;
    for outer in outers {
        gaps.push(text.get(at..outer.start.max(at)).unwrap_or_default());
        at = at.max(outer.end);
    }
    gaps.push(text.get(at..).unwrap_or_default());
    gaps
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::lint::{self, LintOptions, Linted};
    use crate::profile::Profile;
    use crate::rewrite::test_texts::{document, found, markup_document, noise, outside_urls};
    use crate::rules::Rule;
    use crate::scan::ScanOptions;

    /// What must hold after fixing `text` with machine-applicable fixes
    /// under `profile`: no such fix left unless fixing said why it
    /// stopped, as many URLs as before, the text outside URLs unchanged,
    /// and a second run changing nothing.
    fn assert_fix_properties(text: &str, profile: Profile) {
        let options = LintOptions {
            profile,
            ..LintOptions::default()
        };
        let linter = |text: &str| urls(lint::lint(text, &options));
        let fixed = fix_text(text, Markup::Plain, &linter, FixSelection::default());
        assert_ne!(fixed.stopped, Some(Stopped::PassLimit), "{text:?}");
        let left: Vec<_> = fixed
            .reports
            .iter()
            .flat_map(|report| &report.findings)
            .filter(|finding| {
                finding
                    .diagnostic
                    .fix
                    .as_ref()
                    .is_some_and(|fix| fix.applicability == Applicability::MachineApplicable)
            })
            .collect();
        assert!(
            left.is_empty() || fixed.stopped == Some(Stopped::UrlsMoved),
            "{text:?} -> {:?}: {left:?}",
            fixed.text
        );
        assert_eq!(found(&fixed.text).len(), found(text).len(), "{text:?}");
        assert_eq!(outside_urls(&fixed.text), outside_urls(text), "{text:?}");
        let again = fix_text(&fixed.text, Markup::Plain, &linter, FixSelection::default());
        assert_eq!((again.fixed, again.text), (0, fixed.text));
    }

    /// The URL reports of linted items.
    fn urls(linted: impl Iterator<Item = Linted>) -> Vec<UrlReport> {
        linted.filter_map(Linted::into_url).collect()
    }

    /// Plain text linted with the default options.
    fn plain(text: &str) -> Vec<UrlReport> {
        urls(lint::lint(text, &LintOptions::default()))
    }

    /// `url`'s octets with every `%XX` decoded and the scheme in lower
    /// case: what a machine-applicable fix must not change.
    fn octets(url: &str) -> Vec<u8> {
        let url = match url.split_once(':') {
            Some((scheme, rest)) => format!("{}:{rest}", scheme.to_ascii_lowercase()),
            None => url.to_string(),
        };
        let bytes = url.as_bytes();
        let mut octets = Vec::with_capacity(bytes.len());
        let mut at = 0;
        while at < bytes.len() {
            let escape = bytes.get(at + 1..at + 3).and_then(|hex| {
                let hex = std::str::from_utf8(hex).ok()?;
                u8::from_str_radix(hex, 16).ok()
            });
            match (bytes[at], escape) {
                (b'%', Some(octet)) => {
                    octets.push(octet);
                    at += 3;
                }
                (byte, _) => {
                    octets.push(byte);
                    at += 1;
                }
            }
        }
        octets
    }

    /// What must hold after fixing a Markdown or HTML `text`: no machine
    /// fix left unless fixing said why, the text outside URLs unchanged,
    /// each URL reading as the same octets (so a character reference was
    /// replaced whole and nothing was written that the markup reads
    /// otherwise), and a second run changing nothing.
    fn assert_markup_fix_properties(text: &str, markup: Markup) {
        let options = LintOptions::default();
        let linter = |text: &str| urls(lint::lint_markup(text, markup, &options));
        let before: Vec<UrlReport> = linter(text);
        let fixed = fix_text(text, markup, &linter, FixSelection::default());
        assert_ne!(fixed.stopped, Some(Stopped::PassLimit), "{text:?}");
        assert!(
            fixed.unplaced.iter().all(|why| *why == Unplaced::TableCell),
            "{text:?}: {:?}",
            fixed.unplaced
        );
        let left = fixed
            .reports
            .iter()
            .flat_map(|report| &report.findings)
            .filter_map(|finding| finding.diagnostic.fix.as_ref())
            .filter(|fix| fix.applicability == Applicability::MachineApplicable)
            .count();
        assert!(
            left == 0 || fixed.stopped == Some(Stopped::UrlsMoved) || !fixed.unplaced.is_empty(),
            "{text:?} -> {:?}",
            fixed.text
        );
        // Only a grid table's padding may change around the URLs.
        let around = |text: &str, reports: &[UrlReport]| -> Vec<String> {
            let gaps = between_urls(text, reports);
            match crate::markup::facts(markup).grid_tables {
                true => gaps.iter().map(|gap| padding_collapsed(gap)).collect(),
                false => gaps.iter().map(|gap| gap.to_string()).collect(),
            }
        };
        assert_eq!(
            around(&fixed.text, &fixed.reports),
            around(text, &before),
            "{text:?} -> {:?}",
            fixed.text
        );
        assert_eq!(fixed.reports.len(), before.len());
        for (old, new) in before.iter().zip(&fixed.reports) {
            assert_eq!(
                String::from_utf8_lossy(&octets(&new.found.url)),
                String::from_utf8_lossy(&octets(&old.found.url)),
                "{text:?} -> {:?}",
                fixed.text
            );
        }
        let again = fix_text(&fixed.text, markup, &linter, FixSelection::default());
        assert_eq!((again.fixed, again.text), (0, fixed.text));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn fixing_markdown_keeps_each_url_and_the_markup_around_it(
            text in markup_document(Markup::Markdown),
        ) {
            assert_markup_fix_properties(&text, Markup::Markdown);
        }

        #[test]
        fn fixing_rst_keeps_each_url_the_markup_around_it_and_its_tables(
            text in markup_document(Markup::Rst),
        ) {
            assert_markup_fix_properties(&text, Markup::Rst);
            // Every grid table row keeps its border where the table's
            // border line puts it.
            let fixed = fix_text(&text, Markup::Rst, &|text: &str| {
                urls(lint::lint_markup(text, Markup::Rst, &LintOptions::default()))
            }, FixSelection::default());
            let lines: Vec<&str> = fixed.text.lines().collect();
            for pair in lines.windows(2) {
                if pair[0].starts_with("+---+") && pair[1].starts_with('|') {
                    prop_assert_eq!(pair[0].chars().count(), pair[1].chars().count(), "{:?}", fixed.text);
                }
            }
        }

        #[test]
        fn fixing_html_keeps_each_url_and_the_markup_around_it(
            text in markup_document(Markup::Html),
        ) {
            assert_markup_fix_properties(&text, Markup::Html);
        }

        #[test]
        fn fixing_a_document_leaves_no_machine_fix_and_the_prose_alone(
            text in document(),
            rfc3986 in any::<bool>(),
        ) {
            let profile = if rfc3986 { Profile::Rfc3986 } else { Profile::Rfc1738 };
            assert_fix_properties(&text, profile);
        }

        #[test]
        fn fixing_any_text_keeps_its_urls(text in noise()) {
            assert_fix_properties(&text, Profile::Rfc1738);
        }
    }

    fn fixed(text: &str, suggestions: bool) -> (String, usize) {
        let result = fix_text(text, Markup::Plain, &plain, FixSelection { suggestions });
        (result.text, result.fixed)
    }

    #[test]
    fn rfc1738_2_2_unsafe_characters_are_encoded_unasked() {
        assert_eq!(
            fixed("see <URL:HTTP://h.example/~a}c{>.\n", false),
            ("see <URL:http://h.example/%7Ea%7Dc%7B>.\n".to_string(), 4)
        );
    }

    #[test]
    fn a_wrapper_with_whitespace_inside_a_line_is_not_fixed_unasked() {
        // A wrapper across the cells of a text table: the borders join
        // the URL, and encoding them would take the table apart.
        let text = "| a | <https://h.example/ |\n|   | b/~c |\n|   | d> |\n";
        assert_eq!(fixed(text, false), (text.to_string(), 0));
    }

    #[test]
    fn placeholders_and_glued_schemes_wait_for_unsafe_fixes() {
        // A fragment directive's `:~:` stays as written; so does the ':' of
        // a second URL glued on after a ';'. A template's `{owner}` is no
        // URL error at all, and stays even with the suggestions.
        let text = "see https://api.example/repos/{owner}/~x and \
                    'amqp://a.example;amqp://b.example' and https://h.example/p#a:~:t=b\n";
        let safe = "see https://api.example/repos/{owner}/%7Ex and \
                    'amqp://a.example;amqp://b.example' and https://h.example/p#a:~:t=b\n";
        assert_eq!(fixed(text, false), (safe.to_string(), 1));
        let (all, _) = fixed(text, true);
        assert!(
            all.contains("/{owner}/") && all.contains("#a:%7E:t=b"),
            "{all}"
        );
        // With templates not recognised, the braces are reported, and
        // encoded only as suggestions.
        let literal = |text: &str| {
            let options = LintOptions {
                scan: ScanOptions {
                    no_templates: true,
                    ..ScanOptions::default()
                },
                ..LintOptions::default()
            };
            urls(lint::lint(text, &options))
        };
        let unasked = fix_text(text, Markup::Plain, &literal, FixSelection::default());
        assert_eq!(unasked.text, safe);
        let asked = fix_text(
            text,
            Markup::Plain,
            &literal,
            FixSelection { suggestions: true },
        );
        assert!(asked.text.contains("/%7Bowner%7D/"), "{}", asked.text);
    }

    #[test]
    fn suggestions_wait_for_unsafe_fixes() {
        let text = "<URL:file://h.example:21/x> <URL:ftp://h.example/a;b>";
        assert_eq!(fixed(text, false), (text.to_string(), 0));
        assert_eq!(
            fixed(text, true),
            (
                "<URL:file://h.example/x> <URL:ftp://h.example/a%3Bb>".to_string(),
                2
            )
        );
    }

    #[test]
    fn appendix_wrapped_urls_keep_their_layout() {
        let text = "> see <URL:HT\n>     TP://h.example/~a/\n>     ~b>\n";
        assert_eq!(
            fixed(text, false),
            (
                "> see <URL:ht\n>     tp://h.example/%7Ea/\n>     %7Eb>\n".to_string(),
                3
            )
        );
    }

    #[test]
    fn suppressed_findings_are_not_fixed() {
        let text = "<URL:http://h.example/~a> urlint: ignore[unsafe-char]\n\
                    <URL:http://h.example/~b>\n";
        assert_eq!(
            fixed(text, false),
            (
                "<URL:http://h.example/~a> urlint: ignore[unsafe-char]\n\
                 <URL:http://h.example/%7Eb>\n"
                    .to_string(),
                1
            )
        );
    }

    #[test]
    fn a_fix_that_would_move_the_end_of_a_url_is_not_applied() {
        // Encoding the '[' would let the ')' balance the '(' and join the
        // URL; the '~' beside it is still fixed.
        let text = "(see http://h.example/~([/) here)";
        let result = fix_text(text, Markup::Plain, &plain, FixSelection::default());
        assert_eq!(result.text, "(see http://h.example/%7E([/) here)");
        assert_eq!(result.fixed, 1);
        assert_eq!(result.stopped, Some(Stopped::UrlsMoved));
        assert_eq!(
            between_urls(&result.text, &result.reports),
            ["(see ", ") here)"]
        );
        // What remains is the fixed text's own reports, the '[' among them.
        assert_eq!(result.reports, plain(&result.text));
        let rules: Vec<Rule> = result.reports[0]
            .findings
            .iter()
            .map(|finding| finding.diagnostic.rule)
            .collect();
        assert!(rules.contains(&Rule::UnsafeChar), "{rules:?}");
    }

    #[test]
    fn many_problems_in_one_url_take_several_passes() {
        // Alternating characters: each is a finding of its own.
        let text = format!("<URL:http://h.example/{}>", "~^".repeat(75));
        let result = fix_text(&text, Markup::Plain, &plain, FixSelection::default());
        assert_eq!(result.fixed, 150);
        assert_eq!(result.stopped, None);
        assert!(result.reports[0].findings.is_empty());
        assert_eq!(
            result.text,
            format!("<URL:http://h.example/{}>", "%7E%5E".repeat(75))
        );
    }
}
