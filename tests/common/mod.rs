//! Helpers shared by the CLI tests: run the real binary from the repository
//! root, so that paths in output are the relative fixture paths.

use assert_cmd::Command;

/// The fixtures every format snapshot runs on (named one by one, so that
/// files other helpers add under fixtures/ do not change these snapshots).
#[allow(dead_code)] // not every test file uses every helper
pub const FIXTURES: [&str; 3] = [
    "fixtures/README.md",
    "fixtures/rfc-style.txt",
    "fixtures/mail.txt",
];

/// `urlint` with the given arguments, run from the repository root with a
/// colour-neutral environment.
#[allow(dead_code)] // not every test file uses every helper
pub fn urlint(args: &[&str]) -> Command {
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("urlint");
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("GITHUB_ACTIONS")
        .args(args);
    command
}

/// Run and render exit code, stdout and stderr as one text to snapshot.
#[allow(dead_code)] // not every test file uses every helper
pub fn transcript(command: &mut Command) -> String {
    let output = command.output().expect("the urlint binary runs");
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        output
            .status
            .code()
            .map_or("signal".to_string(), |code| code.to_string()),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Run and return (exit code, stdout, stderr).
#[allow(dead_code)] // not every test file uses every helper
pub fn run(command: &mut Command) -> (i32, String, String) {
    let output = command.output().expect("the urlint binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The stderr of a `--verbose` run after its first line, which names the
/// configuration the run uses (or says there is none): checked here, so that
/// tests about the other notes compare those alone.
#[allow(dead_code)] // not every test file uses every helper
pub fn after_config_note(stderr: &str) -> &str {
    let (first, rest) = stderr.split_once('\n').unwrap_or((stderr, ""));
    assert!(
        first.starts_with("urlint: note: configuration: ")
            || first.starts_with("urlint: note: no configuration file found in "),
        "the first note names the configuration: {stderr}"
    );
    rest
}

/// `text` in base64, in lines of 76 characters.
#[allow(dead_code)] // not every test file uses every helper
pub fn base64_lines(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut encoded = Vec::new();
    for chunk in text.as_bytes().chunks(3) {
        let word = chunk
            .iter()
            .enumerate()
            .fold(0u32, |word, (i, &b)| word | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            let digit = if i <= chunk.len() {
                ALPHABET[(word >> (18 - 6 * i) & 63) as usize]
            } else {
                b'='
            };
            encoded.push(digit);
        }
    }
    encoded
        .chunks(76)
        .flat_map(|line| line.iter().copied().chain([b'\n']))
        .collect()
}

/// Line and column of the first finding of `check --format FORMAT` on
/// `path`, read from that format's own fields.
#[allow(dead_code)] // not every test file uses every helper
pub fn first_position(format: &str, path: &str) -> (u64, u64) {
    use serde_json::Value;
    let (_, stdout, _) = run(&mut urlint(&["check", "--format", format, path]));
    let json = |text: &str| serde_json::from_str::<Value>(text).expect("valid JSON");
    match format {
        "short" => {
            let fields: Vec<&str> = stdout.split(':').collect();
            (
                fields[1].parse().unwrap_or(0),
                fields[2].parse().unwrap_or(0),
            )
        }
        "github" => {
            let field = |name: &str| {
                stdout
                    .split([',', ' '])
                    .find_map(|part| part.strip_prefix(&format!("{name}=")))
                    .and_then(|value| value.parse().ok())
                    .unwrap_or(0)
            };
            (field("line"), field("col"))
        }
        "jsonl" => {
            let record = json(stdout.lines().next().unwrap_or_default());
            (
                record["line"].as_u64().unwrap_or(0),
                record["column"].as_u64().unwrap_or(0),
            )
        }
        "json" => {
            let document = json(&stdout);
            let finding = &document["files"][0]["urls"]
                .as_array()
                .and_then(|urls| urls.iter().find(|url| url["findings"][0].is_object()))
                .map(|url| url["findings"][0].clone())
                .unwrap_or_default();
            (
                finding["line"].as_u64().unwrap_or(0),
                finding["column"].as_u64().unwrap_or(0),
            )
        }
        "sarif" => {
            let document = json(&stdout);
            let region =
                &document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
            (
                region["startLine"].as_u64().unwrap_or(0),
                region["startColumn"].as_u64().unwrap_or(0),
            )
        }
        _ => unreachable!("a format this test knows"),
    }
}

/// (form, url, line, column) of every URL `extract --format jsonl` prints
/// for `args`.
#[allow(dead_code)] // not every test file uses every helper
pub fn extracted(args: &[&str]) -> Vec<(String, String, u64, u64)> {
    use serde_json::Value;
    let mut all = vec!["extract", "--format", "jsonl"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = run(&mut urlint(&all));
    assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}");
    stdout
        .lines()
        .map(|line| {
            let record: Value = serde_json::from_str(line).expect("one JSON record a line");
            (
                record["form"].as_str().unwrap_or_default().to_string(),
                record["url"].as_str().unwrap_or_default().to_string(),
                record["line"].as_u64().unwrap_or_default(),
                record["column"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

/// Apply the unified diff `diff` in `dir` with `patch -p1`, as a user
/// would from the repository root; fails the test if it does not apply.
#[allow(dead_code)] // not every test file uses every helper
pub fn apply_patch(dir: &std::path::Path, diff: &str) {
    use std::io::Write;
    let mut patch = std::process::Command::new("patch")
        .args(["-p1", "--quiet"])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("patch runs");
    patch
        .stdin
        .take()
        .expect("stdin")
        .write_all(diff.as_bytes())
        .expect("write the diff");
    assert!(patch.wait().expect("patch ends").success());
}
