//! The pipeline for one source text: scan, validate each URL, map the
//! validator's URL spans back to source spans, apply rule levels and the
//! text's own `urlint: ignore` comments.

mod finding;
mod levels;
mod suppress;

use regex::RegexSet;

use crate::diagnostic::{Applicability, Diagnostic};
use crate::profile::Profile;
use crate::rules::{Level, Rule};
use crate::scan::{self, Form, Found, Markup, ScanOptions};
use crate::span::{LineIndex, SourceSpan, Span, UrlSpan};
use crate::template::{self, Template};
use crate::validate::{self, ValidateOptions};

pub use finding::{At, Finding, Linted, UrlReport};
pub use levels::{RuleLevels, RuleOverrides};
use suppress::Suppressed;

/// Options for [`lint`].
#[derive(Debug, Clone, Default)]
pub struct LintOptions {
    /// How to find URLs.
    pub scan: ScanOptions,
    /// The standard URLs are checked against.
    pub profile: Profile,
    /// Schemes to accept without `unknown-scheme`, beyond the profile's own.
    pub extra_schemes: Vec<String>,
    /// Which rules report, and at what severity.
    pub levels: RuleLevels,
    /// Known schemes to treat as unknown: their URLs get `unknown-scheme`.
    pub removed_schemes: Vec<String>,
    /// URLs matching any of these are not reported at all.
    pub url_excludes: RegexSet,
    /// The text is a `pyproject.toml`: its `[tool.urlint]` tables are
    /// urlint's configuration, whose URL patterns are not URLs to lint.
    pub skip_own_configuration: bool,
}

/// Scan `text` and lint every URL in it, in source order.
///
/// URLs matching `url_excludes` are left out; inline `urlint: ignore`
/// comments in `text` silence the findings they cover (see the `suppress`
/// module), and those that silence nothing are findings of the text's own
/// ([`Linted::Text`]) when `unused-suppression` is on.
pub fn lint<'t>(text: &'t str, options: &'t LintOptions) -> impl Iterator<Item = Linted> + 't {
    lint_markup(text, Markup::Plain, options)
}

/// Scan `text`, written in `markup`, and lint every URL in it, in source
/// order (see [`scan::scan_markup`] for what is scanned in each markup),
/// with the text's own findings as [`lint`] gives them, and where the
/// markup left something open that took in the rest of the text
/// ([`Linted::Unclosed`]).
pub fn lint_markup<'t>(
    text: &'t str,
    markup: Markup,
    options: &'t LintOptions,
) -> impl Iterator<Item = Linted> + 't {
    let own_tables = match options.skip_own_configuration {
        true => own_configuration_tables(text),
        false => Vec::new(),
    };
    let (found, unclosed) = scan::read_markup(text, markup, &options.scan);
    let reports = found
        .filter(move |found| {
            !own_tables
                .iter()
                .any(|table| table.start <= found.outer.start && found.outer.start < table.end)
        })
        .filter_map(move |found| lint_url(found, options));
    InPlace {
        items: Suppressed::new(text, reports, &options.levels).peekable(),
        item: unclosed.map(Linted::Unclosed),
    }
}

/// Items in source order, and one more put among them in its place, after
/// the items that start where it does.
struct InPlace<I: Iterator<Item = Linted>> {
    items: std::iter::Peekable<I>,
    item: Option<Linted>,
}

impl<I: Iterator<Item = Linted>> Iterator for InPlace<I> {
    type Item = Linted;

    fn next(&mut self) -> Option<Linted> {
        let due = match (&self.item, self.items.peek()) {
            (Some(item), Some(next)) => item.start() < next.start(),
            (item, None) => item.is_some(),
            (None, Some(_)) => false,
        };
        match due {
            true => self.item.take(),
            false => self.items.next(),
        }
    }
}

/// True for the rules about one character as written, whatever the URL's
/// structure around it: a placeholder beside it does not change it.
fn is_character_rule(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::UnsafeChar | Rule::NonAscii | Rule::ControlChar | Rule::BadEscape
    )
}

/// The byte ranges of a `pyproject.toml`'s `[tool.urlint]` tables (and
/// their subtables): from each such header to the next header of another
/// table.
fn own_configuration_tables(text: &str) -> Vec<Span> {
    let mut tables = Vec::new();
    let mut open: Option<usize> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let header = line.trim_start();
        if header.starts_with('[') {
            let name = header
                .trim_start_matches('[')
                .split([']', '#'])
                .next()
                .unwrap_or("")
                .trim();
            let own = name == "tool.urlint" || name.starts_with("tool.urlint.");
            match (own, open) {
                (true, None) => open = Some(at),
                (false, Some(start)) => {
                    tables.push(Span::new(start, at));
                    open = None;
                }
                _ => {}
            }
        }
        at += line.len();
    }
    if let Some(start) = open {
        tables.push(Span::new(start, text.len()));
    }
    tables
}

/// Lint one URL found in a text, by the scanner or by the caller (a URL
/// given on its own is [`Found::unbroken`]): `None` when `url_excludes`
/// leaves it out.
pub fn lint_url(found: Found, options: &LintOptions) -> Option<UrlReport> {
    let excluded = !options.url_excludes.is_empty() && options.url_excludes.is_match(&found.url);
    (!excluded).then(|| lint_found(found, options))
}

/// How many of `report`'s findings linting its URL under `other` would
/// not give: a finding is kept there when `other` reports the same rule at
/// an overlapping place of the URL. `check` counts them under the default
/// profile (rfc1738) against rfc3986, to tell a new user the other profile
/// exists.
#[cfg(feature = "cli")]
pub(crate) fn spared_under(report: &UrlReport, other: &LintOptions) -> usize {
    if report.findings.is_empty() {
        return 0;
    }
    let again = lint_found(report.found.clone(), other);
    let kept = |finding: &Finding| {
        again.findings.iter().any(|other| {
            other.diagnostic.rule == finding.diagnostic.rule
                && match (other.at.url_span(), finding.at.url_span()) {
                    (Some(a), Some(b)) => a.meets(b),
                    _ => true,
                }
        })
    };
    report
        .findings
        .iter()
        .filter(|finding| !kept(finding))
        .count()
}

/// Lint each non-blank line of `text` as one URL given on its own, placed
/// at its line (surrounding whitespace is not part of it, nor the zero-width
/// spaces and byte-order mark the scanner takes for spaces): how `urlint
/// validate` reads its arguments and stdin.
pub(crate) fn lint_lines(text: &str, options: &LintOptions) -> Vec<UrlReport> {
    let index = LineIndex::new(text);
    let starts = index.line_starts();
    starts
        .iter()
        .enumerate()
        .filter_map(|(line, &start)| {
            let end = starts.get(line + 1).copied().unwrap_or(text.len());
            let raw = text.get(start..end)?;
            let url = raw.trim_matches(scan::is_space);
            if url.is_empty() {
                return None;
            }
            let offset = start + (raw.len() - raw.trim_start_matches(scan::is_space).len());
            let found = Found::unbroken(url, Form::Bare, Span::new(offset, offset + url.len()));
            lint_url(found, options)
        })
        .collect()
}

/// True when `text` may hold an `urlint: ignore` directive: only then can
/// a URL's report, as [`lint_markup`] yields it, differ from the one
/// [`lint_found`] makes of its `Found` again, a directive having silenced
/// some of its findings.
#[cfg(feature = "cli")]
pub(crate) fn may_suppress(text: &str) -> bool {
    suppress::holds_marker(text)
}

/// Validate one URL and place its findings in the source: the report
/// [`lint_url`] makes of a URL it does not leave out, the same each time,
/// so that a caller holding less than the report (the language server)
/// can make it again.
pub(crate) fn lint_found(found: Found, options: &LintOptions) -> UrlReport {
    let template = match options.scan.no_templates {
        true => None,
        false => Some(template::read(&found.url))
            .filter(|template| !template.is_empty())
            .map(Box::new),
    };
    if options.levels.all_off() {
        // Nothing the URL holds could be reported (`extract` listing URLs
        // alone): it is not validated.
        return UrlReport {
            found,
            findings: Vec::new(),
            template,
        };
    }
    let validate_options = ValidateOptions {
        profile: options.profile,
        extra_schemes: options.extra_schemes.clone(),
    };
    let mut findings: Vec<Finding> = found
        .diagnostics
        .iter()
        .map(|diagnostic| {
            Finding::in_source(diagnostic.clone(), scanner_labels(&found, diagnostic))
        })
        .collect();
    findings.extend(form_findings(&found, &options.levels));
    // An empty wrapper already carries `empty-url`; validating "" would only
    // add a cascade of scheme errors about the same nothing.
    let mut diagnostics = match (&template, found.url.is_empty()) {
        (_, true) => Vec::new(),
        (Some(template), false) => validate_template(&found.url, template, &validate_options),
        (None, false) => validate::validate(&found.url, &validate_options),
    };
    if !diagnostics.iter().any(|d| d.rule == Rule::UnknownScheme) {
        diagnostics.extend(removed_scheme(&found.url, &options.removed_schemes));
    }
    if found
        .diagnostics
        .iter()
        .any(|d| d.rule == Rule::SpaceInWrapper)
    {
        diagnostics.iter_mut().for_each(only_suggested);
    }
    if is_joined_across_lines(&found) {
        diagnostics
            .iter_mut()
            .filter(|diagnostic| at_a_joined_break(&found, diagnostic.span))
            .for_each(only_suggested_at_break);
    }
    findings.extend(
        diagnostics
            .into_iter()
            .map(|diagnostic| Finding::in_url(diagnostic, &found)),
    );
    // A rule reports only under the profiles its catalogue entry names
    // (RFC 3986 Appendix C no longer recommends the 'URL:' prefix).
    findings.retain_mut(|finding| {
        let rule = finding.diagnostic.rule;
        let severity = options.levels.level(rule).severity();
        match severity.filter(|_| rule.info().applies_to(options.profile)) {
            Some(severity) => {
                finding.diagnostic.severity = severity;
                true
            }
            None => false,
        }
    });
    findings.sort_by_key(|finding| finding.source_spans.first().copied());
    // A report is held until its text is reported, and a text may hold a
    // million: a vector grown by pushing keeps room for four findings and
    // four spans where most URLs have one of each.
    findings.shrink_to_fit();
    for finding in &mut findings {
        finding.source_spans.shrink_to_fit();
    }
    UrlReport {
        found,
        findings,
        template,
    }
}

/// The template's problems, and what the validator finds in its literal
/// parts: the URL is validated with each placeholder's bytes replaced by a
/// stand-in, and what is said about a stand-in is dropped, as a
/// placeholder is checked by its own language, not as URL characters.
fn validate_template(url: &str, template: &Template, options: &ValidateOptions) -> Vec<Diagnostic> {
    let mut diagnostics: Vec<Diagnostic> = validate::validate(&template.stand_in(url), options)
        .into_iter()
        .filter(|diagnostic| match is_character_rule(diagnostic.rule) {
            true => !template.overlaps(diagnostic.span),
            false => !template.touches(diagnostic.span),
        })
        .collect();
    diagnostics.extend(template.problems.iter().cloned());
    diagnostics.sort_by_key(|diagnostic| diagnostic.span);
    diagnostics
}

/// Where a scanner finding is labelled: on its span, but for a bare URL
/// joined across lines, which is labelled on each of its pieces (its span,
/// which its fix replaces, runs over the line breaks and any page furniture
/// between them).
fn scanner_labels(found: &Found, diagnostic: &Diagnostic) -> Vec<SourceSpan> {
    match diagnostic.rule {
        Rule::BrokenBareUrl => found.source_spans(UrlSpan::new(0, found.url.len())),
        _ => vec![diagnostic.span.of()],
    }
}

/// True when `url_span` touches a line break that `found`, a bare URL
/// joined across lines, was joined over: it ends or starts where a line's
/// piece does, or runs over one.
fn at_a_joined_break(found: &Found, url_span: Span) -> bool {
    found
        .joins
        .iter()
        .any(|join| url_span.start <= join.url_offset && join.url_offset <= url_span.end)
}

/// Make `diagnostic`'s fix a suggestion: it changes the characters on
/// either side of a line break the scanner joined a bare URL over, which
/// are its evidence for the join; fixed, the lines may read as two.
fn only_suggested_at_break(diagnostic: &mut Diagnostic) {
    let Some(fix) = diagnostic.fix.as_mut() else {
        return;
    };
    if fix.applicability == Applicability::Suggestion {
        return;
    }
    fix.applicability = Applicability::Suggestion;
    diagnostic.help = format!(
        "{}; the fix changes the URL where it was joined across a line break, and the \
         join rests on those characters, so the fix is only a suggestion",
        diagnostic.help
    )
    .into();
}

/// True for a bare URL the scanner joined across line breaks.
fn is_joined_across_lines(found: &Found) -> bool {
    matches!(found.form, Form::Bare | Form::Prefixed) && !found.joins.is_empty()
}

/// `unknown-scheme` for a URL whose scheme the configuration removed from
/// the known ones (the validator reports the rest).
fn removed_scheme(url: &str, removed: &[String]) -> Option<Diagnostic> {
    let colon = memchr::memchr(b':', url.as_bytes())?;
    let scheme = &url[..colon];
    removed
        .iter()
        .any(|name| name.eq_ignore_ascii_case(scheme))
        .then(|| {
            Diagnostic::new(
                Rule::UnknownScheme,
                Span::new(0, colon),
                format!("scheme '{scheme}' is not accepted here: the configuration removes it"),
            )
            .with_help("the configuration file's `schemes.remove` lists this scheme")
        })
}

/// Make `diagnostic`'s fix a suggestion: the wrapper holds whitespace
/// inside a line, so which characters make up the URL is the scanner's
/// guess (a wrapper across the cells of a text table joins their borders
/// into it), and a fix of one of them may be a fix of something else.
fn only_suggested(diagnostic: &mut Diagnostic) {
    let Some(fix) = diagnostic.fix.as_mut() else {
        return;
    };
    if fix.applicability == Applicability::Suggestion {
        return;
    }
    fix.applicability = Applicability::Suggestion;
    diagnostic.help = format!(
        "{}; the wrapper holds whitespace inside a line, so which characters make up \
         the URL is uncertain and the fix is only a suggestion",
        diagnostic.help
    )
    .into();
}

/// Style findings about how the URL was written (off unless configured).
fn form_findings(found: &Found, levels: &RuleLevels) -> Option<Finding> {
    let (rule, message) = match found.form {
        // The wrapper is what the style rules ask for; markup delimits its
        // own links.
        Form::Wrapped | Form::Link | Form::Attribute => return None,
        Form::Angle => (
            Rule::MissingUrlPrefix,
            "URL in angle brackets without the 'URL:' prefix",
        ),
        Form::Prefixed | Form::Bare => (Rule::BareUrl, "URL without '<URL:...>' delimiters"),
    };
    // Both rules are off by default: skip building what would be dropped.
    if levels.level(rule) == Level::Off {
        return None;
    }
    let span = found.outer;
    let mut diagnostic = Diagnostic::new(rule, span.of(), message).with_help(
        "RFC 1738 Appendix recommends writing URLs in text as <URL:scheme:...>, \
         so that their ends are unambiguous",
    );
    let wrapped = format!("<URL:{}>", found.url);
    match found.form {
        // The delimiters are the author's; only the prefix is added. An
        // angle wrapper broken over lines keeps its layout unfixed.
        Form::Angle if span.len() == found.url.len() + 2 => {
            diagnostic = diagnostic.with_fix(wrapped, Applicability::MachineApplicable);
        }
        // Where a URL in running text ends is the scanner's reading:
        // delimiting it writes that reading into the text. One joined
        // across lines is wrapped by `broken-bare-url`'s fix, which keeps
        // its lines; this one would put them on one.
        Form::Prefixed | Form::Bare if !is_joined_across_lines(found) => {
            diagnostic = diagnostic.with_fix(wrapped, Applicability::Suggestion);
        }
        _ => {}
    }
    Some(Finding::in_source(diagnostic, vec![span]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_html_in_markdown_or_rst_left_open_is_an_item_in_its_place() {
        let markdown = "<div title=\"x>\nhttp://a.example/\n\nsee http://b.example/\n";
        let rst = "Title\n=====\n\n.. raw:: html\n\n   <p title='x>http://a.example/\n\n\
                   see http://b.example/\n";
        for (markup, text) in [(Markup::Markdown, markdown), (Markup::Rst, rst)] {
            let options = LintOptions::default();
            let items: Vec<String> = lint_markup(text, markup, &options)
                .map(|item| match item {
                    Linted::Url(report) => report.found.url,
                    Linted::Unclosed(unclosed) => {
                        format!(
                            "{:?} {:?}",
                            unclosed.construct,
                            &text[unclosed.swallowed.range()]
                        )
                    }
                    Linted::Text(finding) => finding.diagnostic.message,
                })
                .collect();
            let left_open = match markup {
                Markup::Markdown => "QuotedValue \"\\\"x>\\nhttp://a.example/\\n\"",
                _ => "QuotedValue \"'x>http://a.example/\"",
            };
            assert_eq!(items, [left_open, "http://b.example/"], "{markup:?}");
        }
    }

    fn rules_in(text: &str, options: &LintOptions) -> Vec<Rule> {
        lint(text, options)
            .flat_map(Linted::into_findings)
            .map(|finding| finding.diagnostic.rule)
            .collect()
    }

    #[test]
    fn listed_urls_are_placed_each_at_its_line() {
        let text = "http://a.example/\n\n  ftp://b.example/x  \r\n";
        let reports = lint_lines(text, &LintOptions::default());
        let placed: Vec<(&str, SourceSpan)> = reports
            .iter()
            .map(|report| (report.found.url.as_str(), report.found.outer))
            .collect();
        assert_eq!(
            placed,
            [
                ("http://a.example/", Span::new(0, 17)),
                ("ftp://b.example/x", Span::new(21, 38)),
            ]
        );
    }

    #[test]
    fn with_every_rule_off_urls_are_found_and_excludes_still_apply() {
        let text = "<URL:http://a.example/~x> http://b.example/ <URL:>";
        let options = LintOptions {
            levels: RuleLevels::silent(),
            url_excludes: RegexSet::new(["b\\.example"]).expect("valid regex"),
            ..LintOptions::default()
        };
        let items: Vec<Linted> = lint(text, &options).collect();
        let urls: Vec<&str> = items
            .iter()
            .filter_map(|item| match item {
                Linted::Url(report) => Some(report.found.url.as_str()),
                Linted::Text(_) | Linted::Unclosed(_) => None,
            })
            .collect();
        assert_eq!(urls, ["http://a.example/~x", ""]);
        assert!(
            items
                .into_iter()
                .all(|item| item.into_findings().is_empty()),
            "no rule reports, not even the scanner's empty-url"
        );
    }

    #[test]
    fn with_every_rule_off_directives_report_nothing() {
        let text = "http://a.example/~x urlint: ignore\n\
                    urlint: ignore-next-line[no-such-rule]\n\
                    <URL:http://b.example/ x> urlint: ignore[bad-host]\n";
        let silent = LintOptions {
            levels: RuleLevels::silent(),
            ..LintOptions::default()
        };
        let items: Vec<Linted> = lint(text, &silent).collect();
        let urls: Vec<&str> = items
            .iter()
            .filter_map(|item| match item {
                Linted::Url(report) if report.findings.is_empty() => {
                    Some(report.found.url.as_str())
                }
                _ => None,
            })
            .collect();
        assert_eq!(urls, ["http://a.example/~x", "http://b.example/x"]);
        assert_eq!(items.len(), urls.len(), "no finding of the text's own");
        // With a rule on, the same directives are read.
        let mut loud = LintOptions::default();
        loud.levels.set(Rule::UnusedSuppression, Level::Warning);
        assert!(rules_in(text, &loud).contains(&Rule::UnusedSuppression));
    }

    #[test]
    fn appendix_empty_wrapper_is_one_finding() {
        let options = LintOptions::default();
        assert_eq!(rules_in("see <URL:> here", &options), vec![Rule::EmptyUrl]);
    }

    #[test]
    fn a_fix_at_a_joined_break_is_only_a_suggestion() {
        // `~` ends the line, which joins it; the other `~` is mid-line.
        let text = "   see http://a.example/~docs~\n   more/x.html now\n";
        let options = LintOptions::default();
        let report = lint(text, &options)
            .find_map(Linted::into_url)
            .expect("one URL");
        assert_eq!(report.found.url, "http://a.example/~docs~more/x.html");
        let fixes: Vec<(&str, Applicability)> = report
            .findings
            .iter()
            .filter(|finding| finding.diagnostic.rule == Rule::UnsafeChar)
            .map(|finding| {
                let span = finding.at.url_span().expect("a validator finding");
                let fix = finding.diagnostic.fix.as_ref().expect("a fix");
                (&report.found.url[span.range()], fix.applicability)
            })
            .collect();
        assert_eq!(
            fixes,
            [
                ("~", Applicability::MachineApplicable),
                ("~", Applicability::Suggestion)
            ]
        );
    }

    #[test]
    fn validator_spans_map_to_both_lines_of_a_wrapped_url() {
        let text = "<URL:http://host.example/a~\n  ~b>";
        let options = LintOptions::default();
        let report = lint(text, &options)
            .find_map(Linted::into_url)
            .expect("one URL");
        let labels: Vec<&str> = report
            .findings
            .iter()
            .flat_map(|finding| finding.source_spans.iter())
            .map(|span| &text[span.range()])
            .collect();
        assert_eq!(labels, vec!["~", "~"]);
        // The two '~' are one run in the joined URL: one finding, labelled
        // on both lines.
        assert_eq!(report.findings.len(), 1);
        assert_eq!(
            report.findings[0].source_spans[1].start,
            text.rfind('~').unwrap()
        );
    }

    #[test]
    fn rfc1738_3_removed_scheme_is_unknown_once_and_excludes_drop_urls() {
        let text = "<URL:gopher://g.example/1x> <URL:irc://i.example/> <URL:http://h.example/>";
        let options = LintOptions {
            removed_schemes: vec!["gopher".into(), "irc".into()],
            url_excludes: RegexSet::new(["^http://h"]).expect("valid pattern"),
            ..LintOptions::default()
        };
        let reports: Vec<UrlReport> = lint(text, &options).filter_map(Linted::into_url).collect();
        let urls: Vec<&str> = reports.iter().map(|r| r.found.url.as_str()).collect();
        assert_eq!(urls, ["gopher://g.example/1x", "irc://i.example/"]);
        for report in &reports {
            let rules: Vec<Rule> = report.findings.iter().map(|f| f.diagnostic.rule).collect();
            assert_eq!(rules, [Rule::UnknownScheme], "{}", report.found.url);
        }
    }

    /// Every kind of fix, with the applicability its repair deserves: a
    /// fix that keeps the URL's meaning is machine-applicable, one that
    /// changes it, drops text or picks a reading is a suggestion.
    #[test]
    fn fixes_are_machine_applicable_only_when_they_keep_the_meaning() {
        use crate::diagnostic::Applicability::{MachineApplicable as Safe, Suggestion};
        use Rule::*;
        let cases: &[(Profile, &str, Rule, &str, Applicability)] = &[
            (
                Profile::Rfc1738,
                "<URL:HTTP://h.example/>",
                SchemeCase,
                "http",
                Safe,
            ),
            (
                Profile::Rfc3986,
                "<URL:HTTP://h.example/>",
                SchemeCase,
                "http",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example/~u>",
                UnsafeChar,
                "%7E",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example/a\u{7f}>",
                ControlChar,
                "%7F",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example/caf\u{e9}>",
                NonAscii,
                "%C3%A9",
                Safe,
            ),
            (
                Profile::Rfc3986,
                "<URL:http://h.example/x{>",
                UnsafeChar,
                "%7B",
                Safe,
            ),
            // A '{' before a name opens a template expression whose '}'
            // may have been lost: encoding it is a guess.
            (
                Profile::Rfc3986,
                "<URL:http://h.example/{x/y>",
                BadTemplate,
                "%7B",
                Suggestion,
            ),
            (
                Profile::Rfc3986,
                "<URL:http://h.example/caf\u{e9}>",
                NonAscii,
                "%C3%A9",
                Safe,
            ),
            (
                Profile::Rfc3986,
                "<URL:http://caf\u{e9}.example/>",
                NonAscii,
                "%C3%A9",
                Suggestion,
            ),
            (
                Profile::Rfc1738,
                "<URL:ftp://h.example/a;b>",
                ReservedChar,
                "%3B",
                Suggestion,
            ),
            (
                Profile::Rfc3986,
                "<URL:http://h.example/a[b>",
                ReservedChar,
                "%5B",
                Suggestion,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example/#a#b>",
                UnsafeChar,
                "%23",
                Safe,
            ),
            (
                Profile::Rfc3986,
                "<URL:http://h.example/#a#b>",
                ReservedChar,
                "%23",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example?q>",
                ReservedChar,
                "/?",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example:/>",
                BadPort,
                "",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:file:/etc/motd>",
                FileHost,
                "///",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:file://h.example:21/x>",
                FileHost,
                "",
                Suggestion,
            ),
            (
                Profile::Rfc3986,
                "<URL:file://h.example:21/x>",
                FileHost,
                "",
                Suggestion,
            ),
            (
                Profile::Rfc3986,
                "<URL:file:///c|/x>",
                UnsafeChar,
                ":",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:nntp://h.example/g.x/>",
                NntpArticle,
                "",
                Suggestion,
            ),
            (
                Profile::Rfc3986,
                "<URL:mailto:a@b.example?>",
                MailtoAddress,
                "",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example/a b>",
                SpaceInWrapper,
                "%20",
                Suggestion,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h.example/a-\n b>",
                HyphenBreak,
                "%2D",
                Suggestion,
            ),
            (
                Profile::Rfc1738,
                "<URL:http://h-\n .example/>",
                HyphenBreak,
                "",
                Suggestion,
            ),
            (
                Profile::Rfc1738,
                "<http://h.example/>",
                MissingUrlPrefix,
                "<URL:http://h.example/>",
                Safe,
            ),
            (
                Profile::Rfc1738,
                "http://h.example/",
                BareUrl,
                "<URL:http://h.example/>",
                Suggestion,
            ),
        ];
        for &(profile, text, rule, replacement, applicability) in cases {
            let mut options = LintOptions {
                profile,
                ..LintOptions::default()
            };
            options.levels.set(MissingUrlPrefix, Level::Warning);
            options.levels.set(BareUrl, Level::Warning);
            let fixes: Vec<(&str, Applicability)> = lint(text, &options)
                .flat_map(Linted::into_findings)
                .filter(|finding| finding.diagnostic.rule == rule)
                .filter_map(|finding| finding.diagnostic.fix)
                .map(|fix| {
                    (
                        if fix.replacement == replacement {
                            replacement
                        } else {
                            "?"
                        },
                        fix.applicability,
                    )
                })
                .collect();
            assert_eq!(
                fixes,
                [(replacement, applicability)],
                "{profile:?} {text:?} {rule:?}"
            );
        }
    }

    #[test]
    fn rule_levels_silence_and_raise() {
        let text = "<URL:HTTP://host.example/> and <http://host.example/>";
        let mut options = LintOptions::default();
        assert_eq!(rules_in(text, &options), vec![Rule::SchemeCase]);
        options.levels.set(Rule::SchemeCase, Level::Off);
        options.levels.set(Rule::MissingUrlPrefix, Level::Error);
        let findings: Vec<Finding> = lint(text, &options)
            .flat_map(Linted::into_findings)
            .collect();
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].diagnostic.rule, Rule::MissingUrlPrefix);
        assert_eq!(
            findings[0].diagnostic.severity,
            crate::rules::Severity::Error
        );
    }
}
