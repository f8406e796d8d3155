//! How the validator reads a URL: options every grammar may consult.

use crate::profile::Profile;

/// Options for [`validate`](super::validate()).
#[derive(Debug, Clone, Default)]
pub struct ValidateOptions {
    /// The standard URLs are checked against.
    pub profile: Profile,
    /// Schemes to accept without `unknown-scheme`, beyond the profile's own.
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
