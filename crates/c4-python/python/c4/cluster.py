"""Solve a position split into jobs that Ray runs, on this machine or on a cluster.

The engine splits the solve (``Split``: the questions asked of the root, the proof trees, the
jobs wanted now); this module only runs the jobs. Each Ray worker holds one ``Prover`` actor,
which answers jobs with a long-lived ``c4 solve --at-least line --checkpoint-dir DIR`` process, so
that the jobs one worker answers share a table as one search would, and a job cut short goes
on from its own checkpoint wherever it is taken up again. Every answer is appended to
``FOLDER/results.txt`` (synced) before it is used, so a stopped driver started again with the
same command goes on where it stood and never runs a finished job again. A worker that dies is
restarted by Ray and its job retried; its ``c4`` process, ended with it, saved its progress.

From the command line (``python -m c4.cluster --help``)::

    python -m c4.cluster FOLDER --board 10x4              # this machine's cores
    python -m c4.cluster FOLDER --board 13x4 --address auto   # a running Ray cluster

The last line written is the score as ``c4 solve`` writes it (``MOVES SCORE``). The folder
must be one every machine sees, and ``c4`` (``--c4 PATH``) a program every machine can run.
Without Ray, ``c4 split plan`` and ``c4 split merge`` run the same solve from plan files.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import hashlib
import importlib
import importlib.util
import itertools
import os
import shutil
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from c4._core import Split

__all__ = ["Split", "Progress", "solve", "main"]

RESULTS = "results.txt"
# The quick searches the splitting made: not needed (without them the next run makes them
# again, minutes on 13x4), so read leniently.
QUICK = "quick.txt"


@dataclass
class Progress:
    """How far a run has come: what ``solve`` reports as it goes."""

    lower: int
    upper: int
    questions: int
    answered: int
    settled_quickly: int
    re_expanded: int
    running: int
    wanted: int
    seconds: float

    def line(self) -> str:
        """One line for a log: the score's range, the jobs done and left, an estimate."""
        done = self.answered
        left = self.wanted + self.running
        estimate = ""
        if done and left:
            per_job = self.seconds * max(1, self.running) / done
            estimate = f", about {per_job * left / max(1, self.running):.0f} s left at this pace"
        return (
            f"c4.cluster: score between {self.lower} and {self.upper}; question "
            f"{self.questions}; {done} jobs done, {self.re_expanded} re-expanded, "
            f"{self.settled_quickly} settled quickly, {self.running} running, "
            f"{self.wanted} waiting{estimate} ({self.seconds:.0f} s)"
        )


class Prover:
    """One worker's prover: a long-lived ``c4 solve --at-least line`` process answering jobs
    of any bound one line at a time (``MOVES B``), with a checkpoint per position in a folder
    all workers see. Its table lies in a file of ``shared`` (a folder of the machine's memory
    file system, when it has one), shared with the other provers of the same machine as the
    threads of one search share theirs, and kept across jobs, questions and restarts."""

    #: Processes kept at once: a solve's jobs all take the same arguments; others replace it.
    KEPT = 1

    def __init__(self, c4: str, checkpoints: str, table_mib: int | None,
                 shared: str | None) -> None:
        self.c4 = c4
        self.checkpoints = checkpoints
        self.table_mib = table_mib
        # Each machine decides for itself: one without /dev/shm gives each prover its own table.
        self.shared = shared if shared is not None and Path("/dev/shm").is_dir() else None
        # Standard error of this prover's c4 processes, for the reason when one ends unasked.
        self.log = Path(checkpoints) / f"prover-{socket.gethostname()}-{os.getpid()}.log"
        self.closed = False
        self.processes: dict[tuple[str, ...], Any] = {}
        # The call under way (its ticket), its process, whether `stop` was asked to end it, the
        # tickets stopped before their call began (an actor may run its calls out of order),
        # the last ticket begun, and the process a stop signalled; `stop` and `close` run on
        # other threads, so these change under the lock.
        self.current: int | None = None
        self.process: Any = None
        self.stopped = False
        self.stops: set[int] = set()
        self.last = 0
        self.signalled: Any = None
        self.lock = threading.Lock()

    def prove(self, question: str, arguments: list[str], ticket: int) -> str | None:
        """The answer line of the job ``question`` (``MOVES B``) run with ``arguments``, or
        None if ``stop(ticket)`` ended it first. The driver gives each call on a prover a
        larger ``ticket`` than the last, so that a stop names one call."""
        key, waited = tuple(arguments), False
        with self.lock:
            self.current, self.last = ticket, max(self.last, ticket)
            self.stopped = ticket in self.stops
            self.stops = {later for later in self.stops if later > ticket}
        try:
            for _ in range(60):
                with self.lock:
                    # Looked at as the process is taken, so that neither a stop nor `close`
                    # can come between the two unseen.
                    if self.closed or self.stopped:
                        return None
                    process = self.process = self._process(key)
                try:
                    process.stdin.write(question + "\n")
                    process.stdin.flush()
                except (BrokenPipeError, ValueError) as error:
                    # It ended between jobs (a signal, its parent's end), or `close` closed its
                    # input: a fresh process, unless the prover is closed or the job stopped.
                    if not isinstance(error, BrokenPipeError) and not self.closed:
                        raise
                    self._forget(key, process)
                    continue
                line = process.stdout.readline()
                with self.lock:
                    # A stop that comes from now on signals no process.
                    stopped, self.process = self.stopped, None
                if not line and not stopped and not self.closed:
                    # Ended unasked: killed (by a signal: the job is tried again), or c4
                    # refused to start (an exit status, its reason in the log: trying again
                    # would loop).
                    self._forget(key, process)
                    if process.returncode > 0:
                        raise RuntimeError(
                            f"c4 ended with status {process.returncode} before answering "
                            f"{question!r}{_last_line(self.log)}")
                    return None
                ended = not line or "error: stopped before the end" in line
                if stopped or ended:
                    # Signalled, it saves and ends (an answer it gave first still stands):
                    # a fresh process next time.
                    self._forget(key, process)
                if ended:
                    return None
                line = line.rstrip("\n")
                # A checkpoint still held by another process (a stopped job's, or that of a
                # worker that died, saving first): wait for it, the job still stoppable.
                if " error: " in line and "another c4 process is running this checkpoint" in line:
                    if stopped:
                        return None
                    if not waited:
                        with self.log.open("a") as log:
                            print(f"c4.cluster: job {question!r} waits for its checkpoint, held "
                                  "by another process", file=log)
                        waited = True
                    time.sleep(1)
                    continue
                return line
            raise RuntimeError(f"c4 could not answer {question!r}: its checkpoint stayed in use")
        finally:
            with self.lock:
                self.current, self.process = None, None

    def stop(self, ticket: int) -> None:
        """Ends the call of ``ticket`` if it is under way, its progress saved (SIGTERM), and
        its process with it, or before it begins if it has not yet; a stop that comes after
        the call ended leaves the next one alone, and one asked again changes nothing."""
        with self.lock:
            if ticket == self.current:
                # One SIGTERM a process: a second ends a saving c4 at once, its progress lost
                # (`close` has sent it one already if closed).
                if not self.stopped and not self.closed and self.process is not None:
                    self.signalled = self.process
                    self.process.send_signal(signal.SIGTERM)
                self.stopped = True
            elif ticket > self.last:
                self.stops.add(ticket)

    def close(self, remove_table: bool = True) -> None:
        """Ends this prover's ``c4`` processes (a job under way saves its progress) and, with
        ``remove_table``, removes the shared table's folder from its machine, once the solve
        is over."""
        with self.lock:
            self.closed = True
            processes = list(self.processes.values())
            self.processes.clear()
            signalled = self.signalled
        for process in processes:
            _end_input(process)
            # A second SIGTERM would end a process that is saving at once, its progress lost.
            if process is not signalled:
                process.send_signal(signal.SIGTERM)
            process.wait()
        if remove_table and self.shared is not None:
            shutil.rmtree(self.shared, ignore_errors=True)

    def _forget(self, key: tuple[str, ...], process: Any) -> None:
        """Waits for ``process`` to end and drops it, so that the next job starts another.
        Its input is closed first: a process that has already answered (a stop that came as
        its job ended) then ends as its input does."""
        _end_input(process)
        process.wait()
        with self.lock:
            if self.processes.get(key) is process:
                del self.processes[key]

    def _process(self, arguments: tuple[str, ...]) -> Any:
        """The running process for ``arguments``, started if need be, the oldest closed past
        ``KEPT`` (under the lock: `close` then ends every process started)."""
        import subprocess

        process = self.processes.get(arguments)
        if process is not None and process.poll() is None:
            return process
        while len(self.processes) >= self.KEPT:
            oldest = next(iter(self.processes))
            _end_input(self.processes.pop(oldest))
        command = [self.c4, *arguments, "--checkpoint-dir", self.checkpoints]
        command += ["--checkpoint-every", "60"]
        if self.shared is not None:
            command += ["--shared-table", self.shared]
        if self.table_mib is not None:
            command += ["--hash", str(self.table_mib)]
        with self.log.open("a") as log:
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                text=True,
                preexec_fn=_end_with_parent,
            )
        self.processes[arguments] = process
        return process


def _end_input(process: Any) -> None:
    """Closes ``process``'s input, which ends c4 between jobs; one that already ended (or was
    closed on another thread) has nothing to close."""
    try:
        process.stdin.close()
    except (BrokenPipeError, ValueError):
        pass


def _last_line(log: Path) -> str:
    """``: LINE``, the last line of ``log`` (c4's reason), or nothing if it has none."""
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return f": {lines[-1]}" if lines else ""


def _prctl() -> Any:
    """libc's ``prctl`` (Linux), loaded now: the child of a fork may not load a library (the
    loader's lock may be held by another thread of the parent, importing Ray, say)."""
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True).prctl
    except OSError:
        return None


_PRCTL = _prctl()


def _end_with_parent() -> None:
    """In the child, before c4 starts: SIGTERM when the worker that started it dies (Linux), so
    that c4 saves its progress and ends instead of running on unowned. Loads and imports
    nothing (see ``_prctl``)."""
    if _PRCTL is not None:
        pr_set_pdeathsig = 1
        _PRCTL(pr_set_pdeathsig, signal.SIGTERM)


def open_results(folder: Path, split: Split | None,
                 log: TextIO | None = None) -> tuple[Split, TextIO]:
    """The solve of ``folder``'s results file, with every answer in it handed in, and the file
    open for appending; a new file for ``split`` where there is none. A last line cut short (a
    machine that went down as it was written) is dropped, and said on ``log``: it could read as
    another answer (``33 <1`` of ``33 <12``)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ckpt").mkdir(exist_ok=True)
    results = folder / RESULTS
    if results.exists():
        header, *lines = results.read_bytes().splitlines(keepends=True) or [b""]
        stored = Split.from_header(header.decode().rstrip("\n"))
        if split is not None and stored.header() != split.header():
            raise ValueError(
                f"{results} holds another solve ({header.decode().rstrip()}): use another "
                "folder, or the same settings"
            )
        def record(line: str) -> None:
            if line.strip():
                stored.record_line(line)

        cut = _hand_in(results, len(header), lines, record)
        if cut is not None:
            _say(log, f"{results}: its last line, {cut[1].decode(errors='replace')!r}, was cut "
                      "short: dropped, its job is asked again")
        split = stored
    elif split is None:
        raise ValueError(f"{results} does not exist: give the board to start a solve")
    else:
        results.write_text(split.header() + "\n")
    return split, results.open("a")


def solve(
    folder: str | os.PathLike[str],
    split: Split | None = None,
    *,
    address: str | None = None,
    workers: int | None = None,
    c4: str | None = None,
    table_mib: int | None = None,
    stop_after: int | None = None,
    log: TextIO | None = sys.stderr,
    every: float = 10.0,
) -> int | None:
    """Runs the split solve of ``folder`` on Ray until its score is known, and returns it.

    ``split`` starts a new solve (the folder's results file names it); without it the folder's
    solve goes on. ``address`` is a Ray cluster's (None: Ray on this machine's cores, or
    ``workers`` of them); ``c4`` the program the workers run (default: ``c4`` on the PATH);
    ``table_mib`` each prover's table (default: c4's pick for the board). ``stop_after``
    answers at most that many jobs and returns None if the score is not known by then. A line
    of progress goes to ``log`` every ``every`` seconds. When Ray is not running yet, it is
    started here (on this thread) and stopped at the end; on this machine, the driver's own
    provers answer jobs while it starts. While it starts, SIGINT and SIGTERM are held (Ray's
    start cut short leaves processes behind) and raised once it is up; a second one ends the
    process at once.
    """
    # Ray is imported (about 0.4 s) once the driver's own provers are at work; whether it is
    # there is known at once.
    if importlib.util.find_spec("ray") is None:
        raise ImportError("c4.cluster needs Ray: pip install 'ray>=2.60'")
    program = c4 or shutil.which("c4")
    if program is None:
        raise ValueError("c4 is not on the PATH: give c4=PATH (a program every worker can run)")
    folder = Path(folder).resolve()
    split, results = open_results(folder, split, log)
    quick = _open_quick(folder / QUICK, split, log)
    started = time.monotonic()
    if split.score is not None:
        _close(results, quick)
        _say_progress(split, 0, 0, started, log)
        return split.score
    program = str(Path(program).resolve())
    checkpoints = str(folder / "ckpt")
    shared = _shared_tables(folder)
    run = _Run(split, results, quick, split.job_arguments(), started, log, every)
    # Ray started here is stopped here; one the caller started is left to the caller.
    imported = sys.modules.get("ray")
    starts_ray = imported is None or not imported.is_initialized()
    ray: Any = None if starts_ray else imported
    try:
        if starts_ray:
            # Without an address, a Ray of this run's own, even where RAY_ADDRESS or a `ray
            # start` of this machine names another: a cluster is only ever used when asked for.
            options = dict(address="local" if address is None else address,
                           num_cpus=workers if address is None else None,
                           include_dashboard=False, log_to_driver=False)
            if address is None:
                # Ray takes seconds to start on this machine: its cores answer jobs meanwhile,
                # in provers of the driver's own, which leave their table to Ray's provers.
                # (Ray starts on this thread: its processes end with the thread that started
                # them.)
                local = _LocalProvers([Prover(program, checkpoints, table_mib, shared)
                                       for _ in range(workers or os.cpu_count() or 1)])
                up = threading.Event()
                beside = _Beside(lambda: run.until(local, up.is_set, stop_after))
                try:
                    ray = importlib.import_module("ray")
                    _init_ray(ray, options)
                    ray_up = time.monotonic() - started
                finally:
                    up.set()
                    try:
                        beside.join()
                    finally:
                        local.close()
                # The driver's provers hand over between two jobs, or during a splitting of
                # the trees (minutes on a large board), which goes on on this thread.
                _say(log, f"Ray started after {ray_up:.1f} s; {run.answered} jobs answered "
                          f"before its provers took over, after "
                          f"{time.monotonic() - started:.1f} s")
            else:
                ray = importlib.import_module("ray")
                _init_ray(ray, options)
        if split.score is None and (stop_after is None or run.answered < stop_after):
            count = workers or int(ray.cluster_resources().get("CPU", 1))
            # Ray's stubs know no max_concurrency on this form; an actor needs it to take
            # `stop` while `prove` runs.
            remote: Any = ray.remote
            actor = remote(num_cpus=1, max_restarts=-1, max_task_retries=-1,
                           max_concurrency=2)(Prover)
            provers = _RayProvers(ray, [actor.remote(program, checkpoints, table_mib, shared)
                                        for _ in range(count)])
            try:
                run.until(provers, None, stop_after)
            finally:
                provers.close()
    finally:
        _close(results, quick)
        # The driver's provers' table, if Ray's never ran.
        if shared is not None:
            shutil.rmtree(shared, ignore_errors=True)
        if starts_ray and ray is not None:
            _stop_ray(ray)
    if split.score is None:
        return None
    _say_progress(split, 0, 0, started, log)
    return split.score


def _init_ray(ray: Any, options: dict[str, Any]) -> None:
    """Starts Ray, or joins the cluster ``options`` name; SIGINT and SIGTERM left as they were.

    ``ray.init`` makes SIGTERM exit the driver, and its core worker sets a handler of its own
    that prints a stack trace before passing the signal on; neither is set here, so that a
    caller's own handling of SIGTERM (``main``'s stop, which ends the run cleanly) stands, and
    says nothing more. (A crash of the driver's core worker is still reported, by the Python
    trace ``ray.init`` turns on, without the C++ one.) While a Ray of this machine starts, a
    stopping signal takes effect once ``ray.init`` has returned (cut short, Ray's start leaves
    its agents running, waiting for ever for a GCS that was stopped), and a second one ends the
    process at once.
    """
    with _without_rays_signal_handlers(ray):
        # Signals are the main thread's: only there are handlers set, by Ray or here.
        if (threading.current_thread() is not threading.main_thread()
                or options.get("address") != "local"):
            ray.init(**options)
            return
        _init_local_ray(ray, options)


def _init_local_ray(ray: Any, options: dict[str, Any]) -> None:
    """Starts a Ray of this machine, a stopping signal held until it is up."""
    caller: dict[int, Any] = {kind: signal.getsignal(kind)
                              for kind in (signal.SIGINT, signal.SIGTERM)}
    # Only handlers set from Python can be put back (None: one that was not).
    held_kinds = [kind for kind, handler in caller.items()
                  if handler is not signal.SIG_IGN and handler is not None]
    holding = True
    came: list[int] = []

    def held(signum: int, frame: Any) -> None:
        if not holding:
            # Ray is up, and this kind's handler not yet put back.
            _pass_on(caller[signum], signum, frame)
        elif came:
            _die_by(signum)
        else:
            came.append(signum)

    for kind in held_kinds:
        signal.signal(kind, held)
    try:
        ray.init(**options)
    finally:
        holding = False
        for kind in held_kinds:
            signal.signal(kind, caller[kind])
    if came:
        signal.raise_signal(came[0])


@contextlib.contextmanager
def _without_rays_signal_handlers(ray: Any) -> Iterator[None]:
    """While ``ray.init`` runs in it, Ray sets no handler of SIGTERM in this process.

    Both are Ray's internals, looked up and left alone if missing: the function its ``init``
    sets SIGTERM's Python handler with, and the setting its core worker reads when made
    (workers, other processes, read their own from the environment).
    """
    private: Any = getattr(ray, "_private", None)
    utils: Any = getattr(private, "utils", None)
    constants: Any = getattr(private, "ray_constants", None)
    setter = getattr(utils, "set_sigterm_handler", None)
    if setter is not None:
        utils.set_sigterm_handler = lambda _handler: None
    failure_handler_off = getattr(constants, "RAY_DISABLE_FAILURE_SIGNAL_HANDLER", None)
    if failure_handler_off is not None:
        constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = True
    try:
        yield
    finally:
        if setter is not None:
            utils.set_sigterm_handler = setter
        if failure_handler_off is not None:
            constants.RAY_DISABLE_FAILURE_SIGNAL_HANDLER = failure_handler_off


def _close(results: TextIO, quick: TextIO | None) -> None:
    """Closes a run's results file, and its quick searches' file if kept (a cache, flushed as
    it is written, its failures said then: not raised here)."""
    results.close()
    if quick is not None:
        with contextlib.suppress(OSError):
            quick.close()


def _open_quick(path: Path, split: Split, log: TextIO | None) -> TextIO | None:
    """``path``, the quick searches of ``split``'s splitting, handed to it and open for
    appending the next ones. From a line that cannot be read (cut short by a driver killed as
    it wrote, or by a machine that went down) on, lines are dropped, and a file of another solve
    is replaced: those searches are made again. None, and said on ``log``, if the file cannot
    be read or written: the run goes on without it."""
    split.take_quick_searches()  # Kept from now on.
    header = (split.header() + "\n").encode()
    try:
        try:
            stored = path.read_bytes()
        except FileNotFoundError:
            stored = b""
        if stored.startswith(header):
            lines = stored[len(header):].splitlines(keepends=True)
            # (UnicodeDecodeError is a ValueError.)
            cut = _hand_in(path, len(header), lines, split.record_quick_line, ValueError)
            if cut is not None:
                number, _, why = cut
                _say(log, f"{path}, line {number}: {why}; the quick searches from there on "
                          "are made again")
            return path.open("a")
        if not header.startswith(stored):
            # (A header cut short is replaced without a word.)
            _say(log, f"{path} holds another solve's quick searches: replaced")
        quick = path.open("w")
        quick.write(header.decode())
        return quick
    except OSError as error:
        _say(log, f"{path}: {error.strerror or error}; the quick searches are not kept")
        return None


def _hand_in(path: Path, start: int, lines: list[bytes], record: Callable[[str], None],
             refused: type[Exception] | tuple[type[Exception], ...] = ()
             ) -> tuple[int, bytes, str] | None:
    """Hands ``lines``, ``path``'s from byte ``start`` on (its second line), to ``record`` up
    to the first one cut short (no newline: its writer stopped as it wrote it), or that
    ``record`` refuses with ``refused``; that one and those after are cut off the file. Which it
    was (its number, the line, why), if one was."""
    kept = start
    for number, line in enumerate(lines, start=2):
        if not line.endswith(b"\n"):
            cut = (number, line, "it was cut short")
            break
        try:
            record(line.decode().rstrip("\n"))
        except refused as error:
            cut = (number, line, str(error))
            break
        kept += len(line)
    else:
        return None
    os.truncate(path, kept)
    return cut


def _say(log: TextIO | None, what: str) -> None:
    """Writes a line of the run's log."""
    if log is not None:
        print(f"c4.cluster: {what}", file=log, flush=True)


def _pass_on(handler: Any, signum: int, frame: Any) -> None:
    """Does what ``handler``, a handler ``signal.getsignal`` gave, does on ``signum``."""
    if callable(handler):
        handler(signum, frame)
    elif handler is signal.SIG_DFL:
        _die_by(signum)


def _die_by(signum: int) -> None:
    """Ends this process by ``signum``, as if no handler had been set for it."""
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _stop_ray(ray: Any) -> None:
    """Stops the Ray this driver started.

    Ray's shutdown stops its GCS before its autoscaler's monitor, then gives the monitor a
    second to exit on SIGTERM, which the monitor spends failing to tell the stopped GCS; a Ray
    on one machine has nothing to autoscale, so the monitor is killed first, and the second is
    not lost at the end of every run.
    """
    try:
        from ray._private import ray_constants, worker

        node = worker._global_node
        if node is not None:
            node._kill_process_type(ray_constants.PROCESS_TYPE_MONITOR, check_alive=False)
    except Exception:
        pass  # A Ray whose internals differ: its own shutdown, at its own pace.
    finally:
        ray.shutdown()


class _Beside(threading.Thread):
    """``work`` on a thread of its own, started at once; ``join`` raises what it raised."""

    def __init__(self, work: Callable[[], None]) -> None:
        super().__init__(daemon=True)
        self.work = work
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self.work()
        except BaseException as error:  # handed to the caller's thread by `join`
            self.error = error

    def join(self, timeout: float | None = None) -> None:
        """Waits for the work to end, then raises what it raised. A signal's exception that
        comes meanwhile is raised once the work has ended: it may be keeping answers."""
        interrupted: BaseException | None = None
        while True:
            try:
                super().join(timeout)
                break
            except BaseException as error:  # raised once the work has ended
                interrupted = interrupted or error
        if interrupted is not None:
            raise interrupted
        if self.error is not None:
            raise self.error


class _LocalProvers:
    """Provers of the driver's own process, each answering on a thread of a pool."""

    def __init__(self, provers: list[Prover]) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.provers = provers
        self.pool = ThreadPoolExecutor(len(provers))

    def __len__(self) -> int:
        return len(self.provers)

    def prove(self, index: int, question: str, arguments: list[str], ticket: int) -> Any:
        return self.pool.submit(self.provers[index].prove, question, arguments, ticket)

    def stop(self, index: int, ticket: int) -> None:
        self.provers[index].stop(ticket)

    def wait(self, handles: list[Any], timeout: float) -> list[Any]:
        from concurrent.futures import FIRST_COMPLETED, wait

        done, _ = wait(handles, timeout=timeout, return_when=FIRST_COMPLETED)
        return list(done)

    def answer(self, handle: Any) -> str | None:
        line: str | None = handle.result()
        return line

    def close(self) -> None:
        """Ends the provers' processes, the jobs under way saving their progress; the shared
        table stays, for Ray's provers."""
        for prover in self.provers:
            prover.close(remove_table=False)
        self.pool.shutdown(wait=True)


class _RayProvers:
    """Prover actors, one per Ray worker."""

    def __init__(self, ray: Any, provers: list[Any]) -> None:
        self.ray = ray
        self.provers = provers

    def __len__(self) -> int:
        return len(self.provers)

    def prove(self, index: int, question: str, arguments: list[str], ticket: int) -> Any:
        return self.provers[index].prove.remote(question, arguments, ticket)

    def stop(self, index: int, ticket: int) -> None:
        self.provers[index].stop.remote(ticket)

    def wait(self, handles: list[Any], timeout: float) -> list[Any]:
        ready, _ = self.ray.wait(handles, num_returns=1, timeout=timeout)
        return list(ready)

    def answer(self, handle: Any) -> str | None:
        line: str | None = self.ray.get(handle)
        return line

    def close(self) -> None:
        """Ends the provers' processes and removes the shared table from each machine: the
        tables go with the run (a run that goes on later starts them anew)."""
        self.ray.get([prover.close.remote() for prover in self.provers])


class _Run:
    """The driver's loop: one job per prover in flight, the most needed first, each answer
    kept in the results file (synced) before it is used, jobs no longer needed stopped, and a
    line of progress every ``every`` seconds."""

    def __init__(self, split: Split, results: TextIO, quick: TextIO | None, arguments: list[str],
                 started: float, log: TextIO | None, every: float) -> None:
        self.split = split
        self.results = results
        self.quick = quick
        self.arguments = arguments
        self.started = started
        self.log = log
        self.every = every
        self.answered = 0
        self.last_said = started
        # Each call on a prover gets a larger ticket than the last, so that a stop names it.
        self.tickets = itertools.count(1)

    def until(self, provers: _LocalProvers | _RayProvers, done: Callable[[], bool] | None,
              stop_after: int | None) -> None:
        """Runs jobs on ``provers`` until the score is known, ``done()`` says so (looked at
        every tenth of a second), or ``stop_after`` answers are in; the jobs still under way
        are then stopped (their progress saved), and those answered meanwhile kept."""
        split = self.split
        poll = self.every if done is None else 0.1
        running: dict[Any, tuple[int, tuple[str, int], int]] = {}
        try:
            while split.score is None and not (done is not None and done()):
                if stop_after is not None and self.answered >= stop_after:
                    return
                # (None: ``done()`` said so during a long splitting.)
                wanted = split.wanted(done)
                self._keep_quick()
                if wanted is None or split.score is not None:
                    return
                wanted_set = set(wanted)
                # Jobs no longer needed (a sibling settled their node) are stopped; asked again
                # on each round, in case a worker died and its call was retried from the start.
                for handle, (index, job, ticket) in running.items():
                    if job not in wanted_set:
                        provers.stop(index, ticket)
                busy = {index for index, _, _ in running.values()}
                taken = {job for _, job, _ in running.values()}
                free = [index for index in range(len(provers)) if index not in busy]
                for job in wanted:
                    if not free:
                        break
                    if job in taken:
                        continue
                    index, ticket = free.pop(0), next(self.tickets)
                    handle = provers.prove(index, _question(job), self.arguments, ticket)
                    running[handle] = (index, job, ticket)
                if not running:
                    raise RuntimeError("the split solve wants no job and has no score")
                for handle in provers.wait(list(running), poll):
                    _, job, _ = running.pop(handle)
                    self._keep(job, provers.answer(handle))
                if time.monotonic() - self.last_said >= self.every:
                    _say_progress(split, len(running), len(wanted), self.started, self.log)
                    self.last_said = time.monotonic()
        finally:
            try:
                for index, _, ticket in running.values():
                    provers.stop(index, ticket)
                if isinstance(provers, _LocalProvers):
                    # Their answers may still come, and are kept.
                    for handle, (_, job, _) in running.items():
                        self._keep(job, provers.answer(handle))
            finally:
                # (A splitting stopped by a signal's exception has its searches too.)
                self._keep_quick()

    def _keep_quick(self) -> None:
        """Appends the splitting's last quick searches to the quick searches' file; a file that
        cannot be written is said on the log, and no longer kept (it is a cache)."""
        lines = self.split.take_quick_searches()
        if not lines or self.quick is None:
            return
        try:
            self.quick.write("".join(line + "\n" for line in lines))
            self.quick.flush()
        except OSError as error:
            _say(self.log, f"{self.quick.name}: {error.strerror or error}; the quick searches "
                           "are no longer kept")
            self.quick = None

    def _keep(self, job: tuple[str, int], line: str | None) -> None:
        """Keeps a job's answer (None: it was stopped first) in the results file, synced,
        then hands it to the split."""
        if line is None:
            return
        if " error: " in line:
            raise RuntimeError(f"c4 could not answer the job {job}: {line}")
        # Kept before used: a driver stopped now loses no answer.
        self.results.write(line + "\n")
        self.results.flush()
        os.fsync(self.results.fileno())
        self.split.record_line(line)
        self.answered += 1


def _shared_tables(folder: Path) -> str | None:
    """The folder, on each machine's memory file system, of the table its provers share for
    the solve of ``folder``: one per user and solve, so that no two runs meet; None where
    there is no ``/dev/shm``."""
    if not Path("/dev/shm").is_dir():
        return None
    run = hashlib.sha256(str(folder).encode()).hexdigest()[:16]
    return f"/dev/shm/c4-tables-{os.getuid()}-{run}"


def _question(job: tuple[str, int]) -> str:
    """The line ``c4 solve --at-least line`` reads for ``job``: its moves and bound."""
    moves, bound = job
    return f"{moves} {bound}"


def _say_progress(split: Split, running: int, wanted: int, started: float,
                  log: TextIO | None) -> None:
    if log is None:
        return
    lower, upper, questions, answered, quickly, re_expanded = split.progress()
    progress = Progress(lower, upper, questions, answered, quickly, re_expanded,
                        running, max(0, wanted - running), time.monotonic() - started)
    print(progress.line(), file=log, flush=True)


def _board(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"'{text}' is not a board: expected WIDTHxHEIGHT (10x4)")
    return int(width), int(height)


class _Stopped(KeyboardInterrupt):
    """A stopping signal, raised on the main thread so that the run ends as after an error:
    its jobs stopped (their progress saved), its provers closed, the Ray it started stopped.
    A ``KeyboardInterrupt``, the one exception Ray's waits pass on as it is (any other comes
    out of them as a ``SystemError``), and not an ``Exception``, which error handlers take."""


class _StopOnSignals:
    """SIGINT and SIGTERM raise ``_Stopped`` in the block, the first one's number kept in
    ``signum`` (whatever exception then comes out of the block); a second one ends the process
    at once. A signal ignored when the block begins (a shell's background job ignores SIGINT)
    stays ignored."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self.before: dict[int, Any] = {}

    def stop(self, signum: int, _frame: Any) -> None:
        if self.signum is not None:
            _die_by(signum)
            return
        self.signum = signum
        raise _Stopped

    def __enter__(self) -> _StopOnSignals:
        # Only handlers set from Python can be put back (None: one that was not).
        for kind in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(kind) not in (signal.SIG_IGN, None):
                self.before[kind] = signal.signal(kind, self.stop)
        return self

    def __exit__(self, *_exception: object) -> None:
        # SIGINT's last: until then, a Ctrl-C still stops the run rather than raising
        # KeyboardInterrupt.
        for kind in sorted(self.before, reverse=True):
            signal.signal(kind, self.before[kind])


def _kept(folder: Path) -> str:
    """What a stopped run of ``folder`` keeps, as its last line says it."""
    results = folder / RESULTS
    begun = "before it began: the same command starts it"
    try:
        lines = results.read_text().splitlines()
    except FileNotFoundError:
        return begun
    except OSError as error:
        return f"its answers are in {results}, not readable now ({error.strerror})"
    if not lines:
        return begun  # (The file made, its first line not yet written.)
    return f"{len(lines) - 1} answers kept in {results}: the same command goes on from them"


def main(argv: list[str] | None = None) -> int:
    """``python -m c4.cluster``: the command line of ``solve``."""
    parser = argparse.ArgumentParser(
        prog="python -m c4.cluster",
        description="Solve a position split into jobs that Ray runs. The last line is the "
        "score as c4 solve writes it. Run the same command again to go on after a stop.",
    )
    parser.add_argument("folder", help="the solve's folder, seen by every machine")
    parser.add_argument("moves", nargs="?", default="",
                        help="the position: moves from the empty board (none: the empty board)")
    parser.add_argument("--board", type=_board, metavar="WxH",
                        help="the board of a new solve (default 7x6; a solve under way keeps its own)")
    parser.add_argument("--depth", type=int, default=None, metavar="PLIES",
                        help="plies from the position to the jobs (default 4)")
    parser.add_argument("--expect", type=int, default=0, metavar="SCORE",
                        help="the score expected, if roughly known (default 0)")
    parser.add_argument("--address", default=None,
                        help="a Ray cluster's address ('auto': the one this machine belongs to); "
                        "default: Ray on this machine")
    parser.add_argument("--workers", type=int, default=None,
                        help="provers to run (default: one per CPU Ray has)")
    parser.add_argument("--c4", default=None, metavar="PATH",
                        help="the c4 program every worker runs (default: c4 on the PATH)")
    parser.add_argument("--hash", type=int, default=None, metavar="MB",
                        help="each prover's table in MiB (default: c4's pick for the board)")
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    split = None
    if not (folder / RESULTS).exists() or args.board is not None:
        width, height = args.board or (7, 6)
        depth = 4 if args.depth is None else args.depth
        split = Split(width, height, args.moves, depth, args.expect)
    stops = _StopOnSignals()
    try:
        with stops:
            score = solve(folder, split, address=args.address, workers=args.workers,
                          c4=args.c4, table_mib=args.hash)
    except BaseException as error:
        if stops.signum is not None:
            name = signal.Signals(stops.signum).name
            print(f"python -m c4.cluster: stopped by {name}; {_kept(folder)}", file=sys.stderr)
            return 128 + stops.signum
        if isinstance(error, (ValueError, RuntimeError, ImportError)):
            print(f"python -m c4.cluster: {error}", file=sys.stderr)
            return 2
        raise
    root = split.root if split is not None else Split.from_header(
        (folder / RESULTS).read_text().splitlines()[0]).root
    print(f"{root} {score}")
    return 0


def _command() -> int:
    """``main`` as this process's command: stopped by a signal, the process ends by that
    signal, so that a script running it stops too."""
    status = main()
    if status > 128:
        _die_by(status - 128)
    return status


if __name__ == "__main__":
    # Run as c4.cluster, not __main__, so that Ray's workers import the provers' class from the
    # package instead of receiving this module's copy by value.
    sys.exit(importlib.import_module("c4.cluster")._command())
