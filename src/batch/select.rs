//! Which shard of a batch this process solves: `--shard K/N` on the command line, or
//! the index a cluster scheduler gives each task of an array.
//!
//! Shard K of N takes the scrambles whose 0-based index in the file is K mod N, so the
//! shards are balanced to within one scramble and each can be computed without reading
//! the others. Schedulers number their tasks in their own ways: a Slurm array task gets
//! `SLURM_ARRAY_TASK_ID` (which counts from the array's first index,
//! `SLURM_ARRAY_TASK_MIN`, by `SLURM_ARRAY_TASK_STEP`) and the array's size
//! `SLURM_ARRAY_TASK_COUNT`; a Kubernetes Indexed Job's pod gets only
//! `JOB_COMPLETION_INDEX` (0 to completions - 1), so the number of shards is given with
//! `--shards N`. The environment is passed in as a lookup function so that the rules
//! are tested without touching the process's own environment.

use std::fmt;
use std::str::FromStr;

/// One shard of a batch: `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// Why no shard could be chosen. The messages name the flag or variable at fault and
/// what was expected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SelectError {
    #[error("`{0}` is not a shard: expected K/N, such as 0/4 (shard K of N, 0 <= K < N)")]
    Syntax(String),
    #[error("shard {index}/{count} does not exist: expected 0 <= K < N, with N at least 1")]
    OutOfRange { index: u64, count: u64 },
    #[error("{var}={value:?} is not a number: expected a whole number 0 or more")]
    NotANumber { var: &'static str, value: String },
    #[error(
        "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are set: ksolve cannot tell which \
         scheduler runs it; give --shard K/N"
    )]
    TwoSchedulers,
    #[error("{0} is set but {1} is not: expected both, as Slurm sets them for an array task")]
    Incomplete(&'static str, &'static str),
    #[error(
        "SLURM_ARRAY_TASK_ID={id} is not one of the array's tasks (first {min}, step {step}, \
         {count} tasks): ksolve needs an array given as one range, such as --array=0-7"
    )]
    NotInArray {
        id: u64,
        min: u64,
        step: u64,
        count: u64,
    },
    #[error(
        "the Slurm array from {min} to {max} by {step} has {span} tasks but \
         SLURM_ARRAY_TASK_COUNT={count}: ksolve needs an array given as one range, such as \
         --array=0-7"
    )]
    NotARange {
        min: u64,
        max: u64,
        step: u64,
        span: u64,
        count: u64,
    },
    #[error("--shards {shards} disagrees with SLURM_ARRAY_TASK_COUNT={count}")]
    CountsDisagree { shards: u32, count: u64 },
    #[error(
        "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but the number of shards is \
         not: give --shards N, the Job's completions"
    )]
    NoShardCount,
    #[error(
        "--shards {0} needs JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or a Slurm array \
         task's SLURM_ARRAY_TASK_ID to say which shard this is; or give --shard K/N"
    )]
    NoIndex(u32),
    #[error(
        "--out needs to know which shard to solve: give --shard K/N, or run as a Slurm array \
         task (SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT) or as a Kubernetes Indexed \
         Job's pod (JOB_COMPLETION_INDEX with --shards N)"
    )]
    Unknown,
}

impl Shard {
    /// Shard `index` of `count`, refused unless `index < count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, SelectError> {
        match (u32::try_from(index), u32::try_from(count)) {
            (Ok(i), Ok(n)) if i < n => Ok(Shard { index: i, count: n }),
            _ => Err(SelectError::OutOfRange { index, count }),
        }
    }

    /// Whether this shard solves the scramble at 0-based position `i` of the file.
    pub fn takes(&self, i: usize) -> bool {
        i % self.count as usize == self.index as usize
    }

    /// How many of `total` scrambles this shard takes.
    pub fn share(&self, total: usize) -> usize {
        let (n, k) = (self.count as usize, self.index as usize);
        total / n + usize::from(k < total % n)
    }

    /// The name of this shard's results file in the output folder.
    pub fn file_name(&self) -> String {
        format!("shard-{}-of-{}.jsonl", self.index, self.count)
    }

    /// The shard a results file's name stands for, or `None` when `name` is not
    /// `shard-K-of-N.jsonl` (with K and N in their plain decimal form).
    pub fn from_file_name(name: &str) -> Option<Shard> {
        let rest = name.strip_prefix("shard-")?.strip_suffix(".jsonl")?;
        let (k, n) = rest.split_once("-of-")?;
        let shard = Shard::new(plain_number(k)?, plain_number(n)?).ok()?;
        // `shard-01-of-4.jsonl` would name shard 1 a second time.
        (shard.file_name() == name).then_some(shard)
    }
}

/// A number written with digits only.
fn plain_number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = SelectError;

    fn from_str(s: &str) -> Result<Shard, SelectError> {
        let syntax = || SelectError::Syntax(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(syntax)?;
        let k = plain_number(k.trim()).ok_or_else(syntax)?;
        let n = plain_number(n.trim()).ok_or_else(syntax)?;
        Shard::new(k, n)
    }
}

/// The shard to solve: `explicit` (`--shard K/N`) when given, which wins over the
/// environment; else a Slurm array task's numbers, or a Kubernetes Indexed Job's
/// `JOB_COMPLETION_INDEX` with `shards` (`--shards N`). `env` looks a variable up.
pub fn select(
    explicit: Option<Shard>,
    shards: Option<u32>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Shard, SelectError> {
    if let Some(s) = explicit {
        return Ok(s);
    }
    let number = |var: &'static str| -> Result<Option<u64>, SelectError> {
        match env(var) {
            None => Ok(None),
            Some(value) => plain_number(value.trim())
                .map(Some)
                .ok_or(SelectError::NotANumber { var, value }),
        }
    };
    let slurm_id = number("SLURM_ARRAY_TASK_ID")?;
    let k8s_index = number("JOB_COMPLETION_INDEX")?;
    match (slurm_id, k8s_index) {
        (Some(_), Some(_)) => Err(SelectError::TwoSchedulers),
        (Some(id), None) => {
            let count = number("SLURM_ARRAY_TASK_COUNT")?.ok_or(SelectError::Incomplete(
                "SLURM_ARRAY_TASK_ID",
                "SLURM_ARRAY_TASK_COUNT",
            ))?;
            // Slurm leaves these out of arrays older versions describe less fully; a
            // missing first index is 0 and a missing step is 1, Slurm's defaults.
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            if let Some(max) = number("SLURM_ARRAY_TASK_MAX")? {
                // A list such as --array=1,5,9 has no single step: its ids cannot be
                // turned into shard numbers, so it is refused rather than guessed at.
                let span = max.saturating_sub(min) / step + 1;
                if span != count || max < min || (max - min) % step != 0 {
                    return Err(SelectError::NotARange {
                        min,
                        max,
                        step,
                        span,
                        count,
                    });
                }
            }
            if let Some(n) = shards {
                if u64::from(n) != count {
                    return Err(SelectError::CountsDisagree { shards: n, count });
                }
            }
            let not_in_array = SelectError::NotInArray {
                id,
                min,
                step,
                count,
            };
            if id < min || (id - min) % step != 0 || (id - min) / step >= count {
                return Err(not_in_array);
            }
            Shard::new((id - min) / step, count)
        }
        (None, Some(index)) => {
            let n = shards.ok_or(SelectError::NoShardCount)?;
            Shard::new(index, n.into())
        }
        (None, None) => match shards {
            Some(n) => Err(SelectError::NoIndex(n)),
            None => Err(SelectError::Unknown),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn pick(
        explicit: Option<&str>,
        shards: Option<u32>,
        vars: &[(&str, &str)],
    ) -> Result<Shard, SelectError> {
        select(explicit.map(|s| s.parse().unwrap()), shards, &with(vars))
    }

    #[test]
    fn shards_parse_and_take_every_nth_scramble() {
        let s: Shard = "1/3".parse().unwrap();
        assert_eq!(s, Shard { index: 1, count: 3 });
        let taken: Vec<usize> = (0..8).filter(|&i| s.takes(i)).collect();
        assert_eq!(taken, [1, 4, 7]);
        assert_eq!(s.share(8), 3);
        assert_eq!("2/3".parse::<Shard>().unwrap().share(8), 2);
        assert_eq!("3/4".parse::<Shard>().unwrap().share(3), 0);
        for bad in ["1", "a/2", "1/", "-1/2", "1/2/3", ""] {
            assert_eq!(
                bad.parse::<Shard>(),
                Err(SelectError::Syntax(bad.into())),
                "{bad}"
            );
        }
        assert!(matches!(
            "2/2".parse::<Shard>(),
            Err(SelectError::OutOfRange { .. })
        ));
        assert!(matches!(
            "0/0".parse::<Shard>(),
            Err(SelectError::OutOfRange { .. })
        ));
    }

    #[test]
    fn file_names_round_trip() {
        let s = Shard {
            index: 3,
            count: 12,
        };
        assert_eq!(s.file_name(), "shard-3-of-12.jsonl");
        assert_eq!(Shard::from_file_name("shard-3-of-12.jsonl"), Some(s));
        for other in [
            "shard-03-of-12.jsonl",
            "shard-12-of-12.jsonl",
            "shard-1-of-2.json",
            ".shard-1-of-2.jsonl.ksolve-tmp.1.2.3",
            "shard-x-of-2.jsonl",
        ] {
            assert_eq!(Shard::from_file_name(other), None, "{other}");
        }
    }

    #[test]
    fn explicit_shard_wins_over_the_environment() {
        let s = pick(Some("2/5"), None, &[("SLURM_ARRAY_TASK_ID", "0")]).unwrap();
        assert_eq!(s, Shard { index: 2, count: 5 });
    }

    #[test]
    fn slurm_arrays_count_from_their_first_index_by_their_step() {
        let base = [("SLURM_ARRAY_TASK_COUNT", "4")];
        let s = pick(None, None, &[base[0], ("SLURM_ARRAY_TASK_ID", "2")]).unwrap();
        assert_eq!(s, Shard { index: 2, count: 4 });
        // --array=1-4
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
            base[0],
        ];
        assert_eq!(
            pick(None, None, &vars).unwrap(),
            Shard { index: 0, count: 4 }
        );
        // --array=10-16:2
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "14"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "16"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
            base[0],
        ];
        assert_eq!(
            pick(None, Some(4), &vars).unwrap(),
            Shard { index: 2, count: 4 }
        );
        assert_eq!(
            pick(None, Some(3), &vars),
            Err(SelectError::CountsDisagree {
                shards: 3,
                count: 4
            })
        );
        // --array=1,5,9: three tasks, but not one range.
        let vars = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "9"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ];
        assert!(matches!(
            pick(None, None, &vars),
            Err(SelectError::NotARange { .. })
        ));
        let vars = [("SLURM_ARRAY_TASK_ID", "4"), base[0]];
        assert!(matches!(
            pick(None, None, &vars),
            Err(SelectError::NotInArray { .. })
        ));
        assert_eq!(
            pick(None, None, &[("SLURM_ARRAY_TASK_ID", "0")]),
            Err(SelectError::Incomplete(
                "SLURM_ARRAY_TASK_ID",
                "SLURM_ARRAY_TASK_COUNT"
            ))
        );
        assert!(matches!(
            pick(None, None, &[("SLURM_ARRAY_TASK_ID", "x"), base[0]]),
            Err(SelectError::NotANumber {
                var: "SLURM_ARRAY_TASK_ID",
                ..
            })
        ));
    }

    #[test]
    fn kubernetes_indexed_jobs_need_the_shard_count() {
        let vars = [("JOB_COMPLETION_INDEX", "3")];
        assert_eq!(
            pick(None, Some(4), &vars).unwrap(),
            Shard { index: 3, count: 4 }
        );
        assert_eq!(pick(None, None, &vars), Err(SelectError::NoShardCount));
        assert!(matches!(
            pick(None, Some(3), &vars),
            Err(SelectError::OutOfRange { .. })
        ));
        let both = [("JOB_COMPLETION_INDEX", "0"), ("SLURM_ARRAY_TASK_ID", "0")];
        assert_eq!(pick(None, Some(2), &both), Err(SelectError::TwoSchedulers));
        assert_eq!(pick(None, Some(2), &[]), Err(SelectError::NoIndex(2)));
        assert_eq!(pick(None, None, &[]), Err(SelectError::Unknown));
    }
}
