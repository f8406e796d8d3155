//! Edits of a text: byte ranges and what replaces them, chosen so that no
//! two touch the same bytes, and applied in one sweep.

#[cfg(feature = "cli")]
use std::collections::BTreeMap;

use crate::span::SourceSpan;

/// One change to a text: the bytes under `span` replaced by `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    /// The bytes replaced (empty for an insertion).
    pub span: SourceSpan,
    /// What goes in their place.
    pub replacement: String,
}

/// The edits that make up one change (one fix, one rewrapped URL): applied
/// all together or not at all.
pub(crate) type EditGroup = Vec<Edit>;

/// The groups of `candidates` that can be applied together, in text order:
/// each group is taken when none of its edits conflicts with an edit of a
/// group taken before it (see [`conflicts`]), so the earliest change wins
/// and the others wait for the next pass.
#[cfg(feature = "cli")]
pub(crate) fn non_overlapping(mut candidates: Vec<EditGroup>) -> Vec<EditGroup> {
    candidates.retain(|group| !group.is_empty());
    candidates.sort_by_key(|group| group.iter().map(|edit| edit.span).min());
    let mut taken: BTreeMap<usize, Vec<SourceSpan>> = BTreeMap::new();
    let mut chosen = Vec::new();
    for group in candidates {
        let clear =
            group.iter().all(|edit| !clashes(&taken, edit.span)) && !group_self_conflicts(&group);
        if clear {
            for edit in &group {
                taken.entry(edit.span.start).or_default().push(edit.span);
            }
            chosen.push(group);
        }
    }
    chosen
}

/// True when `span` conflicts with a span already taken. Taken spans never
/// conflict with each other, so only the neighbours that could reach
/// `span` are looked at: those starting at or after it up to its end, and
/// the last one starting before it.
#[cfg(feature = "cli")]
fn clashes(taken: &BTreeMap<usize, Vec<SourceSpan>>, span: SourceSpan) -> bool {
    let before = taken.range(..span.start).next_back();
    let within = taken.range(span.start..=span.end);
    before
        .into_iter()
        .chain(within)
        .flat_map(|(_, spans)| spans)
        .any(|&other| conflicts(other, span))
}

/// True when two edits of one group conflict with each other.
#[cfg(feature = "cli")]
fn group_self_conflicts(group: &[Edit]) -> bool {
    group
        .iter()
        .enumerate()
        .any(|(i, a)| group[i + 1..].iter().any(|b| conflicts(a.span, b.span)))
}

/// Two edits conflict when they share a byte, when one inserts strictly
/// inside the other's range, or when both insert at the same offset (their
/// order would be a guess). Edits that merely touch do not conflict.
#[cfg(feature = "cli")]
pub(crate) fn conflicts(a: SourceSpan, b: SourceSpan) -> bool {
    match (a.is_empty(), b.is_empty()) {
        (true, true) => a.start == b.start,
        (true, false) => b.start < a.start && a.start < b.end,
        (false, true) => a.start < b.start && b.start < a.end,
        (false, false) => a.start < b.end && b.start < a.end,
    }
}

/// `text` with every edit of `groups` applied; the edits must not conflict
/// (as [`non_overlapping`] chooses them) and must lie on character
/// boundaries of `text`.
#[cfg(feature = "cli")]
pub(crate) fn apply(text: &str, groups: &[EditGroup]) -> String {
    let mut edits: Vec<&Edit> = groups.iter().flatten().collect();
    // An insertion goes before a replacement that starts where it does.
    edits.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let growth: usize = edits.iter().map(|edit| edit.replacement.len()).sum();
    let mut out = String::with_capacity(text.len() + growth);
    let mut at = 0;
    for edit in edits {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// True when an edit of `group` replaces a byte of a two-byte character
/// starting at one of the sorted `offsets` (an insertion before it does not).
#[cfg(feature = "cli")]
pub(crate) fn touches(group: &[Edit], offsets: &[usize]) -> bool {
    group
        .iter()
        .filter(|edit| !edit.span.is_empty())
        .any(|edit| {
            // The first character that could overlap starts a byte before the edit.
            let first = offsets.partition_point(|&offset| offset + 2 <= edit.span.start);
            offsets
                .get(first)
                .is_some_and(|&offset| offset < edit.span.end)
        })
}

/// Where the characters at the sorted `offsets` of a text are once `groups`
/// are applied to it, none of whose edits [`touches`] them.
#[cfg(feature = "cli")]
pub(crate) fn shifted(offsets: &[usize], groups: &[EditGroup]) -> Vec<usize> {
    let mut edits: Vec<&Edit> = groups.iter().flatten().collect();
    edits.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let mut next = edits.into_iter().peekable();
    let (mut grown, mut shrunk) = (0usize, 0usize);
    offsets
        .iter()
        .map(|&offset| {
            while let Some(edit) = next.next_if(|edit| edit.span.end <= offset) {
                grown += edit.replacement.len();
                shrunk += edit.span.len();
            }
            offset + grown - shrunk
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(start: usize, end: usize, replacement: &str) -> Edit {
        Edit {
            span: SourceSpan::new(start, end),
            replacement: replacement.to_string(),
        }
    }

    #[test]
    fn kept_characters_are_followed_through_edits_that_leave_them_alone() {
        // "é" (two bytes) at 2 and at 9 of "a é b/x é".
        let offsets = [2, 9];
        assert!(touches(&[edit(3, 4, "x")], &offsets), "its second byte");
        assert!(touches(&[edit(0, 3, "")], &offsets), "its first byte");
        assert!(!touches(&[edit(4, 5, "%20")], &offsets));
        assert!(
            !touches(&[edit(9, 9, "<")], &offsets),
            "an insertion before it"
        );
        let groups = vec![
            vec![edit(0, 1, "abc")],
            vec![edit(5, 6, ""), edit(9, 9, "<")],
        ];
        assert_eq!(shifted(&offsets, &groups), vec![4, 11]);
        assert_eq!(shifted(&offsets, &[]), offsets.to_vec());
    }

    #[test]
    fn conflicts_are_shared_bytes_inner_insertions_and_equal_insertions() {
        let cases = [
            ((0, 2), (1, 3), true),
            ((0, 2), (2, 4), false),
            ((1, 1), (0, 2), true),
            ((0, 0), (0, 2), false),
            ((2, 2), (0, 2), false),
            ((3, 3), (3, 3), true),
            ((3, 3), (4, 4), false),
        ];
        for ((a0, a1), (b0, b1), expected) in cases {
            let (a, b) = (SourceSpan::new(a0, a1), SourceSpan::new(b0, b1));
            assert_eq!(conflicts(a, b), expected, "{a:?} {b:?}");
            assert_eq!(conflicts(b, a), expected, "{b:?} {a:?}");
        }
    }

    #[test]
    fn the_earliest_group_wins_and_a_group_is_taken_whole() {
        let groups = vec![
            vec![edit(4, 6, "X")],
            vec![edit(0, 2, "A"), edit(5, 5, "B")],
            vec![edit(1, 3, "C")],
            vec![edit(8, 9, "D")],
        ];
        let chosen = non_overlapping(groups);
        assert_eq!(
            chosen,
            vec![
                vec![edit(0, 2, "A"), edit(5, 5, "B")],
                vec![edit(8, 9, "D")]
            ]
        );
    }

    #[test]
    fn edits_apply_in_text_order() {
        let text = "abcdefghij";
        let groups = vec![
            vec![edit(8, 10, "")],
            vec![edit(2, 2, "+"), edit(2, 4, "CD")],
        ];
        assert_eq!(apply(text, &groups), "ab+CDefgh");
    }
}
