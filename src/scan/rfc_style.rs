//! Whether a text is written the RFC way, for the wrapper a fix suggests
//! around a bare URL broken across lines: `<URL:...>` where the text wraps
//! URLs so or is paginated with `[Page N]` footers, `<...>` elsewhere.

use super::hyphen::SEARCH_WINDOW as EVIDENCE_WINDOW;
use super::pages::opens_page_label;
use crate::span::Span;

/// The prefix of an RFC 1738 wrapper after its `<`, in any case.
const WRAPPER_PREFIX: &[u8] = b"URL:";

/// The longest mark, less one byte: how far a search that found none
/// must look again at the end of what it searched.
const MARK_OVERLAP: usize = 5;

/// Where a text shows that it is written the RFC way, a `<URL:` wrapper
/// or a `[Page N]` footer, found as the scan goes on: each byte is
/// searched once, however many URLs ask.
#[derive(Debug, Default)]
pub(super) struct RfcMarks {
    /// How far the text has been searched.
    searched: usize,
    /// The last mark before the URL asked about last.
    last: Option<usize>,
    /// The first mark found after it, if any is within reach.
    next: Option<usize>,
}

impl RfcMarks {
    /// True when a mark lies within [`EVIDENCE_WINDOW`] of `span`; spans
    /// are asked about in source order.
    pub(super) fn near(&mut self, text: &str, span: Span) -> bool {
        let bytes = text.as_bytes();
        let horizon = bytes.len().min(span.end + EVIDENCE_WINDOW);
        loop {
            if let Some(next) = self.next.filter(|&next| next < span.start) {
                self.last = Some(next);
                self.next = None;
            }
            if self.next.is_some() || self.searched >= horizon {
                break;
            }
            match first_mark(&bytes[self.searched..horizon]) {
                Some(at) => {
                    self.next = Some(self.searched + at);
                    self.searched += at + 1;
                }
                // A mark may straddle the horizon: its first bytes are
                // searched again when the horizon moves on.
                None => self.searched = horizon.saturating_sub(MARK_OVERLAP).max(self.searched + 1),
            }
        }
        self.last
            .is_some_and(|last| last + EVIDENCE_WINDOW >= span.start)
            || self.next.is_some_and(|next| next <= horizon)
    }
}

/// Offset of the first `<URL:` or `[Page ` (any case) in `bytes`.
fn first_mark(bytes: &[u8]) -> Option<usize> {
    memchr::memchr2_iter(b'<', b'[', bytes).find(|&at| match bytes[at] {
        b'<' => bytes
            .get(at + 1..at + 1 + WRAPPER_PREFIX.len())
            .is_some_and(|prefix| prefix.eq_ignore_ascii_case(WRAPPER_PREFIX)),
        _ => opens_page_label(&bytes[at..]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_found_near_each_url_asked_about_in_order() {
        let far = "x".repeat(EVIDENCE_WINDOW + 10);
        let text = format!("see <url:a:b> {far} http://c.example/ {far} [PAGE 3] {far} end");
        let at = |needle: &str| {
            let start = text.find(needle).expect("a needle");
            Span::new(start, start + needle.len())
        };
        let mut marks = RfcMarks::default();
        assert!(marks.near(&text, at("see")));
        assert!(!marks.near(&text, at("http://c.example/")));
        assert!(marks.near(&text, at("[PAGE 3]")));
        assert!(!marks.near(&text, at("end")));
    }
}
