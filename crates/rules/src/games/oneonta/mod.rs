//! Oneonta Whist (docs/rules/oneonta.md, decisions O1–O17).
//!
//! One engine plays the four forms of the game, chosen by the option `mode`.
//!
//! * `solitaire` (the default, O1–O10): one seat against a dummy hand that the
//!   rules play. The 22-card deck (T, J, Q, K, A of each suit and both jokers,
//!   O1) is dealt one card at a time, alternately to the dummy (first) and the
//!   player, 9 each; of the 4 cards left the top one is turned for trump and 3
//!   stay face down (O2). The player bids `bid k` (exactly k tricks) or
//!   `null r` (no trick, risking r), k and r in 1..=9, without ever seeing the
//!   dummy's hand (O4). The dummy is a face-down pile in deal order: each trick
//!   its top card is turned and led, and the player must follow if able; the
//!   dummy leads every trick, whoever won the last (O5).
//! * `multi` (O11–O15): 2 to 7 players, 9 cards each with 2 players, else 7,
//!   from the deck of O11 for the player count. The deal goes clockwise from
//!   the dealer's left, then the next card is turned for trump (O12). One
//!   public bid each, no passing (O13): the first hand is bid first by the
//!   dealer's left, later hands by the seat with the highest positive bid of
//!   the hand before (ties: the highest total, then the dealer or the first
//!   seat clockwise from the dealer). The highest positive bid leads (same
//!   ties), and the winner of a trick leads the next (O14). A match is as many
//!   hands as cards per seat; tied leaders then play up to `playoff-hands`
//!   extra hands among themselves, the others sitting out, with the deck for
//!   their count; still tied, they share the win (O15).
//! * `coop` (O16): as `multi`, but everyone plays for one team. Bidding starts
//!   at the dealer's left every hand and the bids (a null counts 0) must total
//!   exactly the hand size: a bid is legal only if the total can still come
//!   out exactly, given the seats still to bid. The highest bid leads (ties:
//!   the dealer or the first seat clockwise from the dealer). The team scores
//!   the sum of the seats' scores, or the lowest one (`team-score=lowest`).
//! * `coop-dummy` (O17): `coop` with an extra dummy hand sitting between the
//!   dealer and the dealer's left, so it is dealt to first in every round, from
//!   the decks of O17. The bids total at most the hand size. The dummy plays
//!   as in solitaire (a face-down pile, its top card turned and led every
//!   trick); the seats follow from the dealer's left. Tricks the dummy wins
//!   score for nobody. The team has beaten the game when its total is above 0.
//!
//! Cards rank A high; in the trump suit BJ > LJ > A > K > ... and the jokers
//! are cards of the trump suit for every purpose, following included. A joker
//! turned up means no trump suit: the other joker alone is a suit of its own
//! that is trump and beats everything; it may be led, or played when its
//! holder cannot follow, and when it is led every other seat may play any card
//! (O3, in every form).
//!
//! Scoring (O6): a positive bid b with t tricks scores b if t = b, b − (t − b)
//! if t > b, −b if t < b; a null risking r scores r with no trick, else −r.
//! `doubling` (O7): a bid of the maximum (`bid h double`) or a null risking the
//! maximum (`null h double`) may be doubled once per hand, first come first
//! served: ±14. `scoring=alternative` (O8): overtricks score 0; a solitaire
//! game with a positive total is beaten. `scoring=edd-allard` (O9, solitaire
//! only): exactly 9 deals, a null has no risk number (`null`) and scores 10
//! with no trick, else −(10 + t); the result is a win above 30, a draw at 30
//! and a loss below (`MatchResult::note`).
//!
//! Notation: bids `bid 5`, `null 3`, `null` (Edd Allard), `bid 9 double`,
//! `null 9 double`; play `AS`, `BJ`. The dummy's cards are played by the rules
//! and logged as `Event::DummyPlay`; trick cards carry `Player::Dummy`.
//!
//! What a seat sees: its own hand, the turned card (`table`, label `turn-up`,
//! while a hand is being played), every card played (the dummy's turned cards
//! included), every bid, and counts: `piles` holds `dummy` (the dummy's
//! face-down pile, in the modes with a dummy) and `undealt` (the cards left
//! face down under the turned one). It never sees the dummy's unplayed cards,
//! the undealt cards or another seat's hand.
//!
//! Observation notes: `mode`, `scoring`, `doubling`, `hand-size` (cards per
//! seat in the current or last hand), `hands` (the match's regular hands),
//! `hands-played` (hands completed, play-off hands included), `bids-total`
//! (the bids so far this hand, a null counting 0), `doubled` (the seat that
//! doubled this hand, or `-`; only with `doubling=true`); with a dummy,
//! `dummy-tricks`; in `multi` and `coop`, `first-bidder` and `lead`; in
//! `multi`, `playoff` (`true` while a play-off hand is played),
//! `playoff-hands` and `playoff-hands-played`; in `coop` and `coop-dummy`,
//! `team-score` and `bid-limit` (`exactly h` or `at-most h`); with Edd
//! Allard, `target` (30); once the match is over, `verdict` when
//! `MatchResult::note` has one.
//!
//! Finer points, beyond the source text:
//! * The dummy's pile is turned in deal order: the first card dealt to it is
//!   the first one led (O5, O17).
//! * Every option is accepted in every mode and ignored where it has no
//!   meaning: `lead` in the modes where the dummy leads, `playoff-hands`
//!   outside `multi`, `team-score` outside the cooperative modes. Two
//!   combinations are errors: `players` outside its mode's range, and
//!   `scoring=edd-allard` outside solitaire (O9).
//! * `hands` may be given in `multi` too (its default, `auto`, is O15's: as
//!   many hands as cards per seat); the play-off comes after the regular hands.
//! * With `scoring=edd-allard` and `doubling=true`, only `bid 9 double` can be
//!   doubled (an Edd Allard null has no risk number to double, O9).
//! * `lead=fixed` (O14's literal words) makes the first trick's leader lead
//!   every trick of the hand; it applies to `multi` and `coop`.
//! * A seat's bid is made when it takes exactly the tricks bid (a null: none);
//!   that is `HandResult::made`, whatever the scoring.
//! * In a play-off, the seats tied for the lead are recomputed before every
//!   extra hand: they are the seats whose total equals the highest total then.
//! * `MatchResult::note` is `win`, `draw` or `loss` with Edd Allard (O9),
//!   `beaten` or `not beaten` for solitaire under `scoring=alternative` (O8)
//!   and for `coop-dummy` (O17), and empty otherwise.
//! * `SeatView::active` is false for a seat sitting out the current play-off
//!   hand; at a deal step it tells who plays the hand about to be dealt.

use arrayvec::ArrayVec;

use super::prelude::*;

/// The most seats (O11: 7 players).
/// One line describing the game.
pub const TITLE: &str = "Oneonta Whist: solitaire against a dummy, or 2-7 players competitive or cooperative";

const MAX_PLAYERS: usize = 7;
/// The most cards a seat holds, and so the most tricks in a hand (O2, O11).
const MAX_HAND: usize = 9;
/// Events in the longest hand: 7 players, 7 tricks: a start, 7 deals, a
/// turn-up, 7 bids, 49 plays, 7 tricks won and an end (73); with a dummy at
/// most 71. The log keeps this capacity across hands.
const LOG_CAPACITY: usize = 128;
/// O9: an Edd Allard game is exactly this many deals.
const EDD_ALLARD_DEALS: u32 = 9;
/// O9: the total an Edd Allard game is judged against.
pub const EDD_ALLARD_TARGET: i32 = 30;
/// O7: what a doubled bid wins or loses.
pub const DOUBLED_POINTS: i32 = 14;

/// A match of Oneonta Whist in any of its forms.
#[derive(Debug, Clone)]
pub struct Oneonta {
    cfg: Config,
    /// Dealer, deals, totals, results, the hand's log and tricks (shared by
    /// every game).
    core: MatchCore,
    /// O13: the previous hand's bids when a [`HandContext`] started the
    /// match after it (the results hold them otherwise).
    context_bids: Vec<Option<Action>>,
    /// The seats playing the current hand, or the next one at a deal step
    /// (O15: only the tied leaders in a play-off).
    active: SeatSet,
    /// Whether the current (or next) hand is a play-off hand (O15).
    playoff: bool,
    /// Play-off hands completed.
    playoffs: u32,
    // The hand.
    /// Cards per seat this hand.
    size: u8,
    hands: [CardSet; MAX_PLAYERS],
    /// The dummy's pile in deal order (O5, O17); `dummy[dummy_next]` is its top.
    dummy: ArrayVec<Card, MAX_HAND>,
    dummy_next: usize,
    turn_up: Option<Card>,
    /// The face-down cards under the turned one.
    undealt: CardSet,
    rules: TrickRules,
    bids: [Option<Action>; MAX_PLAYERS],
    first_bidder: Seat,
    /// O7: who doubled this hand.
    doubled: Option<Seat>,
    /// The first trick's leader (O14, for `lead=fixed`).
    leader: Seat,
    dummy_won: u8,
}

impl Oneonta {
    /// A new match under `options`, waiting for its first deal; seat 0 deals first.
    ///
    /// # Errors
    /// [`OptionError`] for unknown keys or bad values.
    pub fn new(options: &Options) -> Result<Oneonta, OptionError> {
        Ok(Oneonta::with_config(Config::from_options(options)?))
    }

    /// A new match with a resolved config.
    ///
    /// # Panics
    /// If the player count is outside its mode's range.
    pub fn with_config(cfg: Config) -> Oneonta {
        let (min, max, _) = cfg.mode.players();
        assert!(
            (min..=max).contains(&cfg.players),
            "{} players in mode {}",
            cfg.players,
            cfg.mode.name()
        );
        let n = cfg.players as usize;
        let turn_up = Card::new(Rank::Ten, Suit::Clubs);
        Oneonta {
            cfg,
            core: MatchCore::new(Variant::Oneonta, cfg.to_options(), n, LOG_CAPACITY),
            context_bids: Vec::new(),
            active: SeatSet::all(n),
            playoff: false,
            playoffs: 0,
            size: deck_for(cfg.mode, n).1,
            hands: [CardSet::EMPTY; MAX_PLAYERS],
            dummy: ArrayVec::new(),
            dummy_next: 0,
            turn_up: None,
            undealt: CardSet::EMPTY,
            rules: trick_rules(turn_up),
            bids: [None; MAX_PLAYERS],
            first_bidder: Seat::new(0),
            doubled: None,
            leader: Seat::new(0),
            dummy_won: 0,
        }
    }

    /// The resolved options.
    pub fn config(&self) -> Config {
        self.cfg
    }

    fn n(&self) -> usize {
        self.cfg.players as usize
    }

    /// The first seat of `among` clockwise from `start`, `start` included.
    fn first_from(&self, start: Seat, among: SeatSet) -> Seat {
        let n = self.n();
        start
            .clockwise_from(n)
            .find(|s| among.contains(*s))
            .unwrap_or(start)
    }

    /// The next seat playing this hand clockwise after `seat`.
    fn next_active(&self, seat: Seat) -> Seat {
        self.first_from(seat.next(self.n()), self.active)
    }

    /// Who receives the cards of one round of the deal, in order: the dummy
    /// (`None`) first where there is one (O2, O17), then the seats playing
    /// the hand clockwise from the dealer's left (O12).
    fn deal_round(&self) -> ArrayVec<Option<Seat>, { MAX_PLAYERS + 1 }> {
        let mut round = ArrayVec::new();
        if self.cfg.mode.has_dummy() {
            round.push(None);
        }
        let first = self.next_active(self.core.dealer);
        round.extend(
            first
                .clockwise_from(self.n())
                .filter(|s| self.active.contains(*s))
                .map(Some),
        );
        round
    }

    fn start_play(&mut self) {
        self.core.phase = Phase::Play;
        if self.cfg.mode.has_dummy() {
            // O5, O17: the dummy leads; the seats follow from the dealer's left.
            self.core.turn = self.next_active(self.core.dealer);
            self.dummy_leads();
        } else {
            self.leader = self.first_leader();
            self.core.turn = self.leader;
        }
    }

    /// O5: the dummy's top card is turned and led.
    fn dummy_leads(&mut self) {
        let card = self.dummy[self.dummy_next];
        self.dummy_next += 1;
        self.core.play(Player::Dummy, card);
        self.core.public(Event::DummyPlay { card });
    }

    fn trick_size(&self) -> usize {
        self.active.len() + usize::from(self.cfg.mode.has_dummy())
    }

    fn finish_trick(&mut self) {
        let (index, winner) = self.core.finish_trick(&self.rules);
        if winner == Player::Dummy {
            // O17: dummy tricks score for nobody.
            self.dummy_won += 1;
        }
        if index + 1 == self.size {
            self.end_hand();
        } else if self.cfg.mode.has_dummy() {
            // O5, O17: the dummy leads every trick, whoever won the last.
            self.core.turn = self.next_active(self.core.dealer);
            self.dummy_leads();
        } else if self.cfg.fixed_lead {
            self.core.turn = self.leader;
        } else {
            self.core.turn = winner.seat().expect("only a dummy mode has dummy tricks");
        }
    }
}

impl Game for Oneonta {
    fn append_legal(&self, seat: Seat, out: &mut ActionList) {
        match self.core.phase {
            Phase::Bid => {
                let h = self.size;
                let mut offer = |a: Action| {
                    if self.check_bid(a).is_ok() {
                        out.push(a);
                    }
                };
                for k in 1..=h {
                    offer(Action::Bid(k));
                }
                if self.cfg.scoring == Scoring::EddAllard {
                    offer(Action::Null(0));
                } else {
                    for r in 1..=h {
                        offer(Action::Null(r));
                    }
                }
                if self.cfg.doubling {
                    offer(Action::DoubleBid(h));
                    offer(Action::DoubleNull(h));
                }
            }
            Phase::Play => {
                self.core
                    .plays(&self.rules, self.hands[seat.index()], out);
            }
            _ => {}
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalReason> {
        match (self.core.phase, action) {
            // `check_bid` refuses anything that is not a bid as `WrongPhase`.
            (Phase::Bid, bid) => self.check_bid(bid),
            // The suit to follow is the led card's effective suit: a joker led
            // in a trump suit asks for that suit.
            (Phase::Play, Action::Play(card)) => {
                self.core
                    .check_play(&self.rules, self.hands[seat.index()], card)
            }
            _ => Err(IllegalReason::WrongPhase),
        }
    }

    fn apply_unchecked(&mut self, seat: Seat, action: Action) {
        match (self.core.phase, action) {
            (Phase::Bid, _) => {
                // O13: bids are public.
                self.core.public(Event::Action { seat, action });
                self.bids[seat.index()] = Some(action);
                if matches!(action, Action::DoubleBid(_) | Action::DoubleNull(_)) {
                    self.doubled = Some(seat);
                }
                let next = self.next_active(seat);
                if next == self.first_bidder {
                    self.start_play();
                } else {
                    self.core.turn = next;
                }
            }
            (Phase::Play, Action::Play(card)) => {
                let hand = &mut self.hands[seat.index()];
                if self.core.play_card(seat, card, hand) == self.trick_size() {
                    self.finish_trick();
                } else {
                    self.core.turn = self.next_active(seat);
                }
            }
            (stage, action) => panic!("apply_unchecked: {action} in {stage:?}"),
        }
    }

    fn deck(&self) -> CardSet {
        deck_for(self.cfg.mode, self.active.len()).0
    }

    fn deal_unchecked(&mut self, order: &[Card]) {
        self.size = deck_for(self.cfg.mode, self.active.len()).1;
        let round = self.deal_round();
        let dealt = round.len() * self.size as usize;
        self.hands = [CardSet::EMPTY; MAX_PLAYERS];
        self.dummy.clear();
        self.dummy_next = 0;
        // O2, O12, O17: one card at a time, round after round.
        for (i, &card) in order[..dealt].iter().enumerate() {
            match round[i % round.len()] {
                Some(s) => self.hands[s.index()].insert(card),
                None => self.dummy.push(card),
            }
        }
        // O2, O12: the next card is turned for trump (O3 if it is a joker).
        let turn_up = order[dealt];
        self.turn_up = Some(turn_up);
        self.undealt = order[dealt + 1..].iter().copied().collect();
        self.rules = trick_rules(turn_up);
        self.bids = [None; MAX_PLAYERS];
        self.doubled = None;
        self.dummy_won = 0;
        self.core.begin_hand();
        self.core.dealt_to(self.active, &self.hands);
        self.core.public(Event::TurnUp { card: turn_up });
        self.core.phase = Phase::Bid;
        self.first_bidder = self.first_bidder();
        self.core.turn = self.first_bidder;
    }

    fn core(&self) -> &MatchCore {
        &self.core
    }

    fn trick_rules(&self) -> &TrickRules {
        &self.rules
    }

    // O9, O10, O17: the result carries the verdict.
    fn result(&self) -> Option<MatchResult> {
        self.is_over().then(|| MatchResult {
            note: self.verdict(),
            ..self.core.result(self.teams(), self.score_order())
        })
    }

    fn start_at_unchecked(&mut self, ctx: &HandContext) -> Result<(), ContextError> {
        ctx.no_misdeals("Oneonta Whist")?;
        let n = self.n();
        let totals = ctx.totals_or_zero(n);
        // The checks below read the totals.
        self.core.set_totals(&totals);
        let everyone = SeatSet::all(n);
        match self.cfg.mode {
            Mode::Multi => {
                if let Some(b) =
                    ctx.previous_bids.iter().flatten().find(|b| {
                        !matches!(b, Action::Bid(_) | Action::Null(_) | Action::DoubleBid(_))
                    })
                {
                    return Err(ContextError::Impossible(format!(
                        "`{b}` in `previous_bids` is not a bid (O13)"
                    )));
                }
                if ctx.hand == 0 && !ctx.previous_bids.is_empty() {
                    return Err(ContextError::Impossible(
                        "hand 0 has no previous hand, so no `previous_bids` (O13)".into(),
                    ));
                }
                if ctx.hand > 0 && ctx.previous_bids.is_empty() {
                    return Err(ContextError::Impossible(
                        "after the first hand the highest bid of the previous hand bids first: give `previous_bids` (O13)".into(),
                    ));
                }
                if ctx.hand >= self.cfg.hands {
                    // O15: a play-off hand among the seats tied for the lead.
                    let playoffs = ctx.hand - self.cfg.hands;
                    let leaders = self.highest_totals();
                    if leaders.len() < 2 || playoffs >= self.cfg.playoff_hands {
                        return Err(ContextError::Impossible(format!(
                            "hand {}: the match has {} hands and play-off hands only while the leaders are tied, at most {} (O15)",
                            ctx.hand, self.cfg.hands, self.cfg.playoff_hands
                        )));
                    }
                    if !leaders.contains(ctx.dealer) {
                        return Err(ContextError::Impossible(format!(
                            "seat {} deals a play-off hand it does not play (O15)",
                            ctx.dealer
                        )));
                    }
                    self.playoffs = playoffs;
                    self.playoff = true;
                    self.active = leaders;
                } else {
                    self.active = everyone;
                }
                self.context_bids = ctx.previous_bids.clone();
            }
            Mode::Solitaire => {
                ctx.no_previous_bids("solitaire Oneonta Whist")?;
                ctx.within(self.cfg.hands, "O9, O10")?;
            }
            Mode::Coop | Mode::CoopDummy => {
                ctx.no_previous_bids("cooperative Oneonta Whist (O16, O17)")?;
                ctx.within(self.cfg.hands, "O16, O17")?;
                if totals.iter().any(|&t| t != totals[0]) {
                    return Err(ContextError::Impossible(format!(
                        "totals {totals:?}: the seats are one team and carry one total (O16, O17)"
                    )));
                }
            }
        }
        self.core.start_at(ctx)
    }

    // O13: after the first hand the observation names the first bidder,
    // which is all the rules read from the previous hand's bids.
    fn world_context(&self, obs: &crate::Observation) -> HandContext {
        let mut ctx = HandContext::observed(obs);
        if self.cfg.mode == Mode::Multi && obs.deal > 0 {
            let first = obs.note("first-bidder").and_then(|s| s.parse::<usize>().ok());
            ctx.previous_bids = Seat::all(self.n())
                .map(|s| (Some(s.index()) == first).then_some(Action::Bid(1)))
                .collect();
        }
        ctx
    }

    fn accepts(&self, kind: ActionKind) -> bool {
        matches!(
            kind,
            ActionKind::Bid
                | ActionKind::Null
                | ActionKind::DoubleBid
                | ActionKind::DoubleNull
                | ActionKind::Play
        )
    }

    fn append_vocabulary(&self, out: &mut Vec<Action>) {
        // O11, O15: the hand sizes and decks of the regular hands and, in
        // `multi` with play-offs, of every number of tied seats.
        let n = self.n();
        let counts = if self.cfg.mode == Mode::Multi && self.cfg.playoff_hands > 0 {
            2..=n
        } else {
            n..=n
        };
        let mut sizes = [false; MAX_HAND + 1];
        let mut cards = CardSet::EMPTY;
        for k in counts {
            let (deck, size) = deck_for(self.cfg.mode, k);
            sizes[size as usize] = true;
            cards = cards.or(deck);
        }
        let h_max = sizes.iter().rposition(|&s| s).unwrap_or(0) as u8;
        let sizes = || (1..=h_max).filter(|&h| sizes[h as usize]);
        // O4, O13: positive bids and nulls (O9: a null without a risk).
        let edd = self.cfg.scoring == Scoring::EddAllard;
        out.extend((1..=h_max).map(Action::Bid));
        if edd {
            out.push(Action::Null(0));
        } else {
            out.extend((1..=h_max).map(Action::Null));
        }
        // O7: doubles of the maximum bid and of the maximum-risk null.
        if self.cfg.doubling {
            out.extend(sizes().map(Action::DoubleBid));
            if !edd {
                out.extend(sizes().map(Action::DoubleNull));
            }
        }
        out.extend(cards.iter().map(Action::Play));
    }

    fn teams(&self) -> PerSeat<u8> {
        Seat::all(self.n()).map(|s| self.team_of(s)).collect()
    }
}

mod config;
pub use config::{Config, Mode, OPTIONS, Scoring, deck_for};
mod bidding;
mod observation;
mod scoring;
mod values;
use values::{bid_value, other_joker};
pub use values::{made, score, trick_rules};

#[cfg(test)]
mod tests;
