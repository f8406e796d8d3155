//! The README is the user's first hour: its rule table must list exactly the
//! rules the catalogue has, with their current defaults and summaries.

use urlint::rules::{Level, CATALOGUE};

/// The rule table as the README must show it, built from the catalogue.
fn rule_table() -> String {
    let mut table =
        String::from("| rule | default | RFC 1738 | what it checks |\n|---|---|---|---|\n");
    for info in CATALOGUE {
        let level = match info.default_level {
            Level::Off => "off",
            Level::Warning => "warning",
            Level::Error => "error",
        };
        let section = if info.section == "Appendix" {
            "Appendix".to_string()
        } else {
            format!("§{}", info.section)
        };
        let summary = info.summary.replace('|', "\\|");
        table.push_str(&format!(
            "| `{}` | {level} | {section} | {summary} |\n",
            info.name
        ));
    }
    table
}

#[test]
fn readme_rule_table_matches_the_catalogue() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md is readable");
    let table = rule_table();
    assert!(
        readme.contains(&table),
        "README.md's rule table is out of date; replace it with:\n\n{table}"
    );
}
