//! The solver's resources as users give them: a table size in MiB ([`TableSize::from_user_mib`],
//! or parsed from text) and a thread count ([`ThreadCount`]), each range-checked here once, with
//! one sentence for each bad value ([`ResourceError`]) that every front end shows: the command
//! line, the protocol, UGI and Python.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::notation::grammar::{whole_number, WholeNumber};
use crate::solver::{TableSize, MAX_THREADS};

/// A table size or thread count out of its range, or not a whole number; `got` is the value as
/// the user wrote it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResourceError {
    /// A table size outside `TableSize::MIN_MIB`..=[`TableSize::MAX_MIB`].
    #[error(
        "the table size must be a whole number of MiB from {} to {}, got '{got}'",
        TableSize::MIN_MIB,
        TableSize::MAX_MIB
    )]
    TableSize {
        /// The value given.
        got: String,
    },
    /// A thread count outside 1..=`MAX_THREADS`.
    #[error("the thread count must be a whole number from 1 to {MAX_THREADS}, got '{got}'")]
    ThreadCount {
        /// The value given.
        got: String,
    },
}

impl ResourceError {
    /// The same error for the value as the user wrote it.
    fn for_text(self, text: &str) -> ResourceError {
        let got = text.to_string();
        match self {
            ResourceError::TableSize { .. } => ResourceError::TableSize { got },
            ResourceError::ThreadCount { .. } => ResourceError::ThreadCount { got },
        }
    }
}

/// `text` read as a whole number and checked by `checked`; anything else, a sign or a number too
/// large for a `u64` included, is refused as `checked` refuses `u64::MAX` (out of every range
/// here), each error naming the value as written.
fn read_whole<T>(
    text: &str,
    checked: fn(u64) -> Result<T, ResourceError>,
) -> Result<T, ResourceError> {
    let number = match whole_number::<u64>(text) {
        WholeNumber::Value(number) => number,
        WholeNumber::TooLarge | WholeNumber::NotANumber => u64::MAX,
    };
    checked(number).map_err(|error| error.for_text(text))
}

impl TableSize {
    /// The table for a user's request of `mib` MiB, rounded down to a power of two (as
    /// [`TableSize::from_mib`]).
    ///
    /// # Errors
    /// [`ResourceError::TableSize`] outside [`TableSize::MIN_MIB`]..=[`TableSize::MAX_MIB`].
    pub(crate) fn from_user_mib(mib: u64) -> Result<TableSize, ResourceError> {
        match u32::try_from(mib) {
            Ok(mib) if (TableSize::MIN_MIB..=TableSize::MAX_MIB).contains(&mib) => {
                Ok(TableSize::from_mib(mib))
            }
            _ => Err(ResourceError::TableSize {
                got: mib.to_string(),
            }),
        }
    }
}

impl FromStr for TableSize {
    type Err = ResourceError;

    /// A size in MiB written as a whole number (`64`).
    fn from_str(text: &str) -> Result<TableSize, ResourceError> {
        read_whole(text, TableSize::from_user_mib)
    }
}

/// How many threads one exact search uses, sharing its table: 1 to `MAX_THREADS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ThreadCount(usize);

impl ThreadCount {
    /// One thread, the default everywhere.
    pub const ONE: ThreadCount = ThreadCount(1);

    /// The count `count`.
    ///
    /// # Errors
    /// [`ResourceError::ThreadCount`] outside 1..=`MAX_THREADS`.
    pub fn new(count: u64) -> Result<ThreadCount, ResourceError> {
        match usize::try_from(count) {
            Ok(count) if (1..=MAX_THREADS).contains(&count) => Ok(ThreadCount(count)),
            _ => Err(ResourceError::ThreadCount {
                got: count.to_string(),
            }),
        }
    }

    /// The number of threads.
    pub const fn get(self) -> usize {
        self.0
    }
}

impl Default for ThreadCount {
    fn default() -> ThreadCount {
        ThreadCount::ONE
    }
}

impl fmt::Display for ThreadCount {
    /// The number, as the protocol's `threads` takes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for ThreadCount {
    type Err = ResourceError;

    /// A count written as a whole number (`4`).
    fn from_str(text: &str) -> Result<ThreadCount, ResourceError> {
        read_whole(text, ThreadCount::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_in_range_are_taken_and_rounded_down() {
        assert_eq!("2".parse(), Ok(TableSize::BATCH));
        assert_eq!("100".parse::<TableSize>().map(TableSize::mib), Ok(64));
        assert_eq!(
            TableSize::from_user_mib(524_288).map(TableSize::bits),
            Ok(36)
        );
    }

    #[test]
    fn thread_counts_in_range_are_taken() {
        assert_eq!("1".parse(), Ok(ThreadCount::ONE));
        assert_eq!(ThreadCount::new(64).map(ThreadCount::get), Ok(64));
    }

    #[test]
    fn every_bad_value_gets_its_setting_sentence_with_the_value_as_written() {
        for text in [
            "0",
            "1",
            "524289",
            "99999999999999999999999",
            "-1",
            "x",
            "",
            "+2",
        ] {
            assert_eq!(
                text.parse::<TableSize>().unwrap_err().to_string(),
                format!(
                    "the table size must be a whole number of MiB from 2 to 524288, got '{text}'"
                )
            );
        }
        for text in ["0", "65", "-1", "two", "1.5"] {
            assert_eq!(
                text.parse::<ThreadCount>().unwrap_err().to_string(),
                format!("the thread count must be a whole number from 1 to 64, got '{text}'")
            );
        }
    }
}
