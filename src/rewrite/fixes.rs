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
    /// Selected fixes that could not be placed in the source, and why.
    pub unplaced: Vec<Unplaced>,
    /// Why the passes stopped early, if they did.
    pub stopped: Option<Stopped>,
    /// Where the characters [`fix_text_keeping`] was told to keep are in
    /// `text`.
    pub kept: Vec<usize>,
}

/// Lints a whole text ([`crate::lint::lint_markup`] with the text's markup,
/// whose URL segments map back to the text it is given), handing each
/// URL's report to the callback in text order: a pass keeps only what it
/// needs of each, so a large file's reports are never all held at once.
pub(crate) type Linter<'a> = &'a (dyn Fn(&str, &mut dyn FnMut(UrlReport)) + Sync);

/// Apply the fixes `selection` allows to `text`, written in `markup` and
/// linted by `linter`. What remains to report is the fixed text's lint,
/// which the caller asks for as it reports it.
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
    let surveyor = Surveyor {
        markup,
        linter,
        selection,
    };
    let mut survey = surveyor.survey(text, &kept);
    let mut fixed = Fixed {
        text: text.to_string(),
        fixed: 0,
        unplaced: Vec::new(),
        stopped: None,
        kept,
    };
    for pass in 0..=MAX_PASSES {
        let chosen = non_overlapping(std::mem::take(&mut survey.groups));
        if chosen.is_empty() {
            break;
        }
        if pass == MAX_PASSES {
            fixed.stopped = Some(Stopped::PassLimit);
            break;
        }
        let before = between_urls(&fixed.text, &survey.outers);
        let Some(kept) = surveyor.keeping_urls_in_place(&fixed.text, &fixed.kept, &before, chosen)
        else {
            fixed.stopped = Some(Stopped::UrlsMoved);
            break;
        };
        fixed.fixed += kept.applied;
        fixed.kept = kept.kept;
        fixed.text = kept.text;
        survey = kept.survey;
    }
    fixed.unplaced = survey.unplaced;
    fixed
}

/// What a pass needs of a linted text: where its URLs lie and its selected
/// fixes, placed. The reports they come from are dropped as they are read.
#[derive(Debug, Default)]
struct Survey {
    /// Each URL's span in the text, outer delimiters included.
    outers: Vec<SourceSpan>,
    /// The selected fixes placed in the text, one group each.
    groups: Vec<EditGroup>,
    /// Selected fixes that could not be placed, and why.
    unplaced: Vec<Unplaced>,
}

/// Lints texts into [`Survey`]s: how a text is written and linted, and
/// which fixes are selected.
struct Surveyor<'a> {
    markup: Markup,
    linter: Linter<'a>,
    selection: FixSelection,
}

/// Fixes of one pass applied and the text surveyed again.
struct Pass {
    /// How many fix groups were applied.
    applied: usize,
    text: String,
    /// Where the characters to keep are in `text`.
    kept: Vec<usize>,
    survey: Survey,
}

impl Surveyor<'_> {
    /// Lint `text`, whose characters at `kept` must stay as they are, and
    /// keep what a pass needs of each URL.
    fn survey(&self, text: &str, kept: &[usize]) -> Survey {
        let mut survey = Survey::default();
        (self.linter)(text, &mut |report: UrlReport| {
            survey.outers.push(report.found.outer);
            for finding in &report.findings {
                let selected = finding
                    .diagnostic
                    .fix
                    .as_ref()
                    .is_some_and(|fix| self.selection.allows(fix.applicability));
                match place(text, self.markup, &report, finding).filter(|_| selected) {
                    Some(Ok(group)) if touches(&group, kept) => {
                        survey.unplaced.push(Unplaced::NotUtf8);
                    }
                    Some(Ok(group)) => survey.groups.push(group),
                    Some(Err(why)) => survey.unplaced.push(why),
                    None => {}
                }
            }
        });
        survey.outers.shrink_to_fit();
        survey
    }

    /// `chosen` applied to `text` (whose characters at `kept` stay as they
    /// are) when that leaves the text outside its URLs as it was (`before`,
    /// from [`between_urls`]): all of them at once, else each
    /// that does, tried one after another in text order; `None` when none
    /// does.
    fn keeping_urls_in_place(
        &self,
        text: &str,
        kept: &[usize],
        before: &[&str],
        chosen: Vec<EditGroup>,
    ) -> Option<Pass> {
        let attempt = |groups: &[EditGroup]| {
            let text = apply(text, groups);
            let kept = shifted(kept, groups);
            let survey = self.survey(&text, &kept);
            let after = between_urls(&text, &survey.outers);
            let in_place = after.len() == before.len()
                && after
                    .iter()
                    .zip(before)
                    .all(|(gap, old)| padding_collapsed(gap).eq(padding_collapsed(old)));
            in_place.then_some(Pass {
                applied: groups.len(),
                text,
                kept,
                survey,
            })
        };
        if let Some(pass) = attempt(&chosen) {
            return Some(pass);
        }
        let (mut tried, mut last) = (Vec::new(), None);
        for group in chosen {
            tried.push(group);
            match attempt(&tried) {
                Some(pass) => last = Some(pass),
                None => drop(tried.pop()),
            }
        }
        last
    }
}

/// The characters of `gap` with each run of spaces as one space: a fix in a
/// reStructuredText grid table's cell may take spaces from the padding
/// before the cell's border, or give them back, and nothing else. Compared
/// as they come, so that no gap of a large file is copied.
fn padding_collapsed(gap: &str) -> impl Iterator<Item = char> + '_ {
    let mut after_space = false;
    gap.chars().filter(move |&c| {
        let repeat = c == ' ' && after_space;
        after_space = c == ' ';
        !repeat
    })
}

/// The text before, between and after the URLs at `outers` (linted from
/// `text`): what no fix may change, but for padding (see
/// [`padding_collapsed`]). The old text outlives the pass, so these are
/// borrowed from it.
fn between_urls<'t>(text: &'t str, outers: &[SourceSpan]) -> Vec<&'t str> {
    let mut outers = outers.to_vec();
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
        let linter = |text: &str, each: &mut dyn FnMut(UrlReport)| {
            each_url(lint::lint(text, &options), each)
        };
        let fixed = fix_text(text, Markup::Plain, &linter, FixSelection::default());
        assert_ne!(fixed.stopped, Some(Stopped::PassLimit), "{text:?}");
        let remaining = urls(lint::lint(&fixed.text, &options));
        let left: Vec<_> = remaining
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

    /// The URL reports of linted items, each handed to `each`: a [`Linter`]'s work.
    fn each_url(linted: impl Iterator<Item = Linted>, each: &mut dyn FnMut(UrlReport)) {
        linted.filter_map(Linted::into_url).for_each(each);
    }

    /// Plain text linted with the default options.
    fn plain(text: &str) -> Vec<UrlReport> {
        urls(lint::lint(text, &LintOptions::default()))
    }

    /// Where the URLs of `reports` lie, outer delimiters included.
    fn outers(reports: &[UrlReport]) -> Vec<SourceSpan> {
        reports.iter().map(|report| report.found.outer).collect()
    }

    /// [`plain`] as a [`Linter`].
    fn plain_linter(text: &str, each: &mut dyn FnMut(UrlReport)) {
        each_url(lint::lint(text, &LintOptions::default()), each);
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
        let linter = |text: &str, each: &mut dyn FnMut(UrlReport)| {
            each_url(lint::lint_markup(text, markup, &options), each)
        };
        let before = urls(lint::lint_markup(text, markup, &options));
        let fixed = fix_text(text, markup, &linter, FixSelection::default());
        let remaining = urls(lint::lint_markup(&fixed.text, markup, &options));
        assert_ne!(fixed.stopped, Some(Stopped::PassLimit), "{text:?}");
        assert!(
            fixed.unplaced.iter().all(|why| *why == Unplaced::TableCell),
            "{text:?}: {:?}",
            fixed.unplaced
        );
        let left = remaining
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
            let gaps = between_urls(text, &outers(reports));
            match crate::markup::facts(markup).grid_tables {
                true => gaps
                    .iter()
                    .map(|gap| padding_collapsed(gap).collect())
                    .collect(),
                false => gaps.iter().map(|gap| gap.to_string()).collect(),
            }
        };
        assert_eq!(
            around(&fixed.text, &remaining),
            around(text, &before),
            "{text:?} -> {:?}",
            fixed.text
        );
        assert_eq!(remaining.len(), before.len());
        for (old, new) in before.iter().zip(&remaining) {
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
            let fixed = fix_text(&text, Markup::Rst, &|text: &str, each: &mut dyn FnMut(UrlReport)| {
                each_url(lint::lint_markup(text, Markup::Rst, &LintOptions::default()), each)
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
        let result = fix_text(
            text,
            Markup::Plain,
            &plain_linter,
            FixSelection { suggestions },
        );
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
        let literal = |text: &str, each: &mut dyn FnMut(UrlReport)| {
            let options = LintOptions {
                scan: ScanOptions {
                    no_templates: true,
                    ..ScanOptions::default()
                },
                ..LintOptions::default()
            };
            each_url(lint::lint(text, &options), each)
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
        let result = fix_text(text, Markup::Plain, &plain_linter, FixSelection::default());
        assert_eq!(result.text, "(see http://h.example/%7E([/) here)");
        assert_eq!(result.fixed, 1);
        assert_eq!(result.stopped, Some(Stopped::UrlsMoved));
        let remaining = plain(&result.text);
        assert_eq!(
            between_urls(&result.text, &outers(&remaining)),
            ["(see ", ") here)"]
        );
        // What remains has the '[' among its findings.
        let rules: Vec<Rule> = remaining[0]
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
        let result = fix_text(&text, Markup::Plain, &plain_linter, FixSelection::default());
        assert_eq!(result.fixed, 150);
        assert_eq!(result.stopped, None);
        assert!(plain(&result.text)[0].findings.is_empty());
        assert_eq!(
            result.text,
            format!("<URL:http://h.example/{}>", "%7E%5E".repeat(75))
        );
    }
}
