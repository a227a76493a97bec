//! I/O errors in words, for the messages of every file command.

use std::io;

/// An I/O error in words, starting lowercase and without the OS error number (it differs
/// between machines): `no such file or directory`.
pub fn describe(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        io::ErrorKind::AlreadyExists => "it already exists".into(),
        io::ErrorKind::IsADirectory => "it is a directory".into(),
        io::ErrorKind::NotADirectory => "a part of the path is not a directory".into(),
        io::ErrorKind::ReadOnlyFilesystem => "the file system is read-only".into(),
        io::ErrorKind::StorageFull => "no space left on the device".into(),
        _ => {
            let text = e.to_string();
            let text = text.split(" (os error").next().unwrap_or(&text);
            // The system's sentences start with a capital; units inside them keep theirs.
            let mut chars = text.chars();
            chars
                .next()
                .map(|first| first.to_lowercase().chain(chars).collect())
                .unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_read_as_lowercase_sentences_without_numbers() {
        let pipe = io::Error::from_raw_os_error(32);
        assert_eq!(describe(&pipe), "broken pipe");
        let missing = io::Error::from(io::ErrorKind::NotFound);
        assert_eq!(describe(&missing), "no such file or directory");
        let ours = io::Error::other("The table of 8 MiB is too big");
        assert_eq!(describe(&ours), "the table of 8 MiB is too big");
        assert_eq!(describe(&io::Error::other("")), "");
    }
}
