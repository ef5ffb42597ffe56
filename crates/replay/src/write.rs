//! Writing a log: [`Writer`], over a file or any other [`Write`].

use std::{
    fs::{File, OpenOptions},
    io::{self, Write},
    path::{Path, PathBuf},
};

use crate::{EndLog, HandLog, Header, Line, MatchLog, ReplayError, sha256_hex};

/// Writes one match log, line by line, flushing after each: to a file
/// ([`Writer::create`], [`Writer::append`]) or to any [`Write`]
/// ([`Writer::new`], e.g. a `Vec<u8>`). The bytes are the same either way.
#[derive(Debug)]
pub struct Writer<W = File> {
    /// The file, for errors (empty for a writer that is not a file).
    path: PathBuf,
    out: W,
    last_hash: String,
}

impl Writer<File> {
    /// Creates (or truncates) `path` and writes the header.
    ///
    /// # Errors
    /// [`ReplayError::Io`].
    pub fn create(path: &Path, header: &Header) -> Result<Writer, ReplayError> {
        let file = File::create(path).map_err(|e| ReplayError::Io(path.to_path_buf(), e))?;
        Writer::start(path.to_path_buf(), file, header)
    }

    /// Opens an existing log to append after its last complete line; a
    /// partial last line (a crash mid-write) is cut off first.
    ///
    /// # Errors
    /// [`ReplayError`] if the file cannot be read or repaired.
    pub fn append(path: &Path, log: &MatchLog) -> Result<Writer, ReplayError> {
        let io = |e| ReplayError::Io(path.to_path_buf(), e);
        let bytes = std::fs::read(path).map_err(io)?;
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(keep as u64).map_err(io)?;
        io::Seek::seek(&mut file, io::SeekFrom::End(0)).map_err(io)?;
        Ok(Writer {
            path: path.to_path_buf(),
            out: file,
            last_hash: log.last_hash.clone(),
        })
    }
}

impl<W: Write> Writer<W> {
    /// Writes the header to `out` and returns the writer of the rest.
    ///
    /// # Errors
    /// [`ReplayError::Io`] (with an empty path).
    pub fn new(out: W, header: &Header) -> Result<Writer<W>, ReplayError> {
        Writer::start(PathBuf::new(), out, header)
    }

    fn start(path: PathBuf, out: W, header: &Header) -> Result<Writer<W>, ReplayError> {
        let mut w = Writer {
            path,
            out,
            last_hash: String::new(),
        };
        w.write_line(&Line::Header(header.clone()))?;
        Ok(w)
    }

    /// The hash the next line's `prev` must carry.
    pub fn last_hash(&self) -> &str {
        &self.last_hash
    }

    /// What the log was written to (a `Vec<u8>` holds the log's bytes).
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes a hand; its `prev` is set here.
    ///
    /// # Errors
    /// [`ReplayError::Io`].
    pub fn hand(&mut self, mut hand: HandLog) -> Result<(), ReplayError> {
        hand.prev = self.last_hash.clone();
        self.write_line(&Line::Hand(hand))
    }

    /// Writes the end record; its `prev` is set here.
    ///
    /// # Errors
    /// [`ReplayError::Io`].
    pub fn end(&mut self, mut end: EndLog) -> Result<(), ReplayError> {
        end.prev = self.last_hash.clone();
        self.write_line(&Line::End(end))
    }

    fn write_line(&mut self, line: &Line) -> Result<(), ReplayError> {
        let text = serde_json::to_string(line).expect("log records serialize");
        let io = |e| ReplayError::Io(self.path.clone(), e);
        self.out.write_all(text.as_bytes()).map_err(io)?;
        self.out.write_all(b"\n").map_err(io)?;
        self.out.flush().map_err(io)?;
        self.last_hash = sha256_hex(text.as_bytes());
        Ok(())
    }
}
