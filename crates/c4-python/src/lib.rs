//! The extension module `c4._core` of the Python package: `board::Board` (a game of any
//! variant the rules allow) and `solver::Solver` (the exact solver, perfect and level-limited
//! play, and a batch analysis on threads). The package's Python files re-export both and add
//! module-level shortcuts and the PettingZoo opponent; `split::Split` (a solve split into jobs)
//! serves `c4.cluster`, which runs the jobs on Ray. The built-in opening book is
//! `book::built_in_book`, derived from the committed one when the module is built.
//!
//! Every error the engine reports reaches Python as `ValueError` with the engine's sentence,
//! after the argument's name where an argument was out of range (`args`); an argument of the
//! wrong type is a `TypeError` that names it. Input is checked before it reaches the engine,
//! so that no call panics.

mod args;
mod board;
mod book;
mod solver;
mod split;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The engine's error as Python's `ValueError`, with the engine's own sentence.
fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<board::Board>()?;
    module.add_class::<solver::Solver>()?;
    module.add_class::<split::Split>()?;
    module.add("__version__", c4_core::VERSION)?;
    Ok(())
}
