//! The pre-commit hook's default file selection (`.pre-commit-hooks.yaml`):
//! its `exclude` pattern, read as pre-commit reads it (a search over the
//! path relative to the repository root), leaves out generated lock files,
//! minified bundles and source maps, and nothing a person writes; and
//! the hook runs urlint once for all the files of a commit.

use std::path::PathBuf;

use regex::Regex;

/// The hook's `exclude:` block scalar, its indentation removed.
fn exclude_pattern() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(&path).expect("the hook definition");
    let mut lines = text.lines().skip_while(|line| line.trim() != "exclude: |");
    assert!(lines.next().is_some(), "the hook has an exclude block");
    let block: Vec<&str> = lines
        .take_while(|line| line.starts_with("    ") || line.trim().is_empty())
        .map(|line| line.get(4..).unwrap_or(""))
        .collect();
    block.join("\n")
}

/// One urlint per commit, as ruff's hook: urlint parallelises itself, and
/// pre-commit's batches would each print a summary of their own.
#[test]
fn the_hook_runs_once_per_commit() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".pre-commit-hooks.yaml");
    let text = std::fs::read_to_string(&path).expect("the hook definition");
    assert!(
        text.lines().any(|line| line == "  require_serial: true"),
        "{text}"
    );
}

#[test]
fn generated_files_are_left_out() {
    let exclude = Regex::new(&exclude_pattern()).expect("a valid pattern");
    for path in [
        "Cargo.lock",
        "crates/tides/Cargo.lock",
        "package-lock.json",
        "web/yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "uv.lock",
        "Gemfile.lock",
        "go.sum",
        "static/app.min.js",
        "static/style.min.css",
        "static/app.js.map",
    ] {
        assert!(exclude.is_match(path), "{path} should be left out");
    }
}

#[test]
fn files_people_write_are_checked() {
    let exclude = Regex::new(&exclude_pattern()).expect("a valid pattern");
    for path in [
        "README.md",
        "Cargo.toml",
        "package.json",
        "src/lib.rs",
        "src/lockfile.rs",
        "docs/Cargo.lock.md",
        "static/app.js",
        "tides.py",
        "fixtures/code/Tides.pm",
    ] {
        assert!(!exclude.is_match(path), "{path} should be checked");
    }
}
