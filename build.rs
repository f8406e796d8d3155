//! Build information for `urlint --version`: the git revision of the
//! source, when it is a git checkout and git is installed. Without either,
//! the version is printed without a revision; the build never fails for it.
//!
//! Like ripgrep's, this script has no `rerun-if-changed` line, so cargo runs
//! it again whenever a file of the package changes; a commit alone does not
//! refresh the revision until the next change is built.

use std::process::Command;

fn main() {
    if let Some(rev) = git_revision() {
        println!("cargo:rustc-env=URLINT_BUILD_GIT_HASH={rev}");
    }
}

/// `git rev-parse --short=10 HEAD`, if git answers.
fn git_revision() -> Option<String> {
    let output = Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let rev = String::from_utf8(output.stdout).ok()?;
    let rev = rev.trim();
    let plausible = !rev.is_empty() && rev.bytes().all(|b| b.is_ascii_hexdigit());
    plausible.then(|| rev.to_owned())
}
