//! Where a fix lands in the source: the one place that turns a fix, whose
//! span may index the joined URL, into edits of the source bytes.
//!
//! A validator fix replaces a span of the joined URL. The span is first
//! narrowed to what really changes (the common head and tail of the old and
//! new text are left alone), then mapped through the URL's segments. A
//! change inside one line piece is one edit. A change across a line break
//! of a wrapped URL is split so that the break, the leader and the
//! indentation of the next line stay where they are: a replacement as long
//! as what it replaces is cut where the pieces are cut (`HT`+`TP` becomes
//! `ht`+`tp`), and so is one that percent-encodes every character (`~`+`~`
//! becomes `%7E`+`%7E`); any other goes into the first piece, and the
//! later pieces lose their old text.
//!
//! A piece of a URL that the markup decoded (an HTML character reference
//! such as `&#126;`, a Markdown escape such as `\~`) has no source bytes of
//! its own characters: a fix that touches it replaces the whole reference
//! or escape (`&#126;` becomes `%7E`), and a fix of part of a piece that
//! reads as several characters writes the others out with it, never over
//! bytes it does not describe. Text around a decoded piece is copied, so a
//! fix there lands on its own bytes.
//!
//! In reStructuredText a fix in a grid table's cell keeps the cell's
//! right border in its column (see `table.rs`), or is refused.
//!
//! A replacement is written so that the markup reads it back as the same
//! characters. In HTML, `&`, `<`, `>` and quotes become character
//! references (`<URL:` in HTML text is written `&lt;URL:`); whitespace,
//! which would end an unquoted attribute value, is refused. Markdown and
//! reStructuredText have no escape that works everywhere (none inside
//! code, a backslash is literal in an autolink, a reStructuredText page
//! may hold raw HTML), so a replacement holding `&`, `<`, `>`, a quote, a
//! backslash, a backtick or whitespace is refused there. Fixes
//! percent-encode, so only the suggestion to wrap a URL in `<URL:...>` is
//! ever refused or re-encoded. A scanner fix in any markup replaces
//! its whole span: its source bytes may hold references that its
//! replacement, written in the decoded text, spells differently.

use std::borrow::Cow;
use std::fmt;

use super::edit::{Edit, EditGroup};
use super::table::aligned;
use crate::diagnostic::Fix;
use crate::lint::{At, Finding, UrlReport};
use crate::markup::{self, FixWriting};
use crate::scan::Found;
use crate::source::Markup;
use crate::span::{SourceSpan, Span, UrlSpan};

/// Why a fix could not be placed in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unplaced {
    /// The fix's span is outside the text or not on character boundaries.
    OutOfText,
    /// The URL text under the fix is neither a copy of its source bytes
    /// nor a whole decoded piece.
    Decoded,
    /// The replacement holds characters the markup would read as its own
    /// syntax and that cannot be escaped there.
    Markup,
    /// The fix makes a line of a reStructuredText grid table's cell longer
    /// than its padding allows.
    TableCell,
    /// The fix would change a byte of a file that is not valid UTF-8 (read
    /// as a Latin-1 character), which could then not be written back as it was.
    #[cfg(feature = "cli")]
    NotUtf8,
}

impl fmt::Display for Unplaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unplaced::OutOfText => "the fix does not lie on the text's characters",
            Unplaced::Decoded => {
                "the URL text under the fix is not what the source shows there \
                 (it was decoded from it), so the fix has no source bytes to replace"
            }
            #[cfg(feature = "cli")]
            Unplaced::NotUtf8 => {
                "the fix would change a byte that is not valid UTF-8 (read as Latin-1); \
                 such bytes are kept exactly as they are"
            }
            Unplaced::TableCell => {
                "the fix would make a line of a reStructuredText grid table's cell \
                 wider than its padding allows, and the table's borders would no \
                 longer line up"
            }
            Unplaced::Markup => {
                "the replacement holds characters that Markdown or reStructuredText \
                 would read as markup (or whitespace, which would end an HTML attribute \
                 value)"
            }
        })
    }
}

/// The source edits that apply `finding`'s fix in `text`, the text that
/// `report` was linted from, written in `markup` (none for a fix that
/// changes nothing); `None` when the finding has no fix.
pub(crate) fn place(
    text: &str,
    markup: Markup,
    report: &UrlReport,
    finding: &Finding,
) -> Option<Result<EditGroup, Unplaced>> {
    let fix = finding.diagnostic.fix.as_ref()?;
    let edits = match finding.at {
        At::Source(span) => in_source(text, markup, span, fix),
        At::Url(url_span) => in_url(text, markup, &report.found, url_span, fix),
    };
    Some(match markup::facts(markup).grid_tables {
        true => edits.and_then(|edits| aligned(text, edits).ok_or(Unplaced::TableCell)),
        false => edits,
    })
}

/// A fix whose span indexes the source already (scanner findings).
fn in_source(
    text: &str,
    markup: Markup,
    span: SourceSpan,
    fix: &Fix,
) -> Result<EditGroup, Unplaced> {
    if !on_boundaries(text, span) {
        return Err(Unplaced::OutOfText);
    }
    // In plain text the source bytes are the finding's own, so the fix
    // may shrink to the bytes it changes; in a markup they may hold its
    // syntax, which the fix replaces whole.
    let (span, replacement) = match markup {
        Markup::Plain => narrowed(&text[span.range()], span, &fix.replacement),
        Markup::Markdown | Markup::Html | Markup::Rst => (span, fix.replacement.as_str()),
    };
    if span.is_empty() && replacement.is_empty() {
        return Ok(Vec::new());
    }
    Ok(vec![Edit {
        span,
        replacement: written_in(markup, replacement)?.into_owned(),
    }])
}

/// A fix whose span indexes the joined URL (validator findings).
fn in_url(
    text: &str,
    markup: Markup,
    found: &Found,
    url_span: UrlSpan,
    fix: &Fix,
) -> Result<EditGroup, Unplaced> {
    let url = &found.url;
    if !on_boundaries(url, url_span) {
        return Err(Unplaced::OutOfText);
    }
    let (url_span, replacement) = narrowed(&url[url_span.range()], url_span, &fix.replacement);
    if url_span.is_empty() && replacement.is_empty() {
        return Ok(Vec::new());
    }
    let (url_span, replacement) = widened(found, url_span, replacement);
    let pieces = match url_span.is_empty() {
        true => vec![insertion_point(found, url_span.start)?],
        false => pieces(text, found, url_span)?,
    };
    if !pieces.iter().all(|piece| on_boundaries(text, piece.source)) {
        return Err(Unplaced::OutOfText);
    }
    split(&pieces, &url[url_span.range()], &replacement)
        .into_iter()
        .map(|edit| {
            Ok(Edit {
                replacement: written_in(markup, &edit.replacement)?.into_owned(),
                ..edit
            })
        })
        .collect()
}

/// `url_span` grown to the whole of each decoded piece it covers only
/// part of, or inserts into, and `replacement` grown by the decoded text
/// of the piece it leaves as it was: a reference that reads as two
/// characters, one of them fixed, is replaced by both (`&bne;`, read as
/// `=` and U+20E5, becomes `=%E2%83%A5`).
fn widened<'r>(found: &Found, url_span: UrlSpan, replacement: &'r str) -> (UrlSpan, Cow<'r, str>) {
    let mut wide = url_span;
    for segment in found.segments.iter().filter(|segment| !segment.is_copied()) {
        let url = segment.url();
        let inside = match url_span.is_empty() {
            true => url.start < url_span.start && url_span.start < url.end,
            false => url.start < url_span.end && url_span.start < url.end,
        };
        if inside {
            wide = UrlSpan::new(wide.start.min(url.start), wide.end.max(url.end));
        }
    }
    let (Some(head), Some(tail)) = (
        found.url.get(wide.start..url_span.start),
        found.url.get(url_span.end..wide.end),
    ) else {
        return (url_span, Cow::Borrowed(replacement));
    };
    match head.is_empty() && tail.is_empty() {
        true => (url_span, Cow::Borrowed(replacement)),
        false => (wide, Cow::Owned(format!("{head}{replacement}{tail}"))),
    }
}

/// Source bytes a fix replaces, and how many URL bytes they give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SourcePiece {
    source: SourceSpan,
    url_len: usize,
}

/// The source pieces that give the URL bytes `url_span` (not empty): a
/// copied run's own bytes, a decoded piece whole (refused when `url_span`
/// covers only part of it, which [`widened`] prevents); pieces that follow
/// each other in the source are one.
fn pieces(text: &str, found: &Found, url_span: UrlSpan) -> Result<Vec<SourcePiece>, Unplaced> {
    let mut pieces: Vec<SourcePiece> = Vec::new();
    let mut covered = 0;
    for segment in &found.segments {
        let url = segment.url();
        let (start, end) = (url_span.start.max(url.start), url_span.end.min(url.end));
        if start >= end {
            continue;
        }
        let source = if segment.is_copied() {
            let source = SourceSpan::new(
                segment.source.start + (start - url.start),
                segment.source.start + (end - url.start),
            );
            if text.get(source.range()) != found.url.get(start..end) {
                return Err(Unplaced::Decoded);
            }
            source
        } else if start == url.start && end == url.end {
            segment.source
        } else {
            return Err(Unplaced::Decoded);
        };
        covered += end - start;
        match pieces.last_mut() {
            Some(last) if last.source.end == source.start => {
                last.source.end = source.end;
                last.url_len += end - start;
            }
            _ => pieces.push(SourcePiece {
                source,
                url_len: end - start,
            }),
        }
    }
    if covered != url_span.len() {
        return Err(Unplaced::OutOfText);
    }
    Ok(pieces)
}

/// Where an insertion at URL offset `at` goes in the source: after the
/// copied or decoded piece that ends there (so a break stays after it),
/// else at the start of the one that begins there; refused inside a
/// decoded piece (which [`widened`] prevents). A URL with no segments (an
/// empty wrapper) takes the insertion at its start.
fn insertion_point(found: &Found, at: usize) -> Result<SourcePiece, Unplaced> {
    let point = |offset: usize| SourcePiece {
        source: SourceSpan::new(offset, offset),
        url_len: 0,
    };
    if found.segments.is_empty() {
        return Ok(point(found.outer.start));
    }
    for segment in &found.segments {
        let url = segment.url();
        if at < url.start || at > url.end {
            continue;
        }
        return match (segment.is_copied(), at) {
            (true, _) => Ok(point(segment.source.start + (at - url.start))),
            (false, at) if at == url.start => Ok(point(segment.source.start)),
            (false, at) if at == url.end => Ok(point(segment.source.end)),
            (false, _) => Err(Unplaced::Decoded),
        };
    }
    Err(Unplaced::OutOfText)
}

/// One edit per piece, `old` being the URL text the pieces give: each
/// piece's own part of `replacement` when it is as long as `old` (cut
/// where the pieces are cut) or when it percent-encodes every character
/// of `old` (each piece gets the encoding of its own characters, so a run
/// `~~` broken over a line stays broken there); otherwise all of it in the
/// first piece and nothing in the others.
fn split(pieces: &[SourcePiece], old: &str, replacement: &str) -> EditGroup {
    let mut parts: Vec<&str> = Vec::with_capacity(pieces.len());
    let mut at = 0;
    for piece in pieces {
        parts.push(old.get(at..at + piece.url_len).unwrap_or_default());
        at += piece.url_len;
    }
    let encoded: Vec<String> = parts.iter().map(|part| percent_encoded(part)).collect();
    let news: Vec<Cow<'_, str>> = match cut_like(replacement, &parts) {
        Some(cut) if old.len() == replacement.len() => cut.into_iter().map(Cow::Borrowed).collect(),
        _ if encoded.concat() == replacement => encoded.into_iter().map(Cow::Owned).collect(),
        _ => (0..pieces.len())
            .map(|index| Cow::Borrowed(if index == 0 { replacement } else { "" }))
            .collect(),
    };
    pieces
        .iter()
        .zip(news)
        .map(|(piece, new)| Edit {
            span: piece.source,
            replacement: new.into_owned(),
        })
        .collect()
}

/// `text` cut into parts as long as `lengths_of`'s, on its character
/// boundaries; `None` when a cut falls inside a character.
fn cut_like<'t>(text: &'t str, lengths_of: &[&str]) -> Option<Vec<&'t str>> {
    let mut at = 0;
    lengths_of
        .iter()
        .map(|part| {
            let piece = text.get(at..at + part.len())?;
            at += part.len();
            Some(piece)
        })
        .collect()
}

/// Every octet of `text` as `%XX`.
fn percent_encoded(text: &str) -> String {
    text.bytes().map(|byte| format!("%{byte:02X}")).collect()
}

/// `replacement` as `markup` must spell it to read it back as the same
/// characters: unchanged in plain text; in HTML with `&`, `<`, `>` and
/// quotes as character references; refused where that is not possible.
fn written_in(markup: Markup, replacement: &str) -> Result<Cow<'_, str>, Unplaced> {
    let refused = |specials: &[char]| {
        replacement
            .chars()
            .any(|c| specials.contains(&c) || c.is_whitespace())
    };
    match markup::facts(markup).fix_writing {
        FixWriting::AsItIs => Ok(Cow::Borrowed(replacement)),
        FixWriting::WithoutSpecials if refused(&['&', '\\', '<', '>', '"', '\'', '`']) => {
            Err(Unplaced::Markup)
        }
        FixWriting::WithoutSpecials => Ok(Cow::Borrowed(replacement)),
        FixWriting::CharacterReferences if refused(&[]) => Err(Unplaced::Markup),
        FixWriting::CharacterReferences => Ok(with_character_references(replacement)),
    }
}

/// `text` with `&`, `<`, `>` and quotes written as HTML character
/// references.
fn with_character_references(text: &str) -> Cow<'_, str> {
    let reference = |c: char| match c {
        '&' => Some("&amp;"),
        '<' => Some("&lt;"),
        '>' => Some("&gt;"),
        '"' => Some("&quot;"),
        '\'' => Some("&#39;"),
        _ => None,
    };
    if !text.contains(|c| reference(c).is_some()) {
        return Cow::Borrowed(text);
    }
    let mut written = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match reference(c) {
            Some(escaped) => written.push_str(escaped),
            None => written.push(c),
        }
    }
    Cow::Owned(written)
}

/// The part of `span` (whose text is `old`) that `new` really changes, and
/// what replaces it: the common head and tail are left out, on character
/// boundaries.
fn narrowed<'n, In>(old: &str, span: Span<In>, new: &'n str) -> (Span<In>, &'n str) {
    let head = common_head(old, new);
    let tail = common_tail(&old[head..], &new[head..]);
    let narrowed = Span::new(span.start + head, span.end - tail);
    (narrowed, &new[head..new.len() - tail])
}

/// Bytes of the longest common prefix of `a` and `b`, on a character boundary.
fn common_head(a: &str, b: &str) -> usize {
    a.char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((at, _), _)| at)
}

/// Bytes of the longest common suffix of `a` and `b`, on a character boundary.
fn common_tail(a: &str, b: &str) -> usize {
    a.chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum()
}

/// True when `span` lies in `text` on character boundaries.
fn on_boundaries<In>(text: &str, span: Span<In>) -> bool {
    span.start <= span.end && text.get(span.range()).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Applicability, Diagnostic, Fix};
    use crate::rules::Rule;
    use crate::scan::{Form, Found, Segment};

    /// A URL joined from `runs` of `text`, with one validator finding at
    /// `url_span` whose fix is `replacement`.
    fn url_report(
        text: &str,
        runs: &[(usize, usize)],
        url_span: UrlSpan,
        replacement: &str,
    ) -> UrlReport {
        let mut url = String::new();
        let segments = runs
            .iter()
            .map(|&(start, end)| {
                let segment = Segment::copied(Span::new(start, end), url.len());
                url.push_str(&text[start..end]);
                segment
            })
            .collect();
        let found = Found {
            url,
            form: Form::Wrapped,
            outer: Span::new(0, text.len()),
            segments,
            alternatives: Vec::new(),
            diagnostics: Vec::new(),
            joins: Vec::new(),
        };
        let diagnostic = Diagnostic::new(Rule::SchemeCase, url_span.of(), "m")
            .with_fix(replacement, Applicability::MachineApplicable);
        let finding = Finding::in_url(diagnostic, &found);
        UrlReport {
            found,
            findings: vec![finding],
            template: None,
        }
    }

    fn placed(text: &str, report: &UrlReport) -> Result<Vec<(String, String)>, Unplaced> {
        placed_in(Markup::Plain, text, report)
    }

    fn placed_in(
        markup: Markup,
        text: &str,
        report: &UrlReport,
    ) -> Result<Vec<(String, String)>, Unplaced> {
        let edits = place(text, markup, report, &report.findings[0]).expect("has a fix")?;
        Ok(edits
            .into_iter()
            .map(|edit| (text[edit.span.range()].to_string(), edit.replacement))
            .collect())
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn appendix_a_fix_across_a_line_break_keeps_the_break() {
        // "<URL:HT\n   TP://a.example/>": the scheme is split by the break.
        let text = "<URL:HT\n   TP://a.example/>";
        let report = url_report(text, &[(5, 7), (11, 26)], Span::new(0, 4), "http");
        assert_eq!(
            placed(text, &report),
            Ok(pairs(&[("HT", "ht"), ("TP", "tp")]))
        );
    }

    #[test]
    fn a_longer_replacement_goes_into_the_first_piece() {
        // A port ":21" broken as ":2" / "1": removed from both lines.
        let text = "<URL:file://h:2\n  1/x>";
        let report = url_report(text, &[(5, 15), (18, 21)], Span::new(8, 11), "");
        assert_eq!(placed(text, &report), Ok(pairs(&[(":2", ""), ("1", "")])));
        // "?" -> "/?" narrows to an insertion before the '?'.
        let text = "<URL:http://h?\n  q>";
        let report = url_report(text, &[(5, 14), (17, 18)], Span::new(8, 9), "/?");
        assert_eq!(placed(text, &report), Ok(pairs(&[("", "/")])));
    }

    #[test]
    fn a_run_encoded_across_a_line_break_is_encoded_on_each_line() {
        // "~~" broken as "~" / "~": each line keeps its own character.
        let text = "<URL:http://h/a~\n   ~b>";
        let report = url_report(text, &[(5, 16), (20, 22)], Span::new(10, 12), "%7E%7E");
        assert_eq!(
            placed(text, &report),
            Ok(pairs(&[("~", "%7E"), ("~", "%7E")]))
        );
    }

    #[test]
    fn unchanged_head_and_tail_are_left_alone() {
        let text = "<URL:HTTP://a/>";
        let report = url_report(text, &[(5, 14)], Span::new(0, 4), "hTTP");
        assert_eq!(placed(text, &report), Ok(pairs(&[("H", "h")])));
    }

    /// `text` as an HTML attribute value from `start`: each `&#NNN;`
    /// decoded, everything else copied, with one fix of `url_span`.
    fn attribute_report(
        text: &str,
        start: usize,
        url_span: UrlSpan,
        replacement: &str,
    ) -> UrlReport {
        let mut report = url_report(text, &[], url_span, replacement);
        let (mut url, mut segments, mut at) = (String::new(), Vec::new(), start);
        while at < text.len() {
            let rest = &text[at..];
            let reference = rest
                .strip_prefix("&#")
                .and_then(|digits| digits.split_once(';'))
                .and_then(|(digits, _)| Some((digits.len() + 3, digits.parse::<u32>().ok()?)))
                .and_then(|(len, code)| Some((len, char::from_u32(code)?)));
            match reference {
                Some((len, decoded)) => {
                    let url_at = Span::new(url.len(), url.len() + decoded.len_utf8());
                    segments.push(Segment::decoded(Span::new(at, at + len), url_at));
                    url.push(decoded);
                    at += len;
                }
                None => {
                    let len = rest.find("&#").unwrap_or(rest.len()).max(1);
                    segments.push(Segment::copied(Span::new(at, at + len), url.len()));
                    url.push_str(&rest[..len]);
                    at += len;
                }
            }
        }
        report.found.url = url;
        report.found.segments = segments;
        report.findings[0].source_spans = report.found.source_spans(url_span);
        report
    }

    #[test]
    fn a_fix_of_a_decoded_reference_replaces_the_whole_reference() {
        // `href="http://h/a&#126;b"` reads as the URL "http://h/a~b".
        let text = "<a href=\"http://h/a&#126;b\">";
        let report = attribute_report(&text[..text.len() - 2], 9, Span::new(10, 11), "%7E");
        assert_eq!(report.found.url, "http://h/a~b");
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Ok(pairs(&[("&#126;", "%7E")]))
        );
        // A fix over copied bytes and a reference takes both.
        let text = "&#72;TTP://h/";
        let report = attribute_report(text, 0, Span::new(0, 4), "http");
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Ok(pairs(&[("&#72;TTP", "http")]))
        );
    }

    #[test]
    fn a_fix_beside_a_reference_lands_on_its_own_bytes() {
        // "http://h/~a?x=1&#38;y=2": the '~' is copied, the '&' decoded.
        let text = "http://h/~a?x=1&#38;y=2";
        let report = attribute_report(text, 0, Span::new(9, 10), "%7E");
        assert_eq!(report.found.url, "http://h/~a?x=1&y=2");
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Ok(pairs(&[("~", "%7E")]))
        );
        // An insertion next to a reference goes beside it, never inside.
        let report = attribute_report(text, 0, Span::new(16, 16), "/");
        let edits = place(text, Markup::Html, &report, &report.findings[0]);
        assert_eq!(
            edits.and_then(Result::ok).map(|edits| edits[0].span),
            Some(Span::new(20, 20))
        );
    }

    #[test]
    fn a_fix_of_part_of_a_decoded_piece_replaces_the_whole_piece() {
        // `&bne;` reads as "=" and U+20E5; a fix of the second character
        // alone has no source bytes of its own, so the whole reference is
        // replaced by the first character and the fix.
        let text = "http://h/&bne;b";
        let mut report = url_report(text, &[(0, 9)], Span::new(10, 13), "%E2%83%A5");
        report.found.url = "http://h/=\u{20E5}b".to_string();
        report.found.segments.extend([
            Segment::decoded(Span::new(9, 14), Span::new(9, 13)),
            Segment::copied(Span::new(14, 15), 13),
        ]);
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Ok(pairs(&[("&bne;", "=%E2%83%A5")]))
        );
        // So does an insertion between the two characters.
        report.findings[0].at = At::Url(Span::new(10, 10));
        report.findings[0].diagnostic.fix = Some(Fix {
            replacement: "/".to_string(),
            applicability: Applicability::MachineApplicable,
        });
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Ok(pairs(&[("&bne;", "=/\u{20E5}")]))
        );
        // In Markdown the piece's own text must be writable there too: a
        // reference that reads as '&' and another character stays whole.
        let text = "http://h/&amp;~";
        let mut report = url_report(text, &[(0, 9)], Span::new(10, 11), "%7E");
        report.found.url = "http://h/&~".to_string();
        report
            .found
            .segments
            .push(Segment::decoded(Span::new(9, 15), Span::new(9, 11)));
        assert_eq!(
            placed_in(Markup::Markdown, text, &report),
            Err(Unplaced::Markup)
        );
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Ok(pairs(&[("&amp;~", "&amp;%7E")]))
        );
    }

    #[test]
    fn markdown_never_gets_a_replacement_it_would_read_as_syntax() {
        // Fixes percent-encode and never write these; a replacement that
        // did would start a reference, an autolink or a code span, or end
        // a destination.
        let text = "http://h/a~b";
        for replacement in ["&amp;", "%7E&", "<x>", "\"", "a b", "\\~", "`"] {
            let report = url_report(text, &[(0, 12)], Span::new(10, 11), replacement);
            assert_eq!(
                placed_in(Markup::Markdown, text, &report),
                Err(Unplaced::Markup),
                "{replacement:?}"
            );
            assert!(placed_in(Markup::Plain, text, &report).is_ok());
        }
    }

    #[test]
    fn html_gets_references_for_its_syntax_characters() {
        let text = "http://h/a~b";
        let cases = [
            ("%7E", "%7E"),
            ("<&>", "&lt;&amp;&gt;"),
            ("\"'", "&quot;&#39;"),
            ("\\`", "\\`"),
        ];
        for (replacement, written) in cases {
            let report = url_report(text, &[(0, 12)], Span::new(10, 11), replacement);
            assert_eq!(
                placed_in(Markup::Html, text, &report),
                Ok(pairs(&[("~", written)])),
                "{replacement:?}"
            );
        }
        // Whitespace would end an unquoted attribute value.
        let report = url_report(text, &[(0, 12)], Span::new(10, 11), "a b");
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Err(Unplaced::Markup)
        );
    }

    #[test]
    fn a_url_in_html_text_is_wrapped_with_references() {
        // The bare-url suggestion over `http://h/?a=1&amp;b`, whose URL
        // reads "http://h/?a=1&b": the whole span is replaced, spelled as
        // HTML.
        let text = "see http://h/?a=1&amp;b now";
        let mut report = url_report(text, &[(4, 23)], Span::new(0, 0), "");
        report.found.url = "http://h/?a=1&b".to_string();
        report.found.outer = Span::new(4, 23);
        let finding = &mut report.findings[0];
        finding.at = At::Source(Span::new(4, 23));
        finding.diagnostic.span = Span::new(4, 23);
        finding.diagnostic.fix = Some(Fix {
            replacement: "<URL:http://h/?a=1&b>".to_string(),
            applicability: Applicability::Suggestion,
        });
        assert_eq!(
            placed_in(Markup::Html, text, &report),
            Ok(pairs(&[(
                "http://h/?a=1&amp;b",
                "&lt;URL:http://h/?a=1&amp;b&gt;"
            )]))
        );
        assert_eq!(
            placed_in(Markup::Markdown, text, &report),
            Err(Unplaced::Markup)
        );
    }
}
