//! `ksolve god PUZZLE.def [--qtm]` (ksolve+'s `PUZZLE.def !` and `!q`): the number of
//! positions at each distance from solved, printed row by row as ksolve+ does, then the
//! antipodes with a solution each; `--save FILE` also writes the distance table for
//! `ksolve solve --database FILE`.

use super::output;
use super::progress::Bars;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::def::{format_state, load_puzzle};
use ksolve::gods::{self, database, GodOptions, Method};
use ksolve::memory;
use ksolve::puzzle::{Metric, Puzzle, State};
use ksolve::storage::fsutil::check_write_target;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `ksolve god`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve god puzzles/2x2x2.def                        positions at each distance (HTM)
  ksolve puzzles/2x2x2.def !q                         the same in QTM, ksolve+'s form
  ksolve god puzzles/2x2x2.def --save 2x2x2.dist      keep the table for solve --database
  ksolve god big.def --checkpoint ck                  checkpoint each layer to ck/
  ksolve god big.def --checkpoint ck --resume         continue a killed run
  ksolve god big.def --distributed -- -n 2 -p 0 -h hosts.txt
                                                      process 0 of 2 (see deploy/slurm-god.sh)")]
pub struct GodArgs {
    /// The puzzle definition file (ksolve+ `.def` format).
    pub def: PathBuf,
    /// Count quarter turns (a power costs its shorter way round) instead of moves.
    #[arg(long)]
    pub qtm: bool,
    /// How many antipodes to print.
    #[arg(long, default_value_t = 5, value_name = "K")]
    pub antipodes: usize,
    /// Also print the table as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
    /// Memory budget for the tables, such as 512M or 8G (default: a quarter of RAM).
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub memory: Option<u64>,
    /// Write the exact distance table to FILE, for `ksolve solve --database FILE`.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Which search to run: the perfect index, the hash set of reached positions, or
    /// whichever suits the puzzle.
    #[arg(long, value_enum, default_value = "auto")]
    pub method: MethodArg,
    /// Write a checkpoint to DIR after each finished layer (indexed search), so that a
    /// killed run can continue with --resume.
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from the deepest complete layer in the --checkpoint folder (refused when
    /// it was made for another definition, metric or number of workers).
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
    /// Stop once layer K's checkpoint is written (for tests of --resume).
    #[arg(long, value_name = "K", requires = "checkpoint", hide = true)]
    pub stop_after_layer: Option<usize>,
    /// Run across processes and machines on timely dataflow; timely's own arguments
    /// follow `--`: `-w` workers per process, `-n` processes, `-p` this process (0-based),
    /// `-h` a file of `host:port` lines, one per process.
    #[arg(long)]
    pub distributed: bool,
    /// With --distributed: how long to wait, in seconds, for every other process to
    /// connect and to answer the handshake that checks it runs the same definition,
    /// metric, -n and -w; past it the run stops, naming the process missing. Raise it
    /// where processes may start far apart.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 300,
        requires = "distributed",
        value_parser = clap::value_parser!(u64).range(1..=86_400)
    )]
    pub connect_timeout: u64,
    /// Timely's arguments, after `--` (with --distributed).
    #[arg(last = true, requires = "distributed", value_name = "TIMELY-ARGS")]
    pub timely: Vec<String>,
    /// Do not draw progress bars.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The `--method` values.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum MethodArg {
    Auto,
    Indexed,
    Hashed,
}

#[derive(Serialize)]
struct SetJson {
    perm: Vec<u32>,
    ori: Vec<u8>,
}

#[derive(Serialize)]
struct AntipodeJson {
    solution: String,
    state: BTreeMap<String, SetJson>,
}

#[derive(Serialize)]
struct TableJson {
    metric: &'static str,
    total: u64,
    counts: Vec<u64>,
    antipodes: Vec<AntipodeJson>,
    seconds: f64,
}

/// A position as JSON: sets by name, permutations 1-based as in definition files.
fn state_json(puzzle: &Puzzle, state: &State) -> BTreeMap<String, SetJson> {
    puzzle
        .sets
        .iter()
        .zip(&state.sets)
        .map(|(def, s)| {
            (
                def.name.clone(),
                SetJson {
                    perm: s.perm.iter().map(|&p| p as u32 + 1).collect(),
                    ori: s.ori.clone(),
                },
            )
        })
        .collect()
}

/// Runs `ksolve god`.
pub fn run(args: GodArgs) -> anyhow::Result<u8> {
    let (puzzle, warnings) = load_puzzle(&args.def)?;
    let bars = Bars::new(args.quiet);
    for w in &warnings {
        ksolve::progress::Progress::warn(&bars, &w.to_string());
    }
    if puzzle.has_weights() {
        // God's algorithm counts moves; saying so beats a table that looks weighted.
        ksolve::progress::Progress::warn(
            &bars,
            &format!(
                "{}: MoveCosts weights are ignored here: the table counts moves in {}",
                args.def.display(),
                if args.qtm { "QTM" } else { "HTM" }
            ),
        );
    }
    let opts = GodOptions {
        metric: if args.qtm { Metric::Qtm } else { Metric::Htm },
        antipodes: args.antipodes,
        memory: args.memory.unwrap_or_else(memory::default_budget),
        keep_distances: args.save.is_some(),
        method: match args.method {
            MethodArg::Auto => Method::Auto,
            MethodArg::Indexed => Method::Indexed,
            MethodArg::Hashed => Method::Hashed,
        },
        checkpoint: args.checkpoint.clone().map(|dir| gods::Checkpoint {
            dir,
            resume: args.resume,
            stop_after: args.stop_after_layer,
        }),
        ..GodOptions::default()
    };
    if args.distributed {
        let dist = super::god_dist::DistRun {
            save: args.save.is_some(),
            timely: &args.timely,
            json: args.json,
            print_row,
            connect_timeout: args.connect_timeout,
        };
        return super::god_dist::run(&dist, &puzzle, &opts, &bars);
    }
    // A save target ksolve may not replace (a directory, a device, a named pipe) is
    // refused before the table is computed, not after.
    if let Some(path) = &args.save {
        check_write_target(path)
            .with_context(|| format!("cannot save the distance table to {}", path.display()))?;
    }
    // Rows are printed as each layer completes, so a long run shows its progress and a
    // killed run keeps what it printed. The header waits for the first row, so that a
    // table refused up front prints nothing on stdout. A row that cannot be written
    // ends the run there: nobody would read the rest.
    let table = match gods::compute(&puzzle, &opts, &bars, &print_row) {
        Ok(t) => t,
        Err(e @ gods::GodError::Stopped(_)) => {
            // Not a failure, but no table either: the caller asked for an early stop.
            errln!("{e}");
            return Ok(EXIT_NO_SOLUTION);
        }
        Err(e) => return Err(e.into()),
    };
    let mut out = output::stdout();
    writeln!(out, "Total positions: {}", table.total())?;
    writeln!(out, "\nPrinting {} antipodes:\n", table.antipodes.len())?;
    for a in &table.antipodes {
        let moves: String = a
            .solution
            .iter()
            .map(|&m| format!(" {}", puzzle.mv(m).name))
            .collect();
        writeln!(out, "Antipode solved by{moves}:")?;
        writeln!(out, "{}", format_state(&puzzle, &a.state))?;
    }
    out.flush()?;
    if let Some(path) = &args.save {
        database::write(path, &puzzle, &table)
            .with_context(|| format!("cannot save the distance table to {}", path.display()))?;
        errln!(
            "saved the distances of {} positions to {}",
            table.total(),
            path.display()
        );
    }
    if args.json {
        let json = TableJson {
            metric: table.metric.name(),
            total: table.total(),
            counts: table.counts.clone(),
            antipodes: table
                .antipodes
                .iter()
                .map(|a| AntipodeJson {
                    solution: puzzle.format_sequence(&a.solution),
                    state: state_json(&puzzle, &a.state),
                })
                .collect(),
            seconds: table.seconds,
        };
        writeln!(out, "{}", serde_json::to_string(&json)?)?;
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// Prints one row of the table as its layer finishes (the header before depth 0), so a
/// killed run keeps what it printed; a row that cannot be written ends the run.
fn print_row(depth: usize, count: u64) {
    output::or_exit((|| {
        let mut out = output::stdout();
        if depth == 0 {
            writeln!(out, "Moves\tPositions")?;
        }
        writeln!(out, "{depth}\t{count}")?;
        out.flush()
    })());
}
