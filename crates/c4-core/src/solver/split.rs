//! A solve split into jobs that many processes or machines can run: the root's exact score found
//! by a series of questions (is the score at least B?), each answered by a proof tree down to a
//! frontier of positions whose own questions are the jobs. No I/O: the caller runs the jobs
//! (`c4 solve --at-least B`, on any machine) and hands their answers back, as results or as the
//! lines those runs wrote; the results it has kept are all a stopped run needs to go on.
//!
//! The tree follows a prediction: a question expected to be answered yes needs one child whose
//! own question is answered no (the prover's turn: one predicted move, the others only if it
//! fails), and one expected no needs every child answered yes (every move of the other side).
//! Before a node is split, a search of a few thousand nodes tries to answer it, so that the
//! small subtrees never become jobs. A child that answers against its prediction is noted as
//! re-expanded, and its next sibling is tried; siblings a settled answer no longer needs are
//! dropped from the jobs wanted, so a runner cancels them.
//!
//! Every answer is a proven bound on a position's score, kept by position (a position and its
//! mirror image share one) and whatever the question that produced it, so a later question on
//! the same position, in this run or another on the same board, is answered from it.
//!
//! The quick searches are what splitting a large board's trees costs (minutes on 13x4): their
//! outcomes can be taken as lines ([`Split::take_quick_searches`]) and handed to a later run of
//! the same solve ([`Split::record_quick_line`]), which then splits its trees without them.

use std::collections::{HashMap, HashSet};

use thiserror::Error;

use crate::notation::{format_moves_word, parse_moves, MovesError};

use super::any_position::{with_position, AnyPosition};
use super::bitboard::Bitboard;
use super::limits::Limits;
use super::order::centre_out;
use super::position::Position;
use super::root::{root_bounds, terminal_score};
use super::score::Score;
use super::state::Solver;
use super::SolverError;

/// The nodes a search may take to settle a node of the tree before it is split (about a
/// millisecond): the subtrees that small never become jobs.
pub(crate) const QUICK_NODES: u64 = 1 << 14;

/// The quick searches' table: 2^18 entries, 2 MiB.
const QUICK_TABLE_BITS: u32 = 18;

/// Why a line of results cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SplitError {
    /// The board cannot be solved.
    #[error("{0}")]
    Board(#[from] SolverError),
    /// A results file does not start with the line that names its solve.
    #[error("'{0}' is not the first line of a split solve's results: expected '# c4 split results: board WxH, root MOVES, depth D, prediction P'")]
    NotAHeader(String),
    /// The root's moves cannot be played on the board.
    #[error("the root '{root}' cannot be played on the {width}x{height} board: {reason}")]
    BadRoot {
        /// The root's moves.
        root: String,
        /// The board's width.
        width: u32,
        /// The board's height.
        height: u32,
        /// Why not.
        reason: String,
    },
    /// A result line is not `MOVES >=B` or `MOVES <B`.
    #[error("'{0}' is not a result: expected the moves, a space, then >=B or <B (as c4 solve --at-least writes)")]
    NotAResult(String),
    /// A quick search's line is not `MOVES >=B`, `MOVES <B` or `MOVES ?B`.
    #[error("'{0}' is not a quick search's outcome: expected the moves, a space, then >=B, <B or ?B (no answer)")]
    NotAQuickSearch(String),
    /// A result line's moves cannot be played on the board.
    #[error("the moves of '{line}' cannot be played on the {width}x{height} board: {reason}")]
    BadMoves {
        /// The line.
        line: String,
        /// The board's width.
        width: u32,
        /// The board's height.
        height: u32,
        /// Why not.
        reason: String,
    },
}

/// What a split solve is of, and how it is split: the first line of its results, so that a
/// run stopped anywhere goes on with nothing but its results file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitSettings {
    /// The board's width.
    pub width: u32,
    /// The board's height.
    pub height: u32,
    /// The position solved: its moves from the empty board as `c4 solve` reads them (empty
    /// for the empty board).
    pub root: String,
    /// How many plies below the root the jobs lie.
    pub depth: u32,
    /// The score expected, which the first questions' trees follow.
    pub prediction: i8,
}

/// How a results file starts.
const HEADER_START: &str = "# c4 split results: board ";

impl SplitSettings {
    /// The results file's first line: `# c4 split results: board 10x4, root -, depth 4,
    /// prediction 0` (`-` for the empty board).
    pub fn header(&self) -> String {
        let root = if self.root.is_empty() {
            "-"
        } else {
            &self.root
        };
        format!(
            "{HEADER_START}{}x{}, root {root}, depth {}, prediction {}",
            self.width, self.height, self.depth, self.prediction
        )
    }

    /// The settings a results file's first line gives.
    ///
    /// # Errors
    /// [`SplitError::NotAHeader`] unless the line is as [`header`](Self::header) writes it.
    pub fn from_header(line: &str) -> Result<SplitSettings, SplitError> {
        let not_a_header = || SplitError::NotAHeader(line.to_string());
        let rest = line
            .trim_end()
            .strip_prefix(HEADER_START)
            .ok_or_else(not_a_header)?;
        let fields: Vec<&str> = rest.split(", ").collect();
        let [board, root, depth, prediction] = fields[..] else {
            return Err(not_a_header());
        };
        let (width, height) = board.split_once('x').ok_or_else(not_a_header)?;
        let field = |text: &str, name: &str| text.strip_prefix(name).map(str::to_string);
        let root = field(root, "root ").ok_or_else(not_a_header)?;
        Ok(SplitSettings {
            width: width.parse().map_err(|_| not_a_header())?,
            height: height.parse().map_err(|_| not_a_header())?,
            root: if root == "-" { String::new() } else { root },
            depth: field(depth, "depth ")
                .and_then(|d| d.parse().ok())
                .ok_or_else(not_a_header)?,
            prediction: field(prediction, "prediction ")
                .and_then(|p| p.parse().ok())
                .ok_or_else(not_a_header)?,
        })
    }
}

/// One job: a position, given by its moves from the empty board, and its question, whether
/// its score (from the side to move) is at least `bound`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Job {
    /// The moves from the empty board, written as `c4 solve` reads them: column numbers from 1
    /// run together on boards up to 9 wide, letters from `a` on wider ones.
    pub moves: String,
    /// The question's bound.
    pub bound: Score,
}

impl Job {
    /// The line a run of [`Split::job_arguments`] reads for this job: `MOVES B`.
    pub fn question(&self) -> String {
        format!("{} {}", self.moves, self.bound)
    }

    /// The line a run answering this job writes: `MOVES >=B` if the score is at least the
    /// bound, `MOVES <B` if not; the results a [`Split`] reads back.
    pub(crate) fn result_line(&self, at_least: bool) -> String {
        let relation = if at_least { ">=" } else { "<" };
        format!("{} {relation}{}", self.moves, self.bound)
    }
}

/// A node of a proof tree whose answer went against its prediction, so that the tree above it
/// was expanded further: its parent's other moves tried (a prover's node), or every move of its
/// own (an opponent's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedPrediction {
    /// The node's position and question.
    pub job: Job,
    /// The answer found (the prediction was the other): at least the bound, or below it.
    pub at_least: bool,
}

impl FailedPrediction {
    /// The answer as a result line (`MOVES >=B` or `MOVES <B`), as the results store holds it.
    pub fn line(&self) -> String {
        self.job.result_line(self.at_least)
    }
}

/// A quick search of a node before it was split: the node's position and question, and the
/// answer found, if the search found one within its budget (if not, the node was split).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickSearch {
    /// The node's position and question.
    pub job: Job,
    /// Whether the score is at least the bound; `None`: not found.
    pub answer: Option<bool>,
}

impl QuickSearch {
    /// The outcome as a line: `MOVES >=B` or `MOVES <B` as a result, `MOVES ?B` if none was
    /// found ([`Split::record_quick_line`] reads it back).
    pub fn line(&self) -> String {
        match self.answer {
            Some(at_least) => self.job.result_line(at_least),
            None => format!("{} ?{}", self.job.moves, self.job.bound),
        }
    }
}

/// How far a split solve has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SplitProgress {
    /// The root's score is known to lie in `lower..=upper`.
    pub lower: i8,
    /// See `lower`.
    pub upper: i8,
    /// Questions asked of the root so far, the one under way included.
    pub questions: u32,
    /// Jobs answered (results handed in).
    pub answered: u64,
    /// Nodes of the trees settled by a quick search instead of a job.
    pub settled_quickly: u64,
    /// Nodes whose answer went against the prediction, so that another move was tried.
    pub re_expanded: u64,
}

/// A node of a proof tree: a position and its question.
#[derive(Debug)]
struct Node {
    /// The moves from the empty board, 0-based.
    columns: Vec<u8>,
    /// The position's key, folded with its mirror image's.
    key: u128,
    bound: i8,
    /// Plies below the tree's root.
    depth: u32,
    /// The children, in the order they are tried; `None` until split.
    children: Option<Vec<usize>>,
    /// The answer predicted when the node was first reached.
    expected: Option<bool>,
    /// Whether its answer is known (and counted against the prediction).
    settled: bool,
}

/// One question of the root, and its proof tree.
#[derive(Debug, Default)]
struct Tree {
    nodes: Vec<Node>,
}

/// What a visit of the trees gathers: the jobs it wants, and whether it was given up (asked
/// of `stopped` before each quick search).
struct Wants<'a> {
    jobs: Vec<Job>,
    stopped: &'a mut dyn FnMut() -> bool,
    given_up: bool,
}

/// The proven bounds on one position's score.
type Bounds = (i8, i8);

/// A solve of one position split into jobs: hand in results ([`record`](Self::record),
/// [`record_line`](Self::record_line)), ask which jobs are wanted now
/// ([`wanted`](Self::wanted)), until [`score`](Self::score) is known.
pub struct Split {
    width: u32,
    height: u32,
    root: Vec<u8>,
    /// The root's key, folded with its mirror image's.
    root_key: u128,
    /// Whether the root is its own mirror image.
    symmetric: bool,
    depth: u32,
    quick_nodes: u64,
    quick: Solver,
    facts: HashMap<u128, Bounds>,
    /// The nodes (key, bound) a quick search of an earlier run did not settle: split at once.
    searched_in_vain: HashSet<(u128, i8)>,
    /// The quick searches made since they were last taken, once asked to be kept.
    quick_searches: Option<Vec<QuickSearch>>,
    trees: HashMap<i8, Tree>,
    /// The nodes answered against their prediction, in the order found.
    failed: Vec<FailedPrediction>,
    prediction: i8,
    /// The counts kept as they change; `re_expanded` is `failed`'s length, which
    /// [`progress`](Self::progress) gives.
    progress: SplitProgress,
}

impl Split {
    /// A solve of the position `root` (0-based columns from the empty `width` x `height`
    /// board) whose jobs lie `depth` plies below it, expecting the score `prediction` (0 when
    /// nothing better is known: most boards' scores are near it).
    ///
    /// # Errors
    /// The board cannot be solved, or `root` cannot be played on it.
    pub fn new(
        width: u32,
        height: u32,
        root: Vec<u8>,
        depth: u32,
        prediction: i8,
    ) -> Result<Split, SplitError> {
        let position = AnyPosition::from_moves(width, height, &root)?;
        let symmetric = with_position!(&position, |p| p.is_symmetric());
        let mut quick = Solver::with_table_bits(QUICK_TABLE_BITS);
        quick.set_fold_mirrors(symmetric);
        let (lower, upper) = with_position!(&position, |p| score_range(p));
        let root_key = with_position!(&position, |p| folded_key(p));
        let mut split = Split {
            width,
            height,
            root,
            root_key,
            symmetric,
            depth,
            quick_nodes: QUICK_NODES,
            quick,
            facts: HashMap::new(),
            searched_in_vain: HashSet::new(),
            quick_searches: None,
            trees: HashMap::new(),
            failed: Vec::new(),
            prediction,
            progress: SplitProgress {
                lower,
                upper,
                ..SplitProgress::default()
            },
        };
        split.update_root();
        Ok(split)
    }

    /// The split solve `settings` describe.
    ///
    /// # Errors
    /// The board cannot be solved, or the root's moves cannot be played on it.
    pub fn from_settings(settings: &SplitSettings) -> Result<Split, SplitError> {
        let SplitSettings { width, height, .. } = *settings;
        let bad_root = |reason: String| SplitError::BadRoot {
            root: settings.root.clone(),
            width,
            height,
            reason,
        };
        let root = columns_of(&settings.root, width).map_err(|e| bad_root(e.to_string()))?;
        Split::new(width, height, root, settings.depth, settings.prediction).map_err(|e| match e {
            SplitError::Board(
                SolverError::BoardTooLarge { .. } | SolverError::SideTooLong { .. },
            ) => e,
            other => bad_root(other.to_string()),
        })
    }

    /// The arguments of the `c4` run that answers this split's jobs, one per line of its
    /// standard input as [`Job::question`] writes it, whatever their bounds, so that one run's
    /// table serves every question (add `--checkpoint-dir DIR` or `--checkpoint FILE`, and
    /// `--hash` as wanted).
    pub fn job_arguments(&self) -> Vec<String> {
        let mut arguments = vec![
            "solve".to_string(),
            "--board".to_string(),
            format!("{}x{}", self.width, self.height),
            "--no-book".to_string(),
        ];
        if self.folds_mirrors() {
            arguments.push("--fold-mirrors".to_string());
        }
        arguments.push("--at-least=line".to_string());
        arguments
    }

    /// Whether the jobs should fold mirror images in their searches' tables (`c4 solve
    /// --fold-mirrors`): below a symmetric root, where the mirror images of positions meet
    /// across jobs.
    pub(crate) fn folds_mirrors(&self) -> bool {
        self.symmetric
    }

    /// The root's exact score, once known.
    pub fn score(&self) -> Option<Score> {
        let SplitProgress { lower, upper, .. } = self.progress;
        (lower == upper).then(|| Score::new(lower))
    }

    /// How far the solve has come.
    pub fn progress(&self) -> SplitProgress {
        SplitProgress {
            re_expanded: self.failed.len() as u64,
            ..self.progress
        }
    }

    /// Hands in `job`'s answer: whether its position's score is at least its bound.
    ///
    /// # Errors
    /// The job's moves cannot be played on this board.
    pub fn record(&mut self, job: &Job, at_least: bool) -> Result<(), SplitError> {
        let line = job.result_line(at_least);
        self.record_line(&line)
    }

    /// Hands in a result as `c4 solve --at-least B` writes it: `MOVES >=B` or `MOVES <B`.
    ///
    /// # Errors
    /// The line is not such a result, or its moves cannot be played on this board.
    pub fn record_line(&mut self, line: &str) -> Result<(), SplitError> {
        let (key, answer, bound) = self.read_line(line, false)?;
        let at_least = answer.expect("a result line answers");
        self.learn(key, at_least, bound);
        self.progress.answered += 1;
        self.update_root();
        Ok(())
    }

    /// Hands in a quick search's outcome, as [`QuickSearch::line`] writes it, from an earlier
    /// run of this solve: its answer is kept as a result's is (counted as settled quickly, not
    /// as answered), and a node it did not settle is split without searching again.
    ///
    /// # Errors
    /// The line is not such an outcome, or its moves cannot be played on this board.
    pub fn record_quick_line(&mut self, line: &str) -> Result<(), SplitError> {
        let (key, answer, bound) = self.read_line(line, true)?;
        match answer {
            Some(at_least) => {
                self.learn(key, at_least, bound);
                self.progress.settled_quickly += 1;
                self.update_root();
            }
            None => {
                self.searched_in_vain.insert((key, bound));
            }
        }
        Ok(())
    }

    /// The quick searches made since the last call, in the order made, for a later run
    /// ([`record_quick_line`](Self::record_quick_line)); a search of an outcome handed in is
    /// not made again, and not listed. They are kept from the first call on (a caller that
    /// never takes them does not hold them all).
    pub fn take_quick_searches(&mut self) -> Vec<QuickSearch> {
        self.quick_searches.replace(Vec::new()).unwrap_or_default()
    }

    /// Reads `MOVES >=B` or `MOVES <B`, and `MOVES ?B` too if `quick` (a quick search's
    /// outcome): the position's folded key, the answer, the bound.
    fn read_line(&self, line: &str, quick: bool) -> Result<(u128, Option<bool>, i8), SplitError> {
        let not_read = || {
            if quick {
                SplitError::NotAQuickSearch(line.to_string())
            } else {
                SplitError::NotAResult(line.to_string())
            }
        };
        let (moves, outcome) = line.trim_end().rsplit_once(' ').ok_or_else(not_read)?;
        let (answer, bound) = if let Some(bound) = outcome.strip_prefix(">=") {
            (Some(true), bound)
        } else if let Some(bound) = outcome.strip_prefix('<') {
            (Some(false), bound)
        } else if let Some(bound) = outcome.strip_prefix('?').filter(|_| quick) {
            (None, bound)
        } else {
            return Err(not_read());
        };
        let bound: i8 = bound.parse().map_err(|_| not_read())?;
        let bad_moves = |reason: String| SplitError::BadMoves {
            line: line.to_string(),
            width: self.width,
            height: self.height,
            reason,
        };
        let columns = columns_of(moves, self.width).map_err(|e| bad_moves(e.to_string()))?;
        let position = self
            .position(&columns)
            .map_err(|e| bad_moves(e.to_string()))?;
        let key = with_position!(&position, |p| folded_key(p));
        Ok((key, answer, bound))
    }

    /// The nodes answered against their prediction so far (as many as the progress counts
    /// re-expanded), in the order found: where the trees were re-expanded.
    pub fn failed_predictions(&self) -> &[FailedPrediction] {
        &self.failed
    }

    /// The jobs wanted now, the most needed first: those of the root's question under way,
    /// then those of the question expected next (for runners with more room than the first
    /// has jobs). Empty once the score is known. A running job missing from the list is no
    /// longer needed. Splits the trees further as the answers handed in require, with a quick
    /// search at each new node.
    pub fn wanted(&mut self) -> Vec<Job> {
        self.wanted_unless(&mut || false)
            .expect("a visit that is never stopped ends")
    }

    /// [`wanted`](Self::wanted), given up (`None`) as soon as `stopped` says so: it is asked
    /// before each quick search, the time a large board's splitting takes. What was split or
    /// proven before stands, and the next call goes on from it.
    pub fn wanted_unless(&mut self, stopped: &mut dyn FnMut() -> bool) -> Option<Vec<Job>> {
        let mut wants = Wants {
            jobs: Vec::new(),
            stopped,
            given_up: false,
        };
        // Questions settled on the way (by quick searches, or results already in) lead to the
        // next, until one is open.
        let (bound, expected) = loop {
            let SplitProgress { lower, upper, .. } = self.progress;
            if lower >= upper {
                return Some(Vec::new());
            }
            let bound = next_bound(lower, upper);
            let expected = self.expects(bound, lower, upper);
            wants.jobs.clear();
            if self.visit_root(bound, expected, &mut wants).is_none() {
                break (bound, expected);
            }
        };
        // The next question is visited only once this one is known to be open: the first
        // may yet be answered against its prediction.
        if wants.given_up {
            return None;
        }
        let SplitProgress { lower, upper, .. } = self.progress;
        let (lower, upper) = if expected {
            (bound, upper)
        } else {
            (lower, bound - 1)
        };
        if lower < upper {
            let next = next_bound(lower, upper);
            let expected = self.expects(next, lower, upper);
            self.visit_root(next, expected, &mut wants);
        }
        if wants.given_up {
            return None;
        }
        let mut jobs = wants.jobs;
        let mut seen = std::collections::HashSet::new();
        jobs.retain(|job| seen.insert(job.clone()));
        Some(jobs)
    }

    /// Whether the root's question `bound` is expected to be answered yes, its score lying in
    /// `lower..=upper`.
    fn expects(&self, bound: i8, lower: i8, upper: i8) -> bool {
        bound <= self.prediction.clamp(lower, upper)
    }

    /// Visits the tree of the root's question `bound`, predicted `expected`, adding the
    /// jobs it wants to `wants`; its answer, once known.
    fn visit_root(&mut self, bound: i8, expected: bool, wants: &mut Wants) -> Option<bool> {
        if !self.trees.contains_key(&bound) {
            let root = Node {
                columns: self.root.clone(),
                key: self.root_key,
                bound,
                depth: 0,
                children: None,
                expected: None,
                settled: false,
            };
            self.trees.insert(bound, Tree { nodes: vec![root] });
            self.progress.questions += 1;
        }
        let mut tree = self.trees.remove(&bound).expect("inserted above");
        let answer = self.visit(&mut tree, 0, expected, wants);
        self.trees.insert(bound, tree);
        if answer.is_some() {
            self.update_root();
        }
        answer
    }

    /// Visits node `index` of `tree`, predicted `expected`: its answer if known, else `None`
    /// with the jobs it wants added to `wants` (`None` too once the visit is given up: nothing
    /// is learnt from a visit cut short). An answer found against the prediction counts as a
    /// re-expansion, once.
    fn visit(
        &mut self,
        tree: &mut Tree,
        index: usize,
        expected: bool,
        wants: &mut Wants,
    ) -> Option<bool> {
        if wants.given_up {
            return None;
        }
        let expected = *tree.nodes[index].expected.get_or_insert(expected);
        let answer = self.answer(tree, index, expected, wants)?;
        let node = &mut tree.nodes[index];
        if !node.settled {
            node.settled = true;
            if answer != expected {
                let job = self.job(&node.columns, node.bound);
                self.failed.push(FailedPrediction {
                    job,
                    at_least: answer,
                });
            }
        }
        Some(answer)
    }

    /// The answer of node `index` of `tree`, predicted `expected`, from what is proven, a
    /// quick search or its children; else `None`, with the jobs it wants added to `wants`.
    fn answer(
        &mut self,
        tree: &mut Tree,
        index: usize,
        expected: bool,
        wants: &mut Wants,
    ) -> Option<bool> {
        let (key, bound, depth) = {
            let node = &tree.nodes[index];
            (node.key, node.bound, node.depth)
        };
        if let Some(answer) = self.known(key, bound) {
            return Some(answer);
        }
        if tree.nodes[index].children.is_none() {
            if depth >= self.depth {
                wants.jobs.push(self.job(&tree.nodes[index].columns, bound));
                return None;
            }
            if !self.searched_in_vain.contains(&(key, bound)) {
                if (wants.stopped)() {
                    wants.given_up = true;
                    return None;
                }
                let columns = &tree.nodes[index].columns;
                let answer = self.quick_answer(columns, bound);
                let job = self
                    .quick_searches
                    .is_some()
                    .then(|| self.job(columns, bound));
                if let (Some(kept), Some(job)) = (&mut self.quick_searches, job) {
                    kept.push(QuickSearch { job, answer });
                }
                if let Some(answer) = answer {
                    self.learn(key, answer, bound);
                    self.progress.settled_quickly += 1;
                    return Some(answer);
                }
            }
            self.split(tree, index);
        }
        let children = tree.nodes[index].children.clone().unwrap_or_default();
        // Yes needs one child answered no; no needs every child answered yes. The children's
        // jobs are wanted only while this node is open.
        let before = wants.jobs.len();
        let mut open = false;
        for child in children {
            match self.visit(tree, child, !expected, wants) {
                Some(false) => {
                    wants.jobs.truncate(before);
                    self.learn(key, true, bound);
                    return Some(true);
                }
                Some(true) => {}
                None => {
                    open = true;
                    // The prover tries one move at a time.
                    if expected {
                        break;
                    }
                }
            }
        }
        if open {
            None
        } else {
            wants.jobs.truncate(before);
            self.learn(key, false, bound);
            Some(false)
        }
    }

    /// Splits node `index` into its children ([`ordered_moves`](Self::ordered_moves)).
    fn split(&mut self, tree: &mut Tree, index: usize) {
        let (columns, bound, depth) = {
            let node = &tree.nodes[index];
            (node.columns.clone(), node.bound, node.depth)
        };
        let mut children = Vec::new();
        for (column, key) in self.ordered_moves(&columns) {
            let mut moves = columns.clone();
            moves.push(column);
            children.push(tree.nodes.len());
            tree.nodes.push(Node {
                columns: moves,
                key,
                bound: 1 - bound,
                depth: depth + 1,
                children: None,
                expected: None,
                settled: false,
            });
        }
        tree.nodes[index].children = Some(children);
    }

    /// The moves of the position of `columns`, each with its child's folded key: every move,
    /// without the mirror images of a symmetric position's moves, in the search's own order
    /// (the prover's first choice): the moves that make more threats first, then centre-out,
    /// the moves that lose at once last.
    fn ordered_moves(&self, columns: &[u8]) -> Vec<(u8, u128)> {
        let position = self.position(columns).expect("a node's moves are legal");
        let mut moves = Vec::new();
        with_position!(&position, |p| {
            let (opponent, own) = (p.opponent_winning_cells(), p.own_winning_cells());
            let safe = p.non_losing_moves(opponent);
            for &column in centre_out(self.width) {
                if !p.can_play(u32::from(column)) {
                    continue;
                }
                let cell = p.cell_in(u32::from(column));
                let mut child = *p;
                child.play_unchecked(cell);
                let key = folded_key(&child);
                if moves.iter().any(|&(_, _, seen)| seen == key) {
                    continue;
                }
                // The search's weights (negamax.rs), a losing move below every other.
                let weight = if cell & safe == Bitboard::ZERO {
                    -1
                } else {
                    let created = p.winning_cells_after(cell);
                    ((created & !(opponent << 1)).count_ones()
                        + u32::from((cell << 1) & own == Bitboard::ZERO)) as i32
                };
                moves.push((weight, column, key));
            }
        });
        // Stable: centre-out among equal weights.
        moves.sort_by_key(|&(weight, _, _)| std::cmp::Reverse(weight));
        moves
            .into_iter()
            .map(|(_, column, key)| (column, key))
            .collect()
    }

    /// One random path down the tree of the root's first open question to a job `depth` plies
    /// below the root, for Knuth's estimate of a tree's size: the job, and how many frontier
    /// jobs it stands for (the product of the moves chosen among at the nodes that need every
    /// move; one predicted move where one is enough). `None` when the path ends at a node a
    /// quick search settles (it stands for no job). `seed` picks the path.
    pub fn sample_job(&mut self, depth: u32, seed: u64) -> Option<(Job, f64)> {
        let SplitProgress { lower, upper, .. } = self.progress;
        if lower >= upper {
            return None;
        }
        let mut bound = next_bound(lower, upper);
        let mut expected = self.expects(bound, lower, upper);
        let mut columns = self.root.clone();
        let mut weight = 1.0;
        let mut random = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        for _ in 0..depth {
            if self.quick_answer(&columns, bound).is_some() {
                return None;
            }
            let moves = self.ordered_moves(&columns);
            let pick = if expected {
                0
            } else {
                // xorshift64: a reproducible choice, no dependency.
                random ^= random << 13;
                random ^= random >> 7;
                random ^= random << 17;
                weight *= moves.len() as f64;
                (random % moves.len() as u64) as usize
            };
            columns.push(moves[pick].0);
            bound = 1 - bound;
            expected = !expected;
        }
        Some((self.job(&columns, bound), weight))
    }

    /// The answer of a quick search of the position of `columns` to `bound`, if it finds one.
    fn quick_answer(&mut self, columns: &[u8], bound: i8) -> Option<bool> {
        let position = self.position(columns).ok()?;
        let limits = Limits {
            max_nodes: Some(self.quick_nodes),
            ..Limits::default()
        };
        let below = Score::new(bound.saturating_sub(1));
        with_position!(&position, |p| {
            self.quick
                .is_at_most_within(p, below, &limits)
                .ok()
                .map(|at_most_below| !at_most_below)
        })
    }

    /// The job asking whether the position of `columns` scores at least `bound`.
    fn job(&self, columns: &[u8], bound: i8) -> Job {
        Job {
            moves: format_moves_word(columns, self.width as usize),
            bound: Score::new(bound),
        }
    }

    /// The answer to "is the score of `key`'s position at least `bound`?", if proven.
    fn known(&self, key: u128, bound: i8) -> Option<bool> {
        let &(lower, upper) = self.facts.get(&key)?;
        if lower >= bound {
            Some(true)
        } else if upper < bound {
            Some(false)
        } else {
            None
        }
    }

    /// Keeps a proven bound on `key`'s position: at least `bound`, or below it.
    fn learn(&mut self, key: u128, at_least: bool, bound: i8) {
        let bounds = self.facts.entry(key).or_insert((i8::MIN, i8::MAX));
        if at_least {
            bounds.0 = bounds.0.max(bound);
        } else {
            bounds.1 = bounds.1.min(bound.saturating_sub(1));
        }
    }

    /// Narrows the root's range by what is proven of it.
    fn update_root(&mut self) {
        if let Some(&(lower, upper)) = self.facts.get(&self.root_key) {
            let progress = &mut self.progress;
            progress.lower = progress.lower.max(lower);
            progress.upper = progress.upper.min(upper).max(progress.lower);
        }
    }

    /// The position of `columns` (0-based, from the empty board) on this board.
    fn position(&self, columns: &[u8]) -> Result<AnyPosition, SolverError> {
        AnyPosition::from_moves(self.width, self.height, columns)
    }
}

/// The question asked of a root whose score lies in `lower..upper` (not yet known): the sign
/// first (is it a win?), then the score nearest the one found, one step at a time, since the
/// scores of the boards and openings worth splitting lie near zero.
fn next_bound(lower: i8, upper: i8) -> i8 {
    if lower <= 0 && upper >= 1 {
        1
    } else if lower >= 1 {
        lower + 1
    } else {
        upper
    }
}

/// A position's key, folded with its mirror image's, so that both share their proven bounds.
fn folded_key<B: Bitboard>(position: &Position<B>) -> u128 {
    let key = position.key();
    key.to_u128()
        .min(position.geometry().mirror_key(key).to_u128())
}

/// The widest range of a position's score ([`root_bounds`]): the exact score when the game is
/// over or the side to move wins at once ([`terminal_score`]).
fn score_range<B: Bitboard>(position: &Position<B>) -> (i8, i8) {
    let (lower, upper) = terminal_score(position).map_or_else(|| root_bounds(position), |s| (s, s));
    (lower as i8, upper as i8)
}

/// The 0-based columns of `moves`, as `c4 solve` reads a line's moves on a board `width` wide.
fn columns_of(moves: &str, width: u32) -> Result<Vec<u8>, MovesError> {
    Ok(parse_moves(moves, width as usize)?
        .into_iter()
        .map(|column| (column - 1) as u8)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a split solve of `root` on `width` x `height` to its end, answering every job with
    /// a solver of its own: the score, and how many jobs it took.
    fn split_solve(
        width: u32,
        height: u32,
        root: &[u8],
        depth: u32,
        prediction: i8,
    ) -> (Score, usize) {
        let mut split = Split::new(width, height, root.to_vec(), depth, prediction).unwrap();
        let jobs = run_to_the_end(&mut split);
        (split.score().unwrap(), jobs)
    }

    /// Answers every job `split` wants with a solver of its own until its score is known; how
    /// many jobs it took.
    fn run_to_the_end(split: &mut Split) -> usize {
        let (width, height) = (split.width, split.height);
        let mut solver = Solver::with_table_bits(18);
        let mut jobs = 0;
        loop {
            let wanted = split.wanted();
            if split.score().is_some() {
                assert!(wanted.is_empty());
                return jobs;
            }
            let job = wanted
                .first()
                .expect("an unsolved split wants a job")
                .clone();
            let at_least = answer(&mut solver, width, height, &job);
            split.record(&job, at_least).unwrap();
            jobs += 1;
        }
    }

    /// Whether `job`'s position on `width` x `height` scores at least its bound, by a whole
    /// search of `solver`.
    fn answer(solver: &mut Solver, width: u32, height: u32, job: &Job) -> bool {
        let columns = columns_of(&job.moves, width).unwrap();
        let position = AnyPosition::from_moves(width, height, &columns).unwrap();
        let below = Score::new(job.bound.value() - 1);
        !with_position!(&position, |p| solver
            .is_at_most_within(p, below, &Limits::default())
            .unwrap())
    }

    fn exact(width: u32, height: u32, root: &[u8]) -> Score {
        let position = AnyPosition::from_moves(width, height, root).unwrap();
        with_position!(&position, |p| Solver::with_table_bits(18).solve(p))
    }

    #[test]
    fn a_split_solve_finds_the_score_a_single_search_does() {
        for (width, height, root) in [
            (5, 4, vec![]),
            (6, 4, vec![]),
            (5, 5, vec![2]),
            (7, 4, vec![3, 3]),
            (6, 5, vec![]),
            (4, 6, vec![0, 1, 2]),
        ] {
            let expected = exact(width, height, &root);
            let mut jobs = 0;
            for depth in [1, 2, 3, 4] {
                for prediction in [-2, 0, 1] {
                    let (score, run_jobs) = split_solve(width, height, &root, depth, prediction);
                    jobs += run_jobs;
                    assert_eq!(
                        score, expected,
                        "{width}x{height} {root:?}, depth {depth}, predicting {prediction}"
                    );
                }
            }
            // Not every board is settled by the quick searches alone.
            if (width, height) == (6, 5) {
                assert!(jobs > 12, "{jobs}");
            }
        }
    }

    #[test]
    fn a_later_run_given_the_quick_searches_splits_its_trees_without_searching() {
        let mut unsettled = 0;
        for (width, height, root, depth, prediction) in [
            (6, 5, vec![], 4, 0),
            (5, 5, vec![2], 3, -3),
            (6, 5, vec![], 3, 1),
        ] {
            let new = || Split::new(width, height, root.clone(), depth, prediction).unwrap();
            let mut first = new();
            assert!(
                first.take_quick_searches().is_empty(),
                "none kept until asked"
            );
            let mut solver = Solver::with_table_bits(18);
            let (mut results, mut quick) = (Vec::new(), Vec::new());
            // A few rounds, then a run of the same solve starts from what the first kept.
            for _ in 0..6 {
                let wanted = first.wanted();
                quick.extend(first.take_quick_searches().iter().map(QuickSearch::line));
                let Some(job) = wanted.first().cloned() else {
                    break;
                };
                let at_least = answer(&mut solver, width, height, &job);
                first.record(&job, at_least).unwrap();
                results.push(job.result_line(at_least));
            }
            let wanted = first.wanted();
            quick.extend(first.take_quick_searches().iter().map(QuickSearch::line));
            unsettled += quick.iter().filter(|line| line.contains(" ?")).count();
            let mut later = new();
            later.take_quick_searches();
            for line in &results {
                later.record_line(line).unwrap();
            }
            for line in &quick {
                later.record_quick_line(line).unwrap();
            }
            let case = format!("{width}x{height} {root:?} predicting {prediction}");
            assert_eq!(later.wanted(), wanted, "{case}");
            if first.score().is_none() {
                assert_eq!(later.progress(), first.progress(), "{case}");
            } else {
                // Known from the facts at once, without the questions on the way.
                assert_eq!(later.score(), first.score(), "{case}");
            }
            assert_eq!(later.take_quick_searches(), [], "{case}");
            // Both go on to the score.
            run_to_the_end(&mut later);
            assert_eq!(later.score(), Some(exact(width, height, &root)), "{case}");
        }
        assert!(unsettled > 10, "{unsettled}");
    }

    #[test]
    fn a_quick_search_line_is_told_from_a_result() {
        let mut split = Split::new(5, 4, vec![], 3, 0).unwrap();
        for line in ["33 ?2", "33 =2", "33 >=x", "33"] {
            assert_eq!(
                split.record_line(line),
                Err(SplitError::NotAResult(line.to_string()))
            );
        }
        for line in ["33 =2", "33 >=x", "33", "33 ?"] {
            assert_eq!(
                split.record_quick_line(line),
                Err(SplitError::NotAQuickSearch(line.to_string()))
            );
        }
        assert!(matches!(
            split.record_quick_line("66 ?1"),
            Err(SplitError::BadMoves { .. })
        ));
        split.record_quick_line("33 ?2").unwrap();
        split.record_quick_line("33 >=0").unwrap();
        let progress = split.progress();
        assert_eq!((progress.answered, progress.settled_quickly), (0, 1));
    }

    #[test]
    fn a_visit_given_up_changes_nothing_the_next_one_finds() {
        // Each round, visits are given up at their second quick search until one ends (each
        // does one search more; one given up at its first would never end): its jobs and
        // progress are those of a run never interrupted, whether the questions go as
        // predicted or not.
        let mut given_up = 0;
        for (width, height, root, depth) in
            [(6, 5, vec![], 4), (5, 4, vec![], 3), (5, 5, vec![2], 3)]
        {
            let exact = exact(width, height, &root);
            for prediction in [-3, 0, 1, 4] {
                let new = || Split::new(width, height, root.clone(), depth, prediction).unwrap();
                let (mut whole, mut cut) = (new(), new());
                let mut solver = Solver::with_table_bits(18);
                for round in 1.. {
                    let cut_wanted = loop {
                        let mut asked = 0;
                        let mut stop = || {
                            asked += 1;
                            asked == 2
                        };
                        match cut.wanted_unless(&mut stop) {
                            Some(jobs) => break jobs,
                            None => given_up += 1,
                        }
                    };
                    let wanted = whole.wanted();
                    let case =
                        format!("{width}x{height} {root:?} predicting {prediction}, round {round}");
                    assert_eq!(cut_wanted, wanted, "{case}");
                    assert_eq!(cut.progress(), whole.progress(), "{case}");
                    let Some(job) = wanted.first().cloned() else {
                        break;
                    };
                    let at_least = answer(&mut solver, width, height, &job);
                    whole.record(&job, at_least).unwrap();
                    cut.record(&job, at_least).unwrap();
                }
                assert_eq!(cut.score(), Some(exact));
            }
        }
        assert!(given_up > 40, "{given_up}");
    }

    #[test]
    fn failed_predictions_name_the_positions_answered_against_them() {
        // Predicted -2 and 1, some answers on 6x5 go against the prediction.
        let score = exact(6, 5, &[]);
        for prediction in [-2, 1] {
            let mut split = Split::new(6, 5, vec![], 3, prediction).unwrap();
            run_to_the_end(&mut split);
            assert_eq!(split.score(), Some(score));
            let failed = split.failed_predictions();
            assert!(!failed.is_empty(), "predicting {prediction}");
            assert_eq!(failed.len() as u64, split.progress().re_expanded);
            for failure in failed {
                // Each answer is the position's own, as a line of results.
                let columns = columns_of(&failure.job.moves, 6).unwrap();
                let position = exact(6, 5, &columns);
                let at_least = position >= failure.job.bound;
                assert_eq!(failure.at_least, at_least, "{}", failure.line());
                let relation = if at_least { ">=" } else { "<" };
                let line = format!("{} {relation}{}", failure.job.moves, failure.job.bound);
                assert_eq!(failure.line(), line);
            }
        }
    }

    #[test]
    fn results_from_another_run_answer_at_once() {
        let mut first = Split::new(6, 4, vec![], 2, 0).unwrap();
        let mut lines = Vec::new();
        let mut solver = Solver::with_table_bits(18);
        while let Some(job) = first.wanted().first().cloned() {
            let columns = columns_of(&job.moves, 6).unwrap();
            let position = Position::<u64>::from_moves(6, 4, &columns).unwrap();
            let at_most = solver
                .is_at_most_within(
                    &position,
                    Score::new(job.bound.value() - 1),
                    &Limits::default(),
                )
                .unwrap();
            lines.push(job.result_line(!at_most));
            first.record(&job, !at_most).unwrap();
        }
        assert!(lines.len() > 1, "{lines:?}");
        let mut again = Split::new(6, 4, vec![], 2, 0).unwrap();
        for line in &lines {
            again.record_line(line).unwrap();
        }
        assert!(again.wanted().is_empty());
        assert_eq!(again.score(), first.score());
        assert_eq!(again.progress().answered, lines.len() as u64);
    }

    #[test]
    fn a_sampled_path_stands_for_the_moves_chosen_among() {
        // The empty 6x5 board's first question (does the first player win?) is expected no:
        // every first move (three, mirror images folded), then one predicted reply each.
        let mut split = Split::new(6, 5, vec![], 2, 0).unwrap();
        let mut jobs = std::collections::HashSet::new();
        let mut settled = 0;
        for seed in 0..12 {
            // A path through a move a quick search settles ends there.
            let Some((job, stands_for)) = split.sample_job(2, seed) else {
                settled += 1;
                continue;
            };
            assert_eq!(stands_for, 3.0);
            assert_eq!((job.moves.len(), job.bound), (2, Score::new(1)));
            jobs.insert(job.moves);
        }
        assert!(
            settled < 12 && jobs.len() > 1,
            "{settled} settled, {jobs:?}"
        );
        // A board the quick searches settle stands for no job.
        assert_eq!(
            Split::new(4, 4, vec![], 2, 0).unwrap().sample_job(2, 1),
            None
        );
    }

    #[test]
    fn result_lines_are_read_or_refused_with_the_reason() {
        let mut split = Split::new(7, 6, vec![], 2, 0).unwrap();
        split.record_line("44 >=0").unwrap();
        split.record_line("4455 <19").unwrap();
        for line in ["44", "44 =0", "44 >=x", "", "48 >=0"] {
            assert!(split.record_line(line).is_err(), "{line}");
        }
        assert_eq!(
            split.record_line("48 >=0").unwrap_err().to_string(),
            "the moves of '48 >=0' cannot be played on the 7x6 board: move 2: column 8 is off the board (columns 1-7)"
        );
        // Wide boards' moves are letters.
        let mut wide = Split::new(10, 4, vec![], 1, 0).unwrap();
        let jobs = wide.wanted();
        assert!(jobs
            .iter()
            .all(|job| job.moves.chars().all(|c| c.is_ascii_lowercase())));
        wide.record_line("j >=0").unwrap();
    }
}
