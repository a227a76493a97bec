//! The board a batch's move sequences are played on and how their columns are numbered: the
//! solver's position after a line's moves, or the error that names the move at fault.

use super::error::{BoardError, LineError, MoveProblem};
use c4_core::AnyPosition;
use c4_core::SOLVER_CONNECT;
use c4_core::{parse_moves_counting, Counting};
use c4_core::{Game, MoveError, Variant};
use c4_core::{STANDARD_HEIGHT, STANDARD_WIDTH};

/// The board a batch's move sequences are played on, and how their columns are numbered.
#[derive(Debug, Clone)]
pub struct BatchBoard {
    /// The rules of the board: two players, connect four, no early draw (a drawn-out position is
    /// still one the solver can score).
    variant: Variant,
    /// How written column numbers count.
    pub(super) counting: Counting,
}

impl BatchBoard {
    /// The standard 7x6 board of the rules ([`STANDARD_WIDTH`] x [`STANDARD_HEIGHT`]), columns
    /// counted from 1: the default of solving and the benchmark.
    pub fn standard() -> BatchBoard {
        BatchBoard::new(
            STANDARD_WIDTH as u32,
            STANDARD_HEIGHT as u32,
            Counting::FromOne,
        )
        .expect("the solver plays the standard board")
    }

    /// A `width` x `height` board whose columns are written counting as `counting` says.
    ///
    /// # Errors
    /// The rules or the solver do not take the board.
    pub fn new(width: u32, height: u32, counting: Counting) -> Result<BatchBoard, BoardError> {
        let tokens = Variant::default_tokens(2)?;
        let variant = Variant::new(
            width as usize,
            height as usize,
            SOLVER_CONNECT,
            tokens,
            false,
        )?;
        AnyPosition::new(width, height)?;
        Ok(BatchBoard { variant, counting })
    }

    /// The same board, its columns written counting as `counting` says.
    pub fn counting(self, counting: Counting) -> BatchBoard {
        BatchBoard { counting, ..self }
    }

    /// The number of columns.
    pub fn width(&self) -> u32 {
        self.variant.width() as u32
    }

    /// The number of rows.
    pub fn height(&self) -> u32 {
        self.variant.height() as u32
    }

    /// The solver's position after a move sequence from the empty board, in the protocol's
    /// grammar (`4453` on boards up to 9 wide, 10 counting from 0); the error says which move
    /// failed and why, naming columns as the sequence does. A sequence that ends the game gives
    /// the finished position, which the solver scores as its result.
    pub fn position_of(&self, moves: &str) -> Result<AnyPosition, LineError> {
        let mut game = Game::new(self.variant.clone());
        let columns = parse_moves_counting(moves, self.variant.width(), self.counting)?;
        // How the sequence writes 1-based column `number`.
        let written = |number: u64| self.counting.written(number - 1);
        for (index, &number) in columns.iter().enumerate() {
            let played = game.column(number).and_then(|column| game.play(column));
            played.map_err(|problem| LineError::Move {
                index: index + 1,
                column: written(number),
                problem: match problem {
                    MoveError::OffBoard { width, .. } => MoveProblem::OffBoard {
                        first: self.counting.first(),
                        last: written(width as u64),
                    },
                    MoveError::ColumnFull(_) => MoveProblem::Full,
                    MoveError::GameOver(result) => MoveProblem::GameOver(result),
                },
            })?;
        }
        // The rules have checked every move; the solver's own moves also take a finished game.
        let columns: Vec<u8> = columns.iter().map(|&number| (number - 1) as u8).collect();
        Ok(AnyPosition::from_moves(
            self.width(),
            self.height(),
            &columns,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::solve::{run_batch_solve, BatchOptions};

    #[test]
    fn other_boards_take_columns_counted_from_zero() {
        // A line of the 9x5 test files of Steininger's solver (fixtures/bench/9x5), and lines
        // whose errors name columns as the lines do.
        let board = BatchBoard::new(9, 5, Counting::FromZero).unwrap();
        let opts = BatchOptions {
            board,
            table_bits: 18,
            ..BatchOptions::default()
        };
        let mut out = Vec::new();
        run_batch_solve(&b"306068 12\n09\n000000\n"[..], &mut out, &opts, None).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "306068 12\n\
             09 error: move 2 (column 9): the column is off the board (columns 0-8)\n\
             000000 error: move 6 (column 0): the column is full\n"
        );
        assert_eq!(
            BatchBoard::new(12, 12, Counting::FromOne)
                .unwrap_err()
                .to_string(),
            "the solver handles boards with width x (height + 1) <= 128, got 12x12"
        );
        assert!(BatchBoard::new(17, 3, Counting::FromOne).is_err());
    }
}
