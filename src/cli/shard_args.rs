//! `solve`'s batch flags: `--shard K/N`, `--shards N` and `--out DIR`, which make a run
//! one shard of a batch that writes its results to `DIR/shard-K-of-N.jsonl` (see
//! `ksolve::batch`), and the header that ties the file to its batch.

use ksolve::batch::{self, Header, Record, Shard, ShardWriter};
use ksolve::puzzle::Scramble;
use std::path::{Path, PathBuf};

/// Solving one shard of a batch on a cluster scheduler.
#[derive(Debug, Default, clap::Args)]
pub struct ShardArgs {
    /// Solve only the scrambles whose 0-based index is K mod N, and write their results
    /// to DIR/shard-K-of-N.jsonl (needs --out). Without it, --out takes the shard from
    /// a Slurm array task (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) or a Kubernetes
    /// Indexed Job (JOB_COMPLETION_INDEX with --shards N).
    #[arg(long, value_name = "K/N", requires = "out", conflicts_with = "shards")]
    pub shard: Option<Shard>,
    /// The number of shards, for a Kubernetes Indexed Job (its completions), whose
    /// JOB_COMPLETION_INDEX says which shard this is.
    #[arg(long, value_name = "N", requires = "out",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub shards: Option<u32>,
    /// Write this shard's results (both the text and the --json form) to
    /// DIR/shard-K-of-N.jsonl, replacing it atomically, instead of printing them; `ksolve
    /// merge DIR` prints a whole batch. The run then exits with 0 once the file is
    /// written, even when some scramble has no solution: the merge says so.
    #[arg(long, value_name = "DIR", requires = "scrambles",
          conflicts_with_all = ["alg", "facelets"])]
    pub out: Option<PathBuf>,
}

/// A shard being solved: which one, and its file.
pub struct Batch {
    pub shard: Shard,
    pub writer: ShardWriter,
}

impl ShardArgs {
    /// The shard this run solves, from the flags and the scheduler's environment, or
    /// `None` without `--out` (an ordinary run).
    pub fn selection(&self) -> anyhow::Result<Option<Shard>> {
        if self.out.is_none() {
            return Ok(None);
        }
        let env = |name: &str| std::env::var(name).ok();
        Ok(Some(batch::select(self.shard, self.shards, &env)?))
    }
}

/// Where a batch comes from, as `solve` passes it down from its command line: the
/// folder to write to, the definition and scramble file as named, and the options that
/// change the output, as `solve`'s words.
pub struct Origin<'a> {
    pub out: &'a Path,
    pub def: String,
    pub scramble_file: String,
    pub options: Vec<String>,
}

/// Starts the shard's file with the header that ties it to its batch: the hashes of the
/// definition's and the scramble file's bytes, the options that change the output, and
/// the number of scrambles.
pub fn start(
    origin: Origin<'_>,
    shard: Shard,
    def_bytes: &[u8],
    scramble_bytes: &[u8],
    scrambles: usize,
) -> anyhow::Result<Batch> {
    let header = Header {
        ksolve_shard: batch::record::FORMAT,
        version: env!("CARGO_PKG_VERSION").to_string(),
        shard: shard.index,
        shards: shard.count,
        scrambles: scrambles as u64,
        def: origin.def,
        def_sha256: batch::sha256_hex(def_bytes),
        scramble_file: origin.scramble_file,
        scrambles_sha256: batch::sha256_hex(scramble_bytes),
        options: origin.options,
    };
    let writer = ShardWriter::create(origin.out, shard, &header)?;
    Ok(Batch { shard, writer })
}

/// A scramble's record from its two forms of output, as [`super::sink::Sink::Record`]
/// gathered them: the text block and the JSON object's line.
pub fn record(
    index: usize,
    scramble: &Scramble,
    status: ksolve::solve::Status,
    text: Vec<u8>,
    mut json: Vec<u8>,
) -> anyhow::Result<Record> {
    // The object is stored without its line break; `merge --json` adds it back.
    if json.last() == Some(&b'\n') {
        json.pop();
    }
    Ok(Record {
        index: index as u64,
        name: scramble.name.clone(),
        status,
        text: String::from_utf8(text)?,
        json: serde_json::value::RawValue::from_string(String::from_utf8(json)?)?,
    })
}
