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
    fs::File,
    io::{self, BufRead, BufReader, Write},
    path::{Path, PathBuf},
};

mod read;
mod record;
pub mod verify;
mod write;

pub use read::{LogReader, read};
pub use record::{RecordError, Recorder};
pub use write::Writer;

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
    if !is_compressed(path) {
        // At once, without a buffer between the file and the bytes.
        return std::fs::read(path);
    }
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
use whistle_rules::{
    Action, Card, Fallback, HandResult, MatchResult, Options, Seat, Variant, dealing::Seed,
};

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

impl Header {
    /// The one way to make a header: match `match_index` of `tournament`,
    /// playing `game` with its effective `options`, the bot of each seat
    /// in `seats`. The table id is `<tournament>-m<index, 5 digits>`; no
    /// seed commitment, clocks of zero, no fault limit and the default
    /// fallback rule, not a duplicate match, until the builder says
    /// otherwise.
    pub fn builder(
        tournament: &str,
        match_index: u64,
        game: Variant,
        options: Options,
        seats: Vec<String>,
    ) -> HeaderBuilder {
        HeaderBuilder(Header {
            format: FORMAT.into(),
            version: VERSION,
            tournament: tournament.into(),
            match_index,
            table: format!("{tournament}-m{match_index:05}"),
            game: game.name().into(),
            options,
            seats,
            seed_commitment: String::new(),
            clocks: Clocks {
                per_action_ms: 0,
                time_bank_ms: 0,
                reconnect_grace_ms: 0,
            },
            faults: Faults {
                max_faults: 0,
                fallback: Fallback::default().name().into(),
            },
            duplicate: None,
        })
    }
}

/// A [`Header`] being made: [`Header::builder`], then what differs from
/// its defaults, then [`HeaderBuilder::build`].
#[derive(Debug, Clone)]
#[must_use]
pub struct HeaderBuilder(Header);

impl HeaderBuilder {
    /// The table id, if not `<tournament>-m<index>`.
    pub fn table(mut self, table: String) -> HeaderBuilder {
        self.0.table = table;
        self
    }

    /// The commitment to the tournament seed ([`seed_commitment`]).
    pub fn seed_commitment(mut self, commitment: String) -> HeaderBuilder {
        self.0.seed_commitment = commitment;
        self
    }

    /// The clocks.
    pub fn clocks(mut self, clocks: Clocks) -> HeaderBuilder {
        self.0.clocks = clocks;
        self
    }

    /// The fault policy.
    pub fn faults(mut self, faults: Faults) -> HeaderBuilder {
        self.0.faults = faults;
        self
    }

    /// The duplicate group and rotation, for a match of a duplicate event.
    pub fn duplicate(mut self, duplicate: Option<Duplicate>) -> HeaderBuilder {
        self.0.duplicate = duplicate;
        self
    }

    /// The header.
    pub fn build(self) -> Header {
        self.0
    }
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
// A hand line holds its result inline, as the engine gives it.
#[allow(clippy::large_enum_variant)]
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
            // A log written to memory has no path.
            ReplayError::Io(p, e) if p.as_os_str().is_empty() => write!(f, "{e}"),
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
        Header::builder(
            "t",
            3,
            Variant::Israeli,
            Options::parse(&["hands=1"]).unwrap(),
            vec!["a".into(), "b".into(), "c".into(), "d".into()],
        )
        .seed_commitment(seed_commitment(Seed::from_u64(1)))
        .clocks(Clocks {
            per_action_ms: 1000,
            time_bank_ms: 0,
            reconnect_grace_ms: 0,
        })
        .faults(Faults {
            max_faults: 3,
            fallback: "first".into(),
        })
        .build()
    }

    /// The builder's defaults are the format's: this format and version,
    /// the table id from the tournament and match, and the header as a
    /// literal gives it.
    #[test]
    fn the_header_builder_fills_the_format_and_the_table_id() {
        let h = header();
        assert_eq!((h.format.as_str(), h.version), (FORMAT, VERSION));
        assert_eq!(h.table, "t-m00003");
        assert_eq!(h.game, "israeli");
        let text = serde_json::to_string(&Line::Header(h)).unwrap();
        assert!(
            text.starts_with(
                r#"{"type":"header","format":"whistle-replay","version":1,"tournament":"t","match":3,"table":"t-m00003","game":"israeli","#
            ),
            "{text}"
        );
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
                bids: [None; 4].into_iter().collect(),
                tricks: [0; 4].into_iter().collect(),
                made: [None; 4].into_iter().collect(),
                points: [0; 4].into_iter().collect(),
                totals: [0; 4].into_iter().collect(),
                seat_points: Default::default(),
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
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
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

    fn end() -> EndLog {
        EndLog {
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
        }
    }

    /// A log written to memory is the log written to a file, byte for
    /// byte, hash chain included.
    #[test]
    fn a_log_written_to_memory_equals_the_one_written_to_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.jsonl");
        let mut to_file = Writer::create(&path, &header()).unwrap();
        let mut to_vec = Writer::new(Vec::new(), &header()).unwrap();
        for w_hand in [hand(), hand()] {
            to_file.hand(w_hand.clone()).unwrap();
            to_vec.hand(w_hand).unwrap();
        }
        to_file.end(end()).unwrap();
        to_vec.end(end()).unwrap();
        assert_eq!(to_file.last_hash(), to_vec.last_hash());
        drop(to_file);
        let bytes = to_vec.into_inner();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 4);
    }

    /// The hand iterator reads a plain log and its gzip-compressed form
    /// alike: the same header, hands, end, line numbers and last hash.
    #[test]
    fn the_hand_iterator_reads_plain_and_gzip_logs_alike() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("m.jsonl");
        let mut w = Writer::create(&plain, &header()).unwrap();
        let mut second = hand();
        second.deal = 1;
        w.hand(hand()).unwrap();
        w.hand(second).unwrap();
        w.end(end()).unwrap();
        drop(w);
        let text = std::fs::read_to_string(&plain).unwrap();
        let copy = dir.path().join("c.jsonl");
        std::fs::copy(&plain, &copy).unwrap();
        let gz = compress_log(&copy).unwrap();
        assert!(is_compressed(&gz) && !copy.exists());
        let read_all = |path: &Path| {
            let mut r = LogReader::open(path).unwrap();
            assert_eq!(r.header(), &header());
            assert_eq!(r.text(), text.lines().next().unwrap());
            let mut hands = Vec::new();
            let mut lines = Vec::new();
            while let Some(h) = r.next() {
                lines.push(r.line());
                hands.push(h.unwrap());
            }
            assert_eq!(lines, [2, 3]);
            let end = r.end().unwrap().clone();
            assert_eq!(
                end.prev,
                sha256_hex(text.lines().nth(2).unwrap().as_bytes())
            );
            assert_eq!(
                r.last_hash(),
                sha256_hex(text.lines().nth(3).unwrap().as_bytes())
            );
            MatchLog {
                header: r.header().clone(),
                hands,
                end: Some(end),
                last_hash: r.last_hash(),
            }
        };
        let log = read_all(&plain);
        assert_eq!(log.hands.iter().map(|h| h.deal).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(log, read_all(&gz));
        assert_eq!(log, read(&plain).unwrap());
        assert_eq!(log, read(&gz).unwrap());
        // Over bytes in memory too, with line numbers in its errors.
        let broken = text.replacen(r#""type":"hand""#, r#""type":"hnad""#, 1);
        let mut r = LogReader::new(broken.as_bytes(), Path::new("x.jsonl")).unwrap();
        let e = r.next().unwrap().unwrap_err().to_string();
        assert!(e.starts_with("x.jsonl:2: unknown variant `hnad`"), "{e}");
        assert!(r.next().is_none(), "the iterator stops at an error");
    }

    /// The records-to-log function writes what the writer would: a fault
    /// before the first deal goes into the first hand, at its start; a
    /// hand's result without a deal is refused.
    #[test]
    fn the_recorder_turns_a_tables_events_into_the_log() {
        let mut w = Writer::new(Vec::new(), &header()).unwrap();
        let mut r = Recorder::new(&mut w);
        assert!(matches!(r.hand(hand().result), Err(RecordError::NoDeal)));
        let fault = FaultLog {
            seat: Seat::new(2),
            kind: "late".into(),
            detail: "d".into(),
            fallback: None,
            faults: 1,
            forfeited: false,
            at: 99,
            answer: None,
        };
        r.fault(fault.clone());
        r.deal(0, decks::STANDARD.to_vec());
        r.action(
            Seat::new(1),
            Action::Pass,
            std::time::Duration::from_micros(3250),
            false,
        );
        r.fault(fault.clone());
        r.hand(hand().result).unwrap();
        r.end(end().result, vec![], vec![0; 4], Seed::from_u64(2))
            .unwrap();
        let mut expected = Writer::new(Vec::new(), &header()).unwrap();
        expected
            .hand(HandLog {
                faults: vec![
                    FaultLog {
                        at: 0,
                        ..fault.clone()
                    },
                    FaultLog { at: 1, ..fault },
                ],
                ..hand()
            })
            .unwrap();
        expected.end(end()).unwrap();
        assert_eq!(
            String::from_utf8(w.into_inner()).unwrap(),
            String::from_utf8(expected.into_inner()).unwrap()
        );
    }
}
