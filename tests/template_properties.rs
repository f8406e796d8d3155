//! Invariants of template reading: a placeholder of any language, put in
//! any part of a URL that is otherwise valid, draws no finding under either
//! profile, the URL is found whole, and the placeholder is read as one,
//! on exactly its bytes; a real problem beside it is still reported.

use proptest::prelude::*;
use urlint::template::Language;
use urlint::{lint, LintOptions, Linted, Profile, Rule, UrlReport};

/// A placeholder that may stand for a host, a path segment or a value, and
/// the language it is written in.
fn value_placeholder() -> impl Strategy<Value = (String, Language)> {
    let name = "[a-z][a-z_]{0,7}";
    let upper = "[A-Z][A-Z_]{0,7}";
    prop_oneof![
        name.prop_map(|n| (format!("{{{n}}}"), Language::UriTemplate)),
        Just(("{}".to_string(), Language::Format)),
        Just(("{:?}".to_string(), Language::Format)),
        Just(("%s".to_string(), Language::Printf)),
        name.prop_map(|n| (format!("%({n})s"), Language::Printf)),
        upper.prop_map(|n| (format!("${{{n}}}"), Language::Shell)),
        upper.prop_map(|n| (format!("$({n})"), Language::Shell)),
        name.prop_map(|n| (format!("{{{{ {n} }}}}"), Language::Mustache)),
        name.prop_map(|n| (format!("{{% {n} %}}"), Language::Mustache)),
        name.prop_map(|n| (format!("<%= {n} %>"), Language::Erb)),
        Just(("%{d}".to_string(), Language::Macro)),
    ]
}

/// A placeholder that may stand for a port.
fn port_placeholder() -> impl Strategy<Value = (String, Language)> {
    prop_oneof![
        Just(("{port}".to_string(), Language::UriTemplate)),
        Just(("{}".to_string(), Language::Format)),
        Just(("%d".to_string(), Language::Printf)),
        Just(("${PORT}".to_string(), Language::Shell)),
        Just(("$PORT".to_string(), Language::Shell)),
        Just(("port".to_string(), Language::Syntax)),
    ]
}

/// Where in `http://a.example.org:80/one/two?k=v#f` the placeholder goes.
#[derive(Debug, Clone, Copy)]
enum Place {
    Host,
    HostLabel,
    Port,
    Segment,
    Value,
    Fragment,
}

fn url_with(place: Place, placeholder: &str) -> String {
    match place {
        Place::Host => format!("http://{placeholder}/one/two?k=v#f"),
        Place::HostLabel => format!("http://{placeholder}.example.org/one/two?k=v#f"),
        Place::Port => format!("http://a.example.org:{placeholder}/one/two?k=v#f"),
        Place::Segment => format!("http://a.example.org/one/{placeholder}/two?k=v#f"),
        Place::Value => format!("http://a.example.org/one/two?k={placeholder}#f"),
        Place::Fragment => format!("http://a.example.org/one/two?k=v#{placeholder}"),
    }
}

fn placed() -> impl Strategy<Value = (Place, (String, Language))> {
    prop_oneof![
        (Just(Place::Port), port_placeholder()),
        (
            prop_oneof![
                Just(Place::Host),
                Just(Place::HostLabel),
                Just(Place::Segment),
                Just(Place::Value),
                Just(Place::Fragment),
            ],
            value_placeholder()
        ),
    ]
}

fn reports(text: &str, profile: Profile) -> Vec<UrlReport> {
    let options = LintOptions {
        profile,
        ..LintOptions::default()
    };
    lint(text, &options).filter_map(Linted::into_url).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_placeholder_anywhere_draws_no_finding((place, (placeholder, language)) in placed()) {
        let url = url_with(place, &placeholder);
        let text = format!("see \"{url}\" now\n");
        for profile in Profile::ALL {
            let found = reports(&text, profile);
            prop_assert_eq!(found.len(), 1, "{:?}", text);
            let report = &found[0];
            prop_assert_eq!(&report.found.url, &url);
            prop_assert!(report.findings.is_empty(), "{} {}: {:?}", profile, url, report.findings);
            let template = report.template.as_ref().expect("read as a template");
            let placeholders: Vec<(&str, Language)> = template
                .placeholders
                .iter()
                .map(|p| (&url[p.span.range()], p.language))
                .collect();
            prop_assert_eq!(placeholders, vec![(placeholder.as_str(), language)]);
        }
    }

    #[test]
    fn a_real_problem_beside_a_placeholder_is_still_reported(
        (place, (placeholder, _)) in placed()
    ) {
        // A tilde in the last segment: unsafe under RFC 1738.
        let url = url_with(place, &placeholder).replacen("/two", "/~two", 1);
        let text = format!("see \"{url}\" now\n");
        let found = reports(&text, Profile::Rfc1738);
        prop_assert_eq!(found.len(), 1, "{:?}", text);
        let rules: Vec<Rule> = found[0].findings.iter().map(|f| f.diagnostic.rule).collect();
        prop_assert_eq!(rules, vec![Rule::UnsafeChar], "{}", url);
        let tilde = url.find('~').expect("a tilde");
        prop_assert_eq!(found[0].findings[0].at.url_span().map(|span| span.start), Some(tilde));
    }
}
