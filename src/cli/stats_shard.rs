//! `stats` in shards, as `solve` runs in shards: `--shard K/N --out DIR` counts every
//! N-th position and writes the counts to `DIR/shard-K-of-N.jsonl`; `ksolve merge DIR`
//! sums a `stats` batch's shards into what one run prints ([`merge`]), holding every
//! shard to one batch (definition, goal, positions, seed, metric).

use super::stats::{print_json, print_text, Described, StatsArgs};
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context;
use ksolve::puzzle::Metric;
use ksolve::stats::{self, Sampling, Stats};
use std::io::Write;
use std::path::PathBuf;

/// One shard of a `stats` batch: the positions whose 0-based index is K mod N (random
/// ones are all drawn, so that the shards together are one run), their counts written
/// to DIR/shard-K-of-N.jsonl; `ksolve merge DIR` prints the whole as one run would.
#[derive(Debug, Default, clap::Args)]
pub struct StatsShardArgs {
    /// Count only the positions whose 0-based index is K mod N, and write the counts to
    /// DIR/shard-K-of-N.jsonl (needs --out). Without it, --out takes the shard from a
    /// Slurm array task or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX with --shards
    /// N), as `solve` does.
    #[arg(long, value_name = "K/N", requires = "out", conflicts_with = "shards")]
    pub shard: Option<ksolve::batch::Shard>,
    /// The number of shards, for a Kubernetes Indexed Job (its completions).
    #[arg(long, value_name = "N", requires = "out",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub shards: Option<u32>,
    /// Write this shard's counts to DIR/shard-K-of-N.jsonl, replacing it atomically,
    /// instead of printing them; `ksolve merge DIR` prints the whole batch.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

impl StatsShardArgs {
    /// The shard this run counts, or `None` without `--out`: chosen as `solve` chooses.
    pub(super) fn selection(&self) -> anyhow::Result<Option<ksolve::batch::Shard>> {
        super::shard_args::ShardArgs {
            shard: self.shard,
            shards: self.shards,
            out: self.out.clone(),
        }
        .selection()
    }
}

/// What one shard of a `stats` batch writes: the batch's identity (which the merge holds
/// every shard to) and its counts.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct StatsShard {
    /// Tells a `stats` shard from a `solve` shard in the same kind of file.
    pub ksolve_stats_shard: u32,
    pub shard: u32,
    pub shards: u32,
    /// What every shard of the batch must agree on.
    pub batch: StatsBatch,
    /// `counts[l]`: positions of optimal length `l`.
    pub counts: Vec<u64>,
    pub unsolved: u64,
    pub nodes: u64,
    pub seconds_solving: f64,
    pub seconds_tables: f64,
}

/// The identity of a `stats` batch: the definition's hash, the puzzle, how positions
/// were drawn (file, goal, sampling, count, seed) and the metric.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct StatsBatch {
    pub definition_hash: u64,
    pub puzzle: String,
    pub sampling: String,
    pub walk_length: Option<u32>,
    pub count: u64,
    pub file: Option<String>,
    pub goal: Option<String>,
    pub seed: u64,
    pub metric: String,
}

/// Writes this shard's counts to `OUT/shard-K-of-N.jsonl`, atomically.
#[allow(clippy::too_many_arguments)]
pub(super) fn write_shard(
    out: &std::path::Path,
    shard: ksolve::batch::Shard,
    name: &str,
    what: &Described,
    seed: u64,
    metric: Metric,
    args: &StatsArgs,
    result: &Stats,
) -> anyhow::Result<()> {
    let bytes = ksolve::def::read_file(&args.def)?;
    let d = &result.distribution;
    let record = StatsShard {
        ksolve_stats_shard: 1,
        shard: shard.index,
        shards: shard.count,
        batch: StatsBatch {
            definition_hash: ksolve::storage::file::content_hash(&bytes),
            puzzle: name.to_string(),
            sampling: sampling_name(what).to_string(),
            walk_length: match (&what.file, what.sampling) {
                (None, Sampling::Walk(len)) => Some(len),
                _ => None,
            },
            count: args.random.or(args.count).unwrap_or(0),
            file: what.file.clone(),
            goal: what.goal.clone(),
            // A file's scrambles are drawn by nothing: its shards' seeds may differ.
            seed: if what.file.is_some() { 0 } else { seed },
            metric: metric.name().to_string(),
        },
        counts: (0..=d.max().unwrap_or(0)).map(|l| d.count(l)).collect(),
        unsolved: d.unsolved,
        nodes: result.nodes,
        seconds_solving: result.solving.as_secs_f64(),
        seconds_tables: result.tables.as_secs_f64(),
    };
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create the folder {}", out.display()))?;
    let path = out.join(format!("shard-{}-of-{}.jsonl", shard.index, shard.count));
    let line = serde_json::to_string(&record)? + "\n";
    ksolve::storage::fsutil::write_atomic(&path, line.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    if !args.quiet {
        let _ = writeln!(
            std::io::stderr(),
            "shard {}/{}: {} positions counted in {}",
            shard.index,
            shard.count,
            result.positions(),
            path.display()
        );
    }
    Ok(())
}

/// How positions were drawn, as the JSON says it.
fn sampling_name(what: &Described) -> &'static str {
    match (&what.file, what.sampling) {
        (Some(_), _) => "file",
        (None, Sampling::Uniform) => "random",
        (None, Sampling::Walk(_)) => "walk",
    }
}

/// `ksolve merge DIR` for the shards of a `stats` batch: `None` when DIR holds no
/// `stats` shard (its shards are `solve`'s), else the exit code after printing the
/// whole batch's counts as one `stats` run prints them.
pub fn merge(dir: &std::path::Path, json: bool) -> Option<anyhow::Result<u8>> {
    let mut shards: Vec<StatsShard> = Vec::new();
    for e in std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok()) {
        let path = e.path();
        let named = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("shard-") && n.ends_with(".jsonl"));
        if !named {
            continue;
        }
        let bytes = ksolve::storage::fsutil::read_regular(&path, 1 << 20).ok()?;
        let first = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
        match serde_json::from_slice::<StatsShard>(first) {
            Ok(s) => shards.push(s),
            // A `solve` shard (or something else): not this merge's.
            Err(_) => return None,
        }
    }
    if shards.is_empty() {
        return None;
    }
    Some(merge_shards(dir, shards, json))
}

/// Sums the shards of one `stats` batch and prints the whole.
fn merge_shards(
    dir: &std::path::Path,
    mut shards: Vec<StatsShard>,
    json: bool,
) -> anyhow::Result<u8> {
    shards.sort_by_key(|s| s.shard);
    let first = shards[0].clone();
    if let Some(other) = shards
        .iter()
        .find(|s| s.shards != first.shards || s.batch != first.batch)
    {
        anyhow::bail!(
            "the stats shards in {} are not one batch: shard {} of {} and shard {} of {} \
             differ in the definition, the goal, the positions or the metric",
            dir.display(),
            first.shard,
            first.shards,
            other.shard,
            other.shards
        );
    }
    let missing: Vec<String> = (0..first.shards)
        .filter(|k| !shards.iter().any(|s| s.shard == *k))
        .map(|k| format!("shard-{k}-of-{}.jsonl", first.shards))
        .collect();
    if !missing.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "error: {} of the {} shards missing from {}: {}",
            missing.len(),
            first.shards,
            dir.display(),
            missing.join(", ")
        );
        return Ok(EXIT_NO_SOLUTION);
    }
    let mut distribution = stats::Distribution::default();
    let (mut nodes, mut solving, mut tables) = (0, 0.0, 0.0f64);
    for s in &shards {
        for (l, &c) in s.counts.iter().enumerate() {
            distribution.add_many(l as u32, c);
        }
        distribution.unsolved += s.unsolved;
        nodes += s.nodes;
        solving += s.seconds_solving;
        tables = tables.max(s.seconds_tables);
    }
    let b = &first.batch;
    let what = Described {
        sampling: match (b.sampling.as_str(), b.walk_length) {
            ("walk", Some(len)) => Sampling::Walk(len),
            _ => Sampling::Uniform,
        },
        file: b.file.clone(),
        goal: b.goal.clone(),
    };
    let result = Stats {
        distribution,
        tables: std::time::Duration::from_secs_f64(tables),
        solving: std::time::Duration::from_secs_f64(solving),
        nodes,
    };
    let metric = if b.metric == "qtm" {
        Metric::Qtm
    } else {
        Metric::Htm
    };
    if json {
        print_json(&b.puzzle, &what, b.seed, metric, &result)?;
    } else {
        print_text(&b.puzzle, &what, b.seed, metric, &result)?;
    }
    Ok(if result.distribution.unsolved > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}
