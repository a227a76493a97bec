//! The files `c4` reads because a user named them, and the files it writes whole: every reader
//! opens them through [`open_at_most`] (or [`read_at_most`]), every writer writes through a
//! [`NewFile`].
//!
//! A file to read must be a regular file. A pipe, a device or a socket (a FIFO, `/dev/stdin`
//! on a pipe or a terminal, `/dev/zero`) is refused before anything is read from it, so that
//! nothing waits for data that may never come, or reads the commands meant for the protocol.
//! Each reader has a [`SizeLimit`], and a file whose size is over it is refused before anything
//! is read too, so that a huge or sparse file costs a message, not the time and memory of
//! reading it. The system calls the files of `/proc` regular, with a size of 0: they are read
//! as such, and the reading stops one byte past the limit; they are opened without waiting, so
//! one that would wait gives an error.
//!
//! A file is written to a new file in its target's folder, made exclusively (`O_EXCL`) under a
//! random name (`.NAME.Xa9k2B.tmp`), so that nothing planted at a name `c4` would use, such as a
//! symbolic link, is ever followed, written or removed. It is synced to disk and renamed over
//! its target once whole, so a crash leaves the old file or the new one; a write that fails
//! removes the new file and nothing else.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use tempfile::NamedTempFile;
use thiserror::Error;

/// A file named to be read is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("it is not a regular file (a pipe, a device or a socket)")]
pub(crate) struct NotRegularFile;

/// The most a reader takes of a file, and what such a file is, for the error that refuses a
/// larger one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeLimit {
    /// The most bytes read.
    pub bytes: u64,
    /// What a file of this kind holds, as the error names it: `a book`.
    pub holds: &'static str,
}

/// A file named to be read is larger than its reader takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("the file has more than {} bytes, too many for {}", .0.bytes, .0.holds)]
pub(crate) struct TooLarge(pub SizeLimit);

/// Opens the file at `path` to read at most `limit` of it, if it is a regular file (through
/// symbolic links) of at most that size, and gives its size as the system gave it. The reader
/// stops one byte past the limit, so that a file that grew since, or whose size the system does
/// not know (those of `/proc` say 0), is still read with a bound: [`read_at_most`] refuses it
/// then.
///
/// # Errors
/// The system's, [`io::ErrorKind::IsADirectory`] for a folder, for anything else that is not a
/// regular file an [`io::ErrorKind::InvalidInput`] error holding `NotRegularFile`, and for a
/// larger file an [`io::ErrorKind::FileTooLarge`] error holding `TooLarge`; either way nothing
/// was read.
pub fn open_at_most(path: &Path, limit: SizeLimit) -> io::Result<(io::Take<File>, u64)> {
    // A look before opening: opening a device can act on it (a tape rewinds when closed).
    check_regular(&fs::metadata(path)?)?;
    let file = open_without_waiting(path)?;
    // The file opened, not the name looked at, which may have been replaced since.
    let found = file.metadata()?;
    check_regular(&found)?;
    if found.len() > limit.bytes {
        return Err(too_large(limit));
    }
    Ok((file.take(limit.bytes + 1), found.len()))
}

/// The bytes of the file at `path`, opened as [`open_at_most`] opens it.
///
/// # Errors
/// As [`open_at_most`]'s, also for a file found larger than `limit` as it is read; and the
/// system's, when reading fails.
pub fn read_at_most(path: &Path, limit: SizeLimit) -> io::Result<Vec<u8>> {
    let (mut file, size) = open_at_most(path, limit)?;
    // The size is a hint only: the file may have shrunk or grown since.
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit.bytes {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

fn too_large(limit: SizeLimit) -> io::Error {
    io::Error::new(io::ErrorKind::FileTooLarge, TooLarge(limit))
}

/// Nothing, if nothing is at `path` or a regular file is; otherwise the error [`open_at_most`]
/// gives.
///
/// # Errors
/// See [`open_at_most`].
pub fn refuse_non_regular(path: &Path) -> io::Result<()> {
    match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        found => check_regular(&found?),
    }
}

fn check_regular(found: &fs::Metadata) -> io::Result<()> {
    if found.is_dir() {
        Err(io::ErrorKind::IsADirectory.into())
    } else if found.is_file() {
        Ok(())
    } else {
        Err(io::Error::new(io::ErrorKind::InvalidInput, NotRegularFile))
    }
}

/// Opens `path` to read, without waiting for a writer at the other end of a pipe or for a
/// device to be ready (`O_NONBLOCK`, which changes nothing for a regular file).
#[cfg(unix)]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// Opens `path` to read.
#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Files this process made and removes itself before it ends.
#[derive(Debug)]
struct OwnFiles(Mutex<Vec<PathBuf>>);

impl OwnFiles {
    const fn new() -> OwnFiles {
        OwnFiles(Mutex::new(Vec::new()))
    }

    fn list(&self) -> std::sync::MutexGuard<'_, Vec<PathBuf>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn own(&self, path: &Path) {
        self.list().push(path.to_path_buf());
    }

    /// Runs `end`, which removes or renames the file at `path`, and forgets the file, both at
    /// once for [`remove_all`](Self::remove_all), which so never removes a file of that name
    /// made since by someone else.
    fn disown<T>(&self, path: &Path, end: impl FnOnce() -> T) -> T {
        let mut files = self.list();
        let ended = end();
        if let Some(at) = files.iter().position(|file| file == path) {
            files.swap_remove(at);
        }
        ended
    }

    fn remove_all(&self) {
        for file in self.list().iter() {
            let _ = fs::remove_file(file);
        }
    }
}

/// The files of this process: [`NewFile`]s not yet renamed over their targets, and the
/// checkpoint locks it holds. A process that a signal ends at once runs no destructors:
/// [`remove_own_files`] removes them then.
static OWN_FILES: OwnFiles = OwnFiles::new();

/// Notes that this process made `path`, and will remove it or rename it before it ends.
pub fn own(path: &Path) {
    OWN_FILES.own(path);
}

/// Runs `end`, which removes or renames the file at `path` that this process made, and notes
/// that the file is no longer this process's.
pub fn disown<T>(path: &Path, end: impl FnOnce() -> T) -> T {
    OWN_FILES.disown(path, end)
}

/// Removes the files this process made and has not yet removed or renamed (a checkpoint's
/// unfinished save, the checkpoint's lock), for a process about to end without running its
/// destructors.
pub fn remove_own_files() {
    OWN_FILES.remove_all();
}

/// A file being written to take the place of its target, in the target's folder under a random
/// name; removed when dropped unless [`replace`](Self::replace) or [`create`](Self::create)
/// renamed it.
#[derive(Debug)]
pub struct NewFile {
    /// The file; none once renamed, or removed on the way.
    temporary: Option<NamedTempFile>,
    /// Its name, so long as it is this process's.
    path: PathBuf,
}

impl NewFile {
    /// Makes an empty file beside `target` (in its folder): new, under a name no file had, with
    /// the permissions any new file gets (the umask's).
    ///
    /// # Errors
    /// `target` is there and is not a regular file, which the new file would replace (a device
    /// such as `/dev/null`, a pipe: see [`open_at_most`]), or the folder cannot be written.
    pub fn beside(target: &Path) -> io::Result<NewFile> {
        refuse_non_regular(target)?;
        let folder = target
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut prefix = OsString::from(".");
        if let Some(name) = target.file_name() {
            prefix.push(name);
            prefix.push(".");
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // The crate's own default, 0600, would change a saved game's or a book's permissions
        // from what the user's umask gives any other file.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let temporary = builder.tempfile_in(folder)?;
        let path = temporary.path().to_path_buf();
        own(&path);
        Ok(NewFile {
            temporary: Some(temporary),
            path,
        })
    }

    /// The file, to write and read.
    pub fn file(&mut self) -> &mut File {
        self.temporary
            .as_mut()
            .expect("a new file is there until it is renamed, which consumes it")
            .as_file_mut()
    }

    /// Syncs the file to disk and renames it over `target`, in place of whatever was there
    /// (a symbolic link itself, not the file it names), and returns it.
    ///
    /// # Errors
    /// The file cannot be synced or renamed; it is removed, and `target` is left as it was.
    pub fn replace(self, target: &Path) -> io::Result<File> {
        self.rename(target, |file, target| file.persist(target))
    }

    /// Syncs the file to disk and renames it to `target`, which must not exist yet, and
    /// returns it.
    ///
    /// # Errors
    /// A file is at `target` already, or the file cannot be synced or renamed; it is removed,
    /// and `target` is left as it was.
    pub fn create(self, target: &Path) -> io::Result<File> {
        self.rename(target, |file, target| file.persist_noclobber(target))
    }

    fn rename(
        mut self,
        target: &Path,
        rename: fn(NamedTempFile, &Path) -> Result<File, tempfile::PersistError>,
    ) -> io::Result<File> {
        let temporary = self
            .temporary
            .take()
            .expect("a new file is there until it is renamed, which consumes it");
        temporary.as_file().sync_all()?;
        // On an error, the file goes with `temporary`.
        let file = disown(&self.path, || {
            rename(temporary, target).map_err(|e| e.error)
        })?;
        // The rename lasts through a crash of the system only once the folder is written too;
        // a system that cannot open or sync a folder still has the file whole.
        let folder = target.parent().filter(|p| !p.as_os_str().is_empty());
        if let Ok(folder) = File::open(folder.unwrap_or(Path::new("."))) {
            let _ = folder.sync_all();
        }
        Ok(file)
    }
}

impl Drop for NewFile {
    fn drop(&mut self) {
        // Removed with `temporary`, unless renamed or removed already.
        let temporary = self.temporary.take();
        disown(&self.path, || drop(temporary));
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Seek, Write};

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let folder = std::env::temp_dir().join(format!("c4-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).unwrap();
        folder
    }

    /// The names in `folder`, sorted.
    fn names(folder: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(folder)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// A limit for the tests' files.
    const ANY: SizeLimit = SizeLimit {
        bytes: 1 << 20,
        holds: "a test",
    };

    fn is_own(path: &Path) -> bool {
        OWN_FILES.list().iter().any(|file| file == path)
    }

    #[test]
    fn a_new_file_replaces_its_target_whole_and_leaves_every_other_file_alone() {
        let folder = scratch("replace");
        let target = folder.join("notes");
        fs::write(&target, "old").unwrap();
        // The names earlier versions wrote through, made by someone else.
        for other in ["notes.tmp", ".notes.c4-1.tmp", "notes.lock"] {
            fs::write(folder.join(other), "theirs").unwrap();
        }
        let mut new = NewFile::beside(&target).unwrap();
        let made = new.path.clone();
        assert!(is_own(&made));
        assert_eq!(made.parent(), Some(folder.as_path()));
        let name = made.file_name().unwrap().to_str().unwrap();
        assert!(
            name.starts_with(".notes.") && name.ends_with(".tmp") && name.len() > 12,
            "{name}"
        );
        new.file().write_all(b"new").unwrap();
        let mut back = String::new();
        new.file().rewind().unwrap();
        new.file().read_to_string(&mut back).unwrap();
        assert_eq!(back, "new");
        new.replace(&target).unwrap();
        assert!(!is_own(&made));
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(
            names(&folder),
            [".notes.c4-1.tmp", "notes", "notes.lock", "notes.tmp"]
        );
        for other in ["notes.tmp", ".notes.c4-1.tmp", "notes.lock"] {
            assert_eq!(fs::read_to_string(folder.join(other)).unwrap(), "theirs");
        }
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_new_file_dropped_or_failing_to_rename_is_removed_and_the_target_kept() {
        let folder = scratch("dropped");
        let target = folder.join("game.txt");
        fs::write(&target, "old").unwrap();
        let mut dropped = NewFile::beside(&target).unwrap();
        dropped.file().write_all(b"half").unwrap();
        let made = dropped.path.clone();
        drop(dropped);
        assert!(!made.exists() && !is_own(&made));
        // A rename that fails: into a folder that is not there.
        let new = NewFile::beside(&target).unwrap();
        assert!(new
            .replace(&folder.join("missing").join("game.txt"))
            .is_err());
        // Created only where nothing is.
        let new = NewFile::beside(&target).unwrap();
        let refused = new.create(&target).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(names(&folder), ["game.txt"]);
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        let fresh = folder.join("fresh");
        let mut file = NewFile::beside(&fresh).unwrap().create(&fresh).unwrap();
        file.write_all(b"made").unwrap();
        assert_eq!(fs::read_to_string(&fresh).unwrap(), "made");
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn own_files_are_removed_before_an_end_at_once() {
        // A list of its own: the process's is every test's.
        let folder = scratch("own");
        let own = OwnFiles::new();
        let (kept, made, renamed) = (folder.join("a"), folder.join("b"), folder.join("c"));
        for file in [&kept, &made, &renamed] {
            fs::write(file, "").unwrap();
        }
        own.own(&made);
        own.own(&renamed);
        own.disown(&renamed, || fs::rename(&renamed, folder.join("d")).unwrap());
        own.remove_all();
        assert_eq!(names(&folder), ["a", "d"]);
        fs::remove_dir_all(&folder).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_planted_beside_the_target_is_never_followed() {
        let folder = scratch("planted");
        let victim = folder.join("victim");
        fs::write(&victim, "precious").unwrap();
        let target = folder.join("notes");
        // Every name a temporary file could have is random, so a link at one is an improbable
        // guess; those of earlier versions, and one shaped like this version's, stay links.
        for name in ["notes.tmp", ".notes.c4-1.tmp", ".notes.AAAAAA.tmp"] {
            std::os::unix::fs::symlink(&victim, folder.join(name)).unwrap();
        }
        let mut new = NewFile::beside(&target).unwrap();
        new.file().write_all(b"mine").unwrap();
        new.replace(&target).unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine");
        for name in ["notes.tmp", ".notes.c4-1.tmp", ".notes.AAAAAA.tmp"] {
            let link = fs::symlink_metadata(folder.join(name)).unwrap();
            assert!(link.file_type().is_symlink(), "{name}");
        }
        fs::remove_dir_all(&folder).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_opened_to_read() {
        let folder = scratch("regular");
        let file = folder.join("file");
        fs::write(&file, "text").unwrap();
        assert_eq!(read_at_most(&file, ANY).unwrap(), b"text");
        let link = folder.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_at_most(&link, ANY).unwrap(), b"text");
        assert!(refuse_non_regular(&link).is_ok());
        assert!(refuse_non_regular(&folder.join("missing")).is_ok());
        let not_regular = |path: &Path| {
            let opened = open_at_most(path, ANY).unwrap_err();
            let refused = refuse_non_regular(path).unwrap_err();
            for e in [opened, refused] {
                assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{}", path.display());
                assert_eq!(
                    super::super::words::describe(&e),
                    "it is not a regular file (a pipe, a device or a socket)"
                );
                assert!(e.get_ref().is_some_and(|e| e.is::<NotRegularFile>()));
            }
        };
        // A pipe with no writer would have made a plain open wait for one for good.
        let pipe = folder.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        assert!(made.unwrap().success());
        not_regular(&pipe);
        not_regular(Path::new("/dev/null"));
        // Nor is one replaced by a new file, nor is a folder.
        let refused = NewFile::beside(&pipe).unwrap_err();
        assert!(refused.get_ref().is_some_and(|e| e.is::<NotRegularFile>()));
        let refused = NewFile::beside(&folder).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::IsADirectory);
        not_regular(Path::new("/dev/zero"));
        let socket = std::os::unix::net::UnixListener::bind(folder.join("socket")).unwrap();
        not_regular(&folder.join("socket"));
        drop(socket);
        let e = open_at_most(&folder, ANY).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
        let e = open_at_most(&folder.join("missing"), ANY).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_file_over_the_limit_is_refused_by_its_size_unread() {
        let folder = scratch("sized");
        let file = folder.join("ten");
        fs::write(&file, [7u8; 10]).unwrap();
        let limit = |bytes| SizeLimit {
            bytes,
            holds: "a test",
        };
        assert_eq!(read_at_most(&file, limit(10)).unwrap(), [7u8; 10]);
        let refused = read_at_most(&file, limit(9)).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            super::super::words::describe(&refused),
            "the file has more than 9 bytes, too many for a test"
        );
        // 10 GiB, all of it a hole: reading it would take seconds and a limit's worth of
        // memory, and the file says its size at once.
        let sparse = folder.join("sparse");
        File::create(&sparse).unwrap().set_len(10 << 30).unwrap();
        let refused = open_at_most(&sparse, limit(1 << 30)).unwrap_err();
        assert!(refused.get_ref().is_some_and(|e| e.is::<TooLarge>()));
        fs::remove_dir_all(&folder).unwrap();
    }

    /// The system's files say they are empty: the reading is what stops at the limit.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_that_hides_its_size_is_cut_off_as_it_is_read() {
        let (mut file, size) = open_at_most(Path::new("/proc/self/maps"), ANY).unwrap();
        assert_eq!(size, 0);
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).unwrap();
        assert!(!bytes.is_empty() && bytes.len() as u64 <= ANY.bytes + 1);
        let small = SizeLimit {
            bytes: 8,
            holds: "a test",
        };
        let refused = read_at_most(Path::new("/proc/self/maps"), small).unwrap_err();
        assert_eq!(refused.kind(), io::ErrorKind::FileTooLarge);
    }
}
