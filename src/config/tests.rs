//! The configuration's tests: reading, errors, discovery, filters and
//! the settings written back.

use std::path::Path;

use super::error::{crop, QUOTED_CHARS};
use super::*;
use crate::lint::RuleLevels;
use crate::profile::Profile;
use crate::rules::{Level, Rule};

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new("urlint.toml"))
}

#[test]
fn every_key_is_read() {
    let config = parse(
        "[rules]\nhyphen-break = \"off\"\nbare-url = \"error\"\n\
         [schemes]\nextra = [\"IRC\", \"ssh\"]\nremove = [\"gopher\"]\n\
         [urls]\nexclude = ['^http://localhost', 'example\\.org']\n\
         [paths]\ninclude = [\"*.md\"]\nexclude = [\"vendor/**\"]\n",
    )
    .expect("valid");
    assert_eq!(
        config.rules,
        [
            (Rule::HyphenBreak, Level::Off),
            (Rule::BareUrl, Level::Error)
        ]
    );
    assert_eq!(config.extra_schemes, ["irc", "ssh"]);
    assert_eq!(config.removed_schemes, ["gopher"]);
    assert!(config.url_excludes.is_match("http://localhost:8080/"));
    assert!(!config.url_excludes.is_match("http://example.com/"));
    assert_eq!(config.include, ["*.md"]);
    assert_eq!(config.exclude, ["vendor/**"]);
    let levels = config.levels();
    assert_eq!(levels.level(Rule::HyphenBreak), Level::Off);
    assert_eq!(levels.level(Rule::UnsafeChar), Level::Error);
    let options = config.lint_options(levels, None);
    assert_eq!(options.scan.extra_schemes, ["irc", "ssh"]);
    assert_eq!(options.profile, Profile::Rfc1738);
}

#[test]
fn the_profile_is_a_top_level_key_and_the_command_line_wins() {
    let config = parse("profile = \"rfc3986\"\n[rules]\nbare-url = \"error\"\n").expect("valid");
    assert_eq!(config.profile, Profile::Rfc3986);
    let levels = config.levels();
    assert_eq!(
        config.lint_options(levels.clone(), None).profile,
        Profile::Rfc3986
    );
    let flag = config.lint_options(levels, Some(Profile::Rfc1738));
    assert_eq!(flag.profile, Profile::Rfc1738);
    let err = parse("profile = \"rfc2396\"\n").expect_err("unknown profile");
    assert!(
        err.message
            .contains("unknown profile 'rfc2396': expected \"rfc1738\" or \"rfc3986\""),
        "{}",
        err.message
    );
}

#[test]
fn per_file_ignores_cover_matching_files_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(FILE_NAME);
    let text = "[per-file-ignores]\n\
                \"tests/**\" = [\"unsafe-char\"]\n\
                \"*.eml\" = [\"bad-host\", \"unsafe-char\"]\n\
                \"legacy\" = [\"scheme-case\"]\n\
                \"!docs/**\" = [\"bare-url\"]\n";
    let config = Config::parse(text, &path).expect("valid");
    let ignores = config
        .per_file_ignores()
        .expect("globs")
        .expect("some entries");
    let cases: [(&str, &[Rule]); 6] = [
        ("docs/a.md", &[]),
        ("tests/a.md", &[Rule::UnsafeChar, Rule::BareUrl]),
        ("docs/mail/x.eml", &[Rule::UnsafeChar, Rule::BadHost]),
        ("legacy/old/notes.txt", &[Rule::SchemeCase, Rule::BareUrl]),
        ("src/tests/a.md", &[Rule::BareUrl]),
        ("README.md", &[Rule::BareUrl]),
    ];
    for (relative, rules) in cases {
        assert_eq!(
            ignores.rules_for(&dir.path().join(relative)),
            rules,
            "{relative}"
        );
    }
    assert!(ignores
        .rules_for(Path::new("/elsewhere/tests/a.md"))
        .is_empty());
    let around = dir.path().join("tests/../docs/./a.md");
    assert!(ignores.rules_for(&around).is_empty(), "`..` is resolved");
    assert!(Config::default()
        .per_file_ignores()
        .expect("none")
        .is_none());
}

#[test]
fn settings_read_back_to_the_same_settings() {
    let text = "[rules]\nhyphen-break = \"off\"\nbare-url = \"warning\"\n\
                [schemes]\nextra = [\"irc\"]\nremove = [\"gopher\"]\n\
                [urls]\nexclude = ['^http://localhost(:\\d+)?/', \"it's\"]\n\
                [paths]\ninclude = [\"*.md\"]\nexclude = [\"vendor\"]\n\
                [per-file-ignores]\n\"tests/**\" = [\"unsafe-char\", \"bad-port\"]\n";
    let config = parse(text).expect("valid");
    let written = config.settings(&config.levels(), Profile::Rfc3986);
    let read = parse(&written).expect("the settings parse");
    assert_eq!(read.settings(&read.levels(), read.profile), written);
    assert!(written.starts_with("profile = \"rfc3986\"\n"), "{written}");
    assert_eq!(read.rules.len(), Rule::all().count(), "{written}");
    let line = |key: &str| {
        written
            .lines()
            .find(|line| line.starts_with(key))
            .map(str::to_owned)
    };
    assert_eq!(
        line("hyphen-break").as_deref(),
        Some("hyphen-break = \"off\"")
    );
    assert_eq!(
        line("unsafe-char").as_deref(),
        Some("unsafe-char = \"error\"")
    );
    assert_eq!(read.extra_schemes, ["irc"]);
    assert_eq!(read.url_excludes.patterns(), config.url_excludes.patterns());
    assert_eq!(read.exclude, ["vendor"]);
    assert_eq!(
        read.per_file_ignores,
        [("tests/**".to_owned(), vec![Rule::UnsafeChar, Rule::BadPort])]
    );
    let defaults = Config::default().settings(&RuleLevels::default(), Profile::default());
    assert!(defaults.contains("\n[per-file-ignores]\n"), "{defaults}");
    assert!(parse(&defaults).is_ok());
}

#[test]
fn an_empty_file_is_the_defaults() {
    let config = parse("").expect("valid");
    assert!(config.rules.is_empty() && config.url_excludes.is_empty());
}

/// Each kind of mistake: the line toml reports and what the message says.
#[test]
fn errors_name_the_line_and_the_key() {
    let cases = [
        ("colour = true\n", "line 1", "unknown field `colour`"),
        (
            "[rules]\n\nunsafe-chr = \"off\"\n",
            "line 3",
            "did you mean 'unsafe-char'?",
        ),
        (
            "[rules]\nbad-port = \"warn\"\n",
            "line 2",
            "unknown level 'warn'",
        ),
        ("[rules]\nbad-port = 1\n", "line 2", "invalid type: integer"),
        (
            "[schemes]\nextras = []\n",
            "line 2",
            "unknown field `extras`, expected `extra` or `remove`",
        ),
        (
            "[schemes]\nextra = [\"irc:\"]\n",
            "line 2",
            "'irc:' is not a scheme name",
        ),
        (
            "[urls]\nexclude = [\"(\"]\n",
            "line 2",
            "invalid regular expression",
        ),
        ("[paths]\ninclude = [\"a{\"]\n", "line 2", "invalid glob"),
        (
            "[per-file-ignores]\n\"tests/**\" = [\"unsafe-char\", \"bad-prot\"]\n",
            "line 2",
            "unknown rule 'bad-prot' (did you mean 'bad-port'?)",
        ),
        (
            "[per-file-ignores]\n\"a{\" = [\"bad-port\"]\n",
            "line 2",
            "invalid glob",
        ),
        (
            "[per-file-ignores]\n\"*.md\" = \"bad-port\"\n",
            "line 2",
            "invalid type: string",
        ),
        ("[rules\n", "line 1", "unclosed table"),
    ];
    for (text, line, message) in cases {
        let err = parse(text).expect_err(text).to_string();
        assert!(
            err.starts_with("invalid configuration urlint.toml: "),
            "{err}"
        );
        assert!(
            err.contains(&format!("at {line}, column")),
            "{text:?}: {err}"
        );
        assert!(err.contains(message), "{text:?}: {err}");
    }
}

#[test]
fn discovery_walks_up_and_prefers_urlint_toml() {
    let root = tempfile::tempdir().expect("temp dir");
    let deep = root.path().join("a/b/c");
    std::fs::create_dir_all(&deep).expect("dirs");
    assert!(Config::discover(&deep).expect("no files").is_none());

    let pyproject = root.path().join("a").join(PYPROJECT);
    std::fs::write(&pyproject, "[project]\nname = \"x\"\n").expect("write");
    assert!(Config::discover(&deep).expect("no table").is_none());

    std::fs::write(
        &pyproject,
        "[tool.black]\nline-length = 1\n[tool.urlint.rules]\nbare-url = \"warning\"\n",
    )
    .expect("write");
    let found = Config::discover(&deep).expect("valid").expect("found");
    assert_eq!(found.path.as_deref(), Some(pyproject.as_path()));
    assert_eq!(found.rules, [(Rule::BareUrl, Level::Warning)]);

    let own = root.path().join("a").join(FILE_NAME);
    std::fs::write(&own, "[rules]\nbare-url = \"error\"\n").expect("write");
    let found = Config::discover(&deep).expect("valid").expect("found");
    assert_eq!(found.path.as_deref(), Some(own.as_path()));

    let nearer = root.path().join("a/b").join(FILE_NAME);
    std::fs::write(&nearer, "[rules]\nbare-url = \"oops\"\n").expect("write");
    let err = Config::discover(&deep).expect_err("the nearest file is broken");
    assert_eq!(err.path, nearer);
}

#[test]
fn a_pyproject_given_explicitly_needs_the_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pyproject = dir.path().join(PYPROJECT);
    std::fs::write(&pyproject, "[tool.other]\nx = 1\n").expect("write");
    let err = Config::load(&pyproject).expect_err("no table");
    assert!(err.message.contains("[tool.urlint]"), "{err}");
    std::fs::write(&pyproject, "[tool.urlint]\nrules = { nope = \"off\" }\n").expect("write");
    let err = Config::load(&pyproject).expect_err("bad rule");
    assert!(err.message.contains("line 2"), "{err}");
}

#[test]
fn isolated_ignores_even_a_missing_file() {
    let config = Config::for_run(Some(Path::new("/no/such/urlint.toml")), true);
    assert!(config.expect("isolated").path.is_none());
    let err =
        Config::for_run(Some(Path::new("/no/such/urlint.toml")), false).expect_err("missing file");
    assert!(err.message.starts_with("cannot read it"), "{err}");
}

#[test]
fn path_globs_are_relative_to_the_config_file_and_cover_named_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(FILE_NAME);
    let text =
        "[paths]\ninclude = [\"*.md\", \"*.txt\"]\nexclude = [\"vendor\", \"docs/old.md\"]\n";
    let mut config = Config::parse(text, &path).expect("valid");
    config.path = Some(path);
    let filter = config.path_filter().expect("globs").expect("some globs");
    let cases = [
        ("a.md", true),
        ("docs/new.md", true),
        ("notes.txt", true),
        ("main.rs", false),
        ("docs/old.md", false),
        ("vendor/lib.md", false),
        ("src/vendor/x/lib.md", false),
    ];
    for (relative, allowed) in cases {
        assert_eq!(
            filter.allows(&dir.path().join(relative)),
            allowed,
            "{relative}"
        );
    }
    assert!(filter.allows(Path::new("/elsewhere/main.rs")));
    assert!(filter.includes(&dir.path().join("docs/new.md")));
    assert!(!filter.includes(&dir.path().join("main.rs")));
    assert!(!filter.includes(&dir.path().join("docs/old.md")));
    assert!(!filter.includes(Path::new("/elsewhere/a.md")));
    assert!(!filter.allows(&dir.path().join("docs/../vendor/lib.md")));
    assert!(Config::default().path_filter().expect("none").is_none());
}

#[test]
fn crop_keeps_a_window_around_the_position_with_marks_where_cut() {
    let text: String = ('a'..='z').cycle().take(200).collect();
    let (excerpt, at) = crop(&text, 100);
    assert_eq!(excerpt.chars().count(), QUOTED_CHARS + 2);
    assert!(excerpt.starts_with('…') && excerpt.ends_with('…'));
    assert_eq!(excerpt.chars().nth(at), text.chars().nth(100));
    let (start, at) = crop(&text, 3);
    assert_eq!((start.chars().next(), at), (Some('a'), 3));
    let (end, at) = crop(&text, 199);
    assert_eq!(
        (end.chars().last(), end.chars().nth(at)),
        (Some('r'), Some('r'))
    );
    assert_eq!(crop("short", 2), ("short".to_string(), 2));
}

#[test]
fn a_short_bad_pattern_keeps_the_regex_crates_report() {
    let err = parse("[urls]\nexclude = [\"(a\"]\n").expect_err("unclosed group");
    assert!(
        err.message
            .contains("regex parse error:\n    (a\n    ^\nerror: unclosed group"),
        "{}",
        err.message
    );
}
