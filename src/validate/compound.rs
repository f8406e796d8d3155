//! Compound schemes of tools: `svn+ssh`, `git+https`, Cargo's
//! `registry+https` and `sparse+https`, pip's `git+file`. RFC 1738 section
//! 2.1 allows `+` in a scheme; such a name tells a tool how to fetch (the
//! part before the `+`) over which protocol (the part after it), and the
//! URL after the colon is that protocol's. Both profiles read a compound
//! scheme whose part after the last `+` they know as that scheme: its
//! grammar applies and it is not an unknown scheme.

/// The scheme after the last `+` of the scheme `name`, if any follows it.
pub(super) fn transport(name: &str) -> Option<&str> {
    let plus = name.rfind('+')?;
    let transport = &name[plus + 1..];
    transport
        .bytes()
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic())
        .then_some(transport)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc1738_2_1_a_compound_scheme_names_its_transport_last() {
        for (name, expected) in [
            ("git+https", Some("https")),
            ("registry+https", Some("https")),
            ("svn+ssh", Some("ssh")),
            ("a+b+ftp", Some("ftp")),
            ("http", None),
            ("x+", None),
            ("x+1", None),
        ] {
            assert_eq!(transport(name), expected, "{name}");
        }
    }
}
