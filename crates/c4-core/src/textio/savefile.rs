//! Saved games on disk, in the classic format: one line per player's name, in turn order, then a
//! FEN line. A game whose rules are not the standard game's (two players `x` and `o`, connect 4,
//! drawn only on a full board; the FEN gives the size) adds one line after the FEN that states
//! them (`#c4 players 3 connect 4 tokens xoa early-draw off`), so that a file says its game's
//! rules either way: a file without that line is a standard game. Saving never destroys an
//! existing file: it writes a new file beside the target ([`NewFile`]), reads it back, and only
//! then renames it over the target. A symbolic link is followed to the file it names, the file
//! keeps its permissions, and anything but a regular file (a device, a pipe) is refused, since
//! the rename would replace it. Loading reads regular files of at most [`MAX_SAVE_BYTES`] only
//! ([`read_at_most`]).

use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::files::{read_at_most, NewFile, SizeLimit};
use super::words::describe;
use crate::notation::{
    fen_of, Fen, FenError, FenPositionError, SettingError, Settings, SettingsVariantError,
};
use crate::rules::{check_name, unfit_in_a_line, Game, NameError, Variant};

/// The word that starts the line after the FEN that states a game's rules. No FEN starts with
/// `#`, and the line is the last, so a name that happens to start so is never taken for it.
const RULES_WORD: &str = "#c4";

/// The largest file `load` reads: a 16x16 FEN and eight 64-character names fit many times over.
pub(crate) const MAX_SAVE_BYTES: u64 = 16 * 1024;

/// How much of a saved game's file is read.
const SAVE_FILE: SizeLimit = SizeLimit {
    bytes: MAX_SAVE_BYTES,
    holds: "a saved game",
};

/// Why a game could not be saved or loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SaveError {
    /// The file system refused, or the file is no regular file or too large to be a saved game.
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
    /// The file is not text.
    #[error("cannot load {0}: the file is not UTF-8 text")]
    NotText(String),
    /// Lines missing or extra in a file without a rules line.
    #[error("cannot load {path}: a saved game without a rules line is a standard game, 3 lines (two names, then a FEN); the file has {found}{more}")]
    LineCount {
        path: String,
        found: usize,
        /// What a file of that many lines would need, when its last line is a FEN, or empty.
        more: String,
    },
    /// A character other than tab that one line cannot hold ([`unfit_in_a_line`]).
    #[error("cannot load {path}: line {line} contains the {kind} U+{code:04X}; a saved game is lines of printable text")]
    NotOneLine {
        path: String,
        line: usize,
        kind: &'static str,
        code: u32,
    },
    /// An empty line before the end.
    #[error("cannot load {path}: line {line} is empty, where a name or the FEN should be")]
    EmptyLine { path: String, line: usize },
    /// A name line that is no player's name (too long).
    #[error("cannot load {path}: line {line}: {source}")]
    Name {
        path: String,
        line: usize,
        source: NameError,
    },
    /// The FEN line is not a position of this game.
    #[error("cannot load {path}: line {line}: {source}{more}")]
    Fen {
        path: String,
        line: usize,
        source: FenError,
        /// For a token the standard rules do not have, in a file without a rules line: what it needs.
        more: String,
    },
    /// The rules line is not one `c4` writes, or not where it belongs.
    #[error("cannot load {path}: line {line}: {source}")]
    Rules {
        path: String,
        line: usize,
        source: RulesLineError,
    },
    /// The rules line's players and the lines before it disagree.
    #[error("cannot load {path}: its rules line says {players} players, so {players} names and a FEN line should come before it, but {found} lines do")]
    RulesLines {
        path: String,
        players: usize,
        found: usize,
    },
}

/// What is wrong with a rules line, or with where it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesLineError {
    /// A last line that starts with `#` but not with the rules line's word.
    #[error(
        "the line after the FEN can only be a rules line, \
         '{RULES_WORD} players … connect … tokens … early-draw …'"
    )]
    NotRules,
    /// Settings that are not well formed, in the settings' words.
    #[error("{0}")]
    Setting(#[from] SettingError),
    /// A board size, which the FEN gives.
    #[error("the rules line cannot set the board's size: the FEN gives it")]
    Size,
    /// Rules left out.
    #[error(
        "the rules line should give players, connect, tokens and early-draw, e.g. '{}'",
        example_rules_line("xoa")
    )]
    Incomplete,
    /// Rules that make no game, in the rules' words.
    #[error("{0}")]
    Variant(#[from] SettingsVariantError),
    /// A rules line before the last.
    #[error("a second rules line; a file has one, after the FEN")]
    Second,
    /// A rules line with more lines after it.
    #[error("the rules line must be the last line of the file")]
    NotLast,
}

/// The rules line that states `rules`.
fn rules_line(rules: &Settings) -> String {
    format!("{RULES_WORD} {rules}")
}

/// The rules line of a standard game but for its players, one for each of `tokens`, as messages
/// give it as an example.
fn example_rules_line(tokens: &str) -> String {
    rules_line(&Settings {
        players: Some(tokens.chars().count()),
        tokens: Some(tokens.chars().collect()),
        ..Settings::rules_of(&Variant::default())
    })
}

/// For a file without a rules line whose `lines` lines, the last a FEN, a game of more players
/// would have: what such a game's file needs.
fn other_players(lines: usize) -> String {
    let players = lines.saturating_sub(1);
    match Variant::default_tokens(players) {
        Ok(tokens) if players != 2 => format!(
            ", as a game of {players} players would, which needs a rules line after the FEN \
             such as '{}'",
            example_rules_line(&tokens.iter().map(|t| t.as_char()).collect::<String>())
        ),
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

/// The text of a saved game: a line per name, the FEN, and the rules line if the rules are not
/// the grid program's.
pub(crate) fn format(names: &[String], game: &Game) -> String {
    let mut text = String::new();
    for name in names {
        text.push_str(name);
        text.push('\n');
    }
    text.push_str(&fen_of(game));
    text.push('\n');
    let variant = game.variant();
    let standard = Variant::default().with_size(variant.width(), variant.height());
    if standard.as_ref() != Ok(variant) {
        text.push_str(&rules_line(&Settings::rules_of(variant)));
        text.push('\n');
    }
    text
}

/// Writes `names` and `game` to `path` without ever leaving a half-written file there.
pub fn save(path: &Path, names: &[String], game: &Game) -> Result<(), SaveError> {
    save_with(path, &format(names, game), NewFile::replace)
}

/// [`save`] with the last step, renaming the checked new file over the target, handed in:
/// tests make it fail to show that the old file survives.
fn save_with(
    path: &Path,
    text: &str,
    replace: impl FnOnce(NewFile, &Path) -> io::Result<File>,
) -> Result<(), SaveError> {
    let (target, permissions) = save_target(path)?;
    let mut new = NewFile::beside(&target).map_err(io_error("save", path))?;
    write_checked(new.file(), text, path, permissions)?;
    replace(new, &target).map_err(io_error("save", path))?;
    Ok(())
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

/// Writes `text` to the new `file`, flushes it to disk, reads it back to compare, and gives it
/// `permissions` (the replaced file's); errors name `target`.
fn write_checked(
    file: &mut File,
    text: &str,
    target: &Path,
    permissions: Option<fs::Permissions>,
) -> Result<(), SaveError> {
    file.write_all(text.as_bytes())
        .map_err(io_error("save", target))?;
    // No sync here: the new file is synced once, as it replaces the target.
    let mut back = Vec::new();
    file.rewind()
        .and_then(|()| file.read_to_end(&mut back))
        .map_err(io_error("save", target))?;
    if back != text.as_bytes() {
        return Err(SaveError::ReadBack(target.display().to_string()));
    }
    // Only now: a file its owner cannot read (mode 0200, say) keeps that mode too.
    if let Some(permissions) = permissions {
        file.set_permissions(permissions)
            .map_err(io_error("save", target))?;
    }
    Ok(())
}

/// Reads a saved game: by the rules its rules line states, or else by the grid program's; the FEN
/// sets the board size.
pub fn load(path: &Path) -> Result<(Vec<String>, Game), SaveError> {
    let shown = path.display().to_string();
    let bytes = read_at_most(path, SAVE_FILE).map_err(io_error("load", path))?;
    let text = String::from_utf8(bytes).map_err(|_| SaveError::NotText(shown.clone()))?;
    parse(&text).map_err(|e| e.at(&shown))
}

/// What is wrong with a saved game's text, before the path is known.
enum TextError {
    NotOneLine {
        line: usize,
        kind: &'static str,
        code: u32,
    },
    LineCount {
        found: usize,
        more: String,
    },
    EmptyLine(usize),
    Name(usize, NameError),
    Fen(usize, FenError, String),
    Rules(usize, RulesLineError),
    RulesLines {
        players: usize,
        found: usize,
    },
}

impl TextError {
    fn at(self, path: &str) -> SaveError {
        let path = path.to_string();
        match self {
            TextError::NotOneLine { line, kind, code } => SaveError::NotOneLine {
                path,
                line,
                kind,
                code,
            },
            TextError::LineCount { found, more } => SaveError::LineCount { path, found, more },
            TextError::EmptyLine(line) => SaveError::EmptyLine { path, line },
            TextError::Name(line, source) => SaveError::Name { path, line, source },
            TextError::Fen(line, source, more) => SaveError::Fen {
                path,
                line,
                source,
                more,
            },
            TextError::Rules(line, source) => SaveError::Rules { path, line, source },
            TextError::RulesLines { players, found } => SaveError::RulesLines {
                path,
                players,
                found,
            },
        }
    }
}

fn parse(text: &str) -> Result<(Vec<String>, Game), TextError> {
    let mut lines: Vec<&str> = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // Before anything of a line is read: an error that quotes a line then quotes one line.
    let unfit = |c| unfit_in_a_line(c).filter(|_| c != '\t');
    for (i, line) in lines.iter().enumerate() {
        if let Some((c, kind)) = line.chars().find_map(|c| Some((c, unfit(c)?))) {
            return Err(TextError::NotOneLine {
                line: i + 1,
                kind,
                code: u32::from(c),
            });
        }
    }
    // Blank lines at the end (an editor's, say) are no part of the game.
    let drop_blank_lines = |lines: &mut Vec<&str>| {
        while lines.last().is_some_and(|l| l.trim().is_empty()) {
            lines.pop();
        }
    };
    drop_blank_lines(&mut lines);
    let stated = match lines.last().map(|l| l.trim()) {
        Some(last) if last.starts_with('#') => {
            let rules = last
                .strip_prefix(RULES_WORD)
                .filter(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
                .ok_or(RulesLineError::NotRules)
                .and_then(parse_rules)
                .map_err(|reason| TextError::Rules(lines.len(), reason))?;
            lines.pop();
            drop_blank_lines(&mut lines);
            Some(rules)
        }
        _ => None,
    };
    // Every line left is a name or the FEN.
    if let Some(i) = lines.iter().position(|l| l.trim().is_empty()) {
        return Err(TextError::EmptyLine(i + 1));
    }
    let is_fen = |line: &str| Fen::parse(line).is_ok();
    let has_rules_line = stated.is_some();
    let variant = match stated {
        Some(rules) => {
            if lines
                .last()
                .is_some_and(|l| l.trim_start().starts_with('#'))
            {
                return Err(TextError::Rules(lines.len(), RulesLineError::Second));
            }
            if lines.len() != rules.players() + 1 {
                return Err(TextError::RulesLines {
                    players: rules.players(),
                    found: lines.len(),
                });
            }
            rules
        }
        None => {
            let standard = Variant::default();
            if lines.len() != standard.players() + 1 {
                // A rules line with more lines after it, right after the FEN.
                let misplaced = (1..lines.len()).find(|&i| {
                    lines[i].trim_start().starts_with(RULES_WORD) && is_fen(lines[i - 1])
                });
                if let Some(i) = misplaced {
                    return Err(TextError::Rules(i + 1, RulesLineError::NotLast));
                }
                let more = if lines.last().is_some_and(|l| is_fen(l)) {
                    other_players(lines.len())
                } else {
                    String::new()
                };
                return Err(TextError::LineCount {
                    found: lines.len(),
                    more,
                });
            }
            standard
        }
    };
    let expected = variant.players() + 1;
    let (names, fen_line) = lines.split_at(variant.players());
    for (i, name) in names.iter().enumerate() {
        check_name(name.trim()).map_err(|e| TextError::Name(i + 1, e))?;
    }
    let game = Fen::parse(fen_line[0])
        .map_err(FenError::from)
        .and_then(|fen| Ok(fen.to_game(&variant)?))
        .map_err(|e| {
            let token = matches!(
                e,
                FenError::Position(
                    FenPositionError::UnknownToken { .. }
                        | FenPositionError::UnknownSideToMove { .. }
                )
            );
            let more = if token && !has_rules_line {
                format!(
                    "; a game with other tokens needs a rules line after the FEN, such as '{}'",
                    example_rules_line("XO")
                )
            } else {
                String::new()
            };
            TextError::Fen(expected, e, more)
        })?;
    Ok((names.iter().map(|n| n.trim().to_string()).collect(), game))
}

/// The rules a rules line states (after its prefix), on a 7x6 board until the FEN sets the size:
/// the settings grammar's, all four of players, connect, tokens and early-draw, and no size.
fn parse_rules(text: &str) -> Result<Variant, RulesLineError> {
    let rules: Settings = text.parse()?;
    if rules.width.is_some() || rules.height.is_some() {
        return Err(RulesLineError::Size);
    }
    let complete = rules.players.is_some()
        && rules.connect.is_some()
        && rules.tokens.is_some()
        && rules.early_draw.is_some();
    if !complete {
        return Err(RulesLineError::Incomplete);
    }
    Ok(rules.variant(&Variant::default())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Token;

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
        let result = save_with(&target, "new\n", |new, _| {
            drop(new);
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
        let game = Game::new(Variant::default());
        let target = folder.join("game.txt");
        fs::write(&target, "old\n").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o600)).unwrap();
        let link = folder.join("link.txt");
        symlink(&target, &link).unwrap();
        save(&link, &names, &game).unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), format(&names, &game));
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A link to a file not made yet: the file is made, the link stays.
        let dangling = folder.join("dangling.txt");
        symlink("later.txt", &dangling).unwrap();
        save(&dangling, &names, &game).unwrap();
        assert!(fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            fs::read_to_string(folder.join("later.txt")).unwrap(),
            format(&names, &game)
        );
        // A file its owner cannot read keeps its mode too (the read-back comes first).
        fs::set_permissions(&target, fs::Permissions::from_mode(0o200)).unwrap();
        save(&target, &names, &game).unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o200);
        // A pipe stands for any file that is not a regular one (a device such as /dev/null).
        let pipe = folder.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&pipe).status();
        if made.is_ok_and(|s| s.success()) {
            let refused = save(&pipe, &names, &game).unwrap_err().to_string();
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
        let game = Fen::parse("2x1oo1/2x4/7/7/7/7 x")
            .unwrap()
            .to_game(&Variant::default())
            .unwrap();
        save(&target, &names, &game).unwrap();
        assert_eq!(
            fs::read_to_string(&target).unwrap(),
            "Ann\nBen\n2x1oo1/2x4/7/7/7/7 x\n"
        );
        let (loaded, game) = load(&target).unwrap();
        assert_eq!(loaded, names);
        assert_eq!(crate::notation::fen_of(&game), "2x1oo1/2x4/7/7/7/7 x");
        // Blank lines after the FEN are ignored.
        fs::write(&target, "Ann\nBen\n2x1oo1/2x4/7/7/7/7 x\n\n  \r\n").unwrap();
        assert_eq!(load(&target).unwrap().0, names);
        // A file too large for a saved game, or empty.
        fs::write(&target, vec![b'x'; MAX_SAVE_BYTES as usize + 1]).unwrap();
        assert_eq!(
            load(&target).unwrap_err().to_string(),
            format!(
                "cannot load {}: the file has more than 16384 bytes, too many for a saved game",
                target.display()
            )
        );
        fs::write(&target, "").unwrap();
        assert!(load(&target)
            .unwrap_err()
            .to_string()
            .ends_with("(two names, then a FEN); the file has 0"));
        fs::remove_dir_all(&folder).unwrap();
    }

    #[test]
    fn a_game_by_other_rules_saves_them_and_loads_by_them() {
        let tokens = ['X', 'Y', 'Z'].map(|c| Token::new(c).unwrap()).to_vec();
        let rules = Variant::new(5, 4, 3, tokens, false).unwrap();
        let mut game = Game::new(rules.clone());
        for column in [1, 2, 3] {
            game.play(game.column(column).unwrap()).unwrap();
        }
        let names = ["Ann", "Ben", "Cy"].map(String::from).to_vec();
        let text = format(&names, &game);
        assert_eq!(
            text,
            "Ann\nBen\nCy\nXYZ2/5/5/5 X\n#c4 players 3 connect 3 tokens XYZ early-draw off\n"
        );
        let (loaded, back) = parse(&text).ok().unwrap();
        assert_eq!(loaded, names);
        assert_eq!(back.variant(), &rules);
        assert_eq!(fen_of(&back), "XYZ2/5/5/5 X");
        // A standard game's file is the grid program's, three lines, whatever the board's size.
        let game = Game::new(Variant::default().with_size(9, 7).unwrap());
        assert_eq!(format(&names[..2], &game), "Ann\nBen\n9/9/9/9/9/9/9 x\n");
        // The early draw is not a standard rule: a game that plays by it says so.
        let early = Variant::new(7, 6, 4, Variant::default_tokens(2).unwrap(), true).unwrap();
        let text = format(&names[..2], &Game::new(early.clone()));
        assert_eq!(
            text,
            "Ann\nBen\n7/7/7/7/7/7 x\n#c4 players 2 connect 4 tokens xo early-draw on\n"
        );
        assert_eq!(parse(&text).ok().unwrap().1.variant(), &early);
    }

    #[test]
    fn a_bad_rules_line_is_named() {
        let error = |rules: &str| {
            let text = format!("Ann\nBen\n7/7/7/7/7/7 x\n#c4 {rules}\n");
            parse(&text).err().unwrap().at("game.txt").to_string()
        };
        assert_eq!(
            error("players 2 connect 4 tokens xo"),
            "cannot load game.txt: line 4: the rules line should give players, connect, tokens and \
             early-draw, e.g. '#c4 players 3 connect 4 tokens xoa early-draw off'"
        );
        // The settings' own words, after the line's number.
        let cases = [
            (
                "players 2 connect 4 tokens xo early-draw",
                "needs on or off after 'early-draw'",
            ),
            (
                "players 2 connect 4 tokens xo colour red",
                "has no setting 'colour'",
            ),
            (
                "players 2 players 2 tokens xo early-draw on",
                "sets players twice",
            ),
            (
                "players two connect 4 tokens xo early-draw on",
                "expected a number after 'players', got 'two'",
            ),
            (
                "players +2 connect 4 tokens xo early-draw on",
                "expected a number after 'players', got '+2'",
            ),
            (
                "players 2 connect 4 tokens xo early-draw maybe",
                "expected on or off after 'early-draw', got 'maybe'",
            ),
            (
                "players 2 connect 99999999999999999999 tokens xo early-draw on",
                "the connect length must be from 2 to 16, got 99999999999999999999",
            ),
            (
                "players 2 connect 4 tokens xoa early-draw on",
                "players 2 does not match the 3 tokens given",
            ),
            (
                "players 2 connect 1 tokens xo early-draw on",
                "the connect length must be from 2 to 16, got 1",
            ),
            (
                "players 2 connect 4 tokens x1 early-draw on",
                "'1' cannot be a token: use one printable character other than a digit, a space \
                 or / . # | + - ,",
            ),
            (
                "7x6 players 2 connect 4 tokens xo early-draw on",
                "the rules line cannot set the board's size: the FEN gives it",
            ),
        ];
        for (rules, said) in cases {
            assert_eq!(
                error(rules),
                format!("cannot load game.txt: line 4: {said}"),
                "{rules}"
            );
        }
        assert_eq!(
            error("players 3 connect 4 tokens xoa early-draw on"),
            "cannot load game.txt: its rules line says 3 players, so 3 names and a FEN line \
             should come before it, but 3 lines do"
        );
        // A last line that starts with '#' can only be a rules line.
        for last in ["#c4", " #c4x players 2", "# a comment"] {
            let text = format!("Ann\nBen\n7/7/7/7/7/7 x\n{last}\n");
            let said = parse(&text).err().unwrap().at("g").to_string();
            assert!(said.contains("line 4: the"), "{said}");
        }
        // Blank lines before the rules line, as after the FEN, are no part of the game.
        let text =
            "Ann\nBen\nCy\nXYZ2/5/5/5 X\n\n#c4 players 3 connect 3 tokens XYZ early-draw off\n\n";
        assert_eq!(parse(text).ok().unwrap().1.variant().connect(), 3);
        // The rules line is the last: a name that starts like one is a name.
        let text = "#c4 Ann\nBen\n7/7/7/7/7/7 x\n";
        assert_eq!(parse(text).ok().unwrap().0[0], "#c4 Ann");
    }

    #[test]
    fn misplaced_lines_are_named_where_they_are() {
        let said = |text: &str| parse(text).err().unwrap().at("g").to_string();
        let rules = "#c4 players 3 connect 3 tokens XYZ early-draw off";
        assert_eq!(
            said(&format!("Ann\nBen\nCy\nXYZ2/5/5/5 X\n{rules}\nextra\n")),
            "cannot load g: line 5: the rules line must be the last line of the file"
        );
        assert_eq!(
            said("Ann\nBen\n\n7/7/7/7/7/7 x\n"),
            "cannot load g: line 3 is empty, where a name or the FEN should be"
        );
        assert_eq!(
            said(&format!("Ann\nBen\nCy\n\nXYZ2/5/5/5 X\n{rules}\n")),
            "cannot load g: line 4 is empty, where a name or the FEN should be"
        );
        assert_eq!(
            said(&format!("Ann\nBen\nCy\nXYZ2/5/5/5 X\n{rules}\n{rules}\n")),
            "cannot load g: line 5: a second rules line; a file has one, after the FEN"
        );
        assert_eq!(
            said("Ann\nBen\nXY5/7/7/7/7/7 X\n"),
            "cannot load g: line 3: fen row 1, column 1: 'X' is not a player's token (tokens: \
             x o); a game with other tokens needs a rules line after the FEN, such as '#c4 \
             players 2 connect 4 tokens XO early-draw off'"
        );
        // Too many lines, the last not a FEN: no advice about players.
        assert!(said("Ann\nBen\nCy\nDee\n").ends_with("the file has 4"));
    }

    #[test]
    fn a_file_without_a_rules_line_is_the_grid_programs_game() {
        // Read by the grid program's rules whatever game a session had: x and o, connect 4.
        let (_, game) = parse("Ann\nBen\nxo5/xo5/7/7/7/7 x\n").ok().unwrap();
        assert_eq!(game.variant(), &Variant::default());
        let said = parse("Ann\nBen\nCy\n7/7/7/7/7/7 x\n")
            .err()
            .unwrap()
            .at("g")
            .to_string();
        assert_eq!(
            said,
            "cannot load g: a saved game without a rules line is a standard game, 3 lines (two names, then a \
             FEN); the file has 4, as a game of 3 players would, which needs a rules line after \
             the FEN such as '#c4 players 3 connect 4 tokens xoa early-draw off'"
        );
    }

    #[test]
    fn loaded_names_follow_the_rules_for_names() {
        let long = "a".repeat(crate::rules::name::MAX_NAME_CHARS + 1);
        let text = format!("Ann\n{long}\n7/7/7/7/7/7 x\n");
        let error = parse(&text).err().unwrap().at("game.txt");
        assert_eq!(
            error.to_string(),
            "cannot load game.txt: line 2: a name has at most 64 characters, got 65"
        );
        let error = parse("Ann\n \n7/7/7/7/7/7 x\n").err().unwrap();
        assert!(matches!(error, TextError::EmptyLine(2)));
    }

    #[test]
    fn every_line_is_one_line_to_every_reader() {
        let refused = |text: &str| parse(text).err().unwrap().at("game.txt").to_string();
        // A name, a FEN or a rules line holding a character at which some readers (Python's
        // str.splitlines) end a line, which an error that quotes the line would pass on.
        assert_eq!(
            refused("Ann\u{2028}= forged\nBen\n7/7/7/7/7/7 x\n"),
            "cannot load game.txt: line 1 contains the line separator U+2028; a saved game is \
             lines of printable text"
        );
        assert_eq!(
            refused("Ann\nBen\n7/7/7/7/7/7 x\n#c4 players 2 foo\u{2029}= forged\n"),
            "cannot load game.txt: line 4 contains the paragraph separator U+2029; a saved game \
             is lines of printable text"
        );
        for c in [
            '\r', '\u{0b}', '\u{0c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{85}',
        ] {
            let text = format!("Ann\nBen\n7/7/7/7/7/7{c}x\n");
            assert_eq!(
                refused(&text),
                format!(
                    "cannot load game.txt: line 3 contains the control character U+{:04X}; a \
                     saved game is lines of printable text",
                    u32::from(c)
                )
            );
        }
        // A tab is a blank, and a line may end in CRLF.
        assert!(parse("Ann\r\nBen\r\n7/7/7/7/7/7\tx\r\n").is_ok());
    }
}
