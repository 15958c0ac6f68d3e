//! `ksolve solve PUZZLE.def SCRAMBLES.txt` (and ksolve+'s `ksolve PUZZLE.def
//! SCRAMBLES.txt`): solves every scramble in order and prints what ksolve+ prints, or
//! one JSON object per scramble with `--json`.

use super::progress::Bars;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::def::{format_state, load_scrambles, parse_puzzle};
use ksolve::memory::{default_budget, parse_size};
use ksolve::progress::Progress;
use ksolve::puzzle::{IgnoreMask, MoveId, Puzzle, ScrambleSource};
use ksolve::rng::Rng;
use ksolve::search::{random::random_state, SolveOptions, Solver, Status};
use ksolve::table::cache::TableCache;
use ksolve::table::file::{cache_dir, content_hash};
use ksolve::table::Tables;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Solve every scramble of a scramble file optimally.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The puzzle definition (ksolve+ .def format).
    pub def: PathBuf,
    /// The scrambles to solve (ksolve+ scramble file format).
    pub scrambles: PathBuf,
    /// Stop after this many solutions per scramble.
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,
    /// Seed for RandomScramble, so that runs repeat.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Print one JSON object per scramble per line instead of ksolve+'s text.
    #[arg(long)]
    pub json: bool,
    /// Memory budget for pruning tables, such as 512M or 8G (default: a quarter of RAM).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub memory: Option<u64>,
    /// Folder for cached tables (default: ./tables when it exists, else the user's
    /// cache folder).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Build tables in memory only; read and write no table files.
    #[arg(long)]
    pub no_cache: bool,
    /// Show no progress (warnings are still printed).
    #[arg(long, short)]
    pub quiet: bool,
}

/// One scramble's result for `--json`.
#[derive(serde::Serialize)]
struct JsonResult<'a> {
    name: &'a str,
    status: &'static str,
    length: Option<u32>,
    solutions: Vec<String>,
    metric: &'static str,
    seconds: f64,
    nodes: u64,
}

/// A solution as ksolve+ prints it: two spaces, then the moves; the empty solution is a
/// single space.
fn solution_line(puzzle: &Puzzle, seq: &[MoveId]) -> String {
    if seq.is_empty() {
        " ".to_string()
    } else {
        format!("  {}", puzzle.format_sequence(seq))
    }
}

pub fn run(args: SolveArgs) -> anyhow::Result<u8> {
    let bars = Bars::new(args.quiet);
    let def_name = args.def.display().to_string();
    let bytes = std::fs::read(&args.def).with_context(|| format!("cannot read {def_name}"))?;
    let (puzzle, warnings) = parse_puzzle(&bytes, &def_name)?;
    for w in &warnings {
        bars.warn(&w.to_string());
    }
    let scrambles = load_scrambles(&args.scrambles, &puzzle)?;
    let cache = TableCache {
        dir: (!args.no_cache).then(|| cache_dir(args.tables.as_deref())),
        stem: args
            .def
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "puzzle".into()),
        def_hash: content_hash(&bytes),
    };
    let budget = args.memory.unwrap_or_else(default_budget);
    let mut solver = Solver::new(&puzzle, Tables::new(cache, budget));
    let mut rng = args.seed.map_or_else(Rng::from_entropy, Rng::new);
    let options = SolveOptions { count: args.count };
    let stdout = std::io::stdout();
    let mut code = EXIT_OK;
    for scramble in &scrambles {
        let timer = Instant::now();
        let mut out = stdout.lock();
        if !args.json {
            writeln!(out, "Solving {}", scramble.name)?;
        }
        let (start, ignore): (_, Vec<IgnoreMask>) = match &scramble.source {
            ScrambleSource::Position(t) => (t.state.clone(), t.ignore.clone()),
            ScrambleSource::Alg(moves) => (puzzle.apply_sequence(&puzzle.solved, moves), vec![]),
            ScrambleSource::Random => (random_state(&puzzle, &mut rng), vec![]),
        };
        if !puzzle.blocks.is_empty() && ignore.iter().any(|m| m.perm.iter().any(|&b| b)) {
            // ksolve+ warns here too: which moves are legal depends on where the
            // bandaged pieces are, and `?` leaves that to hints.
            bars.warn(&format!(
                "{}: the puzzle has blocks but the scramble has `?` permutations; blocks are \
                 checked on the position with `?N` hints applied and bare `?` filled in order",
                scramble.name
            ));
        }
        if !args.json && !matches!(scramble.source, ScrambleSource::Position(_)) {
            write!(out, "Scramble position:\n{}", format_state(&puzzle, &start))?;
        }
        out.flush()?;
        let json = args.json;
        let outcome = solver.solve(
            &start,
            &ignore,
            &scramble.settings,
            options,
            &bars,
            |_, found| {
                if !json {
                    let mut out = stdout.lock();
                    for s in found {
                        let _ = writeln!(out, "{}", solution_line(&puzzle, s));
                    }
                    let _ = out.flush();
                }
            },
        )?;
        if outcome.status != Status::Solved {
            code = EXIT_NO_SOLUTION;
        }
        if json {
            let result = JsonResult {
                name: &scramble.name,
                status: if outcome.status == Status::Solved {
                    "solved"
                } else {
                    "no_solution"
                },
                length: outcome.length,
                solutions: outcome
                    .solutions
                    .iter()
                    .map(|s| puzzle.format_sequence(s))
                    .collect(),
                metric: scramble.settings.metric.name(),
                seconds: timer.elapsed().as_secs_f64(),
                nodes: outcome.nodes,
            };
            writeln!(out, "{}", serde_json::to_string(&result)?)?;
        } else {
            match outcome.status {
                Status::Solved => {}
                Status::MaxDepth => writeln!(out, "Max depth reached, aborting.")?,
                Status::Unreachable => {
                    writeln!(out, "No solution: the position cannot be solved.")?
                }
            }
            writeln!(out)?;
        }
        out.flush()?;
    }
    Ok(code)
}
