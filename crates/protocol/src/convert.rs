//! Conversions between engine values and wire messages.
//!
//! Engine → wire is total. Wire → engine (bot answers, table requests) checks
//! syntax only and reports a [`DecodeError`]; whether an action is legal is
//! decided by the engine.

use std::fmt;

use whistle_rules::{
    Action, Card, CardSet, Event, HandResult, MatchResult, Observation, Options, Phase, Player,
    ScoreOrder, Seat, SeatView, Source, TableCard, TrickView, Trump,
};

use crate::pb;

/// A wire message that does not decode into engine values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DecodeError {}

fn cards(set: CardSet) -> Vec<String> {
    set.iter().map(|c| c.to_string()).collect()
}

fn seat(s: Seat) -> u32 {
    s.index() as u32
}

/// A deck order (top first) as a wire message.
pub fn deck_order(order: &[Card]) -> pb::DeckOrder {
    pb::DeckOrder {
        cards: order.iter().map(|c| c.to_string()).collect(),
    }
}

/// A wire deck order as cards.
///
/// # Errors
/// [`DecodeError`] naming the first text that is not a card.
pub fn parse_deck_order(order: &pb::DeckOrder) -> Result<Vec<Card>, DecodeError> {
    order
        .cards
        .iter()
        .map(|c| c.parse::<Card>().map_err(|e| DecodeError(e.to_string())))
        .collect()
}

/// Options as wire pairs (sorted by key).
pub fn options(options: &Options) -> Vec<pb::Option> {
    options
        .iter()
        .map(|(k, v)| pb::Option {
            key: k.to_string(),
            value: v.to_string(),
        })
        .collect()
}

/// Wire pairs as options (a later pair with the same key wins).
pub fn options_from(pairs: &[pb::Option]) -> Options {
    let mut o = Options::new();
    for p in pairs {
        o.set(&p.key, &p.value);
    }
    o
}

/// A phase as its wire enum value.
pub fn phase(p: Phase) -> pb::Phase {
    match p {
        Phase::Deal => pb::Phase::Deal,
        Phase::Auction => pb::Phase::Auction,
        Phase::Bid => pb::Phase::Bid,
        Phase::Pass => pb::Phase::Pass,
        Phase::Declare => pb::Phase::Declare,
        Phase::Choose => pb::Phase::Choose,
        Phase::Exchange => pb::Phase::Exchange,
        Phase::Play => pb::Phase::Play,
        Phase::Over => pb::Phase::Over,
    }
}

fn trump(t: Trump) -> pb::Trump {
    use pb::trump::Kind;
    let (kind, suit) = match t {
        Trump::Undecided => (Kind::Undecided, String::new()),
        Trump::Suit(s) => (Kind::Suit, s.to_string()),
        Trump::NoTrump => (Kind::NoTrump, String::new()),
        Trump::Nines => (Kind::Nines, String::new()),
        Trump::Jokers => (Kind::Jokers, String::new()),
    };
    pb::Trump {
        kind: kind as i32,
        suit,
    }
}

fn seat_view(v: &SeatView) -> pb::SeatView {
    pb::SeatView {
        seat: seat(v.seat),
        held: v.held as u32,
        known: cards(v.known),
        bid: v.bid.map(|a| a.to_string()).unwrap_or_default(),
        tricks: v.tricks as u32,
        total: v.total,
        team: v.team as u32,
        active: v.active,
    }
}

fn table_card(t: &TableCard) -> pb::TableCard {
    pb::TableCard {
        label: t.label.to_string(),
        has_owner: t.owner.is_some(),
        owner: t.owner.map_or(0, seat),
        card: t.card.to_string(),
    }
}

fn player(p: Player) -> (bool, u32) {
    match p {
        Player::Seat(s) => (false, seat(s)),
        Player::Dummy => (true, 0),
    }
}

fn trick(t: &TrickView) -> pb::Trick {
    let (winner_dummy, winner_seat) = t.winner.map_or((false, 0), player);
    pb::Trick {
        cards: t
            .cards
            .iter()
            .map(|&(p, c)| {
                let (dummy, seat) = player(p);
                pb::TrickCard {
                    dummy,
                    seat,
                    card: c.to_string(),
                }
            })
            .collect(),
        complete: t.winner.is_some(),
        winner_dummy,
        winner_seat,
    }
}

/// A hand result as a wire message.
pub fn hand_result(r: &HandResult) -> pb::HandResult {
    pb::HandResult {
        deal: r.deal,
        dealer: seat(r.dealer),
        misdeal: r.misdeal,
        bids: r
            .bids
            .iter()
            .map(|b| b.map(|a| a.to_string()).unwrap_or_default())
            .collect(),
        tricks: r.tricks.iter().map(|&t| t as u32).collect(),
        points: r.points.clone(),
        totals: r.totals.clone(),
        summary: r.summary.clone(),
    }
}

/// A match result as a wire message, with the seats that forfeited.
pub fn match_result(r: &MatchResult, forfeited: &[Seat]) -> pb::MatchResult {
    pb::MatchResult {
        totals: r.totals.clone(),
        teams: r.teams.iter().map(|&t| t as u32).collect(),
        ranks: r.ranks.iter().map(|&t| t as u32).collect(),
        lower_is_better: r.order == ScoreOrder::LowerIsBetter,
        hands: r.hands,
        note: r.note.clone(),
        forfeited: forfeited.iter().map(|&s| seat(s)).collect(),
    }
}

/// An event as a wire message. `results` are the match's hand results, from
/// which a `HandEnd` takes its result.
pub fn event(e: &Event, results: &[HandResult]) -> pb::Event {
    use pb::event::Kind;
    let kind = match *e {
        Event::HandStart { deal, dealer } => Kind::HandStart(pb::HandStart {
            deal,
            dealer: seat(dealer),
        }),
        Event::Dealt { seat: s, cards: c } => Kind::Dealt(pb::Dealt {
            seat: seat(s),
            cards: cards(c),
        }),
        Event::TurnUp { card } => Kind::TurnUp(pb::TurnUp {
            card: card.to_string(),
        }),
        Event::Action { seat: s, action } => Kind::Action(pb::ActionTaken {
            seat: seat(s),
            action: action.to_string(),
        }),
        Event::Hidden { seat: s, kind } => Kind::Hidden(pb::HiddenAction {
            seat: seat(s),
            kind: format!("{kind:?}").to_ascii_lowercase(),
        }),
        Event::DummyPlay { card } => Kind::DummyPlay(pb::DummyPlay {
            card: card.to_string(),
        }),
        Event::TrickWon { index, winner } => {
            let (dummy, s) = player(winner);
            Kind::TrickWon(pb::TrickWon {
                index: index as u32,
                dummy,
                seat: s,
            })
        }
        Event::Take {
            seat: s,
            card,
            from,
        } => {
            let (from, from_seat) = match from {
                Source::Stock => ("stock", 0),
                Source::Kitty => ("kitty", 0),
                Source::Seat(f) => ("seat", seat(f)),
            };
            Kind::Take(pb::Take {
                seat: seat(s),
                card: card.map(|c| c.to_string()).unwrap_or_default(),
                from: from.to_string(),
                from_seat,
            })
        }
        Event::Reveal { seat: s, cards: c } => Kind::Reveal(pb::Reveal {
            seat: seat(s),
            cards: cards(c),
        }),
        Event::Misdeal => Kind::Misdeal(pb::Misdeal {}),
        Event::HandEnd { deal } => Kind::HandEnd(pb::HandEnd {
            result: results.iter().find(|r| r.deal == deal).map(hand_result),
        }),
    };
    pb::Event { kind: Some(kind) }
}

/// An observation as a wire message. `results` are the match's hand results.
pub fn observation(o: &Observation, results: &[HandResult]) -> pb::Observation {
    pb::Observation {
        game: o.game.name().to_string(),
        seat: seat(o.seat),
        seats: o.seats as u32,
        deal: o.deal,
        dealer: seat(o.dealer),
        phase: phase(o.phase) as i32,
        to_act: o.to_act.iter().map(seat).collect(),
        simultaneous: o.simultaneous,
        hand: cards(o.hand),
        players: o.players.iter().map(seat_view).collect(),
        trump: Some(trump(o.trump)),
        contract: o.contract.map(|(s, a)| pb::Contract {
            seat: seat(s),
            action: a.to_string(),
        }),
        table: o.table.iter().map(table_card).collect(),
        piles: o
            .unseen_piles
            .iter()
            .map(|&(name, count)| pb::Pile {
                name: name.to_string(),
                count: count as u32,
            })
            .collect(),
        trick: Some(trick(&o.trick)),
        tricks: o.tricks.iter().map(trick).collect(),
        history: o.history.iter().map(|e| event(e, results)).collect(),
        notes: o
            .notes
            .iter()
            .map(|(k, v)| pb::Note {
                key: k.to_string(),
                value: v.clone(),
            })
            .collect(),
    }
}

/// A bot's choice, decoded but not yet checked against the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// An index into the request's legal actions.
    Index(u32),
    /// Canonical action text.
    Text(String),
}

/// Decodes an answer into its request id and choice.
///
/// # Errors
/// [`DecodeError`] when the answer carries neither an index nor text.
pub fn answer(a: &pb::Answer) -> Result<(u64, Choice), DecodeError> {
    match &a.choice {
        Some(pb::answer::Choice::Index(i)) => Ok((a.request_id, Choice::Index(*i))),
        Some(pb::answer::Choice::Text(t)) => Ok((a.request_id, Choice::Text(t.clone()))),
        None => Err(DecodeError(
            "the answer has neither an index nor text".into(),
        )),
    }
}

/// The legal actions as wire text.
pub fn legal(actions: &[Action]) -> Vec<String> {
    actions.iter().map(|a| a.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use prost::Message;
    use whistle_rules::{Game, Variant, dealing};

    use super::*;

    #[test]
    fn an_observation_encodes_and_decodes() {
        let mut g = Variant::Israeli
            .new_game(&Options::parse(&["hands=1"]).unwrap())
            .unwrap();
        dealing::deal_if_needed(&mut g, dealing::Seed::from_u64(3)).unwrap();
        let o = g.observe(Seat::new(1));
        let msg = observation(&o, g.hand_results());
        let bytes = msg.encode_to_vec();
        let back = pb::Observation::decode(bytes.as_slice()).unwrap();
        assert_eq!(back, msg);
        assert_eq!(back.hand.len(), 13);
        assert_eq!(back.phase, pb::Phase::Auction as i32);
        assert_eq!(back.to_act, [1]);
    }

    #[test]
    fn answers_decode_or_fail() {
        let a = pb::Answer {
            request_id: 4,
            choice: Some(pb::answer::Choice::Text("AS".into())),
        };
        assert_eq!(answer(&a).unwrap(), (4, Choice::Text("AS".into())));
        let empty = pb::Answer {
            request_id: 4,
            choice: None,
        };
        assert!(answer(&empty).is_err());
    }

    #[test]
    fn deck_orders_round_trip() {
        let order = dealing::deck_order(dealing::Seed::from_u64(1), whistle_rules::decks::STANDARD);
        let msg = deck_order(&order);
        assert_eq!(parse_deck_order(&msg).unwrap(), order.to_vec());
        let bad = pb::DeckOrder {
            cards: vec!["ZZ".into()],
        };
        assert!(parse_deck_order(&bad).is_err());
    }
}
