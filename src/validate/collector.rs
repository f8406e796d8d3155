//! Where the validator's checks put their diagnostics, with the cap that
//! keeps a URL full of bad characters from flooding the report.

use super::literal::literal_parts;
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;

/// How many character-level diagnostics one URL reports one by one; the rest
/// are summed up in a single diagnostic so that output stays linear and
/// readable on pathological input (a whole paragraph glued to a URL).
pub(crate) const CHAR_DIAGNOSTIC_LIMIT: usize = 64;

/// The character problems of one rule beyond the limit. Kept per rule so
/// that turning one rule off never hides, or reveals, another rule's problems.
#[derive(Debug)]
struct Overflow {
    rule: Rule,
    span: Span,
    count: usize,
}

/// The last character problem reported, while the same character with the
/// same problem and fix keeps following it: `~~` is one finding with one fix.
#[derive(Debug)]
struct CharRun {
    /// Its diagnostic's index in `diagnostics`.
    index: usize,
    /// The message and fix of one character of the run.
    message: String,
    replacement: String,
    /// Characters in the run so far.
    count: usize,
}

/// The URL under validation and the diagnostics found so far.
#[derive(Debug)]
pub(crate) struct Collector<'u> {
    url: &'u str,
    /// Template placeholders and a fragment directive's `:~:`, whose
    /// characters are reported but whose fixes are only suggestions.
    literal: Vec<Span>,
    diagnostics: Vec<Diagnostic>,
    char_reports: usize,
    overflows: Vec<Overflow>,
    run: Option<CharRun>,
}

impl<'u> Collector<'u> {
    /// A collector for `url` with nothing reported yet.
    pub(super) fn new(url: &'u str) -> Self {
        let literal = literal_parts(url);
        // `literal_part_holding` searches the parts in halves.
        debug_assert!(literal.windows(2).all(|pair| pair[0].end <= pair[1].start));
        Collector {
            url,
            literal,
            diagnostics: Vec::new(),
            char_reports: 0,
            overflows: Vec::new(),
            run: None,
        }
    }

    /// The URL being validated.
    pub(super) fn url(&self) -> &'u str {
        self.url
    }

    /// Report a structural problem (one per URL part, never capped).
    pub(super) fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Report a problem with one character or escape, subject to the cap.
    /// The same character with the same problem right after the last one
    /// joins it: a run of `~` is one finding, whose fix encodes the run.
    /// A character inside a literal part keeps its finding, but encoding
    /// it would change what the part does, so its fix is a suggestion.
    pub(super) fn push_char(&mut self, mut diagnostic: Diagnostic) {
        let literal = self.literal_part_of(&diagnostic);
        if let (Some(fix), Some(_)) = (diagnostic.fix.as_mut(), literal) {
            fix.applicability = Applicability::Suggestion;
        }
        if self.extends_run(&diagnostic) {
            return;
        }
        self.close_run();
        if self.char_reports < CHAR_DIAGNOSTIC_LIMIT {
            // The help quotes the literal part, which may run to the URL's
            // end (an unclosed `${`): written for every character of a run
            // of braces, or past the cap, it made such a run quadratic.
            if let Some(part) = literal {
                self.explain_literal(&mut diagnostic, part);
            }
            self.char_reports += 1;
            self.run = diagnostic.fix.as_ref().map(|fix| CharRun {
                index: self.diagnostics.len(),
                message: diagnostic.message.clone(),
                replacement: fix.replacement.clone(),
                count: 1,
            });
            self.diagnostics.push(diagnostic);
            return;
        }
        // A handful of character rules exist, so a linear search is the cheapest.
        match self
            .overflows
            .iter_mut()
            .find(|overflow| overflow.rule == diagnostic.rule)
        {
            Some(overflow) => {
                overflow.span.end = diagnostic.span.end.max(overflow.span.end);
                overflow.count += 1;
            }
            None => self.overflows.push(Overflow {
                rule: diagnostic.rule,
                span: diagnostic.span,
                count: 1,
            }),
        }
    }

    /// The literal part of the URL that holds the span of `diagnostic`,
    /// when the diagnostic has a fix (only a fix is made a suggestion).
    fn literal_part_of(&self, diagnostic: &Diagnostic) -> Option<Span> {
        diagnostic.fix.as_ref()?;
        literal_part_holding(&self.literal, diagnostic.span)
    }

    /// Say in the help of `diagnostic`, whose span lies in the literal
    /// `part`, why its fix is only a suggestion.
    fn explain_literal(&self, diagnostic: &mut Diagnostic, part: Span) {
        diagnostic.help = format!(
            "{}; here it is part of `{}`, which a template or a browser reads as \
             written, so encoding it is only a suggestion",
            diagnostic.help,
            &self.url[part.range()]
        )
        .into();
    }

    /// Extend the current run with `next` when it is the run's character
    /// again, right after it, with the same problem and fix.
    fn extends_run(&mut self, next: &Diagnostic) -> bool {
        let Some(run) = self.run.as_mut() else {
            return false;
        };
        let last = &mut self.diagnostics[run.index];
        let applicability = last.fix.as_ref().map(|fix| fix.applicability);
        let continues = last.rule == next.rule
            && last.span.end == next.span.start
            && next.message == run.message
            && next.fix.as_ref().is_some_and(|fix| {
                fix.replacement == run.replacement && Some(fix.applicability) == applicability
            });
        if !continues {
            return false;
        }
        // The message and the fix are written once the run ends: rewritten
        // at each step, a run of a million `|` took quadratic time.
        run.count += 1;
        last.span.end = next.span.end;
        true
    }

    /// End the current run: its finding says how long it is, and its fix
    /// encodes the whole run.
    fn close_run(&mut self) {
        let Some(run) = self.run.take() else {
            return;
        };
        if run.count < 2 {
            return;
        }
        let last = &mut self.diagnostics[run.index];
        last.message = format!("{}: {} in a row", run.message, run.count);
        if let Some(fix) = last.fix.as_mut() {
            fix.replacement = run.replacement.repeat(run.count);
        }
    }

    /// The diagnostics in URL order, the overflow summary included.
    pub(super) fn finish(mut self) -> Vec<Diagnostic> {
        self.close_run();
        for overflow in std::mem::take(&mut self.overflows) {
            let message = format!(
                "{} more {} problems from here on are not listed one by one",
                overflow.count, overflow.rule
            );
            let help = format!(
                "urlint lists the first {CHAR_DIAGNOSTIC_LIMIT} character problems of a URL; \
                 this many usually means that text around the URL was taken as part of it"
            );
            self.diagnostics
                .push(Diagnostic::new(overflow.rule, overflow.span, message).with_help(help));
        }
        self.diagnostics
            .sort_by_key(|diagnostic| (diagnostic.span.start, diagnostic.span.end));
        self.diagnostics
    }
}

/// The first of `parts` that holds `span`. The parts come in URL order
/// and never overlap, so their ends are in order too: the first part that
/// ends at or after `span` is the only one that can hold it first, found by
/// a binary search rather than a walk over every part (a URL of a hundred
/// thousand `{a}{` has as many parts as characters to report).
fn literal_part_holding(parts: &[Span], span: Span) -> Option<Span> {
    let first_reaching = parts.partition_point(|part| part.end < span.end);
    parts
        .get(first_reaching)
        .copied()
        .filter(|part| part.start <= span.start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Applicability;

    fn char_problem(rule: Rule, at: usize) -> Diagnostic {
        Diagnostic::new(rule, Span::new(at, at + 1), "a character problem")
    }

    /// The same character with the same problem and fix, again and again,
    /// is one finding; another character, a gap or another fix starts anew.
    #[test]
    fn a_run_of_one_unsafe_character_is_one_finding() {
        let diagnose = |url: &str| -> Vec<(String, String, Option<String>)> {
            let mut collector = Collector::new(url);
            for (at, c) in url.char_indices().filter(|(_, c)| "~{}".contains(*c)) {
                let encoded = format!("%{:02X}", c as u32);
                let message = format!("unsafe character '{c}' must be encoded as {encoded}");
                let span = Span::new(at, at + 1);
                let diagnostic = Diagnostic::new(Rule::UnsafeChar, span, message)
                    .with_fix(encoded, Applicability::MachineApplicable);
                collector.push_char(diagnostic);
            }
            collector
                .finish()
                .into_iter()
                .map(|d| {
                    let text = url[d.span.range()].to_string();
                    (text, d.message, d.fix.map(|fix| fix.replacement))
                })
                .collect()
        };
        let one = |text: &str, message: &str, fix: &str| {
            (text.to_string(), message.to_string(), Some(fix.to_string()))
        };
        assert_eq!(
            diagnose("http://h.example/~~~x"),
            [one(
                "~~~",
                "unsafe character '~' must be encoded as %7E: 3 in a row",
                "%7E%7E%7E"
            )]
        );
        assert_eq!(
            diagnose("http://h.example/~x~{}"),
            [
                one("~", "unsafe character '~' must be encoded as %7E", "%7E"),
                one("~", "unsafe character '~' must be encoded as %7E", "%7E"),
                one("{", "unsafe character '{' must be encoded as %7B", "%7B"),
                one("}", "unsafe character '}' must be encoded as %7D", "%7D"),
            ]
        );
    }

    #[test]
    fn problems_past_the_limit_are_summed_up_per_rule() {
        let url = "x".repeat(200);
        let mut collector = Collector::new(&url);
        for at in 0..CHAR_DIAGNOSTIC_LIMIT + 10 {
            collector.push_char(char_problem(Rule::UnsafeChar, at));
        }
        collector.push_char(char_problem(Rule::ControlChar, 150));
        collector.push_char(char_problem(Rule::UnsafeChar, 160));
        let diagnostics = collector.finish();
        let summaries: Vec<(Rule, Span, &str)> = diagnostics
            .iter()
            .filter(|d| d.message.contains("not listed"))
            .map(|d| (d.rule, d.span, d.message.as_str()))
            .collect();
        assert_eq!(
            summaries,
            [
                (
                    Rule::UnsafeChar,
                    Span::new(64, 161),
                    "11 more unsafe-char problems from here on are not listed one by one"
                ),
                (
                    Rule::ControlChar,
                    Span::new(150, 151),
                    "1 more control-char problems from here on are not listed one by one"
                ),
            ]
        );
        assert_eq!(diagnostics.len(), CHAR_DIAGNOSTIC_LIMIT + 2);
    }

    /// The binary search finds, for every span of URLs full of nested,
    /// unclosed and adjacent placeholders, the part a walk over all the
    /// parts finds first.
    #[test]
    fn the_literal_part_holding_a_span_is_the_first_a_walk_finds() {
        for url in [
            "http://h.example/${{{{{a}}}{{ x }}${b{{c{{ x }}{",
            "http://h.example/{a}{b}{x}{{y}}{%z%}${w}{",
            "http://h.example/{a}{{b}}${c}#:~:&#52;{",
            "http://h.example/${a${b}}{%}{{}}",
            "http://h.example/{",
            "",
        ] {
            let parts = literal_parts(url);
            for start in 0..=url.len() {
                for end in start..=url.len() {
                    let span = Span::new(start, end);
                    let walked = parts
                        .iter()
                        .copied()
                        .find(|part| part.start <= span.start && span.end <= part.end);
                    assert_eq!(literal_part_holding(&parts, span), walked, "{url} {span:?}");
                }
            }
        }
    }

    /// A run of `{` inside a `${` never closed is one finding, whose fix is
    /// a suggestion and whose help quotes the placeholder, as before the
    /// help was written only for findings listed.
    #[test]
    fn a_run_of_braces_in_an_unclosed_placeholder_is_one_suggested_finding() {
        let url = "http://h.example/${{{{";
        let mut collector = Collector::new(url);
        for at in url.len() - 3..url.len() {
            let diagnostic = Diagnostic::new(
                Rule::UnsafeChar,
                Span::new(at, at + 1),
                "unsafe character '{' must be encoded as %7B",
            )
            .with_help("encode it")
            .with_fix("%7B", Applicability::MachineApplicable);
            collector.push_char(diagnostic);
        }
        let diagnostics = collector.finish();
        assert_eq!(diagnostics.len(), 1);
        let finding = &diagnostics[0];
        assert_eq!(&url[finding.span.range()], "{{{");
        assert_eq!(
            finding.message,
            "unsafe character '{' must be encoded as %7B: 3 in a row"
        );
        assert_eq!(
            finding.help,
            "encode it; here it is part of `${{{{`, which a template or a browser reads \
             as written, so encoding it is only a suggestion"
        );
        let fix = finding.fix.as_ref().expect("a fix");
        assert_eq!(fix.replacement, "%7B%7B%7B");
        assert_eq!(fix.applicability, Applicability::Suggestion);
    }
}
