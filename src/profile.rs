//! Profiles: the standard a URL is checked against. The validator, the rule
//! catalogue (which rules each profile reports) and the configuration all
//! name them.

use std::fmt;

/// The standard a URL is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Profile {
    /// RFC 1738 (URLs, 1994), with RFC 1808's fragment grammar: strict, the default.
    #[default]
    Rfc1738,
    /// RFC 3986 (URI generic syntax), with the http, https (RFC 9110),
    /// mailto (RFC 6068), file (RFC 8089) and ftp scheme rules.
    Rfc3986,
}

impl Profile {
    /// Every profile, in the order documentation lists them.
    pub const ALL: [Profile; 2] = [Profile::Rfc1738, Profile::Rfc3986];

    /// The profile's name on the command line and in configuration.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc1738 => "rfc1738",
            Profile::Rfc3986 => "rfc3986",
        }
    }

    /// The profile called `name`, if any.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_have_names() {
        for profile in Profile::ALL {
            assert_eq!(Profile::from_name(profile.name()), Some(profile));
        }
        assert_eq!(Profile::from_name("RFC3986"), Some(Profile::Rfc3986));
        assert_eq!(Profile::from_name("rfc2396"), None);
        assert_eq!(Profile::default(), Profile::Rfc1738);
    }
}
