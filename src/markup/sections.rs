//! Where a Markdown document's block structure starts afresh, so that the
//! sections between those places each read alone as they read in the whole
//! document, and one with no URL syntax need not be read at all.
//!
//! CommonMark closes every open block at a line that starts in its first
//! column after a blank line: the blank line ends a paragraph, a table and
//! an HTML block of kinds 6 and 7 (section 4.6) and leaves no lazy
//! continuation, and a line that is not indented is no list item's
//! content, no indented code and, without its `>`, no block quote's.
//! Three things are left open past such a line, and this module follows
//! them line by line:
//!
//! - a list, when the line is its next item's marker: no section starts at
//!   one, since the list's looseness and numbering are the whole list's;
//! - a fenced code block (section 4.5) and an HTML block of kinds 1 to 5,
//!   which end at a line of their own, when they are the document's own
//!   blocks. Those inside a list item or a block quote end with it.
//!
//! A fence or HTML block indented by one to three columns after a list
//! item's marker may be the item's or the document's own; it is followed
//! as long as both readings agree on where it ends.
//!
//! A reference in one section may use a definition in another; the reader
//! of the sections sees to that ([`super::markdown::document_runs`]).
//! Whatever the following here cannot be sure of (a line that ends a
//! block in one of those readings only, or a fence or HTML block opening
//! after a line that HTML or a table may claim) ends the cutting: the rest
//! of the document is one section. A document with a line break that is a
//! lone `\r`, which pulldown-cmark takes for one in some places and not in
//! others, is not cut at all.

/// The places where a Markdown document's block structure starts afresh,
/// in order: each the start of a line that begins a section, up to the
/// first after `through` (the rest of the document is then one section).
/// Empty when the document is one section.
pub(crate) fn fresh_starts(source: &str, through: usize) -> Vec<usize> {
    let bytes = source.as_bytes();
    if has_lone_carriage_return(bytes) {
        return Vec::new();
    }
    let mut follower = Follower::default();
    let mut starts = Vec::new();
    let mut line_start = 0;
    for line_end in LineEnds::new(bytes).chain([bytes.len()]) {
        if line_start >= bytes.len() {
            break;
        }
        match follower.line(bytes, line_start, line_end) {
            Step::Fresh if line_start > through => {
                starts.push(line_start);
                break;
            }
            Step::Fresh if line_start > 0 => starts.push(line_start),
            Step::Unsure => break,
            _ => {}
        }
        line_start = line_end + 1;
    }
    starts
}

/// True when a `\r` ends a line without a `\n`: pulldown-cmark takes it
/// for a line break in some places and not in others (a fence's info
/// string runs to the next `\n`), so no part of such a document reads
/// alone as in the whole for sure.
pub(super) fn has_lone_carriage_return(bytes: &[u8]) -> bool {
    memchr::memchr_iter(b'\r', bytes).any(|at| bytes.get(at + 1) != Some(&b'\n'))
}

/// The places of the `\n`s of a text, in order.
///
/// Found 64 bytes at a time as a bit mask, eight bytes to a word: lines of
/// prose are a few dozen bytes long, too short for a `memchr` call per line
/// to pay.
struct LineEnds<'b> {
    bytes: &'b [u8],
    /// Where the block of `mask` starts.
    block: usize,
    /// The `\n`s of the block not yet given, one bit each.
    mask: u64,
}

impl<'b> LineEnds<'b> {
    /// The line ends of `bytes`, from its start.
    fn new(bytes: &'b [u8]) -> Self {
        LineEnds {
            bytes,
            block: 0,
            mask: newline_mask(bytes),
        }
    }
}

impl Iterator for LineEnds<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.block += 64;
            if self.block >= self.bytes.len() {
                return None;
            }
            self.mask = newline_mask(&self.bytes[self.block..]);
        }
        let at = self.block + self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(at)
    }
}

/// One bit for each `\n` among the first 64 bytes of `bytes`.
fn newline_mask(bytes: &[u8]) -> u64 {
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; 8]);
    let Some(block) = bytes.first_chunk::<64>() else {
        return bytes.iter().enumerate().fold(0, |mask, (at, &byte)| {
            mask | (u64::from(byte == b'\n') << at)
        });
    };
    (0..8).fold(0, |mask, index| {
        let word = u64::from_le_bytes(std::array::from_fn(|byte| block[8 * index + byte]));
        mask | (zero_bytes(word ^ NEWLINES) << (8 * index))
    })
}

/// One bit for each zero byte of `word`, the first byte's lowest.
fn zero_bytes(word: u64) -> u64 {
    const LOW_SEVEN: u64 = u64::from_ne_bytes([0x7f; 8]);
    // 0x80 in each zero byte and nowhere else, with no carry between bytes.
    let high_bits = !(((word & LOW_SEVEN) + LOW_SEVEN) | word | LOW_SEVEN);
    // Each byte's bit, moved down to the byte's first bit, then gathered
    // into the top byte by one multiplication.
    ((high_bits >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// What one line tells of the document's block structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// The structure starts afresh at this line.
    Fresh,
    /// Nothing is certain from this line on.
    Unsure,
    /// Neither: the structure goes on.
    Other,
}

/// A block that goes on past blank lines until a line ends it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// A fenced code block: its fence's character and length.
    Fence(u8, usize),
    /// An HTML block of kinds 1 to 5: the text its last line holds.
    Html(&'static [u8]),
}

/// What is open of the document's block structure past blank lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    /// Nothing that goes on past blank lines.
    Nothing,
    /// A block of the document's own.
    Own(Block),
    /// A block opened with one to three columns of indentation where a
    /// list item may be open, whose content it may be
    /// ([`Follower::maybe_nested`]).
    MaybeNested(Nested),
}

/// A fenced code or HTML block that may be a list item's or the
/// document's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Nested {
    /// The block, as if it were the document's own.
    block: Block,
    /// The columns of indentation of its opening line.
    indent: usize,
}

/// The line state the follower keeps between lines.
#[derive(Debug, Clone, Copy)]
struct Follower {
    /// What goes on past blank lines: nothing, a block of the document's
    /// own, or one that may be a list item's.
    open: Open,
    /// The previous line was blank (or there was none).
    after_blank: bool,
    /// No list item, block quote or footnote may be open: a fence or HTML
    /// block indented by one to three columns is the document's own.
    outside_containers: bool,
    /// Where the lines start that may claim a fence or HTML block opening
    /// ([`claims`]): after the last blank line and the last block of the
    /// document's own.
    claims_from: usize,
}

impl Default for Follower {
    fn default() -> Self {
        Follower {
            open: Open::Nothing,
            after_blank: true,
            outside_containers: true,
            claims_from: 0,
        }
    }
}

impl Follower {
    /// Take in the line of `bytes` from `start` to `end` (its `\n`).
    fn line(&mut self, bytes: &[u8], start: usize, end: usize) -> Step {
        // Most lines are prose: a line that starts with a letter is no
        // blank line, block opening, container marker or fence.
        let plain = bytes[start].is_ascii_alphabetic() || bytes[start] >= 0x80;
        if plain && matches!(self.open, Open::Nothing | Open::Own(Block::Fence(..))) {
            let fresh = self.after_blank && self.open == Open::Nothing;
            self.outside_containers |= fresh;
            self.after_blank = false;
            return if fresh { Step::Fresh } else { Step::Other };
        }
        let line = &bytes[start..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let next_line = end + 1;
        let step = match self.open {
            Open::Own(block) => {
                let ends = match block {
                    Block::Fence(fence, len) => closes_fence(line, fence, len),
                    Block::Html(end) => memchr::memmem::find(line, end).is_some(),
                };
                if ends {
                    self.open = Open::Nothing;
                    self.claims_from = next_line;
                }
                Step::Other
            }
            Open::MaybeNested(nested) => self.maybe_nested(nested, line, next_line),
            Open::Nothing => self.outside_blocks(bytes, start, line, next_line),
        };
        self.after_blank = is_blank(line);
        step
    }

    /// The `line` at `start` read with no fenced code or HTML block of the
    /// document's own open.
    fn outside_blocks(
        &mut self,
        bytes: &[u8],
        start: usize,
        line: &[u8],
        next_line: usize,
    ) -> Step {
        if is_blank(line) {
            self.claims_from = next_line;
            return Step::Other;
        }
        let (indent, content) = indentation(line);
        let marker = is_list_marker(content);
        let fresh = self.after_blank && indent == 0 && !marker;
        self.outside_containers |= fresh;
        if indent < 4 && (marker || content.first() == Some(&b'>') || content.starts_with(b"[^")) {
            self.outside_containers = false;
        }
        let opened = if indent < 4 {
            fence_opening(content)
                .map(|(fence, len)| Block::Fence(fence, len))
                .or_else(|| html_block_end(content).map(Block::Html))
        } else {
            // Indented code, or a paragraph's continuation.
            None
        };
        if let Some(block) = opened {
            if claims(&bytes[self.claims_from..start]) {
                return Step::Unsure;
            }
            match block {
                Block::Html(end) if memchr::memmem::find(content, end).is_some() => {
                    self.claims_from = next_line;
                }
                _ if indent > 0 && !self.outside_containers => {
                    self.open = Open::MaybeNested(Nested { block, indent });
                }
                _ => self.open = Open::Own(block),
            }
        }
        if fresh {
            Step::Fresh
        } else {
            Step::Other
        }
    }
}

impl Follower {
    /// A line of a block that may be a list item's (with the content's
    /// columns of indentation at most the block's opening line's) or the
    /// document's own. Either way the block goes on while each line is
    /// blank or indented as far as its opening line; it ends, either way,
    /// at a line that ends it as the document's own. Any other line may
    /// end the item, and the block with it, or not: unsure.
    fn maybe_nested(&mut self, nested: Nested, line: &[u8], next_line: usize) -> Step {
        if is_blank(line) {
            return Step::Other;
        }
        let (indent, content) = indentation(line);
        if indent < nested.indent {
            return Step::Unsure;
        }
        let ends = match nested.block {
            Block::Fence(fence, len) => {
                let closing = is_closing_run(content, fence, len);
                if closing && indent >= 4 && indent <= nested.indent + 3 {
                    // A closing fence to the item, not to the document.
                    return Step::Unsure;
                }
                closing && indent < 4
            }
            Block::Html(end) => memchr::memmem::find(line, end).is_some(),
        };
        if ends {
            self.open = Open::Nothing;
            self.claims_from = next_line;
        }
        Step::Other
    }
}

/// True when the `lines` before a fence or HTML block opening, since the
/// last blank line, may claim it: a line that opens with `<` may be HTML
/// of kind 6 or 7 and one that holds `|` a table row, in which the opening
/// is text; it would interrupt a paragraph.
fn claims(lines: &[u8]) -> bool {
    memchr::memchr(b'|', lines).is_some()
        || lines
            .split(|&byte| byte == b'\n')
            .any(|line| indentation(line).1.first() == Some(&b'<'))
}

/// True for the whitespace pulldown-cmark skips within a line: space, tab,
/// vertical tab and form feed.
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | 0x0b | 0x0c)
}

/// True for a blank line: spaces and tabs only. pulldown-cmark takes a
/// vertical tab or form feed for a blank in some places and not in others,
/// so a line holding one is not blank here.
fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&byte| byte == b' ' || byte == b'\t')
}

/// A line's indentation in columns (a tab reaching the next multiple of
/// four) and what follows it.
fn indentation(line: &[u8]) -> (usize, &[u8]) {
    let mut column = 0;
    for (at, &byte) in line.iter().enumerate() {
        match byte {
            b' ' => column += 1,
            b'\t' => column += 4 - column % 4,
            _ => return (column, &line[at..]),
        }
    }
    (column, &[])
}

/// True when `content` opens with a list item's marker (CommonMark 5.2): a
/// bullet, or one to nine digits and `.` or `)`, then a space, a tab or
/// the line's end. Read generously: the marker of an item that cannot
/// interrupt a paragraph still counts.
fn is_list_marker(content: &[u8]) -> bool {
    let digits = content.iter().take_while(|b| b.is_ascii_digit()).count();
    let marker_len = match content.first() {
        Some(b'-' | b'+' | b'*') => 1,
        Some(b'0'..=b'9') if digits <= 9 && matches!(content.get(digits), Some(b'.' | b')')) => {
            digits + 1
        }
        _ => return false,
    };
    content.get(marker_len).is_none_or(|&next| is_space(next))
}

/// The fence a line opens a fenced code block with (CommonMark 4.5): three
/// or more backticks or tildes, the backticks followed by no backtick.
fn fence_opening(content: &[u8]) -> Option<(u8, usize)> {
    let fence = *content.first().filter(|b| matches!(b, b'`' | b'~'))?;
    let len = content.iter().take_while(|&&b| b == fence).count();
    let info = &content[len..];
    (len >= 3 && !(fence == b'`' && info.contains(&b'`'))).then_some((fence, len))
}

/// True when `line` closes a fenced code block opened with `len` of
/// `fence`: no more than three columns of indentation and a closing run
/// ([`is_closing_run`]).
fn closes_fence(line: &[u8], fence: u8, len: usize) -> bool {
    let (indent, content) = indentation(line);
    indent < 4 && is_closing_run(content, fence, len)
}

/// True when a line's `content` (after its indentation) is a closing
/// fence for `len` of `fence`: at least as long a run of the same
/// character, then spaces only (pulldown-cmark takes no tab there).
fn is_closing_run(content: &[u8], fence: u8, len: usize) -> bool {
    let run = content.iter().take_while(|&&b| b == fence).count();
    run >= len && content[run..].iter().all(|&b| b == b' ')
}

/// The elements whose start opens an HTML block of kind 1, each with the
/// end tag that closes it.
const RAW_TEXT_ELEMENTS: [(&[u8], &[u8]); 4] = [
    (b"pre", b"</pre>"),
    (b"style", b"</style>"),
    (b"script", b"</script>"),
    (b"textarea", b"</textarea>"),
];

/// What ends the HTML block of kinds 1 to 5 that `content`, a line
/// without its line break, opens (CommonMark 4.6): a line that holds it.
///
/// pulldown-cmark, whose reading the sections must keep, looks for the end
/// tag of kind 1 in lower case and for every end in the whole line, the
/// opening included (`<!-->` is a whole comment).
pub(super) fn html_block_end(content: &[u8]) -> Option<&'static [u8]> {
    let tag = content.strip_prefix(b"<")?;
    let raw_text = RAW_TEXT_ELEMENTS.iter().find(|(name, _)| {
        tag.get(..name.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(name))
            && tag
                .get(name.len())
                .is_none_or(|&next| next == b'>' || is_space(next))
    });
    if let Some((_, end)) = raw_text {
        return Some(end);
    }
    if tag.starts_with(b"!--") {
        Some(b"-->")
    } else if tag.starts_with(b"?") {
        Some(b"?>")
    } else if tag.starts_with(b"![CDATA[") {
        Some(b"]]>")
    } else if tag.first() == Some(&b'!') && tag.get(1).is_some_and(u8::is_ascii_alphabetic) {
        Some(b">")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The source's sections, as text.
    fn sections(source: &str) -> Vec<&str> {
        let mut bounds = vec![0];
        bounds.extend(fresh_starts(source, source.len()));
        bounds.push(source.len());
        bounds
            .windows(2)
            .map(|pair| &source[pair[0]..pair[1]])
            .collect()
    }

    #[test]
    fn a_line_in_the_first_column_after_a_blank_line_starts_afresh() {
        assert_eq!(
            sections("# Title\n\nSome text\nmore.\n\n> quoted\n\n    code\n\nEnd\n"),
            [
                "# Title\n\n",
                "Some text\nmore.\n\n",
                "> quoted\n\n    code\n\n",
                "End\n"
            ]
        );
        assert_eq!(sections("a\r\n \t\r\nb\r\n"), ["a\r\n \t\r\n", "b\r\n"]);
        // pulldown-cmark reads a lone carriage return as a line break in
        // some places only.
        assert_eq!(sections("a\r\rb\n\nc"), ["a\r\rb\n\nc"]);
    }

    #[test]
    fn commonmark_5_3_a_list_goes_on_at_its_next_item() {
        assert_eq!(
            sections("- one\n\n- two\n\n1. three\n\n2) four\n\n-not an item\n"),
            [
                "- one\n\n- two\n\n1. three\n\n2) four\n\n",
                "-not an item\n"
            ]
        );
    }

    #[test]
    fn commonmark_4_5_a_fenced_block_goes_on_to_its_closing_fence() {
        // A shorter run, or one of the other character, does not close it;
        // a longer one may, followed by spaces only.
        let source =
            "````rust\nfn main() {}\n\nhttp://in.code/\n```\n\n~~~~\n\n`````  \n\ntext\n\n\
                      ~~~\n\nx\n  ~~~~ \t\n\ny\n   ~~~\n\nafter\n";
        assert_eq!(
            sections(source),
            [
                "````rust\nfn main() {}\n\nhttp://in.code/\n```\n\n~~~~\n\n`````  \n\n",
                "text\n\n",
                "~~~\n\nx\n  ~~~~ \t\n\ny\n   ~~~\n\n",
                "after\n"
            ]
        );
        // Backticks in the info string: an inline code span, not a fence.
        assert_eq!(sections("``` a`b\n\nc\n"), ["``` a`b\n\n", "c\n"]);
        // A fence indented by four is code or text.
        assert_eq!(sections("    ```\n\nc\n"), ["    ```\n\n", "c\n"]);
    }

    #[test]
    fn commonmark_4_6_html_of_kinds_1_to_5_goes_on_to_its_end() {
        for (opening, end) in [
            ("<!-- note", "-->"),
            ("<?php", "?>"),
            ("<!DOCTYPE", ">"),
            ("<![CDATA[", "]]>"),
            ("<PRE class=x", "</pre>"),
            ("<script", "</script>"),
        ] {
            let source = format!("{opening}\n\ninside\n\n{end} x\n\nafter\n");
            assert_eq!(
                sections(&source),
                [&source[..source.len() - 6], "after\n"],
                "{opening}"
            );
        }
        assert_eq!(sections("<!-- a -->\n\nb\n"), ["<!-- a -->\n\n", "b\n"]);
        // pulldown-cmark ends a block on a line holding its end anywhere,
        // and takes the end tag of kind 1 in lower case only.
        assert_eq!(sections("<!-->\n\nx\n"), ["<!-->\n\n", "x\n"]);
        assert_eq!(
            sections("<style>\n\n</STYLE>\n\nx\n"),
            ["<style>\n\n</STYLE>\n\nx\n"]
        );
        // Kinds 6 and 7 end at a blank line.
        assert_eq!(sections("<div>\n\nb\n"), ["<div>\n\n", "b\n"]);
        assert_eq!(sections("<preface>\n\nb\n"), ["<preface>\n\n", "b\n"]);
    }

    #[test]
    fn a_block_inside_a_container_ends_with_it() {
        // An indented fence may be the item's or the document's: its
        // lines read alike either way while they are indented as far.
        assert_eq!(
            sections("* item\n\n  ```rust\n  code\n\n      more\n  ```\n\nafter\n"),
            [
                "* item\n\n  ```rust\n  code\n\n      more\n  ```\n\n",
                "after\n"
            ]
        );
        assert_eq!(
            sections("1. item\n   <!--\n\n   -->\n\nafter\n"),
            ["1. item\n   <!--\n\n   -->\n\n", "after\n"]
        );
        // A line indented less ends the item, and the fence, or not.
        assert_eq!(
            sections("- item\n  ```\n\n  code\n\nafter\n"),
            ["- item\n  ```\n\n  code\n\nafter\n"]
        );
        // A fence that closes it only as the item's.
        assert_eq!(
            sections("- item\n  ```\n      ```\n\nafter\n"),
            ["- item\n  ```\n      ```\n\nafter\n"]
        );
        assert_eq!(
            sections("> ```\n> code\n\nafter\n\n  ```\n\nin code\n```\n\nend\n"),
            [
                "> ```\n> code\n\n",
                "after\n\n  ```\n\nin code\n```\n\n",
                "end\n"
            ]
        );
    }

    #[test]
    fn what_html_or_a_table_may_claim_is_unsure() {
        assert_eq!(
            sections("<div>\n```\n\nx\n\ny\n"),
            ["<div>\n```\n\nx\n\ny\n"]
        );
        assert_eq!(
            sections("a | b\n--|--\n```\n\nx\n"),
            ["a | b\n--|--\n```\n\nx\n"]
        );
    }

    proptest::proptest! {
        #[test]
        fn line_ends_are_every_newline(text in "[a\n\r\u{8a} \u{0}\u{7f}]{0,300}") {
            let bytes = text.as_bytes();
            let found: Vec<usize> = LineEnds::new(bytes).collect();
            let expected: Vec<usize> = memchr::memchr_iter(b'\n', bytes).collect();
            proptest::prop_assert_eq!(found, expected);
        }
    }

    #[test]
    fn definitions_do_not_keep_the_document_whole() {
        assert_eq!(
            sections("[a]\n\ntext\n\n[a]: /x\n"),
            ["[a]\n\n", "text\n\n", "[a]: /x\n"]
        );
    }
}
