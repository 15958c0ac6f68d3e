//! Fuzz target for the definition reader: any bytes must give a puzzle or an error,
//! never a panic, and a puzzle must print (`write_def`) to a file that reads back equal.
#![no_main]

use ksolve::def::{parse_puzzle, write_def};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match parse_puzzle(data, "fuzz.def") {
        Ok((puzzle, _warnings)) => {
            let text = write_def(&puzzle);
            let again = parse_puzzle(text.as_bytes(), "printed.def");
            let (back, _) =
                again.unwrap_or_else(|e| panic!("printed definition refused: {e}\n{text}"));
            assert_eq!(
                back, puzzle,
                "printed definition reads back different:\n{text}"
            );
        }
        // Rendering the message must not panic either (it quotes arbitrary lines).
        Err(e) => drop(e.to_string()),
    }
});
