//! God's algorithm across processes and machines, on timely dataflow.
//!
//! The perfect index `0..space` is cut into one contiguous range per worker; a worker
//! keeps the distance entries of its range only (2 bits each for ordinary puzzles), so
//! a process needs its share of the table, not the whole. Each layer is one round of
//! the dataflow: every worker scans its range for the entries of the source layers
//! (as the single-process forward step does), computes each predecessor's index and
//! marks it itself when it owns it, else sends it to its owner through timely's exchange
//! channel; owners mark unseen entries. A second round adds up the layer's size, which
//! every worker learns, so that all stop together when a layer adds nothing.
//!
//! Rounds are timely timestamps: layer `L` is expanded at time `2L` and summed at time
//! `2L + 1` (time 1 agrees on the layer a resumed run starts from). The value a mark
//! writes comes from the message's time, and a worker may receive a round's messages
//! while it still finishes the previous round (a faster peer has moved on): those are
//! held until its driver opens the round, after writing (or reading) its checkpoint.
//!
//! Workers are started the way timely starts programs (`-w` threads per process, `-n`
//! processes, `-p` this process, `-h` a host file of `host:port` lines), so a run starts
//! from `srun` under Slurm or from a Kubernetes Indexed Job. Each worker checkpoints
//! its share after each layer (`checkpoint.rs`); a worker that fails to write says so in
//! the next sum, so that no worker waits for one that has given up.

use super::checkpoint::{self, Layout};
use super::index::{Cursor, Indexer};
use super::net;
use super::run::move_table_limit;
use super::table::PackedTable;
use super::{check_memory, database, GodError, GodOptions, MoveInfo};
use crate::progress::Progress;
use crate::puzzle::{Metric, Puzzle};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

/// Called on the worker hosting worker 0 after each finished layer.
pub type DistLayers = dyn Fn(usize, u64) + Send + Sync;

/// What one process of a distributed run reports.
#[derive(Debug)]
pub struct DistTable {
    /// `counts[d]`: positions at distance `d` (every worker learns them all).
    pub counts: Vec<u64>,
    /// Whether this process hosts worker 0, which reports for the run.
    pub leader: bool,
    /// Workers in the whole run.
    pub workers: usize,
    /// The size of the perfect index.
    pub index_space: u64,
    /// Bytes of this process's share of the distance table.
    pub share_bytes: u64,
    pub seconds: f64,
}

impl DistTable {
    /// All positions reached.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// A value a worker sends in a sum round to say that it failed (its own error is its
/// to report); no real count comes near it.
const FAILED: u64 = u64::MAX;

/// Sends between steps: a worker lets the dataflow run this often while it expands, so
/// that buffered messages stay bounded.
const STEP_EVERY: usize = 1 << 16;

/// State shared by a worker's driver loop and its marking operator.
struct Shared {
    table: PackedTable,
    first: u64,
    modulus: u64,
    /// Per expand time: entries this worker marked.
    found: BTreeMap<u64, u64>,
    /// The expand time this worker's driver has opened: indices of later rounds, sent
    /// by faster workers, are held until then, so that a checkpoint written (or read)
    /// in between holds exactly its layers.
    open: u64,
    /// Per expand time after `open`: indices received early.
    held: BTreeMap<u64, Vec<u64>>,
    /// Per sum time: the values received.
    sums: BTreeMap<u64, Vec<u64>>,
}

impl Shared {
    fn mark(&mut self, time: u64, i: u64) {
        let layer = time / 2;
        if self
            .table
            .try_set(i - self.first, (layer % self.modulus) as u8)
        {
            *self.found.entry(time).or_insert(0) += 1;
        }
    }
}

/// How a process joins a distributed run.
#[derive(Clone, Debug)]
pub struct DistOptions {
    /// Timely's own arguments (`-w`, `-n`, `-p`, `-h`).
    pub timely_args: Vec<String>,
    /// How long to wait for every other process to connect and answer the handshake.
    pub connect_timeout: Duration,
}

/// Runs the distributed search. Every process of the run calls this with the same
/// puzzle and options (checked when they connect); `progress` hears of the connecting.
pub fn compute_distributed(
    puzzle: &Puzzle,
    opts: &GodOptions,
    dist: &DistOptions,
    progress: &dyn Progress,
    on_layer: Arc<DistLayers>,
) -> Result<DistTable, GodError> {
    let t0 = Instant::now();
    if !puzzle.blocks.is_empty() || puzzle.has_guards() || puzzle.goal_is_set() {
        return Err(GodError::Unsupported(
            "the distributed search needs the perfect index: no Block, guarded moves or \
             goal that is a set",
        ));
    }
    if opts.keep_distances {
        return Err(GodError::Unsupported(
            "a distributed run keeps no exact distances to save; run on one machine for --save",
        ));
    }
    if let Some(c) = &opts.checkpoint {
        c.check_folder()?;
    }
    let config = timely::Config::from_args(dist.timely_args.iter().cloned())
        .map_err(|e| GodError::Distributed(format!("timely arguments: {e}")))?;
    let (processes, threads) = match &config.communication {
        timely::CommunicationConfig::Cluster {
            threads, addresses, ..
        } => (addresses.len(), *threads),
        timely::CommunicationConfig::Process(t) | timely::CommunicationConfig::ProcessBinary(t) => {
            (1, *t)
        }
        timely::CommunicationConfig::Thread => (1, 1),
    };
    let peers = (processes * threads).max(1);
    let info = MoveInfo::new(puzzle, opts.metric);
    let exact = info.directed;
    let bits = if exact {
        8
    } else if info.max_cost <= 2 {
        2
    } else if info.max_cost <= 14 {
        4
    } else {
        8
    };
    let mut ix = Indexer::new(puzzle, &info.transforms, opts.tuning.merge_components)
        .map_err(|e| GodError::TooLarge(e.to_string()))?;
    let space = ix.space();
    let per = space.div_ceil(peers as u64).max(1);
    let share = PackedTable::bytes_for(per, bits) * threads as u64;
    let (_, moves) = ix.plan_tables(move_table_limit(opts.memory));
    check_memory(
        &format!("this process's share of a table of {space} positions"),
        share + moves,
        opts.memory,
    )?;
    let puzzle_key = database::puzzle_key(puzzle);
    let key = checkpoint::key(
        puzzle_key,
        opts.metric,
        bits,
        exact,
        database::index_fingerprint(&ix),
    );
    // Connect before the move tables are built, so that the deadline measures how far
    // apart the processes started rather than how long their tables take.
    let network = match &config.communication {
        timely::CommunicationConfig::Cluster {
            process, addresses, ..
        } => {
            let plan = net::Plan {
                addresses,
                hello: net::Hello {
                    process: *process as u64,
                    processes: processes as u64,
                    threads: threads as u64,
                    puzzle: puzzle_key,
                    metric: match opts.metric {
                        Metric::Htm => 0,
                        Metric::Qtm => 1,
                    },
                    layout: key,
                },
                deadline: dist.connect_timeout,
            };
            Some(net::connect(&plan, progress)?)
        }
        _ => None,
    };
    ix.build_tables(move_table_limit(opts.memory));
    let mut sc = ix.scratch();
    let start = ix.index_of(&puzzle.solved, &mut sc);
    let push: Vec<Vec<usize>> = info
        .classes()
        .iter()
        .map(|c| c.iter().map(|&(inv, _)| inv).collect())
        .collect();
    let (links, watch) = match network {
        Some((links, watch)) => (Some(links), watch),
        None => (None, Arc::new(net::Watch::new(Vec::new()))),
    };
    let job = Arc::new(Job {
        ix,
        push,
        bits,
        start,
        per,
        key,
        checkpoint: opts.checkpoint.clone(),
        on_layer,
        watch: Arc::clone(&watch),
    });
    let started = |e: String| GodError::Distributed(e);
    let (guards, comms) = match links {
        None => {
            let guards = timely::execute(config, move |worker| job.run(worker)).map_err(started)?;
            (guards, None)
        }
        Some(links) => {
            let timely::CommunicationConfig::Cluster {
                process, zerocopy, ..
            } = config.communication
            else {
                return Err(GodError::Internal("connections without a cluster"));
            };
            let hooks = timely::communication::Hooks::default();
            let local = if zerocopy {
                ProcessBuilder::new_bytes_vector(threads, hooks.refill.clone(), hooks.spill.clone())
            } else {
                ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone())
            };
            let (builders, comms) =
                initialize_networking_from_sockets(local, links, process, threads, hooks)
                    .map_err(|e| GodError::Distributed(format!("cannot start: {e}")))?;
            let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
            let guards = timely::execute::execute_from(builders, Box::new(()), config.worker, {
                move |worker| job.run(worker)
            })
            .map_err(started)?;
            (guards, Some(comms))
        }
    };
    let results = guards.join();
    if let Some(lost) = watch.failure() {
        // The network threads of a lost connection never finish (see `net`): joining
        // them would wait for ever, so they are left to end with the process.
        std::mem::forget(comms);
        return Err(lost);
    }
    drop(comms);
    let mut mine: Option<(Vec<u64>, bool)> = None;
    for g in results {
        let (counts, leader) = g.map_err(GodError::Distributed)??;
        let leader = leader || mine.as_ref().is_some_and(|m| m.1);
        mine = Some((counts, leader));
    }
    let (counts, leader) = mine.ok_or(GodError::Internal("no worker ran"))?;
    super::verify_total(&counts, super::exact_total(puzzle))?;
    Ok(DistTable {
        counts,
        leader,
        workers: peers,
        index_space: space,
        share_bytes: share,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// What every worker shares.
struct Job {
    ix: Indexer,
    push: Vec<Vec<usize>>,
    bits: u32,
    start: u64,
    per: u64,
    key: u64,
    checkpoint: Option<checkpoint::Checkpoint>,
    on_layer: Arc<DistLayers>,
    /// Lost connections, which end the run.
    watch: Arc<net::Watch>,
}

/// The driver's handles on the dataflow.
struct Rounds<'w> {
    worker: &'w mut timely::worker::Worker,
    input: InputHandle<u64, CapacityContainerBuilder<Vec<(u32, u64)>>>,
    probe: ProbeHandle<u64>,
    shared: Rc<RefCell<Shared>>,
    peers: usize,
    watch: &'w net::Watch,
}

impl Rounds<'_> {
    /// Lets the dataflow run one step; a lost connection ends the run, since its
    /// process's messages will never come.
    fn step(&mut self) -> Result<(), GodError> {
        self.worker.step();
        match self.watch.failure() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Lets the dataflow run until every message of `time` is consumed everywhere.
    fn finish(&mut self, time: u64) -> Result<(), GodError> {
        self.input.advance_to(time + 1);
        while self.probe.less_than(&(time + 1)) {
            self.step()?;
        }
        Ok(())
    }

    /// A sum round: sends `value` to every worker and returns what all sent.
    fn gather(&mut self, time: u64, values: &[u64]) -> Result<Vec<u64>, GodError> {
        debug_assert!(!time.is_multiple_of(2) && *self.input.time() == time);
        for w in 0..self.peers {
            for &v in values {
                self.input.send((w as u32, v));
            }
        }
        self.finish(time)?;
        Ok(self
            .shared
            .borrow_mut()
            .sums
            .remove(&time)
            .unwrap_or_default())
    }
}

impl Job {
    fn run(&self, worker: &mut timely::worker::Worker) -> Result<(Vec<u64>, bool), GodError> {
        let me = worker.index();
        let peers = worker.peers();
        let space = self.ix.space();
        let first = (self.per * me as u64).min(space);
        let len = self.per.min(space - first);
        let table = PackedTable::new(len, self.bits);
        let modulus = table.unseen() as u64;
        let shared = Rc::new(RefCell::new(Shared {
            table,
            first,
            modulus,
            found: BTreeMap::new(),
            open: 0,
            held: BTreeMap::new(),
            sums: BTreeMap::new(),
        }));
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let sink = Rc::clone(&shared);
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .container::<Vec<(u32, u64)>>()
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|x: &(u32, u64)| x.0 as u64),
                    "Mark",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                // Input batches carry one time each.
                                let Some(&time) = cap.least() else {
                                    return;
                                };
                                let mut s = sink.borrow_mut();
                                if time.is_multiple_of(2) && time > s.open {
                                    s.held
                                        .entry(time)
                                        .or_default()
                                        .extend(data.iter().map(|x| x.1));
                                } else if time.is_multiple_of(2) {
                                    for &(_, i) in data.iter() {
                                        s.mark(time, i);
                                    }
                                } else {
                                    s.sums
                                        .entry(time)
                                        .or_default()
                                        .extend(data.iter().map(|x| x.1));
                                }
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        let mut r = Rounds {
            worker,
            input,
            probe,
            shared,
            peers,
            watch: &self.watch,
        };
        let layout = Layout {
            key: self.key,
            worker: me,
            peers,
            first,
            len,
            bits: self.bits,
        };
        let result = self.search(&mut r, &layout);
        // Every worker leaves at the same round, so closing the input lets the dataflow
        // finish everywhere.
        drop(r);
        if let Err(GodError::Lost { .. }) = &result {
            // Except when a process is lost: its part will never finish, so the
            // dataflow is dropped, as every worker that notices the loss does.
            for id in worker.installed_dataflows() {
                worker.drop_dataflow(id);
            }
        }
        result.map(|counts| (counts, me == 0))
    }

    fn search(&self, r: &mut Rounds, layout: &Layout) -> Result<Vec<u64>, GodError> {
        let me = layout.worker;
        // Time 0 carries nothing; time 1 agrees on where to start.
        r.finish(0)?;
        let (mut counts, own_error) = self.start_from(r, layout)?;
        let mut time = 2 * counts.len() as u64;
        let mut write_error: Option<GodError> = own_error;
        loop {
            let layer = counts.len();
            r.input.advance_to(time);
            {
                // The previous layer's checkpoint is written: this round may start.
                let mut s = r.shared.borrow_mut();
                s.open = time;
                for i in s.held.remove(&time).unwrap_or_default() {
                    s.mark(time, i);
                }
            }
            self.expand(r, layer, time)?;
            r.finish(time)?;
            let found = r.shared.borrow_mut().found.remove(&time).unwrap_or(0);
            let mine = if write_error.is_some() { FAILED } else { found };
            let all = r.gather(time + 1, &[mine])?;
            if let Some(e) = write_error.take() {
                return Err(e);
            }
            if all.contains(&FAILED) {
                return Err(GodError::Distributed(
                    "another worker failed (it reports why); stopping".into(),
                ));
            }
            let total: u64 = all.iter().sum();
            time += 2;
            if total == 0 {
                return Ok(counts);
            }
            counts.push(total);
            if me == 0 {
                (self.on_layer)(layer, total);
            }
            if let Some(c) = &self.checkpoint {
                let s = r.shared.borrow();
                if let Err(e) = layout.write(&c.dir, &counts, &s.table) {
                    write_error = Some(e);
                } else if c.stop_after.is_some_and(|k| layer >= k) {
                    return Err(GodError::Stopped(layer));
                }
            }
        }
    }

    /// Agrees with every worker on the layers to start from: the deepest layer all hold
    /// a checkpoint of when resuming, else layer 0. Also returns this worker's own
    /// refusal, which is reported after the agreement round so that nobody waits.
    fn start_from(
        &self,
        r: &mut Rounds,
        layout: &Layout,
    ) -> Result<(Vec<u64>, Option<GodError>), GodError> {
        let mut own: Option<GodError> = None;
        let mut depths: Vec<u64> = Vec::new();
        if let Some(c) = &self.checkpoint {
            let found = if c.resume {
                layout.depths(&c.dir)
            } else {
                layout.clear(&c.dir).map(|()| Vec::new())
            };
            match found {
                Ok(d) => depths = d.into_iter().map(|d| d as u64).collect(),
                Err(e) => own = Some(e),
            }
        }
        let sent = if own.is_some() { vec![FAILED] } else { depths };
        let all = r.gather(1, &sent)?;
        if let Some(e) = own {
            return Err(e);
        }
        if all.contains(&FAILED) {
            return Err(GodError::Distributed(
                "another worker refused its checkpoint (it reports why); stopping".into(),
            ));
        }
        let common = all
            .iter()
            .copied()
            .filter(|d| all.iter().filter(|&&e| e == *d).count() == r.peers)
            .max();
        if let (Some(d), Some(c)) = (common, &self.checkpoint) {
            let saved = layout.load(&c.dir, d as usize)?;
            r.shared.borrow_mut().table = saved.table;
            if layout.worker == 0 {
                for (k, &n) in saved.counts.iter().enumerate() {
                    (self.on_layer)(k, n);
                }
            }
            return Ok((saved.counts, None));
        }
        let s = r.shared.borrow_mut();
        if (s.first..s.first + s.table.len()).contains(&self.start) {
            let first = s.first;
            s.table.try_set(self.start - first, 0);
        }
        if layout.worker == 0 {
            (self.on_layer)(0, 1);
        }
        Ok((vec![1], None))
    }

    /// The expand round of `layer`: every owned entry of a source layer sends its
    /// predecessors to their owners (marking its own directly). With 2 or 4 bits, older
    /// layers sharing a source value are expanded again, which only costs time: all
    /// their predecessors are seen.
    fn expand(&self, r: &mut Rounds, layer: usize, time: u64) -> Result<(), GodError> {
        let me = r.worker.index() as u64;
        let mut cur = Cursor::new(&self.ix);
        let widest = self.push.iter().map(Vec::len).max().unwrap_or(0);
        let mut nbs = vec![0u64; widest];
        let (first, words, modulus, per_word) = {
            let s = r.shared.borrow();
            (s.first, s.table.word_count(), s.modulus, s.table.per_word())
        };
        let mut since_step = 0usize;
        for (ci, cols) in self.push.iter().enumerate() {
            let c = ci + 1;
            if layer < c || cols.is_empty() {
                continue;
            }
            let v = ((layer - c) as u64 % modulus) as u8;
            for w in 0..words {
                let mut hits = r.shared.borrow().table.matches(w, v);
                while hits != 0 {
                    let bit = hits.trailing_zeros() as u64;
                    hits &= hits - 1;
                    let i = first + w as u64 * per_word + bit / self.bits as u64;
                    cur.seek(i);
                    cur.fill(cols, &mut nbs[..cols.len()]);
                    for &nb in &nbs[..cols.len()] {
                        let owner = nb / self.per;
                        if owner == me {
                            r.shared.borrow_mut().mark(time, nb);
                        } else {
                            r.input.send((owner as u32, nb));
                            since_step += 1;
                        }
                    }
                }
                if since_step >= STEP_EVERY {
                    since_step = 0;
                    r.step()?;
                }
            }
        }
        Ok(())
    }
}
