//! `urlint explain`: the rule catalogue as text, one rule in full or all
//! rules as a table. Everything printed comes from [`crate::rules::CATALOGUE`].

use std::fmt::Write as _;

use crate::rules::{Example, Level, Rule, RuleInfo, CATALOGUE};

/// The full entry of one rule: header, summary, the profiles that report
/// it with their sources, explanation, examples.
pub fn rule_entry(info: &RuleInfo) -> String {
    let mut text = format!(
        "{} ({} by default)\n\n{}\n",
        info.name,
        level_name(info.default_level),
        info.summary
    );
    if !info.sources.is_empty() {
        text.push_str("\nProfiles:\n");
        for source in info.sources {
            let _ = writeln!(text, "    {}: {}", source.profile, source.reference);
        }
    }
    if !info.explanation.is_empty() {
        let _ = write!(text, "\n{}\n", info.explanation.trim_end());
    }
    for example in info.examples {
        let profiles = example_profiles(info, example);
        for (title, example) in [("Bad", example.bad), ("Good", example.good)] {
            let _ = write!(text, "\n{title}{profiles}:\n{}\n", indent(example));
        }
    }
    text
}

/// " (rfc3986)" when an example holds under only some of the rule's
/// profiles, nothing when it holds under all of them.
pub(crate) fn example_profiles(info: &RuleInfo, example: &Example) -> String {
    if example.profiles.len() == info.sources.len() {
        return String::new();
    }
    let names: Vec<&str> = example.profiles.iter().map(|p| p.name()).collect();
    format!(" ({})", names.join(", "))
}

/// Every rule on one line: name, default level, profiles, summary.
pub fn rule_table() -> String {
    let width = CATALOGUE
        .iter()
        .map(|info| info.name.len())
        .max()
        .unwrap_or(0);
    let profiles = |info: &RuleInfo| {
        let names: Vec<&str> = info.sources.iter().map(|s| s.profile.name()).collect();
        names.join(",")
    };
    let mut table = format!(
        "{:width$}  {:7}  {:15}  summary\n",
        "rule", "default", "profiles"
    );
    for info in CATALOGUE {
        let _ = writeln!(
            table,
            "{:width$}  {:7}  {:15}  {}",
            info.name,
            level_name(info.default_level),
            profiles(info),
            info.summary
        );
    }
    table.push_str("\nRun `urlint explain RULE` for a rule's sources, explanation and examples.\n");
    table
}

/// The rule called `name`, or an error message suggesting the closest name.
pub fn find_rule(name: &str) -> Result<Rule, String> {
    Rule::from_name(name).ok_or_else(|| match closest_rule_name(name) {
        Some(close) => format!("unknown rule '{name}' (did you mean '{close}'?)"),
        None => format!("unknown rule '{name}' (`urlint explain` lists the rules)"),
    })
}

/// The catalogue name nearest to `name` by edit distance, if plausibly meant.
pub fn closest_rule_name(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase().replace('_', "-");
    CATALOGUE
        .iter()
        .map(|info| (edit_distance(&name, info.name), info.name))
        .filter(|&(distance, candidate)| distance <= 2.max(candidate.len() / 3))
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

fn level_name(level: Level) -> &'static str {
    match level {
        Level::Off => "off",
        Level::Warning => "warning",
        Level::Error => "error",
    }
}

fn indent(text: &str) -> String {
    text.trim_end()
        .lines()
        .map(|line| format!("    {line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_suggest_the_nearest_rule() {
        let cases = [
            ("unsafe-chars", Some("unsafe-char")),
            ("unsafe_char", Some("unsafe-char")),
            ("Bad-Port", Some("bad-port")),
            ("hyphenbreak", Some("hyphen-break")),
            ("completely-different", None),
        ];
        for (typo, expected) in cases {
            assert_eq!(closest_rule_name(typo), expected, "{typo}");
        }
    }

    #[test]
    fn unknown_rule_error_names_the_suggestion() {
        assert_eq!(find_rule("bad-port"), Ok(Rule::BadPort));
        assert_eq!(
            find_rule("bad-prot"),
            Err("unknown rule 'bad-prot' (did you mean 'bad-port'?)".to_string())
        );
    }

    #[test]
    fn table_lists_every_rule_once() {
        let table = rule_table();
        for info in CATALOGUE {
            let rows = table
                .lines()
                .filter(|line| line.split_whitespace().next() == Some(info.name))
                .count();
            assert_eq!(rows, 1, "{}", info.name);
        }
    }

    #[test]
    fn entry_shows_only_the_parts_that_exist() {
        use crate::rules::Source;
        use crate::validate::Profile;
        let info = RuleInfo {
            rule: Rule::UnsafeChar,
            name: "unsafe-char",
            default_level: Level::Error,
            sources: &[
                Source {
                    profile: Profile::Rfc1738,
                    reference: "RFC 1738 section 2.2",
                },
                Source {
                    profile: Profile::Rfc3986,
                    reference: "RFC 3986 section 2",
                },
            ],
            summary: "unsafe characters must be encoded",
            explanation: "Gateways may change them.",
            examples: &[
                Example {
                    profiles: &[Profile::Rfc1738, Profile::Rfc3986],
                    bad: "<URL:http://h/a b>",
                    good: "<URL:http://h/a%20b>",
                },
                Example {
                    profiles: &[Profile::Rfc1738],
                    bad: "<URL:http://h/~a>",
                    good: "<URL:http://h/%7Ea>",
                },
            ],
        };
        assert_eq!(
            rule_entry(&info),
            "unsafe-char (error by default)\n\n\
             unsafe characters must be encoded\n\n\
             Profiles:\n    rfc1738: RFC 1738 section 2.2\n    rfc3986: RFC 3986 section 2\n\n\
             Gateways may change them.\n\n\
             Bad:\n    <URL:http://h/a b>\n\n\
             Good:\n    <URL:http://h/a%20b>\n\n\
             Bad (rfc1738):\n    <URL:http://h/~a>\n\n\
             Good (rfc1738):\n    <URL:http://h/%7Ea>\n"
        );
        let bare = RuleInfo {
            explanation: "",
            examples: &[],
            sources: &[],
            ..info
        };
        assert_eq!(
            rule_entry(&bare),
            "unsafe-char (error by default)\n\nunsafe characters must be encoded\n"
        );
    }
}
