//! `c4.cluster.Split`: the engine's split solve ([`c4_core::Split`]) for the Python
//! driver that runs its jobs on Ray (`python/c4/cluster.py`); the splitting, the results'
//! format and the jobs' command line are all the engine's.

use std::fmt;
use std::time::{Duration, Instant};

use c4_core::{Score, Split as EngineSplit, SplitSettings};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::args::{argument_error, Int};
use crate::value_error;

/// How often a long splitting asks whether to stop, and runs the signal handlers that are due.
const CHECKS: Duration = Duration::from_millis(100);

/// A solve of one position split into jobs: hand in each job's answer line, ask which jobs are
/// wanted, until the score is known.
// Sendable: the driver uses it on its own thread, but Python may drop it on another (Ray's
// collector thread), which an unsendable class refuses with an error.
#[pyclass(module = "c4.cluster", name = "Split")]
pub struct Split {
    split: EngineSplit,
    settings: SplitSettings,
}

#[pymethods]
impl Split {
    /// A split solve of the position `root` (moves from the empty board, as `c4 solve` reads
    /// them) on the `width` x `height` board, its jobs `depth` plies below the root, the
    /// first questions following the score `prediction`.
    #[new]
    #[pyo3(
        signature = (width, height, root = "", depth = Int::from(4), prediction = Int::from(0)),
        text_signature = "(width, height, root='', depth=4, prediction=0)"
    )]
    fn new(width: Int, height: Int, root: &str, depth: Int, prediction: Int) -> PyResult<Split> {
        let side = |value: &str| format!("a board side must be from 1 to 16, got {value}");
        let settings = SplitSettings {
            width: width.to("width", side)?,
            height: height.to("height", side)?,
            root: root.to_string(),
            depth: in_range(&depth, "depth", 1, 40, "a depth of plies")?,
            prediction: in_range(&prediction, "prediction", -64, 64, "a predicted score")?,
        };
        Split::from(settings)
    }

    /// The split solve a results file's first line names.
    #[staticmethod]
    fn from_header(line: &str) -> PyResult<Split> {
        Split::from(SplitSettings::from_header(line).map_err(value_error)?)
    }

    /// The results file's first line, naming this solve.
    fn header(&self) -> String {
        self.settings.header()
    }

    /// The root's moves, as given.
    #[getter]
    fn root(&self) -> String {
        self.settings.root.clone()
    }

    /// Hands in a job's answer as `c4 solve --at-least` writes it: `MOVES >=B` or `MOVES <B`.
    fn record_line(&mut self, line: &str) -> PyResult<()> {
        self.split.record_line(line).map_err(value_error)
    }

    /// Hands in a quick search's outcome from an earlier run of this solve, as
    /// `take_quick_searches` gives it: `MOVES >=B`, `MOVES <B`, or `MOVES ?B` (none found: the
    /// node is split without searching).
    fn record_quick_line(&mut self, line: &str) -> PyResult<()> {
        self.split.record_quick_line(line).map_err(value_error)
    }

    /// The quick searches of the splitting made since the last call, as lines for a later run
    /// (`record_quick_line`): what splitting a large board's trees costs. Kept from the first
    /// call on.
    fn take_quick_searches(&mut self) -> Vec<String> {
        let searches = self.split.take_quick_searches();
        searches.iter().map(|search| search.line()).collect()
    }

    /// The jobs wanted now, the most needed first, as (moves, bound) pairs; None if
    /// `stopped()` said so first. Splitting a large board's trees takes minutes: the driver's
    /// other threads (Ray starting) go on meanwhile, and a few times a second the splitting
    /// asks `stopped` and runs the signal handlers that are due (on the main thread), an
    /// exception of either ending the call. A splitting given up goes on where it stood at the
    /// next call. (`stopped` may not use this split: it is in use.)
    #[pyo3(signature = (stopped = None))]
    fn wanted(
        &mut self,
        py: Python<'_>,
        stopped: Option<Py<PyAny>>,
    ) -> PyResult<Option<Vec<(String, i8)>>> {
        if let Some(stopped) = &stopped {
            if !stopped.bind(py).is_callable() {
                return Err(PyTypeError::new_err(
                    "stopped must be a function of no arguments that says whether to stop",
                ));
            }
        }
        let mut last_check = Instant::now();
        let mut raised = None;
        let jobs = py.detach(|| {
            self.split.wanted_unless(&mut || {
                // The GIL is taken a few times a second at most: it may be held for a while.
                if last_check.elapsed() < CHECKS {
                    return false;
                }
                last_check = Instant::now();
                let asked = Python::attach(|py| {
                    py.check_signals()?;
                    match &stopped {
                        Some(stopped) => stopped.bind(py).call0()?.is_truthy(),
                        None => Ok(false),
                    }
                });
                asked.unwrap_or_else(|error| {
                    raised = Some(error);
                    true
                })
            })
        });
        match (jobs, raised) {
            (_, Some(error)) => Err(error),
            (jobs, None) => Ok(jobs.map(|jobs| {
                jobs.into_iter()
                    .map(|job| (job.moves, job.bound.value()))
                    .collect()
            })),
        }
    }

    /// The arguments of the `c4` run that answers jobs of any bound, one per line of its
    /// input, each written `MOVES B`.
    fn job_arguments(&self) -> Vec<String> {
        self.split.job_arguments()
    }

    /// The root's score once known, else None.
    #[getter]
    fn score(&self) -> Option<i8> {
        self.split.score().map(Score::value)
    }

    /// How far the solve has come: (lower, upper, questions, answered, settled_quickly,
    /// re_expanded), the score lying in lower..=upper.
    fn progress(&self) -> (i8, i8, u32, u64, u64, u64) {
        let p = self.split.progress();
        (
            p.lower,
            p.upper,
            p.questions,
            p.answered,
            p.settled_quickly,
            p.re_expanded,
        )
    }
}

/// `value` as a `T` from `low` to `high`, else the `ValueError` naming the argument `name`
/// and saying that `what` must lie in that range.
fn in_range<T: TryFrom<i128> + PartialOrd + fmt::Display + Copy>(
    value: &Int,
    name: &str,
    low: T,
    high: T,
    what: &str,
) -> PyResult<T> {
    let refused = |given: &str| format!("{what} must be from {low} to {high}, got {given}");
    let found: T = value.to(name, refused)?;
    if found < low || found > high {
        return Err(argument_error(name, refused(&found.to_string())));
    }
    Ok(found)
}

impl Split {
    fn from(settings: SplitSettings) -> PyResult<Split> {
        let split = EngineSplit::from_settings(&settings).map_err(value_error)?;
        Ok(Split { split, settings })
    }
}
