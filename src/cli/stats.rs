//! `ksolve stats PUZZLE.def --random N | --walk LENGTH --count N`: solves N random
//! positions optimally and prints the distribution of their optimal lengths as a table
//! with a text histogram, the mean, the extremes and the time per position, or one JSON
//! object with `--json`. The work and the numbers are [`ksolve::stats`]'s; this file
//! only draws them.

use super::output;
use super::progress::Bars;
use super::table_args::TableArgs;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use ksolve::group::Group;
use ksolve::puzzle::{Metric, Scramble, ScrambleSource, SolveSettings};
use ksolve::rng::Rng;
use ksolve::solve::Answerer;
use ksolve::stats::{self, Sampling, Stats};
use ksolve::table::plan::check_goal;
use ksolve::table::Tables;
use std::io::Write;
use std::path::PathBuf;

/// Characters of the longest histogram bar.
const BAR_WIDTH: usize = 50;

/// Arguments of `ksolve stats`.
#[derive(Debug, clap::Args)]
#[command(
    group(clap::ArgGroup::new("sampling").required(true).args(["random", "walk"])),
    after_help = "Examples:
  ksolve stats puzzles/2x2x2.def --random 1000            lengths of 1000 uniform positions
  ksolve stats puzzles/2x2x2.def --walk 5 --count 200     200 positions 5 random moves deep
  ksolve stats puzzles/2x2x2.def --random 1000 --seed 7   the same 1000 positions every run"
)]
pub struct StatsArgs {
    /// The puzzle definition file (ksolve+ `.def` format).
    pub def: PathBuf,
    /// Solve N positions drawn uniformly from the reachable ones.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub random: Option<u64>,
    /// Solve positions made by LENGTH random moves from solved (with --count).
    #[arg(long, value_name = "LENGTH", requires = "count")]
    pub walk: Option<u32>,
    /// How many random walks to solve (with --walk).
    #[arg(long, value_name = "N", requires = "walk", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: Option<u64>,
    /// Seed for drawing the positions, so that runs repeat (default: a fresh one, which
    /// is printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Count quarter turns (a power costs its shorter way round) instead of moves.
    #[arg(long)]
    pub qtm: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Where tables are kept and how much memory they may take.
    #[command(flatten)]
    pub table: TableArgs,
    /// Search each position with N threads (1 or more; default: one per core). The
    /// numbers are the same for any number.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Show no progress (warnings are still printed).
    #[arg(long, short)]
    pub quiet: bool,
}

/// One length of the `--json` distribution.
#[derive(serde::Serialize)]
struct LengthJson {
    length: u32,
    count: u64,
}

/// The `--json` object.
#[derive(serde::Serialize)]
struct StatsJson<'a> {
    puzzle: &'a str,
    sampling: &'static str,
    walk_length: Option<u32>,
    positions: u64,
    seed: u64,
    metric: &'static str,
    lengths: Vec<LengthJson>,
    unsolved: u64,
    mean: Option<f64>,
    min: Option<u32>,
    max: Option<u32>,
    nodes: u64,
    seconds_per_position: f64,
    seconds_solving: f64,
    seconds_tables: f64,
}

pub fn run(args: StatsArgs) -> anyhow::Result<u8> {
    let bars = Bars::new(args.quiet);
    let (whole, bytes, def_name) = super::input::definition(&args.def, &bars)?;
    // A definition that leaves moves out of searches (`SearchMoves`) is measured on the
    // moves searched: its random positions are those they reach, and its tables are
    // built for them (see `solve::narrow`).
    let probe = Scramble {
        name: String::new(),
        source: ScrambleSource::Random,
        settings: SolveSettings::for_puzzle(&whole),
        line: 0,
    };
    let (puzzle, bytes) = match ksolve::solve::narrow(&whole, &[probe]) {
        Some(n) => {
            let key = [&bytes[..], &n.key_bytes()].concat();
            (n.puzzle, key)
        }
        None => (whole, bytes),
    };
    let (sampling, count) = match (args.random, args.walk, args.count) {
        (Some(n), _, _) => (Sampling::Uniform, n),
        (None, Some(len), Some(n)) => (Sampling::Walk(len), n),
        // clap requires --random or --walk with --count.
        _ => unreachable!("clap enforces --random or --walk with --count"),
    };
    let budget = args.table.budget();
    check_goal(&puzzle, &[], budget)?;
    let cache = args.table.cache(&args.def, &puzzle, &bytes, &bars);
    let mut answerer = Answerer::new(&puzzle, Tables::new(cache, budget));
    // An unseeded run still gets a seed it can print, so any run can be repeated.
    let seed = args.seed.unwrap_or_else(|| Rng::from_entropy().next_u64());
    let mut rng = Rng::new(seed);
    let settings = SolveSettings {
        metric: if args.qtm { Metric::Qtm } else { Metric::Htm },
        ..SolveSettings::for_puzzle(&puzzle)
    };
    // Uniform draws need the group; a puzzle too large for it falls back to long walks.
    let group = match sampling {
        Sampling::Uniform => Group::new(&puzzle).ok(),
        Sampling::Walk(_) => None,
    };
    let result = stats::run(
        &puzzle,
        &mut answerer,
        group.as_ref(),
        sampling,
        count,
        &mut rng,
        &settings,
        args.threads.map(usize::from),
        &bars,
    )?;
    let name = puzzle.name.clone().unwrap_or(def_name);
    if args.json {
        print_json(&name, sampling, seed, settings.metric, &result)?;
    } else {
        print_text(&name, sampling, seed, settings.metric, &result)?;
    }
    Ok(if result.distribution.unsolved > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}

/// What was sampled, in words.
fn describe(sampling: Sampling, positions: u64) -> String {
    match sampling {
        Sampling::Uniform => format!("{positions} uniformly random positions"),
        Sampling::Walk(len) => {
            let moves = if len == 1 { "move" } else { "moves" };
            format!("{positions} random walks of {len} {moves}")
        }
    }
}

fn print_text(
    name: &str,
    sampling: Sampling,
    seed: u64,
    metric: Metric,
    stats: &Stats,
) -> anyhow::Result<()> {
    let mut out = output::stdout();
    let d = &stats.distribution;
    writeln!(
        out,
        "Optimal lengths ({}) of {} of {name}, seed {seed}",
        metric.name().to_uppercase(),
        describe(sampling, stats.positions()),
    )?;
    writeln!(out, "Length  Positions  Percent")?;
    for row in d.rows(BAR_WIDTH) {
        let line = format!(
            "{:>6}  {:>9}  {:>6.2}%  {}",
            row.length,
            row.count,
            row.fraction * 100.0,
            "#".repeat(row.bar)
        );
        // An empty bar leaves no trailing blanks.
        writeln!(out, "{}", line.trim_end())?;
    }
    if d.unsolved > 0 {
        writeln!(out, "No solution within MaxDepth: {}", d.unsolved)?;
    }
    if let (Some(mean), Some(min), Some(max)) = (d.mean(), d.min(), d.max()) {
        writeln!(out, "Mean {mean:.3}, min {min}, max {max}")?;
    }
    // The only line that changes from run to run of the same seed.
    writeln!(
        out,
        "Time: {:.3} ms per position ({:.2} s solving, {:.2} s for the tables)",
        stats.per_position().as_secs_f64() * 1000.0,
        stats.solving.as_secs_f64(),
        stats.tables.as_secs_f64()
    )?;
    out.flush()?;
    Ok(())
}

fn print_json(
    name: &str,
    sampling: Sampling,
    seed: u64,
    metric: Metric,
    stats: &Stats,
) -> anyhow::Result<()> {
    let d = &stats.distribution;
    let json = StatsJson {
        puzzle: name,
        sampling: match sampling {
            Sampling::Uniform => "random",
            Sampling::Walk(_) => "walk",
        },
        walk_length: match sampling {
            Sampling::Uniform => None,
            Sampling::Walk(len) => Some(len),
        },
        positions: stats.positions(),
        seed,
        metric: metric.name(),
        lengths: d
            .rows(0)
            .into_iter()
            .map(|r| LengthJson {
                length: r.length,
                count: r.count,
            })
            .collect(),
        unsolved: d.unsolved,
        mean: d.mean(),
        min: d.min(),
        max: d.max(),
        nodes: stats.nodes,
        seconds_per_position: stats.per_position().as_secs_f64(),
        seconds_solving: stats.solving.as_secs_f64(),
        seconds_tables: stats.tables.as_secs_f64(),
    };
    let mut out = output::stdout();
    writeln!(out, "{}", serde_json::to_string(&json)?)?;
    out.flush()?;
    Ok(())
}
