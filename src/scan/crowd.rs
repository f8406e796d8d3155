//! How crowded a stretch of text is with costly looks: each look at page
//! furniture or at the text around a URL reads kilobytes, and text made
//! only of what triggers them would cost that much per byte. A look is
//! taken only while fewer than a limit of others were taken in the reach
//! before it; real text is far below the limit. The count depends on the
//! text near a look alone (looks are met in source order), so a text read
//! whole and one read in windows look at the same places.

use std::collections::VecDeque;

/// Offsets of the looks taken lately in one text, oldest first.
#[derive(Debug)]
pub(crate) struct Crowd {
    /// How far back a look counts.
    reach: usize,
    /// How many looks within `reach` make the text crowded.
    limit: usize,
    offsets: VecDeque<usize>,
}

impl Crowd {
    /// An empty crowd of looks counted over `reach` bytes, crowded at `limit`.
    pub(crate) fn new(reach: usize, limit: usize) -> Self {
        Crowd {
            reach,
            limit,
            offsets: VecDeque::new(),
        }
    }

    /// True when `limit` or more looks lie in the `reach` bytes before `at`.
    pub(crate) fn is_crowded(&mut self, at: usize) -> bool {
        let since = at.saturating_sub(self.reach);
        while self.offsets.front().is_some_and(|&offset| offset < since) {
            self.offsets.pop_front();
        }
        self.offsets.len() >= self.limit
    }

    /// Count a look at `at`; a second look at the same place (a wrapper
    /// and a bare URL ending before the same line) counts once.
    pub(crate) fn record(&mut self, at: usize) {
        if self.offsets.back().is_none_or(|&last| last < at) {
            self.offsets.push_back(at);
        }
    }

    /// How many looks are counted now.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.offsets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_crowd_only_within_their_reach() {
        let mut crowd = Crowd::new(100, 2);
        crowd.record(10);
        assert!(!crowd.is_crowded(20));
        crowd.record(20);
        crowd.record(20);
        assert!(crowd.is_crowded(30));
        assert!(!crowd.is_crowded(115));
        assert_eq!(crowd.len(), 1);
    }
}
