//! Fuzz target for the table-file loader: any bytes, read as a table file, must give a
//! typed error or a verified table whose header matches what was asked for; and a valid
//! file with any one byte changed, cut short or lengthened must be refused.
#![no_main]

use ksolve::storage::file::{check_table, encode_header, HEADER_LEN};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("fuzz.ktb");
    // The first 8 bytes choose the key, so that whole valid headers can be found.
    let key = data
        .get(..8)
        .map_or(0, |k| u64::from_le_bytes(k.try_into().expect("8 bytes")));
    if check_table(data, path, "ksolve-prune", key).is_ok() {
        // Only a file whose checksums hold passes: then its payload is the rest.
        let payload = &data[HEADER_LEN..];
        let head = encode_header("ksolve-prune", key, payload).expect("short kind");
        assert_eq!(&data[..HEADER_LEN], &head[..]);
    }

    // A valid file around the input, then damaged where the input's last bytes say.
    let mut file = encode_header("ksolve-move", key, data)
        .expect("short kind")
        .to_vec();
    file.extend_from_slice(data);
    assert!(check_table(&file, path, "ksolve-move", key).is_ok());
    let at = data.last().map_or(0, |&b| b as usize * 7919) % file.len();
    let mut damaged = file.clone();
    damaged[at] ^= data.first().copied().unwrap_or(0) | 1;
    assert!(check_table(&damaged, path, "ksolve-move", key).is_err());
    assert!(check_table(&file[..file.len() - 1], path, "ksolve-move", key).is_err());
    file.push(0);
    assert!(check_table(&file, path, "ksolve-move", key).is_err());
});
