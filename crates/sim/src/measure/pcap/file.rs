//! One pcap file (the classic format with nanosecond timestamps: magic 0xa1b23c4d, version 2.4,
//! link type 1, Ethernet), streamed through a bounded buffer to a temporary name beside its final one
//! (`.NAME.tmp-PID`, as `python/delaycc/files.py` names them) and renamed when the run ends. A trace is
//! never held in memory: the buffer is written out whenever it fills.
//!
//! Records hold the frame's headers only (`SNAPLEN` bytes at most, as `tcpdump -s 96` captures); each
//! record's original length is the whole frame's. The first I/O error is kept, later records are
//! dropped, and `finish` reports it; a file dropped without `finish` removes its temporary name.

use crate::time::{Time, NS_PER_SEC};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The pcap magic number for nanosecond timestamps.
pub const MAGIC_NS: u32 = 0xa1b2_3c4d;
/// Largest captured part of a frame: every header this module writes fits (`wire::MAX_HEADERS`).
pub const SNAPLEN: u32 = 96;
/// Link type Ethernet (LINKTYPE_ETHERNET).
const LINKTYPE_ETHERNET: u32 = 1;
/// Bytes of a record's own header.
pub const RECORD_HEADER: usize = 16;

/// The file header: magic, version 2.4, no time zone, no accuracy, snapshot length, link type; little
/// endian (the magic tells readers the byte order).
pub fn file_header() -> [u8; 24] {
    let mut h = [0u8; 24];
    h[0..4].copy_from_slice(&MAGIC_NS.to_le_bytes());
    h[4..6].copy_from_slice(&2u16.to_le_bytes());
    h[6..8].copy_from_slice(&4u16.to_le_bytes());
    h[16..20].copy_from_slice(&SNAPLEN.to_le_bytes());
    h[20..24].copy_from_slice(&LINKTYPE_ETHERNET.to_le_bytes());
    h
}

/// A pcap file being written.
pub struct PcapFile {
    path: PathBuf,
    tmp: PathBuf,
    /// Kept open unless the run has more traces than it may keep files open (then opened per flush).
    file: Option<File>,
    buf: Vec<u8>,
    /// The buffer is written out once it holds this many bytes (room for one more record remains).
    flush_at: usize,
    packets: u64,
    error: Option<String>,
    finished: bool,
}

fn io_error(path: &Path, what: &str, e: std::io::Error) -> String {
    format!("{}: cannot {what}: {e}", path.display())
}

impl PcapFile {
    /// Creates the temporary file with the file header. `buffer` is the buffer's capacity in bytes;
    /// `keep_open` keeps the file open between flushes.
    pub fn create(path: PathBuf, buffer: usize, keep_open: bool) -> Result<PcapFile, String> {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let mut file = File::create(&tmp).map_err(|e| io_error(&tmp, "create", e))?;
        if let Err(e) = file.write_all(&file_header()) {
            let _ = std::fs::remove_file(&tmp);
            return Err(io_error(&tmp, "write", e));
        }
        let capacity = buffer.max(4 * (RECORD_HEADER + SNAPLEN as usize));
        Ok(PcapFile {
            path,
            tmp,
            file: keep_open.then_some(file),
            buf: Vec::with_capacity(capacity),
            flush_at: capacity - (RECORD_HEADER + SNAPLEN as usize),
            packets: 0,
            error: None,
            finished: false,
        })
    }

    /// The file's final name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records written so far.
    pub fn packets(&self) -> u64 {
        self.packets
    }

    /// Bytes of buffer this file holds.
    pub fn buffer_bytes(&self) -> usize {
        self.buf.capacity()
    }

    /// Appends a record at time `t`: `frame` appends the frame's headers (at most `SNAPLEN` bytes) and
    /// returns the whole frame's length.
    #[inline]
    pub fn record(&mut self, t: Time, frame: impl FnOnce(&mut Vec<u8>) -> u32) {
        let at = self.buf.len();
        self.buf.extend_from_slice(&[0u8; RECORD_HEADER]);
        let orig = frame(&mut self.buf);
        let incl = (self.buf.len() - at - RECORD_HEADER) as u32;
        debug_assert!(incl <= SNAPLEN);
        let h = &mut self.buf[at..at + RECORD_HEADER];
        h[0..4].copy_from_slice(&((t / NS_PER_SEC) as u32).to_le_bytes());
        h[4..8].copy_from_slice(&((t % NS_PER_SEC) as u32).to_le_bytes());
        h[8..12].copy_from_slice(&incl.to_le_bytes());
        h[12..16].copy_from_slice(&orig.max(incl).to_le_bytes());
        self.packets += 1;
        if self.buf.len() >= self.flush_at {
            self.flush();
        }
    }

    /// Writes the buffer out (after an error, drops it).
    #[cold]
    fn flush(&mut self) {
        if self.error.is_none() && !self.buf.is_empty() {
            let result = match &mut self.file {
                Some(f) => f.write_all(&self.buf),
                None => {
                    OpenOptions::new().append(true).open(&self.tmp).and_then(|mut f| f.write_all(&self.buf))
                }
            };
            if let Err(e) = result {
                self.error = Some(io_error(&self.tmp, "write", e));
            }
        }
        self.buf.clear();
    }

    /// Writes what is buffered, closes the file and renames it to its final name.
    pub fn finish(mut self) -> Result<(), String> {
        self.flush();
        self.file = None;
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        std::fs::rename(&self.tmp, &self.path).map_err(|e| io_error(&self.path, "rename into place", e))?;
        self.finished = true;
        Ok(())
    }
}

impl Drop for PcapFile {
    fn drop(&mut self) {
        if !self.finished {
            self.file = None;
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("delaycc-pcap-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn header_records_and_rename() {
        let d = tmp_dir("file");
        let path = d.join("x.pcap");
        for keep_open in [true, false] {
            let _ = std::fs::remove_file(&path);
            let mut f = PcapFile::create(path.clone(), 0, keep_open).unwrap();
            // More records than the smallest buffer holds, so it is flushed on the way.
            for i in 0..1000u64 {
                f.record(1_500_000_000 + i, |out| {
                    out.extend_from_slice(&[7u8; 54]);
                    1014
                });
            }
            assert!(!path.exists(), "written under a temporary name until finished");
            f.finish().unwrap();
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(bytes.len(), 24 + 1000 * (16 + 54));
            assert_eq!(&bytes[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
            assert_eq!(&bytes[16..20], &96u32.to_le_bytes());
            let r = &bytes[24 + 999 * 70..24 + 999 * 70 + 16];
            assert_eq!(&r[0..4], &1u32.to_le_bytes());
            assert_eq!(&r[4..8], &500_000_999u32.to_le_bytes());
            assert_eq!(&r[8..12], &54u32.to_le_bytes());
            assert_eq!(&r[12..16], &1014u32.to_le_bytes());
        }
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "no temporary file left");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn dropped_unfinished_leaves_nothing() {
        let d = tmp_dir("drop");
        let f = PcapFile::create(d.join("y.pcap"), 4096, true).unwrap();
        drop(f);
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
