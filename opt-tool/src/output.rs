//! Writing results: to stdout, or to a file replaced atomically so that a
//! failed run never leaves a partial file behind. Devices and pipes
//! (`-o /dev/null`, a FIFO) are written in place: renaming over them would
//! replace the device with a regular file.

use std::{
    fs,
    io::{self, Write},
    path::Path,
};

/// Writes `bytes` to `path` ('-' is standard output).
pub fn write_output(path: &str, bytes: &[u8]) -> io::Result<()> {
    if path == "-" {
        let mut stdout = io::stdout().lock();
        return match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
            // A closed pipe (`pto-opt ... | head`) is not an error of ours.
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        };
    }
    let target = Path::new(path);
    if fs::metadata(target).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return fs::OpenOptions::new()
            .write(true)
            .open(target)
            .and_then(|mut f| f.write_all(bytes));
    }
    let directory = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let file_name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{path}' is not a file path"),
        )
    })?;
    let temporary = directory.join(format!(
        ".{}.tmp-{}",
        file_name.to_string_lossy(),
        std::process::id()
    ));
    let written = fs::write(&temporary, bytes).and_then(|()| fs::rename(&temporary, target));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}
