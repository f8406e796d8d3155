//! How the scanner reads a text: which schemes, whether code and
//! placeholders are read as prose.

/// Options for [`scan`](super::scan) and [`scan_markup`](super::scan_markup).
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    /// Extra schemes to recognise as bare URLs, beyond the built-in list.
    pub extra_schemes: Vec<String>,
    /// Read code as prose too: Markdown's code spans and code blocks,
    /// HTML's `code`, `pre`, `kbd`, `samp` and `tt` elements, and
    /// reStructuredText's literals, code directives and comments; a
    /// reStructuredText literal block then reads as plain text, whose bare
    /// URLs may go on over its lines.
    pub include_verbatim: bool,
    /// Read placeholders as URL characters: no URL is read as a template
    /// (`{var}`, `{}`, `%s`, `${VAR}`, `{{ x }}`...), a regular expression
    /// that holds a scheme is taken for a URL, and a template tag with
    /// spaces inside (`{{ host }}`) ends a bare URL, as before urlint knew
    /// templates (`--no-templates`).
    pub no_templates: bool,
}
