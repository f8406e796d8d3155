//! `urlint explain`: the rule catalogue as text, one rule in full or all
//! rules as a table. Everything printed comes from [`crate::rules::CATALOGUE`].

use std::fmt::Write as _;

use crate::rules::{RuleInfo, CATALOGUE};

/// The full entry of one rule: header, summary, explanation, examples.
pub(crate) fn rule_entry(info: &RuleInfo) -> String {
    let mut text = format!(
        "{} ({} by default, RFC 1738 {})\n\n{}\n",
        info.name,
        info.default_level.name(),
        section_name(info.section),
        info.summary
    );
    if !info.explanation.is_empty() {
        let _ = write!(text, "\n{}\n", info.explanation.trim_end());
    }
    for (title, example) in [("Bad", info.bad_example), ("Good", info.good_example)] {
        if !example.is_empty() {
            let _ = write!(text, "\n{title}:\n{}\n", indent(example));
        }
    }
    text
}

/// Every rule on one line: name, default level, RFC section, summary.
pub(crate) fn rule_table() -> String {
    let width = CATALOGUE
        .iter()
        .map(|info| info.name.len())
        .max()
        .unwrap_or(0);
    let mut table = format!(
        "{:width$}  {:7}  {:8}  summary\n",
        "rule", "default", "section"
    );
    for info in CATALOGUE {
        let _ = writeln!(
            table,
            "{:width$}  {:7}  {:8}  {}",
            info.name,
            info.default_level.name(),
            info.section,
            info.summary
        );
    }
    table.push_str("\nRun `urlint explain RULE` for a rule's explanation and examples.\n");
    table
}

/// "section 2.2", but "Appendix" as it is.
fn section_name(section: &str) -> String {
    if section.starts_with(|c: char| c.is_ascii_digit()) {
        format!("section {section}")
    } else {
        section.to_string()
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
        let info = RuleInfo {
            rule: Rule::UnsafeChar,
            name: "unsafe-char",
            default_level: Level::Error,
            section: "2.2",
            summary: "unsafe characters must be encoded",
            explanation: "Gateways may change them.",
            bad_example: "<URL:http://h/~a>",
            good_example: "<URL:http://h/%7Ea>",
        };
        assert_eq!(
            rule_entry(&info),
            "unsafe-char (error by default, RFC 1738 section 2.2)\n\n\
             unsafe characters must be encoded\n\n\
             Gateways may change them.\n\n\
             Bad:\n    <URL:http://h/~a>\n\n\
             Good:\n    <URL:http://h/%7Ea>\n"
        );
        let bare = RuleInfo {
            explanation: "",
            bad_example: "",
            good_example: "",
            section: "Appendix",
            ..info
        };
        assert_eq!(
            rule_entry(&bare),
            "unsafe-char (error by default, RFC 1738 Appendix)\n\nunsafe characters must be encoded\n"
        );
    }
}
