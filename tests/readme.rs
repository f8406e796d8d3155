//! The README is the user's first hour: its rule table must list exactly the
//! rules the catalogue has, with their current defaults and summaries, its
//! source map every module, and its editor snippets must read. The option
//! tables of README.md and docs/cli.md and the SARIF excerpt of
//! docs/config.md say what `--help` and the binary say: one source per fact.

mod common;

use common::{run, urlint};
use regex::Regex;
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
    // No snippet overrides the project's configuration: an editor that sent
    // a profile would disagree with `urlint check` on the same file.
    let vscode: serde_json::Value =
        serde_json::from_str(&block("```json\n")).expect("VS Code settings are JSON");
    assert_eq!(vscode["glspc.server.command"], "urlint");
    assert_eq!(vscode["glspc.server.commandArguments"][0], "server");
    assert!(vscode.get("glspc.server.initializationOptions").is_none());

    let helix: toml::Table = block("```toml\n")
        .parse()
        .expect("Helix's languages.toml is TOML");
    let server = &helix["language-server"]["urlint"];
    assert_eq!(server["command"].as_str(), Some("urlint"));
    assert_eq!(server["args"][0].as_str(), Some("server"));
    assert!(server.get("config").is_none(), "{server}");

    let lua: Vec<&str> = section.split("```lua\n").skip(1).collect();
    assert_eq!(
        lua.len(),
        2,
        "a snippet for Neovim 0.10 and one for 0.7-0.9"
    );
    let (current, old) = (lua[0], lua[1]);
    for neovim in [current, old] {
        assert!(
            neovim.contains(r#"cmd = { "urlint", "server" }"#),
            "{neovim}"
        );
        assert!(!neovim.contains("init_options"), "{neovim}");
    }
    assert!(current.contains("vim.lsp.start("), "{current}");
    // 0.7 has neither vim.lsp.start nor vim.fs.
    assert!(old.contains("vim.lsp.start_client(") && old.contains("vim.lsp.buf_attach_client("));
    assert!(
        !old.contains("vim.fs.") && !old.contains("vim.lsp.start("),
        "{old}"
    );
}

/// A file of the repository.
fn repository_file(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .unwrap_or_else(|err| panic!("{path}: {err}"))
}

/// The `--help` of `urlint COMMAND` (`urlint --help` for "urlint" and
/// "global").
fn help_of(command: &str) -> String {
    let args: Vec<&str> = match command {
        "urlint" | "global" => vec!["--help"],
        command => vec![command, "--help"],
    };
    let (code, help, stderr) = run(&mut urlint(&args));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    help
}

/// The rows of the option tables of `text` (`| option | ... |` tables):
/// (the flags the first cell names, the commands of the second, the row).
fn option_rows(text: &str) -> Vec<(Vec<String>, Vec<String>, String)> {
    let flag = Regex::new(r"`(--?[A-Za-z][A-Za-z-]*)").expect("regex");
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in text.lines() {
        if line.starts_with("| option |") {
            in_table = true;
            continue;
        }
        if !line.starts_with('|') {
            in_table = false;
            continue;
        }
        let cells: Vec<&str> = line.split(" | ").collect();
        if !in_table || line.starts_with("|---") || cells.len() < 3 {
            continue;
        }
        let flags = flag
            .captures_iter(cells[0])
            .map(|caps| caps[1].to_owned())
            .collect();
        let commands = cells[1].split(", ").map(|c| c.trim().to_owned()).collect();
        rows.push((flags, commands, line.to_owned()));
    }
    rows
}

/// Every flag of README's and docs/cli.md's option tables is one the
/// commands its row names take, and a flag `--help` calls a no-op is
/// called one in the tables too.
#[test]
fn option_tables_agree_with_help() {
    let no_ops: Vec<String> = ["validate"]
        .iter()
        .flat_map(|command| {
            let help = help_of(command);
            let lines: Vec<String> = help.lines().map(str::to_owned).collect();
            lines
                .windows(2)
                .filter(|pair| pair[1].trim_start().starts_with("No effect"))
                .filter_map(|pair| pair[0].split_whitespace().last().map(str::to_owned))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(no_ops.contains(&"--fragment".to_owned()), "{no_ops:?}");
    for file in ["README.md", "docs/cli.md"] {
        let rows = option_rows(&repository_file(file));
        assert!(rows.len() > 20, "{file}: the option table is found");
        for (flags, commands, row) in rows {
            for command in &commands {
                let help = help_of(command);
                for flag in &flags {
                    let spelled = format!("{flag} ");
                    let listed = help.contains(&format!("{flag},"))
                        || help.contains(&spelled)
                        || help
                            .lines()
                            .any(|line| line.trim_end().ends_with(flag.as_str()));
                    assert!(listed, "{file}: `{command} --help` has no {flag}: {row}");
                }
            }
            if flags.iter().any(|flag| no_ops.contains(flag)) {
                assert!(row.contains("no effect"), "{file}: {row}");
            }
        }
    }
}

/// docs/config.md's SARIF excerpt shows what urlint writes: each of its
/// values that is not elided (`...`) is in the real output.
#[test]
fn the_sarif_excerpt_is_what_urlint_writes() {
    let config = repository_file("docs/config.md");
    let marker = "An excerpt (`urlint check --format sarif fixtures/config/notes.md`";
    let after = &config[config.find(marker).expect("the SARIF excerpt")..];
    let start = after.find("```json\n").expect("its JSON block") + "```json\n".len();
    let excerpt = &after[start..start + after[start..].find("```").expect("the block ends")];
    let (_, sarif, _) = run(&mut urlint(&[
        "check",
        "--format",
        "sarif",
        "fixtures/config/notes.md",
    ]));
    let pair =
        Regex::new(r#""([A-Za-z$]+)": ("(?:[^"\\]|\\.)*"|[0-9]+|true|false)"#).expect("regex");
    let mut checked = 0;
    for caps in pair.captures_iter(excerpt) {
        if caps[2].contains("...") {
            continue;
        }
        let written = format!("\"{}\":{}", &caps[1], &caps[2]);
        assert!(sarif.contains(&written), "urlint writes no {written}");
        checked += 1;
    }
    assert!(checked > 25, "only {checked} values were compared");
}

/// README's completion and manual page lines work as written, in sh, on a
/// fresh account whose home has none of those directories.
#[test]
fn the_completion_lines_work_on_a_fresh_account() {
    let readme = repository_file("README.md");
    let after = &readme[readme
        .find("Shell completion (options")
        .expect("the section")..];
    let start = after.find("```sh\n").expect("its sh block") + "```sh\n".len();
    let block = &after[start..start + after[start..].find("```").expect("the block ends")];
    let home = tempfile::tempdir().expect("a fresh home");
    let binary = assert_cmd::cargo::cargo_bin!("urlint");
    let path = format!(
        "{}:{}",
        binary.parent().expect("the binary's directory").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in block.replace("\\\n", "").lines() {
        let output = std::process::Command::new("sh")
            .args(["-c", line])
            .env("HOME", home.path())
            .env("PATH", &path)
            .output()
            .expect("sh runs");
        assert!(
            output.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    for written in [
        ".local/share/bash-completion/completions/urlint",
        ".zfunc/_urlint",
        ".config/fish/completions/urlint.fish",
        ".config/elvish/lib/urlint.elv",
        ".cargo/share/man/man1/urlint-check.1",
    ] {
        let file = home.path().join(written);
        let size = std::fs::metadata(&file).map(|meta| meta.len()).unwrap_or(0);
        assert!(size > 1000, "{written} was not written");
    }
}
