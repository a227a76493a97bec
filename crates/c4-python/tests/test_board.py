"""Board: made from moves, FEN or arrays; play and undo; results; planes; mirror; equality."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import c4


def test_moves_as_string_and_as_indices_agree() -> None:
    by_string = c4.Board("4455")
    by_indices = c4.Board([3, 3, 4, 4])
    assert by_string == by_indices
    assert hash(by_string) == hash(by_indices)
    assert by_string.moves == [3, 3, 4, 4]
    assert by_string.ply == 4 and by_string.to_move == 0
    assert by_string.fen == "3xx2/3oo2/7/7/7/7 x"
    assert (by_string.width, by_string.height, by_string.connect, by_string.players) == (7, 6, 4, 2)


def test_play_undo_and_legal_moves() -> None:
    board = c4.Board()
    assert board.legal_moves() == list(range(7))
    for _ in range(6):
        board.play(0)
    assert not board.is_legal(0) and board.is_legal(1)
    assert not board.is_legal(-1) and not board.is_legal(7)
    assert board.legal_moves() == list(range(1, 7))
    with pytest.raises(ValueError, match="column index 0 is full"):
        board.play(0)
    assert board.undo() == 0
    assert board.ply == 5 and board.is_legal(0)


def test_a_win_ends_the_game_with_its_cells() -> None:
    board = c4.Board("4455667")
    assert board.is_over and not board.is_draw
    assert board.winner == 0
    # Rows count from the top: the bottom row of 6 is row 5.
    assert board.winning_cells == [(5, 3), (5, 4), (5, 5), (5, 6)]
    assert board.legal_moves() == []
    with pytest.raises(ValueError, match="the game is over"):
        board.play(0)
    board.undo()
    assert board.winner is None and board.winning_cells == []


def test_a_full_board_without_a_line_is_a_draw() -> None:
    board = c4.Board([0, 1, 2, 3], width=4, height=1)
    assert board.is_over and board.is_draw and board.winner is None


def test_errors_are_value_errors_with_the_engines_sentences() -> None:
    cases = [
        (lambda: c4.Board("48"), "move 2 \\(column 8\\): column 8 is off the board"),
        (lambda: c4.Board([7]), "move 1: column index 7 is off the board \\(indices 0-6\\)"),
        (lambda: c4.Board([-1]), "column index -1 is off the board"),
        (lambda: c4.Board(width=17), "width must be from 1 to 16, got 17"),
        (lambda: c4.Board(players=9), "players"),
        (lambda: c4.Board.from_fen("7/7/7 q"), "'q' is not a player's token"),
        (lambda: c4.Board.from_fen("8/7 x"), "fen row 2 has 7 cells, expected 8"),
        (lambda: c4.Board.from_array([[1, 1]]), "stone counts x=2 o=0"),
        (lambda: c4.Board.from_array([[0, 3]]), "holds 3; expected 0 for empty"),
        (lambda: c4.Board.from_array([[0, 0], [0]]), "row 1 of the array has 1 cells"),
        (lambda: c4.Board.from_array([[1, 0], [0, 2]]), "floats above an empty cell"),
        (lambda: c4.Board().undo(), "nothing to undo"),
    ]
    for make, message in cases:
        with pytest.raises(ValueError, match=message):
            make()


def test_fen_and_array_round_trip() -> None:
    board = c4.Board("44553")
    assert c4.Board.from_fen(board.fen) == board
    planes = board.to_numpy()
    # Plane 0 is the side to move (o, the second player): 2 for o, 1 for x.
    array = 2 * planes[:, :, 0] + planes[:, :, 1]
    assert c4.Board.from_array(array) == board
    assert c4.Board.from_array(array.tolist()) == board
    assert eval(repr(board), {"Board": c4.Board}) == board


def test_planes_match_pettingzoo_layout() -> None:
    board = c4.Board([3])
    planes = board.to_numpy()
    assert planes.dtype == np.int8 and planes.shape == (6, 7, 2)
    # o to move: x's stone, bottom row (row 5 from the top), column 3, is in plane 1.
    assert planes[5, 3, 1] == 1 and planes.sum() == 1
    first = board.to_numpy(channels_first=True)
    assert first.shape == (2, 6, 7) and first[1, 5, 3] == 1
    planes[0, 0, 0] = 1  # the array is the caller's own
    assert board.to_numpy().sum() == 1
    full = c4.Board([0] * 6)
    assert full.action_mask().tolist() == [0, 1, 1, 1, 1, 1, 1]


def test_mirror_reflects_stones_and_moves() -> None:
    board = c4.Board.from_fen("x6/o6/7/7/7/7 x")
    board.play(1)
    mirrored = board.mirror()
    assert mirrored.fen == "5xx/6o/7/7/7/7 o"
    assert mirrored.moves == [5]
    assert mirrored.undo() == 5
    assert mirrored.fen == "6x/6o/7/7/7/7 x"
    assert mirrored.mirror().mirror() == mirrored


def test_copies_are_independent() -> None:
    board = c4.Board("44")
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board)):
        other.play(0)
        assert board.ply == 2 and other.ply == 3


def test_pickled_boards_keep_rules_position_and_moves() -> None:
    board = c4.Board.from_fen("2x4/7/7 o", connect=3, players=2)
    board.play(2)
    board.play(3)
    copy_of = pickle.loads(pickle.dumps(board))
    assert copy_of == board and copy_of.connect == 3
    assert copy_of.moves == [2, 3]
    copy_of.undo()
    copy_of.undo()
    assert copy_of.fen == "2x4/7/7 o"


def test_other_variants() -> None:
    three = c4.Board("123", width=5, height=4, connect=3, players=3)
    assert three.to_move == 0 and three.to_numpy().shape == (4, 5, 3)
    assert three.fen == "xoa2/5/5/5 x"
    five = c4.Board([0, 1, 0, 1, 0, 1, 0, 1], width=9, height=7, connect=5)
    assert not five.is_over
    five.play(0)
    assert five.winner == 0 and len(five.winning_cells) == 5
    big = c4.Board.from_array(np.zeros((16, 16), dtype=np.int64))
    assert big.width == 16 and big.height == 16


def test_boards_are_hashable_by_position() -> None:
    seen = {c4.Board("4455"), c4.Board("5544"), c4.Board("4456"), c4.Board("4455", connect=3)}
    assert len(seen) == 3
    assert c4.Board("4455") in seen
    assert c4.Board("4455") != "4455"


def test_a_board_as_text_shows_rows_top_first_over_0_based_columns() -> None:
    assert str(c4.Board("4455")) == "\n".join(
        [". . . . . . ."] * 4 + [". . . o o . .", ". . . x x . .", "0 1 2 3 4 5 6"]
    )
    # Three players' tokens; the labels wrap after 9, one under each column.
    wide = c4.Board([10, 11, 0], width=12, height=1, connect=3, players=3)
    assert str(wide) == "a . . . . . . . . . x o\n0 1 2 3 4 5 6 7 8 9 0 1"
