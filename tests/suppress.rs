//! Inline suppressions seen through the whole pipeline: `urlint: ignore`
//! comments silence the findings on the lines they cover, and unused or
//! misspelled ones are reported when `unused-suppression` is on.

use urlint::{lint, Finding, Level, LineIndex, LintOptions, Linted, Rule, Severity};

/// Lint with `unused-suppression` at `unused` and list `(line, rule)`
/// of every finding, lines 1-based.
fn findings(text: &str, unused: Level) -> Vec<(usize, &'static str)> {
    let mut options = LintOptions::default();
    options.levels.set(Rule::UnusedSuppression, unused);
    let index = LineIndex::new(text);
    lint(text, &options)
        .flat_map(Linted::into_findings)
        .map(|finding| {
            let start = finding.source_spans.first().map_or(0, |span| span.start);
            (index.line_of(start) + 1, finding.diagnostic.rule.name())
        })
        .collect()
}

#[test]
fn ignore_silences_its_own_line_only() {
    let text = "<URL:http://a.example/~x> <!-- urlint: ignore -->\n<URL:http://b.example/~y>\n";
    assert_eq!(findings(text, Level::Off), [(2, "unsafe-char")]);
}

#[test]
fn ignore_next_line_silences_the_line_below() {
    let text =
        "// urlint: ignore-next-line\n// <URL:http://a.example/~x>\n<URL:http://b.example/~y>";
    assert_eq!(findings(text, Level::Off), [(3, "unsafe-char")]);
}

#[test]
fn a_rule_list_silences_only_the_rules_it_names() {
    let text = "<URL:HTTP://a.example/~x> urlint: ignore[unsafe-char]\n\
                <URL:HTTP://a.example/~x> urlint: ignore [ scheme-case , unsafe-char ]\n";
    assert_eq!(findings(text, Level::Off), [(1, "scheme-case")]);
}

#[test]
fn a_wrapped_url_is_silenced_from_the_line_it_starts_on() {
    let text =
        "urlint: ignore-next-line\n<URL:http://a.example/\n   ~x/~y>\n<URL:http://b.example/~z>";
    assert_eq!(findings(text, Level::Off), [(4, "unsafe-char")]);
}

#[test]
fn line_ends_of_every_kind_bound_the_covered_line() {
    for newline in ["\n", "\r\n", "\r"] {
        let text = format!("urlint: ignore-next-line{newline}<URL:http://a.example/~x>{newline}<URL:http://b.example/~y>");
        assert_eq!(
            findings(&text, Level::Off),
            [(3, "unsafe-char")],
            "{newline:?}"
        );
    }
}

#[test]
fn prose_and_other_tools_markers_are_not_directives() {
    let cases = [
        "urlint: ignored <URL:http://a.example/~x>",
        "myurlint: ignore <URL:http://a.example/~x>",
        "urlint: please ignore <URL:http://a.example/~x>",
        "urlint: ignore-next-lines\n<URL:http://a.example/~x>",
    ];
    for text in cases {
        let line = text.lines().count();
        assert_eq!(
            findings(text, Level::Warning),
            [(line, "unsafe-char")],
            "{text}"
        );
    }
}

#[test]
fn unused_suppressions_are_reported_when_the_rule_is_on() {
    let text = "urlint: ignore-next-line\n\n\
                <URL:http://a.example/> urlint: ignore\n\
                <URL:http://b.example/~x> urlint: ignore[scheme-case]\n\
                <URL:http://c.example/~x> urlint: ignore[unsafe-char]\n\
                trailing urlint: ignore\n";
    assert_eq!(
        findings(text, Level::Warning),
        [
            (1, "unused-suppression"),
            (3, "unused-suppression"),
            (4, "unsafe-char"),
            (4, "unused-suppression"),
            (6, "unused-suppression"),
        ]
    );
    assert_eq!(findings(text, Level::Off), [(4, "unsafe-char")]);
}

#[test]
fn unknown_rule_names_in_a_list_are_reported_with_a_suggestion() {
    let text = "<URL:http://a.example/~x> urlint: ignore [unsafe-chr, unsafe-char]";
    let mut options = LintOptions::default();
    options.levels.set(Rule::UnknownRule, Level::Error);
    let findings: Vec<Finding> = lint(text, &options)
        .flat_map(Linted::into_findings)
        .collect();
    assert_eq!(findings.len(), 1, "{findings:?}");
    let unknown = &findings[0];
    assert_eq!(&text[unknown.diagnostic.span.range()], "unsafe-chr");
    assert_eq!(
        unknown.diagnostic.message,
        "unknown rule 'unsafe-chr' (did you mean 'unsafe-char'?)"
    );
    assert_eq!(unknown.diagnostic.rule, Rule::UnknownRule);
    assert_eq!(unknown.diagnostic.severity, Severity::Error);
    // On by default, as a warning; off, it says nothing.
    let default: Vec<Finding> = lint(text, &LintOptions::default())
        .flat_map(Linted::into_findings)
        .collect();
    assert_eq!(default.len(), 1, "{default:?}");
    assert_eq!(default[0].diagnostic.severity, Severity::Warning);
    options.levels.set(Rule::UnknownRule, Level::Off);
    assert_eq!(
        lint(text, &options).flat_map(Linted::into_findings).count(),
        0
    );
}

/// `(start, message)` of every unused-suppression finding of `text`.
fn unused(text: &str) -> Vec<(usize, String)> {
    let mut options = LintOptions::default();
    options.levels.set(Rule::UnusedSuppression, Level::Warning);
    lint(text, &options)
        .flat_map(Linted::into_findings)
        .filter(|finding| finding.diagnostic.rule == Rule::UnusedSuppression)
        .map(|finding| (finding.diagnostic.span.start, finding.diagnostic.message))
        .collect()
}

#[test]
fn a_text_without_urls_reports_its_unused_directives_as_its_own() {
    let text = "Notes.\n<!-- urlint: ignore-next-line -->\nplain\nurlint: ignore[bad-prot]\n";
    let mut options = LintOptions::default();
    options.levels.set(Rule::UnusedSuppression, Level::Warning);
    let linted: Vec<Linted> = lint(text, &options).collect();
    let own: Vec<(&str, &str)> = linted
        .iter()
        .map(|item| match item {
            Linted::Text(finding) => (
                &text[finding.diagnostic.span.range()],
                finding.diagnostic.message.as_str(),
            ),
            other => panic!("a text without URLs linted to {other:?}"),
        })
        .collect();
    assert_eq!(
        own,
        [
            (
                "urlint: ignore-next-line",
                "this suppression silences nothing on the line it covers"
            ),
            (
                "urlint: ignore[bad-prot]",
                "this suppression silences nothing on the line it covers"
            ),
            (
                "bad-prot",
                "unknown rule 'bad-prot' (did you mean 'bad-port'?)"
            ),
        ]
    );
}

#[test]
fn unused_directives_come_in_source_order_among_urls() {
    let text = "urlint: ignore http://a.example/\nhttp://b.example/~x urlint: ignore\n\
                urlint: ignore-next-line\nhttp://c.example/\n";
    let mut options = LintOptions::default();
    options.levels.set(Rule::UnusedSuppression, Level::Warning);
    let items: Vec<(usize, bool)> = lint(text, &options)
        .map(|item| (item.start(), matches!(item, Linted::Url(_))))
        .collect();
    let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
    assert_eq!(
        items,
        [
            (0, false),
            (at("http://a"), true),
            (at("http://b"), true),
            (at("urlint: ignore-next"), false),
            (at("http://c"), true),
        ]
    );
}

proptest::proptest! {
    /// Whether a directive is reported as unused depends on the line it
    /// covers only, not on URLs elsewhere in the text; lint items come in
    /// source order.
    #[test]
    fn unused_directives_do_not_depend_on_urls_elsewhere(
        text in "(urlint: ?|ignore|-next-line|\\[|\\]|, ?|bad-port|unsafe-chr|\
                 <URL:http://a.example/~|>|\n|\r|\t| |x)*"
    ) {
        let alone = unused(&text);
        let after = unused(&format!("{text}\n\nhttp://z.example/~z\n"));
        proptest::prop_assert_eq!(&alone, &after);
        let prefix = "http://z.example/~z\n\n";
        let before: Vec<(usize, String)> = unused(&format!("{prefix}{text}"))
            .into_iter()
            .map(|(start, message)| (start - prefix.len(), message))
            .collect();
        proptest::prop_assert_eq!(&alone, &before);
        let mut options = LintOptions::default();
        options.levels.set(Rule::UnusedSuppression, Level::Warning);
        let starts: Vec<usize> = lint(&text, &options).map(|item| item.start()).collect();
        proptest::prop_assert!(starts.is_sorted(), "{:?}", starts);
    }

    /// Directives only ever take findings away (and add their own),
    /// and their spans stay on the text's character boundaries.
    #[test]
    fn directives_never_add_findings_nor_panic(
        text in "(urlint: ?|ignore|-next-line|\\[|\\]|, ?|bad-port|unsafe-chr|\
                 <URL:http://a.example/~|>|\n|\r|\t| |\u{e9})*"
    ) {
        let mut options = LintOptions::default();
        options.levels.set(Rule::UnusedSuppression, Level::Warning);
        let without = text.replace("urlint:", "urlint;");
        let count = |text: &str| {
            lint(text, &options)
                .flat_map(Linted::into_findings)
                // A directive's own: unused, or naming no rule.
                .filter(|finding| {
                    !matches!(
                        finding.diagnostic.rule,
                        Rule::UnusedSuppression | Rule::UnknownRule
                    )
                })
                .count()
        };
        proptest::prop_assert!(count(&text) <= count(&without));
        let directive_findings = lint(&text, &options)
            .flat_map(Linted::into_findings)
            .filter(|finding| finding.diagnostic.rule == Rule::UnusedSuppression);
        for finding in directive_findings {
            let span = finding.diagnostic.span;
            proptest::prop_assert!(text.get(span.range()).is_some(), "{span:?}");
            proptest::prop_assert_eq!(&finding.source_spans, &vec![span.of()]);
        }
    }
}
