//! A table shared by the `c4 solve` processes of one machine through a file (`--shared-table
//! FOLDER`, best on a memory file system such as `/dev/shm`), as the threads of one search
//! share theirs: the jobs of a split solve run as several processes then share what each has
//! proven.
//!
//! The file, named in the folder after the board, the table's size, the folding of mirror
//! images and the entries' layout, is a header page naming what the table is for (this build's entry layout, the
//! board, the table's size, whether mirror images are folded), then the entries. Made whole
//! under a name of its own and then linked into place, so that no process ever maps one half
//! written; its memory is reserved when it is made, so that a full file system refuses it at
//! once rather than failing a search half-way. Another process's file is never used: only a
//! regular file of this user's, which no one else may read or write, of the expected length,
//! with the expected header.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::board::BatchBoard;
use c4_core::Solver;

/// The header's length: a whole number of pages of any size Linux uses (4, 16 or 64 KiB), so
/// that the entries' mapping starts on a page.
pub(super) const HEADER_BYTES: u64 = 64 << 10;

/// Why a shared table's file cannot be used.
#[derive(Debug, Error)]
pub enum SharedTableError {
    /// The file could not be opened, made or read.
    #[error("the shared table {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// No room for the table where the file is.
    #[error("the shared table {} needs {mib} MiB that its file system does not have ({source}); c4 goes on with a table of its own", path.display())]
    NoRoom {
        /// The file.
        path: PathBuf,
        /// The table's size.
        mib: u64,
        /// What the system said.
        source: io::Error,
    },
    /// The file is not one this run may share.
    #[error("the shared table {} {reason}: name another file, or remove it", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

impl SharedTableError {
    /// Whether the run may go on with a table of its own (only a lack of room: any other
    /// failure is a mistake the user should hear of).
    pub fn is_no_room(&self) -> bool {
        matches!(self, SharedTableError::NoRoom { .. })
    }
}

/// The header of the table of 2^`table_bits` words for `board`, mirror images folded or not.
fn header(board: &BatchBoard, table_bits: u32, fold_mirrors: bool) -> Vec<u8> {
    let text = format!(
        "c4 shared table, layout {}\nboard {}x{}, table 2^{table_bits} words, mirror images {}\n",
        Solver::TABLE_LAYOUT,
        board.width(),
        board.height(),
        if fold_mirrors { "folded" } else { "apart" },
    );
    let mut bytes = text.into_bytes();
    bytes.resize(HEADER_BYTES as usize, 0);
    bytes
}

/// The file of the shared table for `board` (2^`table_bits` words, mirror images folded or
/// not) in the folder `folder` (made if missing, for this user only), named after what it is
/// for, so that runs that differ in any of it never meet: opened for reading and writing,
/// made if there is none (with no entries), else checked. Its entries lie from
/// [`HEADER_BYTES`] on.
///
/// # Errors
/// The file cannot be made or opened ([`SharedTableError::Io`]), its file system has no room
/// for it ([`SharedTableError::NoRoom`]), or it is not such a table of this user's that no one
/// else may use ([`SharedTableError::Refused`]).
pub(super) fn open_shared_table(
    folder: &Path,
    board: &BatchBoard,
    table_bits: u32,
    fold_mirrors: bool,
) -> Result<File, SharedTableError> {
    let (prefix, suffix) = table_name_around_bits(board, fold_mirrors);
    let path = &folder.join(format!("{prefix}{table_bits}{suffix}"));
    let folder_error = |source| SharedTableError::Io {
        path: folder.to_path_buf(),
        source,
    };
    make_folder(folder).map_err(folder_error)?;
    let metadata = std::fs::symlink_metadata(folder).map_err(folder_error)?;
    if !metadata.is_dir() {
        return Err(SharedTableError::Refused {
            path: folder.to_path_buf(),
            reason: "is not a folder (a symbolic link is not followed)".to_string(),
        });
    }
    check_owner(&metadata, "0700").map_err(|reason| SharedTableError::Refused {
        path: folder.to_path_buf(),
        reason,
    })?;
    // One process at a time opens or makes a table here, so that processes starting together
    // do not each make one (and take its memory) before one of them wins.
    let _held = lock(&folder.join(".lock")).map_err(folder_error)?;
    let expected = header(board, table_bits, fold_mirrors);
    let length = HEADER_BYTES + (8u64 << table_bits);
    let file = match open_existing(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => make(path, &expected, length)?,
        Err(source) => {
            return Err(SharedTableError::Io {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    check(path, &file, &expected, length)?;
    Ok(file)
}

/// The file `path` (made if missing, this user's only), locked for this process until it is
/// dropped; waits for another process's lock.
fn lock(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    owner_only(&mut options);
    no_follow(&mut options);
    let file = options.open(path)?;
    lock_file(&file)?;
    Ok(file)
}

#[cfg(unix)]
#[allow(
    unsafe_code,
    reason = "flock on a file this process opened; see the SAFETY comment"
)]
fn lock_file(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: a system call on a file descriptor this process holds open.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(());
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
}

#[cfg(not(unix))]
fn lock_file(_file: &File) -> io::Result<()> {
    Ok(())
}

/// The size, as a power of two of words, of the table for `board` (mirror images folded or
/// not) already in `folder`, if there is one: the size a run that names the folder without
/// asking for one takes, so that every run of a machine shares the same table (each picking
/// from the memory free at its start would pick smaller ones as the first took its memory).
pub fn shared_table_bits(folder: &Path, board: &BatchBoard, fold_mirrors: bool) -> Option<u32> {
    let (prefix, suffix) = table_name_around_bits(board, fold_mirrors);
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_prefix(&prefix)?
                .strip_suffix(&suffix)?
                .parse()
                .ok()
        })
        .max()
}

/// The name of a table file for `board`, before and after its size (`2^BITS` words): one
/// table per board, size, folding of mirror images and entry layout, e.g.
/// `7x6-2^16-apart-layout2.table`.
fn table_name_around_bits(board: &BatchBoard, fold_mirrors: bool) -> (String, String) {
    (
        format!("{}x{}-2^", board.width(), board.height()),
        format!(
            "-{}-layout{}.table",
            if fold_mirrors { "folded" } else { "apart" },
            Solver::TABLE_LAYOUT
        ),
    )
}

/// Makes `folder` (this user's only) unless it is there.
fn make_folder(folder: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    match builder.create(folder) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        made => made,
    }
}

/// Opens `path` for reading and writing, not following a symbolic link.
fn open_existing(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true).write(true);
    no_follow(&mut options);
    options.open(path)
}

#[cfg(unix)]
fn no_follow(options: &mut OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NOFOLLOW);
}

#[cfg(not(unix))]
fn no_follow(_options: &mut OpenOptions) {}

/// Makes the table's file at `path`: whole under a name of its own (this user's only, its
/// memory reserved), then linked into place; if another process linked its own first, that
/// one is opened instead.
fn make(path: &Path, header: &[u8], length: u64) -> Result<File, SharedTableError> {
    let io_error = |source| SharedTableError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".{}.new", std::process::id()));
    let fresh = PathBuf::from(name);
    // Left by a process of the same number that died making it (the folder's lock is held).
    let _ = std::fs::remove_file(&fresh);
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    owner_only(&mut options);
    let made = options.open(&fresh).map_err(io_error).and_then(|mut file| {
        file.write_all(header).map_err(io_error)?;
        reserve(&file, length).map_err(|source| {
            if lacks_room(&source) {
                SharedTableError::NoRoom {
                    path: path.to_path_buf(),
                    mib: length >> 20,
                    source,
                }
            } else {
                io_error(source)
            }
        })?;
        Ok(file)
    });
    let linked = made.and_then(|file| match std::fs::hard_link(&fresh, path) {
        Ok(()) => Ok(file),
        // Another process made it first: theirs is the table.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => open_existing(path).map_err(io_error),
        Err(e) => Err(io_error(e)),
    });
    let _ = std::fs::remove_file(&fresh);
    linked
}

/// Whether the file system lacked the room (or this user's quota was spent).
fn lacks_room(error: &io::Error) -> bool {
    #[cfg(unix)]
    if matches!(error.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT)) {
        return true;
    }
    error.kind() == io::ErrorKind::StorageFull
}

#[cfg(unix)]
fn owner_only(options: &mut OpenOptions) {
    use std::os::unix::fs::OpenOptionsExt;
    options.mode(0o600);
}

#[cfg(not(unix))]
fn owner_only(_options: &mut OpenOptions) {}

/// Gives `file` its `length` bytes now, so that the file system refuses them at once if it
/// lacks the room: a mapping of a file whose pages cannot be had later kills the process.
#[cfg(target_os = "linux")]
#[allow(
    unsafe_code,
    reason = "posix_fallocate on a file this process opened; see the SAFETY comment"
)]
fn reserve(file: &File, length: u64) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let length =
        libc::off_t::try_from(length).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: a system call on a file descriptor this process holds open for writing.
    match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, length) } {
        0 => Ok(()),
        code => Err(io::Error::from_raw_os_error(code)),
    }
}

#[cfg(not(target_os = "linux"))]
fn reserve(file: &File, length: u64) -> io::Result<()> {
    file.set_len(length)
}

/// Refuses a file that is not this user's own table for the run: another user's, one others
/// may read or write, not a regular file, of another length or with another header.
fn check(path: &Path, file: &File, expected: &[u8], length: u64) -> Result<(), SharedTableError> {
    let refused = |reason: String| SharedTableError::Refused {
        path: path.to_path_buf(),
        reason,
    };
    let metadata = file.metadata().map_err(|source| SharedTableError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if !metadata.is_file() {
        return Err(refused("is not a regular file".to_string()));
    }
    check_owner(&metadata, "0600").map_err(refused)?;
    if metadata.len() != length {
        return Err(refused(format!(
            "is {} bytes long where the table takes {length}",
            metadata.len(),
        )));
    }
    let mut found = vec![0; expected.len()];
    let mut reader = file;
    let read = reader
        .seek(SeekFrom::Start(0))
        .and_then(|_| reader.read_exact(&mut found));
    read.map_err(|source| SharedTableError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if found != expected {
        let line = |bytes: &[u8]| {
            String::from_utf8_lossy(bytes.split(|&b| b == 0).next().unwrap_or_default())
                .replace('\n', "; ")
                .trim_end_matches("; ")
                .to_string()
        };
        return Err(refused(format!(
            "holds another table ('{}', not '{}')",
            line(&found).escape_debug(),
            line(expected)
        )));
    }
    Ok(())
}

/// Refuses a file or folder that is another user's, or that others may use; `mode` is the
/// one it should have, for the reason (`0600`, `0700`).
#[cfg(unix)]
fn check_owner(metadata: &std::fs::Metadata, mode: &str) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    #[allow(unsafe_code, reason = "geteuid takes nothing and cannot fail")]
    // SAFETY: geteuid has no arguments and no failure.
    let user = unsafe { libc::geteuid() };
    if metadata.uid() != user {
        return Err("belongs to another user".to_string());
    }
    if metadata.mode() & 0o077 != 0 {
        return Err(format!(
            "may be read or written by other users (its mode must be {mode})"
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_owner(_metadata: &std::fs::Metadata, _mode: &str) -> Result<(), String> {
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use c4_core::Counting;
    use std::os::unix::fs::PermissionsExt;

    fn folder(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("c4-shared-table-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&folder);
        folder
    }

    fn board(width: u32, height: u32) -> BatchBoard {
        BatchBoard::new(width, height, Counting::FromOne).unwrap()
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_table_is_made_for_this_user_only_and_opened_again_by_the_next_run() {
        let folder = folder("made");
        let file = open_shared_table(&folder, &board(7, 6), 16, false).unwrap();
        assert_eq!(file.metadata().unwrap().len(), HEADER_BYTES + (8 << 16));
        let path = folder.join("7x6-2^16-apart-layout2.table");
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(mode(&path), 0o600);
        open_shared_table(&folder, &board(7, 6), 16, false).unwrap();
        // Another board, size or folding is another file beside it.
        open_shared_table(&folder, &board(6, 5), 16, false).unwrap();
        open_shared_table(&folder, &board(7, 6), 17, true).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(
            names,
            [
                ".lock",
                "6x5-2^16-apart-layout2.table",
                "7x6-2^16-apart-layout2.table",
                "7x6-2^17-folded-layout2.table"
            ]
        );
        // A later run that asks for no size takes the one there.
        assert_eq!(shared_table_bits(&folder, &board(7, 6), false), Some(16));
        assert_eq!(shared_table_bits(&folder, &board(7, 6), true), Some(17));
        assert_eq!(shared_table_bits(&folder, &board(8, 4), false), None);
        // A folder others may use is refused.
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        let error = open_shared_table(&folder, &board(7, 6), 16, false).unwrap_err();
        assert!(
            error.to_string().ends_with(
                "may be read or written by other users (its mode must be 0700): name another \
                 file, or remove it"
            ),
            "{error}"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_file_others_may_use_or_that_holds_something_else_is_refused() {
        let folder = folder("refused");
        let path = folder.join("7x6-2^16-apart-layout2.table");
        open_shared_table(&folder, &board(7, 6), 16, false).unwrap();
        let refused = |reason: &str| {
            let error = open_shared_table(&folder, &board(7, 6), 16, false).unwrap_err();
            assert!(matches!(error, SharedTableError::Refused { .. }), "{error}");
            assert!(error.to_string().contains(reason), "{error}");
        };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        refused("may be read or written by other users");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        let file = OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(HEADER_BYTES).unwrap();
        refused("is 65536 bytes long where the table takes 589824");
        file.set_len(HEADER_BYTES + (8 << 16)).unwrap();
        (&file).write_all(b"not a table").unwrap();
        refused("holds another table ('not a table");
        // A symbolic link in its place is not followed.
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("/dev/null", &path).unwrap();
        let error = open_shared_table(&folder, &board(7, 6), 16, false).unwrap_err();
        assert!(matches!(error, SharedTableError::Io { .. }), "{error}");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
