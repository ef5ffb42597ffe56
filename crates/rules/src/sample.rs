//! Worlds consistent with one seat's observation, for bots that sample the
//! cards they cannot see (the `sampler` bot: determinize, play out, average).
//!
//! A bot over the wire has only its [`Observation`], so a world is built from
//! it, never by reshuffling a true state it does not have:
//!
//! 1. The match is placed at the start of the observed hand
//!    ([`Game::world_context`]: hand, dealer, totals and what the game's
//!    rules read from earlier hands).
//! 2. A deck order is drawn. The positions of the deal are learnt from the
//!    game itself by dealing a reference order (each seat's positions, the
//!    cards dealt aside before a turn-up such as Oneonta's dummy, and the
//!    stock or kitty in the order it is taken). Every card the seat has seen
//!    in a known place is pinned there: its own dealt cards, turn-ups, the
//!    dummy's plays, cards taken face up from the stock or kitty. A card
//!    another seat was seen to hold (played, shown, handed over face up)
//!    must have come from that seat's dealt cards, from the stock cards it
//!    took face down before, or from the hands of the seats that handed it
//!    cards unseen (Israeli's frisch); each such card is placed uniformly
//!    among the free positions it may come from, the most constrained
//!    first, and the remaining unseen cards are shuffled into the remaining
//!    positions. A card placed in another seat's hand must then be passed
//!    on unseen by each seat on its way.
//! 3. The hand is replayed from the seat's history: decisions it saw are
//!    applied as they were; a decision it saw only as [`Event::Hidden`] (a
//!    frisch card given, a bid card placed, a kitty discard) hands over the
//!    cards the history shows handed over, then those step 2 requires, else
//!    is drawn uniformly among the legal actions of that kind the rest of
//!    the history allows (not a card the seat plays, shows or hands over
//!    later; a bid card shown face up was placed). Every event the replay
//!    logs must be the next one of the history as the seat saw it.
//! 4. The world is kept only if its observation for the seat equals the
//!    given one, field for field.
//!
//! Every world returned is consistent with the observation: step 4 checks
//! it. Steps 2 and 3 only ever exclude what step 4 would reject, and each
//! world carries the product of the sizes of the choices drawn as its
//! importance weight, so weighted averages over worlds are unbiased
//! estimates under the uniform draw over consistent deals and hidden
//! decisions. Where no card may have been handed over unseen and no
//! decision was made face down, the choices form nested sets per seat and
//! every weight is equal: the unseen cards
//! are then drawn uniformly among the consistent deals (rejection from a
//! proposal uniform on a superset). Constraints the proposal does not encode
//! (voids shown by failing to follow suit, bids) are enforced by the replay
//! and cost only rejected attempts.

use std::fmt;

use crate::{
    action::{Action, ActionKind, ActionList},
    card::Card,
    card_set::CardSet,
    context::ContextError,
    dealing::Shuffler,
    game::{Game, Status},
    seat::{MAX_SEATS, Seat, SeatSet},
    view::{Event, Observation, Source},
};

/// Why no world can be sampled for an observation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SampleError {
    /// The observation is not of a hand being played (between hands, over).
    NotInHand,
    /// The game is not the observation's game.
    WrongGame,
    /// The observed hand's start cannot be set up.
    Context(ContextError),
    /// The history contradicts the deal's layout (a card in two places).
    Inconsistent(String),
}

impl fmt::Display for SampleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SampleError::NotInHand => f.write_str("the observation is not of a hand in play"),
            SampleError::WrongGame => f.write_str("the observation is of another game"),
            SampleError::Context(e) => write!(f, "the hand's start: {e}"),
            SampleError::Inconsistent(why) => write!(f, "inconsistent history: {why}"),
        }
    }
}

impl std::error::Error for SampleError {}

/// Where a position of the deck order goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// A seat's hand.
    Hand(Seat),
    /// Dealt aside before the turn-up (a dummy's pile), taken in order.
    Aside,
    /// The stock or kitty from the turn-up on, taken in order.
    Stock,
}

/// A card another seat was seen with, and the positions it may come from:
/// the hands of `sources` (the seat itself and the seats that may have
/// handed it cards face down) and the first `takes` stock positions the seat
/// took face down.
#[derive(Debug, Clone, Copy)]
struct Held {
    card: Card,
    seat: Seat,
    sources: SeatSet,
    takes: usize,
}

/// A world drawn by [`WorldSampler::attempt`], with its importance weight.
#[derive(Debug, Clone)]
pub struct World<G> {
    /// The game, at the observed moment.
    pub game: G,
    /// How many times less likely this world was to be drawn than under a
    /// uniform draw over the consistent deals and hidden decisions, up to a
    /// factor shared by every world of one sampler: average over worlds
    /// weighted by it for an unbiased estimate. Equal for every world when
    /// no card may have been handed over unseen and no decision was made
    /// face down.
    pub weight: f64,
}

/// What the history tells about where cards were dealt.
struct Knowledge {
    seat: Seat,
    /// The deck order with the cards known in place.
    pinned: Vec<Option<Card>>,
    /// The cards in `pinned`.
    placed: CardSet,
    /// Each seat's stock positions taken face down so far.
    takes: Vec<Vec<usize>>,
    /// Each seat's sources: itself and the seats that may have handed it a
    /// card this seat did not see.
    sources: Vec<SeatSet>,
    /// The sources before the run of hand-overs in progress (a run of takes
    /// from seats is one simultaneous exchange: a card given in it was
    /// held before it).
    sources_before: Option<Vec<SeatSet>>,
    /// Cards seen passing from seat to seat (known without the deal's help).
    moved: CardSet,
    /// The cards in `held`.
    constrained: CardSet,
    held: Vec<Held>,
}

impl Knowledge {
    /// `c` is at position `p` of the deal.
    fn pin(&mut self, p: Option<&usize>, c: Card) -> Result<(), SampleError> {
        let Some(&p) = p else {
            return Err(SampleError::Inconsistent(format!(
                "{c} is taken from a pile with no card left"
            )));
        };
        match self.pinned[p] {
            Some(old) if old == c => Ok(()),
            Some(old) => Err(SampleError::Inconsistent(format!(
                "{c} and {old} in one place"
            ))),
            None if self.placed.contains(c) => {
                Err(SampleError::Inconsistent(format!("{c} seen in two places")))
            }
            None => {
                self.pinned[p] = Some(c);
                self.placed.insert(c);
                Ok(())
            }
        }
    }

    /// Seat `s` was seen holding `c`: unless `c` is placed otherwise, it
    /// was dealt to `s` or taken face down by it before now.
    fn seen_with(&mut self, s: Seat, c: Card) {
        if s != self.seat
            && !self.moved.contains(c)
            && !self.placed.contains(c)
            && !self.constrained.contains(c)
        {
            self.constrained.insert(c);
            let sources = match &self.sources_before {
                Some(before) => before[s.index()],
                None => self.sources[s.index()],
            };
            self.held.push(Held {
                card: c,
                seat: s,
                sources,
                takes: self.takes[s.index()].len(),
            });
        }
    }
}

/// Draws worlds consistent with one observation (see the module doc).
/// Built once per decision; each [`WorldSampler::attempt`] is independent.
#[derive(Debug, Clone)]
pub struct WorldSampler<G: Game> {
    obs: Observation,
    /// The match at the start of the hand, before its deal.
    start: G,
    /// The deck order with the pinned cards in place, `None` elsewhere.
    pinned: Vec<Option<Card>>,
    /// Each seat's hand positions.
    hands: Vec<Vec<usize>>,
    /// The seat each position is dealt to, if any.
    owner: Vec<Option<Seat>>,
    /// The seat each seat hands cards over to, as the history shows.
    receiver_of: Vec<Option<Seat>>,
    /// Each seat's stock positions taken face down, in order.
    takes: Vec<Vec<usize>>,
    /// Cards seen with other seats, most constrained first.
    held: Vec<Held>,
    /// The unseen cards no constraint places.
    free: Vec<Card>,
    /// What the history says of the hidden decisions.
    later: Later,
}

impl<G: Game> WorldSampler<G> {
    /// Prepares sampling for `obs`, taken from a match of `game`'s options
    /// (a new match: only its options and seats are read).
    ///
    /// # Errors
    /// [`SampleError`] if the observation is not of a hand in play, the
    /// hand's start cannot be set up, or the history contradicts itself.
    pub fn new(game: &G, obs: &Observation) -> Result<WorldSampler<G>, SampleError> {
        if obs.game != game.variant() || obs.seats as usize != game.seats() {
            return Err(SampleError::WrongGame);
        }
        if !matches!(obs.history.first(), Some(Event::HandStart { .. }))
            || matches!(obs.history.last(), Some(Event::HandEnd { .. }))
        {
            return Err(SampleError::NotInHand);
        }
        let mut start = game.clone();
        let ctx = game.world_context(obs);
        if ctx.hand > 0 {
            start.start_at(&ctx).map_err(SampleError::Context)?;
        }
        if start.status() != Status::Deal {
            return Err(SampleError::NotInHand);
        }
        let seat = obs.seat;
        let seats = game.seats();
        let (layout, turn_up) = layout(&start, obs)?;
        let aside: Vec<usize> = (0..layout.len())
            .filter(|&p| layout[p] == Slot::Aside)
            .collect();
        let stock: Vec<usize> = (0..layout.len())
            .filter(|&p| layout[p] == Slot::Stock)
            .collect();
        debug_assert!(turn_up.is_none_or(|t| stock.first() == Some(&t)));
        let mut hands = vec![Vec::new(); seats];
        for (p, slot) in layout.iter().enumerate() {
            if let Slot::Hand(s) = slot {
                hands[s.index()].push(p);
            }
        }
        let mut k = Knowledge {
            seat,
            pinned: vec![None; layout.len()],
            placed: CardSet::EMPTY,
            takes: vec![Vec::new(); seats],
            sources: Seat::all(seats).map(SeatSet::single).collect(),
            sources_before: None,
            moved: CardSet::EMPTY,
            constrained: CardSet::EMPTY,
            held: Vec::new(),
        };
        let later = Later::of(obs);
        let placed = later.placed;
        let mut gave_hidden = vec![false; seats];
        let mut receiver_of = vec![None; seats];
        for (g, r) in hand_overs(obs) {
            receiver_of[g.index()] = Some(r);
        }
        let (mut cursor, mut aside_cursor) = (0, 0);
        for e in &obs.history {
            if !matches!(
                e,
                Event::Take {
                    from: Source::Seat(_),
                    ..
                }
            ) {
                k.sources_before = None;
            }
            match *e {
                Event::Dealt { seat: s, cards } if s == seat => {
                    if cards.len() != hands[s.index()].len() {
                        return Err(SampleError::Inconsistent(format!(
                            "{} cards dealt, the deal gives {}",
                            cards.len(),
                            hands[s.index()].len()
                        )));
                    }
                    for (c, &p) in cards.iter().zip(&hands[s.index()]) {
                        k.pin(Some(&p), c)?;
                    }
                }
                Event::TurnUp { card } => k.pin(stock.get(cursor), card)?,
                Event::DummyPlay { card } => {
                    k.pin(aside.get(aside_cursor), card)?;
                    aside_cursor += 1;
                }
                Event::Take {
                    seat: s,
                    card,
                    from: Source::Stock | Source::Kitty,
                } => {
                    match card {
                        Some(c) => k.pin(stock.get(cursor), c)?,
                        None => {
                            let p = stock.get(cursor).ok_or_else(|| {
                                SampleError::Inconsistent("a card taken from an empty pile".into())
                            })?;
                            k.takes[s.index()].push(*p);
                        }
                    }
                    cursor += 1;
                }
                Event::Take {
                    seat: s,
                    card,
                    from: Source::Seat(giver),
                } => match card {
                    Some(c) => {
                        k.sources_before.get_or_insert_with(|| k.sources.clone());
                        k.seen_with(giver, c);
                        k.moved.insert(c);
                    }
                    // Cards given face down from a hand (Israeli's frisch)
                    // join the receiver's hand; bid cards passed on (Yogi's
                    // rotation, after no hidden gift) stay bid cards, never
                    // played, and widen nothing.
                    None if gave_hidden[giver.index()] => {
                        let before = k.sources_before.get_or_insert_with(|| k.sources.clone());
                        let from = before[giver.index()];
                        for z in from.iter() {
                            k.sources[s.index()].insert(z);
                        }
                    }
                    None => {}
                },
                Event::Hidden {
                    seat: s,
                    kind: ActionKind::Give,
                } => gave_hidden[s.index()] = true,
                Event::Action { seat: s, action } => {
                    if let Some(c) = action.card() {
                        k.seen_with(s, c);
                    }
                }
                Event::Reveal { seat: s, cards } => {
                    for c in cards.iter() {
                        // A bid card shown was held by the seat that placed it.
                        let holder = Seat::all(seats)
                            .find(|p| placed[p.index()].contains(c))
                            .unwrap_or(s);
                        k.seen_with(holder, c);
                    }
                }
                _ => {}
            }
        }
        let Knowledge {
            pinned,
            placed,
            takes,
            mut held,
            ..
        } = k;
        // A card pinned later (taken face up after being seen) is placed.
        held.retain(|h| !placed.contains(h.card));
        // The most constrained first (fewest positions it may come from), so
        // a card with a wide choice never takes the place a narrow one needs.
        held.sort_by_key(|h| {
            let room: usize = h.sources.iter().map(|z| hands[z.index()].len()).sum();
            (room + h.takes, h.seat, h.takes)
        });
        let layout_len = pinned.len();
        let deck = start.deck();
        let mut free_cards = deck;
        for c in placed.iter() {
            free_cards.remove(c);
        }
        for h in &held {
            free_cards.remove(h.card);
        }
        Ok(WorldSampler {
            obs: obs.clone(),
            start,
            pinned,
            owner: owners(&hands, layout_len),
            receiver_of,
            hands,
            takes,
            held,
            free: free_cards.iter().collect(),
            later,
        })
    }

    /// The observation worlds are drawn for.
    pub fn observation(&self) -> &Observation {
        &self.obs
    }

    /// One attempt: a world consistent with the observation, or `None` when
    /// the drawn deal or hidden decisions contradict it (try again).
    pub fn attempt(&self, rng: &mut Shuffler) -> Option<World<G>> {
        let (order, forced, weight) = self.draw_order(rng)?;
        let mut game = self.start.clone();
        game.deal(&order).ok()?;
        let hidden = replay(&mut game, &self.obs, &self.later, forced, rng)?;
        (game.observe(self.obs.seat) == self.obs).then_some(World {
            game,
            weight: weight * hidden,
        })
    }

    /// Up to `attempts` attempts; the first consistent world.
    pub fn sample(&self, rng: &mut Shuffler, attempts: usize) -> Option<World<G>> {
        (0..attempts).find_map(|_| self.attempt(rng))
    }

    /// A deck order: pinned cards in place, seen cards in their sets, the
    /// rest shuffled into what is left. Also the cards that must have been
    /// handed over unseen by each seat (a seen card placed in a source's
    /// hand), and the order's weight (the product of the choices' sizes).
    fn draw_order(&self, rng: &mut Shuffler) -> Option<(Vec<Card>, Forced, f64)> {
        let mut order = self.pinned.clone();
        let mut forced: Forced = Default::default();
        let mut weight = 1.0;
        let mut candidates = Vec::with_capacity(order.len());
        for h in &self.held {
            candidates.clear();
            for z in h.sources.iter() {
                candidates.extend(self.hands[z.index()].iter().copied());
            }
            candidates.extend(self.takes[h.seat.index()][..h.takes].iter().copied());
            candidates.retain(|&p| order[p].is_none());
            if candidates.is_empty() {
                return None;
            }
            weight *= candidates.len() as f64;
            let p = candidates[rng.below(candidates.len() as u32) as usize];
            order[p] = Some(h.card);
            // Dealt to another seat: it travelled to `h.seat` by unseen
            // hand-overs, each seat on the way passing it on.
            if let Some(mut z) = self.owner[p] {
                let mut hops = 0;
                while z != h.seat {
                    forced[z.index()].push(h.card);
                    z = self.receiver_of[z.index()]?;
                    hops += 1;
                    if hops > self.hands.len() {
                        return None;
                    }
                }
            }
        }
        let mut free = self.free.clone();
        rng.shuffle(&mut free);
        let mut free = free.into_iter();
        let order = order
            .into_iter()
            .map(|c| c.or_else(|| free.next()))
            .collect::<Option<Vec<Card>>>()?;
        Some((order, forced, weight))
    }
}

/// What the whole history says of each seat's hidden decisions, read once
/// for every attempt.
#[derive(Debug, Clone)]
struct Later {
    /// The cards each seat plays.
    plays: [CardSet; MAX_SEATS],
    /// The cards each seat shows in its hand (bid cards apart).
    shown: [CardSet; MAX_SEATS],
    /// The cards each seat is seen to hand over, in the order taken.
    handed: Forced,
    /// The face-up bid cards each seat placed.
    placed: [CardSet; MAX_SEATS],
}

impl Later {
    fn of(obs: &Observation) -> Later {
        let mut plays = [CardSet::EMPTY; MAX_SEATS];
        let mut shown = [CardSet::EMPTY; MAX_SEATS];
        let mut handed: Forced = Default::default();
        for e in &obs.history {
            match *e {
                Event::Action {
                    seat: s,
                    action: Action::Play(c),
                } => plays[s.index()].insert(c),
                Event::Reveal { seat: s, cards } => shown[s.index()] = shown[s.index()].or(cards),
                Event::Take {
                    card: Some(c),
                    from: Source::Seat(giver),
                    ..
                } => handed[giver.index()].push(c),
                _ => {}
            }
        }
        let (placed, bid_cards) = bid_cards_placed(obs);
        for s in &mut shown {
            *s = s.minus(bid_cards);
        }
        Later {
            plays,
            shown,
            handed,
            placed,
        }
    }
}

/// Every card handed from seat to seat in the history, seen or not, as
/// (giver, receiver).
fn hand_overs(obs: &Observation) -> impl Iterator<Item = (Seat, Seat)> + '_ {
    obs.history.iter().filter_map(|e| match *e {
        Event::Take {
            seat: r,
            from: Source::Seat(g),
            ..
        } => Some((g, r)),
        _ => None,
    })
}

/// Face-up bid cards (Yogi's Y6) by the seat that placed them: their
/// holder, or the seat it took its bid cards from (Y13's rotation); and all
/// of them.
fn bid_cards_placed(obs: &Observation) -> ([CardSet; MAX_SEATS], CardSet) {
    let mut giver_of: [Option<Seat>; MAX_SEATS] = [None; MAX_SEATS];
    for (g, r) in hand_overs(obs) {
        giver_of[r.index()] = Some(g);
    }
    let mut placed = [CardSet::EMPTY; MAX_SEATS];
    let mut all = CardSet::EMPTY;
    for t in obs.table.iter().filter(|t| t.label == "bid-card") {
        if let Some(owner) = t.owner {
            let placer = giver_of[owner.index()].unwrap_or(owner);
            placed[placer.index()].insert(t.card);
            all.insert(t.card);
        }
    }
    (placed, all)
}

/// Per seat, cards it must hand over face down.
type Forced = [Vec<Card>; MAX_SEATS];

/// The seat each position is dealt to.
fn owners(hands: &[Vec<usize>], len: usize) -> Vec<Option<Seat>> {
    let mut owner = vec![None; len];
    for (s, positions) in hands.iter().enumerate() {
        for &p in positions {
            owner[p] = Some(Seat::new(s));
        }
    }
    owner
}

/// Each position of the deal and the turn-up's position, learnt by dealing
/// the deck in ascending order into a copy of `start` (and, where the deal
/// waits for a decision as in Yogi's dealer-chosen size, applying the
/// history's decisions until the cards are out).
fn layout<G: Game>(
    start: &G,
    obs: &Observation,
) -> Result<(Vec<Slot>, Option<usize>), SampleError> {
    let reference: Vec<Card> = start.deck().iter().collect();
    let mut position = [usize::MAX; Card::COUNT];
    for (p, c) in reference.iter().enumerate() {
        position[c.index()] = p;
    }
    let mut g = start.clone();
    g.deal(&reference)
        .map_err(|e| SampleError::Inconsistent(e.to_string()))?;
    let dealt = |g: &G| {
        g.log()
            .iter()
            .any(|e| matches!(e.event, Event::Dealt { .. }))
    };
    let mut decisions = obs.history.iter().filter_map(|e| match *e {
        Event::Action { seat, action } => Some((seat, action)),
        _ => None,
    });
    // Before a deal that waits for a decision nothing is dealt yet: every
    // position is then the stock's.
    while !dealt(&g) {
        let Some((s, a)) = decisions.next() else {
            break;
        };
        g.apply(s, a)
            .map_err(|e| SampleError::Inconsistent(e.to_string()))?;
    }
    let mut slots = vec![Slot::Stock; reference.len()];
    let mut turn_up = None;
    for e in g.log() {
        match e.event {
            Event::Dealt { seat, cards } => {
                for c in cards.iter() {
                    slots[position[c.index()]] = Slot::Hand(seat);
                }
            }
            Event::TurnUp { card } if turn_up.is_none() => turn_up = Some(position[card.index()]),
            _ => {}
        }
    }
    if let Some(t) = turn_up {
        for slot in &mut slots[..t] {
            if *slot == Slot::Stock {
                *slot = Slot::Aside;
            }
        }
    }
    Ok((slots, turn_up))
}

/// Replays the hand of `obs` in `world` (just dealt): decisions seen are
/// applied; a hidden decision hands over the cards the history shows it
/// handed over, then those `forced` on it, else is drawn among the legal
/// actions of its kind that the rest of the history allows. Every event
/// logged must be the next of the history as the seat saw it. Returns the
/// product of the numbers of choices drawn among (the hidden decisions'
/// part of the world's weight).
fn replay<G: Game>(
    world: &mut G,
    obs: &Observation,
    later: &Later,
    mut forced: Forced,
    rng: &mut Shuffler,
) -> Option<f64> {
    let seat = obs.seat;
    let history = &obs.history;
    let (mut seen, mut logged, mut next) = (0, 0, 0);
    let mut legal = ActionList::new();
    let mut weight = 1.0;
    let Later {
        plays,
        shown,
        handed,
        placed,
    } = later;
    let mut handed_next = [0usize; MAX_SEATS];
    loop {
        for entry in &world.log()[logged..] {
            if let Some(e) = entry.seen_by(seat) {
                if history.get(seen) != Some(&e) {
                    return None;
                }
                seen += 1;
            }
        }
        logged = world.log().len();
        if seen == history.len() {
            return Some(weight);
        }
        // The next decision: the first decision event not yet replayed.
        next = next.max(seen);
        let (d, s, action) = history[next..]
            .iter()
            .enumerate()
            .find_map(|(i, e)| match *e {
                Event::Action { seat, action } => Some((i, seat, Some(action))),
                Event::Hidden { seat, .. } => Some((i, seat, None)),
                _ => None,
            })?;
        next += d + 1;
        let action = match action {
            Some(a) => a,
            None => {
                let Event::Hidden { kind, .. } = history[next - 1] else {
                    unreachable!("found above")
                };
                legal.clear();
                world.legal_actions_into(s, &mut legal);
                let i = s.index();
                let forced_now = forced[i].iter().position(|&c| {
                    legal
                        .iter()
                        .any(|a| a.kind() == kind && a.card() == Some(c))
                });
                if let Some(&c) = handed[i].get(handed_next[i]) {
                    handed_next[i] += 1;
                    *legal
                        .iter()
                        .find(|a| a.kind() == kind && a.card() == Some(c))?
                } else if let Some(k) = forced_now {
                    // A card the deal drawn makes this seat pass on unseen,
                    // as soon as it holds it.
                    let c = forced[i].remove(k);
                    *legal
                        .iter()
                        .find(|a| a.kind() == kind && a.card() == Some(c))?
                } else {
                    // A card the seat plays later in the history, hands over
                    // (seen, or forced by the deal) or shows in its hand was
                    // not given, placed or discarded face down now.
                    let later = plays[i]
                        .or(handed[i].iter().copied().collect())
                        .or(forced[i].iter().copied().collect())
                        .or(shown[i]);
                    // Bid cards shown face up were placed: those first.
                    let only = if kind == ActionKind::Place {
                        legal
                            .iter()
                            .filter_map(|a| a.card())
                            .filter(|&c| placed[i].contains(c))
                            .collect()
                    } else {
                        CardSet::EMPTY
                    };
                    let allowed = |a: &&Action| {
                        a.kind() == kind
                            && a.card().is_none_or(|c| {
                                !later.contains(c) && (only.is_empty() || only.contains(c))
                            })
                    };
                    let n = legal.iter().filter(allowed).count();
                    if n == 0 {
                        return None;
                    }
                    weight *= n as f64;
                    let k = rng.below(n as u32) as usize;
                    *legal.iter().filter(allowed).nth(k)?
                }
            }
        };
        world.apply(s, action).ok()?;
    }
}
