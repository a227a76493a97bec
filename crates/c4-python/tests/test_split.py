"""c4.cluster.Split on its own: a splitting of minutes ended by a signal's handler, or when
asked, and going on at the next call; its quick searches handed to a later run."""

from __future__ import annotations

import io
import signal

import pytest

from c4.cluster import QUICK, Split, _open_quick, open_results


class Stopped(BaseException):
    pass


def settled_quickly(split: Split) -> int:
    """How many nodes the split's quick searches have settled: its splitting's progress."""
    return split.progress()[4]


def test_a_signal_ends_a_splitting_of_minutes_and_the_next_call_goes_on():
    def stop(_signum, _frame):
        raise Stopped

    # 13x4's first splitting takes minutes.
    split = Split(13, 4, "", 12)
    previous = signal.signal(signal.SIGALRM, stop)
    try:
        settled = []
        for _ in range(2):
            signal.setitimer(signal.ITIMER_REAL, 0.5)
            with pytest.raises(Stopped):
                split.wanted()
            settled.append(settled_quickly(split))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert settled[0] <= settled[1], settled


def test_a_splitting_asked_to_stop_says_none_and_the_next_call_goes_on():
    split = Split(13, 4, "", 12)
    # What `stopped` raises ends the call; something that cannot be called is refused first.
    with pytest.raises(ZeroDivisionError):
        split.wanted(lambda: 1 / 0)
    with pytest.raises(TypeError, match="stopped must be a function"):
        split.wanted(3)  # type: ignore[arg-type]
    # Asked a few times a second, stopped the third time: each call goes on from the last, its
    # quick searches' results kept, until some have settled a node.
    settled = [settled_quickly(split)]
    while settled[-1] == 0 and len(settled) < 100:
        asked = []
        assert split.wanted(lambda: asked.append(None) or len(asked) == 3) is None
        assert len(asked) == 3
        settled.append(settled_quickly(split))
    assert settled[-1] > 0, settled


def splitting_searches(split: Split) -> list[str]:
    """The quick searches of ``split``'s next splitting, kept from before it on."""
    split.take_quick_searches()
    split.wanted()
    return split.take_quick_searches()


def question(line: str) -> tuple[str, str]:
    """A quick search's position and bound, whatever its answer."""
    moves, answer = line.rsplit(" ", 1)
    return moves, answer.lstrip(">=<?")


def test_a_split_given_the_quick_searches_of_another_splits_without_them():
    searched = splitting_searches(Split(6, 5, "", 4))
    assert any(" ?" in line for line in searched) and any(">=" in line or "<" in line
                                                         for line in searched)
    again = Split(6, 5, "", 4)
    for line in searched:
        again.record_quick_line(line)
    assert splitting_searches(again) == []
    assert again.wanted() == Split(6, 5, "", 4).wanted()
    with pytest.raises(ValueError, match="'44 =1' is not a quick search's outcome"):
        again.record_quick_line("44 =1")
    with pytest.raises(ValueError, match="is not a result"):
        again.record_line("44 ?1")


def test_a_quick_searches_file_is_read_up_to_its_first_unreadable_line(tmp_path):
    path = tmp_path / QUICK
    searched = splitting_searches(Split(6, 5, "", 4))
    header = Split(6, 5, "", 4).header() + "\n"
    good = "".join(line + "\n" for line in searched[:5])
    for bad in ["4x4 >=1\n" + searched[5] + "\n", searched[5][:3], "\xff\n"]:
        path.write_bytes((header + good).encode() + bad.encode("latin-1"))
        log = io.StringIO()
        split = Split(6, 5, "", 4)
        with _open_quick(path, split, log) as quick:
            quick.write("next\n")
        said = log.getvalue()
        assert said.startswith(f"c4.cluster: {path}, line 7: ") and said.count("\n") == 1, said
        assert said.endswith("; the quick searches from there on are made again\n"), said
        # The readable lines handed in and kept, the next written after them.
        assert path.read_text() == header + good + "next\n"
        # Those searches are not made again, the others are.
        again = {question(line) for line in splitting_searches(split)}
        assert again and not again & {question(line) for line in searched[:5]}


def test_a_quick_searches_file_of_another_solve_is_replaced(tmp_path):
    path = tmp_path / QUICK
    path.write_text(Split(7, 4, "", 4).header() + "\n44 ?1\n")
    log = io.StringIO()
    split = Split(6, 5, "", 4)
    _open_quick(path, split, log).close()
    assert log.getvalue() == f"c4.cluster: {path} holds another solve's quick searches: replaced\n"
    assert path.read_text() == split.header() + "\n"
    # None there, or its first line cut short: a file with the header alone, nothing said.
    for stored in [None, split.header()[:20], split.header()]:
        path.unlink()
        if stored is not None:
            path.write_text(stored)
        log = io.StringIO()
        _open_quick(path, Split(6, 5, "", 4), log).close()
        assert log.getvalue() == "" and path.read_text() == split.header() + "\n"
    # One that cannot be read: the run goes on without it.
    path.unlink()
    path.mkdir()
    log = io.StringIO()
    assert _open_quick(path, Split(6, 5, "", 4), log) is None
    assert log.getvalue() == f"c4.cluster: {path}: Is a directory; the quick searches are not kept\n"


def test_a_results_file_whose_last_line_was_cut_short_drops_it(tmp_path):
    split = Split(6, 5, "", 4)
    stored = split.header() + "\n44 >=1\n45 <1"
    (tmp_path / "results.txt").write_text(stored)
    log = io.StringIO()
    again, results = open_results(tmp_path, None, log)
    with results:
        results.write("46 >=1\n")
    assert again.progress()[3] == 1
    assert log.getvalue() == (f"c4.cluster: {tmp_path / 'results.txt'}: its last line, '45 <1', "
                              "was cut short: dropped, its job is asked again\n")
    assert (tmp_path / "results.txt").read_text() == split.header() + "\n44 >=1\n46 >=1\n"
