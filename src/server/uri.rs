//! Document URIs as file paths: the configuration, the path globs and the
//! input kind all go by a document's path, and clients name documents by
//! `file:` URI (or `untitled:` and the like, which have no path).

use std::path::PathBuf;

use lsp_types::Uri;

/// The local path a `file:` URI names; `None` for other schemes, for a
/// host other than the local one, and for a path that does not decode.
pub(super) fn file_path(uri: &Uri) -> Option<PathBuf> {
    let scheme = uri.scheme()?;
    if !scheme.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let local = uri.authority().is_none_or(|authority| {
        let host = authority.host().as_str();
        host.is_empty() || host.eq_ignore_ascii_case("localhost")
    });
    if !local {
        return None;
    }
    let decoded = uri.path().as_estr().decode().into_string().ok()?;
    Some(PathBuf::from(platform_path(&decoded)))
}

/// A decoded URI path as this platform writes paths: on Windows the drive
/// letter's leading slash goes (`/C:/x` is `C:/x`).
fn platform_path(path: &str) -> &str {
    let bytes = path.as_bytes();
    let drive = cfg!(windows)
        && bytes.len() >= 3
        && bytes[0] == b'/'
        && bytes[1].is_ascii_alphabetic()
        && bytes[2] == b':';
    if drive {
        &path[1..]
    } else {
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn path_of(uri: &str) -> Option<PathBuf> {
        file_path(&Uri::from_str(uri).expect("a URI"))
    }

    #[test]
    fn rfc8089_file_uris_name_local_paths() {
        assert_eq!(
            path_of("file:///home/a/notes.txt"),
            Some(PathBuf::from("/home/a/notes.txt"))
        );
        assert_eq!(
            path_of("file://localhost/home/a%20b/r%C3%A9sum%C3%A9.md"),
            Some(PathBuf::from("/home/a b/résumé.md"))
        );
        assert_eq!(path_of("file://other.example/share/x.txt"), None);
        assert_eq!(path_of("untitled:Untitled-1"), None);
        assert_eq!(path_of("FILE:///x"), Some(PathBuf::from("/x")));
    }
}
