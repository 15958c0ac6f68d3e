//! `solve`'s batch flags: `--shard K/N`, `--shards N` and `--out DIR`, which make a run
//! one shard of a batch that writes its results to `DIR/shard-K-of-N.jsonl` (see
//! `ksolve::batch`), and the header that ties the file to its batch.

use super::solve::SolveArgs;
use ksolve::batch::{self, Header, Record, Shard, ShardWriter};
use ksolve::puzzle::Scramble;
use std::path::PathBuf;

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

/// Starts the shard's file with the header that ties it to its batch: the hashes of the
/// definition's and the scramble file's bytes, the options that change the output, and
/// the number of scrambles.
pub fn start(
    args: &SolveArgs,
    shard: Shard,
    def_bytes: &[u8],
    scramble_bytes: &[u8],
    scrambles: usize,
) -> anyhow::Result<Batch> {
    let dir = args.batch.out.as_ref().expect("a shard has --out");
    let header = Header {
        ksolve_shard: batch::record::FORMAT,
        version: env!("CARGO_PKG_VERSION").to_string(),
        shard: shard.index,
        shards: shard.count,
        scrambles: scrambles as u64,
        def: args.def.display().to_string(),
        def_sha256: batch::sha256_hex(def_bytes),
        scramble_file: args
            .scrambles
            .as_deref()
            .map(super::input::display_name)
            .unwrap_or_default(),
        scrambles_sha256: batch::sha256_hex(scramble_bytes),
        options: output_options(args),
    };
    let writer = ShardWriter::create(dir, shard, &header)?;
    Ok(Batch { shard, writer })
}

/// The options given that change what `solve` prints, as command-line words in a fixed
/// order, so that shards of one batch agree on them whatever order they were typed in.
/// Options that change only speed (--threads, --memory, --tables) are left out: shards
/// may run on machines of different sizes. --no-probes, --no-symmetry and --all-checks
/// are in, since they change the nodes the JSON objects count.
fn output_options(args: &SolveArgs) -> Vec<String> {
    let o = &args.overrides;
    let mut out = Vec::new();
    let mut push = |flag: &str, value: Option<String>| {
        out.push(flag.to_string());
        out.extend(value);
    };
    if let Some(n) = o.slack {
        push("--slack", Some(n.to_string()));
    }
    if let Some(n) = o.max_depth {
        push("--max-depth", Some(n.to_string()));
    }
    if o.qtm {
        push("--qtm", None);
    }
    if o.htm {
        push("--htm", None);
    }
    if !o.moves.is_empty() {
        push("--moves", Some(o.moves.join(",")));
    }
    if let Some(n) = args.count {
        push("--count", Some(n.to_string()));
    }
    if let Some(n) = args.seed {
        push("--seed", Some(n.to_string()));
    }
    if args.steps {
        push("--steps", None);
    }
    if args.steps && args.color == super::show::ColorWhen::Always {
        push("--color", Some("always".into()));
    }
    // One optimal solution per scramble instead of all of them; the table's path is
    // the shard's own business.
    if args.database.is_some() {
        push("--database", None);
    }
    // The nodes of the JSON objects depend on the probes.
    if args.no_probes {
        push("--no-probes", None);
    }
    if args.no_symmetry {
        push("--no-symmetry", None);
    }
    if args.all_checks {
        push("--all-checks", None);
    }
    out
}

/// A scramble's record from its two forms of output, as [`super::sink::Sink::Record`]
/// gathered them: the text block and the JSON object's line.
pub fn record(
    index: usize,
    scramble: &Scramble,
    status: &str,
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
        status: status.to_string(),
        text: String::from_utf8(text)?,
        json: serde_json::value::RawValue::from_string(String::from_utf8(json)?)?,
    })
}
