//! The integer arguments of the Python API, taken as Python gives them: an [`Int`] holds any int
//! (or anything Python uses as one, such as NumPy's ints), however large or negative, or says
//! what else was given; each is then read as the engine reads that setting, and every error
//! names the argument: `threads: the thread count must be a whole number from 1 to 64, got
//! '-1'` (`ValueError`), `threads must be an int, not str` (`TypeError`).

use std::fmt;
use std::str::FromStr;

use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// An argument meant as an int, as Python gave it: a [`Whole`], or the name of the type given
/// instead.
#[derive(Debug, Clone)]
pub(crate) struct Int(Result<Whole, String>);

/// An int of any size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Whole {
    /// One that fits 64 bits, signed or not, as every value the engine takes does.
    Fits(i128),
    /// One past 64 bits either way, as Python writes it.
    Huge(String),
}

impl From<u64> for Int {
    fn from(value: u64) -> Int {
        Int(Ok(Whole::Fits(value.into())))
    }
}

impl<'py> FromPyObject<'_, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Int> {
        // The common case first: `Board.play` runs in the loops that train networks.
        match obj.extract::<i64>() {
            Ok(value) => return Ok(Int(Ok(Whole::Fits(value.into())))),
            Err(e) if !e.is_instance_of::<PyOverflowError>(obj.py()) => {
                return Ok(Int(Err(type_name(&obj))));
            }
            Err(_) => {}
        }
        if let Ok(value) = obj.extract::<u64>() {
            return Ok(Int(Ok(Whole::Fits(value.into()))));
        }
        // Python refuses to write out an int of thousands of digits (sys.set_int_max_str_digits).
        let text = obj.str().map_or_else(
            |_| "(an int too long to write out)".to_string(),
            |text| text.to_string(),
        );
        Ok(Int(Ok(Whole::Huge(text))))
    }
}

impl Whole {
    /// The int, `None` past 64 bits.
    pub(crate) fn value(&self) -> Option<i128> {
        match self {
            Whole::Fits(value) => Some(*value),
            Whole::Huge(_) => None,
        }
    }
}

impl fmt::Display for Whole {
    /// The int as Python writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Whole::Fits(value) => value.fmt(f),
            Whole::Huge(text) => f.write_str(text),
        }
    }
}

impl Int {
    /// The int.
    ///
    /// # Errors
    /// Not an int: a `TypeError` that names the argument `name`.
    pub(crate) fn whole(&self, name: &str) -> PyResult<&Whole> {
        self.0
            .as_ref()
            .map_err(|kind| PyTypeError::new_err(format!("{name} must be an int, not {kind}")))
    }

    /// The int as a `T`, where it fits one.
    ///
    /// # Errors
    /// Not an int (`TypeError`), or out of `T`'s range: the `ValueError` with the sentence
    /// `refused` gives for the int as Python writes it; either names the argument `name`.
    pub(crate) fn to<T: TryFrom<i128>>(
        &self,
        name: &str,
        refused: impl FnOnce(&str) -> String,
    ) -> PyResult<T> {
        let whole = self.whole(name)?;
        whole
            .value()
            .and_then(|value| T::try_from(value).ok())
            .ok_or_else(|| argument_error(name, refused(&whole.to_string())))
    }

    /// The int read as the engine reads the setting `T` from text (a table size, a thread
    /// count), whose sentence names the value as written.
    ///
    /// # Errors
    /// Not an int (`TypeError`), or a value the engine refuses (`ValueError`); either names the
    /// argument `name`.
    pub(crate) fn parse<T: FromStr<Err: fmt::Display>>(&self, name: &str) -> PyResult<T> {
        self.whole(name)?
            .to_string()
            .parse()
            .map_err(|e| argument_error(name, e))
    }
}

/// The name of `obj`'s type, for a `TypeError`: `str`.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "another type".to_string(), |name| name.to_string())
}

/// The `ValueError` for the argument `name`: `name: sentence`.
pub(crate) fn argument_error(name: &str, sentence: impl fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{name}: {sentence}"))
}
