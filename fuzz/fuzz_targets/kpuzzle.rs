//! Fuzz target for the KPuzzle JSON reader: any bytes must give a puzzle or an error,
//! never a panic (deep nesting included, and ksolve's extension object); every puzzle
//! read must write (`write_definition`, which checks that its JSON reads back equal,
//! extension included), and any bytes read as a KPattern against a small puzzle give a
//! position or an error.
#![no_main]

use ksolve::kpuzzle::{read_definition, read_pattern, write_definition};
use libfuzzer_sys::fuzz_target;

/// Two orbits, one twisting, for patterns to be read against.
const SMALL: &str = r#"{
  "orbits": [
    { "orbitName": "A", "numPieces": 3, "numOrientations": 3 },
    { "orbitName": "B", "numPieces": 2, "numOrientations": 1 }
  ],
  "defaultPattern": {
    "A": { "pieces": [0, 1, 1], "orientation": [0, 0, 0], "orientationMod": [1, 1, 1] },
    "B": { "pieces": [0, 1], "orientation": [0, 0] }
  },
  "moves": {
    "X": { "A": { "permutation": [1, 2, 0], "orientationDelta": [1, 0, 2] } },
    "Y": { "B": { "permutation": [1, 0], "orientationDelta": [0, 0] } }
  }
}"#;

fuzz_target!(|data: &[u8]| {
    match read_definition(data, "fuzz.kpuzzle.json") {
        Ok((puzzle, _warnings)) => {
            // A refusal here is a puzzle the reader makes that its JSON cannot say.
            if let Err(e) = write_definition(&puzzle) {
                panic!("a KPuzzle read does not write back: {e}");
            }
        }
        // Rendering the message must not panic either (it quotes arbitrary lines).
        Err(e) => drop(e.to_string()),
    }
    let (small, _) =
        read_definition(SMALL.as_bytes(), "small.json").expect("the small puzzle reads");
    if let Err(e) = read_pattern(data, "fuzz.json", "fuzz", &small) {
        drop(e.to_string());
    }
});
