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
