//! For tests: plain minimax over every move, the reference the solver's scores are checked
//! against, and the random positions and games they are checked on.

use super::bitboard::Bitboard;
use super::position::Position;

/// Plain minimax over every move: no pruning, no table, no move ordering.
pub(super) fn exhaustive<B: Bitboard>(position: &Position<B>) -> i32 {
    let area = position.geometry().area() as i32;
    let moves = position.moves_played() as i32;
    if position.is_full() {
        return 0;
    }
    (0..position.width())
        .filter(|&c| position.can_play(c))
        .map(|c| {
            if position.is_winning_move(c) {
                (area + 1 - moves) / 2
            } else {
                let mut child = *position;
                child.play_column(c).unwrap();
                -exhaustive(&child)
            }
        })
        .max()
        .unwrap()
}

/// Plays `columns` (taken modulo the width) from the empty board, skipping full columns and
/// winning moves, until `stones` stones are down.
pub(super) fn position_from<B: Bitboard>(
    width: u32,
    height: u32,
    columns: &[u8],
    stones: u32,
) -> Position<B> {
    let mut position = Position::new(width, height).unwrap();
    for &c in columns {
        let column = u32::from(c) % width;
        if position.moves_played() == stones {
            break;
        }
        if position.can_play(column) && !position.is_winning_move(column) {
            position.play_column(column).unwrap();
        }
    }
    position
}

/// Calls `visit` on every position, up to a win or a full board, of `games` random games
/// on a `width` x `height` board (a fixed xorshift sequence from `seed`).
pub(super) fn random_games<B: Bitboard>(
    width: u32,
    height: u32,
    games: usize,
    seed: u64,
    mut visit: impl FnMut(&Position<B>),
) {
    let mut state = seed;
    for _ in 0..games {
        let mut position = Position::new(width, height).unwrap();
        while !position.is_full() && !position.can_win_next() {
            visit(&position);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let columns: Vec<u32> = (0..width).filter(|&c| position.can_play(c)).collect();
            let column = columns[(state % columns.len() as u64) as usize];
            position.play_column(column).unwrap();
        }
    }
}

/// Up to 24 positions with `empty` empty cells on a `width` x `height` board, each of
/// random moves that do not complete four (a fixed xorshift sequence from `seed`).
pub(super) fn positions_with_empty(
    width: u32,
    height: u32,
    empty: u32,
    seed: u64,
) -> Vec<Position> {
    let mut state = seed;
    let mut column = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % 251) as u8
    };
    let stones = width * height - empty;
    (0..24)
        .map(|_| {
            let columns: Vec<u8> = (0..1000).map(|_| column()).collect();
            position_from(width, height, &columns, stones)
        })
        .filter(|position| position.moves_played() == stones)
        .collect()
}
