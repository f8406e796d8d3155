//! How crowded a stretch of text is with costly looks: a hyphen break's
//! search for evidence, a line taken for a page footer, a search for a cut
//! URL shown whole elsewhere each read kilobytes, and text made only of what
//! triggers them would cost that much per byte. A look is taken only while
//! fewer than a limit of others came before it within its reach; real text
//! is far below the limit.
//!
//! Every candidate counts, whether it was looked at or not, so whether one
//! is crowded depends on the candidates near it alone: a text read whole
//! and the same text read in windows (each scanning from far enough back)
//! look at the same places.

use std::collections::VecDeque;

/// The candidates for one kind of look met lately in a text, oldest first.
#[derive(Debug)]
pub(crate) struct Crowd {
    /// How far back a candidate counts.
    reach: usize,
    /// How many candidates within `reach` crowd the next one out.
    limit: usize,
    offsets: VecDeque<usize>,
}

impl Crowd {
    /// No candidates yet; they count over `reach` bytes and crowd at `limit`.
    pub(crate) fn new(reach: usize, limit: usize) -> Self {
        Crowd {
            reach,
            limit,
            offsets: VecDeque::new(),
        }
    }

    /// Count the candidate at `at`, met in source order, and say whether it
    /// may be looked at: fewer than `limit` others lie in the `reach` bytes
    /// before it. The same place met twice (a wrapper and a bare URL ending
    /// before the same line) counts once.
    pub(crate) fn admits(&mut self, at: usize) -> bool {
        let since = at.saturating_sub(self.reach);
        while self.offsets.front().is_some_and(|&offset| offset < since) {
            self.offsets.pop_front();
        }
        match self.offsets.back() {
            Some(&last) if last == at => return self.offsets.len() <= self.limit,
            Some(&last) => debug_assert!(last < at, "candidates come in source order"),
            None => {}
        }
        let admitted = self.offsets.len() < self.limit;
        self.offsets.push_back(at);
        admitted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_crowd_only_within_their_reach_and_all_count() {
        let mut crowd = Crowd::new(100, 2);
        assert!(crowd.admits(10));
        assert!(crowd.admits(20));
        assert!(crowd.admits(20), "the same place again");
        assert!(!crowd.admits(30));
        // 30 counted though it was crowded out: 40 sees 10, 20 and 30.
        assert!(!crowd.admits(40));
        // 10, 20 and 30 are out of reach of 131; 40 is not.
        assert!(crowd.admits(131));
        assert!(!crowd.admits(135));
    }
}
