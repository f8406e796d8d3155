//! What an input holds, and how that is decided: the `--input` choice, else
//! the configuration's globs, else the file extension, else the content.

use std::path::{Path, PathBuf};

use ignore::overrides::Override;

#[cfg(feature = "cli")]
use super::compressed::Compression;
#[cfg(feature = "cli")]
use super::load::is_binary;
#[cfg(feature = "cli")]
use super::unicode::Unicode;
#[cfg(feature = "cli")]
use super::walk::glob_overrides;
use crate::mail::{self, MailKind};
use crate::markup;
use crate::source::Markup;

/// What an input holds, as `--input` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub(crate) enum InputKind {
    /// Detect from the configuration's `[kinds]` globs, the file extension
    /// (Markdown, reStructuredText, HTML, mail), then the content (mail;
    /// reStructuredText in a `.txt` file).
    #[default]
    Auto,
    /// Free text: URLs are looked for everywhere.
    Text,
    /// Markdown: link destinations and the prose outside code.
    Markdown,
    /// reStructuredText: embedded URIs, targets, image URIs and the prose
    /// outside literal blocks, code and comments.
    Rst,
    /// HTML: URL attributes and the visible text.
    Html,
    /// Mail: an mbox archive or one message, told apart by the content.
    Mail,
    /// An mbox archive (messages opened by `From ` lines).
    Mbox,
    /// One RFC 5322 message.
    Eml,
}

/// The kinds `[kinds]` globs may name, in the order they are tried: text
/// first, so that a file can be taken out of another kind's globs.
#[cfg(feature = "cli")]
const GLOB_KINDS: [InputKind; 5] = [
    InputKind::Text,
    InputKind::Markdown,
    InputKind::Rst,
    InputKind::Html,
    InputKind::Mail,
];

/// What an input turned out to hold: text in some markup, or mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Content {
    /// A text, read in its markup.
    Text(Markup),
    /// A mail archive or message.
    Mail(MailKind),
}

impl From<MailKind> for InputKind {
    fn from(kind: MailKind) -> Self {
        match kind {
            MailKind::Mbox => InputKind::Mbox,
            MailKind::Eml => InputKind::Eml,
        }
    }
}

impl From<Content> for InputKind {
    /// The kind that names `content` without looking at the input.
    fn from(content: Content) -> Self {
        match content {
            Content::Text(Markup::Plain) => InputKind::Text,
            Content::Text(Markup::Markdown) => InputKind::Markdown,
            Content::Text(Markup::Rst) => InputKind::Rst,
            Content::Text(Markup::Html) => InputKind::Html,
            Content::Mail(mail) => mail.into(),
        }
    }
}

impl InputKind {
    /// Every kind, `auto` first, in the order `--input` lists them.
    pub(crate) const ALL: [InputKind; 8] = [
        InputKind::Auto,
        InputKind::Text,
        InputKind::Markdown,
        InputKind::Rst,
        InputKind::Html,
        InputKind::Mail,
        InputKind::Mbox,
        InputKind::Eml,
    ];

    /// The kind's name, as `--input`, `[kinds]` and the Python module spell it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            InputKind::Auto => "auto",
            InputKind::Text => markup::facts(Markup::Plain).name,
            InputKind::Markdown => markup::facts(Markup::Markdown).name,
            InputKind::Rst => markup::facts(Markup::Rst).name,
            InputKind::Html => markup::facts(Markup::Html).name,
            InputKind::Mail => "mail",
            InputKind::Mbox => "mbox",
            InputKind::Eml => "eml",
        }
    }

    /// The kind called `name`, in any case, if there is one (the command
    /// line's parser has its own, from the same names).
    #[cfg(any(feature = "python", test))]
    pub(crate) fn from_name(name: &str) -> Option<InputKind> {
        InputKind::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name))
    }

    /// The content this kind names without looking at the input, if any.
    fn content(self) -> Option<Content> {
        match self {
            InputKind::Text => Some(Content::Text(Markup::Plain)),
            InputKind::Markdown => Some(Content::Text(Markup::Markdown)),
            InputKind::Rst => Some(Content::Text(Markup::Rst)),
            InputKind::Html => Some(Content::Text(Markup::Html)),
            InputKind::Mbox => Some(Content::Mail(MailKind::Mbox)),
            InputKind::Eml => Some(Content::Mail(MailKind::Eml)),
            InputKind::Auto | InputKind::Mail => None,
        }
    }

    /// The kind an input at `path` is named, before reading it: the chosen
    /// kind, else the first of `globs` that matches, else its extension;
    /// `Auto` while undecided.
    fn for_path(self, globs: &KindGlobs, path: &Path) -> InputKind {
        if self != InputKind::Auto {
            return self;
        }
        if let Some(kind) = globs.kind_of(path) {
            return kind;
        }
        if let Some(mail) = MailKind::from_path(path) {
            return mail.into();
        }
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        Markup::ALL
            .into_iter()
            .find(|&markup| {
                markup::facts(markup)
                    .extensions
                    .iter()
                    .any(|name| name.eq_ignore_ascii_case(extension))
            })
            .map_or(InputKind::Auto, |markup| Content::Text(markup).into())
    }

    /// The kind a compressed input at `path`, holding a file named `inner`,
    /// is named: the chosen kind, else the first of `globs` that matches its
    /// own path, else as `inner` is named (`notes.md.gz` is Markdown).
    pub(crate) fn for_compressed(self, globs: &KindGlobs, path: &Path, inner: &Path) -> InputKind {
        if self != InputKind::Auto {
            return self;
        }
        globs
            .kind_of(path)
            .unwrap_or_else(|| self.for_path(globs, inner))
    }

    /// What an input at `path` holds, when its name (or the choice) says
    /// without reading it; `None` while the content must decide.
    #[cfg(feature = "cli")]
    pub(crate) fn named(self, globs: &KindGlobs, path: &Path) -> Option<Content> {
        self.for_path(globs, path).content()
    }

    /// True when an input at `path` is mail by choice or by name, whatever
    /// its content: it is then read as mail even if it looks binary.
    #[cfg(feature = "cli")]
    pub(crate) fn mail_by_name(self, globs: &KindGlobs, path: &Path) -> bool {
        matches!(
            self.for_path(globs, path),
            InputKind::Mail | InputKind::Mbox | InputKind::Eml
        )
    }

    /// What an input holds, from its name and its first bytes `head`: mail
    /// when its name or its content says so (an undecided `mail` input is one
    /// message), text otherwise. Only the first [`mail::SNIFF_LEN`] bytes
    /// count, however many a reader has at hand, so that every reader of a
    /// file (small, in windows, for a rewrite) reads it the same way.
    pub(crate) fn detect(self, globs: &KindGlobs, path: Option<&Path>, head: &[u8]) -> Content {
        let kind = path.map_or(self, |path| self.for_path(globs, path));
        if let Some(content) = kind.content() {
            return content;
        }
        let head = &head[..head.len().min(mail::SNIFF_LEN)];
        match (MailKind::sniff(head), kind) {
            (Some(mail), _) => Content::Mail(mail),
            (None, InputKind::Mail) => Content::Mail(MailKind::Eml),
            (None, _) if path.is_some_and(is_txt) && markup::looks_like_rst(head) => {
                Content::Text(Markup::Rst)
            }
            (None, _) => Content::Text(Markup::Plain),
        }
    }

    /// How an input at `path` whose first bytes are `head` (at least
    /// [`super::load::HEAD_LEN`] of them, when it has as many) is read:
    /// inflated first when it is compressed, decoded first when a
    /// byte-order mark says it is UTF-16 or UTF-32, else as
    /// [`InputKind::reading`] says.
    #[cfg(feature = "cli")]
    pub(crate) fn reading_plan(
        self,
        globs: &KindGlobs,
        path: Option<&Path>,
        head: &[u8],
    ) -> ReadingPlan {
        if let Some(compression) = Compression::of(path, head) {
            return ReadingPlan::Compressed(compression);
        }
        match Unicode::of(head) {
            Some(encoding) => ReadingPlan::Decoded(encoding),
            None => ReadingPlan::Direct(self.reading(globs, path, head)),
        }
    }

    /// How the text an input holds is read, from its name `path` (for a
    /// compressed input, the name of what it holds) and its first bytes
    /// `head` (for a compressed input, inflated).
    #[cfg(feature = "cli")]
    pub(crate) fn reading(self, globs: &KindGlobs, path: Option<&Path>, head: &[u8]) -> Reading {
        match self.detect(globs, path, head) {
            Content::Mail(mail) => Reading::Mail(mail),
            Content::Text(_) if is_binary(head) => Reading::Binary,
            Content::Text(markup) => Reading::Text(markup),
        }
    }
}

/// How an input is read, decided once from the choice, the configuration's
/// globs, its name and its first bytes: the streamed reader, the planner of
/// large files and the reader for a rewrite each take it as it is.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReadingPlan {
    /// Inflated as it is read; what it holds is then read as
    /// [`InputKind::reading`] decides from the inflated head. The name or
    /// the magic bytes say so, and a name wins, so that a damaged archive is
    /// reported as one, not skipped as binary.
    Compressed(Compression),
    /// UTF-16 or UTF-32 text, by its byte-order mark: decoded to UTF-8 as
    /// it is read; what it holds is then read as [`InputKind::reading`]
    /// decides from the decoded head.
    Decoded(Unicode),
    /// Read as it is.
    Direct(Reading),
}

/// How a text that is not (or no longer) compressed is read.
#[cfg(feature = "cli")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reading {
    /// As mail: an archive or a message.
    Mail(MailKind),
    /// As a text in its markup.
    Text(Markup),
    /// Not at all: a NUL byte in its first bytes says it is binary. Mail is
    /// mail whatever its bytes.
    Binary,
}

/// True for a `.txt` file: Sphinx and docutils projects often write their
/// reStructuredText under that extension (and Sphinx publishes its sources
/// as `.rst.txt`), so its content decides between text and reST.
fn is_txt(path: &Path) -> bool {
    path.extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("txt"))
}

/// The configuration's `[kinds]` globs: files they match are read as the
/// kind they are listed under, whatever their extension.
#[derive(Debug, Clone, Default)]
pub(crate) struct KindGlobs {
    /// Per kind, in the order they are tried: text, markdown, rst, html,
    /// mail.
    matchers: Vec<(InputKind, Override)>,
    /// The directory the globs are relative to.
    root: PathBuf,
    /// The current directory, against which relative paths are resolved.
    cwd: PathBuf,
}

impl KindGlobs {
    /// The globs `table` lists per kind, relative to `root`.
    #[cfg(feature = "cli")]
    pub(crate) fn new(
        root: &Path,
        table: &[(InputKind, Vec<String>)],
    ) -> Result<Self, ignore::Error> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let root = cwd.join(root);
        let mut matchers = Vec::new();
        for kind in GLOB_KINDS {
            let globs: Vec<String> = table
                .iter()
                .filter(|(listed, _)| *listed == kind)
                .flat_map(|(_, globs)| globs.iter().cloned())
                .collect();
            if !globs.is_empty() {
                matchers.push((kind, glob_overrides(&root, &globs, &[])?));
            }
        }
        Ok(KindGlobs {
            matchers,
            root,
            cwd,
        })
    }

    /// The kind the first matching glob names for `path`; files outside
    /// the globs' directory are not theirs to name.
    fn kind_of(&self, path: &Path) -> Option<InputKind> {
        if self.matchers.is_empty() {
            return None;
        }
        let absolute = self.cwd.join(path);
        let relative = absolute.strip_prefix(&self.root).ok()?;
        self.matchers
            .iter()
            .find(|(_, globs)| globs.matched(relative, false).is_whitelist())
            .map(|&(kind, _)| kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command line's names for kinds are the library's own.
    #[cfg(feature = "cli")]
    #[test]
    fn the_command_line_spells_kinds_as_the_library_does() {
        use clap::ValueEnum;
        let clap_names: Vec<String> = InputKind::value_variants()
            .iter()
            .filter_map(|kind| Some(kind.to_possible_value()?.get_name().to_owned()))
            .collect();
        assert_eq!(clap_names, InputKind::ALL.map(InputKind::name));
        for kind in InputKind::ALL {
            assert_eq!(
                InputKind::from_name(&kind.name().to_uppercase()),
                Some(kind)
            );
        }
        assert_eq!(InputKind::from_name("plain"), None);
    }

    /// Mail is read as mail whatever its bytes; any other input with a NUL
    /// byte in its first bytes is binary, whatever its name.
    #[test]
    fn a_reading_plan_is_compressed_mail_text_or_binary() {
        let none = KindGlobs::default();
        let plan = |kind: InputKind, path: &str, head: &[u8]| {
            kind.reading_plan(&none, Some(Path::new(path)), head)
        };
        let direct = ReadingPlan::Direct;
        let mbox = b"From a@b Mon Jan  1 00:00:00 2024\nSubject: s\n\n\0\n";
        assert_eq!(
            plan(InputKind::Auto, "a.mbox", mbox),
            direct(Reading::Mail(MailKind::Mbox))
        );
        assert_eq!(
            plan(InputKind::Auto, "a.md", b"# t\n"),
            direct(Reading::Text(Markup::Markdown))
        );
        assert_eq!(
            plan(InputKind::Auto, "a.md", b"# t\0\n"),
            direct(Reading::Binary)
        );
        assert_eq!(
            plan(InputKind::Text, "a.bin", b"\0"),
            direct(Reading::Binary)
        );
        assert_eq!(
            plan(InputKind::Auto, "notes", b"see http://a.example/\n"),
            direct(Reading::Text(Markup::Plain))
        );
        // Compression comes first, whatever the kind: by name (even over
        // bytes that are not gzip), else by the magic bytes.
        assert_eq!(
            plan(InputKind::Mbox, "list.mbox.gz", b"From "),
            ReadingPlan::Compressed(Compression::Gzip)
        );
        assert_eq!(
            plan(InputKind::Auto, "download", b"\x28\xb5\x2f\xfd\0\0"),
            ReadingPlan::Compressed(Compression::Zstd)
        );
        // What it holds is read from the inflated head and the inner name.
        assert_eq!(
            InputKind::Auto.reading(&none, Some(Path::new("list.mbox")), b"x"),
            Reading::Mail(MailKind::Mbox)
        );
    }

    /// A markup's kind is named as the markup declares, and every markup
    /// has a kind `[kinds]` globs can give.
    #[test]
    fn each_markup_is_a_kind_of_its_declared_name() {
        for markup in Markup::ALL {
            let kind = InputKind::from(Content::Text(markup));
            assert_eq!(kind.name(), markup::facts(markup).name);
            assert_eq!(kind.content(), Some(Content::Text(markup)));
            assert!(GLOB_KINDS.contains(&kind), "{kind:?}");
        }
    }

    #[test]
    fn extensions_name_markdown_rst_html_and_mail() {
        let none = KindGlobs::default();
        let cases = [
            ("README.md", Some(Content::Text(Markup::Markdown))),
            ("notes.MARKDOWN", Some(Content::Text(Markup::Markdown))),
            ("index.rst", Some(Content::Text(Markup::Rst))),
            ("NEWS.ReST", Some(Content::Text(Markup::Rst))),
            ("page.htm", Some(Content::Text(Markup::Html))),
            ("page.xhtml", Some(Content::Text(Markup::Html))),
            ("list.mbox", Some(Content::Mail(MailKind::Mbox))),
            ("rfc1738.txt", None),
            ("index.rst.txt", None),
            ("requirements.txt", None),
            ("Makefile", None),
        ];
        for (path, content) in cases {
            assert_eq!(
                InputKind::Auto.named(&none, Path::new(path)),
                content,
                "{path}"
            );
        }
        assert_eq!(
            InputKind::Text.named(&none, Path::new("README.md")),
            Some(Content::Text(Markup::Plain))
        );
    }

    #[test]
    fn mail_is_told_apart_by_its_content() {
        let none = KindGlobs::default();
        let detect = |kind: InputKind, head: &[u8]| kind.detect(&none, None, head);
        assert_eq!(
            detect(InputKind::Mail, b"From a@x Mon Jan  1 00:00:00 2024\n"),
            Content::Mail(MailKind::Mbox)
        );
        assert_eq!(
            detect(InputKind::Mail, b"no headers"),
            Content::Mail(MailKind::Eml)
        );
        assert_eq!(
            detect(InputKind::Auto, b"no headers"),
            Content::Text(Markup::Plain)
        );
        assert_eq!(InputKind::Mail.named(&none, Path::new("a.md")), None);
    }

    #[test]
    fn rst_is_told_apart_by_its_content_in_txt_files_only() {
        let none = KindGlobs::default();
        let rst_head: &[u8] = b"Guide\n=====\n\n.. code-block:: python\n\n    x = 1\n";
        let text_head: &[u8] = b"Network Working Group\n\n1. Introduction\n";
        let detect = |kind: InputKind, path: Option<&str>, head: &[u8]| {
            kind.detect(&none, path.map(Path::new), head)
        };
        let rst = Content::Text(Markup::Rst);
        let plain = Content::Text(Markup::Plain);
        assert_eq!(
            detect(InputKind::Auto, Some("doc/guide.txt"), rst_head),
            rst
        );
        assert_eq!(
            detect(InputKind::Auto, Some("_sources/a.rst.txt"), rst_head),
            rst
        );
        assert_eq!(detect(InputKind::Auto, Some("NOTES.TXT"), rst_head), rst);
        assert_eq!(
            detect(InputKind::Auto, Some("rfc1738.txt"), text_head),
            plain
        );
        // Only a `.txt` name lets the content say reST: not a file without
        // an extension, nor stdin, nor a chosen kind.
        assert_eq!(detect(InputKind::Auto, Some("CHANGES"), rst_head), plain);
        assert_eq!(detect(InputKind::Auto, None, rst_head), plain);
        assert_eq!(detect(InputKind::Text, Some("guide.txt"), rst_head), plain);
        assert_eq!(
            detect(InputKind::Markdown, Some("guide.txt"), rst_head),
            Content::Text(Markup::Markdown)
        );
        // Mail is still told first.
        let mbox = b"From a@x Mon Jan  1 00:00:00 2024\n\n.. note::\n";
        assert_eq!(
            detect(InputKind::Auto, Some("list.txt"), mbox),
            Content::Mail(MailKind::Mbox)
        );
    }

    #[test]
    fn globs_name_kinds_before_extensions_text_first() {
        let dir = tempfile::tempdir().expect("temp dir");
        let table = vec![
            (
                InputKind::Markdown,
                vec!["*.mdx".to_string(), "docs/*.txt".to_string()],
            ),
            (InputKind::Text, vec!["CHANGELOG.md".to_string()]),
            (InputKind::Markdown, vec!["CHANGELOG.md".to_string()]),
        ];
        let globs = KindGlobs::new(dir.path(), &table).expect("valid globs");
        let cases = [
            ("a/b.mdx", Some(Content::Text(Markup::Markdown))),
            ("docs/notes.txt", Some(Content::Text(Markup::Markdown))),
            ("notes.txt", None),
            ("CHANGELOG.md", Some(Content::Text(Markup::Plain))),
            ("README.md", Some(Content::Text(Markup::Markdown))),
        ];
        for (path, content) in cases {
            let path = dir.path().join(path);
            assert_eq!(
                InputKind::Auto.named(&globs, &path),
                content,
                "{}",
                path.display()
            );
        }
    }
}
