//! Engines kept warm between programs: a thread with its QuickJS runtime, waiting for the next
//! program of the registry that started it.
//!
//! Each program still gets a context of its own, made for it and dropped after it, so nothing a
//! program does — globals, prototypes, `tools` — is seen by the next one: what the runtime keeps
//! between contexts (interned strings, object shapes, the allocator's arenas) is invisible to
//! JavaScript. What a worker saves is starting a thread and making and freeing a runtime.
//!
//! The job decides whether its runtime can serve again ([`Warm`]); a worker whose runtime cannot
//! (jobs left queued, a program stopped mid-way) makes a new one for its next job, so a job sent
//! to a worker is never lost. A worker goes back among the idle ones before its job's host
//! hears that the program ended, so the host's next program finds it; that program waits in the
//! worker's queue while the worker frees the last one's context. At most [`MAX_IDLE`] workers
//! wait; a worker finding the pool full, or gone with its registry, ends.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, Weak};

use rquickjs::Runtime;

/// How many idle workers a pool keeps.
const MAX_IDLE: usize = 4;

/// The room a worker's thread has below a program's stack, for the engine's own frames.
const STACK_RESERVE: usize = 2 << 20;

/// A runtime kept between programs, with the memory it held when it was made: a runtime that
/// holds much more after a program's context is gone is not reused.
pub(crate) struct Warm {
    pub(crate) runtime: Runtime,
    pub(crate) baseline: usize,
}

/// One program's work on a worker: given the worker's runtime (`None` at first, or after a job
/// decided it could not be reused) and the way back among the idle workers.
pub(crate) type Work = Box<dyn FnOnce(&mut Option<Warm>, Idle) + Send>;

/// The engines a registry keeps warm.
#[derive(Default)]
pub(crate) struct EnginePool {
    idle: Mutex<Vec<Worker>>,
    /// How many workers were started and runtimes made, for tests.
    started: AtomicUsize,
    runtimes: AtomicUsize,
}

/// An idle worker: where to send its next job, and the stack its thread has room for.
struct Worker {
    jobs: mpsc::Sender<(Work, Idle)>,
    stack_bytes: usize,
}

/// Puts the worker running a job back among the idle ones; dropped unused, the worker ends
/// after its job.
pub(crate) struct Idle {
    pool: Weak<EnginePool>,
    worker: Option<Worker>,
}

impl Idle {
    /// Counts a runtime made for the job (tests read the count).
    pub(crate) fn runtime_made(&self) {
        if let Some(pool) = self.pool.upgrade() {
            pool.runtimes.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Now: the worker's queue takes the next job while it finishes this one.
    pub(crate) fn now(mut self) {
        let (Some(pool), Some(worker)) = (self.pool.upgrade(), self.worker.take()) else {
            return;
        };
        let mut idle = pool
            .idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if idle.len() < MAX_IDLE {
            idle.push(worker);
        }
    }
}

impl EnginePool {
    /// Runs `work` on an idle worker whose stack has room for `stack_bytes`, or on a new one;
    /// an error if no thread could be started.
    pub(crate) fn run(self: &Arc<Self>, stack_bytes: usize, work: Work) -> std::io::Result<()> {
        let mut work = work;
        loop {
            let worker = {
                let mut idle = self
                    .idle
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                // The most recently idle first: its memory is the warmest.
                let found = idle
                    .iter()
                    .rposition(|worker| worker.stack_bytes >= stack_bytes);
                found.map(|index| idle.remove(index))
            };
            let Some(worker) = worker else {
                return start(Arc::downgrade(self), stack_bytes, work);
            };
            let idle = Idle {
                pool: Arc::downgrade(self),
                worker: Some(Worker {
                    jobs: worker.jobs.clone(),
                    stack_bytes: worker.stack_bytes,
                }),
            };
            match worker.jobs.send((work, idle)) {
                Ok(()) => return Ok(()),
                // Its thread is gone (it panicked): try another.
                Err(mpsc::SendError((returned, _))) => work = returned,
            }
        }
    }

    /// How many workers this pool started.
    #[cfg(test)]
    pub(crate) fn started(&self) -> usize {
        self.started.load(Ordering::Relaxed)
    }

    /// How many runtimes its workers made.
    #[cfg(test)]
    pub(crate) fn runtimes(&self) -> usize {
        self.runtimes.load(Ordering::Relaxed)
    }
}

/// Runs `work` on a thread of its own that no pool keeps.
pub(crate) fn run_alone(stack_bytes: usize, work: Work) -> std::io::Result<()> {
    start(Weak::new(), stack_bytes, work)
}

/// Starts a worker for programs of up to `stack_bytes` of stack, with `work` its first job.
fn start(pool: Weak<EnginePool>, stack_bytes: usize, work: Work) -> std::io::Result<()> {
    let (jobs, queue) = mpsc::channel::<(Work, Idle)>();
    std::thread::Builder::new()
        .name("run_code".to_owned())
        .stack_size(stack_bytes + STACK_RESERVE)
        .spawn(move || {
            let mut warm = None;
            // Ends once no sender is left: the job holds the worker's own sender until it
            // goes back among the idle, and the pool holds it while it waits.
            while let Ok((work, idle)) = queue.recv() {
                work(&mut warm, idle);
            }
        })?;
    if let Some(pool) = pool.upgrade() {
        pool.started.fetch_add(1, Ordering::Relaxed);
    }
    let idle = Idle {
        pool,
        worker: Some(Worker {
            jobs: jobs.clone(),
            stack_bytes,
        }),
    };
    // The thread has just started: its queue is there.
    let _ = jobs.send((work, idle));
    Ok(())
}
