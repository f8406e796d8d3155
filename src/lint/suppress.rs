//! Inline suppressions: `urlint: ignore` comments written in the text itself.
//!
//! A directive is the marker `urlint:` followed by `ignore` (findings on the
//! marker's own line) or `ignore-next-line` (findings on the line after it),
//! optionally with a rule list in brackets: `urlint: ignore[unsafe-char,
//! bad-host]`. Anything may surround it, so it fits a Markdown comment
//! (`<!-- urlint: ignore -->`), a code comment (`// urlint: ignore`) or plain
//! RFC text.
//!
//! A directive covers a finding when the finding's first source span starts
//! on the covered line, or when the finding's URL starts there: a marker
//! before a URL wrapped over several lines silences the whole URL.
//!
//! Lint runs over gigabytes, so a text is searched for the marker once with
//! `memmem`; a text without it costs that one pass and nothing else.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem;

use super::finding::{Finding, Linted, UrlReport};
use super::levels::RuleLevels;
use crate::diagnostic::Diagnostic;
use crate::rules::{closest_rule_name, find_rule, Rule, Severity};
use crate::span::Span;

/// The text every directive starts with.
pub(super) const MARKER: &str = "urlint:";

/// The searcher for [`MARKER`], built once rather than for every text:
/// most texts are small files, where building it costs as much as
/// searching.
static FINDER: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new(MARKER));

/// True when `text` holds the marker a directive starts with.
#[cfg(feature = "cli")]
pub(super) fn holds_marker(text: &str) -> bool {
    FINDER.find(text.as_bytes()).is_some()
}

/// Which line a directive covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// `ignore`: the marker's own line.
    ThisLine,
    /// `ignore-next-line`: the line after the marker's.
    NextLine,
}

/// Directive keywords and the line each covers; the longest first, so that
/// `ignore-next-line` is not read as `ignore`.
const KEYWORDS: &[(&str, Target)] = &[
    ("ignore-next-line", Target::NextLine),
    ("ignore", Target::ThisLine),
];

/// One parsed directive.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Directive {
    /// The directive's text in the source, marker to keyword or `]`.
    span: Span,
    /// The rules it silences; `None` for all.
    rules: Option<Vec<Rule>>,
    /// The byte range of the covered line, line break included.
    covers: Range<usize>,
    /// Whether it has silenced a finding.
    used: bool,
}

impl Directive {
    /// True when this directive's rule list includes `finding`'s rule.
    fn lists(&self, finding: &Finding) -> bool {
        self.rules
            .as_ref()
            .is_none_or(|rules| rules.contains(&finding.diagnostic.rule))
    }
}

/// The directives of one text and what they have silenced so far.
///
/// Each directive covers one whole line, so any two cover the same line or
/// disjoint ones: sorted by line, the directives covering an offset are
/// found by binary search, and those behind a URL are final.
#[derive(Debug, Default)]
pub(super) struct Suppressions {
    /// Sorted by the line they cover.
    directives: Vec<Directive>,
    /// Directives before this index cover lines no later URL can reach.
    settled: usize,
    /// `first_starts[i]`: where the first of `directives[i..]` starts in the
    /// text (they are sorted by covered line, not by where they are written).
    first_starts: Vec<usize>,
    /// Findings about the directives themselves (unknown rule names), in
    /// text order.
    problems: Vec<Finding>,
}

impl Suppressions {
    /// Find every directive in `text`.
    pub(super) fn parse(text: &str) -> Self {
        let mut suppressions = Suppressions::default();
        for at in FINDER.find_iter(text.as_bytes()) {
            if starts_a_word(text, at) {
                suppressions.parse_at(text, at);
            }
        }
        // Stable: directives on one line keep their text order.
        suppressions
            .directives
            .sort_by_key(|directive| directive.covers.start);
        let mut first = usize::MAX;
        suppressions.first_starts = suppressions
            .directives
            .iter()
            .rev()
            .map(|directive| {
                first = first.min(directive.span.start);
                first
            })
            .collect();
        suppressions.first_starts.reverse();
        suppressions
    }

    /// Where the first directive or rule-name problem not yet reported by
    /// [`Suppressions::unused_before`] starts; `usize::MAX` when none is left.
    fn unsettled_start(&self) -> usize {
        let directive = self.first_starts.get(self.settled).copied();
        let problem = self
            .problems
            .first()
            .map(|finding| finding.diagnostic.span.start);
        directive
            .into_iter()
            .chain(problem)
            .min()
            .unwrap_or(usize::MAX)
    }

    /// True when the text has no directive.
    pub(super) fn is_empty(&self) -> bool {
        self.directives.is_empty() && self.problems.is_empty()
    }

    /// Parse the directive whose marker starts at `at`, if it is one.
    fn parse_at(&mut self, text: &str, at: usize) {
        let after_marker = at + MARKER.len();
        let keyword_start = after_marker + blanks(&text[after_marker..]);
        let rest = &text[keyword_start..];
        let word_len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(rest.len());
        let Some(&(_, target)) = KEYWORDS
            .iter()
            .find(|(keyword, _)| *keyword == &rest[..word_len])
        else {
            return;
        };
        let mut end = keyword_start + word_len;
        if let Some(unreadable) = unreadable_list(&text[end..], &rest[..word_len]) {
            // Read as a bare directive, it would silence every rule on the
            // line: the one the author meant to list and all the others.
            let span = Span::new(keyword_start, end + unreadable.len);
            self.problems
                .push(unreadable_rule_list(span, unreadable.message));
            return;
        }
        let rules = rule_list(&text[end..]).map(|list| {
            let names = self.rule_names(list.names, end + list.names_start);
            end += list.len;
            names
        });
        self.directives.push(Directive {
            span: Span::new(at, end),
            rules,
            covers: covered_line(text, at, target),
            used: false,
        });
    }

    /// The rules named in a list whose names start at `offset` of the
    /// text; unknown names become findings.
    fn rule_names(&mut self, names: &str, offset: usize) -> Vec<Rule> {
        let mut rules = Vec::new();
        let mut start = offset;
        for name in names.split(',') {
            let trimmed = name.trim();
            let name_start = start + (name.len() - name.trim_start().len());
            start += name.len() + 1;
            if trimmed.is_empty() {
                continue;
            }
            match find_rule(trimmed) {
                Ok(rule) => rules.push(rule),
                // A name close to no rule (`ignore[rule]`, `ignore[RULE, ...]`
                // in a document about urlint itself) is a placeholder, not a
                // misspelling; the directive then silences nothing, which
                // `unused-suppression` reports when it is on.
                Err(_) if closest_rule_name(trimmed).is_none() => {}
                Err(message) => {
                    let span = Span::new(name_start, name_start + trimmed.len());
                    self.problems.push(unknown_rule(span, message));
                }
            }
        }
        rules
    }

    /// Drop the findings of `report` that a directive covers: one listing
    /// its rule on the line where the finding, or its URL, starts.
    pub(super) fn apply(&mut self, report: &mut UrlReport) {
        if self.directives.is_empty() {
            return;
        }
        let url_start = report.found.outer.start;
        let directives = &mut self.directives;
        report.findings.retain(|finding| {
            let first = finding
                .source_spans
                .first()
                .map_or(url_start, |span| span.start);
            let mut silenced = false;
            for offset in [first, url_start] {
                for directive in covering(directives, offset) {
                    if directive.lists(finding) {
                        // Every covering directive counts as used, not only the first.
                        directive.used = true;
                        silenced = true;
                    }
                }
            }
            !silenced
        });
    }

    /// Findings for the directives that silenced nothing and that no URL
    /// starting at `offset` or later can use, and for the unknown rule
    /// names written before `offset`.
    fn unused_before(&mut self, offset: usize) -> Vec<Finding> {
        let mut findings = Vec::new();
        while let Some(directive) = self.directives.get(self.settled) {
            if directive.covers.end > offset {
                break;
            }
            self.settled += 1;
            if !directive.used {
                findings.push(problem(directive.span, unused_message(directive)));
            }
        }
        let ready = self
            .problems
            .partition_point(|finding| finding.diagnostic.span.end <= offset);
        findings.extend(self.problems.drain(..ready));
        findings
    }
}

/// The directives of `sorted` whose line contains `offset`.
fn covering(sorted: &mut [Directive], offset: usize) -> impl Iterator<Item = &mut Directive> {
    let first = sorted.partition_point(|directive| directive.covers.end <= offset);
    sorted[first..]
        .iter_mut()
        .take_while(move |directive| directive.covers.contains(&offset))
}

/// The length of the blanks (spaces and tabs) `text` starts with.
fn blanks(text: &str) -> usize {
    text.len() - text.trim_start_matches([' ', '\t']).len()
}

/// True when the marker at `at` is not the tail of a longer word
/// (`myurlint:`), which would be some other tool's directive.
fn starts_a_word(text: &str, at: usize) -> bool {
    at == 0
        || !text.as_bytes()[at - 1].is_ascii_alphanumeric()
            && !matches!(text.as_bytes()[at - 1], b'-' | b'_')
}

/// A bracketed rule list after a directive's keyword.
#[derive(Debug, PartialEq, Eq)]
struct RuleList<'t> {
    /// The text between the brackets.
    names: &'t str,
    /// Where `names` starts, from the end of the keyword.
    names_start: usize,
    /// Length from the end of the keyword through the `]`.
    len: usize,
}

/// The `[...]` list at the start of `rest`, after optional blanks. A list
/// not closed on its line is no list.
fn rule_list(rest: &str) -> Option<RuleList<'_>> {
    let names_start = blanks(rest) + 1;
    let inside = rest[names_start - 1..].strip_prefix('[')?;
    let line_end = inside.find(['\n', '\r']).unwrap_or(inside.len());
    let close = inside[..line_end].find(']')?;
    Some(RuleList {
        names: &inside[..close],
        names_start,
        len: names_start + close + 1,
    })
}

/// A rule list after a directive's keyword that cannot be read.
#[derive(Debug, PartialEq, Eq)]
struct UnreadableList {
    /// Its length from the end of the keyword.
    len: usize,
    /// What is wrong with it.
    message: String,
}

/// The attempt at a rule list at the start of `rest`, after `keyword`, when
/// it cannot be read as one: a `[` not closed on its line, or names after
/// other punctuation (`ignore(bad-port)`, `ignore,bad-port`). Prose after a
/// blank (`ignore, as below`) is no attempt.
fn unreadable_list(rest: &str, keyword: &str) -> Option<UnreadableList> {
    let line_len = rest.find(['\n', '\r']).unwrap_or(rest.len());
    let line = &rest[..line_len];
    if line[blanks(line)..].starts_with('[') {
        return rule_list(rest).is_none().then(|| UnreadableList {
            len: line.trim_end().len(),
            message: format!(
                "this `{keyword}` has a rule list not closed with `]` on its line, \
                 so it silences nothing"
            ),
        });
    }
    let mut chars = line.chars();
    let opener = chars
        .next()
        .filter(|c| matches!(c, '(' | '{' | ',' | ':' | '='))?;
    chars.next().filter(char::is_ascii_alphabetic)?;
    let attempt_len = line.find(|c: char| c.is_whitespace()).unwrap_or(line.len());
    Some(UnreadableList {
        len: attempt_len,
        message: format!(
            "this `{keyword}` lists rules after `{opener}`, not in brackets, \
             so it silences nothing"
        ),
    })
}

/// The byte range of the line a directive at `at` covers, its line break
/// included. Lines end at `\n`, `\r\n` or a lone `\r`, as in [`crate::LineIndex`].
fn covered_line(text: &str, at: usize, target: Target) -> Range<usize> {
    let bytes = text.as_bytes();
    let start = memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |pos| pos + 1);
    let this = start..line_end(bytes, at);
    match target {
        Target::ThisLine => this,
        Target::NextLine => this.end..line_end(bytes, this.end),
    }
}

/// The offset just past the line break of the line containing `from`.
fn line_end(bytes: &[u8], from: usize) -> usize {
    match memchr::memchr2(b'\n', b'\r', &bytes[from..]) {
        None => bytes.len(),
        Some(pos) => {
            let pos = from + pos;
            let crlf = bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n');
            pos + 1 + usize::from(crlf)
        }
    }
}

/// Why a directive is reported as unused.
fn unused_message(directive: &Directive) -> String {
    match &directive.rules {
        Some(rules) if !rules.is_empty() => {
            let names: Vec<&str> = rules.iter().map(|rule| rule.name()).collect();
            format!(
                "this suppression of {} silences nothing on the line it covers",
                names.join(", ")
            )
        }
        _ => "this suppression silences nothing on the line it covers".to_string(),
    }
}

/// An `unused-suppression` finding at `span` of the source.
fn problem(span: Span, message: String) -> Finding {
    let diagnostic = Diagnostic::new(Rule::UnusedSuppression, span, message).with_help(
        "remove the comment, or fix its rule list; a stale suppression would \
         silence a future problem on that line unnoticed",
    );
    text_finding(diagnostic, span)
}

/// An `unknown-rule` finding at the name at `span` of the source.
fn unknown_rule(span: Span, message: String) -> Finding {
    let diagnostic = Diagnostic::new(Rule::UnknownRule, span, message).with_help(
        "a name that is not a rule silences nothing: fix it, or remove it from the list \
         (`urlint explain` lists the rules)",
    );
    text_finding(diagnostic, span)
}

/// An `unknown-rule` finding at a directive whose rule list at `span` of
/// the source cannot be read.
fn unreadable_rule_list(span: Span, message: String) -> Finding {
    let diagnostic = Diagnostic::new(Rule::UnknownRule, span, message).with_help(
        "list the rules in brackets closed on the directive's line: \
         `urlint: ignore[unsafe-char, bad-port]`",
    );
    text_finding(diagnostic, span)
}

/// A finding about the text itself at `span`, belonging to no URL.
fn text_finding(diagnostic: Diagnostic, span: Span) -> Finding {
    Finding::in_source(diagnostic, vec![span.of()])
}

/// Lint reports with suppressions applied, and the unused directives as
/// findings of their own, all in source order.
///
/// A directive is known to be unused only once a URL starts past the line
/// it covers (or the text ends), so an item after an unsettled directive
/// waits in `pending` until that directive is settled: at most the URLs
/// between the directive and the end of the line it covers.
pub(super) struct Suppressed<I> {
    reports: I,
    suppressions: Suppressions,
    /// The severity of `unused-suppression`; `None` (off) reports nothing.
    unused: Option<Severity>,
    /// The severity of `unknown-rule`; `None` (off) reports nothing.
    unknown: Option<Severity>,
    /// Items not yet released, in source order.
    pending: VecDeque<Linted>,
    /// `reports` has ended and every directive is settled.
    done: bool,
}

impl<I: Iterator<Item = UrlReport>> Suppressed<I> {
    /// Apply the directives of `text` to `reports`, the lint of `text`
    /// under `levels`.
    pub(super) fn new(text: &str, reports: I, levels: &RuleLevels) -> Self {
        // With every rule off a directive has no finding to silence, and
        // one that silences nothing is not reported: the text is not
        // searched for directives (`extract`'s plain listing).
        let suppressions = if levels.all_off() {
            Suppressions::default()
        } else {
            Suppressions::parse(text)
        };
        Suppressed {
            reports,
            suppressions,
            unused: levels.level(Rule::UnusedSuppression).severity(),
            unknown: levels.level(Rule::UnknownRule).severity(),
            pending: VecDeque::new(),
            done: false,
        }
    }

    /// Queue `item` in source order, after items that start where it does.
    fn queue(&mut self, item: Linted) {
        let at = self
            .pending
            .partition_point(|queued| queued.start() <= item.start());
        self.pending.insert(at, item);
    }

    /// Queue the findings about directives that no URL starting at
    /// `offset` or later can change, at their rules' configured severity.
    fn queue_settled(&mut self, offset: usize) {
        for mut finding in self.suppressions.unused_before(offset) {
            let severity = match finding.diagnostic.rule {
                Rule::UnknownRule => self.unknown,
                _ => self.unused,
            };
            if let Some(severity) = severity {
                finding.diagnostic.severity = severity;
                self.queue(Linted::Text(finding));
            }
        }
    }

    /// The first pending item, once nothing unsettled can come before it.
    fn release(&mut self) -> Option<Linted> {
        let first = self.pending.front()?;
        (self.done || first.start() < self.suppressions.unsettled_start())
            .then(|| self.pending.pop_front())
            .flatten()
    }
}

impl<I: Iterator<Item = UrlReport>> Iterator for Suppressed<I> {
    type Item = Linted;

    fn next(&mut self) -> Option<Linted> {
        // Its problems drained, a text may have no directive left while
        // items still wait in `pending`.
        if self.suppressions.is_empty() && self.pending.is_empty() {
            return self.reports.next().map(Linted::Url);
        }
        if self.unused.is_none() && self.unknown.is_none() {
            let mut report = self.reports.next()?;
            self.suppressions.apply(&mut report);
            return Some(Linted::Url(report));
        }
        loop {
            if let Some(item) = self.release() {
                return Some(item);
            }
            if self.done {
                return None;
            }
            match self.reports.next() {
                Some(mut report) => {
                    self.suppressions.apply(&mut report);
                    self.queue_settled(report.found.outer.start);
                    self.queue(Linted::Url(report));
                }
                None => {
                    self.queue_settled(usize::MAX);
                    self.done = true;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directive_spans_cover_marker_keyword_and_list() {
        let text = "x <!-- urlint: ignore-next-line[bad-port] -->\ny";
        let suppressions = Suppressions::parse(text);
        let directive = &suppressions.directives[0];
        assert_eq!(
            &text[directive.span.range()],
            "urlint: ignore-next-line[bad-port]"
        );
        assert_eq!(directive.covers, text.len() - 1..text.len());
        assert_eq!(directive.rules, Some(vec![Rule::BadPort]));
    }

    /// A rule list that cannot be read silences nothing and says why, where
    /// a bare `ignore` would silence every rule on the line.
    #[test]
    fn an_unreadable_rule_list_silences_nothing_and_says_so() {
        for (rest, len) in [
            ("[bad-port", 9),
            (" [bad-port, unsafe-char -->", 27),
            ("[bad-port\n]", 9),
            ("(bad-port)", 10),
            (",bad-port -->", 9),
            (":bad-port", 9),
            ("=bad-port", 9),
            ("{bad-port}", 10),
        ] {
            let unreadable = unreadable_list(rest, "ignore");
            assert_eq!(unreadable.map(|u| u.len), Some(len), "{rest:?}");
        }
        for readable in [
            "",
            " -->",
            "[bad-port]",
            " [a, b] x",
            ", as below",
            ": test data",
            ".",
        ] {
            assert_eq!(unreadable_list(readable, "ignore"), None, "{readable:?}");
        }
        let text = "http://a.example/~x urlint: ignore[bad-port\n";
        let suppressions = Suppressions::parse(text);
        assert!(suppressions.directives.is_empty());
        let [problem] = &suppressions.problems[..] else {
            panic!("{:?}", suppressions.problems);
        };
        assert_eq!(problem.diagnostic.rule, Rule::UnknownRule);
        assert!(problem.diagnostic.message.contains("not closed with `]`"));
    }

    #[test]
    fn an_unclosed_list_is_no_list() {
        assert_eq!(rule_list("[bad-port\n]"), None);
        assert_eq!(
            rule_list(" [bad-port] x"),
            Some(RuleList {
                names: "bad-port",
                names_start: 2,
                len: 11
            })
        );
        assert_eq!(rule_list("x[bad-port]"), None);
    }
}
