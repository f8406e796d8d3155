//! `--format sarif` through the real binary: the log has every property
//! SARIF 2.1.0 consumers (GitHub code scanning among them) need, and every
//! result points at a rule that exists.

mod common;

use common::{run, urlint, FIXTURES};
use serde_json::Value;

/// The SARIF log of `check` over the bundled fixtures.
fn sarif_log() -> Value {
    let mut args = vec!["check", "--isolated", "--format", "sarif"];
    args.extend_from_slice(&FIXTURES);
    args.push("fixtures/config/notes.md");
    let (code, stdout, stderr) = run(&mut urlint(&args));
    assert_eq!((code, stderr.as_str()), (1, ""));
    serde_json::from_str(&stdout).expect("stdout is one JSON document")
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

#[test]
fn log_and_driver_have_the_required_properties() {
    let log = sarif_log();
    assert_eq!(log["version"], "2.1.0");
    assert!(text(&log["$schema"]).contains("sarif-2.1.0"));
    let runs = log["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["columnKind"], "unicodeCodePoints");
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "urlint");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert!(text(&driver["informationUri"]).starts_with("https://"));
    let rules = driver["rules"].as_array().expect("rules");
    assert_eq!(rules.len(), urlint::rules::CATALOGUE.len());
    for rule in rules {
        let id = text(&rule["id"]);
        assert!(!id.is_empty(), "{rule}");
        for key in ["shortDescription", "fullDescription"] {
            assert!(!text(&rule[key]["text"]).is_empty(), "{id}: {key}");
        }
        assert!(text(&rule["help"]["text"]).starts_with(id), "{id}");
        assert!(text(&rule["help"]["markdown"]).contains("```text"), "{id}");
        let level = text(&rule["defaultConfiguration"]["level"]);
        assert!(["warning", "error"].contains(&level), "{id}: {level}");
    }
}

#[test]
fn every_result_names_its_rule_by_id_and_index() {
    let log = sarif_log();
    let rules = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(results.len() > 10, "the fixtures have many findings");
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"], "{result}");
        assert!(["warning", "error"].contains(&text(&result["level"])));
        assert!(!text(&result["message"]["text"]).is_empty());
        let location = &result["locations"][0]["physicalLocation"];
        assert!(text(&location["artifactLocation"]["uri"]).starts_with("fixtures/"));
        let region = &location["region"];
        for key in ["startLine", "startColumn", "endLine", "endColumn"] {
            assert!(region[key].as_u64().unwrap_or(0) >= 1, "{key}: {result}");
        }
        for key in ["charOffset", "charLength"] {
            assert!(region[key].is_u64(), "{key}: {result}");
        }
    }
}

#[test]
fn a_fix_replaces_exactly_the_flagged_characters() {
    let log = sarif_log();
    let results = log["runs"][0]["results"].as_array().expect("results");
    let notes = std::fs::read_to_string("fixtures/config/notes.md").expect("fixture");
    let tilde = results
        .iter()
        .find(|result| {
            result["ruleId"] == "unsafe-char"
                && result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    == "fixtures/config/notes.md"
        })
        .expect("the notes' '~'");
    insta::assert_snapshot!(serde_json::to_string_pretty(tilde).unwrap_or_default());
    let region = &tilde["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"];
    let offset = region["charOffset"].as_u64().unwrap_or(0) as usize;
    let flagged: String = notes.chars().skip(offset).take(1).collect();
    assert_eq!(flagged, "~");
}

#[test]
fn code_points_are_counted_once_per_source_however_many_fixes() {
    // 20,000 findings with a fix each in a 4 MB file: counting code points
    // again from the start for each fix region read 40 GB.
    let line = format!("{} http://a.example/~x {}\n", "é".repeat(90), "ü".repeat(5));
    let text = line.repeat(20_000);
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(dir.path().join("big.txt"), &text).expect("write input");
    let mut command = urlint(&["check", "--format", "sarif", "big.txt"]);
    command
        .current_dir(dir.path())
        .timeout(std::time::Duration::from_secs(60));
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!((code, stderr.as_str()), (1, ""));
    let log: Value = serde_json::from_str(&stdout).expect("one JSON document");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 20_000);
    let tilde_chars = line.chars().position(|c| c == '~').expect("a tilde");
    let line_chars = line.chars().count();
    let last = &results[19_999];
    let region = &last["locations"][0]["physicalLocation"]["region"];
    let deleted = &last["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"];
    let offset = 19_999 * line_chars + tilde_chars;
    assert_eq!(region["charOffset"], offset);
    assert_eq!(deleted["charOffset"], offset);
}
