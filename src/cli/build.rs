//! `ksolve tables build DEF`: builds ahead of time every table `solve` would end up with
//! under a budget (for servers, batch jobs and benchmarks), the plan printed first, so
//! that later solves load them from the cache instead of trying small tables first.

use super::progress::Bars;
use super::table_args::TableArgs;
use super::verbose::Plan;
use super::EXIT_OK;
use ksolve::memory::{human, parse_budget};
use ksolve::progress::format_duration;
use ksolve::puzzle::Metric;
use ksolve::storage::file::cache_dir;
use ksolve::storage::inventory::{self, Selector};
use ksolve::table::Tables;
use std::path::PathBuf;
use std::time::Instant;

/// Build the tables `solve` uses, ahead of time.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve tables build puzzles/3x3x3.def --memory 3G   what solve --memory 3G would build
  ksolve tables build puzzles/2x2x2.def --qtm          the quarter-turn metric's tables")]
pub struct BuildArgs {
    /// The puzzle definition.
    def: PathBuf,
    /// Memory budget the tables are planned in, as for `solve` (default: a quarter of
    /// RAM). Give `solve` the same budget to use them.
    #[arg(long, value_name = "SIZE", value_parser = parse_budget)]
    memory: Option<u64>,
    /// The cache folder, as for `solve`.
    #[arg(long, value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Build for the quarter-turn metric (default: half-turn).
    #[arg(long)]
    qtm: bool,
    /// Leave out the symmetry-reduced table, as `solve --no-symmetry` does.
    #[arg(long)]
    no_symmetry: bool,
    /// Draw no progress (the plan and the summary are still printed).
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: BuildArgs) -> anyhow::Result<u8> {
    let bars = &Bars::new(args.quiet);
    let (puzzle, bytes, _) = super::input::definition(&args.def, bars)?;
    let table = TableArgs {
        memory: args.memory,
        tables: args.tables.clone(),
        no_cache: false,
    };
    let budget = table.budget();
    let cache = table.cache(&args.def, &puzzle, &bytes, bars);
    ksolve::search::check_free_moves(&puzzle)?;
    ksolve::table::plan::check_goal(&puzzle, &[], budget)?;
    let metric = if args.qtm { Metric::Qtm } else { Metric::Htm };
    let mut solver = ksolve::search::Solver::new(&puzzle, Tables::new(cache, budget));
    let plan = Plan {
        metric,
        has_goal: false,
        no_symmetry: args.no_symmetry,
        threads: rayon::current_num_threads(),
        budget,
        trials: false,
    };
    // The plan comes first, so that a build too large for the user's patience can be
    // stopped before it starts.
    for line in plan.lines(&mut solver)? {
        println!("{line}");
    }
    let began = Instant::now();
    solver.build_tables(metric, args.no_symmetry, bars)?;
    let dir = cache_dir(args.tables.as_deref());
    let inv = inventory::scan(&dir)?;
    let selector = Selector::new(&args.def, &bytes);
    let mine: Vec<_> = inv
        .files
        .iter()
        // These contents only: an earlier version of the same path is not what a solve
        // of this one reads.
        .filter(|f| {
            f.definition
                .is_some_and(|i| inv.definitions[i].hash == selector.hash)
        })
        .collect();
    println!(
        "Ready in {} (built or loaded): {} for this definition in {}",
        format_duration(began.elapsed()),
        match mine.len() {
            1 => "1 file".to_string(),
            n => format!("{n} files"),
        },
        dir.display()
    );
    for f in &mine {
        println!(
            "  {:<56} {:>10}  {}",
            inventory::file_name(&f.path),
            human(f.bytes),
            f.kind.as_deref().unwrap_or("(damaged)")
        );
    }
    let total: u64 = mine.iter().map(|f| f.bytes).sum();
    println!(
        "Total: {}; `ksolve solve` uses them under the same --memory{}",
        human(total),
        if args.qtm { " in QTM" } else { "" }
    );
    Ok(EXIT_OK)
}
