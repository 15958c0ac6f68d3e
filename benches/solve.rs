//! Benchmarks of the solver's hot paths and of whole solves: applying a move through
//! the move tables (and, for comparison, on the piece-level model), one pruning-table
//! lookup, a probe at a conjugated position, a symmetry-reduced lookup, and solving fixed lists of positions on the 2x2x2 and on the 3x3x3 <R,U>
//! subgroup. Tables are built in memory once, before timing. Run with
//! `cargo bench -p ksolve-benches --bench solve`; BENCHMARKS.md records the figures.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ksolve::def::parse_puzzle;
use ksolve::progress::Silent;
use ksolve::puzzle::{MoveId, Puzzle, SolveSettings, State};
use ksolve::search::{SolveOptions, Solver};
use ksolve::storage::cache::TableCache;
use ksolve::table::comp::{CompKind, CompSpec};
use ksolve::table::Tables;

/// A 2x2x2 turned by U, R and F. Corners: UFR UFL UBL UBR DFR DFL DBR.
const CUBE2: &str = "Name 2x2x2
Set CORNERS 7 3
Move U
CORNERS
4 1 2 3 5 6 7
End
Move R
CORNERS
5 2 3 1 7 6 4
1 0 0 2 2 0 1
End
Move F
CORNERS
2 6 3 4 1 5 7
2 1 0 0 1 2 0
End
";

/// The 3x3x3 turned by R and U. Corners: UFR UFL UBL UBR DFR DBR; edges: UF UL UB UR
/// FR BR DR.
const CUBE3_RU: &str = "Name 3x3x3 <R,U>
Set CORNERS 6 3
Set EDGES 7 2
Move U
CORNERS
4 1 2 3 5 6
EDGES
4 1 2 3 5 6 7
End
Move R
CORNERS
5 2 3 1 6 4
1 0 0 2 2 1
EDGES
1 2 3 5 7 4 6
End
";

fn load(def: &str) -> Puzzle {
    parse_puzzle(def.as_bytes(), "bench.def")
        .expect("bench definition")
        .0
}

fn alg(p: &Puzzle, moves: &str) -> State {
    let seq: Vec<MoveId> = moves
        .split_whitespace()
        .map(|m| p.move_by_name(m).expect("move"))
        .collect();
    p.apply_sequence(&p.solved, &seq)
}

/// Positions made by fixed move sequences (a deterministic pseudo-random walk).
fn walks(p: &Puzzle, count: usize, len: usize) -> Vec<State> {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    (0..count)
        .map(|_| {
            let seq: Vec<MoveId> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    MoveId((x % p.moves.len() as u64) as u16)
                })
                .collect();
            p.apply_sequence(&p.solved, &seq)
        })
        .collect()
}

fn solve_all(solver: &mut Solver, states: &[State]) -> usize {
    let settings = SolveSettings::default();
    states
        .iter()
        .map(|s| {
            solver
                .solve(
                    s,
                    &[],
                    &settings,
                    SolveOptions::default(),
                    &Silent,
                    |_, _| {},
                )
                .expect("solve")
                .solutions
                .len()
        })
        .sum()
}

fn benches(c: &mut Criterion) {
    let p2 = load(CUBE2);
    let mut tables = Tables::new(TableCache::in_memory(), 1 << 30);
    let perm = tables
        .component(
            &p2,
            &CompSpec {
                set: 0,
                kind: CompKind::Perm {
                    relabel: (0..7).collect(),
                },
            },
            &Silent,
        )
        .expect("component");
    let ori = tables
        .component(
            &p2,
            &CompSpec {
                set: 0,
                kind: CompKind::Ori { sum: Some(0) },
            },
            &Silent,
        )
        .expect("component");
    let nm = p2.moves.len();
    c.bench_function("move: 1000 moves through move tables (2 components)", |b| {
        let (pt, ot) = (&tables.comp(perm).table, &tables.comp(ori).table);
        b.iter(|| {
            let (mut x, mut y) = (0u32, 0u32);
            for i in 0..1000 {
                let m = i % nm;
                x = pt[x as usize * nm + m];
                y = ot[y as usize * nm + m];
            }
            black_box((x, y))
        })
    });
    c.bench_function("move: 1000 moves on the piece-level model", |b| {
        b.iter(|| {
            let mut s = p2.solved.clone();
            let mut t = s.clone();
            for i in 0..1000 {
                s.then_into(&p2.moves[i % nm].effect, &p2.sets, &mut t);
                std::mem::swap(&mut s, &mut t);
            }
            black_box(s)
        })
    });
    tables
        .pruning(&p2, ksolve::puzzle::Metric::Htm, None, &Silent)
        .expect("tables");
    let table = &tables.built_pruning(ksolve::puzzle::Metric::Htm, None, None)[0].table;
    c.bench_function("prune: 1000 lookups at scattered entries", |b| {
        b.iter(|| {
            let mut idx: u64 = 12345;
            let mut sum = 0u32;
            for _ in 0..1000 {
                idx = (idx * 6364136223846793005 + 1442695040888963407) % table.len;
                sum += table.get(idx);
            }
            black_box(sum)
        })
    });
    // What the search's probes cost per node they look at: a whole position conjugated
    // by a symmetry, ranked into the table's components, looked up (the inverse probe
    // does the same with the inverse position).
    let pr = &tables.built_pruning(ksolve::puzzle::Metric::Htm, None, None)[0];
    let group = ksolve::symmetry::SymmetryGroup::find(&p2).expect("symmetries");
    let sym = &group.elements()[group.order() - 1];
    let positions = walks(&p2, 1000, 30);
    c.bench_function("probe: 1000 lookups at conjugated positions", |b| {
        let mut conj = p2.solved.clone();
        let mut scratch = vec![0u16; 7];
        b.iter(|| {
            let mut sum = 0u32;
            for x in &positions {
                sym.conjugate_into(x, &mut conj);
                let idx: u64 = pr
                    .comps
                    .iter()
                    .zip(&pr.table.strides)
                    .map(|(&id, &st)| tables.comp(id).rank_state(&conj, &mut scratch) as u64 * st)
                    .sum();
                sum += pr.table.get(idx);
            }
            black_box(sum)
        })
    });

    // A symmetry-reduced lookup: the 2x2x2's corners (arrangement and twists) reduced
    // by its six symmetries; per position, the class read, the symmetry's conjugation
    // of the (here empty) minor part, and the entry.
    let specs: Vec<CompSpec> = pr
        .comps
        .iter()
        .map(|&id| tables.comp(id).spec.clone())
        .collect();
    let syms = ksolve::table::sym::plan::subgroup(&p2, &group, &specs, &[]);
    let comps: Vec<&ksolve::table::comp::Component> =
        pr.comps.iter().map(|&id| tables.comp(id)).collect();
    let conj = ksolve::table::sym::Conjugator::new(&p2, &comps);
    let sizes: Vec<u64> = comps.iter().map(|c| c.count as u64).collect();
    let classes = ksolve::table::sym::classes::Classes::build(
        &p2,
        &group,
        &syms,
        &conj,
        &sizes,
        &ksolve::progress::Silent,
    )
    .expect("classes");
    let goals: Vec<Vec<u32>> = comps.iter().map(|c| c.goal_values(&p2, None)).collect();
    let reduced = ksolve::table::sym::table::SymTable::build(
        &p2,
        classes,
        &comps,
        &[],
        Vec::new(),
        &goals,
        ksolve::puzzle::Metric::Htm,
        ksolve::table::sym::table::Width::Nibbles { allow_bytes: false },
        "reduced",
        &Silent,
    );
    let values: Vec<[u32; 2]> = positions
        .iter()
        .map(|x| {
            let v: Vec<u32> = comps
                .iter()
                .map(|c| c.value_of(x).expect("value").0)
                .collect();
            [v[0], v[1]]
        })
        .collect();
    c.bench_function("reduced: 1000 symmetry-reduced lookups", |b| {
        b.iter(|| {
            let mut sum = 0u32;
            for v in &values {
                sum += reduced.bound(v, &[]);
            }
            black_box(sum)
        })
    });

    let mut s2 = Solver::new(&p2, Tables::new(TableCache::in_memory(), 1 << 30));
    let mut list2 = vec![
        alg(&p2, "R U R' F' R U R' U' R' F R2 U' R' U'"),
        alg(&p2, "R U R' U R U2 R'"),
    ];
    list2.extend(walks(&p2, 18, 40));
    solve_all(&mut s2, &list2);
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.bench_function("2x2x2: 20 positions, all optimal solutions", |b| {
        b.iter(|| solve_all(&mut s2, &list2))
    });
    let p3 = load(CUBE3_RU);
    let mut s3 = Solver::new(&p3, Tables::new(TableCache::in_memory(), 1 << 30));
    let list3 = vec![
        alg(&p3, "R U R' U R U2 R'"),
        alg(&p3, "R U2 R' U' R U' R'"),
        alg(&p3, "R U R' U' R' U2 R U R U' R2 U2"),
        alg(&p3, "R2 U R U R' U' R' U' R' U R'"),
        alg(&p3, "R U R2 U' R' U2 R U R' U' R2 U R U2"),
    ];
    solve_all(&mut s3, &list3);
    group.bench_function("3x3x3 <R,U>: 5 positions, all optimal solutions", |b| {
        b.iter(|| solve_all(&mut s3, &list3))
    });
    group.finish();
}

criterion_group!(solve, benches);
criterion_main!(solve);
