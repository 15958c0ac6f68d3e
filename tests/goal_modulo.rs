//! Goals that know orientations only modulo a divisor (`?` and `O%M` in a `Solved`
//! orientation row, a KPuzzle `orientationMod` that differs within an orbit), checked
//! against a breadth-first search written here.
//!
//! Random small definitions (a set of 3 to 5 pieces with 4 or 6 orientations, so that
//! proper divisors exist, and sometimes a second set of 2 orientations; 2 to 3 random
//! moves; a random solved twist; a random modulus per position) are read by the real
//! parser. The reference applies the moves from this file's own reading of the text (a
//! move's twist goes to the piece that leaves a position) and lists every position
//! that can reach the goal by breadth-first search from all of the goal's positions at
//! once. Compared per definition: God's table (`god`, which starts from every goal
//! position), optimal lengths of sampled positions with the goal the settings put in
//! force and with settings that name none, that every solution ends in the goal, and
//! that the definition and its KPuzzle export read back to the same puzzle.

use ksolve::def::{parse_puzzle, write_def};
use ksolve::gods::{self, GodOptions, Method};
use ksolve::kpuzzle::{read_definition, write_definition};
use ksolve::progress::Silent;
use ksolve::puzzle::{SetState, SolveSettings, State};
use ksolve::search::{SolveOptions, Solver, Status};
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use std::collections::{HashMap, VecDeque};
use std::fmt::Write as _;

/// SplitMix64, the test's own generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One set as the test drew it.
struct SetSpec {
    size: usize,
    ori: u8,
    solved_ori: Vec<u8>,
    /// Per position, the modulus the goal knows the orientation by (`ori` when exact).
    mods: Vec<u8>,
}

/// A move in the file's form: per set, where each position's piece comes from and the
/// twist given to the piece that leaves each position.
struct MoveSpec {
    from: Vec<Vec<usize>>,
    twist: Vec<Vec<u8>>,
}

/// A position: per set, labels then twists.
type Pos = Vec<Vec<(u16, u8)>>;

fn generate(seed: u64) -> (Vec<SetSpec>, Vec<MoveSpec>, String) {
    let mut rng = Rng(seed);
    let mut sets = vec![];
    // The first set has at most 4 pieces of 6 orientations or 5 of 4 (31,104 or
    // 122,880 positions); the second, of 48, joins only a first set of at most 6,144,
    // so that the test's own search stays quick.
    let ori = [4u8, 6][rng.below(2)];
    let size = 3 + rng.below(if ori == 6 { 2 } else { 3 });
    let first = (1..=size).product::<usize>() * (ori as usize).pow(size as u32);
    let count = if first <= 6_144 { 1 + rng.below(2) } else { 1 };
    for k in 0..count {
        let (size, ori) = match k {
            0 => (size, ori),
            _ => (3, 2),
        };
        let divisors: Vec<u8> = (1..=ori).filter(|d| ori % d == 0).collect();
        let mut mods: Vec<u8> = (0..size)
            .map(|_| divisors[rng.below(divisors.len())])
            .collect();
        // At least one position known modulo a proper divisor, so the goal is a set.
        if k == 0 {
            mods[rng.below(size)] = 2;
        }
        sets.push(SetSpec {
            size,
            ori,
            solved_ori: (0..size).map(|_| rng.below(ori as usize) as u8).collect(),
            mods,
        });
    }
    let moves: Vec<MoveSpec> = (0..2 + rng.below(2))
        .map(|_| {
            let mut from = vec![];
            let mut twist = vec![];
            for s in &sets {
                let mut p: Vec<usize> = (0..s.size).collect();
                for i in (1..s.size).rev() {
                    p.swap(i, rng.below(i + 1));
                }
                from.push(p);
                twist.push(
                    (0..s.size)
                        .map(|_| rng.below(s.ori as usize) as u8)
                        .collect(),
                );
            }
            MoveSpec { from, twist }
        })
        .collect();
    let mut t = String::from("Name modulo\n");
    for (k, s) in sets.iter().enumerate() {
        let _ = writeln!(t, "Set S{k} {} {}", s.size, s.ori);
    }
    t.push_str("Solved\n");
    for (k, s) in sets.iter().enumerate() {
        let perm: Vec<String> = (1..=s.size).map(|l| l.to_string()).collect();
        let ori: Vec<String> = (0..s.size)
            .map(|i| match s.mods[i] {
                1 => "?".to_string(),
                m if m == s.ori => s.solved_ori[i].to_string(),
                m => format!("{}%{m}", s.solved_ori[i]),
            })
            .collect();
        let _ = writeln!(t, "S{k}\n{}\n{}", perm.join(" "), ori.join(" "));
    }
    t.push_str("End\n");
    for (j, m) in moves.iter().enumerate() {
        let _ = writeln!(t, "Move M{j}");
        for k in 0..sets.len() {
            let perm: Vec<String> = m.from[k].iter().map(|p| (p + 1).to_string()).collect();
            let tw: Vec<String> = m.twist[k].iter().map(u8::to_string).collect();
            let _ = writeln!(t, "S{k}\n{}\n{}", perm.join(" "), tw.join(" "));
        }
        t.push_str("End\n");
    }
    (sets, moves, t)
}

fn apply(sets: &[SetSpec], p: &Pos, m: &MoveSpec) -> Pos {
    (0..sets.len())
        .map(|k| {
            (0..sets[k].size)
                .map(|i| {
                    let j = m.from[k][i];
                    let (l, o) = p[k][j];
                    (l, (o + m.twist[k][j]) % sets[k].ori)
                })
                .collect()
        })
        .collect()
}

/// Every goal position: the solved labels with each twist agreeing with the solved
/// one modulo its position's modulus.
fn goal_positions(sets: &[SetSpec]) -> Vec<Pos> {
    let mut out: Vec<Pos> = vec![sets.iter().map(|_| Vec::new()).collect()];
    for (k, s) in sets.iter().enumerate() {
        for i in 0..s.size {
            let mut next = Vec::new();
            for p in &out {
                for o in 0..s.ori {
                    if o % s.mods[i] == s.solved_ori[i] % s.mods[i] {
                        let mut q = p.clone();
                        q[k].push((i as u16, o));
                        next.push(q);
                    }
                }
            }
            out = next;
        }
    }
    out
}

fn is_goal(sets: &[SetSpec], p: &Pos) -> bool {
    sets.iter().enumerate().all(|(k, s)| {
        (0..s.size).all(|i| {
            let (l, o) = p[k][i];
            l as usize == i && o % s.mods[i] == s.solved_ori[i] % s.mods[i]
        })
    })
}

/// Distances to the goal of every position that can reach it, by breadth-first search
/// from every goal position, over every power of every move (the powers include each
/// move's inverse, so distances to and from the goal agree).
fn distances(sets: &[SetSpec], moves: &[MoveSpec]) -> HashMap<Pos, u32> {
    let mut dist: HashMap<Pos, u32> = HashMap::new();
    let mut queue = VecDeque::new();
    for g in goal_positions(sets) {
        dist.insert(g.clone(), 0);
        queue.push_back(g);
    }
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        for m in moves {
            let mut q = apply(sets, &p, m);
            while q != p {
                if !dist.contains_key(&q) {
                    dist.insert(q.clone(), d + 1);
                    queue.push_back(q.clone());
                }
                q = apply(sets, &q, m);
            }
        }
    }
    dist
}

fn to_state(p: &Pos) -> State {
    State {
        sets: p
            .iter()
            .map(|s| SetState {
                perm: s.iter().map(|&(l, _)| l).collect(),
                ori: s.iter().map(|&(_, o)| o).collect(),
            })
            .collect(),
    }
}

fn from_state(s: &State) -> Pos {
    s.sets
        .iter()
        .map(|s| s.perm.iter().copied().zip(s.ori.iter().copied()).collect())
        .collect()
}

fn check_one(seed: u64) -> usize {
    let (sets, moves, text) = generate(seed);
    let (p, _) = parse_puzzle(text.as_bytes(), "modulo.def")
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    assert!(p.goal_is_set(), "seed {seed}");
    let dist = distances(&sets, &moves);
    let ctx = format!("seed {seed}:\n{text}");

    // Both readers give back the same puzzle.
    let back = parse_puzzle(write_def(&p).as_bytes(), "back.def")
        .unwrap()
        .0;
    assert_eq!(back, p, "{ctx}: the written definition");
    let json = write_definition(&p).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let kp = read_definition(json.json.as_bytes(), "back.kpuzzle.json")
        .unwrap()
        .0;
    assert_eq!(kp, p, "{ctx}: the KPuzzle export");

    // God's table counts the positions that can reach the goal, by distance.
    let max = dist.values().copied().max().unwrap();
    let mut want = vec![0u64; max as usize + 1];
    for &d in dist.values() {
        want[d as usize] += 1;
    }
    let opts = GodOptions {
        memory: 1 << 28,
        method: Method::Auto,
        ..GodOptions::default()
    };
    let table = gods::compute(&p, &opts, &Silent, &|_, _| {}).unwrap();
    assert_eq!(table.counts, want, "{ctx}: god");

    // Optimal lengths, with the goal the settings put in force and with none named.
    let mut all: Vec<(&Pos, &u32)> = dist.iter().collect();
    all.sort();
    let step = (all.len() / 25).max(1);
    let mut solver = Solver::new(&p, Tables::new(TableCache::in_memory(), 1 << 27));
    let named = SolveSettings::for_puzzle(&p);
    assert!(named.goal.is_some(), "{ctx}");
    let none = SolveSettings::default();
    let mut solved = 0;
    for &(start, &d) in all.iter().step_by(step) {
        let state = to_state(start);
        for settings in [&named, &none] {
            let o = solver
                .solve(
                    &state,
                    &[],
                    settings,
                    SolveOptions::default(),
                    &Silent,
                    |_, _| {},
                )
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert_eq!(o.status, Status::Solved, "{ctx}: {start:?}");
            assert_eq!(o.length, Some(d), "{ctx}: {start:?}");
            for sol in &o.solutions {
                let end = from_state(&p.apply_sequence(&state, sol));
                assert!(is_goal(&sets, &end), "{ctx}: {start:?} ends at {end:?}");
            }
        }
        assert_eq!(p.is_solved(&state, &[]), d == 0, "{ctx}: {start:?}");
        solved += 1;
    }
    solved
}

#[test]
fn goals_known_modulo_a_divisor_match_a_breadth_first_search() {
    let mut solved = 0;
    for seed in 0..40 {
        solved += check_one(seed);
    }
    assert!(solved > 500, "{solved}");
}

#[test]
fn a_modulus_that_does_not_divide_the_orientations_is_refused_where_it_stands() {
    let text = "Set P 3 4\nSolved\nP\n1 2 3\n0 1%3 0\nEnd\nMove A\nP\n2 3 1\n0 1 0\nEnd\n";
    let e = parse_puzzle(text.as_bytes(), "bad.def")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("bad.def:5:3:"), "{e}");
    assert!(
        e.contains("modulus 3 does not divide the 4 orientations"),
        "{e}"
    );
    let text = text.replace("1%3", "4%2");
    let e = parse_puzzle(text.as_bytes(), "bad.def")
        .unwrap_err()
        .to_string();
    assert!(e.contains("orientation 4 is not one of set `P`'s"), "{e}");
    // Eight twists of six known modulo 2 make 3^8 = 6,561 goal positions.
    let many = format!(
        "Set P 8 6\nSolved\nP\n1 2 3 4 5 6 7 8\n{}\nEnd\nMove A\nP\n2 3 4 5 6 7 8 1\n1 0 0 0 0 0 0 0\nEnd\n",
        ["1%2"; 8].join(" ")
    );
    let e = parse_puzzle(many.as_bytes(), "many.def")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("many.def:2:1:"), "{e}");
    assert!(e.contains("more than 4096 goal positions"), "{e}");
    // Free twists make none.
    let free = many.replace("1%2 1%2", "? ?");
    assert!(parse_puzzle(free.as_bytes(), "free.def").is_ok());
}
