//! What a player's name may be, wherever one is given: the protocol's `name`, a saved game's name
//! lines, `c4 play`'s `--names` and its name questions; and what no line of text may hold
//! ([`unfit_in_a_line`]), which a name, a protocol line and a saved game's line each are.

use thiserror::Error;

/// The longest name, in characters.
pub(crate) const MAX_NAME_CHARS: usize = 64;

/// Why a name cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NameError {
    /// Nothing but blanks.
    #[error("a name cannot be empty")]
    Empty,
    /// Longer than `MAX_NAME_CHARS`.
    #[error("a name has at most {MAX_NAME_CHARS} characters, got {0}")]
    TooLong(usize),
    /// A character that one line cannot hold ([`unfit_in_a_line`]): a saved game keeps one name
    /// per line, and the protocol's replies one per line.
    #[error("a name cannot contain the {kind} U+{code:04X}")]
    NotOneLine {
        /// What the character is, in words.
        kind: &'static str,
        /// The character's code point.
        code: u32,
    },
}

/// What `c` is, in words, if one line of text cannot hold it, `None` otherwise: a control
/// character (category Cc, which holds every line break of ASCII and U+0085, with tab), or the
/// line or paragraph separator (U+2028, U+2029), at which readers such as Python's
/// `str.splitlines` also end a line, so that text holding one could pass for two lines.
pub fn unfit_in_a_line(c: char) -> Option<&'static str> {
    match c {
        '\u{2028}' => Some("line separator"),
        '\u{2029}' => Some("paragraph separator"),
        c if c.is_control() => Some("control character"),
        _ => None,
    }
}

/// Checks that `name` can name a player: not empty, at most `MAX_NAME_CHARS` characters, all
/// on one line ([`unfit_in_a_line`]).
pub fn check_name(name: &str) -> Result<(), NameError> {
    let chars = name.chars().count();
    if name.trim().is_empty() {
        return Err(NameError::Empty);
    }
    if chars > MAX_NAME_CHARS {
        return Err(NameError::TooLong(chars));
    }
    match name.chars().find_map(|c| Some((c, unfit_in_a_line(c)?))) {
        Some((c, kind)) => Err(NameError::NotOneLine {
            kind,
            code: u32::from(c),
        }),
        None => Ok(()),
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
        let not_one_line = |kind, code| Err(NameError::NotOneLine { kind, code });
        assert_eq!(
            check_name("Ann\nBen"),
            not_one_line("control character", 0x0a)
        );
        // Every character at which Python's str.splitlines ends a line, and no other.
        for c in [
            '\n', '\r', '\u{0b}', '\u{0c}', '\u{1c}', '\u{1d}', '\u{1e}', '\u{85}',
        ] {
            assert_eq!(
                check_name(&format!("a{c}= forged")),
                not_one_line("control character", u32::from(c))
            );
        }
        assert_eq!(
            check_name("a\u{2028}= forged"),
            not_one_line("line separator", 0x2028)
        );
        assert_eq!(
            check_name("a\u{2029}"),
            not_one_line("paragraph separator", 0x2029)
        );
        assert_eq!(
            check_name("a\u{2029}").unwrap_err().to_string(),
            "a name cannot contain the paragraph separator U+2029"
        );
        for fine in ["Zoë", "李", "a\u{200b}b", "a\u{a0}b"] {
            assert_eq!(check_name(fine), Ok(()), "{fine}");
        }
    }
}
