//! The rules for every file ksolve reads or writes: it reads only regular files, with a
//! size cap, and never blocks opening one; it writes only regular files it may replace.
//!
//! A path given by the user may name anything: a directory, a device (`/dev/zero` reads
//! for ever, `/dev/full` refuses every byte), a named pipe (opening one for reading
//! waits until a writer comes) or a socket. Reading such a thing can exhaust memory or
//! hang, and renaming a freshly written table over it replaces a device node with a
//! regular file. So inputs are checked before they are opened, opened without blocking
//! and checked again on the open handle (the path may have changed in between), and
//! write targets are checked before anything is computed or written.
//!
//! Failures are [`std::io::Error`]s whose message says what the path is instead ("a
//! directory, not a regular file"), so that callers can wrap them in their own typed
//! errors and the message reaches the user unchanged.

use std::fs::{self, File, FileType};
use std::io::{self, Read};
use std::path::Path;

/// The largest input file ksolve reads: a definition at the parser's limits
/// (`def::MAX_MOVE_ENTRIES` entries of at most a dozen bytes each) is about
/// 200 MB, so 1 GiB leaves room for comments while bounding the memory any file can
/// make ksolve spend before the parser sees it.
pub const MAX_INPUT_BYTES: u64 = 1 << 30;

/// What a file type is, in words, for messages about non-regular files.
pub fn describe(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// The error for a path that exists but is not a regular file.
fn not_regular(t: FileType) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{}, not a regular file", describe(t)),
    )
}

/// Opens `path` for reading when it is a regular file (symbolic links are followed),
/// without ever blocking: a named pipe is refused before it is opened, and the open
/// itself does not wait for a writer in case the path is swapped for one meanwhile.
/// A missing file gives an error of kind [`io::ErrorKind::NotFound`].
pub fn open_regular(path: &Path) -> io::Result<File> {
    let t = fs::metadata(path)?.file_type();
    if !t.is_file() {
        return Err(not_regular(t));
    }
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Non-blocking only matters for the open of a pipe or device; reads of a
        // regular file are never affected by it.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let t = file.metadata()?.file_type();
    if !t.is_file() {
        return Err(not_regular(t));
    }
    Ok(file)
}

/// Reads the whole of the regular file at `path`, refusing other kinds of files and
/// files larger than `limit` bytes.
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let too_big = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes, the most ksolve reads"),
        )
    };
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow while it is read; the cap holds whatever its size was.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Checks that ksolve may write `path` by renaming a new file over it: the path is
/// absent or a regular file. A directory, device, named pipe or socket is refused, and
/// so is a symbolic link, because the rename would replace the link itself rather than
/// the file it points to. Errors other than "not found" (a parent that is a regular
/// file, a folder that cannot be searched) are returned as they are.
pub fn check_write_target(path: &Path) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => Ok(()),
        Ok(m) if m.file_type().is_symlink() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a symbolic link; ksolve replaces a file by renaming a new one over it, which \
             would replace the link: give the path of the file itself",
        )),
        Ok(m) => Err(not_regular(m.file_type())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Writes `bytes` to `path` atomically, under the rules of [`check_write_target`]: a new
/// temporary file beside it (named as the table cache names its temporaries, so that a
/// leftover is recognised) is written, synced and renamed over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    check_write_target(path)?;
    let tmp = super::temp::new_temp_path(path);
    // create_new: never open something that already exists under the temporary's name.
    let mut f = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    let result = (|| {
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// A named pipe in `dir`, made with the system's `mkfifo` (no `unsafe` needed).
    fn fifo(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("pipe");
        let ok = Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap()
            .success();
        assert!(ok, "mkfifo failed");
        path
    }

    #[test]
    fn reads_regular_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        fs::write(&file, b"hello").unwrap();
        assert_eq!(read_regular(&file, 100).unwrap(), b"hello");
        let e = read_regular(dir.path(), 100).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let missing = read_regular(&dir.path().join("none"), 100).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        let e = read_regular(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
    }

    #[test]
    fn refuses_a_fifo_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = fifo(dir.path());
        // Opening a named pipe for reading with no writer would block this test for
        // ever; it must come back at once with an error instead.
        let e = read_regular(&pipe, 100).unwrap_err();
        assert!(e.to_string().contains("named pipe"), "{e}");
        let e = check_write_target(&pipe).unwrap_err();
        assert!(e.to_string().contains("named pipe"), "{e}");
    }

    #[test]
    fn caps_the_size() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("big");
        fs::write(&file, vec![b'x'; 101]).unwrap();
        assert!(read_regular(&file, 101).is_ok());
        let e = read_regular(&file, 100).unwrap_err();
        assert!(e.to_string().contains("larger than 100 bytes"), "{e}");
    }

    #[test]
    fn write_targets_are_absent_or_regular() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("t");
        assert!(check_write_target(&file).is_ok());
        fs::write(&file, b"x").unwrap();
        assert!(check_write_target(&file).is_ok());
        let e = check_write_target(dir.path()).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let e = check_write_target(Path::new("/dev/null")).unwrap_err();
        assert!(e.to_string().contains("character device"), "{e}");
        // Below a regular file nothing can be written: the error says so.
        assert!(check_write_target(&file.join("x")).is_err());
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            let e = check_write_target(&link).unwrap_err();
            assert!(e.to_string().contains("symbolic link"), "{e}");
        }
    }
}
