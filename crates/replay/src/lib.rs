//! # whistle-replay
//!
//! The replay log of one match: JSON Lines, versioned, self-contained and
//! readable from any language (docs/replay-format.md). Line 1 is a
//! [`Header`]; then one [`HandLog`] per hand, written and flushed as soon as
//! the hand ends, so a crash loses at most the hand in progress; then an
//! [`EndLog`] when the match is over.
//!
//! Every line after the first carries `prev`: the SHA-256 (hex) of the exact
//! bytes of the line before it, so removing, reordering or editing a line
//! breaks the chain. The match seed is written only in the end record: while
//! a match is being played its log reveals nothing about its future deals.
//!
//! Only this crate defines the on-disk schema; the version policy is in
//! docs/replay-format.md.

use std::{
    fs::{File, OpenOptions},
    io::{self, BufRead, BufReader, Write},
    path::{Path, PathBuf},
};

pub mod verify;

/// The suffix of a compressed log: a closed league round's logs are kept
/// gzip-compressed (`m00042.jsonl.gz`); every reader takes either form.
pub const GZ: &str = ".gz";

/// Whether `path` names a compressed log.
pub fn is_compressed(path: &Path) -> bool {
    path.to_str().is_some_and(|p| p.ends_with(GZ))
}

/// Opens a log for reading line by line, compressed or not.
///
/// # Errors
/// If the file cannot be opened.
pub fn open_log(path: &Path) -> io::Result<Box<dyn BufRead>> {
    let file = File::open(path)?;
    Ok(if is_compressed(path) {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(file)))
    } else {
        Box::new(BufReader::new(file))
    })
}

/// A log's bytes as written (decompressed): what its SHA-256 and its hash
/// chain are of.
///
/// # Errors
/// If the file cannot be read (or does not decompress).
pub fn read_log_bytes(path: &Path) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    io::Read::read_to_end(&mut open_log(path)?, &mut out)?;
    Ok(out)
}

/// Compresses the finished log at `path` (`X.jsonl`) into `X.jsonl.gz` and
/// removes the original, so that a reader finds exactly one of them: the
/// compressed file is written beside, synced and renamed into place before
/// the original goes. Killed part way, both may remain, identical in
/// content; readers prefer the original, and compressing again finishes
/// the job.
///
/// # Errors
/// If a file cannot be read, written or renamed.
pub fn compress_log(path: &Path) -> io::Result<PathBuf> {
    let bytes = std::fs::read(path)?;
    let mut target = path.as_os_str().to_owned();
    target.push(GZ);
    let target = PathBuf::from(target);
    let mut tmp = target.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    {
        let file = File::create(&tmp)?;
        let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
        gz.write_all(&bytes)?;
        gz.finish()?.sync_all()?;
    }
    std::fs::rename(&tmp, &target)?;
    std::fs::remove_file(path)?;
    Ok(target)
}

use serde::{Deserialize, Serialize};
use whistle_rules::{Action, Card, HandResult, MatchResult, Options, Seat, dealing::Seed};

/// The value of [`Header::format`].
pub const FORMAT: &str = "whistle-replay";
/// The format version this crate writes and reads.
pub const VERSION: u32 = 1;

/// SHA-256 of `bytes`, as lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(sha256(bytes).as_ref())
}

/// SHA-256 of `bytes`, as its 32 bytes.
pub(crate) fn sha256(bytes: &[u8]) -> ring::digest::Digest {
    ring::digest::digest(&ring::digest::SHA256, bytes)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// `bytes` as lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(HEX[usize::from(b >> 4)] as char);
        out.push(HEX[usize::from(b & 15)] as char);
    }
    out
}

/// Whether `text` is `bytes` as lowercase hex (compared without making the
/// hex).
pub(crate) fn is_hex_of(text: &str, bytes: &[u8]) -> bool {
    text.len() == 2 * bytes.len()
        && text
            .as_bytes()
            .chunks_exact(2)
            .zip(bytes)
            .all(|(pair, &b)| {
                pair[0] == HEX[usize::from(b >> 4)] && pair[1] == HEX[usize::from(b & 15)]
            })
}

/// The commitment to a tournament seed published before play: SHA-256 of the
/// seed's 32 bytes, as hex.
pub fn seed_commitment(seed: Seed) -> String {
    sha256_hex(&seed.0)
}

/// The clocks of a match, as configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Time per decision before the bank is drawn on.
    pub per_action_ms: u64,
    /// The match's time bank per seat.
    pub time_bank_ms: u64,
    /// Reconnection grace period.
    pub reconnect_grace_ms: u64,
}

/// The fault policy of a match, as configured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Faults {
    /// Faults at which a seat forfeits.
    pub max_faults: u32,
    /// The fallback rule: `passive`, `first` or `random` (logs written
    /// before `passive` existed name one of the other two).
    pub fallback: String,
}

/// Line 1 of a match log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version, [`VERSION`].
    pub version: u32,
    /// The tournament's name.
    pub tournament: String,
    /// The match's index in the tournament schedule.
    #[serde(rename = "match")]
    pub match_index: u64,
    /// The table id.
    pub table: String,
    /// The game's name.
    pub game: String,
    /// Every game option with its effective value.
    pub options: Options,
    /// The bot in each seat, by seat.
    pub seats: Vec<String>,
    /// SHA-256 of the tournament seed (hex), published before play.
    pub seed_commitment: String,
    /// The clocks.
    pub clocks: Clocks,
    /// The fault policy.
    pub faults: Faults,
    /// For duplicate events: the group of matches sharing these deals, and
    /// this match's seat rotation within it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<Duplicate>,
}

/// Where a match sits in a duplicate event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duplicate {
    /// Matches of the same group play the same deals.
    pub group: u64,
    /// Seat rotation of this match within the group.
    pub rotation: u32,
}

/// One decision as applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionLog {
    /// The seat.
    pub seat: Seat,
    /// The action, in canonical notation.
    pub action: Action,
    /// Milliseconds from request to answer, to the microsecond (0 for a
    /// fallback played without asking).
    pub ms: f64,
    /// Whether the referee played it as a fallback.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fallback: bool,
}

/// One fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultLog {
    /// The seat at fault.
    pub seat: Seat,
    /// Its kind: `late`, `illegal`, `malformed`, `out-of-turn`, `stale`,
    /// `absent` or `flood`.
    pub kind: String,
    /// What was wrong.
    pub detail: String,
    /// The fallback played, if a decision was due.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Action>,
    /// The seat's fault count after this one.
    pub faults: u32,
    /// Whether this fault made the seat forfeit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forfeited: bool,
    /// Index into the hand's actions before which the fault happened.
    pub at: usize,
    /// The answer that was judged malformed or illegal, as the seat gave it,
    /// so that anyone can judge it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<whistle_rules::Answer>,
}

/// One hand (one deal): the explicit deal, every action, faults and result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HandLog {
    /// SHA-256 of the previous line.
    pub prev: String,
    /// The deal index in the match.
    pub deal: u32,
    /// The dealer.
    pub dealer: Seat,
    /// The deck order dealt, top card first.
    pub deck: Vec<Card>,
    /// Every action, in order.
    pub actions: Vec<ActionLog>,
    /// Faults during the hand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<FaultLog>,
    /// The hand's result.
    pub result: HandResult,
    /// For the first hand of a record typed in by a person: where the hand
    /// sits in its match (hand number, dealer, totals, previous bids), so a
    /// hand after the first can be checked. Never in a log the runner writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<whistle_rules::HandContext>,
}

/// The last line: the match result, and the match seed, revealed now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndLog {
    /// SHA-256 of the previous line.
    pub prev: String,
    /// The match result.
    pub result: MatchResult,
    /// Seats that forfeited.
    pub forfeited: Vec<Seat>,
    /// Faults per seat.
    pub faults: Vec<u32>,
    /// The match seed, from which every deal and random fallback derives.
    pub match_seed: Seed,
}

/// Any line of a log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Line {
    /// The header.
    Header(Header),
    /// A hand.
    Hand(HandLog),
    /// The end.
    End(EndLog),
}

/// A match log as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchLog {
    /// The header.
    pub header: Header,
    /// The complete hands, in order.
    pub hands: Vec<HandLog>,
    /// The end record, if the match finished.
    pub end: Option<EndLog>,
    /// SHA-256 of the last complete line (what the next line's `prev` must be).
    pub last_hash: String,
}

/// Why a log could not be read or written.
#[derive(Debug)]
pub enum ReplayError {
    /// An IO error, with the file.
    Io(PathBuf, io::Error),
    /// A line that is not a valid record.
    Parse {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            ReplayError::Parse {
                path,
                line,
                message,
            } => write!(f, "{}:{line}: {message}", path.display()),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Writes one match log, line by line, flushing after each.
#[derive(Debug)]
pub struct Writer {
    path: PathBuf,
    file: File,
    last_hash: String,
}

impl Writer {
    /// Creates (or truncates) `path` and writes the header.
    ///
    /// # Errors
    /// [`ReplayError::Io`].
    pub fn create(path: &Path, header: &Header) -> Result<Writer, ReplayError> {
        let io = |e| ReplayError::Io(path.to_path_buf(), e);
        let file = File::create(path).map_err(io)?;
        let mut w = Writer {
            path: path.to_path_buf(),
            file,
            last_hash: String::new(),
        };
        w.write_line(&Line::Header(header.clone()))?;
        Ok(w)
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
        let file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(keep as u64).map_err(io)?;
        let mut file = file;
        io::Seek::seek(&mut file, io::SeekFrom::End(0)).map_err(io)?;
        Ok(Writer {
            path: path.to_path_buf(),
            file,
            last_hash: log.last_hash.clone(),
        })
    }

    /// The hash the next line's `prev` must carry.
    pub fn last_hash(&self) -> &str {
        &self.last_hash
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
        self.file.write_all(text.as_bytes()).map_err(io)?;
        self.file.write_all(b"\n").map_err(io)?;
        self.file.flush().map_err(io)?;
        self.last_hash = sha256_hex(text.as_bytes());
        Ok(())
    }
}

/// Reads a match log. A last line without its newline (a crash mid-write) is
/// ignored; any other bad line is an error. Hashes are not checked here (see
/// the verifier).
///
/// # Errors
/// [`ReplayError`].
pub fn read(path: &Path) -> Result<MatchLog, ReplayError> {
    let io = |e| ReplayError::Io(path.to_path_buf(), e);
    let mut reader = open_log(path).map_err(io)?;
    let mut header = None;
    let mut hands = Vec::new();
    let mut end = None;
    let mut last_hash = String::new();
    let mut buf = String::new();
    let mut n = 0;
    loop {
        buf.clear();
        if reader.read_line(&mut buf).map_err(io)? == 0 {
            break;
        }
        n += 1;
        let Some(text) = buf.strip_suffix('\n') else {
            break; // a partial last line
        };
        let parse = |message: String| ReplayError::Parse {
            path: path.to_path_buf(),
            line: n,
            message,
        };
        let line: Line = serde_json::from_str(text).map_err(|e| parse(e.to_string()))?;
        match (line, &header, &end) {
            (Line::Header(h), None, _) => {
                if h.format != FORMAT || h.version != VERSION {
                    return Err(parse(format!(
                        "format {} version {} (this build reads {FORMAT} version {VERSION})",
                        h.format, h.version
                    )));
                }
                header = Some(h);
            }
            (Line::Hand(h), Some(_), None) => hands.push(h),
            (Line::End(e), Some(_), None) => end = Some(e),
            (Line::Header(_), Some(_), _) => return Err(parse("a second header".into())),
            (_, None, _) => return Err(parse("the first line must be the header".into())),
            (_, _, Some(_)) => return Err(parse("a line after the end record".into())),
        }
        last_hash = sha256_hex(text.as_bytes());
    }
    let header = header.ok_or_else(|| ReplayError::Parse {
        path: path.to_path_buf(),
        line: 1,
        message: "no header".into(),
    })?;
    Ok(MatchLog {
        header,
        hands,
        end,
        last_hash,
    })
}

#[cfg(test)]
mod tests {
    use whistle_rules::{ScoreOrder, decks};

    use super::*;

    /// The chain's hash is SHA-256 as lowercase hex (FIPS 180-2's vectors):
    /// every log ever written depends on it.
    #[test]
    fn the_chain_hash_is_sha256_in_lowercase_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    pub(crate) fn header() -> Header {
        Header {
            format: FORMAT.into(),
            version: VERSION,
            tournament: "t".into(),
            match_index: 3,
            table: "t-m00003".into(),
            game: "israeli".into(),
            options: Options::parse(&["hands=1"]).unwrap(),
            seats: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            seed_commitment: seed_commitment(Seed::from_u64(1)),
            clocks: Clocks {
                per_action_ms: 1000,
                time_bank_ms: 0,
                reconnect_grace_ms: 0,
            },
            faults: Faults {
                max_faults: 3,
                fallback: "first".into(),
            },
            duplicate: None,
        }
    }

    fn hand() -> HandLog {
        HandLog {
            prev: String::new(),
            deal: 0,
            dealer: Seat::new(0),
            deck: decks::STANDARD.to_vec(),
            actions: vec![ActionLog {
                seat: Seat::new(1),
                action: Action::Pass,
                ms: 3.25,
                fallback: false,
            }],
            faults: vec![],
            result: HandResult {
                deal: 0,
                dealer: Seat::new(0),
                misdeal: false,
                bids: vec![None; 4],
                tricks: vec![0; 4],
                made: vec![None; 4],
                points: vec![0; 4],
                totals: vec![0; 4],
                seat_points: vec![],
                summary: "s".into(),
            },
            context: None,
        }
    }

    #[test]
    fn a_log_round_trips_and_chains_its_hashes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let mut w = Writer::create(&path, &header()).unwrap();
        w.hand(hand()).unwrap();
        w.end(EndLog {
            prev: String::new(),
            result: MatchResult::by_totals(
                vec![0; 4],
                vec![0, 1, 2, 3],
                ScoreOrder::HigherIsBetter,
                1,
            ),
            forfeited: vec![],
            faults: vec![0; 4],
            match_seed: Seed::from_u64(2),
        })
        .unwrap();
        let log = read(&path).unwrap();
        assert_eq!(log.header, header());
        assert_eq!(log.hands.len(), 1);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(log.hands[0].prev, sha256_hex(lines[0].as_bytes()));
        assert_eq!(
            log.end.as_ref().unwrap().prev,
            sha256_hex(lines[1].as_bytes())
        );
        assert!(lines[1].contains("\"action\":\"pass\""));
    }

    #[test]
    fn a_partial_last_line_is_ignored_and_cut_on_append() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let mut w = Writer::create(&path, &header()).unwrap();
        w.hand(hand()).unwrap();
        drop(w);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"type\":\"hand\",\"prev").unwrap();
        drop(f);
        let log = read(&path).unwrap();
        assert_eq!(log.hands.len(), 1);
        let mut w = Writer::append(&path, &log).unwrap();
        w.hand(hand()).unwrap();
        let log = read(&path).unwrap();
        assert_eq!(log.hands.len(), 2);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap().lines().count(),
            3,
            "the partial line is gone"
        );
    }
}
