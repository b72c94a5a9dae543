"""Where the battles run: in this process, a local process pool, Dask or Ray.

Work is cut into chunks of consecutive run indices; a worker plays its chunk with
:func:`run_chunk` and sends back one small :class:`~battleline.sim.aggregate.Tally`, never a
list of records. Only a bounded number of chunks is in flight at a time, so memory stays flat
however many runs are asked for. The tallies merge in whatever order they finish, which does not
change the aggregate (integer counters).

* ``local`` (default): ``concurrent.futures.ProcessPoolExecutor`` with ``workers`` processes
  started from a ``forkserver``; one worker plays in this process.
* ``dask://HOST:PORT`` connects a ``distributed.Client`` to a running scheduler; ``dask-local``
  starts a ``distributed.LocalCluster`` of ``workers`` single-threaded processes.
* ``ray://HOST:PORT`` connects ``ray.init`` to a cluster; ``ray-local`` starts a local Ray with
  ``workers`` CPUs.

Dask and Ray are optional extras (``pip install battleline[dask]`` / ``[ray]``); both use their
own schedulers.
"""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import multiprocessing
import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from battleline.errors import BattlelineError
from battleline.sim.aggregate import Tally
from battleline.sim.runner import play_battle

#: Called after each finished chunk with the number of runs it held.
Progress = Callable[[int], None]

#: Seconds to wait for a remote scheduler before calling it unreachable.
CONNECT_TIMEOUT_S = 5


class ClusterError(BattlelineError):
    """A cluster address is malformed or unreachable, or its extra is not installed."""


Chunk = tuple[int, int]


def run_chunk(scenario: str, seed: int, start: int, stop: int, ruleset: str | None = None) -> Tally:
    """Play runs ``start`` to ``stop - 1`` of a sweep and tally them (runs on a worker)."""
    tally = Tally(scenario, seed)
    for index in range(start, stop):
        tally.add(play_battle(scenario, seed, index, ruleset=ruleset))
    return tally


def chunks(runs: int, workers: int) -> Iterator[Chunk]:
    """Consecutive ``(start, stop)`` ranges: about 16 per worker, 1 to 64 runs each."""
    size = max(1, min(64, runs // (16 * max(1, workers))))
    for start in range(0, runs, size):
        yield start, min(runs, start + size)


@dataclass(frozen=True, slots=True)
class Job:
    """One sweep: what to play and how to report progress."""

    scenario: str
    seed: int
    runs: int
    workers: int
    #: Played with this ruleset instead of the scenario's own (one of the same schema).
    ruleset: str | None = None


class Backend:
    """Runs a :class:`Job`'s chunks and yields their tallies as they finish."""

    name = "serial"

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def tallies(self, job: Job) -> Iterator[Tally]:
        """Every chunk's tally, in the order they finish."""
        for start, stop in chunks(job.runs, self.workers):
            yield run_chunk(job.scenario, job.seed, start, stop, job.ruleset)

    def close(self) -> None:
        """Release the workers."""


class LocalBackend(Backend):
    """A ``ProcessPoolExecutor`` on this machine (the default)."""

    name = "local"

    def tallies(self, job: Job) -> Iterator[Tally]:
        if self.workers <= 1:
            yield from super().tallies(job)
            return
        window = 4 * self.workers
        todo = chunks(job.runs, self.workers)
        # Not "fork": the caller may run threads (rich's progress bar does), and a forked child
        # could inherit a lock held by one of them.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        with cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=context) as pool:
            running: set[cf.Future[Tally]] = set()
            for start, stop in todo:
                running.add(
                    pool.submit(run_chunk, job.scenario, job.seed, start, stop, job.ruleset)
                )
                if len(running) >= window:
                    break
            while running:
                done, running = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                    nxt = next(todo, None)
                    if nxt is not None:
                        running.add(
                            pool.submit(run_chunk, job.scenario, job.seed, *nxt, job.ruleset)
                        )


class DaskBackend(Backend):
    """A Dask ``distributed`` client: a remote scheduler or a ``LocalCluster``."""

    name = "dask"

    def __init__(self, workers: int, address: str | None) -> None:
        super().__init__(workers)
        try:
            dist: Any = importlib.import_module("distributed")
        except ImportError as exc:
            raise ClusterError(
                "the Dask backend needs dask[distributed] (pip install 'battleline[dask]')"
            ) from exc
        self.cluster: Any = None
        try:
            if address is None:
                self.cluster = dist.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
                self.client: Any = dist.Client(self.cluster)
            else:
                self.client = dist.Client(address, timeout=CONNECT_TIMEOUT_S)
        except Exception as exc:  # any failure of a third-party connect is "unreachable"
            self.close()
            raise ClusterError(
                f"cannot reach the Dask scheduler at {address} ({_reason(exc)})"
            ) from exc

    def tallies(self, job: Job) -> Iterator[Tally]:
        as_completed: Any = importlib.import_module("distributed").as_completed
        todo = chunks(job.runs, self.workers)
        window = 4 * max(1, self.workers)
        first = [
            self.client.submit(run_chunk, job.scenario, job.seed, a, b, job.ruleset, pure=False)
            for a, b in (c for _, c in zip(range(window), todo, strict=False))
        ]
        pending = as_completed(first)
        for future in pending:
            yield future.result()
            future.release()
            nxt = next(todo, None)
            if nxt is not None:
                pending.add(
                    self.client.submit(
                        run_chunk, job.scenario, job.seed, *nxt, job.ruleset, pure=False
                    )
                )

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()


class RayBackend(Backend):
    """Ray tasks on a remote cluster (``ray://``) or a local Ray instance."""

    name = "ray"

    def __init__(self, workers: int, address: str | None) -> None:
        super().__init__(workers)
        try:
            import ray
        except ImportError as exc:
            raise ClusterError("the Ray backend needs ray (pip install 'battleline[ray]')") from exc
        self.ray: Any = ray
        try:
            if address is None:
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    ignore_reinit_error=True,
                )
            else:
                ray.init(address=address, log_to_driver=False, ignore_reinit_error=True)
        except Exception as exc:  # any failure of a third-party connect is "unreachable"
            raise ClusterError(
                f"cannot reach the Ray cluster at {address} ({_reason(exc)})"
            ) from exc
        # Any: ray types a remote function by its required arguments, not its defaults
        self.remote: Any = ray.remote(num_cpus=1)(run_chunk)

    def tallies(self, job: Job) -> Iterator[Tally]:
        todo = chunks(job.runs, self.workers)
        window = 4 * max(1, self.workers)
        running = [
            self.remote.remote(job.scenario, job.seed, a, b, job.ruleset)
            for a, b in (c for _, c in zip(range(window), todo, strict=False))
        ]
        while running:
            done, running = self.ray.wait(running, num_returns=1)
            for ref in done:
                yield self.ray.get(ref)
                nxt = next(todo, None)
                if nxt is not None:
                    running.append(self.remote.remote(job.scenario, job.seed, *nxt, job.ruleset))

    def close(self) -> None:
        self.ray.shutdown()


def _reason(exc: BaseException) -> str:
    """The first line of an exception's message, for a one-line error."""
    text = str(exc).strip().splitlines()
    if not text:
        return type(exc).__name__
    return text[0] if len(text[0]) <= 120 else text[0][:117] + "..."


def default_workers() -> int:
    """The CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def open_backend(cluster: str | None, workers: int) -> Backend:
    """The backend a ``--cluster`` value names (``None``: the local process pool)."""
    if cluster is None or cluster == "local":
        return LocalBackend(workers)
    spec = cluster.strip()
    if spec == "dask-local":
        return DaskBackend(workers, None)
    if spec.startswith("dask://"):
        hostport = spec.removeprefix("dask://")
        _check_hostport(spec, hostport)
        return DaskBackend(workers, f"tcp://{hostport}")
    if spec == "ray-local":
        return RayBackend(workers, None)
    if spec.startswith("ray://"):
        _check_hostport(spec, spec.removeprefix("ray://"))
        return RayBackend(workers, spec)
    raise ClusterError(
        f"unknown --cluster {cluster!r}; use dask://HOST:PORT, dask-local, ray://HOST:PORT "
        "or ray-local"
    )


def _check_hostport(spec: str, hostport: str) -> None:
    """The address must read HOST:PORT and something must listen there (a refused connection
    fails at once instead of after the client's retry timeout)."""
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"cannot read the cluster address {spec!r}; write e.g. dask://HOST:8786")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        raise ClusterError(f"cannot reach the cluster at {spec} ({_reason(exc)})") from exc


def prepare(
    scenario: str, runs: int, workers: int, cluster: str | None, ruleset: str | None = None
) -> Backend:
    """Check the arguments and open the backend; every bad argument fails here, before any
    battle is played (:class:`BattlelineError` with one clear line)."""
    if runs <= 0:
        raise BattlelineError(f"--runs must be at least 1, not {runs}")
    if workers <= 0:
        raise BattlelineError(f"--workers must be at least 1, not {workers}")
    _check_scenario(scenario, ruleset)
    return open_backend(cluster, workers)


def simulate(
    scenario: str,
    runs: int,
    seed: int,
    *,
    workers: int = 1,
    cluster: str | None = None,
    progress: Progress | None = None,
    backend: Backend | None = None,
    ruleset: str | None = None,
) -> Tally:
    """Play ``runs`` battles of ``scenario`` from ``seed`` and return the merged tally.

    The same ``seed`` gives the same tally whatever ``workers`` and ``cluster``. A ``backend``
    from :func:`prepare` is used (and closed) instead of opening one. ``ruleset`` plays the
    scenario with another ruleset of the same schema.
    """
    if backend is None:
        backend = prepare(scenario, runs, workers, cluster, ruleset)
    total = Tally(scenario, seed)
    try:
        for part in backend.tallies(Job(scenario, seed, runs, workers, ruleset)):
            total.merge(part)
            if progress is not None:
                progress(part.runs)
    finally:
        backend.close()
    return total


def _check_scenario(scenario: str, ruleset: str | None = None) -> None:
    """Load the scenario here first: an unknown name fails at once, before any worker starts,
    and forked workers inherit the loaded data."""
    from battleline.game import new_game

    new_game(scenario, 0, ruleset)
