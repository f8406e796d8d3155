//! `urlint explain`: the rule catalogue as text, one rule in full or all
//! rules as a table. Everything printed comes from [`crate::rules::CATALOGUE`].

use std::fmt::Write as _;

use crate::rules::{Example, RuleInfo, CATALOGUE};

/// The full entry of one rule: header, summary, the profiles that report
/// it with their sources, explanation, examples.
pub(crate) fn rule_entry(info: &RuleInfo) -> String {
    let mut text = format!(
        "{} ({} by default)\n\n{}\n",
        info.name,
        info.default_level.name(),
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
pub(crate) fn rule_table() -> String {
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
            info.default_level.name(),
            profiles(info),
            info.summary
        );
    }
    table.push_str("\nRun `urlint explain RULE` for a rule's sources, explanation and examples.\n");
    table
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
    use crate::rules::{Level, Rule};

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
        use crate::profile::Profile;
        use crate::rules::RuleSource;
        let info = RuleInfo {
            rule: Rule::UnsafeChar,
            name: "unsafe-char",
            default_level: Level::Error,
            sources: &[
                RuleSource {
                    profile: Profile::Rfc1738,
                    reference: "RFC 1738 section 2.2",
                },
                RuleSource {
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
