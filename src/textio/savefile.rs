//! Saved games on disk, in the S0 format: one line per player's name, in turn order, then a FEN
//! line. Saving never destroys an existing file: it writes a temporary file beside the target,
//! reads it back, and only then renames it over the target. A symbolic link is followed to the
//! file it names, the file keeps its permissions, and anything but a regular file (a device, a
//! pipe) is refused, since the rename would replace it.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::describe;
use crate::notation::{Fen, FenError};
use crate::rules::{check_name, Game, NameError, Variant, MAX_PLAYERS};

/// The largest file `load` reads: a 16x16 FEN and eight 64-character names fit many times over.
pub const MAX_SAVE_BYTES: u64 = 16 * 1024;

/// Why a game could not be saved or loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SaveError {
    /// The file system refused.
    #[error("cannot {action} {path}: {reason}")]
    Io {
        action: &'static str,
        path: String,
        reason: String,
    },
    /// The file written did not read back the same.
    #[error(
        "cannot save {0}: the file read back differs from what was written; the old file is kept"
    )]
    ReadBack(String),
    /// The file is larger than any saved game.
    #[error("cannot load {path}: the file has more than {MAX_SAVE_BYTES} bytes, too many for a saved game")]
    TooLarge { path: String },
    /// The file is not text.
    #[error("cannot load {0}: the file is not UTF-8 text")]
    NotText(String),
    /// Lines missing or extra.
    #[error("cannot load {path}: a saved game has {expected} lines (one name per player, then a FEN), the file has {found}{}", other_players(*found))]
    LineCount {
        path: String,
        expected: usize,
        found: usize,
    },
    /// A name line that is empty.
    #[error("cannot load {path}: line {line} should be a player's name but is empty")]
    EmptyName { path: String, line: usize },
    /// A name line that is no player's name (too long).
    #[error("cannot load {path}: line {line}: {source}")]
    Name {
        path: String,
        line: usize,
        source: NameError,
    },
    /// The FEN line is not a position of this game.
    #[error("cannot load {path}: line {line}: {source}")]
    Fen {
        path: String,
        line: usize,
        source: FenError,
    },
}

/// For a file of `lines` lines that a game of other players would have: which, since the file
/// does not say how many players the game is for (S0's format), the session's setting does.
fn other_players(lines: usize) -> String {
    match lines.checked_sub(1) {
        Some(players @ 2..=MAX_PLAYERS) => {
            format!(
                ", as a game of {players} players would: set {players} players before loading it"
            )
        }
        _ => String::new(),
    }
}

fn io_error<'a>(action: &'static str, path: &'a Path) -> impl Fn(io::Error) -> SaveError + 'a {
    move |e| SaveError::Io {
        action,
        path: path.display().to_string(),
        reason: describe(&e),
    }
}

/// The text of a saved game.
pub fn format(names: &[String], fen: &str) -> String {
    let mut text = String::new();
    for name in names {
        text.push_str(name);
        text.push('\n');
    }
    text.push_str(fen);
    text.push('\n');
    text
}

/// Writes `names` and `fen` to `path` without ever leaving a half-written file there.
pub fn save(path: &Path, names: &[String], fen: &str) -> Result<(), SaveError> {
    save_with(path, &format(names, fen), |from, to| fs::rename(from, to))
}

/// [`save`] with the last step, moving the checked temporary file over the target, handed in:
/// tests make it fail to show that the old file survives.
fn save_with(
    path: &Path,
    text: &str,
    replace: impl FnOnce(&Path, &Path) -> io::Result<()>,
) -> Result<(), SaveError> {
    let (target, permissions) = save_target(path)?;
    let temporary = temporary_path(&target);
    let result = write_checked(&temporary, text, path, permissions)
        .and_then(|()| replace(&temporary, &target).map_err(io_error("save", path)));
    if result.is_err() {
        // The temporary file may not exist; either way the target is untouched.
        let _ = fs::remove_file(&temporary);
    }
    result
}

/// The file a save to `path` replaces (through symbolic links) and its permissions, if it
/// exists; an error for a directory or anything else that is not a regular file.
fn save_target(path: &Path) -> Result<(PathBuf, Option<fs::Permissions>), SaveError> {
    let refused = |reason: &str| SaveError::Io {
        action: "save",
        path: path.display().to_string(),
        reason: reason.into(),
    };
    match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok((dangling_target(path), None)),
        Err(e) => Err(io_error("save", path)(e)),
        Ok(found) if found.is_dir() => Err(refused("it is a directory")),
        Ok(found) if !found.is_file() => Err(refused(
            "it is not a regular file (a device or a pipe), which saving would replace",
        )),
        Ok(found) => {
            let target = fs::canonicalize(path).map_err(io_error("save", path))?;
            Ok((target, Some(found.permissions())))
        }
    }
}

/// The file a save to the missing `path` makes: the file a symbolic link there names (through
/// a chain of links, as the system follows them), or `path` itself.
fn dangling_target(path: &Path) -> PathBuf {
    let mut target = path.to_path_buf();
    // The system's own limit on links in a row (Linux's 40), so that a loop ends.
    for _ in 0..40 {
        let is_link = fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink());
        match fs::read_link(&target) {
            Ok(named) if is_link => {
                target = target.parent().unwrap_or(Path::new("")).join(named);
            }
            _ => break,
        }
    }
    target
}

/// The temporary file beside `path`: same folder, so the rename cannot cross file systems.
fn temporary_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.c4-{}.tmp", std::process::id()))
}

/// Writes `text` to `temporary`, flushes it to disk, reads it back to compare, and gives it
/// `permissions` (the replaced file's).
fn write_checked(
    temporary: &Path,
    text: &str,
    target: &Path,
    permissions: Option<fs::Permissions>,
) -> Result<(), SaveError> {
    let mut file = fs::File::create(temporary).map_err(io_error("save", target))?;
    file.write_all(text.as_bytes())
        .map_err(io_error("save", target))?;
    file.sync_all().map_err(io_error("save", target))?;
    let back = fs::read(temporary).map_err(io_error("save", target))?;
    if back != text.as_bytes() {
        return Err(SaveError::ReadBack(target.display().to_string()));
    }
    // Only now: a file its owner cannot read (mode 0200, say) keeps that mode too.
    if let Some(permissions) = permissions {
        fs::set_permissions(temporary, permissions).map_err(io_error("save", target))?;
    }
    Ok(())
}

/// Reads a saved game for `variant`'s players; the FEN sets the board size.
pub fn load(path: &Path, variant: &Variant) -> Result<(Vec<String>, Game), SaveError> {
    let shown = path.display().to_string();
    let file = fs::File::open(path).map_err(io_error("load", path))?;
    let mut bytes = Vec::new();
    file.take(MAX_SAVE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error("load", path))?;
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Err(SaveError::TooLarge { path: shown });
    }
    let text = String::from_utf8(bytes).map_err(|_| SaveError::NotText(shown.clone()))?;
    parse(&text, variant).map_err(|e| e.at(&shown))
}

/// What is wrong with a saved game's text, before the path is known.
enum TextError {
    LineCount { expected: usize, found: usize },
    EmptyName(usize),
    Name(usize, NameError),
    Fen(usize, FenError),
}

impl TextError {
    fn at(self, path: &str) -> SaveError {
        let path = path.to_string();
        match self {
            TextError::LineCount { expected, found } => SaveError::LineCount {
                path,
                expected,
                found,
            },
            TextError::EmptyName(line) => SaveError::EmptyName { path, line },
            TextError::Name(line, source) => SaveError::Name { path, line, source },
            TextError::Fen(line, source) => SaveError::Fen { path, line, source },
        }
    }
}

fn parse(text: &str, variant: &Variant) -> Result<(Vec<String>, Game), TextError> {
    let mut lines: Vec<&str> = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // Blank lines after the FEN (an editor's, say) are no part of the game.
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let expected = variant.players() + 1;
    if lines.len() != expected {
        return Err(TextError::LineCount {
            expected,
            found: lines.len(),
        });
    }
    let (names, fen_line) = lines.split_at(variant.players());
    for (i, name) in names.iter().enumerate() {
        match check_name(name.trim()) {
            Ok(()) => {}
            Err(NameError::Empty) => return Err(TextError::EmptyName(i + 1)),
            Err(e) => return Err(TextError::Name(i + 1, e)),
        }
    }
    let game = Fen::parse(fen_line[0])
        .map_err(FenError::from)
        .and_then(|fen| Ok(fen.to_game(variant)?))
        .map_err(|e| TextError::Fen(expected, e))?;
    Ok((names.iter().map(|n| n.trim().to_string()).collect(), game))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("c4-savefile-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).unwrap();
        folder
    }

    #[test]
    fn a_save_that_fails_before_the_rename_keeps_the_old_file() {
        let folder = scratch("rename");
        let target = folder.join("game.txt");
        fs::write(&target, "old\n").unwrap();
        let result = save_with(&target, "new\n", |_, _| {
            Err(io::Error::other("simulated power cut"))
        });
        assert_eq!(
            result,
            Err(SaveError::Io {
                action: "save",
                path: target.display().to_string(),
                reason: "simulated power cut".into(),
            })
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "old\n");
        let left: Vec<_> = fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            left,
            vec![std::ffi::OsString::from("game.txt")],
            "no temporary file is left"
        );
        fs::remove_dir_all(&folder).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_save_follows_links_keeps_permissions_and_never_replaces_a_device() {
        use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
        let folder = scratch("special");
        let names = vec!["Ann".to_string(), "Ben".to_string()];
        let fen = "7/7/7/7/7/7 x";
        let target = folder.join("game.txt");
        fs::write(&target, "old\n").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        let link = folder.join("link.txt");
        symlink(&target, &link).unwrap();
        save(&link, &names, fen).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), format(&names, fen));
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A link to a file not made yet: the file is made, the link stays.
        let dangling = folder.join("dangling.txt");
        symlink("later.txt", &dangling).unwrap();
        save(&dangling, &names, fen).unwrap();
        assert!(fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read_to_string(folder.join("later.txt")).unwrap(),
            format(&names, fen)
        );
        // A file its owner cannot read keeps its mode too (the read-back comes first).
        fs::set_permissions(&target, fs::Permissions::from_mode(0o200)).unwrap();
        save(&target, &names, fen).unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o200);
        // A pipe stands for any file that is not a regular one (a device such as /dev/null).
        let pipe = folder.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        if made.is_ok_and(|s| s.success()) {
            let refused = save(&pipe, &names, fen).unwrap_err().to_string();
            assert!(refused.contains("not a regular file"), "{refused}");
            assert!(fs::metadata(&pipe).unwrap().file_type().is_fifo());
        }
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_save_replaces_the_file_whole_and_loads_back() {
        let folder = scratch("roundtrip");
        let target = folder.join("game.txt");
        fs::write(&target, "old\n").unwrap();
        let names = vec!["Ann".to_string(), "Ben".to_string()];
        save(&target, &names, "2x1oo1/2x4/7/7/7/7 x").unwrap();
        assert_eq!(
            fs::read_to_string(&target).unwrap(),
            "Ann\nBen\n2x1oo1/2x4/7/7/7/7 x\n"
        );
        let (loaded, game) = load(&target, &Variant::default()).unwrap();
        assert_eq!(loaded, names);
        assert_eq!(crate::notation::fen_of(&game), "2x1oo1/2x4/7/7/7/7 x");
        // Blank lines after the FEN are ignored.
        fs::write(&target, "Ann\nBen\n2x1oo1/2x4/7/7/7/7 x\n\n  \r\n").unwrap();
        assert_eq!(load(&target, &Variant::default()).unwrap().0, names);
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn loaded_names_follow_the_rules_for_names() {
        let long = "a".repeat(crate::rules::MAX_NAME_CHARS + 1);
        let text = format!("Ann\n{long}\n7/7/7/7/7/7 x\n");
        let error = parse(&text, &Variant::default())
            .err()
            .unwrap()
            .at("game.txt");
        assert_eq!(
            error.to_string(),
            "cannot load game.txt: line 2: a name has at most 64 characters, got 65"
        );
        let error = parse("Ann\n \n7/7/7/7/7/7 x\n", &Variant::default())
            .err()
            .unwrap();
        assert!(matches!(error, TextError::EmptyName(2)));
    }
}
