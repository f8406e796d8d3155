//! How the validator reads a URL: options every grammar may consult.

use std::fmt;

/// The standard a URL is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[non_exhaustive]
pub enum Profile {
    /// RFC 1738 (URLs, 1994): strict, the default.
    #[default]
    Rfc1738,
}

impl Profile {
    /// Every profile, in the order documentation lists them.
    pub const ALL: [Profile; 1] = [Profile::Rfc1738];

    /// The profile's name as callers spell it (`rfc1738`).
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc1738 => "rfc1738",
        }
    }

    /// The profile called `name` (in any case), if any.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL
            .into_iter()
            .find(|profile| profile.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options for [`validate`](super::validate()).
#[derive(Debug, Clone, Default)]
pub struct ValidateOptions {
    /// The standard URLs are checked against.
    pub profile: Profile,
    /// The URL came from a `<URL:...>` or `<scheme:...>` wrapper, so its first
    /// `#` starts a fragment identifier (RFC 1738 Appendix).
    pub fragment_allowed: bool,
    /// Schemes to accept without `unknown-scheme`, beyond RFC 1738's own.
    pub extra_schemes: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_found_by_their_names_in_any_case() {
        for profile in Profile::ALL {
            assert_eq!(Profile::from_name(profile.name()), Some(profile));
        }
        assert_eq!(Profile::from_name("RFC1738"), Some(Profile::Rfc1738));
        assert_eq!(Profile::from_name("rfc2396"), None);
        assert_eq!(Profile::default(), Profile::Rfc1738);
    }
}
