//! `ksolve chain DEF`: the chain of subgroups `solve --fast` solves along, found from the
//! definition (or read with `--chain FILE`), with each phase's coset count and the
//! tables its search would build under the budget.

use super::fast::{chain_for, chain_solver};
use super::output;
use super::progress::Bars;
use super::table_args::TableArgs;
use super::EXIT_OK;
use ksolve::chain::coset_limit;
use ksolve::progress::format_count;
use std::io::Write;
use std::path::PathBuf;

/// Show the chain of subgroups `solve --fast` solves along.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve chain puzzles/3x3x3.def                   the chain found (two phases, as Kociemba's)
  ksolve chain puzzles/3x3x3.def --chain my.chain  check a chain of your own
  ksolve chain puzzles/2x2x2.def --json            one JSON object per phase

A chain found is kept with the tables (see --tables), so later runs of `chain`, `solve
--fast` and `scramble` read it rather than find it again (the 4x4x4's takes about 20 s).
A chain file has one subgroup per line, from the largest down, each written as the
moves that generate it (`U D R2 L2 F2 B2`); `#` starts a comment.")]
pub struct ChainArgs {
    /// The puzzle definition.
    pub def: PathBuf,
    /// Read the chain from this file instead of finding one.
    #[arg(long, value_name = "FILE")]
    pub chain: Option<PathBuf>,
    /// Print one JSON object per phase.
    #[arg(long)]
    pub json: bool,
    /// Where tables are kept and how much memory they may take.
    #[command(flatten)]
    pub table: TableArgs,
    /// Show no progress on stderr (nothing is built, so there is little to show).
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: ChainArgs) -> anyhow::Result<u8> {
    let bars = Bars::new(true);
    let (puzzle, bytes, _) = super::input::definition(&args.def, &bars)?;
    let budget = args.table.budget();
    let chain = chain_for(
        &puzzle,
        args.chain.as_deref(),
        budget,
        &args.table.cache(&args.def, &puzzle, &bytes, &bars),
        &bars,
    )?;
    let mut fast = chain_solver(
        &args.table,
        &args.def,
        &puzzle,
        &bytes,
        &chain,
        budget,
        &bars,
    );
    let plans = fast.plans()?;
    let mut out = output::stdout();
    if !args.json {
        let how = match (chain.given, &chain.words) {
            (true, _) => format!(
                "read from {}",
                args.chain.as_deref().unwrap_or(&args.def).display()
            ),
            (false, None) => format!(
                "found from the definition, every phase within {} cosets",
                coset_limit(budget).with_commas()
            ),
            (false, Some(_)) => format!(
                "no subgroup within {} cosets leads further down, so the last is answered \
                 by a table of words",
                coset_limit(budget).with_commas()
            ),
        };
        let n = chain.phases.len() + usize::from(chain.words.is_some());
        writeln!(
            out,
            "{} positions; {n} phase{}, {how}:",
            chain.positions.with_commas(),
            if n == 1 { "" } else { "s" }
        )?;
    }
    for (i, (phase, plan)) in chain.phases.iter().zip(&plans).enumerate() {
        let tables: Vec<String> = plan
            .report
            .chosen
            .iter()
            .map(|t| format!("{} ({} entries)", t.name, format_count(t.len)))
            .collect();
        let entries: u64 = plan.report.chosen.iter().map(|t| t.len).sum();
        // A refined picture's goal is every picture the lower group shows.
        let goals = phase.goal_pictures();
        if args.json {
            let record = serde_json::json!({
                "phase": i + 1,
                "from": phase.upper.describe(&puzzle),
                "to": phase.lower.describe(&puzzle),
                "cosets": phase.cosets.to_string(),
                "goal_pictures": goals,
                "table_entries": entries,
                "tables": plan.report.chosen.iter().map(|t| &t.name).collect::<Vec<_>>(),
            });
            writeln!(out, "{record}")?;
        } else {
            let goal = match goals {
                1 => String::new(),
                n => format!(" ({n} goal pictures)"),
            };
            writeln!(
                out,
                "phase {}: {} -> {}\n  {} cosets{goal}; tables: {}",
                i + 1,
                phase.upper.describe(&puzzle),
                phase.lower.describe(&puzzle),
                phase.cosets.with_commas(),
                if tables.is_empty() {
                    "none".to_string()
                } else {
                    tables.join(", ")
                }
            )?;
        }
    }
    if let Some(words) = &chain.words {
        let (longest, bound) = words.table.longest();
        let i = chain.phases.len() + 1;
        let from = words.group.describe(&puzzle);
        if args.json {
            let record = serde_json::json!({
                "phase": i,
                "from": from,
                "to": "<>",
                "words": {
                    "levels": words.table.levels(),
                    "longest": longest,
                    "at_most": bound,
                },
            });
            writeln!(out, "{record}")?;
        } else {
            writeln!(
                out,
                "phase {i}: {from} -> <>\n  by words: {} levels of the stabiliser chain, \
                 the longest word {longest} moves, at most {bound} moves in all",
                words.table.levels()
            )?;
        }
    }
    out.flush()?;
    Ok(EXIT_OK)
}
