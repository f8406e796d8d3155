//! The README is the user's first hour: its rule table must list exactly the
//! rules the catalogue has, with their current defaults and summaries, its
//! source map every module, and its editor snippets must read.

use urlint::rules::CATALOGUE;
use urlint::Profile;

/// The rule table as the README must show it, built from the catalogue:
/// each profile's column gives the section the rule comes from there, or
/// a dash when the profile does not report it.
fn rule_table() -> String {
    let mut table = String::from(
        "| rule | default | rfc1738 | rfc3986 | what it checks |\n|---|---|---|---|---|\n",
    );
    for info in CATALOGUE {
        let level = info.default_level.name();
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

/// The README's map of the source tree names every module: each folder and
/// file under src/ (a folder's `mod.rs` is the folder).
#[test]
fn readme_source_map_names_every_module() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/");
    let readme =
        std::fs::read_to_string(format!("{root}README.md")).expect("README.md is readable");
    let start = readme
        .find("src/lib.rs ")
        .expect("the README has a source map");
    let map = &readme[start..start + readme[start..].find("```").expect("the map ends")];
    let words: Vec<&str> = map
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '/' || c == '.'))
        .collect();
    let mut pending = vec![std::path::PathBuf::from(format!("{root}src"))];
    let mut missing = Vec::new();
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("directory entry").path();
            let relative = path
                .strip_prefix(root)
                .expect("under the root")
                .display()
                .to_string();
            if path.ends_with("snapshots") {
                continue; // insta's snapshots, not modules
            }
            if path.extension().is_some_and(|ext| ext != "rs") {
                continue;
            }
            if path.is_dir() {
                if !words.contains(&format!("{relative}/").as_str()) {
                    missing.push(relative);
                }
                pending.push(path);
                continue;
            }
            let stem = path
                .file_stem()
                .and_then(|stem| stem.to_str())
                .unwrap_or("");
            let named = match stem {
                "mod" => true,
                _ if dir.ends_with("src") => words.contains(&relative.as_str()),
                _ => words.contains(&stem),
            };
            if !named {
                missing.push(relative);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "README's source map does not name: {missing:?}"
    );
}

/// The README's editor snippets are what their editors can read: the VS
/// Code settings are JSON and the Helix configuration TOML, both starting
/// `urlint server`, with initialization options the server knows.
#[test]
fn readme_editor_snippets_read_and_start_the_server() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md is readable");
    let start = readme
        .find("## Editor integration")
        .expect("an Editor integration section");
    let section = &readme[start..];
    let section = &section[..section[3..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 3)];
    let block = |fence: &str| {
        let open = section
            .find(fence)
            .unwrap_or_else(|| panic!("a {fence} block"));
        let body = &section[open + fence.len()..];
        body[..body.find("```").expect("the block ends")].to_owned()
    };
    let known = ["profile", "select", "warn", "ignore"];

    let vscode: serde_json::Value =
        serde_json::from_str(&block("```json\n")).expect("VS Code settings are JSON");
    assert_eq!(vscode["glspc.server.command"], "urlint");
    assert_eq!(vscode["glspc.server.commandArguments"][0], "server");
    let options = vscode["glspc.server.initializationOptions"]
        .as_object()
        .expect("initialization options");
    assert!(options.keys().all(|key| known.contains(&key.as_str())));

    let helix: toml::Table = block("```toml\n")
        .parse()
        .expect("Helix's languages.toml is TOML");
    let server = &helix["language-server"]["urlint"];
    assert_eq!(server["command"].as_str(), Some("urlint"));
    assert_eq!(server["args"][0].as_str(), Some("server"));
    let options = server["config"].as_table().expect("initialization options");
    assert!(options.keys().all(|key| known.contains(&key.as_str())));

    let neovim = block("```lua\n");
    assert!(
        neovim.contains(r#"cmd = { "urlint", "server" }"#),
        "{neovim}"
    );
    assert!(neovim.contains("vim.lsp.start("), "{neovim}");
}
