//! `ksolve scramble DEF`: random-state scrambles. Each is the inverse of a short
//! solution of a position drawn uniformly among those the moves reach (through the
//! group's stabiliser chain of the searched moves); the solution comes from the chain
//! of `solve --fast` (on the 4x4x4, 5x5x5 and Megaminx its table of words, so those
//! scrambles run to hundreds of moves) or, where the puzzle has no chain but few
//! positions, from the optimal search. On puzzles with blocks or guarded moves no uniform draw is known: the
//! position is the end of a long random walk of legal moves, and the output says so.
//! Where no short solution can be found (no chain, too many positions, or a goal that
//! is a set of positions, from which no one start is the solved state) the scramble is
//! the walk itself, simplified, and the output says that too.

use super::fast::chain_solver;
use super::output;
use super::progress::Bars;
use super::table_args::TableArgs;
use super::EXIT_OK;
use ksolve::alg::{inverse_sequence, simplify};
use ksolve::chain::{coset_limit, Effort, Subgroup};
use ksolve::group::BigUint;
use ksolve::progress::{Progress, Silent};
use ksolve::puzzle::{MoveId, SolveSettings};
use ksolve::rng::Rng;
use ksolve::search::{random, SolveOptions};
use ksolve::solve::{Answerer, Origin, Position};
use ksolve::table::Tables;
use std::io::Write;
use std::path::PathBuf;

/// Print random-state scrambles.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve scramble puzzles/3x3x3_wca.def             one random-state scramble
  ksolve scramble puzzles/2x2x2.def -n 5 --seed 1   five, the same every time
  ksolve scramble puzzles/3x3x3.def -n 3 --json     one JSON object per scramble")]
pub struct ScrambleArgs {
    /// The puzzle definition.
    pub def: PathBuf,
    /// How many scrambles.
    #[arg(short = 'n', long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
    /// Seed for the random positions, so that runs repeat.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Print one JSON object per scramble.
    #[arg(long)]
    pub json: bool,
    /// Where tables are kept and how much memory they may take.
    #[command(flatten)]
    pub table: TableArgs,
    /// Show no progress on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: ScrambleArgs) -> anyhow::Result<u8> {
    let bars = Bars::new(args.quiet);
    let (puzzle, bytes, _) = super::input::definition(&args.def, &bars)?;
    let budget = args.table.budget();
    let mut rng = args.seed.map_or_else(Rng::from_entropy, Rng::new);
    // Draws come from the group the searched moves generate (on the WCA cube, face turns
    // only: rotations would turn the centres no search undoes).
    let group = Subgroup::searched(&puzzle).group(&puzzle);
    let uniform = group.as_ref().is_some_and(|g| g.exact()) && !puzzle.has_guards();
    if !uniform {
        bars.warn(&format!(
            "{}: no uniform draw is known for a puzzle with blocks or guarded moves; each \
             position is the end of a random walk of {} legal moves",
            args.def.display(),
            random::WALK_STEPS
        ));
    }
    // The chain when there is one, else the optimal search.
    let cache = args.table.cache(&args.def, &puzzle, &bytes, &bars);
    let chain = ksolve::chain::find_cached(&puzzle, &coset_limit(budget), &cache, &bars).ok();
    let mut fast = chain.as_ref().map(|chain| {
        chain_solver(
            &args.table,
            &args.def,
            &puzzle,
            &bytes,
            chain,
            budget,
            &bars,
        )
    });
    // Without a chain the optimal search answers puzzles with few positions; others get
    // the walk itself.
    let small = group
        .as_ref()
        .is_some_and(|g| *g.order() <= BigUint::from(OPTIMAL_UP_TO));
    let walk_only = fast.is_none() && (!small || puzzle.goal_is_set());
    let mut answerer = match fast.is_none() && !walk_only {
        false => None,
        true => Some(Answerer::new(
            &puzzle,
            Tables::new(args.table.cache(&args.def, &puzzle, &bytes, &bars), budget),
        )),
    };
    if walk_only {
        bars.warn(&format!(
            "{}: no chain was found and the puzzle is too large to solve optimally (or its \
             goal is a set of positions): each scramble is the random walk itself, simplified",
            args.def.display()
        ));
    }
    let settings = SolveSettings::for_puzzle(&puzzle);
    // A walk uses the moves searches use (face turns on the WCA cubes, no rotations).
    let searched: Vec<bool> = match settings.allowed_moves(&puzzle) {
        Some(allowed) => {
            let mut keep = vec![false; puzzle.moves.len()];
            for m in allowed {
                keep[m.index()] = true;
            }
            keep
        }
        None => Vec::new(),
    };
    let forward = puzzle.base_moves.iter().any(|b| b.directed)
        && group.as_ref().is_some_and(|g| g.distinct_pieces());
    let mut out = output::stdout();
    for i in 0..args.count {
        if walk_only {
            let walk = random::random_walk_moves(&puzzle, &mut rng, random::WALK_STEPS, &searched);
            let scramble = simplify(&puzzle, &walk);
            print(
                &mut out,
                &args,
                i,
                &puzzle.format_sequence(&scramble),
                scramble.len(),
                false,
            )?;
            continue;
        }
        let state = match (uniform, &group) {
            (true, Some(g)) => g.random_state(&mut rng),
            _ => None,
        }
        .unwrap_or_else(|| random::random_state(&puzzle, &mut rng));
        let mut solution: Option<Vec<MoveId>> = None;
        if let Some(fast) = fast.as_mut() {
            // A try of a longer chain searches more phases (the 4x4x4's five took
            // 17 s a scramble at 40 tries): a quarter of the tries for each phase past
            // two, which keeps the output a function of the seed, as a time limit
            // would not.
            let phases = chain.as_ref().map_or(2, |c| c.phases.len()).max(2);
            let effort = Effort {
                tries: Some((SCRAMBLE_TRIES >> (2 * (phases - 2)).min(8)).max(1)),
                ..Effort::default()
            };
            let mut last = None;
            fast.solve(&state, &effort, &mut |s| last = Some(s.to_vec()))?;
            solution = last;
        } else if let Some(answerer) = answerer.as_mut() {
            let position = Position {
                start: &state,
                ignore: &[],
                origin: Origin::Made,
                impossible: None,
            };
            let options = SolveOptions {
                count: Some(1),
                ..SolveOptions::default()
            };
            answerer.answer(&position, &settings, options, &Silent, &mut |_, s| {
                if solution.is_none() {
                    solution = Some(s.to_vec());
                }
            })?;
        }
        let Some(solution) = solution else {
            anyhow::bail!("internal error: a position drawn from the group has no solution");
        };
        // A solution s of Y makes Y^-1 from solved, which is as uniform as Y: where
        // moves have no inverses (directed ones, written as repeats) and pieces are
        // distinct, s itself is the scramble; elsewhere its inverse is.
        let scramble = match forward {
            true => solution.clone(),
            false => inverse_sequence(&puzzle, &solution),
        };
        // The solution is replayed on the drawn position.
        if !puzzle.is_solved(&puzzle.apply_sequence(&state, &solution), &[]) {
            anyhow::bail!("internal error: the solution found does not solve the drawn position");
        }
        let text = puzzle.format_sequence(&scramble);
        print(&mut out, &args, i, &text, scramble.len(), uniform)?;
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// First-phase solutions tried per scramble along a chain of two phases (a quarter as many
/// for each further phase): a scramble need not be the shortest.
const SCRAMBLE_TRIES: u64 = 40;

/// Puzzles with at most this many positions and no chain are solved optimally.
const OPTIMAL_UP_TO: u64 = 10_000_000_000;

/// One scramble, as text or JSON.
fn print(
    out: &mut dyn Write,
    args: &ScrambleArgs,
    index: u64,
    text: &str,
    length: usize,
    uniform: bool,
) -> std::io::Result<()> {
    if args.json {
        let record = serde_json::json!({
            "index": index,
            "scramble": text,
            "length": length,
            "uniform": uniform,
        });
        writeln!(out, "{record}")
    } else {
        writeln!(out, "{text}")
    }
}
