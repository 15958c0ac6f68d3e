//! Differential test: random small definitions drawn from a seed, each answered by every
//! path ksolve has and compared with a plain search written here over explicit states.
//!
//! The definitions are built as text (2 or 3 sets of 3 to 8 pieces with 1 to 3
//! orientations, 2 to 4 random moves, sometimes interchangeable pieces, sometimes a
//! `Block`, sometimes an `Ignore` that scrambles use with `?`) and read by the real parser.
//! The reference applies the moves from this file's own reading of the definition (a
//! move's twist is given to the piece that *leaves* a position, as ksolve+ files say it)
//! and knows nothing of the library's index, tables, canonical sequences or group code:
//! a breadth-first search lists every position reachable from solved (definitions with
//! more than a cap are skipped), Dijkstra gives distances to solve in HTM and QTM, and a
//! forward Dijkstra over (position, move-limit counters) answers each scramble.
//!
//! Compared per definition: God's table by the indexed, hashed and automatic methods and
//! by the distributed search in one process (HTM and QTM); the group's count of
//! reachable positions (`check`); optimal lengths of random positions by `solve` with and
//! without symmetry and probes, and by the database method (`--database`); `MoveLimits`
//! (single, per family and shared, including limits that make a position unreachable);
//! `Slack` (every solution up to optimal + slack, against the brute force of
//! `common`); `?` in scrambles; goals of one or two positions. Every solution the
//! library returns is replayed here on the reference model. A few definitions also go
//! through the binary (`god`, `check --json`, `solve` with and without `--database`).
//!
//! Replaying: a failure names its seed; `KSOLVE_DIFF_SEED=SEED cargo test --test
//! integration differential::` runs that one definition (and prints it). By default 300 definitions run;
//! `KSOLVE_SLOW_TESTS=1` runs 5,000 with a larger position cap; `KSOLVE_DIFF_COUNT=N`
//! sets the count; `KSOLVE_DIFF_SLOW=SECONDS` names each definition as it begins and again
//! when it took longer.

use crate::common;

use ksolve::def::{parse_puzzle, parse_scrambles};
use ksolve::gods::{self, database, DistOptions, GodOptions, Method};
use ksolve::group::{Count, Group};
use ksolve::progress::Silent;
use ksolve::puzzle::{IgnoreMask, Metric, MoveId, Puzzle, Scramble, ScrambleSource, State};
use ksolve::search::{Outcome, SearchError, SolveOptions, Solver, Status};
use ksolve::solve::{self, Answerer, Origin, Position};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::fmt::Write as _;
use std::sync::Arc;

/// SplitMix64: the test's own generator, so that a seed means the same definition
/// whatever the library's generator does.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A number in `0..n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// A number in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    /// True one time in `n`.
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// One set of a generated definition.
#[derive(Clone, Debug)]
struct SetSpec {
    name: String,
    size: usize,
    ori: u8,
    /// The solved state's labels, 0-based (equal labels: interchangeable pieces).
    solved: Vec<u16>,
}

/// One base move as the file gives it, per set: `perm[i]` is the position whose piece
/// comes to position `i`, `twist[j]` the twist of the piece that leaves position `j`.
#[derive(Clone, Debug)]
struct MoveSpec {
    name: String,
    perm: Vec<Vec<usize>>,
    twist: Vec<Vec<u8>>,
}

/// A generated definition and the reference model of it.
struct Spec {
    sets: Vec<SetSpec>,
    moves: Vec<MoveSpec>,
    /// `Block`: pieces (set, 0-based label) that a legal move moves all or none of.
    block: Option<Vec<(usize, u16)>>,
    /// `Ignore`: per set, the positions whose piece and whose twist a scramble may leave
    /// as `?`.
    ignore: Option<Vec<(Vec<bool>, Vec<bool>)>>,
    /// Per base move: its powers (1 to order - 1) as explicit moves.
    powers: Vec<Vec<Power>>,
    /// Per set: where its labels start in a [`Pos`].
    offsets: Vec<usize>,
    text: String,
}

/// A power of a base move, applied as one move.
#[derive(Clone, Debug)]
struct Power {
    /// Per set: position `i` receives the piece of position `from[i]` twisted by
    /// `add[i]`.
    from: Vec<Vec<usize>>,
    add: Vec<Vec<u8>>,
    qtm: u32,
}

/// A position: per set the labels, then the twists, all in one vector.
type Pos = Vec<u16>;

impl Spec {
    fn solved(&self) -> Pos {
        let mut p = Vec::new();
        for s in &self.sets {
            p.extend(&s.solved);
            p.extend(std::iter::repeat_n(0, s.size));
        }
        p
    }

    /// Where set `k`'s labels start in a [`Pos`] (its twists follow them).
    fn offset(&self, k: usize) -> usize {
        self.offsets[k]
    }

    fn apply(&self, p: &Pos, m: &Power) -> Pos {
        let mut out = p.clone();
        for (k, s) in self.sets.iter().enumerate() {
            let o = self.offset(k);
            for i in 0..s.size {
                let f = m.from[k][i];
                out[o + i] = p[o + f];
                out[o + s.size + i] = (p[o + s.size + f] + m.add[k][i] as u16) % s.ori as u16;
            }
        }
        out
    }

    /// Whether base move `b` touches position `i` of set `k` (moves or twists what is
    /// there), which is what `Block` looks at.
    fn touches(&self, b: usize, k: usize, i: usize) -> bool {
        self.moves[b].perm[k][i] != i || self.moves[b].twist[k][i] != 0
    }

    /// The `Block` rule: the positions holding the block's pieces are all touched by the
    /// move or none are.
    fn legal(&self, p: &Pos, b: usize) -> bool {
        let Some(block) = &self.block else {
            return true;
        };
        let mut seen = None;
        for &(k, label) in block {
            let o = self.offset(k);
            for i in 0..self.sets[k].size {
                if p[o + i] == label {
                    let t = self.touches(b, k, i);
                    if seen.is_some_and(|s| s != t) {
                        return false;
                    }
                    seen = Some(t);
                }
            }
        }
        true
    }

    /// Every (base, power index, cost) in the metric.
    fn all_moves(&self, metric: Metric) -> Vec<(usize, usize, u32)> {
        let mut v = Vec::new();
        for (b, ps) in self.powers.iter().enumerate() {
            for (j, p) in ps.iter().enumerate() {
                let c = match metric {
                    Metric::Htm => 1,
                    Metric::Qtm => p.qtm,
                };
                v.push((b, j, c));
            }
        }
        v
    }

    /// The position in a scramble file's form (1-based labels, twists on a second row).
    fn write_position(
        &self,
        out: &mut String,
        p: &Pos,
        unknown: Option<&[(Vec<bool>, Vec<bool>)]>,
    ) {
        for (k, s) in self.sets.iter().enumerate() {
            let o = self.offset(k);
            let row = |twists: bool| -> String {
                (0..s.size)
                    .map(|i| {
                        let q = unknown.is_some_and(|u| if twists { u[k].1[i] } else { u[k].0[i] });
                        if q {
                            "?".to_string()
                        } else if twists {
                            p[o + s.size + i].to_string()
                        } else {
                            (p[o + i] + 1).to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let _ = writeln!(out, "{}\n{}\n{}", s.name, row(false), row(true));
        }
    }
}

/// The order of a base move and its powers, from its file form.
fn powers_of(sets: &[SetSpec], mv: &MoveSpec) -> Vec<Power> {
    // As a destination-indexed step: position i gets the piece from perm[i], twisted by
    // the twist given to the piece leaving perm[i].
    let step = Power {
        from: mv.perm.clone(),
        add: mv
            .perm
            .iter()
            .zip(&mv.twist)
            .map(|(p, t)| p.iter().map(|&f| t[f]).collect())
            .collect(),
        qtm: 1,
    };
    let compose = |a: &Power, b: &Power| -> Power {
        // `a` then `b`: position i gets what `a` put at b.from[i].
        Power {
            from: (0..sets.len())
                .map(|k| (0..sets[k].size).map(|i| a.from[k][b.from[k][i]]).collect())
                .collect(),
            add: (0..sets.len())
                .map(|k| {
                    (0..sets[k].size)
                        .map(|i| (a.add[k][b.from[k][i]] + b.add[k][i]) % sets[k].ori)
                        .collect()
                })
                .collect(),
            qtm: 0,
        }
    };
    let is_identity = |p: &Power| {
        p.from
            .iter()
            .all(|f| f.iter().enumerate().all(|(i, &x)| x == i))
            && p.add.iter().all(|a| a.iter().all(|&x| x == 0))
    };
    let mut out = vec![step.clone()];
    loop {
        let next = compose(out.last().unwrap(), &step);
        if is_identity(&next) {
            break;
        }
        out.push(next);
    }
    let order = out.len() as u32 + 1;
    for (j, p) in out.iter_mut().enumerate() {
        let j = j as u32 + 1;
        p.qtm = j.min(order - j);
    }
    out
}

const SET_NAMES: [&str; 3] = ["A", "B", "C"];
const MOVE_NAMES: [&str; 4] = ["U", "R", "F", "L"];

/// Draws a definition from `seed`.
fn generate(seed: u64) -> Spec {
    let mut rng = Rng(seed);
    let nsets = rng.range(2, 3);
    let sets: Vec<SetSpec> = (0..nsets)
        .map(|k| {
            let size = rng.range(3, 8);
            let ori = rng.range(1, 3) as u8;
            // Interchangeable pieces one time in four: labels that rise by 0 or 1.
            let solved = if rng.one_in(4) {
                let mut l = 0u16;
                (0..size)
                    .map(|i| {
                        if i > 0 && rng.one_in(2) {
                            l += 1;
                        }
                        l
                    })
                    .collect()
            } else {
                (0..size as u16).collect()
            };
            SetSpec {
                name: SET_NAMES[k].to_string(),
                size,
                ori,
                solved,
            }
        })
        .collect();
    let nmoves = rng.range(2, 4);
    let mut moves = Vec::new();
    let mut powers = Vec::new();
    while moves.len() < nmoves {
        let mut perm = Vec::new();
        let mut twist = Vec::new();
        let mut touched = false;
        for s in &sets {
            let mut p: Vec<usize> = (0..s.size).collect();
            let mut t = vec![0u8; s.size];
            if !rng.one_in(3) {
                touched = true;
                // One cycle, sometimes two, of 2 to 4 positions.
                let mut pos: Vec<usize> = (0..s.size).collect();
                rng.shuffle(&mut pos);
                let mut at = 0;
                for _ in 0..if rng.one_in(4) { 2 } else { 1 } {
                    let len = rng.range(2, 4).min(s.size - at);
                    if len < 2 {
                        break;
                    }
                    let c = &pos[at..at + len];
                    for i in 0..len {
                        p[c[(i + 1) % len]] = c[i];
                    }
                    for &j in c {
                        t[j] = rng.below(s.ori as usize) as u8;
                    }
                    at += len;
                }
            }
            perm.push(p);
            twist.push(t);
        }
        if !touched {
            continue;
        }
        let mv = MoveSpec {
            name: MOVE_NAMES[moves.len()].to_string(),
            perm,
            twist,
        };
        let ps = powers_of(&sets, &mv);
        // Keep the search spaces of Slack's brute force small.
        if ps.len() + 1 > 12 {
            continue;
        }
        moves.push(mv);
        powers.push(ps);
    }
    let block = rng.one_in(5).then(|| {
        let k = rng.below(nsets);
        let mut labels: Vec<u16> = sets[k].solved.clone();
        labels.dedup();
        rng.shuffle(&mut labels);
        let mut pieces: Vec<(usize, u16)> = labels.iter().take(2).map(|&l| (k, l)).collect();
        // Sometimes a piece of another set joins.
        if rng.one_in(3) {
            let k2 = (k + 1) % nsets;
            pieces.push((k2, sets[k2].solved[rng.below(sets[k2].size)]));
        }
        pieces
    });
    let ignore = rng.one_in(4).then(|| {
        sets.iter()
            .map(|s| {
                let p: Vec<bool> = (0..s.size).map(|_| rng.one_in(3)).collect();
                let o: Vec<bool> = (0..s.size).map(|_| s.ori > 1 && rng.one_in(3)).collect();
                (p, o)
            })
            .collect()
    });
    let mut spec = Spec {
        sets,
        moves,
        block,
        ignore,
        powers,
        offsets: Vec::new(),
        text: String::new(),
    };
    spec.offsets = spec
        .sets
        .iter()
        .scan(0, |at, s| {
            let o = *at;
            *at += 2 * s.size;
            Some(o)
        })
        .collect();
    spec.text = definition_text(&spec);
    spec
}

fn definition_text(spec: &Spec) -> String {
    let mut t = String::from("Name differential\n\n");
    let row = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(" ");
    for s in &spec.sets {
        let _ = writeln!(t, "Set {} {} {}", s.name, s.size, s.ori);
    }
    t.push_str("\nSolved\n");
    for s in &spec.sets {
        let _ = writeln!(
            t,
            "{}\n{}",
            s.name,
            row(&mut s.solved.iter().map(|l| (l + 1).to_string()))
        );
    }
    t.push_str("End\n");
    for m in &spec.moves {
        let _ = writeln!(t, "\nMove {}", m.name);
        for (k, s) in spec.sets.iter().enumerate() {
            let _ = writeln!(
                t,
                "{}\n{}\n{}",
                s.name,
                row(&mut m.perm[k].iter().map(|x| (x + 1).to_string())),
                row(&mut m.twist[k].iter().map(|x| x.to_string()))
            );
        }
        t.push_str("End\n");
    }
    if let Some(b) = &spec.block {
        t.push_str("\nBlock\n");
        for (k, s) in spec.sets.iter().enumerate() {
            let labels: Vec<String> = b
                .iter()
                .filter(|(bk, _)| *bk == k)
                .map(|(_, l)| (l + 1).to_string())
                .collect();
            if !labels.is_empty() {
                let _ = writeln!(t, "{}\n{}", s.name, labels.join(" "));
            }
        }
        t.push_str("End\n");
    }
    if let Some(ig) = &spec.ignore {
        t.push_str("\nIgnore\n");
        for (s, (p, o)) in spec.sets.iter().zip(ig) {
            let bits = |v: &[bool]| row(&mut v.iter().map(|&b| (b as u8).to_string()));
            let _ = writeln!(t, "{}\n{}\n{}", s.name, bits(p), bits(o));
        }
        t.push_str("End\n");
    }
    t
}

/// Every position reachable from solved and the moves between them.
struct Graph {
    states: Vec<Pos>,
    index: HashMap<Pos, usize>,
    /// Per state: (next state, base, power index) for every legal move.
    edges: Vec<Vec<(usize, usize, usize)>>,
}

/// Breadth-first search from solved; `None` past `cap` positions.
fn explore(spec: &Spec, cap: usize) -> Option<Graph> {
    let start = spec.solved();
    let mut g = Graph {
        states: vec![start.clone()],
        index: HashMap::from([(start, 0)]),
        edges: Vec::new(),
    };
    let mut i = 0;
    while i < g.states.len() {
        let mut out = Vec::new();
        for (b, ps) in spec.powers.iter().enumerate() {
            if !spec.legal(&g.states[i], b) {
                continue;
            }
            for (j, p) in ps.iter().enumerate() {
                let next = spec.apply(&g.states[i], p);
                let n = g.states.len();
                let t = *g.index.entry(next.clone()).or_insert(n);
                if t == n {
                    if n >= cap {
                        return None;
                    }
                    g.states.push(next);
                }
                out.push((t, b, j));
            }
        }
        g.edges.push(out);
        i += 1;
    }
    Some(g)
}

/// Distances to solve of every state, by Dijkstra on the reversed graph.
fn distances(spec: &Spec, g: &Graph, metric: Metric) -> Vec<u32> {
    let mut into: Vec<Vec<(usize, u32)>> = vec![Vec::new(); g.states.len()];
    for (i, es) in g.edges.iter().enumerate() {
        for &(t, b, j) in es {
            let c = match metric {
                Metric::Htm => 1,
                Metric::Qtm => spec.powers[b][j].qtm,
            };
            if t != i {
                into[t].push((i, c));
            }
        }
    }
    let mut dist = vec![u32::MAX; g.states.len()];
    dist[0] = 0;
    let mut heap = BinaryHeap::from([Reverse((0u32, 0usize))]);
    while let Some(Reverse((d, j))) = heap.pop() {
        if d > dist[j] {
            continue;
        }
        for &(from, c) in &into[j] {
            if d + c < dist[from] {
                dist[from] = d + c;
                heap.push(Reverse((d + c, from)));
            }
        }
    }
    dist
}

fn counts(dist: &[u32]) -> Vec<u64> {
    let max = dist
        .iter()
        .copied()
        .filter(|&d| d != u32::MAX)
        .max()
        .unwrap_or(0);
    let mut c = vec![0u64; max as usize + 1];
    for &d in dist.iter().filter(|&&d| d != u32::MAX) {
        c[d as usize] += 1;
    }
    c
}

/// A `MoveLimits` line as the reference reads it: which (base, power index) it counts.
struct Limit {
    text: String,
    counts: Vec<(usize, Option<usize>)>,
    max: u32,
}

impl Limit {
    fn matches(&self, b: usize, j: usize) -> bool {
        self.counts
            .iter()
            .any(|&(cb, cj)| cb == b && cj.is_none_or(|cj| cj == j))
    }
}

/// The cheapest way from `start` to a position `done` accepts, within `limits`, by
/// Dijkstra over (position, counters). `Err(())` when more than `cap` pairs were seen
/// before it was settled.
fn reference(
    spec: &Spec,
    start: &Pos,
    metric: Metric,
    limits: &[Limit],
    done: &dyn Fn(&Pos) -> bool,
    cap: usize,
) -> Result<Option<u32>, ()> {
    let moves = spec.all_moves(metric);
    let key0 = (start.clone(), vec![0u32; limits.len()]);
    let mut best: HashMap<(Pos, Vec<u32>), u32> = HashMap::from([(key0.clone(), 0)]);
    let mut heap = BinaryHeap::from([Reverse((0u32, key0))]);
    while let Some(Reverse((d, key))) = heap.pop() {
        if best.get(&key).is_some_and(|&e| e < d) {
            continue;
        }
        if done(&key.0) {
            return Ok(Some(d));
        }
        for &(b, j, c) in &moves {
            if !spec.legal(&key.0, b) {
                continue;
            }
            let mut used = key.1.clone();
            let mut within = true;
            for (u, l) in used.iter_mut().zip(limits) {
                if l.matches(b, j) {
                    *u += 1;
                    within &= *u <= l.max;
                }
            }
            if !within {
                continue;
            }
            let next = (spec.apply(&key.0, &spec.powers[b][j]), used);
            if best.get(&next).is_none_or(|&e| e > d + c) {
                best.insert(next.clone(), d + c);
                if best.len() > cap {
                    return Err(());
                }
                heap.push(Reverse((d + c, next)));
            }
        }
    }
    Ok(None)
}

/// Replays `seq` on the reference model from `start`: its cost in `metric`, the end
/// position, and whether every move was legal there.
fn replay(
    spec: &Spec,
    p: &Puzzle,
    start: &Pos,
    seq: &[MoveId],
    metric: Metric,
) -> (u32, Pos, bool) {
    let mut pos = start.clone();
    let mut cost = 0;
    let mut legal = true;
    for &m in seq {
        let mv = p.mv(m);
        let (b, j) = (mv.base, mv.power as usize - 1);
        legal &= spec.legal(&pos, b);
        pos = spec.apply(&pos, &spec.powers[b][j]);
        cost += match metric {
            Metric::Htm => 1,
            Metric::Qtm => spec.powers[b][j].qtm,
        };
    }
    (cost, pos, legal)
}

/// The position in the library's form.
fn to_state(spec: &Spec, p: &Puzzle, pos: &Pos) -> State {
    let mut s = p.solved.clone();
    for (k, set) in spec.sets.iter().enumerate() {
        let o = spec.offset(k);
        for i in 0..set.size {
            s.sets[k].perm[i] = pos[o + i];
            s.sets[k].ori[i] = pos[o + set.size + i] as u8;
        }
    }
    s
}

fn metric_line(metric: Metric) -> &'static str {
    match metric {
        Metric::Htm => "HTM",
        Metric::Qtm => "QTM",
    }
}

/// The most a position asked of a search may cost (in the metric's units).
const MAX_SOLVE: u32 = 12;

/// The tree a search of one position may have to walk: IDA* visits about b^d nodes for
/// a position d deep with b moves worth trying after the last (every move but the other
/// powers of the same base move), fewer as the tables are sharper. A `Block`, which the
/// pruning tables do not see, and an `Ignore`, which makes thousands of optimal solutions
/// to list, make them weak: such a puzzle with moves of order 12 took minutes at depth
/// 12. Positions are asked no deeper than this tree allows ([`SEARCH_TREE_SHARP`] for
/// the others).
const SEARCH_TREE: f64 = 1e9;

/// [`SEARCH_TREE`] for definitions without `Block` or `Ignore`.
const SEARCH_TREE_SHARP: f64 = 1e11;

/// The deepest position asked of a search of `p`: [`MAX_SOLVE`], or less where the
/// moves are many (see [`SEARCH_TREE`]).
fn max_solve(spec: &Spec, p: &Puzzle) -> u32 {
    let tree = match spec.block.is_none() && spec.ignore.is_none() {
        true => SEARCH_TREE_SHARP,
        false => SEARCH_TREE,
    };
    let most_powers = (0..p.base_moves.len())
        .map(|b| p.moves.iter().filter(|m| m.base == b).count())
        .max()
        .unwrap_or(1);
    let b = (p.moves.len() + 1).saturating_sub(most_powers).max(2) as f64;
    ((tree.ln() / b.ln()) as u32).clamp(3, MAX_SOLVE)
}

/// What one definition's run checked, for the totals.
#[derive(Default)]
struct Tally {
    definitions: usize,
    skipped: usize,
    solves: usize,
}

/// How large a run is.
struct Scale {
    /// One definition in this many searches with symmetry (finding a random
    /// definition's symmetries takes seconds in a debug build when it has many points).
    symmetry_every: usize,
    /// Definitions whose reachable positions exceed this are skipped.
    cap: usize,
    /// Random positions solved per definition and metric.
    positions: usize,
}

/// What the comparisons of one definition and metric share: the options of their
/// searches, the definition and the library's reading of it, the reference's graph and
/// the positions near enough to solve.
#[derive(Clone, Copy)]
struct Case<'a> {
    base: SolveOptions,
    near: &'a [usize],
    spec: &'a Spec,
    p: &'a Puzzle,
    g: &'a Graph,
}

/// Runs every comparison on the definition of `seed`; returns whether it ran (false when
/// it was skipped as too large) and how many scrambles were solved.
fn run_one(seed: u64, scale: &Scale) -> (bool, usize) {
    let spec = generate(seed);
    let (puzzle, _) = parse_puzzle(spec.text.as_bytes(), "diff.def")
        .unwrap_or_else(|e| panic!("the generated definition does not read: {e}"));
    // The group's count is a quick filter for size (the reference still counts every
    // position, and compares below).
    let group = Group::new(&puzzle).expect("group");
    let bound = group.reachable();
    if bound.value() > &(scale.cap as u64).into() {
        return (false, 0);
    }
    let g = explore(&spec, scale.cap);
    let Some(graph) = g else {
        panic!(
            "check counts at most {} positions but there are more than {}",
            bound.value(),
            scale.cap
        );
    };
    let n = graph.states.len() as u64;
    let mut rng = Rng(seed ^ 0x5eed);
    let base = SolveOptions {
        no_symmetry: !rng.one_in(scale.symmetry_every),
        ..SolveOptions::default()
    };
    let mut solves = 0;

    // `check`: the group's count of reachable positions.
    match bound {
        Count::Exact(v) if spec.block.is_none() => {
            assert_eq!(v.to_string(), n.to_string(), "check: reachable positions")
        }
        c => assert!(
            c.value() >= &n.into(),
            "check: the bound {} is below the {n} positions reached",
            c.value()
        ),
    }

    // A small budget keeps the tables (and the time to build them) small; the move
    // tables of a few definitions need more, which the planner says before building.
    let mut tables = Solver::new(&puzzle, Tables::new(TableCache::in_memory(), 1 << 20));
    if tables.prepare(Metric::Htm, None, &Silent).is_err() {
        tables = Solver::new(&puzzle, Tables::new(TableCache::in_memory(), 16 << 20));
    }
    for metric in [Metric::Htm, Metric::Qtm] {
        let dist = distances(&spec, &graph, metric);
        let want = counts(&dist);
        assert_eq!(
            want.iter().sum::<u64>(),
            n,
            "{metric:?}: the reference reaches solved from every position"
        );

        // God's table by every method.
        let god = |method: Method, keep: bool| {
            let opts = GodOptions {
                metric,
                method,
                antipodes: 2,
                keep_distances: keep,
                memory: 1 << 28,
                ..GodOptions::default()
            };
            gods::compute(&puzzle, &opts, &Silent, &|_, _| {})
        };
        let hashed = god(Method::Hashed, false).expect("hashed");
        assert_eq!(hashed.counts, want, "{metric:?}: god --method hashed");
        check_antipodes(&spec, &puzzle, &graph, &dist, &hashed, metric);
        let auto = god(Method::Auto, true).expect("auto");
        assert_eq!(
            auto.counts, want,
            "{metric:?}: god (automatic method, distances kept)"
        );
        if spec.block.is_none() {
            let indexed = god(Method::Indexed, false).expect("indexed");
            assert_eq!(indexed.counts, want, "{metric:?}: god --method indexed");
            check_antipodes(&spec, &puzzle, &graph, &dist, &indexed, metric);
            let opts = GodOptions {
                metric,
                memory: 1 << 28,
                ..GodOptions::default()
            };
            // Starting timely's workers costs more than the rest of a small table, so
            // one definition and metric in three goes this way.
            if rng.one_in(3) {
                let workers = if rng.one_in(2) { "1" } else { "2" };
                let dist_table = gods::compute_distributed(
                    &puzzle,
                    &opts,
                    &DistOptions {
                        timely_args: vec!["-w".into(), workers.into()],
                        connect_timeout: std::time::Duration::from_secs(60),
                    },
                    &Silent,
                    Arc::new(|_, _| {}),
                )
                .expect("distributed");
                assert_eq!(
                    dist_table.counts, want,
                    "{metric:?}: god --distributed (one process, {workers} workers)"
                );
            }
        }
        // Positions the searches are asked to solve: deep ones of a puzzle with two
        // moves take IDA* millions of nodes, which a debug build makes slow.
        let deepest = max_solve(&spec, &puzzle);
        let near: Vec<usize> = (0..graph.states.len())
            .filter(|&i| dist[i] <= deepest)
            .collect();
        let db = database::Database::in_memory("diff", &puzzle, &auto).expect("database");
        // `solve --database` answers through the library's entry point, as the command
        // line does; scrambles the table declines are searched there, and left out here.
        let mut by_table = Answerer::new(&puzzle, Tables::new(TableCache::in_memory(), 1 << 20))
            .with_database(Some(db));

        // Random positions: optimal lengths by every search path.
        let solved = spec.solved();
        for _ in 0..scale.positions {
            let i = near[rng.below(near.len())];
            let start = to_state(&spec, &puzzle, &graph.states[i]);
            let settings = settings_for(&puzzle, metric, "");
            let variants = [
                base,
                SolveOptions {
                    no_symmetry: true,
                    ..base
                },
                SolveOptions {
                    no_probes: true,
                    ..base
                },
                SolveOptions {
                    all_checks: true,
                    threads: Some(1),
                    ..base
                },
            ];
            // Every answer for state i must be optimal and end at the solved state.
            let check_plain = |out: &Outcome, what: &str| {
                check_outcome(
                    &spec,
                    &puzzle,
                    &graph.states[i],
                    out,
                    Some(dist[i]),
                    metric,
                    &|q| q == &solved,
                    what,
                )
            };
            // The default search, and one of the others.
            let other = rng.range(1, variants.len() - 1);
            for (v, opts) in [(0, variants[0]), (other, variants[other])] {
                let out = solve_grow(&mut tables, &start, &[], &settings, opts, "solve");
                check_plain(&out, &format!("solve (options {v}) of state {i}"));
                solves += 1;
            }
            let position = Position {
                start: &start,
                ignore: &[],
                origin: Origin::Made,
                impossible: None,
            };
            let mut solutions = Vec::new();
            let declined = by_table
                .database()
                .and_then(|db| database::solve_scramble(db, &puzzle, &start, &[], &settings))
                .is_none();
            if declined {
                // The database declines every scramble of a definition with `Ignore`.
                assert!(
                    spec.ignore.is_some(),
                    "the database declines a plain scramble"
                );
                continue;
            }
            let report = by_table
                .answer(&position, &settings, base, &Silent, &mut |_, s| {
                    solutions.push(s.to_vec())
                })
                .expect("database");
            assert_eq!(report.method, solve::Method::Database, "state {i}");
            let out = Outcome {
                solutions,
                ..report.outcome
            };
            check_plain(&out, &format!("solve --database of state {i}"));
        }

        let case = Case {
            base,
            near: &near,
            spec: &spec,
            p: &puzzle,
            g: &graph,
        };
        solves += limits(&case, &mut tables, metric, &mut rng);
        solves += slack(&case, &dist, &mut tables, metric, &mut rng);
        solves += unknowns(&case, &mut tables, metric, &mut rng);
        solves += goals(&case, &mut tables, metric, &mut rng);
    }
    (true, solves)
}

/// Solves with `solver`; when its budget cannot hold the move tables a scramble needs
/// (the planner refuses before building them: a small budget keeps the suite quick, and
/// a scramble's `?` or goal may need more tables), again with a larger one.
fn solve_grow<'p>(
    solver: &mut Solver<'p>,
    start: &State,
    ignore: &[IgnoreMask],
    settings: &ksolve::puzzle::SolveSettings,
    options: SolveOptions,
    what: &str,
) -> Outcome {
    match solver.solve(start, ignore, settings, options, &Silent, |_, _| {}) {
        Ok(out) => out,
        Err(SearchError::Component(e)) if e.to_string().contains("budget") => {
            let p = solver.puzzle();
            *solver = Solver::new(p, Tables::new(TableCache::in_memory(), 64 << 20));
            solver
                .solve(start, ignore, settings, options, &Silent, |_, _| {})
                .unwrap_or_else(|e| panic!("{what}: {e}"))
        }
        Err(e) => panic!("{what}: {e}"),
    }
}

/// The scramble file's settings for `metric` with `extra` lines.
fn settings_for(p: &Puzzle, metric: Metric, extra: &str) -> ksolve::puzzle::SolveSettings {
    let text = format!("{}\n{extra}ScrambleAlg x\nEnd\n", metric_line(metric));
    let s = parse_scrambles(text.as_bytes(), "diff.txt", p).expect("settings");
    s[0].settings.clone()
}

/// Each antipode lies at the table's last depth, and its solution is legal, that long,
/// and solves it.
fn check_antipodes(
    spec: &Spec,
    p: &Puzzle,
    g: &Graph,
    dist: &[u32],
    t: &gods::GodTable,
    metric: Metric,
) {
    for a in &t.antipodes {
        let pos: Pos = spec
            .sets
            .iter()
            .enumerate()
            .flat_map(|(k, _)| {
                let s = &a.state.sets[k];
                s.perm
                    .iter()
                    .copied()
                    .chain(s.ori.iter().map(|&o| o as u16))
                    .collect::<Vec<_>>()
            })
            .collect();
        let i = *g
            .index
            .get(&pos)
            .expect("an antipode is a reachable position");
        assert_eq!(
            dist[i] as usize,
            t.max_depth(),
            "{metric:?}: antipode depth"
        );
        let (cost, end, legal) = replay(spec, p, &pos, &a.solution, metric);
        assert!(
            legal && end == spec.solved() && cost == dist[i],
            "{metric:?}: antipode solution {}",
            p.format_sequence(&a.solution)
        );
    }
}

/// The outcome agrees with the reference's optimal cost `want` (`None`: no solution),
/// and every solution is legal, of its length and ends where `done` accepts.
#[allow(clippy::too_many_arguments)]
fn check_outcome(
    spec: &Spec,
    p: &Puzzle,
    start: &Pos,
    out: &Outcome,
    want: Option<u32>,
    metric: Metric,
    done: &dyn Fn(&Pos) -> bool,
    what: &str,
) {
    match want {
        Some(d) => {
            assert_eq!(
                out.status,
                Status::Solved,
                "{metric:?}: {what}: status (optimal {d})"
            );
            assert_eq!(out.length, Some(d), "{metric:?}: {what}: optimal length");
        }
        None => assert_ne!(
            out.status,
            Status::Solved,
            "{metric:?}: {what}: solved what the reference cannot"
        ),
    }
    for s in &out.solutions {
        let (cost, end, legal) = replay(spec, p, start, s, metric);
        assert!(
            legal,
            "{metric:?}: {what}: an illegal move in {}",
            p.format_sequence(s)
        );
        assert!(
            done(&end),
            "{metric:?}: {what}: {} does not solve it",
            p.format_sequence(s)
        );
        assert!(
            cost >= want.unwrap_or(0),
            "{metric:?}: {what}: {} is shorter than optimal",
            p.format_sequence(s)
        );
    }
}

/// Random `MoveLimits` (a power, a family, several families sharing one limit; limits of
/// 0, 1 or 2) on random positions, against Dijkstra over (position, counters).
fn limits(case: &Case, solver: &mut Solver, metric: Metric, rng: &mut Rng) -> usize {
    let Case {
        base,
        near,
        spec,
        p,
        g,
    } = *case;
    let mut solved = 0;
    for _ in 0..2 {
        let nlines = rng.range(1, 2);
        let mut lines = Vec::new();
        for _ in 0..nlines {
            let b = rng.below(spec.moves.len());
            let name = &spec.moves[b].name;
            let l = match rng.below(3) {
                0 => Limit {
                    text: format!("{name}* {}", rng.below(3)),
                    counts: vec![(b, None)],
                    max: 0,
                },
                1 => Limit {
                    text: format!("{name} {}", rng.below(3)),
                    counts: vec![(b, Some(0))],
                    max: 0,
                },
                _ => {
                    let b2 = (b + 1 + rng.below(spec.moves.len() - 1)) % spec.moves.len();
                    Limit {
                        text: format!("{name}* {}* {}", spec.moves[b2].name, rng.below(2)),
                        counts: vec![(b, None), (b2, None)],
                        max: 0,
                    }
                }
            };
            let max = l.text.rsplit(' ').next().unwrap().parse().unwrap();
            lines.push(Limit { max, ..l });
        }
        let i = near[rng.below(near.len())];
        let start = &g.states[i];
        let solved_pos = spec.solved();
        let Ok(want) = reference(spec, start, metric, &lines, &|q| q == &solved_pos, 400_000)
        else {
            continue;
        };
        if want.is_some_and(|d| d > max_solve(spec, p)) {
            continue;
        }
        let body: String = lines.iter().map(|l| format!("{}\n", l.text)).collect();
        let settings = settings_for(p, metric, &format!("MoveLimits\n{body}End\n"));
        let out = solve_grow(
            solver,
            &to_state(spec, p, start),
            &[],
            &settings,
            base,
            "solve with limits",
        );
        check_outcome(
            spec,
            p,
            start,
            &out,
            want,
            metric,
            &|q| q == &solved_pos,
            &format!("MoveLimits {body:?} from state {i}"),
        );
        // The same, searched on the puzzle without the moves limited to 0, with tables
        // built for the moves left (`solve::narrow`, what `solve` does with a batch).
        let scramble = Scramble {
            name: "narrowed".into(),
            source: ScrambleSource::Position(ksolve::puzzle::Target {
                state: to_state(spec, p, start),
                ignore: Vec::new(),
            }),
            settings: settings.clone(),
            line: 0,
        };
        if let Some(n) = solve::narrow(p, &[scramble]) {
            let s = &n.scrambles[0];
            let ScrambleSource::Position(t) = &s.source else {
                panic!("a position stays a position when narrowed")
            };
            let mut narrowed =
                Solver::new(&n.puzzle, Tables::new(TableCache::in_memory(), 1 << 20));
            let out = solve_grow(
                &mut narrowed,
                &t.state,
                &[],
                &s.settings,
                base,
                "solve with limits, narrowed",
            );
            // Back to the whole puzzle's moves, by name, for the replay.
            let solutions = out
                .solutions
                .iter()
                .map(|sol| {
                    sol.iter()
                        .map(|&m| p.move_by_name(&n.puzzle.mv(m).name).expect("a kept move"))
                        .collect()
                })
                .collect();
            let out = Outcome { solutions, ..out };
            check_outcome(
                spec,
                p,
                start,
                &out,
                want,
                metric,
                &|q| q == &solved_pos,
                &format!("MoveLimits {body:?} from state {i}, narrowed"),
            );
        }
        for s in &out.solutions {
            for l in &lines {
                let used = s
                    .iter()
                    .filter(|&&m| l.matches(p.mv(m).base, p.mv(m).power as usize - 1))
                    .count();
                assert!(
                    used as u32 <= l.max,
                    "{metric:?}: {} breaks the limit {}",
                    p.format_sequence(s),
                    l.text
                );
            }
        }
        solved += 1;
    }
    solved
}

/// `Slack`: every solution from optimal to optimal + slack, against the brute force of
/// `common` (on short positions, where it is quick).
fn slack(case: &Case, dist: &[u32], solver: &mut Solver, metric: Metric, rng: &mut Rng) -> usize {
    let Case {
        base, spec, p, g, ..
    } = *case;
    let moves = spec.all_moves(metric).len();
    let near: Vec<usize> = (0..g.states.len()).filter(|&i| dist[i] <= 3).collect();
    if moves > 12 || near.is_empty() {
        return 0;
    }
    let i = near[rng.below(near.len())];
    let s = rng.range(1, 2) as u32;
    let start = to_state(spec, p, &g.states[i]);
    let mut settings = settings_for(p, metric, &format!("Slack {s}\n"));
    let out = solve_grow(solver, &start, &[], &settings, base, "solve with slack");
    let solved_pos = spec.solved();
    check_outcome(
        spec,
        p,
        &g.states[i],
        &out,
        Some(dist[i]),
        metric,
        &|q| q == &solved_pos,
        &format!("Slack {s} from state {i}"),
    );
    settings.max_depth = dist[i] + s;
    let brute = common::brute_force(p, &start, &[], &settings);
    let per_length = |v: &[Vec<MoveId>]| {
        let mut c: Vec<(u32, usize)> = Vec::new();
        for x in v {
            let cost: u32 = x.iter().map(|&m| metric.cost(p, m)).sum();
            match c.last_mut() {
                Some((l, n)) if *l == cost => *n += 1,
                _ => c.push((cost, 1)),
            }
        }
        c
    };
    assert_eq!(
        per_length(&out.solutions),
        per_length(&brute),
        "{metric:?}: Slack {s} from state {i}: solutions per length"
    );
    assert_eq!(
        out.solutions, brute,
        "{metric:?}: Slack {s} from state {i}: solutions"
    );
    1
}

/// `?` in a scramble where the definition's `Ignore` allows it: the bare `?` takes the
/// pieces left over in ascending order and a `?` twist reads as 0, and the marked
/// positions may end anything.
fn unknowns(case: &Case, solver: &mut Solver, metric: Metric, rng: &mut Rng) -> usize {
    let Case {
        base,
        near,
        spec,
        p,
        g,
    } = *case;
    let Some(ig) = &spec.ignore else {
        return 0;
    };
    // A bare `?` is refused with blocks (the bandaging would be unknown).
    if spec.block.is_some() {
        return 0;
    }
    let mut solved = 0;
    for _ in 0..2 {
        let i = near[rng.below(near.len())];
        let unknown: Vec<(Vec<bool>, Vec<bool>)> = ig
            .iter()
            .map(|(pm, om)| {
                (
                    pm.iter().map(|&a| a && rng.one_in(2)).collect(),
                    om.iter().map(|&a| a && rng.one_in(2)).collect(),
                )
            })
            .collect();
        // The start position as the reference reads the `?`s.
        let mut start = g.states[i].clone();
        for (k, s) in spec.sets.iter().enumerate() {
            let o = spec.offset(k);
            let mut left = s.solved.clone();
            for x in 0..s.size {
                if !unknown[k].0[x] {
                    let at = left.iter().position(|&l| l == start[o + x]).unwrap();
                    left.remove(at);
                }
            }
            left.sort_unstable();
            let mut spare = left.into_iter();
            for x in 0..s.size {
                if unknown[k].0[x] {
                    start[o + x] = spare.next().unwrap();
                }
                if unknown[k].1[x] {
                    start[o + s.size + x] = 0;
                }
            }
        }
        let goal = spec.solved();
        let done = |q: &Pos| {
            spec.sets.iter().enumerate().all(|(k, s)| {
                let o = spec.offset(k);
                (0..s.size).all(|x| {
                    (unknown[k].0[x] || q[o + x] == goal[o + x])
                        && (unknown[k].1[x] || q[o + s.size + x] == goal[o + s.size + x])
                })
            })
        };
        let Ok(want) = reference(spec, &start, metric, &[], &done, 400_000) else {
            continue;
        };
        if want.is_some_and(|d| d > max_solve(spec, p)) {
            continue;
        }
        let mut text = format!("{}\nScramble q\n", metric_line(metric));
        spec.write_position(&mut text, &g.states[i], Some(&unknown));
        text.push_str("End\n");
        let scr = parse_scrambles(text.as_bytes(), "diff.txt", p).expect("a scramble with ?");
        let (state, ignore) = scramble_position(&scr[0]);
        assert_eq!(
            state,
            to_state(spec, p, &start),
            "`?` read as the reference reads it"
        );
        let mut settings = scr[0].settings.clone();
        if want.is_none() {
            // The position lies outside the puzzle's group: the tables or the group say
            // so at once, or at worst the search gives up at a small depth (IDA* may not
            // tell it from a deep position, so only a few depths are tried).
            settings.max_depth = 6;
        }
        let out = solve_grow(solver, &state, &ignore, &settings, base, "solve with ?");
        check_outcome(
            spec,
            p,
            &start,
            &out,
            want,
            metric,
            &done,
            &format!("`?` scramble from state {i}:\n{text}"),
        );
        solved += 1;
    }
    solved
}

fn scramble_position(s: &Scramble) -> (State, Vec<IgnoreMask>) {
    match &s.source {
        ScrambleSource::Position(t) => (t.state.clone(), t.ignore.clone()),
        _ => panic!("a position scramble"),
    }
}

/// A scramble file's goal of one or two reachable positions.
fn goals(case: &Case, solver: &mut Solver, metric: Metric, rng: &mut Rng) -> usize {
    let Case {
        base,
        near,
        spec,
        p,
        g,
    } = *case;
    let targets: Vec<usize> = (0..rng.range(1, 2))
        .map(|_| rng.below(g.states.len()))
        .collect();
    let i = near[rng.below(near.len())];
    let mut text = String::from(metric_line(metric));
    text.push('\n');
    for (n, &t) in targets.iter().enumerate() {
        let _ = writeln!(text, "Goal g{n}");
        spec.write_position(&mut text, &g.states[t], None);
        text.push_str("End\n");
    }
    text.push_str("Scramble s\n");
    spec.write_position(&mut text, &g.states[i], None);
    text.push_str("End\n");
    let scr = parse_scrambles(text.as_bytes(), "diff.txt", p).expect("a scramble with a goal");
    let done = |q: &Pos| targets.iter().any(|&t| &g.states[t] == q);
    let want = reference(spec, &g.states[i], metric, &[], &done, usize::MAX).unwrap();
    if want.is_some_and(|d| d > max_solve(spec, p)) {
        return 0;
    }
    let (state, ignore) = scramble_position(&scr[0]);
    let out = solve_grow(
        solver,
        &state,
        &ignore,
        &scr[0].settings,
        base,
        "solve to a goal",
    );
    check_outcome(
        spec,
        p,
        &g.states[i],
        &out,
        want,
        metric,
        &done,
        &format!("goal {targets:?} from state {i}"),
    );
    1
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}"))
    })
}

fn seed_of(i: u64) -> u64 {
    Rng(0xd1ff_0000 + i).next()
}

/// Runs definitions until `want` of them were compared (those larger than the cap are
/// drawn and skipped), from the seeds of indices `part`, `part + 4`, ... (or only the one
/// of `KSOLVE_DIFF_SEED`, in part 0), collecting every failure with its seed, and fails
/// once at the end naming them all.
fn run_part(part: u64, want: usize) {
    let slow = std::env::var("KSOLVE_SLOW_TESTS").is_ok_and(|v| v == "1");
    let scale = Scale {
        symmetry_every: if slow { 1 } else { 4 },
        cap: if slow { 50_000 } else { 5_000 },
        positions: if slow { 2 } else { 1 },
    };
    let single = env_number("KSOLVE_DIFF_SEED");
    if single.is_some() && part != 0 {
        return;
    }
    if let Some(seed) = single {
        eprintln!("{}", generate(seed).text);
    }
    // Whether to name the definitions as they run, and which took longer than this.
    let slow_after = env_number("KSOLVE_DIFF_SLOW");
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    let mut i = part;
    while tally.definitions + failures.len() < want {
        let seed = single.unwrap_or_else(|| seed_of(i));
        i += 4;
        let began = std::time::Instant::now();
        if slow_after.is_some() {
            eprintln!("differential part {part}: KSOLVE_DIFF_SEED={seed} begins");
        }
        let r = std::panic::catch_unwind(|| run_one(seed, &scale));
        // A slow run is easier to read when the definitions that cost the time name
        // themselves; `KSOLVE_DIFF_SLOW=SECONDS` prints each one that took longer.
        if let Some(limit) = slow_after {
            let took = began.elapsed().as_secs_f64();
            if took >= limit as f64 {
                eprintln!("differential part {part}: KSOLVE_DIFF_SEED={seed} took {took:.1} s");
            }
        }
        match r {
            Ok((true, solves)) => {
                tally.definitions += 1;
                tally.solves += solves;
            }
            Ok((false, _)) => tally.skipped += 1,
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failures.push(format!(
                    "KSOLVE_DIFF_SEED={seed}: {}",
                    msg.lines().next().unwrap_or("")
                ));
            }
        }
        if single.is_some() {
            break;
        }
    }
    eprintln!(
        "differential part {part}: {} definitions compared, {} skipped as larger than {} positions, {} scrambles solved, {} failed",
        tally.definitions,
        tally.skipped,
        scale.cap,
        tally.solves,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} definitions failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// How many definitions are compared in all: 300 by default, 5,000 with
/// `KSOLVE_SLOW_TESTS=1`.
fn total() -> usize {
    let slow = std::env::var("KSOLVE_SLOW_TESTS").is_ok_and(|v| v == "1");
    env_number("KSOLVE_DIFF_COUNT").map_or(if slow { 5_000 } else { 300 }, |n| n as usize)
}

// Four tests so that the harness may run them side by side.
#[test]
fn random_definitions_first_quarter() {
    run_part(0, total().div_ceil(4));
}

#[test]
fn random_definitions_second_quarter() {
    run_part(1, total().div_ceil(4));
}

#[test]
fn random_definitions_third_quarter() {
    run_part(2, total().div_ceil(4));
}

#[test]
fn random_definitions_fourth_quarter() {
    run_part(3, total().div_ceil(4));
}
