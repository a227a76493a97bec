//! The page's files: only regular files inside the page's folder (`web/dist/`), found from a
//! request's path with every escape refused: `..` and `.` segments, in any encoding, are a bad
//! request; hidden names, folders (no listing) and anything whose real path leaves the folder
//! (a symbolic link out) are not found. Files are read once and kept while unchanged (the
//! folder is the page, 15 MB), so that many downloads of the book share one copy.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use bytes::Bytes;

use super::ServeError;

/// The page's folder, and the files read from it.
#[derive(Debug)]
pub(super) struct Page {
    /// The folder, its real path.
    folder: PathBuf,
    /// Files read, by real path.
    cache: RefCell<HashMap<PathBuf, Read>>,
}

/// A file as it was read: its contents, and the modification time and length it had then.
#[derive(Debug)]
struct Read {
    stamp: (Option<SystemTime>, u64),
    bytes: Bytes,
}

/// A request's path that names no file to serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Missing {
    /// A path that tries to leave the folder, or cannot be read as one (400).
    BadPath,
    /// No such file here (404).
    NotFound,
}

/// A file to send.
#[derive(Debug, Clone)]
pub(super) struct File {
    /// Its contents.
    pub(super) bytes: Bytes,
    /// Its media type.
    pub(super) content_type: &'static str,
}

impl Page {
    /// The page in `folder`, which must hold its `index.html`.
    pub(super) fn open(folder: &Path) -> Result<Page, ServeError> {
        let index = folder.join("index.html");
        let no_page = || ServeError::NoPage {
            index: index.clone(),
        };
        if !index.is_file() {
            return Err(no_page());
        }
        let folder = folder.canonicalize().map_err(|_| no_page())?;
        Ok(Page {
            folder,
            cache: RefCell::default(),
        })
    }

    /// The folder served.
    pub(super) fn folder(&self) -> &Path {
        &self.folder
    }

    /// The file a request's path (without its query) names.
    pub(super) fn file(&self, path: &str) -> Result<File, Missing> {
        let relative = relative_path(path)?;
        let wanted = self.folder.join(&relative);
        let real = wanted.canonicalize().map_err(|_| Missing::NotFound)?;
        if !real.starts_with(&self.folder) {
            return Err(Missing::NotFound);
        }
        let meta = std::fs::metadata(&real).map_err(|_| Missing::NotFound)?;
        if !meta.is_file() {
            return Err(Missing::NotFound);
        }
        let stamp = (meta.modified().ok(), meta.len());
        let content_type = content_type(&relative);
        if let Some(read) = self.cache.borrow().get(&real) {
            if read.stamp == stamp {
                let bytes = read.bytes.clone();
                return Ok(File {
                    bytes,
                    content_type,
                });
            }
        }
        let bytes = Bytes::from(std::fs::read(&real).map_err(|_| Missing::NotFound)?);
        let read = Read {
            stamp,
            bytes: bytes.clone(),
        };
        self.cache.borrow_mut().insert(real, read);
        Ok(File {
            bytes,
            content_type,
        })
    }
}

/// The path inside the folder that a request's path names (`/` is `index.html`), decoded; a
/// path with a `.` or `..` segment (in any encoding), a backslash, a NUL, an empty segment, or
/// text that is not UTF-8 is a bad path, and a hidden name is not found.
fn relative_path(path: &str) -> Result<PathBuf, Missing> {
    let decoded = percent_decode(path).ok_or(Missing::BadPath)?;
    let decoded = String::from_utf8(decoded).map_err(|_| Missing::BadPath)?;
    let Some(rest) = decoded.strip_prefix('/') else {
        return Err(Missing::BadPath);
    };
    if rest.is_empty() {
        return Ok(PathBuf::from("index.html"));
    }
    let mut relative = PathBuf::new();
    for segment in rest.split('/') {
        if segment.is_empty() || segment == "." || segment == ".." || segment.contains(['\\', '\0'])
        {
            return Err(Missing::BadPath);
        }
        if segment.starts_with('.') {
            return Err(Missing::NotFound);
        }
        relative.push(segment);
    }
    Ok(relative)
}

/// `%XX` escapes decoded; None for a `%` not followed by two hexadecimal digits.
fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

/// The media type of a file of the page, by its extension.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_decoded_and_every_escape_is_refused() {
        let ok = |path: &str| relative_path(path).unwrap();
        assert_eq!(ok("/"), PathBuf::from("index.html"));
        assert_eq!(ok("/app.js"), PathBuf::from("app.js"));
        assert_eq!(ok("/c4%2Ebook"), PathBuf::from("c4.book"));
        assert_eq!(ok("/a%20b/c"), PathBuf::from("a b/c"));
        for bad in [
            "/../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "/%2E%2E%2FCargo.toml",
            "/..%2fCargo.toml",
            "/x/../../Cargo.toml",
            "/./app.js",
            "/..%5cCargo.toml",
            "/a%00",
            "//etc/passwd",
            "/app.js/",
            "/%zz",
            "/%2",
            "/%ff",
            "app.js",
        ] {
            assert_eq!(relative_path(bad), Err(Missing::BadPath), "{bad}");
        }
        // Decoded once only: a double escape is a name, which is not there.
        assert_eq!(ok("/%252e%252e"), PathBuf::from("%2e%2e"));
        assert_eq!(relative_path("/.git/config"), Err(Missing::NotFound));
    }

    #[test]
    fn the_page_types_are_named() {
        assert_eq!(content_type(Path::new("c4.wasm")), "application/wasm");
        assert_eq!(
            content_type(Path::new("app.js")),
            "text/javascript; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("c4.book")),
            "application/octet-stream"
        );
    }
}
