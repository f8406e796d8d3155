//! URL-dense text: link lists with one short URL every ~50 bytes, the worst
//! realistic case for per-URL work.

use super::prng::Prng;
use super::urls::{url, Shape};

/// Short words between the URLs of a link list.
const FILLERS: &[&str] = &[
    "mirror", "docs", "(old)", "see", "and", "FAQ", "v2", "list", "or",
];

/// What ends an entry: the next URL follows on the same line or a new one.
const SEPARATORS: &[&str] = &[
    ", ", " | ", "
", "
- ", "; ",
];

/// Generates link lists whose URL starts are 40 to 60 bytes apart.
#[derive(Debug)]
pub struct Dense {
    rng: Prng,
}

impl Dense {
    /// Link lists whose whole text is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Dense {
            rng: Prng::new(seed),
        }
    }

    /// Append one URL followed by separators up to its share of bytes.
    pub fn entry(&mut self, out: &mut String) {
        let start = out.len();
        let share = self.rng.between(40, 60);
        out.push_str(&url(&mut self.rng, Shape::Short));
        while out.len() - start < share {
            out.push(' ');
            out.push_str(self.rng.pick(FILLERS));
        }
        out.push_str(self.rng.pick(SEPARATORS));
    }
}
