//! How the validator reads a URL: options every grammar may consult.

/// Options for [`validate`](super::validate()).
#[derive(Debug, Clone, Default)]
pub struct ValidateOptions {
    /// The URL came from a `<URL:...>` or `<scheme:...>` wrapper, so its first
    /// `#` starts a fragment identifier (RFC 1738 Appendix).
    pub fragment_allowed: bool,
    /// Schemes to accept without `unknown-scheme`, beyond RFC 1738's own.
    pub extra_schemes: Vec<String>,
}
