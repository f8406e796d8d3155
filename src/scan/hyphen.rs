//! Hyphens at line breaks inside wrappers and inside bare URLs joined across
//! lines (RFC 1738 Appendix): typesetters
//! add hyphens when they break lines, so a `-` before a line break may or may
//! not be the URL's. Both readings are kept; evidence picks the primary one.
//!
//! Evidence, strongest first:
//! 1. host validity: one reading has a host the validator rejects
//!    (`bad-host`, e.g. a label ending in `-`) and the other does not;
//! 2. occurrence: the part of the URL around the break (between `/`, `?`,
//!    `#`, `;`, `&`, `=`, `@` and `:`) appears unbroken within
//!    [`SEARCH_WINDOW`] bytes of the URL in one reading only. A break
//!    crowded by [`CROWDING_BREAKS`] others just before it is not searched.
//!
//! Without evidence the hyphen is kept, as the Appendix asks writers not to
//! break lines after a URL's own hyphen, and a reader must see both readings.

use memchr::memmem;

use super::crowd::Crowd;
use super::found::{join, Alternative};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;

/// Bytes around a URL searched for the other occurrence of a broken part.
pub(crate) const SEARCH_WINDOW: usize = 256 * 1024;

/// A break is searched for occurrence evidence only when fewer than this
/// many breaks lie in the [`SEARCH_WINDOW`] bytes before it. A search reads
/// at most 1 MiB (two parts, each on both sides of the URL), so hyphen-dense
/// text costs at most 64 bytes searched per byte and stays linear; real
/// text is far below the limit (the shared corpus has at most 7 breaks in
/// any 256 KiB). The limit looks only at the text near the break, so a text
/// read whole and one read in windows of any length weigh every break the
/// same.
const CROWDING_BREAKS: usize = 16;

/// A broken part shorter than this is too common to be evidence.
const MIN_PART_LEN: usize = 4;

/// Characters that separate the parts searched for occurrence evidence.
const PART_SEPARATORS: &[u8] = b"/?#;&=@:";

/// Which reading of a hyphen break the URL takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HyphenReading {
    KeepHyphen,
    DropHyphen,
}

/// Why a reading was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Decision {
    reading: HyphenReading,
    evidence: String,
}

/// What the scanner needs to weigh hyphen breaks: the source, the wrapper's
/// extent, the host check and the breaks weighed before.
pub(crate) struct Evidence<'a> {
    /// The whole source text.
    pub(crate) text: &'a str,
    /// The wrapper, whose own bytes are not searched.
    pub(crate) outer: Span,
    /// True when a URL's host is invalid (the validator's `bad-host`).
    pub(crate) host_invalid: &'a dyn Fn(&str) -> bool,
    /// Breaks seen before in this text, by source offset of the hyphen.
    pub(crate) earlier: &'a mut Crowd,
}

/// The hyphen breaks of a text, counted over [`SEARCH_WINDOW`]: a break
/// with [`CROWDING_BREAKS`] or more others in the window before it is not
/// searched (see [`Crowd`]).
pub(crate) fn earlier_breaks() -> Crowd {
    Crowd::new(SEARCH_WINDOW, CROWDING_BREAKS)
}

/// The URL's runs after resolving each hyphen break, with the other reading
/// of each break and a `hyphen-break` finding for each.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Resolved {
    /// Source runs of the chosen reading.
    pub(crate) spans: Vec<Span>,
    /// The reading not chosen, one per break.
    pub(crate) alternatives: Vec<Alternative>,
    /// One `hyphen-break` per break, on the hyphen in the source.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

/// Resolve the breaks after the hyphens at source offsets `hyphens`.
pub(crate) fn resolve(
    mut spans: Vec<Span>,
    hyphens: &[usize],
    evidence: &mut Evidence<'_>,
) -> Resolved {
    let mut resolved = Resolved::default();
    for &hyphen in hyphens {
        let dropped = without_hyphen(&spans, hyphen);
        let keep = join(evidence.text, &spans);
        let drop = join(evidence.text, &dropped);
        let searchable = evidence.earlier.admits(hyphen);
        let decision = decide(
            &keep,
            &drop,
            url_offset(&spans, hyphen),
            searchable,
            evidence,
        );
        // Either fix picks a reading, so it is a suggestion: a kept hyphen
        // is written %2D (the same character, RFC 1738 section 2.2 and RFC
        // 3986 section 2.3), so the line no longer ends with '-'; a dropped
        // one is removed. `urlint fmt` re-breaks the line instead.
        let (other, chosen, fix) = match decision.reading {
            HyphenReading::KeepHyphen => (drop, "keeps", "%2D"),
            HyphenReading::DropHyphen => {
                spans = dropped;
                (keep, "drops", "")
            }
        };
        resolved.diagnostics.push(
            Diagnostic::new(Rule::HyphenBreak, Span::new(hyphen, hyphen + 1), "line break after '-': the hyphen may not be part of the URL")
                .with_help(format!(
                    "RFC 1738 Appendix: typesetters may add a hyphen when breaking a line, so '-' before a line break is ambiguous. \
                     The URL {chosen} the hyphen: {}. The other reading is {other}. Do not break a URL's line after a hyphen",
                    decision.evidence
                ))
                .with_fix(fix, Applicability::Suggestion),
        );
        resolved.alternatives.push(Alternative {
            url: other,
            reason: format!(
                "the line break after '-' read the other way; {}",
                decision.evidence
            ),
        });
    }
    resolved.spans = spans;
    resolved
}

/// Weigh the two readings of one break; `at` is the hyphen's URL offset in
/// `keep`, and the text is searched for occurrences only when `searchable`.
fn decide(
    keep: &str,
    drop: &str,
    at: usize,
    searchable: bool,
    evidence: &Evidence<'_>,
) -> Decision {
    if let Some(decision) = by_host(keep, drop, evidence.host_invalid) {
        return decision;
    }
    if !searchable {
        return Decision {
            reading: HyphenReading::KeepHyphen,
            evidence: format!(
                "{CROWDING_BREAKS} or more other hyphen breaks lie in the {} KiB before it, \
                 so the text was not searched for evidence and the hyphen is kept as written",
                SEARCH_WINDOW / 1024
            ),
        };
    }
    by_occurrence(keep, at, evidence).unwrap_or(Decision {
        reading: HyphenReading::KeepHyphen,
        evidence: "no evidence decided, so the hyphen is kept as written".to_string(),
    })
}

/// Evidence 1: exactly one reading has an invalid host.
fn by_host(keep: &str, drop: &str, host_invalid: &dyn Fn(&str) -> bool) -> Option<Decision> {
    match (host_invalid(keep), host_invalid(drop)) {
        (true, false) => Some(Decision {
            reading: HyphenReading::DropHyphen,
            evidence:
                "with the hyphen the host is invalid (bad-host), without it the host is valid"
                    .to_string(),
        }),
        (false, true) => Some(Decision {
            reading: HyphenReading::KeepHyphen,
            evidence:
                "without the hyphen the host is invalid (bad-host), with it the host is valid"
                    .to_string(),
        }),
        _ => None,
    }
}

/// Evidence 2: the broken part appears unbroken elsewhere in one reading only.
fn by_occurrence(keep: &str, at: usize, evidence: &Evidence<'_>) -> Option<Decision> {
    let bytes = keep.as_bytes();
    let start = bytes[..at]
        .iter()
        .rposition(|b| PART_SEPARATORS.contains(b))
        .map_or(0, |p| p + 1);
    let end = bytes[at..]
        .iter()
        .position(|b| PART_SEPARATORS.contains(b))
        .map_or(bytes.len(), |p| at + p);
    let with = keep.get(start..end)?;
    let without = format!("{}{}", keep.get(start..at)?, keep.get(at + 1..end)?);
    if without.len() < MIN_PART_LEN {
        return None;
    }
    let found_with = occurs_elsewhere(with, evidence);
    let found_without = occurs_elsewhere(&without, evidence);
    let (reading, part) = match (found_with, found_without) {
        (true, false) => (HyphenReading::KeepHyphen, with),
        (false, true) => (HyphenReading::DropHyphen, without.as_str()),
        _ => return None,
    };
    Some(Decision {
        reading,
        evidence: format!("'{part}' appears unbroken elsewhere in the text"),
    })
}

/// Whether `part` occurs near the wrapper but outside it.
fn occurs_elsewhere(part: &str, evidence: &Evidence<'_>) -> bool {
    let text = evidence.text.as_bytes();
    let before = &text[evidence.outer.start.saturating_sub(SEARCH_WINDOW)..evidence.outer.start];
    let after = &text[evidence.outer.end..text.len().min(evidence.outer.end + SEARCH_WINDOW)];
    let finder = memmem::Finder::new(part.as_bytes());
    finder.find(before).is_some() || finder.find(after).is_some()
}

/// Offset in the joined URL of the source byte `source`.
fn url_offset(spans: &[Span], source: usize) -> usize {
    let mut offset = 0;
    for span in spans {
        if span.range().contains(&source) {
            return offset + (source - span.start);
        }
        offset += span.len();
    }
    offset
}

/// The runs without the hyphen at `hyphen` (which ends one of them).
fn without_hyphen(spans: &[Span], hyphen: usize) -> Vec<Span> {
    spans
        .iter()
        .map(|&span| {
            if span.end == hyphen + 1 {
                Span::new(span.start, hyphen)
            } else {
                span
            }
        })
        .filter(|span| !span.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::pages::footer_looks;
    use crate::scan::scheme::Schemes;
    use crate::scan::wrapper;

    /// A stand-in for the validator's host rules: a label may not end in '-'.
    fn label_ends_in_hyphen(url: &str) -> bool {
        let host = url
            .split("//")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or("");
        host.split('.').any(|label| label.ends_with('-'))
    }

    fn never_invalid(_: &str) -> bool {
        false
    }

    /// Resolve the wrapper at the first `<`: chosen URL, alternatives, help texts.
    fn resolve_first(
        text: &str,
        host_invalid: &dyn Fn(&str) -> bool,
    ) -> (String, Vec<String>, Vec<String>) {
        resolve_first_after(text, host_invalid, &mut earlier_breaks())
    }

    /// [`resolve_first`] with the breaks `earlier` met before in the text.
    fn resolve_first_after(
        text: &str,
        host_invalid: &dyn Fn(&str) -> bool,
        earlier: &mut Crowd,
    ) -> (String, Vec<String>, Vec<String>) {
        let at = text.find('<').unwrap();
        let parsed = wrapper::parse(text, at, &Schemes::new(&[]), &mut footer_looks()).unwrap();
        let mut evidence = Evidence {
            text,
            outer: parsed.outer,
            host_invalid,
            earlier,
        };
        let resolved = resolve(parsed.spans, &parsed.hyphens, &mut evidence);
        for diagnostic in &resolved.diagnostics {
            assert_eq!(diagnostic.rule, Rule::HyphenBreak);
            assert_eq!(&text[diagnostic.span.range()], "-");
        }
        (
            join(text, &resolved.spans),
            resolved.alternatives.into_iter().map(|a| a.url).collect(),
            resolved
                .diagnostics
                .into_iter()
                .map(|d| d.help.into_owned())
                .collect(),
        )
    }

    /// Assert that a finding's help says `words`.
    fn assert_says(help: &str, words: &str) {
        assert!(help.contains(words), "{help:?} does not say {words:?}");
    }

    /// Breaks met before, at `offsets`.
    fn earlier_at(offsets: impl IntoIterator<Item = usize>) -> Crowd {
        let mut earlier = earlier_breaks();
        for offset in offsets {
            earlier.admits(offset);
        }
        earlier
    }

    #[test]
    fn appendix_hyphen_is_kept_without_evidence() {
        let text = "<URL:http://info.cern.ch/marie-\n  claude>";
        let (url, alternatives, help) = resolve_first(text, &never_invalid);
        assert_eq!(url, "http://info.cern.ch/marie-claude");
        assert_eq!(alternatives, ["http://info.cern.ch/marieclaude"]);
        assert_says(&help[0], "no evidence decided");
    }

    #[test]
    fn appendix_invalid_host_decides_the_reading() {
        let text = "<URL:http://ds.inter-\n  nic.net/rfc>";
        let (url, _, help) = resolve_first(text, &never_invalid);
        assert_eq!(url, "http://ds.inter-nic.net/rfc");
        assert_says(&help[0], "no evidence");
        let text = "<URL:http://ds.internic-\n  .net/rfc>";
        let (url, alternatives, help) = resolve_first(text, &label_ends_in_hyphen);
        assert_eq!(url, "http://ds.internic.net/rfc");
        assert_eq!(alternatives, ["http://ds.internic-.net/rfc"]);
        assert_says(&help[0], "with the hyphen the host is invalid");
    }

    #[test]
    fn appendix_unbroken_occurrence_decides_the_reading() {
        let dropped = "Mirror: ftp://ds.internic.net/rfc\n<URL:ftp://ds.inter-\n   nic.net/rfc>";
        let (url, alternatives, help) = resolve_first(dropped, &never_invalid);
        assert_eq!(url, "ftp://ds.internic.net/rfc");
        assert_eq!(alternatives, ["ftp://ds.inter-nic.net/rfc"]);
        assert_says(&help[0], "'ds.internic.net' appears unbroken");

        let kept = "<URL:http://a.b/marie-\n  claude> is marie-claude's page";
        let (url, alternatives, help) = resolve_first(kept, &never_invalid);
        assert_eq!(url, "http://a.b/marie-claude");
        assert_eq!(alternatives, ["http://a.b/marieclaude"]);
        assert_says(&help[0], "'marie-claude' appears unbroken");
    }

    #[test]
    fn a_break_crowded_by_earlier_ones_is_not_searched() {
        let text = "ftp://ds.internic.net/rfc <URL:ftp://ds.inter-\n nic.net/rfc>";
        let (url, _, help) = resolve_first_after(
            text,
            &never_invalid,
            &mut earlier_at(0..CROWDING_BREAKS - 1),
        );
        assert_eq!(url, "ftp://ds.internic.net/rfc", "{}", help[0]);

        let (url, alternatives, help) =
            resolve_first_after(text, &never_invalid, &mut earlier_at(0..CROWDING_BREAKS));
        assert_eq!(url, "ftp://ds.inter-nic.net/rfc");
        assert_eq!(alternatives, ["ftp://ds.internic.net/rfc"]);
        assert_says(&help[0], "16 or more other hyphen breaks lie in the 256 KiB before it, so the text was not searched");
    }

    #[test]
    fn a_crowded_break_is_still_decided_by_its_host() {
        let text = "<URL:http://ds.internic-\n  .net/rfc>";
        let (url, _, help) = resolve_first_after(
            text,
            &label_ends_in_hyphen,
            &mut earlier_at(0..CROWDING_BREAKS),
        );
        assert_eq!(url, "http://ds.internic.net/rfc");
        assert_says(&help[0], "with the hyphen the host is invalid");
    }

    #[test]
    fn only_breaks_within_the_search_window_before_crowd_a_break() {
        let mut earlier = earlier_at(0..CROWDING_BREAKS);
        // All of them lie within the window before this one.
        assert!(!earlier.admits(SEARCH_WINDOW));
        // Here the first has left it.
        let mut earlier = earlier_at(0..CROWDING_BREAKS);
        assert!(earlier.admits(SEARCH_WINDOW + 1));
        // Every break counts, crowded or not: the later half still crowds.
        let mut earlier = earlier_at(0..2 * CROWDING_BREAKS);
        assert!(!earlier.admits(SEARCH_WINDOW + CROWDING_BREAKS));
    }

    #[test]
    fn each_break_is_resolved_on_its_own() {
        let text = "see a-bc.example\n<URL:http://a-\n bc.example/x-\n y>";
        let (url, alternatives, _) = resolve_first(text, &never_invalid);
        assert_eq!(url, "http://a-bc.example/x-y");
        assert_eq!(
            alternatives,
            ["http://abc.example/x-y", "http://a-bc.example/xy"]
        );
    }
}
