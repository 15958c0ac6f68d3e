//! `ksolve check PUZZLE.def [SCRAMBLES.txt] [--json]`: validates a definition (and a
//! scramble file against it) and prints what was understood, so that a user can see how
//! ksolve reads their files before solving anything.

use super::EXIT_OK;
use ksolve::def::{load_puzzle, load_scrambles};
use ksolve::puzzle::{LimitKey, Puzzle, Scramble, ScrambleSource};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `ksolve check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The puzzle definition file (ksolve+ `.def` format).
    pub def: PathBuf,
    /// A scramble file to validate against the puzzle.
    pub scrambles: Option<PathBuf>,
    /// Also print the summary as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct SetSummary {
    name: String,
    size: usize,
    orientations: u8,
    /// Arrangements ignoring every constraint; an upper bound on reachable states.
    upper_bound: u128,
    interchangeable: bool,
}

#[derive(Serialize)]
struct MoveSummary {
    name: String,
    order: u32,
    directed: bool,
    moves: Vec<String>,
}

#[derive(Serialize)]
struct IgnoreSummary {
    set: String,
    /// 1-based positions whose permutation scrambles may ignore.
    perm: Vec<usize>,
    /// 1-based positions whose orientation scrambles may ignore.
    ori: Vec<usize>,
}

#[derive(Serialize)]
struct LimitSummary {
    /// A move name, or a base name followed by `*` for the move and all its powers.
    moves: String,
    max: u32,
}

#[derive(Serialize)]
struct ScrambleSummary {
    name: String,
    line: usize,
    kind: &'static str,
    /// The number of moves of a `ScrambleAlg`.
    alg_moves: Option<usize>,
    ignores: bool,
    metric: &'static str,
    max_depth: u32,
    slack: u32,
    limits: Vec<LimitSummary>,
}

#[derive(Serialize)]
struct Summary {
    file: String,
    name: Option<String>,
    sets: Vec<SetSummary>,
    base_moves: Vec<MoveSummary>,
    move_count: usize,
    commuting_pairs: Vec<[String; 2]>,
    forbidden_pairs: usize,
    /// Per block, its pieces as `SET:PIECE` (1-based).
    blocks: Vec<Vec<String>>,
    ignores: Vec<IgnoreSummary>,
    warnings: usize,
    scramble_file: Option<String>,
    scrambles: Vec<ScrambleSummary>,
}

fn positions(mask: &[bool]) -> Vec<usize> {
    mask.iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i + 1)
        .collect()
}

fn list(v: &[usize]) -> String {
    v.iter().map(usize::to_string).collect::<Vec<_>>().join(" ")
}

fn summarize_puzzle(p: &Puzzle, file: String, warnings: usize) -> Summary {
    let sets = p
        .sets
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let perm = &p.solved.sets[k].perm;
            let mut labels = perm.clone();
            labels.sort_unstable();
            labels.dedup();
            SetSummary {
                name: s.name.clone(),
                size: s.size,
                orientations: s.orientations,
                upper_bound: p.set_upper_bound(k),
                interchangeable: labels.len() < perm.len(),
            }
        })
        .collect();
    let base_moves = p
        .base_moves
        .iter()
        .map(|b| MoveSummary {
            name: b.name.clone(),
            order: b.order,
            directed: b.directed,
            moves: b.powers.iter().map(|&id| p.mv(id).name.clone()).collect(),
        })
        .collect();
    let commuting_pairs = p
        .commuting_pairs()
        .into_iter()
        .map(|(a, b)| [p.base_moves[a].name.clone(), p.base_moves[b].name.clone()])
        .collect();
    let blocks = p
        .blocks
        .iter()
        .map(|b| {
            b.pieces
                .iter()
                .map(|&(k, l)| format!("{}:{}", p.sets[k].name, l + 1))
                .collect()
        })
        .collect();
    let ignores = p
        .sets
        .iter()
        .zip(&p.ignore)
        .map(|(s, m)| IgnoreSummary {
            set: s.name.clone(),
            perm: positions(&m.perm),
            ori: positions(&m.ori),
        })
        .filter(|i| !i.perm.is_empty() || !i.ori.is_empty())
        .collect();
    Summary {
        file,
        name: p.name.clone(),
        sets,
        base_moves,
        move_count: p.moves.len(),
        commuting_pairs,
        forbidden_pairs: p.forbidden.iter().filter(|&&f| f).count(),
        blocks,
        ignores,
        warnings,
        scramble_file: None,
        scrambles: Vec::new(),
    }
}

fn summarize_scramble(p: &Puzzle, s: &Scramble) -> ScrambleSummary {
    let (kind, alg_moves, ignores) = match &s.source {
        ScrambleSource::Position(t) => ("position", None, t.has_ignores()),
        ScrambleSource::Alg(seq) => ("alg", Some(seq.len()), false),
        ScrambleSource::Random => ("random", None, false),
    };
    let limits = s
        .settings
        .limits
        .iter()
        .map(|l| LimitSummary {
            moves: match l.key {
                LimitKey::Move(id) => p.mv(id).name.clone(),
                LimitKey::Family(b) => format!("{}*", p.base_moves[b].name),
            },
            max: l.max,
        })
        .collect();
    ScrambleSummary {
        name: s.name.clone(),
        line: s.line,
        kind,
        alg_moves,
        ignores,
        metric: s.settings.metric.name(),
        max_depth: s.settings.max_depth,
        slack: s.settings.slack,
        limits,
    }
}

/// Thousands separators, for the big state counts.
fn grouped(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn print_summary(s: &Summary) {
    println!(
        "puzzle: {} ({})",
        s.name.as_deref().unwrap_or("(no Name)"),
        s.file
    );
    println!("sets: {}", s.sets.len());
    let width = s.sets.iter().map(|x| x.name.len()).max().unwrap_or(0);
    for set in &s.sets {
        let bound = if set.upper_bound == u128::MAX {
            "more than 10^38".to_string()
        } else {
            grouped(set.upper_bound)
        };
        println!(
            "  {:width$}  {} piece{}, {} orientation{}{}, at most {bound} states",
            set.name,
            set.size,
            if set.size == 1 { "" } else { "s" },
            set.orientations,
            if set.orientations == 1 { "" } else { "s" },
            if set.interchangeable {
                ", interchangeable pieces"
            } else {
                ""
            },
        );
    }
    println!(
        "moves: {} base, {} with powers",
        s.base_moves.len(),
        s.move_count
    );
    let width = s.base_moves.iter().map(|x| x.name.len()).max().unwrap_or(0);
    for m in &s.base_moves {
        let dir = if m.directed { ", directed" } else { "" };
        println!(
            "  {:width$}  order {}{dir}: {}",
            m.name,
            m.order,
            m.moves.join(" ")
        );
    }
    if s.commuting_pairs.is_empty() {
        println!("commuting pairs: none");
    } else {
        let pairs: Vec<String> = s
            .commuting_pairs
            .iter()
            .map(|[a, b]| format!("{a}-{b}"))
            .collect();
        println!("commuting pairs: {} ({})", pairs.len(), pairs.join(" "));
    }
    println!("forbidden pairs: {}", s.forbidden_pairs);
    println!("blocks: {}", s.blocks.len());
    for b in &s.blocks {
        println!("  {}", b.join(" "));
    }
    if s.ignores.is_empty() {
        println!("ignores: none");
    } else {
        println!("ignores:");
        for i in &s.ignores {
            println!(
                "  {}: permutation at [{}], orientation at [{}]",
                i.set,
                list(&i.perm),
                list(&i.ori)
            );
        }
    }
    if let Some(file) = &s.scramble_file {
        println!("scrambles: {} ({file})", s.scrambles.len());
        for x in &s.scrambles {
            let what = match (x.kind, x.alg_moves) {
                ("alg", Some(n)) => format!("alg of {n} move{}", if n == 1 { "" } else { "s" }),
                ("position", _) if x.ignores => "position with ignored parts".to_string(),
                (k, _) => k.to_string(),
            };
            let limits = if x.limits.is_empty() {
                String::new()
            } else {
                let l: Vec<String> = x
                    .limits
                    .iter()
                    .map(|l| format!("{} {}", l.moves, l.max))
                    .collect();
                format!(", limits {}", l.join(", "))
            };
            println!(
                "  {} (line {}): {what}; {}, max depth {}, slack {}{limits}",
                x.name, x.line, x.metric, x.max_depth, x.slack
            );
        }
    }
}

/// Runs `ksolve check`.
pub fn run(args: CheckArgs) -> anyhow::Result<u8> {
    let (puzzle, warnings) = load_puzzle(&args.def)?;
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    let mut summary = summarize_puzzle(&puzzle, args.def.display().to_string(), warnings.len());
    if let Some(path) = &args.scrambles {
        let scrambles = load_scrambles(path, &puzzle)?;
        summary.scramble_file = Some(path.display().to_string());
        summary.scrambles = scrambles
            .iter()
            .map(|s| summarize_scramble(&puzzle, s))
            .collect();
    }
    print_summary(&summary);
    if args.json {
        println!("{}", serde_json::to_string(&summary)?);
    }
    Ok(EXIT_OK)
}
