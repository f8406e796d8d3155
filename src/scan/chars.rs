//! Character classes the scanner splits text on: whitespace of every kind
//! (line breaks are [`crate::span`]'s) and the characters words are made
//! of. Non-ASCII classes are decided by Unicode properties (`White_Space`,
//! General Category), never by byte or block ranges.

use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

/// Characters treated as whitespace besides Unicode `White_Space`: the zero
/// width space and BOM that word processors insert at line-break chances.
const EXTRA_SPACES: &[char] = &['\u{200B}', '\u{FEFF}'];

/// Format characters (General Category Cf) that join the letters around
/// them inside one word: ZWNJ and ZWJ, written inside Persian, Arabic and
/// Indic words and inside emoji sequences.
const JOINERS: &[char] = &['\u{200C}', '\u{200D}'];

/// The character starting at byte `at`, if `at` is a char boundary inside `text`.
pub(crate) fn char_at(text: &str, at: usize) -> Option<char> {
    text.get(at..).and_then(|rest| rest.chars().next())
}

/// True for any character that separates words: Unicode `White_Space`
/// (space, tab, U+00A0, U+2000..U+200A, U+3000...) and zero-width spaces.
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || EXTRA_SPACES.contains(&c)
}

/// Byte length of the non-line-break whitespace character at `at`, or 0.
pub(crate) fn space_len(text: &str, at: usize) -> usize {
    let Some(&byte) = text.as_bytes().get(at) else {
        return 0;
    };
    if byte.is_ascii() {
        return usize::from(matches!(byte, b' ' | b'\t' | 0x0B | 0x0C));
    }
    match char_at(text, at) {
        Some(c) if is_space(c) => c.len_utf8(),
        _ => 0,
    }
}

/// Offset of the first character at or after `at` that is not whitespace
/// (line breaks excluded: they stop the skip).
pub(crate) fn skip_spaces(text: &str, mut at: usize) -> usize {
    loop {
        let len = space_len(text, at);
        if len == 0 {
            return at;
        }
        at += len;
    }
}

/// True for letters and numbers of any script (General Categories L and N).
pub(crate) fn is_letter_or_number(c: char) -> bool {
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter | GeneralCategoryGroup::Number
    )
}

/// True for characters that belong to the character before them rather than
/// start one of their own: combining marks of every kind (General Categories
/// Mn, Mc and Me: accents, vowel signs, viramas, enclosing marks, variation
/// selectors) and the [`JOINERS`]. Such a character never splits a word.
pub(crate) fn joins_previous(c: char) -> bool {
    c.general_category_group() == GeneralCategoryGroup::Mark || JOINERS.contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_whitespace_of_every_kind_is_space() {
        for (text, len) in [
            (" ", 1),
            ("\t", 1),
            ("\u{A0}", 2),
            ("\u{2003}", 3),
            ("\u{3000}", 3),
            ("\u{200B}", 3),
            ("x", 0),
            ("\n", 0),
            ("é", 0),
            ("", 0),
        ] {
            assert_eq!(space_len(text, 0), len, "{text:?}");
        }
    }

    #[test]
    fn marks_and_joiners_join_the_previous_character() {
        for (c, joins) in [
            ('\u{0301}', true),  // combining acute accent, Mn
            ('\u{094D}', true),  // Devanagari virama, Mn
            ('\u{093F}', true),  // Devanagari vowel sign i, Mc
            ('\u{064E}', true),  // Arabic fatha, Mn
            ('\u{05B8}', true),  // Hebrew qamats, Mn
            ('\u{20DD}', true),  // combining enclosing circle, Me
            ('\u{FE0F}', true),  // variation selector 16, Mn
            ('\u{200C}', true),  // zero width non-joiner
            ('\u{200D}', true),  // zero width joiner
            ('\u{200B}', false), // zero width space: a break chance
            ('\u{200F}', false), // right-to-left mark
            ('a', false),
            ('ह', false),
            ('.', false),
        ] {
            assert_eq!(joins_previous(c), joins, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn letters_and_numbers_of_every_script() {
        for (c, word) in [
            ('a', true),
            ('é', true),
            ('ж', true),
            ('ह', true),
            ('ع', true),
            ('什', true),
            ('٣', true), // Arabic-Indic digit three
            ('Ⅻ', true), // Roman numeral twelve, Nl
            ('\u{0301}', false),
            ('…', false),
            ('“', false),
            ('😀', false),
            ('\u{A0}', false),
        ] {
            assert_eq!(is_letter_or_number(c), word, "U+{:04X}", u32::from(c));
        }
    }
}
