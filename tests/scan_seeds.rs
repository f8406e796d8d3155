//! The scanner on the five seed documents the project was built from, when
//! they are present (`URLINT_SHARED`, `../shared` next to the crate, or
//! `/work/shared`); each test says so and passes when they are not.
//!
//! Seeds 000, 001 and 002 are three copies of RFC 1738 and must yield the
//! clean RFC's wrapped URLs except where their text differs; 003 is the URI
//! draft and must yield the clean draft's URLs. Run with `--nocapture` to
//! see the per-seed counts.

use std::path::{Path, PathBuf};

use urlint::{scan, Form, Found, ScanOptions};

/// The shared directory holding `seeds/` and `spec/`, if there is one.
fn shared_dir() -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    std::env::var_os("URLINT_SHARED")
        .map(PathBuf::from)
        .into_iter()
        .chain([manifest.join("../shared"), PathBuf::from("/work/shared")])
        .find(|dir| dir.join("seeds").is_dir() && dir.join("spec").is_dir())
}

fn read(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Every URL of a shared file as "form url", with the count printed.
fn urls(shared: &Path, file: &str) -> Vec<String> {
    let text = read(&shared.join(file));
    let found: Vec<Found> = scan(&text, &ScanOptions::default()).collect();
    let count = |form: Form| found.iter().filter(|f| f.form == form).count();
    eprintln!(
        "{file}: {} URLs ({} wrapped, {} angle, {} prefixed, {} bare)",
        found.len(),
        count(Form::Wrapped),
        count(Form::Angle),
        count(Form::Prefixed),
        count(Form::Bare)
    );
    found
        .iter()
        .map(|f| format!("{} {}", f.form.as_str(), f.url))
        .collect()
}

fn wrapped(urls: &[String]) -> Vec<String> {
    urls.iter()
        .filter(|u| u.starts_with("wrapped "))
        .cloned()
        .collect()
}

macro_rules! shared_or_skip {
    () => {
        match shared_dir() {
            Some(dir) => dir,
            None => {
                eprintln!("skipped: no shared directory with seeds/ and spec/");
                return;
            }
        }
    };
}

#[test]
fn seed_000_differs_from_rfc1738_only_in_its_rewritten_hosts() {
    let shared = shared_or_skip!();
    let clean = wrapped(&urls(&shared, "spec/rfc1738.txt"));
    let seed = wrapped(&urls(&shared, "seeds/000_f25d6f2e63d81a2e.txt"));
    assert_eq!(clean.len(), 30);
    assert_eq!(seed.len(), clean.len());
    // The spam mirror rewrote two hosts: www.acl.lanl.gov gained a suffix,
    // and "ds.internic." lost "net" to a second suffix, leaving an empty
    // label that the rest of the broken line joins onto.
    let differing: Vec<(&str, &str)> = clean
        .iter()
        .zip(&seed)
        .filter(|(c, s)| c != s)
        .map(|(c, s)| (c.as_str(), s.as_str()))
        .collect();
    assert_eq!(
        differing,
        [
            (
                "wrapped http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",
                "wrapped http://www.acl.lanl.gov.hcv8jop2ns0r.cn/URI/archive/uri-archive.index.html"
            ),
            (
                "wrapped http://ds.internic.net/instructions/overview.html#WARNING",
                "wrapped http://ds.internic..hcv8jop2ns0r.cnnet/instructions/overview.html#WARNING"
            ),
        ]
    );
}

#[test]
fn seed_001_lost_its_wrappers_to_an_html_renderer() {
    let shared = shared_or_skip!();
    let text = read(&shared.join("seeds/001_48e085f52a2e9110.txt"));
    // The page kept the text around each "<URL:...>" but not the wrapper
    // itself, so no wrapped URL is left to find.
    assert!(!text.contains("<URL:"));
    assert_eq!(
        wrapped(&urls(&shared, "seeds/001_48e085f52a2e9110.txt")),
        Vec::<String>::new()
    );
}

#[test]
fn seed_002_gutters_do_not_change_the_wrapped_urls() {
    let shared = shared_or_skip!();
    let clean = urls(&shared, "spec/rfc1738.txt");
    let seed = urls(&shared, "seeds/002_6ba85bd8fc724aed.txt");
    assert_eq!(wrapped(&seed), wrapped(&clean));
    // The code-browsing page adds one bare URL of its own in its header.
    let extra: Vec<&String> = seed.iter().filter(|u| !clean.contains(u)).collect();
    assert_eq!(extra, ["bare https://bitbucket.org/nileshgr/cxxcms/"]);
}

#[test]
fn seed_003_gutters_and_no_break_spaces_do_not_change_the_draft_urls() {
    let shared = shared_or_skip!();
    let clean = urls(&shared, "spec/draft-bernerslee-www-uri-00.txt");
    let seed = urls(&shared, "seeds/003_cca93585f1ddfe1c.txt");
    assert_eq!(clean.len(), 33);
    assert_eq!(seed, clean);
}

#[test]
fn seed_004_keeps_only_the_placeholder_urls_its_renderer_left() {
    let shared = shared_or_skip!();
    let seed = urls(&shared, "seeds/004_69f8b7daee82da35.txt");
    // The flattened draft's "<...>" URLs were eaten; what is left are its
    // gopher syntax templates ("gopher://host [port]/..."), cut at the space.
    assert!(seed.iter().all(|u| u == "bare gopher://host"), "{seed:?}");
    assert_eq!(seed.len(), 6);
}
