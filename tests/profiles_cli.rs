//! Profiles through the real binary: `--profile` on check, extract and
//! validate, the top-level `profile` key of urlint.toml, and the flag over
//! the file.

mod common;

use common::{run, transcript, urlint};

const MODERN: &str = "fixtures/profiles/modern.md";

#[test]
fn rfc1738_flags_what_rfc1738_did_not_foresee() {
    insta::assert_snapshot!(transcript(&mut urlint(&[
        "check",
        "--isolated",
        "--format",
        "short",
        MODERN
    ])));
}

#[test]
fn rfc3986_reports_only_the_real_mistake() {
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "--isolated",
        "--profile",
        "rfc3986",
        "--format",
        "short",
        MODERN,
    ]));
    assert_eq!(stderr, "");
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "fixtures/profiles/modern.md:12:43: error[bad-port]: port 99999 is greater than 65535\n"
    );
}

#[test]
fn the_configuration_sets_the_profile_and_the_flag_overrides_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("urlint.toml"), "profile = \"rfc3986\"\n").expect("write");
    std::fs::write(dir.path().join("a.md"), "see https://h.example/~x\n").expect("write");
    let check = |flags: &[&str]| {
        let mut args = vec!["check", "--format", "short"];
        args.extend_from_slice(flags);
        let mut command = urlint(&args);
        command.current_dir(dir.path());
        run(&mut command)
    };
    assert_eq!(check(&[]), (0, String::new(), String::new()));
    let (code, stdout, _) = check(&["--profile", "rfc1738"]);
    assert_eq!(code, 1);
    assert!(
        stdout.starts_with("a.md:1:23: error[unsafe-char]"),
        "{stdout}"
    );
}

#[test]
fn an_unknown_profile_is_a_usage_error_naming_the_profiles() {
    let (code, _, stderr) = run(&mut urlint(&["check", "--profile", "rfc2396", MODERN]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("[possible values: rfc1738, rfc3986]"),
        "{stderr}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("urlint.toml"), "profile = \"rfc2396\"\n").expect("write");
    let mut command = urlint(&["check", "a.md"]);
    command.current_dir(dir.path());
    let (code, _, stderr) = run(&mut command);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("unknown profile 'rfc2396': expected \"rfc1738\" or \"rfc3986\""),
        "{stderr}"
    );
}

#[test]
fn validate_takes_the_profile() {
    let url = "mailto:list-request@lists.example.org?subject=help";
    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "--isolated",
        "--format",
        "short",
        url,
    ]));
    assert_eq!(code, 1);
    assert!(stdout.contains("error[mailto-address]"), "{stdout}");
    assert!(
        stdout.contains("the rfc3986 profile accepts them"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&mut urlint(&[
        "validate",
        "--isolated",
        "--profile",
        "rfc3986",
        url,
    ]));
    assert_eq!(code, 0);
    assert_eq!(
        stdout,
        format!("valid: {url}\nvalidated 1 URL: 0 errors, 0 warnings\n")
    );
}

#[test]
fn extract_records_say_whether_each_url_is_valid_under_the_profile() {
    let valid = |profile: &str| -> Vec<(String, bool)> {
        let (code, stdout, _) = run(&mut urlint(&[
            "extract",
            "--isolated",
            "--profile",
            profile,
            "--format",
            "jsonl",
            MODERN,
        ]));
        assert_eq!(code, 0);
        stdout
            .lines()
            .map(|line| {
                let record: serde_json::Value = serde_json::from_str(line).expect("JSON");
                let url = record["url"].as_str().unwrap_or_default().to_string();
                (url, record["valid"].as_bool().unwrap_or_default())
            })
            .collect()
    };
    let rfc3986 = valid("rfc3986");
    assert_eq!(rfc3986.len(), 7);
    let invalid: Vec<&str> = rfc3986
        .iter()
        .filter(|(_, valid)| !valid)
        .map(|(url, _)| url.as_str())
        .collect();
    assert_eq!(invalid, ["http://old.tidepool.example:99999/pub/"]);
    let rfc1738_valid = valid("rfc1738").iter().filter(|(_, valid)| *valid).count();
    assert_eq!(rfc1738_valid, 2, "wss: and urn: only warn under rfc1738");
}

#[test]
fn an_address_cloaked_with_an_encoded_at_sign_is_valid_only_under_rfc1738() {
    let page = "fixtures/profiles/cloaked-mail.html";
    let check = |profile: &str| {
        run(&mut urlint(&[
            "check",
            "--isolated",
            "--profile",
            profile,
            "--format",
            "short",
            page,
        ]))
    };
    // RFC 1738 reserves no character in a mailto URL: `%40` is the '@'.
    assert_eq!(check("rfc1738"), (0, String::new(), String::new()));
    // RFC 6068 writes the '@' between local part and domain literally.
    let (code, stdout, stderr) = check("rfc3986");
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        stdout,
        "fixtures/profiles/cloaked-mail.html:4:111: error[mailto-address]: the address has no '@domain' after its local part\n"
    );
}
