//! `ksolve solve --fast`: short solutions phase by phase along a subgroup chain (see
//! `ksolve::chain`), for positions an optimal search cannot reach in reasonable time.
//! Each scramble's answers are printed as they improve; `--time` keeps improving until
//! a time limit, `--max-length` stops at a length.

use super::output;
use super::progress::Bars;
use super::solve::SolveArgs;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::chain::{coset_limit, Chain, Effort, Fast};
use ksolve::progress::{format_duration, Progress};
use ksolve::puzzle::{Metric, MoveId, Puzzle, Scramble, ScrambleSource, SolveSettings};
use ksolve::rng::Rng;
use ksolve::solve::{Reachability, Starts};
use ksolve::table::Tables;
use std::io::Write;
use std::time::{Duration, Instant};

/// First-phase solutions tried per position without `--time`: enough that a random
/// 3x3x3 comes out at about 21 moves, few enough to take a fraction of a second.
pub const DEFAULT_TRIES: u64 = 400;

/// The chain `--chain FILE` gives, or the one found from the definition.
pub fn chain_for(
    puzzle: &Puzzle,
    file: Option<&std::path::Path>,
    budget: u64,
) -> anyhow::Result<Chain> {
    match file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the chain file {}", path.display()))?;
            Ok(Chain::read(puzzle, &text, &path.display().to_string())?)
        }
        None => Ok(ksolve::chain::find(puzzle, &coset_limit(budget))?),
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
    // What the chain does not do is refused rather than ignored.
    let defaults = SolveSettings::for_puzzle(puzzle);
    for s in scrambles {
        let unsupported = if s.settings.goal.is_some() {
            Some("a goal (the chain solves to the definition's solved state)")
        } else if s.settings.limits != defaults.limits {
            Some("MoveLimits or --moves (the chain chooses its moves phase by phase)")
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
    }
    let budget = args.table.budget();
    let chain = chain_for(puzzle, args.chain.as_deref(), budget)?;
    // With --time the optimal search may prove an answer optimal: it takes three
    // quarters of the budget, and the phases share the rest.
    let prove = args.time.is_some() && chain.phases.len() > 1;
    let phases_budget = if prove { budget / 4 } else { budget };
    let share = phases_budget / chain.phases.len().max(1) as u64;
    let fast = Fast::new(puzzle, &chain, |_, phase| {
        let key = [bytes, &phase.key_bytes()].concat();
        Tables::new(
            args.table.cache(&args.def, &phase.puzzle, &key, bars),
            share,
        )
    });
    let mut fast = match prove {
        true => fast.with_optimal(Tables::new(
            args.table.cache(&args.def, puzzle, bytes, bars),
            budget - phases_budget,
        )),
        false => fast,
    };
    fast.prepare(bars)?;
    let mut rng = args.seed.map_or_else(Rng::from_entropy, Rng::new);
    let mut starts = Starts::new(puzzle, budget / 2);
    // Random positions are drawn through the group, uniformly.
    let mut reach = Reachability::new(puzzle);
    let mut code = EXIT_OK;
    for scramble in scrambles {
        let start = starts.start(scramble, &mut reach, &mut rng, bars);
        if let Some(why) = &start.impossible {
            anyhow::bail!("{}: {why}", scramble.name);
        }
        let began = Instant::now();
        let effort = Effort {
            deadline: args.time.map(|t| began + Duration::from_secs_f64(t)),
            max_length: args.max_length,
            tries: match args.time {
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
        let outcome = fast.solve(&start.state, &effort, &mut |sol| {
            // Every answer is replayed before it is printed.
            let end = puzzle.apply_sequence(&start.state, sol);
            if !puzzle.is_solved(&end, &start.ignore) {
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
                "phases": chain.phases.len(),
                "phase_lengths": outcome.phase_lengths,
                "tried": outcome.tried,
                "exhausted": outcome.exhausted,
                "optimal": outcome.optimal,
                "nodes": outcome.nodes,
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
            let how = match (outcome.exhausted, args.time) {
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
                chain.phases.len(),
                outcome.tried,
                outcome.nodes
            ));
        }
    }
    Ok(code)
}

/// One line to standard output, checked.
fn output_line(line: std::fmt::Arguments) -> std::io::Result<()> {
    let mut out = output::stdout();
    writeln!(out, "{line}")?;
    out.flush()
}
