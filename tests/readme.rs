//! The README is the user's first hour: its rule table must list exactly the
//! rules the catalogue has, with their current defaults and summaries.

use urlint::rules::{Level, CATALOGUE};
use urlint::validate::Profile;

/// The rule table as the README must show it, built from the catalogue:
/// each profile's column gives the section the rule comes from there, or
/// a dash when the profile does not report it.
fn rule_table() -> String {
    let mut table = String::from(
        "| rule | default | rfc1738 | rfc3986 | what it checks |\n|---|---|---|---|---|\n",
    );
    for info in CATALOGUE {
        let level = match info.default_level {
            Level::Off => "off",
            Level::Warning => "warning",
            Level::Error => "error",
        };
        let cell = |profile| {
            info.source(profile).map_or("—".to_string(), |source| {
                source.reference.replace(" section ", " §")
            })
        };
        let summary = info.summary.replace('|', "\\|");
        table.push_str(&format!(
            "| `{}` | {level} | {} | {} | {summary} |\n",
            info.name,
            cell(Profile::Rfc1738),
            cell(Profile::Rfc3986),
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
