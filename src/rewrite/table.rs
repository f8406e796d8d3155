//! reStructuredText grid tables kept aligned: a fix that makes a line of a
//! cell longer or shorter (`~` becomes `%7E`) takes the difference from the
//! padding before the cell's right border, or gives it back there, so that
//! every `|` stays in its column; docutils rejects a grid table whose
//! borders do not line up.
//!
//! A row line is one that starts and ends with `|` after its indentation.
//! Widths are counted in characters, as the table's text is laid out.

use std::cmp::Ordering;

use super::edit::{Edit, EditGroup};
use crate::span::SourceSpan;

/// `edits` with one more edit for each grid-table cell whose line they
/// make longer or shorter: spaces taken from before the cell's right
/// border, or added there. `None` when a cell has too little padding to
/// give: one space always stays between the text and the border.
pub(super) fn aligned(text: &str, mut edits: EditGroup) -> Option<EditGroup> {
    let mut borders: Vec<(usize, isize)> = Vec::new();
    for edit in &edits {
        let Some(border) = right_border(text, edit.span) else {
            continue;
        };
        let old = text[edit.span.range()].chars().count();
        let grown = edit.replacement.chars().count() as isize - old as isize;
        match borders.iter_mut().find(|(at, _)| *at == border) {
            Some((_, growth)) => *growth += grown,
            None => borders.push((border, grown)),
        }
    }
    for (border, growth) in borders {
        let width = growth.unsigned_abs();
        match growth.cmp(&0) {
            Ordering::Equal => {}
            Ordering::Greater => {
                let padding = text[..border]
                    .bytes()
                    .rev()
                    .take_while(|&b| b == b' ')
                    .count();
                if padding <= width {
                    return None;
                }
                edits.push(Edit {
                    span: SourceSpan::new(border - width, border),
                    replacement: String::new(),
                });
            }
            Ordering::Less => edits.push(Edit {
                span: SourceSpan::new(border, border),
                replacement: " ".repeat(width),
            }),
        }
    }
    Some(edits)
}

/// The offset of the `|` that closes the grid-table cell holding `span`,
/// when `span` lies within one row line of a grid table.
fn right_border(text: &str, span: SourceSpan) -> Option<usize> {
    if text.get(span.range())?.contains('\n') {
        return None;
    }
    let line_start = text[..span.start].rfind('\n').map_or(0, |at| at + 1);
    let line_end = text[span.end..]
        .find('\n')
        .map_or(text.len(), |at| span.end + at);
    let line = text[line_start..line_end].trim_end_matches('\r');
    let row = line.trim();
    if row.len() < 2 || !row.starts_with('|') || !row.ends_with('|') {
        return None;
    }
    let rest = &text[span.end..line_start + line.len()];
    rest.find('|').map(|at| span.end + at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rewrite::edit::apply;

    /// `text` with each `(old, new)` edit at the first `old`, the table
    /// kept aligned.
    fn fixed(text: &str, changes: &[(&str, &str)]) -> Option<String> {
        let edits = changes
            .iter()
            .map(|(old, new)| {
                let start = text.find(old).unwrap_or(0);
                Edit {
                    span: SourceSpan::new(start, start + old.len()),
                    replacement: new.to_string(),
                }
            })
            .collect();
        aligned(text, edits).map(|edits| apply(text, &[edits]))
    }

    #[test]
    fn a_longer_cell_line_takes_its_border_s_padding() {
        let table = "+---+------------------+\n\
                     | a | <http://h/~b>    |\n\
                     +---+------------------+\n";
        let expected = "+---+------------------+\n\
                        | a | <http://h/%7Eb>  |\n\
                        +---+------------------+\n";
        assert_eq!(fixed(table, &[("~", "%7E")]).as_deref(), Some(expected));
        // Two changes to one cell line add up; one space always stays.
        let two = fixed(table, &[("~", "%7E"), ("h/", "h%2F")]);
        assert_eq!(two, None);
    }

    #[test]
    fn a_cell_line_without_the_padding_is_refused() {
        let table = "| a | <http://h/~b>  |\n";
        assert_eq!(fixed(table, &[("~", "%7E")]), None);
    }

    #[test]
    fn a_shorter_cell_line_gets_padding_before_its_border() {
        let table = "   | a | <http://h:/b> |\r\n";
        assert_eq!(
            fixed(table, &[("h:/", "h/")]).as_deref(),
            Some("   | a | <http://h/b>  |\r\n")
        );
    }

    #[test]
    fn lines_outside_grid_tables_are_left_to_their_edits() {
        for text in [
            "see <http://h/~b> here |\n",
            "| a line block <http://h/~b>\n",
        ] {
            let expected = text.replacen('~', "%7E", 1);
            assert_eq!(fixed(text, &[("~", "%7E")]), Some(expected), "{text:?}");
        }
    }
}
