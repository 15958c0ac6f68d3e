//! `ksolve god DEF --distributed -- TIMELY-ARGS`: God's algorithm across processes. Every
//! process is started with the same command line but its own `-p`; the process hosting
//! worker 0 prints the rows as each layer completes and the totals, the others print
//! one line on stderr when done.

use super::output;
use super::progress::Bars;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use ksolve::gods::{self, DistOptions, GodOptions};
use ksolve::memory;
use serde::Serialize;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

#[derive(Serialize)]
struct DistJson {
    metric: &'static str,
    total: u64,
    counts: Vec<u64>,
    workers: usize,
    seconds: f64,
}

/// What `god` passes down for a distributed run: the flags of its command line that
/// matter here, and how it prints a row of the table, so that this module needs nothing
/// of `god`'s.
pub struct DistRun<'a> {
    /// Whether `--save` was given (refused: the table is spread over the processes).
    pub save: bool,
    /// timely's own arguments.
    pub timely: &'a [String],
    pub json: bool,
    /// Prints one row (depth, positions) as the layer completes.
    pub print_row: fn(usize, u64),
    /// `--connect-timeout`: seconds the processes have to connect.
    pub connect_timeout: u64,
}

/// Runs the distributed search with the options `god` built.
pub fn run(
    args: &DistRun<'_>,
    puzzle: &ksolve::puzzle::Puzzle,
    opts: &GodOptions,
    bars: &Bars,
) -> anyhow::Result<u8> {
    if args.save {
        anyhow::bail!(
            "--save needs the whole table on one machine; it cannot go with --distributed"
        );
    }
    if !matches!(opts.method, gods::Method::Auto | gods::Method::Indexed) {
        anyhow::bail!("--distributed runs the indexed search; --method hashed cannot go with it");
    }
    let rows = args.print_row;
    let dist = DistOptions {
        timely_args: args.timely.to_vec(),
        connect_timeout: Duration::from_secs(args.connect_timeout),
    };
    let table = match gods::compute_distributed(puzzle, opts, &dist, bars, Arc::new(rows)) {
        Ok(t) => t,
        Err(e @ gods::GodError::Stopped(_)) => {
            errln!("{e}");
            return Ok(EXIT_NO_SOLUTION);
        }
        Err(e) => return Err(e.into()),
    };
    if !table.leader {
        errln!(
            "done: {} positions; this process held {} of the distance table",
            table.total(),
            memory::human(table.share_bytes)
        );
        return Ok(EXIT_OK);
    }
    let mut out = output::stdout();
    writeln!(out, "Total positions: {}", table.total())?;
    let depth = table.counts.len() - 1;
    let deepest = table.counts[depth];
    // The antipodes' solutions need distances held by other processes; a single-machine
    // run prints them.
    writeln!(
        out,
        "\n{deepest} antipodes at distance {depth} (a distributed run does not print them)"
    )?;
    if args.json {
        let json = DistJson {
            metric: opts.metric.name(),
            total: table.total(),
            counts: table.counts.clone(),
            workers: table.workers,
            seconds: table.seconds,
        };
        writeln!(out, "{}", serde_json::to_string(&json)?)?;
    }
    out.flush()?;
    Ok(EXIT_OK)
}
