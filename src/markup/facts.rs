//! What urlint knows of each markup besides its reader, declared once per
//! markup: the names users and editors give it, how a fix is spelled in it,
//! how its links are described, and where its reader may make URL syntax. A new markup is one more arm of
//! [`facts`]; the places that act on a markup in their own way (its reader
//! in this folder, the scanner's reading plan, rewriting) match on
//! [`Markup`] without a catch-all, so the compiler names each of them.

use crate::source::Markup;

/// What urlint knows of one markup.
// One table for every build: the language server reads `language_ids` and
// the reporters `link_form`, neither of which the Python module has, and a
// cfg on those fields and on each markup's values would split the one
// declaration per markup this module is for.
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
#[derive(Debug)]
pub(crate) struct MarkupFacts {
    /// The name `--input`, `[kinds]` and the Python module give the markup.
    pub name: &'static str,
    /// The file extensions, lower case, that name the markup.
    pub extensions: &'static [&'static str],
    /// The language identifiers editors give a document in the markup
    /// (the Language Server Protocol's `languageId`).
    pub language_ids: &'static [&'static str],
    /// How a URL that the markup delimits as a link was written, in words,
    /// when the markup has links of its own.
    pub link_form: Option<&'static str>,
    /// How a fix's replacement is spelled in the source.
    pub fix_writing: FixWriting,
    /// Whether the markup has grid tables whose columns a fix must keep
    /// aligned.
    pub grid_tables: bool,
    /// Where its reader may write URL syntax the source does not hold as
    /// one run, which decides how far the scanner must read a document.
    pub made_url_syntax: MadeUrlSyntax,
}

/// Where a markup's reader may make URL syntax that is not a run of the
/// source (see [`super::last_made_url_syntax`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MadeUrlSyntax {
    /// Nowhere: the text is read as it is.
    Nowhere,
    /// At a character reference of URL syntax (`&#58;`, `&colon;`).
    AtCharacterReferences,
    /// At a character reference or a backslash escape of URL punctuation.
    AtReferencesAndEscapes,
    /// Anywhere: its reader joins runs the source holds apart (a URI
    /// written over several lines, across a grid table's borders).
    Anywhere,
}

/// How a fix's replacement is spelled in the source so that the markup
/// reads it back as the same characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FixWriting {
    /// As it is: the source is the text.
    AsItIs,
    /// As it is, when it holds no whitespace and none of the characters the
    /// markup may give a meaning in a link (`& \ < > " ' ``); refused
    /// otherwise.
    WithoutSpecials,
    /// With `& < > " '` as character references; refused when it holds
    /// whitespace.
    CharacterReferences,
}

/// What urlint knows of `markup`.
pub(crate) const fn facts(markup: Markup) -> &'static MarkupFacts {
    match markup {
        Markup::Plain => &MarkupFacts {
            name: "text",
            // None: a `.txt` file may be reStructuredText or mail by its
            // content, and a text no name or content claims is plain.
            extensions: &[],
            language_ids: &["plaintext", "text"],
            link_form: None,
            fix_writing: FixWriting::AsItIs,
            grid_tables: false,
            made_url_syntax: MadeUrlSyntax::Nowhere,
        },
        Markup::Markdown => &MarkupFacts {
            name: "markdown",
            extensions: &["md", "markdown", "mdown", "mkd"],
            language_ids: &["markdown"],
            link_form: Some("as a Markdown link (destination, autolink or reference definition)"),
            fix_writing: FixWriting::WithoutSpecials,
            grid_tables: false,
            made_url_syntax: MadeUrlSyntax::AtReferencesAndEscapes,
        },
        Markup::Html => &MarkupFacts {
            name: "html",
            extensions: &["html", "htm", "xhtml"],
            language_ids: &["html"],
            // HTML's URLs are attribute values, described as such.
            link_form: None,
            fix_writing: FixWriting::CharacterReferences,
            grid_tables: false,
            made_url_syntax: MadeUrlSyntax::AtCharacterReferences,
        },
        Markup::Rst => &MarkupFacts {
            name: "rst",
            extensions: &["rst", "rest"],
            language_ids: &["restructuredtext"],
            link_form: Some(
                "as a reStructuredText link (embedded URI, hyperlink target or image URI)",
            ),
            fix_writing: FixWriting::WithoutSpecials,
            grid_tables: true,
            made_url_syntax: MadeUrlSyntax::Anywhere,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_markups_share_a_name_an_extension_or_a_language() {
        let mut words: Vec<(&str, Markup)> = Vec::new();
        let mut languages: Vec<(&str, Markup)> = Vec::new();
        for markup in Markup::ALL {
            let facts = facts(markup);
            let names = std::iter::once(facts.name).chain(facts.extensions.iter().copied());
            words.extend(names.map(|word| (word, markup)));
            languages.extend(facts.language_ids.iter().map(|id| (*id, markup)));
            assert!(facts
                .extensions
                .iter()
                .all(|ext| *ext == ext.to_ascii_lowercase()));
        }
        for table in [words, languages] {
            for (word, markup) in &table {
                assert!(
                    table.iter().all(|(w, m)| w != word || m == markup),
                    "{word} names two markups"
                );
            }
        }
    }
}
