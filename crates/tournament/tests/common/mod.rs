//! Match logs made by hand, for the tests of statistics and merging.

use whistle_replay::{
    ActionLog, Clocks, EndLog, FORMAT, Faults, HandLog, Header, MatchLog, VERSION,
};
use whistle_rules::{
    Action, HandResult, MatchResult, Options, ScoreOrder, Seat, dealing::Seed, decks,
};

/// One hand of a hand-made log: points per seat, and bids made per seat.
pub struct H {
    pub points: Vec<i32>,
    pub made: Vec<Option<bool>>,
}

pub fn h(points: &[i32]) -> H {
    H {
        points: points.to_vec(),
        made: vec![None; points.len()],
    }
}

/// A finished match log: `seats` (bot names by seat), its hands, the
/// forfeiting seats; totals, ranks and hand results follow from the points.
pub fn log(index: u64, game: &str, seats: &[&str], hands: &[H], forfeited: &[usize]) -> MatchLog {
    let n = seats.len();
    let mut totals = vec![0; n];
    let mut logged = Vec::new();
    for (d, hand) in hands.iter().enumerate() {
        for (t, p) in totals.iter_mut().zip(&hand.points) {
            *t += p;
        }
        logged.push(HandLog {
            prev: String::new(),
            deal: d as u32,
            dealer: Seat::new(d % n),
            deck: decks::STANDARD.to_vec(),
            actions: (0..n)
                .map(|s| ActionLog {
                    seat: Seat::new(s),
                    action: Action::Pass,
                    ms: 1.0 + s as f64,
                    fallback: false,
                })
                .collect(),
            faults: vec![],
            result: HandResult {
                deal: d as u32,
                dealer: Seat::new(d % n),
                misdeal: false,
                bids: std::iter::repeat_n(None, n).collect(),
                tricks: std::iter::repeat_n(0, n).collect(),
                made: hand.made.iter().copied().collect(),
                points: hand.points.iter().copied().collect(),
                totals: totals.iter().copied().collect(),
                seat_points: Default::default(),
                summary: Default::default(),
            },
            context: None,
        });
    }
    MatchLog {
        header: Header {
            format: FORMAT.into(),
            version: VERSION,
            tournament: "t".into(),
            match_index: index,
            table: format!("t-m{index:05}"),
            game: game.into(),
            options: Options::parse(&[&format!("hands={}", hands.len())]).unwrap(),
            seats: seats.iter().map(|s| s.to_string()).collect(),
            seed_commitment: String::new(),
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
        },
        hands: logged,
        end: Some(EndLog {
            prev: String::new(),
            result: MatchResult::by_totals(
                totals,
                (0..n as u8).collect(),
                ScoreOrder::HigherIsBetter,
                hands.len() as u32,
            ),
            forfeited: forfeited.iter().map(|&s| Seat::new(s)).collect(),
            faults: vec![0; n],
            match_seed: Seed::from_u64(index),
        }),
        last_hash: String::new(),
    }
}
