//! The database method (PCW, 1993): keep every position's exact distance to solved on
//! disk, then solve any position with no search at all, by stepping at each move to a
//! neighbour one move closer.
//!
//! The file is the project's table container ([`crate::storage::file`]: header, checksum,
//! memory-mapped), kind [`KIND`], keyed by a hash of the puzzle itself (sets, solved
//! state, moves, blocks), so a table built for another puzzle is refused. The payload
//! opens with its own 64-byte header:
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | `GODS` |
//! | 4..8 | layout version (u32) |
//! | 8 | storage: 1 = perfect index, 2 = sorted keys |
//! | 9 | metric: 0 = HTM, 1 = QTM |
//! | 10 | entry bits (4 or 8; 16 for sorted keys) |
//! | 12..16 | deepest distance (u32) |
//! | 16..24 | entries (index space, or number of keys) |
//! | 24..32 | layout fingerprint (component sizes, or key bit count) |
//! | 32..40 | positions reached |
//!
//! Perfect index storage holds one entry per index, 4 bits when every distance is below
//! 15 (low nibble first), else a byte; the all-ones value marks an index never reached.
//! Sorted-key storage (bandaged and sparse puzzles) holds the packed keys (16 bytes,
//! little-endian, ascending) followed by one 16-bit distance per key.

use super::index::{Indexer, Scratch};
use super::{Distances, GodError, GodOptions, GodTable, MoveInfo};
use crate::keys::Packer;
use crate::progress::Progress;
use crate::puzzle::{IgnoreMask, Metric, MoveId, Puzzle, SolveSettings, State};
use crate::storage::file::{content_hash, open_table, write_table, MappedTable, TableFileError};
use std::path::Path;
use std::sync::Mutex;

/// The kind tag of distance-table files.
pub const KIND: &str = "gods-distance";
const MAGIC: &[u8; 4] = b"GODS";
const LAYOUT_VERSION: u32 = 1;
const HEADER: usize = 64;
const STORE_INDEX: u8 = 1;
const STORE_KEYS: u8 = 2;

/// Why a database could not be written, opened or used.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    #[error(transparent)]
    File(#[from] TableFileError),
    #[error("distance table {0} does not match this puzzle's layout ({1}); rebuild it with `ksolve god DEF --save FILE`")]
    Layout(String, &'static str),
    #[error(
        "the table was computed without exact distances; compute it with keep_distances (--save)"
    )]
    NoDistances,
    #[error("distance table {path} was built for {built}, but the scramble asks for {wanted}")]
    Metric {
        path: String,
        built: &'static str,
        wanted: &'static str,
    },
    #[error("this position cannot be reached from the solved state")]
    Unreachable,
    #[error("cannot compute the distance table")]
    Compute(#[source] GodError),
}

/// A stable hash of everything in a puzzle that decides its positions and moves.
pub fn puzzle_key(puzzle: &Puzzle) -> u64 {
    let mut b: Vec<u8> = b"ksolve gods distance table v1".to_vec();
    let num = |b: &mut Vec<u8>, x: u64| b.extend_from_slice(&x.to_le_bytes());
    num(&mut b, puzzle.sets.len() as u64);
    for (set, solved) in puzzle.sets.iter().zip(&puzzle.solved.sets) {
        num(&mut b, set.name.len() as u64);
        b.extend_from_slice(set.name.as_bytes());
        num(&mut b, set.size as u64);
        num(&mut b, set.orientations as u64);
        solved.perm.iter().for_each(|&p| num(&mut b, p as u64));
        b.extend_from_slice(&solved.ori);
    }
    num(&mut b, puzzle.base_moves.len() as u64);
    for m in &puzzle.base_moves {
        num(&mut b, m.name.len() as u64);
        b.extend_from_slice(m.name.as_bytes());
        b.push(m.directed as u8);
        for (set, touched) in m.effect.sets.iter().zip(&m.touched) {
            set.perm.iter().for_each(|&p| num(&mut b, p as u64));
            b.extend_from_slice(&set.ori);
            b.extend(touched.iter().map(|&t| t as u8));
        }
    }
    num(&mut b, puzzle.blocks.len() as u64);
    for block in &puzzle.blocks {
        num(&mut b, block.pieces.len() as u64);
        for &(s, l) in &block.pieces {
            num(&mut b, s as u64);
            num(&mut b, l as u64);
        }
    }
    // Guards and a goal that is a set change every distance; puzzles without them hash
    // as before, so their saved tables stay valid.
    let cond = |b: &mut Vec<u8>, c: &crate::puzzle::Cond| {
        num(b, c.set as u64);
        num(b, c.pos as u64);
        num(b, c.labels.len() as u64);
        c.labels.iter().for_each(|&l| num(b, l as u64));
    };
    if puzzle.has_guards() || puzzle.goal_is_set() {
        b.extend_from_slice(b"guards");
        for g in &puzzle.guards {
            let conds = g.as_ref().map_or(&[][..], |g| &g.conds[..]);
            num(&mut b, conds.len() as u64);
            conds.iter().for_each(|c| cond(&mut b, c));
        }
        b.extend(puzzle.free.iter().flatten().map(|&f| f as u8));
        // Orientations known modulo a divisor make a larger goal; puzzles without them
        // hash as before.
        if puzzle.has_known_mod() {
            b.extend_from_slice(b"modulo");
            b.extend(puzzle.known_mod.iter().flatten());
        }
        num(&mut b, puzzle.rules.len() as u64);
        for r in &puzzle.rules {
            cond(&mut b, &r.when);
            match &r.then {
                Some(t) => cond(&mut b, t),
                None => num(&mut b, u64::MAX),
            }
        }
    }
    content_hash(&b)
}

pub(crate) fn index_fingerprint(ix: &Indexer) -> u64 {
    let mut b = Vec::new();
    for c in ix.components() {
        b.extend_from_slice(&c.count().to_le_bytes());
    }
    b.extend_from_slice(&ix.space().to_le_bytes());
    content_hash(&b)
}

fn key_fingerprint(p: &Packer) -> u64 {
    content_hash(
        &[p.key_bits() as u64, p.npos() as u64]
            .map(u64::to_le_bytes)
            .concat(),
    )
}

fn metric_code(m: Metric) -> u8 {
    match m {
        Metric::Htm => 0,
        Metric::Qtm => 1,
    }
}

/// Writes the exact distances of `table` (computed with `keep_distances`) to `path`,
/// which must be absent or a regular file (see [`crate::storage::fsutil::check_write_target`]).
pub fn write(path: &Path, puzzle: &Puzzle, table: &GodTable) -> Result<(), DatabaseError> {
    let payload = encode(&path.display().to_string(), puzzle, table)?;
    write_table(path, KIND, puzzle_key(puzzle), &payload)?;
    Ok(())
}

/// The payload of a distance-table file for `table`; `name` names it in errors.
fn encode(name: &str, puzzle: &Puzzle, table: &GodTable) -> Result<Vec<u8>, DatabaseError> {
    let distances = table.distances.as_ref().ok_or(DatabaseError::NoDistances)?;
    let depth = table.max_depth() as u32;
    let mut head = vec![0u8; HEADER];
    head[0..4].copy_from_slice(MAGIC);
    head[4..8].copy_from_slice(&LAYOUT_VERSION.to_le_bytes());
    head[9] = metric_code(table.metric);
    head[12..16].copy_from_slice(&depth.to_le_bytes());
    head[32..40].copy_from_slice(&table.total().to_le_bytes());
    let info = MoveInfo::new(puzzle, table.metric);
    let payload = match distances {
        Distances::Indexed(bytes, fingerprint) => {
            head[8] = STORE_INDEX;
            head[16..24].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
            head[24..32].copy_from_slice(&fingerprint.to_le_bytes());
            let mut out = head;
            if depth < 15 {
                head_bits(&mut out, 4);
                out.extend(bytes.chunks(2).map(|pair| {
                    let lo = pair[0].min(15);
                    let hi = pair.get(1).map_or(15, |&v| v.min(15));
                    lo | hi << 4
                }));
            } else {
                head_bits(&mut out, 8);
                out.extend_from_slice(bytes);
            }
            out
        }
        Distances::Hashed(entries) => {
            let packer = Packer::new(puzzle, &info.transforms, &info.base_of)
                .map_err(|_| DatabaseError::Layout(name.to_string(), "keys"))?;
            head[8] = STORE_KEYS;
            head[10] = 16;
            head[16..24].copy_from_slice(&(entries.len() as u64).to_le_bytes());
            head[24..32].copy_from_slice(&key_fingerprint(&packer).to_le_bytes());
            let mut out = head;
            out.reserve(entries.len() * 18);
            for &(k, _) in entries {
                out.extend_from_slice(&k.to_le_bytes());
            }
            for &(_, d) in entries {
                out.extend_from_slice(&d.to_le_bytes());
            }
            out
        }
    };
    Ok(payload)
}

fn head_bits(out: &mut [u8], bits: u8) {
    out[10] = bits;
}

enum Lookup {
    Index { ix: Indexer, bits: u8 },
    Keys { packer: Box<Packer>, count: usize },
}

/// Where a table's bytes live: mapped from its file, or in memory when the file could
/// not be written.
enum Backing {
    Mapped(MappedTable),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Backing {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Backing::Mapped(m) => m,
            Backing::Owned(v) => v,
        }
    }
}

/// An opened, verified distance table for one puzzle.
pub struct Database {
    map: Backing,
    lookup: Lookup,
    metric: Metric,
    depth: u32,
    total: u64,
    path: String,
    scratch: Mutex<Scratch>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Database {
    /// Opens the table at `path` and checks that it was built for `puzzle`.
    pub fn open(path: &Path, puzzle: &Puzzle) -> Result<Database, DatabaseError> {
        let map = open_table(path, KIND, puzzle_key(puzzle))?;
        Database::from_backing(Backing::Mapped(map), path.display().to_string(), puzzle)
    }

    /// The distances of `table` (computed with `keep_distances`), held in memory; `name`
    /// names the table in errors.
    pub fn in_memory(
        name: &str,
        puzzle: &Puzzle,
        table: &GodTable,
    ) -> Result<Database, DatabaseError> {
        let payload = encode(name, puzzle, table)?;
        Database::from_backing(Backing::Owned(payload), name.to_string(), puzzle)
    }

    /// Checks a payload's own header against `puzzle` and prepares lookups.
    fn from_backing(
        map: Backing,
        name: String,
        puzzle: &Puzzle,
    ) -> Result<Database, DatabaseError> {
        let bad = |what: &'static str| DatabaseError::Layout(name.clone(), what);
        let p: &[u8] = &map;
        if p.len() < HEADER || &p[0..4] != MAGIC {
            return Err(bad("no distance-table header"));
        }
        if u32_at(p, 4) != LAYOUT_VERSION {
            return Err(bad("layout version"));
        }
        let metric = match p[9] {
            0 => Metric::Htm,
            1 => Metric::Qtm,
            _ => return Err(bad("metric")),
        };
        let depth = u32_at(p, 12);
        let entries = u64_at(p, 16);
        let fingerprint = u64_at(p, 24);
        let total = u64_at(p, 32);
        let info = MoveInfo::new(puzzle, metric);
        let lookup = match p[8] {
            STORE_INDEX => {
                let ix = Indexer::new(puzzle, &info.transforms, true).map_err(|_| bad("index"))?;
                let bits = p[10];
                let want = match bits {
                    4 => ix.space().div_ceil(2),
                    8 => ix.space(),
                    _ => return Err(bad("entry width")),
                };
                if index_fingerprint(&ix) != fingerprint || entries != ix.space() {
                    return Err(bad("index layout"));
                }
                if (p.len() - HEADER) as u64 != want {
                    return Err(bad("payload length"));
                }
                Lookup::Index { ix, bits }
            }
            STORE_KEYS => {
                let packer = Packer::new(puzzle, &info.transforms, &info.base_of)
                    .map_err(|_| bad("keys"))?;
                if key_fingerprint(&packer) != fingerprint || p[10] != 16 {
                    return Err(bad("key layout"));
                }
                if entries.checked_mul(18) != Some((p.len() - HEADER) as u64) {
                    return Err(bad("payload length"));
                }
                Lookup::Keys {
                    packer: Box::new(packer),
                    count: entries as usize,
                }
            }
            _ => return Err(bad("storage kind")),
        };
        let scratch = Mutex::new(match &lookup {
            Lookup::Index { ix, .. } => ix.scratch(),
            Lookup::Keys { .. } => Scratch::default(),
        });
        Ok(Database {
            map,
            lookup,
            metric,
            depth,
            total,
            path: name,
            scratch,
        })
    }

    /// The metric the distances count.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The deepest distance in the table.
    pub fn max_depth(&self) -> u32 {
        self.depth
    }

    /// How many positions the table reached.
    pub fn positions(&self) -> u64 {
        self.total
    }

    /// The distance of `state` from solved, or None when it cannot be reached (or does not
    /// belong to the puzzle at all).
    pub fn distance(&self, state: &State) -> Option<u32> {
        let mut sc = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        match &self.lookup {
            Lookup::Index { ix, .. } => {
                if !ix.describes(state, &mut sc) {
                    return None;
                }
            }
            Lookup::Keys { packer, .. } => {
                if !packer.fits(state) {
                    return None;
                }
            }
        }
        self.lookup(state, &mut sc)
    }

    /// The distance of a state known to belong to the table's layout.
    fn lookup(&self, state: &State, sc: &mut Scratch) -> Option<u32> {
        let data = &self.map[HEADER..];
        match &self.lookup {
            Lookup::Index { ix, bits } => {
                let i = ix.index_of(state, sc);
                let v = if *bits == 4 {
                    (data[(i / 2) as usize] >> ((i % 2) * 4)) & 15
                } else {
                    data[i as usize]
                };
                let unseen = if *bits == 4 { 15 } else { 255 };
                (v != unseen).then_some(v as u32)
            }
            Lookup::Keys { packer, count } => {
                let key = packer.key(state);
                let at = |j: usize| {
                    u128::from_le_bytes(data[j * 16..j * 16 + 16].try_into().expect("16 bytes"))
                };
                let (mut lo, mut hi) = (0usize, *count);
                while lo < hi {
                    let mid = (lo + hi) / 2;
                    match at(mid).cmp(&key) {
                        std::cmp::Ordering::Less => lo = mid + 1,
                        std::cmp::Ordering::Greater => hi = mid,
                        std::cmp::Ordering::Equal => {
                            let o = count * 16 + mid * 2;
                            return Some(u16::from_le_bytes([data[o], data[o + 1]]) as u32);
                        }
                    }
                }
                None
            }
        }
    }
}

/// Solves `state` optimally by reading distances from `db`: at each step the first move,
/// in definition order, that reaches the lowest distance along an optimal path (so
/// HTM solutions follow ksolve+'s antipode rule). `metric` must be the table's.
/// Returns the moves, empty when `state` is solved.
pub fn solve(
    db: &Database,
    puzzle: &Puzzle,
    state: &State,
    metric: Metric,
) -> Result<Vec<MoveId>, DatabaseError> {
    if metric != db.metric {
        return Err(DatabaseError::Metric {
            path: db.path.clone(),
            built: metric_name(db.metric),
            wanted: metric_name(metric),
        });
    }
    let d = db.distance(state).ok_or(DatabaseError::Unreachable)?;
    let info = MoveInfo::new(puzzle, metric);
    let mut sc = db.scratch.lock().unwrap_or_else(|e| e.into_inner());
    super::solve_by_distances(puzzle, &info.costs, state, d, |s| db.lookup(s, &mut sc))
        .ok_or(DatabaseError::Unreachable)
}

fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Htm => "the half-turn metric (HTM)",
        Metric::Qtm => "the quarter-turn metric (QTM)",
    }
}

/// Opens the distance table at `path` for `puzzle`, or computes it (God's algorithm in
/// `metric`, exact distances kept) and writes it there when the file is missing, damaged,
/// truncated, or was built for another puzzle or by another ksolve. Each such case is
/// reported through [`Progress::warn`] before the table is rebuilt, as cached pruning
/// tables are. When the computed table cannot be written (a full disk, a read-only
/// folder) that is reported too, with the reason, and the table is used from memory.
/// Only an error that rebuilding cannot cure (the path exists but cannot be read, or is
/// not a regular file; the table cannot be computed) is returned.
pub fn open_or_build(
    path: &Path,
    puzzle: &Puzzle,
    metric: Metric,
    memory: u64,
    progress: &dyn Progress,
) -> Result<Database, DatabaseError> {
    match Database::open(path, puzzle) {
        Ok(db) => return Ok(db),
        Err(DatabaseError::File(TableFileError::Missing(_))) => progress.warn(&format!(
            "distance table {} does not exist; computing it",
            path.display()
        )),
        // A path that cannot even be looked at (a parent that is a regular file) is as
        // good as missing: the table is computed, and writing it will fail with a
        // warning. A path that exists but cannot be read is the user's to fix.
        Err(DatabaseError::File(e @ TableFileError::Io { .. })) if !path.exists() => {
            progress.warn(&format!("{e}; computing the distance table"))
        }
        Err(DatabaseError::File(e @ TableFileError::Io { .. })) => return Err(e.into()),
        Err(e) => progress.warn(&format!("{e}; rebuilding it")),
    }
    let opts = GodOptions {
        metric,
        antipodes: 0,
        memory,
        keep_distances: true,
        ..GodOptions::default()
    };
    let table =
        super::compute(puzzle, &opts, progress, &|_, _| {}).map_err(DatabaseError::Compute)?;
    match write(path, puzzle, &table) {
        Ok(()) => Database::open(path, puzzle),
        Err(DatabaseError::File(e)) => {
            progress.warn(&format!(
                "cannot write the distance table: {e}; using it from memory for this run"
            ));
            Database::in_memory(&path.display().to_string(), puzzle, &table)
        }
        Err(e) => Err(e),
    }
}

/// What the distance table says about one scramble.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// One optimal solution, of this cost in the scramble's metric.
    Solved { cost: u32, moves: Vec<MoveId> },
    /// The optimal solution costs more than the scramble's `MaxDepth`.
    MaxDepth,
    /// The position cannot reach the solved state.
    Unreachable,
}

/// Solves one scramble by the database method, or says `None` when the table cannot
/// answer it as the scramble asks: a position that leaves parts unspecified (`?` or the
/// definition's `Ignore`), `Slack` (which wants every near-optimal solution, not one),
/// `MoveLimits`, `MoveCosts` weights (the table counts moves), another metric than the
/// table's, or a scramble file's goal (the table holds distances to `Solved`). The
/// caller then searches instead.
///
/// The answer is one optimal solution (the first in definition order at every step),
/// already replayed on `start` by [`solve`]. The search turns it into its own outcome
/// (`From<Answer> for search::Outcome`), so that this room needs nothing of the search.
pub fn solve_scramble(
    db: &Database,
    puzzle: &Puzzle,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &SolveSettings,
) -> Option<Result<Answer, DatabaseError>> {
    // The definition's free positions (`?N` in `Solved`) are part of every distance in
    // the table; only ignores beyond them make it unable to answer. A scramble file's
    // goal is another target altogether, so it is searched for instead.
    let beyond_free = |k: usize, m: &IgnoreMask| {
        let free = |i: usize| puzzle.free.get(k).is_some_and(|f| f.get(i) == Some(&true));
        m.perm.iter().enumerate().any(|(i, &p)| p && !free(i))
            || m.ori
                .iter()
                .enumerate()
                .any(|(i, &o)| o && !puzzle.ori_free(k, i))
    };
    if ignore
        .iter()
        .enumerate()
        .chain(puzzle.ignore.iter().enumerate())
        .any(|(k, m)| beyond_free(k, m))
        || settings
            .goal
            .as_deref()
            .is_some_and(|g| !puzzle.is_own_goal(g))
        || settings.slack > 0
        || !settings.limits.is_empty()
        || puzzle.has_weights()
        || settings.metric != db.metric
    {
        return None;
    }
    // Stepping down costs microseconds, so a solution longer than MaxDepth is found and
    // then dropped rather than judged by a separate distance lookup first.
    Some(match solve(db, puzzle, start, settings.metric) {
        Ok(moves) => {
            let d: u32 = moves.iter().map(|&m| settings.metric.cost(puzzle, m)).sum();
            if d > settings.max_depth {
                Ok(Answer::MaxDepth)
            } else {
                Ok(Answer::Solved { cost: d, moves })
            }
        }
        Err(DatabaseError::Unreachable) => Ok(Answer::Unreachable),
        Err(e) => Err(e),
    })
}
