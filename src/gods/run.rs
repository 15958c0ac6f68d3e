//! The two drivers `compute` dispatches to: from the options and the move data to a
//! finished table by the perfect index (`indexed_table`) or the hash set
//! (`hashed_table`), with the memory each needs checked first. Kept apart from the
//! public types and the dispatch in `mod.rs`.

use super::*;

pub(super) fn move_table_limit(budget: u64) -> u64 {
    (budget / 4).min(1 << 29)
}

pub(super) fn indexed_need(ix: &Indexer, bits: u32, exact: bool, budget: u64) -> u64 {
    let (_, moves) = ix.plan_tables(move_table_limit(budget));
    let copy = if exact { ix.space() } else { 0 };
    table::PackedTable::bytes_for(ix.space(), bits) + moves + copy
}

#[allow(clippy::too_many_arguments)]
pub(super) fn indexed_table(
    puzzle: &Puzzle,
    opts: &GodOptions,
    info: &MoveInfo,
    mut ix: Indexer,
    bits: u32,
    exact: bool,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<GodTable, GodError> {
    progress.start("move tables of the perfect index", None);
    let limit = if opts.tuning.move_tables {
        move_table_limit(opts.memory)
    } else {
        0
    };
    let move_bytes = ix.build_tables(limit);
    progress.finish();
    let classes = info.classes();
    let plan = indexed::Plan {
        ix: &ix,
        push: classes
            .iter()
            .map(|c| c.iter().map(|&(inv, _)| inv).collect())
            .collect(),
        pull: classes
            .iter()
            .map(|c| c.iter().map(|&(_, fwd)| fwd).collect())
            .collect(),
        exact,
        bits,
        tuning: opts.tuning,
    };
    let mut sc = ix.scratch();
    let start = ix.index_of(&puzzle.solved, &mut sc);
    let layout = checkpoint::Layout {
        key: checkpoint::key(
            database::puzzle_key(puzzle),
            opts.metric,
            bits,
            exact,
            database::index_fingerprint(&ix),
        ),
        worker: 0,
        peers: 1,
        first: 0,
        len: ix.space(),
        bits,
    };
    let resume = match &opts.checkpoint {
        Some(c) if c.resume => match layout.depths(&c.dir)?.into_iter().max() {
            Some(d) => Some(layout.load(&c.dir, d)?),
            None => {
                progress.warn(&format!(
                    "no checkpoint to resume in {}; starting from the beginning",
                    c.dir.display()
                ));
                None
            }
        },
        Some(c) => {
            layout.clear(&c.dir)?;
            None
        }
        None => None,
    };
    let run = indexed::run(
        &plan,
        start,
        resume,
        progress,
        on_layer,
        &mut |counts, table| {
            let Some(c) = &opts.checkpoint else {
                return Ok(());
            };
            layout.write(&c.dir, counts, table)?;
            let depth = counts.len() - 1;
            match c.stop_after {
                Some(k) if depth >= k => Err(GodError::Stopped(depth)),
                _ => Ok(()),
            }
        },
    )?;
    let walker = indexed::Walker {
        ix: &ix,
        table: &run.table,
        exact,
        costs: &info.costs,
        quarter: &info.quarter,
        start,
    };
    let depth = (run.counts.len() - 1) as u32;
    let want = opts
        .antipodes
        .min(*run.counts.last().unwrap_or(&0) as usize);
    let picked: Vec<u64> = match &run.last {
        Some(list) => {
            let mut states: Vec<(Vec<u16>, u64)> = list
                .iter()
                .map(|&i| (ksolve_order(puzzle, &ix.state_of(i, &mut sc)), i))
                .collect();
            states.sort();
            states.into_iter().take(want).map(|(_, i)| i).collect()
        }
        None if *run.counts.last().unwrap_or(&0) <= opts.tuning.keep_layer => {
            // A resumed search keeps no layer lists; a deepest layer small enough to
            // have been kept is found again, so that the antipodes are the same ones.
            let mut states: Vec<(Vec<u16>, u64)> = (0..ix.space())
                .filter(|&i| walker.at_distance(i, depth, &mut sc))
                .collect::<Vec<u64>>()
                .into_iter()
                .map(|i| (ksolve_order(puzzle, &ix.state_of(i, &mut sc)), i))
                .collect();
            states.sort();
            states.into_iter().take(want).map(|(_, i)| i).collect()
        }
        None => {
            // The deepest layer was too large to keep: take the first antipodes in
            // index order, confirming each one's distance.
            let mut out = Vec::new();
            let mut i = 0;
            while out.len() < want && i < ix.space() {
                if walker.at_distance(i, depth, &mut sc) {
                    out.push(i);
                }
                i += 1;
            }
            out
        }
    };
    let mut antipodes = Vec::with_capacity(picked.len());
    for i in picked {
        let solution = walker
            .solve(i, depth, &mut sc)
            .ok_or(GodError::Internal("no optimal path in the finished table"))?;
        antipodes.push(Antipode {
            state: ix.state_of(i, &mut sc),
            solution: solution.into_iter().map(|m| MoveId(m as u16)).collect(),
        });
    }
    let distances =
        exact.then(|| Distances::Indexed(run.table.to_bytes(), database::index_fingerprint(&ix)));
    Ok(GodTable {
        metric: opts.metric,
        counts: run.counts,
        antipodes,
        method: Method::Indexed,
        index_space: Some(ix.space()),
        table_bytes: table::PackedTable::bytes_for(ix.space(), bits) + move_bytes,
        seconds: 0.0,
        distances,
    })
}

pub(super) fn hashed_table(
    puzzle: &Puzzle,
    opts: &GodOptions,
    info: &MoveInfo,
    progress: &dyn Progress,
    on_layer: &Layers,
) -> Result<GodTable, GodError> {
    if opts.checkpoint.is_some() {
        // The hash set's layers are sorted key lists of varying size; checkpoints are
        // written for the perfect index's fixed-size table only.
        return Err(GodError::Unsupported(
            "checkpoints need the indexed search (a puzzle without Block, guarded moves \
             or a goal that is a set, whose table fits the memory budget)",
        ));
    }
    let packer = crate::keys::Packer::new(puzzle, &info.transforms, &info.base_of)?;
    let classes = info.classes();
    let budget = match memory::total_memory() {
        Some(m) => opts.memory.min(m),
        None => opts.memory,
    };
    let most = (budget / hashed::BYTES_PER_POSITION).min(usize::MAX as u64) as usize;
    let goals = puzzle
        .goal_positions(most)
        .ok_or_else(|| GodError::OverBudget {
            what: format!("the goal is a set of more than {most} positions"),
            need: (most as u64 + 1).saturating_mul(hashed::BYTES_PER_POSITION),
            budget,
        })?;
    let starts: Vec<u128> = goals.iter().map(|g| packer.key(g)).collect();
    let max_depth = if opts.keep_distances {
        u16::MAX as u32 - 1
    } else {
        u32::MAX
    };
    let run = hashed::run(
        &packer,
        starts,
        &classes,
        info.reversible,
        budget,
        max_depth,
        progress,
        on_layer,
    )?;
    let counts: Vec<u64> = run.layers.iter().map(|l| l.len() as u64).collect();
    let depth = (counts.len() - 1) as u32;
    let want = opts.antipodes.min(run.layers[depth as usize].len());
    let mut deepest: Vec<(Vec<u16>, u128)> = run.layers[depth as usize]
        .iter()
        .map(|&k| (ksolve_order(puzzle, &packer.state(k)), k))
        .collect();
    deepest.sort();
    let mut antipodes = Vec::with_capacity(want);
    for &(_, k) in deepest.iter().take(want) {
        let state = packer.state(k);
        let solution = solve_by_distances(puzzle, &info.costs, &state, depth, |s| {
            run.distance(packer.key(s))
        })
        .ok_or(GodError::Internal("no optimal path in the finished table"))?;
        antipodes.push(Antipode { state, solution });
    }
    let total: u64 = counts.iter().sum();
    let distances = opts.keep_distances.then(|| {
        let mut all: Vec<(u128, u16)> = run
            .layers
            .iter()
            .enumerate()
            .flat_map(|(d, l)| l.iter().map(move |&k| (k, d as u16)))
            .collect();
        all.sort_unstable();
        Distances::Hashed(all)
    });
    Ok(GodTable {
        metric: opts.metric,
        counts,
        antipodes,
        method: Method::Hashed,
        index_space: None,
        table_bytes: total * hashed::BYTES_PER_POSITION,
        seconds: 0.0,
        distances,
    })
}
