"""c4.cluster.Split on its own: a splitting of minutes ended by a signal's handler, or when
asked, and going on at the next call."""

from __future__ import annotations

import signal

import pytest

from c4.cluster import Split


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
