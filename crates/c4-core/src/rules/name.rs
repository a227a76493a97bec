//! What a player's name may be, wherever one is given: the protocol's `name`, a saved game's name
//! lines, `c4 play`'s `--names` and its name questions.

use thiserror::Error;

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Why a name cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    /// Nothing but blanks.
    #[error("a name cannot be empty")]
    Empty,
    /// Longer than [`MAX_NAME_CHARS`].
    #[error("a name has at most {MAX_NAME_CHARS} characters, got {0}")]
    TooLong(usize),
    /// A control character: a saved game keeps one name per line.
    #[error("a name cannot contain control characters")]
    ControlCharacter,
}

/// Checks that `name` can name a player: not empty, at most [`MAX_NAME_CHARS`] characters, no
/// control characters.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let chars = name.chars().count();
    if name.trim().is_empty() {
        Err(NameError::Empty)
    } else if chars > MAX_NAME_CHARS {
        Err(NameError::TooLong(chars))
    } else if name.chars().any(char::is_control) {
        Err(NameError::ControlCharacter)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_short_visible_single_lines() {
        assert_eq!(check_name("Ann"), Ok(()));
        assert_eq!(check_name(&"é".repeat(MAX_NAME_CHARS)), Ok(()));
        assert_eq!(check_name(" \t"), Err(NameError::Empty));
        assert_eq!(
            check_name(&"a".repeat(MAX_NAME_CHARS + 1)),
            Err(NameError::TooLong(65))
        );
        assert_eq!(check_name("Ann\nBen"), Err(NameError::ControlCharacter));
    }
}
