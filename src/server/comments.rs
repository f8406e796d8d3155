//! Suppression comments written for the user: an `urlint: ignore[rule]`
//! directive in the comment syntax of the document's language, placed where
//! it silences the finding and changes nothing else.
//!
//! The directive goes at the end of the line the URL starts on, where it
//! covers the whole URL. When that line ends inside a URL (a URL wrapped
//! onto the next line), text there would join the URL, so an
//! `ignore-next-line` directive goes on a line of its own above, indented
//! like the URL's line.

use std::path::Path;

use super::analysis::Analysis;
use super::edit::SourceEdit;
use crate::rules::Rule;
use crate::span::Span;

/// How a language writes a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CommentStyle {
    /// A comment to the end of the line: `// ...`, `# ...`.
    Line(&'static str),
    /// A delimited comment: `<!-- ... -->`, `/* ... */`.
    Block(&'static str, &'static str),
    /// No comment syntax that can share a line with text (plain text,
    /// mail, and reStructuredText, whose `..` comments are blocks that a
    /// blank line must end): the directive is written as it is, which
    /// urlint reads wherever it stands.
    Bare,
}

/// Comment styles by language identifier (the protocol's well-known ones).
const STYLES: &[(&[&str], CommentStyle)] = &[
    (
        &[
            "markdown", "html", "xml", "xhtml", "xsl", "svg", "vue", "svelte",
        ],
        CommentStyle::Block("<!--", "-->"),
    ),
    (&["css", "less"], CommentStyle::Block("/*", "*/")),
    (
        &[
            "c",
            "cpp",
            "csharp",
            "d",
            "dart",
            "fsharp",
            "go",
            "groovy",
            "java",
            "javascript",
            "javascriptreact",
            "jsonc",
            "kotlin",
            "objective-c",
            "objective-cpp",
            "php",
            "rust",
            "scala",
            "scss",
            "swift",
            "typescript",
            "typescriptreact",
            "zig",
        ],
        CommentStyle::Line("//"),
    ),
    (
        &[
            "coffeescript",
            "cmake",
            "dockerfile",
            "elixir",
            "fish",
            "julia",
            "makefile",
            "nix",
            "perl",
            "powershell",
            "python",
            "r",
            "ruby",
            "sh",
            "bash",
            "shellscript",
            "toml",
            "yaml",
            "zsh",
            "conf",
            "properties",
        ],
        CommentStyle::Line("#"),
    ),
    (
        &["ada", "elm", "haskell", "lua", "sql", "purescript"],
        CommentStyle::Line("--"),
    ),
    (
        &["bibtex", "erlang", "latex", "matlab", "tex", "prolog"],
        CommentStyle::Line("%"),
    ),
    (
        &["clojure", "lisp", "scheme", "ini", "asm"],
        CommentStyle::Line(";"),
    ),
];

/// Language identifiers by file extension, for clients that send none
/// this table knows.
const EXTENSIONS: &[(&str, &str)] = &[
    ("md", "markdown"),
    ("markdown", "markdown"),
    ("html", "html"),
    ("htm", "html"),
    ("xml", "xml"),
    ("rs", "rust"),
    ("c", "c"),
    ("h", "c"),
    ("cc", "cpp"),
    ("cpp", "cpp"),
    ("go", "go"),
    ("java", "java"),
    ("js", "javascript"),
    ("ts", "typescript"),
    ("py", "python"),
    ("rb", "ruby"),
    ("sh", "sh"),
    ("toml", "toml"),
    ("yaml", "yaml"),
    ("yml", "yaml"),
    ("tex", "latex"),
    ("sql", "sql"),
    ("lua", "lua"),
    ("css", "css"),
];

impl CommentStyle {
    /// The style of a document with language identifier `language` at
    /// `path`: by the identifier, else by the file extension.
    pub(super) fn of(language: &str, path: Option<&Path>) -> CommentStyle {
        let by_language = |language: &str| {
            STYLES
                .iter()
                .find(|(languages, _)| languages.contains(&language))
                .map(|&(_, style)| style)
        };
        by_language(language)
            .or_else(|| {
                let extension = path?.extension()?.to_str()?.to_ascii_lowercase();
                let (_, language) = EXTENSIONS.iter().find(|(known, _)| *known == extension)?;
                by_language(language)
            })
            .unwrap_or(CommentStyle::Bare)
    }

    /// `directive` as a comment.
    fn comment(self, directive: &str) -> String {
        match self {
            CommentStyle::Line(open) => format!("{open} {directive}"),
            CommentStyle::Block(open, close) => format!("{open} {directive} {close}"),
            CommentStyle::Bare => directive.to_owned(),
        }
    }
}

/// The edit that silences `rule` for the URL of `analysis` starting at
/// byte `url_start`, in `style`.
pub(super) fn suppression(
    analysis: &Analysis,
    url_start: usize,
    rule: Rule,
    style: CommentStyle,
) -> SourceEdit {
    let text: &str = &analysis.text;
    let lines = analysis.index.lines();
    let starts = lines.line_starts();
    let line = lines.line_of(url_start);
    let start = starts[line];
    let next = starts.get(line + 1).copied().unwrap_or(text.len());
    let content = text[start..next].trim_end_matches(['\r', '\n']);
    let end = start + content.len();
    if !analysis.inside_url(end) {
        let comment = style.comment(&format!("urlint: ignore[{}]", rule.name()));
        let space = if content.ends_with([' ', '\t']) || content.is_empty() {
            ""
        } else {
            " "
        };
        return SourceEdit {
            span: Span::new(end, end),
            replacement: format!("{space}{comment}"),
        };
    }
    let indent = &content[..content.len() - content.trim_start_matches([' ', '\t']).len()];
    let line_break = &text[end..next];
    let comment = style.comment(&format!("urlint: ignore-next-line[{}]", rule.name()));
    SourceEdit {
        span: Span::new(start, start),
        replacement: format!("{indent}{comment}{line_break}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::sync::Arc;

    use crate::server::analysis::DocumentReading;
    use crate::server::position::Encoding;

    /// `text` with the suppression of its first finding applied, and the
    /// rules found in the result.
    fn suppressed(path: &str, language: &str, text: &str) -> (String, Vec<Rule>) {
        let lint = |text: &str| {
            Analysis::run(
                Some(PathBuf::from(path)),
                1,
                Arc::new(text.to_string()),
                DocumentReading::default(),
                Encoding::Utf16,
            )
        };
        let analysis = lint(text);
        let first = analysis.each_finding(|placed| {
            let url = placed.url.expect("a finding about a URL");
            (url.extent.start, placed.finding.diagnostic.rule)
        });
        let (url_start, rule) = first[0];
        let style = CommentStyle::of(language, Some(Path::new(path)));
        let edit = suppression(&analysis, url_start, rule, style);
        let mut fixed = text.to_string();
        fixed.replace_range(edit.span.range(), &edit.replacement);
        let after = lint(&fixed);
        let rules = after.each_finding(|placed| placed.finding.diagnostic.rule);
        (fixed, rules)
    }

    #[test]
    fn the_directive_ends_the_url_line_in_the_language_comment_syntax() {
        let cases = [
            (
                "/w/a.md",
                "markdown",
                "See http://h.example/~a here.\nnext\n",
                "See http://h.example/~a here. <!-- urlint: ignore[unsafe-char] -->\nnext\n",
            ),
            (
                "/w/a.txt",
                "plaintext",
                "See <URL:http://h.example/~a>\r\n",
                "See <URL:http://h.example/~a> urlint: ignore[unsafe-char]\r\n",
            ),
            (
                "/w/a.py",
                "unknown",
                "x = 'http://h.example:99999/'",
                "x = 'http://h.example:99999/' # urlint: ignore[bad-port]",
            ),
        ];
        for (path, language, text, expected) in cases {
            let (fixed, rules) = suppressed(path, language, text);
            assert_eq!(fixed, expected, "{path}");
            assert_eq!(rules, [], "{fixed}");
        }
    }

    #[test]
    fn appendix_a_wrapped_url_gets_a_line_above_it() {
        let text = "intro\n   see <URL:http://h.example/a~\n        b>\n";
        let (fixed, rules) = suppressed("/w/rfc.txt", "plaintext", text);
        assert_eq!(
            fixed,
            "intro\n   urlint: ignore-next-line[unsafe-char]\n   see <URL:http://h.example/a~\n        b>\n"
        );
        assert_eq!(rules, []);
    }

    #[test]
    fn styles_come_from_the_language_then_the_extension() {
        assert_eq!(CommentStyle::of("rust", None), CommentStyle::Line("//"));
        assert_eq!(
            CommentStyle::of("", Some(Path::new("/a/b.HTM"))),
            CommentStyle::Block("<!--", "-->")
        );
        assert_eq!(
            CommentStyle::of("plaintext", Some(Path::new("/a/b.txt"))),
            CommentStyle::Bare
        );
        assert_eq!(
            CommentStyle::of("restructuredtext", Some(Path::new("/a/b.rst"))),
            CommentStyle::Bare
        );
    }
}
