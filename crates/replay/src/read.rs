//! Reading a log: [`LogReader`], the header and then the hands one by one,
//! over any [`BufRead`] (a file, plain or gzip-compressed, or bytes in
//! memory); [`read`] a whole log at once.

use std::{
    io::BufRead,
    path::{Path, PathBuf},
};

use crate::{EndLog, FORMAT, HandLog, Header, Line, MatchLog, ReplayError, VERSION, sha256_hex};

/// Reads a log's header when made, then iterates over its hands in order,
/// each a typed [`HandLog`]. The end record, once passed, is kept
/// ([`LogReader::end`]). A last line without its newline (a crash
/// mid-write, or a log still being written) ends the hands as if it were
/// not there; any other line that is not the next record is an error with
/// its line number, after which the iterator stops. Hashes are not checked
/// here (see the verifier).
///
/// ```
/// # use whistle_replay::{LogReader, ReplayError};
/// # fn hands(path: &std::path::Path) -> Result<usize, ReplayError> {
/// let mut log = LogReader::open(path)?; // `m00001.jsonl` or `m00001.jsonl.gz`
/// println!("{} at {}", log.header().game, log.header().table);
/// let mut n = 0;
/// for hand in &mut log {
///     let hand = hand?;
///     n += hand.actions.len();
/// }
/// # Ok(n)
/// # }
/// ```
#[derive(Debug)]
pub struct LogReader<R> {
    lines: Lines<R>,
    header: Header,
    end: Option<EndLog>,
}

/// A log's complete lines, each parsed as a record.
#[derive(Debug)]
struct Lines<R> {
    reader: R,
    /// The file, for errors.
    path: PathBuf,
    /// 1-based number of the last line read.
    line: usize,
    /// The exact text of the last complete record read, without its newline.
    last: String,
    buf: String,
    done: bool,
}

impl LogReader<Box<dyn BufRead>> {
    /// Opens the log at `path`, compressed (`.gz`) or not, and reads its
    /// header.
    ///
    /// # Errors
    /// [`ReplayError`]: the file cannot be opened, or its first line is not
    /// a header of this format and version.
    pub fn open(path: &Path) -> Result<LogReader<Box<dyn BufRead>>, ReplayError> {
        let reader = crate::open_log(path).map_err(|e| ReplayError::Io(path.to_path_buf(), e))?;
        LogReader::new(reader, path)
    }
}

impl<R: BufRead> LogReader<R> {
    /// Reads the header from `reader`; `path` names the log in errors.
    ///
    /// # Errors
    /// [`ReplayError`]: the first line cannot be read, or is not a header
    /// of this format and version.
    pub fn new(reader: R, path: &Path) -> Result<LogReader<R>, ReplayError> {
        let mut lines = Lines {
            reader,
            path: path.to_path_buf(),
            line: 0,
            last: String::new(),
            buf: String::new(),
            done: false,
        };
        let header = match lines.next_line()? {
            None => return Err(lines.parse_error(1, "no header".into())),
            Some(Line::Header(h)) => h,
            Some(_) => {
                return Err(lines.parse_error(1, "the first line must be the header".into()));
            }
        };
        if header.format != FORMAT || header.version != VERSION {
            return Err(lines.parse_error(
                1,
                format!(
                    "format {} version {} (this build reads {FORMAT} version {VERSION})",
                    header.format, header.version
                ),
            ));
        }
        Ok(LogReader {
            lines,
            header,
            end: None,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The end record, once the iterator has passed it.
    pub fn end(&self) -> Option<&EndLog> {
        self.end.as_ref()
    }

    /// The 1-based line number of the last line read (the hand just
    /// yielded).
    pub fn line(&self) -> usize {
        self.lines.line
    }

    /// The exact text of the last complete record read, without its
    /// newline (the header's until a hand is read): what the next line's
    /// `prev` is the hash of, and what a prefix of the log is made of.
    pub fn text(&self) -> &str {
        &self.lines.last
    }

    /// SHA-256 (hex) of the last complete record read.
    pub fn last_hash(&self) -> String {
        sha256_hex(self.lines.last.as_bytes())
    }

    /// Reads the remaining hands and returns the whole log.
    ///
    /// # Errors
    /// The first [`ReplayError`] met.
    pub fn into_log(mut self) -> Result<MatchLog, ReplayError> {
        let hands = (&mut self).collect::<Result<Vec<_>, _>>()?;
        let last_hash = self.last_hash();
        Ok(MatchLog {
            header: self.header,
            hands,
            end: self.end,
            last_hash,
        })
    }
}

impl<R: BufRead> Lines<R> {
    fn parse_error(&self, line: usize, message: String) -> ReplayError {
        ReplayError::Parse {
            path: self.path.clone(),
            line,
            message,
        }
    }

    /// The next complete line as a record, or `None` at the end of the
    /// input (or at a partial last line).
    fn next_line(&mut self) -> Result<Option<Line>, ReplayError> {
        if self.done {
            return Ok(None);
        }
        self.buf.clear();
        let read = self
            .reader
            .read_line(&mut self.buf)
            .map_err(|e| ReplayError::Io(self.path.clone(), e));
        if !matches!(read, Ok(n) if n > 0) || !self.buf.ends_with('\n') {
            // The end, an error, or a partial last line.
            self.done = true;
            return read.map(|_| None);
        }
        self.line += 1;
        self.buf.pop();
        match serde_json::from_str(&self.buf) {
            Ok(line) => {
                std::mem::swap(&mut self.last, &mut self.buf);
                Ok(Some(line))
            }
            Err(e) => {
                self.done = true;
                Err(self.parse_error(self.line, e.to_string()))
            }
        }
    }
}

impl<R: BufRead> Iterator for LogReader<R> {
    type Item = Result<HandLog, ReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let problem = match self.lines.next_line() {
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
                Ok(Some(Line::Header(_))) => "a second header",
                Ok(Some(_)) if self.end.is_some() => "a line after the end record",
                Ok(Some(Line::Hand(h))) => return Some(Ok(h)),
                Ok(Some(Line::End(e))) => {
                    self.end = Some(e);
                    continue;
                }
            };
            self.lines.done = true;
            return Some(Err(self.lines.parse_error(self.lines.line, problem.into())));
        }
    }
}

/// Reads a match log. A last line without its newline (a crash mid-write) is
/// ignored; any other bad line is an error. Hashes are not checked here (see
/// the verifier).
///
/// # Errors
/// [`ReplayError`].
pub fn read(path: &Path) -> Result<MatchLog, ReplayError> {
    LogReader::open(path)?.into_log()
}
