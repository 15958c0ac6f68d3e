//! The shard results file: JSON lines, a header then one record per scramble.
//!
//! The header says which batch the file belongs to (the SHA-256 of the definition's
//! and the scramble file's bytes, the options that change the output, ksolve's version)
//! and which shard it is, so that `ksolve merge` can refuse to mix shards of different
//! batches. Each record keeps a scramble's output in both of `solve`'s forms, exactly
//! as a single run prints it: the ksolve+ text block and the `--json` object, so a merge
//! reproduces either form byte for byte. Nothing in the file depends on the run except
//! the `seconds`, `table_seconds` and `search_seconds` fields of the JSON object, which
//! a single run prints too.

use crate::solve::Status;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

/// The version of this file format, the first field of every header.
pub const FORMAT: u32 = 1;

/// The first line of a shard file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Always [`FORMAT`]; a file of another format is refused.
    pub ksolve_shard: u32,
    /// The ksolve version that wrote the file: shards of different versions may print
    /// differently, so they are not mixed.
    pub version: String,
    /// This file's shard number and the number of shards.
    pub shard: u32,
    pub shards: u32,
    /// How many scrambles the whole scramble file holds.
    pub scrambles: u64,
    /// The definition as named on the command line (for messages only; shards may run
    /// where the files have other paths) and the SHA-256 of its bytes, in hex.
    pub def: String,
    pub def_sha256: String,
    /// The same for the scramble file (`<stdin>` for standard input).
    pub scramble_file: String,
    pub scrambles_sha256: String,
    /// The command-line options that change what is printed, in a fixed order.
    pub options: Vec<String>,
}

/// One scramble's results.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The scramble's 0-based position in the scramble file.
    pub index: u64,
    pub name: String,
    /// `solved`, `no_solution` or `unreachable`, as in the JSON object.
    pub status: Status,
    /// What `ksolve solve` prints for this scramble, from `Solving NAME` to the blank
    /// line after it.
    pub text: String,
    /// What `ksolve solve --json` prints for it, without the line break: kept as raw
    /// JSON so that its bytes (field order, number forms) are reproduced exactly.
    pub json: Box<RawValue>,
}

impl Record {
    /// Whether the scramble was solved (a merge exits with status 1 otherwise).
    pub fn solved(&self) -> bool {
        self.status == Status::Solved
    }
}

/// The SHA-256 of `bytes` in lower-case hex, as `sha256sum` prints it.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A line of the file: `value` as compact JSON and a line break.
pub fn line<T: Serialize>(value: &T) -> Vec<u8> {
    let mut out = serde_json::to_vec(value).expect("shard records always serialise");
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn records_keep_the_json_bytes_as_written() {
        let json = r#"{"name":"a","solutions":["R U"],"seconds":0.5,"nodes":1e0}"#;
        let r = Record {
            index: 3,
            name: "a".into(),
            status: Status::Solved,
            text: "Solving a\n  R U\n\n".into(),
            json: RawValue::from_string(json.into()).unwrap(),
        };
        let bytes = line(&r);
        let back: Record = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(back.json.get(), json);
        assert_eq!(back.text, r.text);
        assert!(back.solved());
    }
}
