//! Text forms of moves, positions and boards (in progress).
