//! `--format sarif` checked by Microsoft's SARIF validator
//! (`sarif-multitool validate`, the tool behind the SARIF validation web
//! site), installed from npm into the target directory on first use: no
//! error or warning for absolute and relative paths, stdin, mail and a
//! text's own findings.
//!
//! The test is skipped, saying why, only when npm or the package cannot be
//! had (no network, no npm) or its binary does not run on this platform.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{run, urlint};
use serde_json::Value;

/// The validator's version, pinned so that its rules do not change under us.
const MULTITOOL: &str = "@microsoft/sarif-multitool@5.7.0";

/// The validator's binary, installed once per target directory; `None`,
/// after printing why, when it cannot be had.
fn multitool() -> Option<&'static Path> {
    static TOOL: OnceLock<Option<PathBuf>> = OnceLock::new();
    TOOL.get_or_init(|| match install() {
        Ok(tool) => Some(tool),
        Err(why) => {
            println!("SKIPPED: SARIF validation needs {MULTITOOL} from npm: {why}");
            None
        }
    })
    .as_deref()
}

/// Install the validator with npm unless it is there, and check that it runs.
fn install() -> Result<PathBuf, String> {
    let (package, binary) = match std::env::consts::OS {
        "linux" => ("sarif-multitool-linux", "Sarif.Multitool"),
        "macos" => ("sarif-multitool-darwin", "Sarif.Multitool"),
        "windows" => ("sarif-multitool-win32", "Sarif.Multitool.exe"),
        other => return Err(format!("no build for {other}")),
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sarif-multitool");
    let tool = dir
        .join("node_modules/@microsoft")
        .join(package)
        .join(binary);
    if !tool.exists() {
        let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
        let installed = Command::new(npm)
            .args([
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--prefix",
            ])
            .arg(&dir)
            .arg(MULTITOOL)
            .output()
            .map_err(|err| format!("cannot run npm: {err}"))?;
        if !installed.status.success() {
            return Err(format!(
                "npm install failed: {}",
                String::from_utf8_lossy(&installed.stderr).trim()
            ));
        }
    }
    // npm may refuse the package's install script, which marks it executable.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let executable = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(&tool, executable).map_err(|err| err.to_string())?;
    }
    let version = Command::new(&tool)
        .arg("--version")
        .output()
        .map_err(|err| format!("{} does not run: {err}", tool.display()))?;
    if !version.status.success() {
        return Err(format!(
            "{} does not run here: {}",
            tool.display(),
            String::from_utf8_lossy(&version.stderr).trim()
        ));
    }
    Ok(tool)
}

/// The errors and warnings the validator reports on `log`, one line each.
fn validate(tool: &Path, log: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let input = dir.path().join("urlint.sarif");
    let output = dir.path().join("validation.sarif");
    std::fs::write(&input, log).expect("write the log");
    let ran = Command::new(tool)
        .arg("validate")
        .arg(&input)
        .arg("--output")
        .arg(&output)
        .args(["--log", "ForceOverwrite"])
        .output()
        .expect("the validator runs");
    assert!(
        ran.status.success(),
        "the validator failed: {}",
        String::from_utf8_lossy(&ran.stdout)
    );
    let report: Value =
        serde_json::from_slice(&std::fs::read(&output).expect("the validator wrote its log"))
            .expect("the validator's log is JSON");
    report["runs"][0]["results"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|result| {
            let message = &result["message"];
            format!(
                "{} {}: {} {}",
                result["level"].as_str().unwrap_or("warning"),
                result["ruleId"].as_str().unwrap_or_default(),
                message["text"]
                    .as_str()
                    .or(message["id"].as_str())
                    .unwrap_or_default(),
                message["arguments"]
            )
        })
        .collect()
}

/// A directory with files whose names need percent-encoding, one of them
/// mail, all with findings, and an unused suppression of a text's own.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    let files: [(&str, &str); 3] = [
        (
            "plain notes.txt",
            "see <URL:http://a.example/~x> and http://b.example:99999/\n",
        ),
        (
            "café #1.md",
            "<!-- urlint: ignore-next-line -->\nno URL here\n<URL:HTTP://c.example/>\n",
        ),
        (
            "list.eml",
            "From: a@example.org\nSubject: links\n\nsee http://d.example/~y today\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write file");
    }
    dir
}

/// `check --format sarif` over `paths` (and stdin), unused suppressions on.
fn sarif(paths: &[&Path]) -> String {
    let mut command = urlint(&[
        "check",
        "--isolated",
        "--warn",
        "unused-suppression",
        "--format",
        "sarif",
    ]);
    command.args(paths).arg("-");
    command.write_stdin("from stdin: http://e.example/~z\n");
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!((code, stderr.as_str()), (1, ""));
    stdout
}

#[test]
fn absolute_paths_are_file_uris_that_the_validator_accepts() {
    let dir = project();
    let log = sarif(&[dir.path()]);
    if let Some(tool) = multitool() {
        let problems = validate(tool, &log);
        assert!(problems.is_empty(), "{problems:#?}");
    }
    let parsed: Value = serde_json::from_str(&log).expect("one JSON document");
    let uris: Vec<&str> = parsed["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| {
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap_or_default()
        })
        .collect();
    assert!(uris.contains(&"%3Cstdin%3E"), "{uris:?}");
    let absolute: Vec<&&str> = uris.iter().filter(|uri| **uri != "%3Cstdin%3E").collect();
    assert!(absolute.len() >= 4, "{uris:?}");
    for uri in absolute {
        assert!(uri.starts_with("file:///"), "{uri}");
    }
}

#[test]
fn relative_paths_and_the_fixtures_pass_the_validator() {
    let dir = project();
    let relative = Path::new("plain notes.txt");
    let mut command = urlint(&["check", "--isolated", "--format", "sarif"]);
    command.current_dir(dir.path()).arg(relative);
    let (_, own, _) = run(&mut command);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fixtures: Vec<PathBuf> = common::FIXTURES
        .iter()
        .map(|fixture| Path::new(fixture).to_path_buf())
        .collect();
    let mut command = urlint(&["check", "--isolated", "--format", "sarif"]);
    command.current_dir(root).args(&fixtures);
    let (_, fixture_log, _) = run(&mut command);
    let Some(tool) = multitool() else { return };
    for log in [own, fixture_log] {
        let problems = validate(tool, &log);
        assert!(problems.is_empty(), "{problems:#?}");
    }
}
