//! `ksolve stats PUZZLE.def --random N | --walk LENGTH --count N`: solves N random
//! positions optimally and prints the distribution of their optimal lengths as a table
//! with a text histogram, the mean, the extremes and the time per position, or one JSON
//! object with `--json`. The work and the numbers are [`ksolve::stats`]'s; this file
//! only draws them.

use super::output;
use super::progress::Bars;
use super::table_args::TableArgs;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::alg::{self, AlgLine, MoveNames};
use ksolve::group::Group;
use ksolve::puzzle::{Metric, Puzzle, Scramble, ScrambleSource, SolveSettings, State};
use ksolve::rng::Rng;
use ksolve::solve::{Answerer, Step};
use ksolve::stats::{self, Sampling, Stats};
use ksolve::table::plan::check_goal;
use ksolve::table::Tables;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// Characters of the longest histogram bar.
const BAR_WIDTH: usize = 50;

/// Arguments of `ksolve stats`.
#[derive(Debug, clap::Args)]
#[command(
    group(clap::ArgGroup::new("sampling").required(true).args(["random", "walk", "scrambles"])),
    after_help = "Examples:
  ksolve stats puzzles/2x2x2.def --random 1000            lengths of 1000 uniform positions
  ksolve stats puzzles/2x2x2.def --walk 5 --count 200     200 positions 5 random moves deep
  ksolve stats puzzles/2x2x2.def --random 1000 --seed 7   the same 1000 positions every run
  ksolve stats puzzles/3x3x3_wca.def --goal cross --random 100000   optimal crosses
  ksolve stats puzzles/3x3x3_wca.def --goal xcross scrambles.txt    X-crosses of a file"
)]
pub struct StatsArgs {
    /// The puzzle definition file (ksolve+ `.def` format).
    pub def: PathBuf,
    /// Solve the scrambles of this file instead of random positions: one algorithm per
    /// line, in the notation of `ksolve alg` (WCA notation on the WCA cube); blank lines
    /// and lines starting with `#` or `//` are skipped; `-` reads standard input. Read
    /// as it goes, so a file of millions of scrambles is never held whole.
    pub scrambles: Option<PathBuf>,
    /// Measure the optimal length of a step instead of a whole solution: a goal file
    /// of `Goal`/`GoalAlg` blocks, or the name of one shipped beside the definition
    /// (`--goal cross` on `puzzles/3x3x3_wca.def`). Positions are then solved one thread
    /// per core, each with its own (small) tables.
    #[arg(long, value_name = "GOAL")]
    pub goal: Option<String>,
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
    /// Measuring one shard of a batch (--shard, --shards, --out).
    #[command(flatten)]
    pub batch: super::stats_shard::StatsShardArgs,
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
    /// The scramble file, when positions come from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'a str>,
    /// The goal (`--goal`), when it is not the solved state.
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<&'a str>,
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
        None => (whole.clone(), bytes),
    };
    let (sampling, count) = match (args.random, args.walk, args.count) {
        (Some(n), _, _) => (Sampling::Uniform, n),
        (None, Some(len), Some(n)) => (Sampling::Walk(len), n),
        // A scramble file: as many positions as it has lines.
        _ => (Sampling::Uniform, 0),
    };
    let budget = args.table.budget();
    let metric = if args.qtm { Metric::Qtm } else { Metric::Htm };
    // An unseeded run still gets a seed it can print, so any run can be repeated.
    let seed = args.seed.unwrap_or_else(|| Rng::from_entropy().next_u64());
    let mut rng = Rng::new(seed);
    let name = puzzle.name.clone().unwrap_or(def_name);
    let what = Described {
        sampling,
        file: args.scrambles.as_deref().map(super::input::display_name),
        goal: args.goal.clone(),
    };
    if args.goal.is_none() && args.scrambles.is_none() && args.batch.out.is_none() {
        check_goal(&puzzle, &[], budget)?;
        let cache = args.table.cache(&args.def, &puzzle, &bytes, &bars);
        let mut answerer = Answerer::new(&puzzle, Tables::new(cache, budget));
        let settings = SolveSettings {
            metric,
            ..SolveSettings::for_puzzle(&puzzle)
        };
        // Uniform draws need the group; a puzzle too large for it falls back to walks.
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
        return finish(&args, &name, &what, seed, metric, &result);
    }
    // A goal, a file of scrambles or a shard of a batch: positions are solved in
    // batches, one thread per core across them (see `stats::run_batches`).
    let goal = match &args.goal {
        Some(g) => Some(super::overrides::goal(&args.def, g, &whole)?),
        None => None,
    };
    let step = goal.as_ref().and_then(|g| Step::new(&puzzle, g));
    if step.is_none() {
        if let Some(why) = ksolve::solve::classes_refused(goal.iter()) {
            anyhow::bail!("--goal: {why}");
        }
    }
    let (searched, ignore, settings, cache_bytes) = match &step {
        Some(step) => (
            &step.puzzle,
            step.free().to_vec(),
            SolveSettings {
                metric,
                ..SolveSettings::for_puzzle(&step.puzzle)
            },
            [&bytes[..], step.key_bytes()].concat(),
        ),
        None => (
            &puzzle,
            Vec::new(),
            SolveSettings {
                metric,
                goal: goal.map(Arc::new),
                ..SolveSettings::for_puzzle(&puzzle)
            },
            bytes.clone(),
        ),
    };
    let threads = args
        .threads
        .map_or_else(rayon::current_num_threads, usize::from)
        .max(1);
    check_goal(searched, &[], budget / threads as u64)?;
    let mut answerers: Vec<Answerer> = (0..threads)
        .map(|_| {
            let cache = args.table.cache(&args.def, searched, &cache_bytes, &bars);
            Answerer::new(searched, Tables::new(cache, budget / threads as u64))
        })
        .collect();
    let relabel = |state: State| match &step {
        Some(step) => step.position(&state),
        None => state,
    };
    const BATCH: usize = 4096;
    // One shard of a batch keeps every K-th position of N; the others are drawn (or
    // read) and passed over, so that the shards together are exactly one run.
    let shard = args.batch.selection()?;
    let mut index = 0usize;
    let mut mine = move || {
        let take = shard.is_none_or(|s| s.takes(index));
        index += 1;
        take
    };
    let result = match &args.scrambles {
        Some(path) => {
            let mut lines = ScrambleLines::open(path, &whole)?;
            stats::run_batches(
                &mut answerers,
                &ignore,
                &settings,
                |batch| {
                    while batch.len() < BATCH {
                        match lines.next_state()? {
                            Some(state) if mine() => batch.push(relabel(state)),
                            Some(_) => {}
                            None => return Ok(false),
                        }
                    }
                    Ok::<bool, anyhow::Error>(true)
                },
                &bars,
            )?
        }
        None => {
            let group = match sampling {
                Sampling::Uniform => Group::new(&puzzle).ok(),
                Sampling::Walk(_) => None,
            };
            let mut left = count;
            stats::run_batches(
                &mut answerers,
                &ignore,
                &settings,
                |batch| {
                    while batch.len() < BATCH && left > 0 {
                        let state = stats::sample(&puzzle, group.as_ref(), sampling, &mut rng);
                        if mine() {
                            batch.push(relabel(state));
                        }
                        left -= 1;
                    }
                    Ok::<bool, anyhow::Error>(left > 0)
                },
                &bars,
            )?
        }
    };
    let result = result?;
    match (shard, &args.batch.out) {
        (Some(shard), Some(out)) => {
            super::stats_shard::write_shard(
                out, shard, &name, &what, seed, metric, &args, &result,
            )?;
            Ok(EXIT_OK)
        }
        _ => finish(&args, &name, &what, seed, metric, &result),
    }
}

/// Prints a run's result as asked and gives the exit code.
fn finish(
    args: &StatsArgs,
    name: &str,
    what: &Described,
    seed: u64,
    metric: Metric,
    result: &Stats,
) -> anyhow::Result<u8> {
    if args.json {
        print_json(name, what, seed, metric, result)?;
    } else {
        print_text(name, what, seed, metric, result)?;
    }
    Ok(if result.distribution.unsolved > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}

/// The lines of a scramble file for `stats`: one algorithm per line (blank lines and
/// lines starting with `#` or `//` skipped), read as they are needed, so that a file
/// of a million scrambles is never held whole.
struct ScrambleLines<'p> {
    name: String,
    reader: Box<dyn std::io::BufRead>,
    puzzle: &'p Puzzle,
    names: MoveNames<'p>,
    line: String,
    no: usize,
}

impl<'p> ScrambleLines<'p> {
    fn open(path: &std::path::Path, puzzle: &'p Puzzle) -> anyhow::Result<Self> {
        let reader: Box<dyn std::io::BufRead> = if path.as_os_str() == "-" {
            Box::new(std::io::BufReader::new(std::io::stdin()))
        } else {
            let file = std::fs::File::open(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            Box::new(std::io::BufReader::new(file))
        };
        Ok(ScrambleLines {
            name: super::input::display_name(path),
            reader,
            puzzle,
            names: MoveNames::new(puzzle),
            line: String::new(),
            no: 0,
        })
    }

    /// The position the next scramble makes from solved; `None` at the end.
    fn next_state(&mut self) -> anyhow::Result<Option<State>> {
        loop {
            self.line.clear();
            if self.reader.read_line(&mut self.line)? == 0 {
                return Ok(None);
            }
            self.no += 1;
            let text = self.line.trim_end_matches(['\n', '\r']);
            let trimmed = text.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("//") {
                continue;
            }
            let lines = [AlgLine { no: self.no, text }];
            let parsed = alg::parse(&self.name, &lines, &self.names)?;
            let moves = parsed.legal_moves(self.puzzle, &self.name, &lines)?;
            return Ok(Some(
                self.puzzle.apply_sequence(&self.puzzle.solved, &moves),
            ));
        }
    }
}

/// What a run measured, for its heading.
pub(super) struct Described {
    pub(super) sampling: Sampling,
    /// The scramble file, when positions come from one.
    pub(super) file: Option<String>,
    /// The goal, when it is not the solved state.
    pub(super) goal: Option<String>,
}

/// What was sampled, in words.
fn describe(what: &Described, positions: u64) -> String {
    let drawn = match (&what.file, what.sampling) {
        (Some(file), _) => format!("{positions} scrambles of {file}"),
        (None, Sampling::Uniform) => format!("{positions} uniformly random positions"),
        (None, Sampling::Walk(len)) => {
            let moves = if len == 1 { "move" } else { "moves" };
            format!("{positions} random walks of {len} {moves}")
        }
    };
    match &what.goal {
        Some(goal) => format!("{drawn}, to the goal {goal}"),
        None => drawn,
    }
}

pub(super) fn print_text(
    name: &str,
    what: &Described,
    seed: u64,
    metric: Metric,
    stats: &Stats,
) -> anyhow::Result<()> {
    let mut out = output::stdout();
    let d = &stats.distribution;
    writeln!(
        out,
        "Optimal lengths ({}) of {} of {name}{}",
        metric.name().to_uppercase(),
        describe(what, stats.positions()),
        // A file's scrambles are drawn by nothing: no seed to repeat them with.
        match what.file {
            Some(_) => String::new(),
            None => format!(", seed {seed}"),
        }
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

pub(super) fn print_json(
    name: &str,
    what: &Described,
    seed: u64,
    metric: Metric,
    stats: &Stats,
) -> anyhow::Result<()> {
    let d = &stats.distribution;
    let json = StatsJson {
        puzzle: name,
        sampling: match (&what.file, what.sampling) {
            (Some(_), _) => "file",
            (None, Sampling::Uniform) => "random",
            (None, Sampling::Walk(_)) => "walk",
        },
        walk_length: match (&what.file, what.sampling) {
            (None, Sampling::Walk(len)) => Some(len),
            _ => None,
        },
        file: what.file.as_deref(),
        goal: what.goal.as_deref(),
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
