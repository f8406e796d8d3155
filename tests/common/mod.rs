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
