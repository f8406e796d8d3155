//! `urlint extract` and `urlint check` on source files (fixtures/code/): code
//! that looks like a scheme (`File::create`, `Net::FTP`, `{http:http}`, lock
//! files' `registry+https://`) gives no URL and no finding, and every real
//! URL in comments and strings is found whole.

mod common;

use common::{run, urlint};

/// The URLs `urlint extract` prints for `fixtures/code/<name>`.
fn extracted(name: &str) -> Vec<String> {
    let path = format!("fixtures/code/{name}");
    let (code, stdout, stderr) = run(&mut urlint(&["extract", &path]));
    assert_eq!((code, stderr.as_str()), (0, ""), "{path}");
    stdout.lines().map(str::to_string).collect()
}

#[test]
fn rust_paths_and_generics_are_code_doc_comments_hold_urls() {
    assert_eq!(
        extracted("fetch.rs"),
        [
            "https://tides.example.org/protocol.html",
            "ftp://ftp.example.org/pub/stations.txt",
            "http://tides.example.org/api/v2/",
            "https://tides.example.org/api/v2/",
            "ftp://mirror.example.net/tides/",
            "ftp://mirror.example.net/tides/",
        ]
    );
}

#[test]
fn perl_module_names_are_code_pod_links_hold_urls() {
    assert_eq!(
        extracted("Tides.pm"),
        [
            "ftp://ftp.example.org/pub/tides/",
            "http://tides.example.org/",
            "http://tides.example.org/perl.html",
        ]
    );
}

#[test]
fn cpp_namespaces_are_code_strings_hold_urls() {
    assert_eq!(
        extracted("tides.cpp"),
        [
            "https://tides.example.org/format.html",
            "http://tides.example.org/faq/units.html",
            "http://tides.example.org/stations",
            "ftp://ftp.example.org/pub/stations.txt",
            "file:///var/lib/tides/cache",
        ]
    );
}

#[test]
fn python_dict_keys_are_code_docstrings_hold_urls() {
    assert_eq!(
        extracted("tides.py"),
        [
            "https://tides.example.org/python.html",
            "http://mirror.example.net/tides/",
            "ftp://mirror.example.net/pub/tides/",
            "file:///srv/tides/",
            "http://tides.example.org/api.html",
            "http://tides.example.org/a",
        ]
    );
}

#[test]
fn javascript_object_keys_and_ternaries_are_code() {
    assert_eq!(
        extracted("tides.js"),
        [
            "https://tides.example.org/js.html",
            "https://tides.example.org/api.html",
            "https://tides.example.org/",
            "http://tides.example.org/",
            "ftp://mirror.example.net/tides/",
        ]
    );
}

#[test]
fn cargo_lock_sources_give_their_urls_compound_schemes_whole() {
    assert_eq!(
        extracted("Cargo.lock"),
        [
            "registry+https://github.com/rust-lang/crates.io-index",
            "git+https://github.example/tides/tide-tables?branch=main",
            "sparse+https://index.example.org/",
        ]
    );
}

#[test]
fn package_lock_dependencies_give_their_urls_compound_schemes_whole() {
    assert_eq!(
        extracted("package-lock.json"),
        [
            "git+https://github.example/tides/tide-tables.git",
            "https://registry.example.org/http-errors/-/http-errors-2.0.0.tgz",
            "git+ssh://git@github.example/tides/tide-tables.git#5f0c2d1e9b7a3c4d8e6f1a2b3c4d5e6f7a8b9c0d",
        ]
    );
}

#[test]
fn source_files_give_no_finding_code_shaped_noise_would() {
    let (code, stdout, stderr) = run(&mut urlint(&[
        "check",
        "--format",
        "short",
        "fixtures/code/fetch.rs",
        "fixtures/code/Tides.pm",
        "fixtures/code/tides.cpp",
        "fixtures/code/tides.py",
        "fixtures/code/tides.js",
        "fixtures/code/Cargo.lock",
    ]));
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
}

#[test]
fn a_compound_scheme_is_read_as_the_scheme_it_fetches_over() {
    // `git+https` is https, known to both profiles; `git+ssh` is as unknown
    // as `ssh` is, unless configured.
    for profile in ["rfc1738", "rfc3986"] {
        let (_, stdout, _) = run(&mut urlint(&[
            "check",
            "--profile",
            profile,
            "--format",
            "short",
            "fixtures/code/package-lock.json",
        ]));
        let unknown: Vec<&str> = stdout
            .lines()
            .filter(|line| line.contains("unknown-scheme"))
            .collect();
        assert_eq!(unknown.len(), 1, "{profile}: {stdout}");
        assert!(unknown[0].contains("'git+ssh'"), "{profile}: {stdout}");
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let lock = dir.path().join("package-lock.json");
    std::fs::copy("fixtures/code/package-lock.json", &lock).expect("copy the fixture");
    std::fs::write(
        dir.path().join("urlint.toml"),
        "[schemes]\nextra = [\"git+ssh\"]\n",
    )
    .expect("write the configuration");
    let mut command = urlint(&["check", "--format", "short", "package-lock.json"]);
    command.current_dir(dir.path());
    let (code, stdout, stderr) = run(&mut command);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
}
