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

    /// Count the candidate at `at` and say whether it may be looked at:
    /// fewer than `limit` others lie in the `reach` bytes before it. The
    /// same place met twice (a wrapper and a bare URL ending before the same
    /// line) counts once. Candidates come nearly in source order: a wrapper
    /// that turns out unterminated has looked at lines ahead of the bare URL
    /// read next, so one may come a little before the latest.
    pub(crate) fn admits(&mut self, at: usize) -> bool {
        // Kept from twice the reach behind the newest, so that a candidate
        // that comes late still counts the ones before it.
        let newest = self.offsets.back().map_or(at, |&newest| newest.max(at));
        let keep_from = newest.saturating_sub(2 * self.reach);
        while self
            .offsets
            .front()
            .is_some_and(|&offset| offset < keep_from)
        {
            self.offsets.pop_front();
        }
        let since = at.saturating_sub(self.reach);
        let first_in_reach = self.offsets.partition_point(|&offset| offset < since);
        let place = self.offsets.partition_point(|&offset| offset < at);
        let admitted = place - first_in_reach < self.limit;
        if self.offsets.get(place) != Some(&at) {
            self.offsets.insert(place, at);
        }
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

    #[test]
    fn a_candidate_met_late_counts_those_before_it_and_is_counted() {
        let mut crowd = Crowd::new(100, 2);
        assert!(crowd.admits(10));
        assert!(crowd.admits(50));
        // Met after 50 though it lies before it: only 10 is before it.
        assert!(crowd.admits(30));
        // 10, 30 and 50 lie before 60.
        assert!(!crowd.admits(60));
        assert!(crowd.admits(30), "30 again: still only 10 before it");
        assert!(!crowd.admits(61), "10, 30, 50 and 60 lie before it");
        let mut once = Crowd::new(100, 1);
        assert!(once.admits(20));
        assert!(once.admits(20), "the same place counts once");
        assert!(!once.admits(25));
    }
}
