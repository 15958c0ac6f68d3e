//! `ksolve solve --fast`: short solutions phase by phase along a subgroup chain (see
//! `ksolve::chain`), for positions an optimal search cannot reach in reasonable time.
//! Each scramble's answers are printed as they improve; `--time` keeps improving until
//! a time limit, `--max-length` stops at a length.

use super::output;
use super::progress::Bars;
use super::solve::SolveArgs;
use super::table_args::TableArgs;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::chain::{coset_limit, Chain, Effort, Fast};
use ksolve::progress::{format_duration, Progress};
use ksolve::puzzle::{Goal, Metric, MoveId, Puzzle, Relabel, Scramble, ScrambleSource, State};
use ksolve::rng::Rng;
use ksolve::search::Solver;
use ksolve::solve::{Reachability, Starts};
use ksolve::storage::cache::TableCache;
use ksolve::table::plan::PlannedTable;
use ksolve::table::Tables;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The flags of `solve --fast`.
#[derive(Debug, clap::Args)]
pub struct FastArgs {
    /// Solve phase by phase along a chain of subgroups (`ksolve chain DEF` shows it)
    /// instead of optimally: short solutions in a fraction of a second where an optimal
    /// search would take minutes or never end. Each shorter answer is printed as found.
    /// A goal is reached when it is one position given in full; the phases choose
    /// their moves from those --moves (or `F* 0` limits) leave; MoveLimits that count
    /// moves, Slack, the quarter-turn metric and `?` are refused; MaxDepth does not
    /// bound the answers (--max-length stops at a length).
    #[arg(long, conflicts_with_all = ["database", "steps", "count", "sort_by", "metrics", "shard", "shards", "out"])]
    pub fast: bool,
    /// With --fast: keep improving each answer for this many seconds.
    #[arg(long, value_name = "SECONDS", requires = "fast", value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// With --fast: stop improving once an answer has at most N moves.
    #[arg(long, value_name = "N", requires = "fast")]
    pub max_length: Option<u32>,
    /// With --fast: the chain of subgroups to solve along, from a file (one subgroup per
    /// line, written as the moves that generate it), instead of the one found.
    #[arg(long, value_name = "FILE", requires = "fast")]
    pub chain: Option<PathBuf>,
}

/// A number of seconds above 0 (`--time`).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('s').parse::<f64>() {
        Ok(t) if t > 0.0 && t.is_finite() && t < 1e9 => Ok(t),
        _ => Err(format!(
            "`{s}` is not a number of seconds above 0, such as 10 or 0.5"
        )),
    }
}

/// The solver along `chain` for `puzzle` (the definition at `def`, whose bytes are
/// `bytes`): each phase's tables cached under the definition's key and the phase's, the
/// phases sharing `budget` equally. `solve --fast`, `chain` and `scramble` all build it
/// here, so that they find each other's tables.
pub fn chain_solver<'c>(
    table: &TableArgs,
    def: &Path,
    puzzle: &'c Puzzle,
    bytes: &[u8],
    chain: &'c Chain,
    budget: u64,
    progress: &dyn Progress,
) -> Fast<'c> {
    let share = budget / chain.phases.len().max(1) as u64;
    Fast::new(puzzle, chain, |phase| {
        let key = [bytes, &phase.key_bytes()].concat();
        Tables::new(table.cache(def, &phase.puzzle, &key, progress), share)
    })
}

/// The tables each phase of `chain` would choose when the phases share `budget` as
/// [`chain_solver`] shares it (planned, nothing built); `None` when one does not fit.
fn phase_plans(chain: &Chain, budget: u64) -> Option<Vec<Vec<PlannedTable>>> {
    let share = budget / chain.phases.len().max(1) as u64;
    chain
        .phases
        .iter()
        .map(|p| {
            let tables = Tables::new(TableCache::in_memory(), share);
            let view = Solver::new(&p.puzzle, tables)
                .plan(p.goal.is_some(), false)
                .ok()?;
            Some(view.report.chosen)
        })
        .collect()
}

/// First-phase solutions tried per position without `--time`: enough that a random
/// 3x3x3 comes out at about 21 moves, few enough to take a fraction of a second.
pub const DEFAULT_TRIES: u64 = 400;

/// The chain `--chain FILE` gives, or the one found from the definition.
pub fn chain_for(
    puzzle: &Puzzle,
    file: Option<&std::path::Path>,
    budget: u64,
    cache: &TableCache,
    progress: &dyn Progress,
) -> anyhow::Result<Chain> {
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the chain file {}", path.display()))?;
            Ok(Chain::read(puzzle, &text, &path.display().to_string())?)
        }
        None => Ok(ksolve::chain::find_cached(
            puzzle,
            &coset_limit(budget),
            cache,
            progress,
        )?),
    }
}

/// Solves `scrambles` of `puzzle` (read from `args.def`, whose bytes are `bytes`) along
/// a chain.
pub fn run(
    args: &SolveArgs,
    puzzle: &Puzzle,
    bytes: &[u8],
    scrambles: &[Scramble],
    bars: &Bars,
) -> anyhow::Result<u8> {
    // The chain chooses its moves from the base moves the scramble file's limits (or
    // --moves) leave whole, the definition's `SearchMoves` by default: the 4x4x4's
    // wide turns searched as moves of their own make every phase count in the outer
    // block turn metric. Limits that count moves are refused below.
    let searched = scrambles
        .first()
        .and_then(|s| puzzle.searched_under(&s.settings.limits));
    let narrowed = searched.clone().map(|searched| Puzzle {
        searched,
        ..puzzle.clone()
    });
    let puzzle = narrowed.as_ref().unwrap_or(puzzle);
    // Per scramble: its goal as one position with the renaming onto solved, if any.
    let mut goals: Vec<Option<(State, Relabel)>> = Vec::with_capacity(scrambles.len());
    for s in scrambles {
        let renaming = s.settings.goal.as_ref().map(|g| goal_renaming(puzzle, g));
        let unsupported = if matches!(renaming, Some(None)) {
            Some(
                "this goal (the chain reaches a goal by renaming pieces, so it takes a goal \
                 of one position, given in full, whose pieces are told apart as the \
                 solved state's are)",
            )
        } else if searched.is_none() || puzzle.searched_under(&s.settings.limits) != searched {
            Some(
                "MoveLimits that count moves, or limits that differ between scrambles (the \
                 chain chooses its moves phase by phase, from the moves a MoveLimits block \
                 of `F* 0` lines or --moves leaves)",
            )
        } else if s.settings.slack > 0 {
            Some("Slack (the chain gives one answer, improved)")
        } else if s.settings.metric != Metric::Htm {
            Some("the quarter-turn metric (the chain counts every move as 1)")
        } else if matches!(&s.source, ScrambleSource::Position(t) if t.ignore.iter().any(|m| m.any()))
        {
            Some("`?` in a position (the chain solves whole positions)")
        } else {
            None
        };
        if let Some(what) = unsupported {
            anyhow::bail!(
                "{}: --fast does not take {what}; solve without --fast",
                s.name
            );
        }
        goals.push(renaming.flatten());
    }
    let budget = args.table.budget();
    let fast_args = &args.fast;
    let chain = chain_for(
        puzzle,
        fast_args.chain.as_deref(),
        budget,
        &args.table.cache(&args.def, puzzle, bytes, bars),
        bars,
    )?;
    // With --time the optimal search may prove an answer optimal: it takes three
    // quarters of the budget, and the phases share the rest, where the phases plan the
    // same tables in their quarter as in the whole budget and the optimal search's
    // tables fit the rest (planned, nothing built). Where they do not (the 4x4x4's
    // pairing takes a larger table than a quarter holds, or a small --memory), no
    // optimal search would finish anyway, and the phases keep the whole budget.
    let quarter = budget / 4;
    let mut proving = None;
    if fast_args.time.is_some() && chain.phases.len() > 1 {
        let in_quarter = phase_plans(&chain, quarter);
        let fits = in_quarter.is_some()
            && in_quarter == phase_plans(&chain, budget)
            && Solver::new(
                puzzle,
                Tables::new(TableCache::in_memory(), budget - quarter),
            )
            .plan(false, false)
            .is_ok();
        if fits {
            let phases = chain_solver(&args.table, &args.def, puzzle, bytes, &chain, quarter, bars);
            let cache = args.table.cache(&args.def, puzzle, bytes, bars);
            proving = Some(phases.with_optimal(Tables::new(cache, budget - quarter)));
        }
    }
    let prove = proving.is_some();
    let mut fast = match proving {
        Some(fast) => fast,
        None => chain_solver(&args.table, &args.def, puzzle, bytes, &chain, budget, bars),
    };
    fast.prepare(bars)?;
    let mut rng = args.seed.map_or_else(Rng::from_entropy, Rng::new);
    let mut starts = Starts::new(puzzle, budget / 2);
    // Random positions are drawn through the group, uniformly.
    let mut reach = Reachability::new(puzzle);
    let mut code = EXIT_OK;
    for (scramble, goal) in scrambles.iter().zip(&goals) {
        let start = starts.start(scramble, &mut reach, &mut rng, bars);
        if let Some(why) = &start.impossible {
            anyhow::bail!("{}: {why}", scramble.name);
        }
        // A goal is reached by solving the start with its pieces renamed so that the
        // goal is the solved state (`Relabel`); answers are replayed on the start itself.
        let renamed = match goal {
            Some((_, r)) => r.apply(puzzle, &start.state),
            None => Some(start.state.clone()),
        };
        let Some(renamed) = renamed else {
            anyhow::bail!(
                "{}: the position holds pieces the goal has not, so it cannot reach the goal",
                scramble.name
            );
        };
        let began = Instant::now();
        let effort = Effort {
            deadline: fast_args.time.map(|t| began + Duration::from_secs_f64(t)),
            max_length: fast_args.max_length,
            tries: match fast_args.time {
                Some(_) => None,
                None => Some(DEFAULT_TRIES),
            },
            prove,
            min_tries: DEFAULT_TRIES,
        };
        if !args.json {
            output_line(format_args!("Solving {}", scramble.name))?;
        }
        let mut found: Vec<Vec<MoveId>> = Vec::new();
        let mut failed: Option<String> = None;
        let mut unwritten: Option<std::io::Error> = None;
        let json = args.json;
        let outcome = fast.solve(&renamed, &effort, &mut |sol| {
            // Every answer is replayed before it is printed.
            let end = puzzle.apply_sequence(&start.state, sol);
            let reached = match goal {
                Some((target, _)) => end == *target,
                None => puzzle.is_solved(&end, &start.ignore),
            };
            if !reached {
                failed.get_or_insert_with(|| puzzle.format_sequence(sol));
                return;
            }
            if !json {
                let line = format!("  {}  ({} moves)", puzzle.format_sequence(sol), sol.len());
                if let Err(e) = output_line(format_args!("{line}")) {
                    unwritten.get_or_insert(e);
                }
            }
            found.push(sol.to_vec());
        })?;
        // A closed or full standard output ends the run (quietly, when its reader left).
        if let Some(e) = unwritten {
            return Err(e.into());
        }
        if let Some(what) = failed {
            anyhow::bail!(
                "{}: internal error: the answer {what} does not solve the position",
                scramble.name
            );
        }
        let took = began.elapsed();
        let length = found.last().map(Vec::len);
        if length.is_none() {
            code = EXIT_NO_SOLUTION;
        }
        if json {
            let record = serde_json::json!({
                "name": scramble.name,
                "solutions": found.iter().map(|s| puzzle.format_sequence(s)).collect::<Vec<_>>(),
                "status": if length.is_some() { "solved" } else { "unreachable" },
                "length": length,
                "method": "chain",
                "phases": chain.phases.len() + usize::from(chain.words.is_some()),
                "words": chain.words.is_some(),
                "phase_lengths": outcome.phase_lengths,
                "tried": outcome.tried,
                "exhausted": outcome.exhausted,
                "optimal": outcome.optimal,
                "nodes": outcome.nodes,
                "phase_nodes": outcome.phase_nodes,
                "seconds": took.as_secs_f64(),
            });
            output_line(format_args!("{record}"))?;
        } else if outcome.optimal && length.is_some() {
            output_line(format_args!("  (optimal: no shorter answer exists)"))?;
        } else if length.is_none() {
            let why = outcome
                .unreachable
                .as_deref()
                .unwrap_or("a phase found no solution");
            output_line(format_args!("  no solution: {why}"))?;
        }
        if !args.quiet {
            let how = match (outcome.exhausted, fast_args.time) {
                _ if outcome.optimal => "optimal",
                (true, _) => "the shortest this chain gives",
                (false, Some(_)) => "time is up",
                (false, None) => "--time T searches longer",
            };
            bars.note(&format!(
                "{}: {} in {} by {} phases, {} first-phase solutions tried, {} nodes ({how})",
                scramble.name,
                length.map_or("no solution".to_string(), |l| format!("{l} moves")),
                format_duration(took),
                chain.phases.len() + usize::from(chain.words.is_some()),
                outcome.tried,
                outcome.nodes
            ));
        }
    }
    Ok(code)
}

/// The goal `goal` names as one whole position, with the renaming of pieces that makes
/// it the solved state; `None` when it is several positions, leaves parts free, has
/// classes, or tells pieces apart otherwise than the solved state does.
fn goal_renaming(puzzle: &Puzzle, goal: &Goal) -> Option<(State, Relabel)> {
    let [one] = goal.positions.as_slice() else {
        return None;
    };
    if one.target.has_ignores() || one.has_classes() {
        return None;
    }
    let r = Relabel::onto_solved(puzzle, &one.target.state)?;
    Some((one.target.state.clone(), r))
}

/// One line to standard output, checked.
fn output_line(line: std::fmt::Arguments) -> std::io::Result<()> {
    let mut out = output::stdout();
    writeln!(out, "{line}")?;
    out.flush()
}
