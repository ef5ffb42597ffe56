//! `whistle_engine._engine`: the referee's rules engine for Python.
//!
//! A [`State`] is a match driven by `whistle_rules::MatchDriver` exactly as
//! the referee drives one: dealt from the match seed of `whistle play
//! --seed N` (`Seed::from_u64(N).derive(Match, 0)`, then `derive(Deal, d)`
//! for deal `d`), actions judged by the same `judge`. Observations are the
//! protocol's `Observation` message in its JSON form (the stdio bots' form),
//! which the Python layer turns into dicts. Nothing here does IO but
//! [`State::log`], which writes the replay log through `whistle-replay`'s
//! writer into a temporary file and returns its text.
//!
//! Playouts ([`State::playouts`], [`State::action_values`] and
//! [`action_values`]) run `whistle_policies::playout` on copies of the game,
//! many in one call, with the GIL released: a Monte-Carlo bot in Python
//! pays the interpreter once a batch, not once a decision.

use pyo3::{
    exceptions::{PyIndexError, PyRuntimeError, PyValueError},
    prelude::*,
    sync::PyOnceLock,
    types::{PyBytes, PyList, PyString},
};
use std::sync::Arc;
use whistle_policies::{
    Bot, HeuristicBot,
    playout::{self, Rollout},
};
use whistle_protocol::{convert, ids, pb};
use whistle_replay::{ActionLog, EndLog, HandLog, Header};
use whistle_rules::{
    Action, ActionKind, ActionList, Answer, AnyGame, Card, Fallback, Game, MatchDriver,
    Observation, Options, Seat, Status, Variant,
    dealing::{self, Domain, Seed, Shuffler},
    sample::WorldSampler,
};

/// Rust's allocations in the extension (Python's own objects keep Python's
/// allocator): many small, short-lived ones in every playout.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The exception a refused action raises (`whistle_engine.IllegalActionError`).
mod illegal {
    // The macro's struct takes no doc comment without giving the Python
    // class a docstring too, which it has never had.
    #![allow(missing_docs)]
    use pyo3::exceptions::PyValueError;
    pyo3::create_exception!(_engine, IllegalActionError, PyValueError);
}
pub use illegal::IllegalActionError;

/// How many draws a world may take before the sampler gives up.
const ATTEMPTS: usize = 1000;

fn variant(name: &str) -> PyResult<Variant> {
    name.parse::<Variant>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn options(pairs: Option<Vec<(String, String)>>) -> PyResult<Options> {
    let pairs: Vec<String> = pairs
        .unwrap_or_default()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    Options::parse(&pairs).map_err(|e| PyValueError::new_err(e.to_string()))
}

fn new_match(game: Variant, options: &Options) -> PyResult<AnyGame> {
    game.new_game(options)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The match seed of `whistle play --seed n` (match 0 of tournament seed n).
fn match_seed(n: u64) -> Seed {
    Seed::from_u64(n).derive(Domain::Match, 0)
}

/// Every game: `(name, title, seats by default, [(key, default, values, doc)])`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn games() -> Vec<(
    String,
    String,
    Option<usize>,
    Vec<(String, String, String, String)>,
)> {
    Variant::ALL
        .into_iter()
        .map(|v| {
            (
                v.name().to_string(),
                v.title().to_string(),
                v.new_game(&Options::new()).ok().map(|g| g.seats()),
                v.option_specs()
                    .iter()
                    .map(|o| {
                        (
                            o.key.to_string(),
                            o.default.to_string(),
                            o.values.to_string(),
                            o.doc.to_string(),
                        )
                    })
                    .collect(),
            )
        })
        .collect()
}

/// One match in play.
#[pyclass(module = "whistle_engine._engine")]
struct State {
    driver: MatchDriver<AnyGame>,
    /// What every copy of the match shares and none changes: shared, not
    /// copied, by `clone`.
    meta: Arc<Meta>,
    /// The legal actions `legal_actions` listed last, kept so that `apply`
    /// by index (or by one of the texts it gave) does not list them again.
    listed: ActionList,
    /// For whom `listed` was made and when; None before the first listing.
    listed_for: Option<Listing>,
    /// Every action applied, with its deal.
    actions: Vec<(u32, Seat, Action)>,
}

/// Whom and when [`State::legal_actions`] listed for.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Listing {
    seat: Seat,
    /// The number of actions applied then: the state changes only by
    /// applying one, so the listing holds while this is the count.
    step: usize,
    /// Whether the seat was the only one asked (no seat named): then, at
    /// the same step, it still is.
    alone: bool,
}

/// The parts of a [`State`] fixed when the match (or world) is made.
struct Meta {
    /// The number given as the seed (0 for a sampled world).
    seed: u64,
    options: Options,
    /// A world drawn by the sampler: its earlier deals are unknown.
    sampled: bool,
}

/// Room for the actions of a hand or so in a copy's list, so that a
/// playout from a copy does not grow it step by step.
const ACTIONS_AHEAD: usize = 64;

impl Clone for State {
    fn clone(&self) -> State {
        let mut actions = Vec::with_capacity(self.actions.len() + ACTIONS_AHEAD);
        actions.extend_from_slice(&self.actions);
        State {
            driver: self.driver.clone(),
            meta: Arc::clone(&self.meta),
            listed: self.listed.clone(),
            listed_for: self.listed_for,
            actions,
        }
    }
}

impl State {
    fn new(driver: MatchDriver<AnyGame>, meta: Meta) -> PyResult<State> {
        let mut s = State {
            driver: driver.without_events(),
            meta: Arc::new(meta),
            listed: ActionList::new(),
            listed_for: None,
            actions: Vec::new(),
        };
        s.settle()?;
        Ok(s)
    }

    /// Deals whatever the game waits for (from the match seed).
    fn settle(&mut self) -> PyResult<()> {
        self.driver
            .to_ask()
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(())
    }

    /// The deck order of deal `deal`, as the driver dealt it.
    fn deck(&self, deal: u32) -> Vec<Card> {
        let seed = dealing::deal_seed(self.driver.match_seed(), deal);
        dealing::deck_order(seed, self.game().deck()).to_vec()
    }

    fn game(&self) -> &AnyGame {
        self.driver.game()
    }

    /// The seat an action is for: `seat`, or the only seat asked.
    fn seat_for(&self, seat: Option<usize>) -> PyResult<Seat> {
        match seat {
            Some(s) if s < self.game().seats() => Ok(Seat::new(s)),
            Some(s) => Err(PyIndexError::new_err(format!(
                "no seat {s}: the game has {} seats",
                self.game().seats()
            ))),
            None => {
                let to_act = self.game().to_act();
                match (to_act.first(), to_act.len()) {
                    (Some(seat), 1) => Ok(seat),
                    (None, _) => Err(IllegalActionError::new_err(
                        "nobody is to act: the match is over",
                    )),
                    _ => Err(PyValueError::new_err(format!(
                        "seats {:?} act at once: name the seat",
                        to_act.iter().map(|s| s.index()).collect::<Vec<_>>()
                    ))),
                }
            }
        }
    }

    fn observation_pb(&self, seat: Seat) -> pb::Observation {
        let g = self.game();
        convert::observation(&g.observe(seat), g.hand_results())
    }

    /// A copy of the game and the deal of its hand in play, for playouts.
    fn hand_in_play(&self) -> PyResult<(AnyGame, u32)> {
        let g = self.game();
        if g.status() != Status::Act {
            return Err(IllegalActionError::new_err(
                "no hand is in play: the match is over",
            ));
        }
        Ok((g.clone(), g.deals() - 1))
    }

    fn apply_action(&mut self, seat: Seat, action: Action) -> PyResult<()> {
        let deal = self.game().deals().saturating_sub(1);
        self.driver
            .apply(seat, action, false)
            .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        self.actions.push((deal, seat, action));
        self.settle()
    }
}

#[pymethods]
impl State {
    /// The game's name.
    #[getter]
    fn game_name(&self) -> String {
        self.game().variant().name().to_string()
    }

    /// Number of seats.
    #[getter]
    fn seats(&self) -> usize {
        self.game().seats()
    }

    /// Every option with its effective value.
    fn options(&self) -> Vec<(String, String)> {
        self.game()
            .options()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// The seats asked to act now (several in a simultaneous step; none
    /// when the match is over).
    fn to_act(&self) -> Vec<usize> {
        if self.game().status() != Status::Act {
            return Vec::new();
        }
        self.game().to_act().iter().map(|s| s.index()).collect()
    }

    /// The legal actions of `seat` (default: the only seat asked), as text
    /// in the protocol's order.
    #[pyo3(signature = (seat=None))]
    fn legal_actions<'py>(
        &mut self,
        py: Python<'py>,
        seat: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        if self.game().status() != Status::Act {
            return Ok(PyList::empty(py));
        }
        let alone = seat.is_none();
        let seat = self.seat_for(seat)?;
        // Listed in place: no copy of the list on its way here.
        self.listed.clear();
        self.driver
            .game()
            .legal_actions_into(seat, &mut self.listed);
        self.listed_for = Some(Listing {
            seat,
            step: self.actions.len(),
            alone,
        });
        texts(py, &self.listed)
    }

    /// Plays `action` (its text, or an index into `legal_actions(seat)`)
    /// for `seat` (default: the only seat asked). An illegal or malformed
    /// action raises `IllegalActionError` with the referee's reason.
    #[pyo3(signature = (action, seat=None))]
    fn apply(&mut self, action: &Bound<'_, PyAny>, seat: Option<usize>) -> PyResult<()> {
        let step = self.actions.len();
        let seat = match (seat, self.listed_for) {
            (None, Some(l)) if l.alone && l.step == step => l.seat,
            _ => self.seat_for(seat)?,
        };
        // The list just given out, if it is this seat's at this step: an
        // index into it, or one of its texts (the very string objects it
        // holds), needs no listing nor parsing again.
        let listed = self
            .listed_for
            .is_some_and(|l| l.seat == seat && l.step == step);
        let answer = if let Ok(text) = action.cast::<PyString>() {
            if listed && let Some(a) = listed_text(text, &self.listed) {
                return self.apply_action(seat, a);
            }
            match text.to_str() {
                Ok(t) => Answer::Text(t.to_owned()),
                Err(_) => return Err(not_an_action()),
            }
        } else if let Ok(i) = action.extract::<u32>() {
            if listed && let Some(&a) = self.listed.get(i as usize) {
                return self.apply_action(seat, a);
            }
            Answer::Index(i)
        } else {
            return Err(not_an_action());
        };
        let action = whistle_rules::judge(self.game(), seat, &answer)
            .map_err(|e| IllegalActionError::new_err(e.to_string()))?;
        self.apply_action(seat, action)
    }

    /// Whether the match is over.
    fn is_over(&self) -> bool {
        self.game().is_over()
    }

    /// The match's result as the protocol's `MatchResult` JSON (None while
    /// it is played).
    fn result_json(&self) -> Option<String> {
        let r = self.game().result()?;
        serde_json::to_string(&convert::match_result(&r, &[])).ok()
    }

    /// Every finished hand's result as the protocol's `HandResult` JSON.
    fn hand_results_json(&self) -> String {
        let results: Vec<pb::HandResult> = self
            .game()
            .hand_results()
            .iter()
            .map(convert::hand_result)
            .collect();
        serde_json::to_string(&results).unwrap_or_default()
    }

    /// Each seat's team (partners share a number).
    fn teams(&self) -> Vec<u8> {
        self.game().teams().to_vec()
    }

    /// Whether lower totals are better (Yogi's fines).
    fn lower_is_better(&self) -> bool {
        self.game().score_order() == whistle_rules::ScoreOrder::LowerIsBetter
    }

    /// Deals started so far (the current hand is deal `deals - 1`).
    fn deals(&self) -> u32 {
        self.game().deals()
    }

    /// A copy that plays on independently.
    fn clone(&self) -> State {
        Clone::clone(self)
    }

    fn __copy__(&self) -> State {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        Clone::clone(self)
    }

    /// What `seat` sees: the protocol's `Observation` as JSON.
    fn observation_json(&self, seat: usize) -> PyResult<String> {
        let seat = self.seat_for(Some(seat))?;
        serde_json::to_string(&self.observation_pb(seat))
            .map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// What `seat` sees: the protocol's `Observation` as Python values.
    fn observation<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.observation_json(seat)?)
    }

    /// The match's result (the protocol's `MatchResult` as Python values),
    /// None while it is played.
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.result_json().map(|t| loads(py, &t)).transpose()
    }

    /// Every finished hand's result (the protocol's `HandResult`s).
    fn hand_results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.hand_results_json())
    }

    /// What `seat` sees as the protocol's `Observation` message, encoded
    /// (what a gRPC bot receives).
    fn observation_bytes<'py>(
        &self,
        py: Python<'py>,
        seat: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let seat = self.seat_for(Some(seat))?;
        Ok(PyBytes::new(
            py,
            &prost::Message::encode_to_vec(&self.observation_pb(seat)),
        ))
    }

    /// Plays the current hand to its end with the engine's heuristic bot in
    /// every seat (a playout); nothing when no hand is in play.
    fn play_hand_out(&mut self) -> PyResult<()> {
        let deal = self.game().deals();
        let mut policy = HeuristicBot;
        while self.game().status() == Status::Act && self.game().deals() == deal {
            let seat = self.game().to_act().first().expect("a seat acts");
            let legal = self.game().legal_actions(seat);
            let i = if legal.len() == 1 {
                0
            } else {
                policy.choose(&self.game().observe(seat), &legal)
            };
            self.apply_action(seat, legal[i])?;
        }
        Ok(())
    }

    /// The engine's heuristic bot's choice for `seat` (default: the only
    /// seat asked), as an index into `legal_actions(seat)`.
    #[pyo3(signature = (seat=None))]
    fn heuristic_choice(&self, seat: Option<usize>) -> PyResult<usize> {
        let seat = self.seat_for(seat)?;
        let legal = self.game().legal_actions(seat);
        if legal.is_empty() {
            return Err(IllegalActionError::new_err(
                "that seat has nothing to decide",
            ));
        }
        Ok(HeuristicBot.choose(&self.game().observe(seat), &legal))
    }

    /// `n` playouts of the hand in play from this state, each played to the
    /// hand's end by `policy` (`"random"` or `"heuristic"`) in every seat on
    /// a copy (this state does not move); each value is the hand's points
    /// for `seat`'s side (default: the only seat asked) against the other
    /// sides' average, negated where lower totals are better. Random
    /// choices draw from `seed`. Runs in Rust with the GIL released.
    #[pyo3(signature = (n, policy="random", seed=0, seat=None))]
    fn playouts(
        &self,
        py: Python<'_>,
        n: usize,
        policy: &str,
        seed: u64,
        seat: Option<usize>,
    ) -> PyResult<Vec<f64>> {
        let rollout = rollout(policy)?;
        let seat = self.seat_for(seat)?;
        let (game, deal) = self.hand_in_play()?;
        Ok(py.detach(move || {
            let mut rng = playout_rng(seed);
            (0..n)
                .map(|_| {
                    let mut w = game.clone();
                    playout::play_out(&mut w, deal, rollout, &mut rng);
                    playout::hand_value(&w, seat, deal)
                })
                .collect()
        }))
    }

    /// The value of each legal action of `seat` (default: the only seat
    /// asked), in the order of `legal_actions(seat)`: the mean over
    /// `playouts` playouts that play the action and the rest of the hand
    /// out by `policy` (values as `playouts` gives them). Runs in Rust with
    /// the GIL released.
    #[pyo3(signature = (playouts=1, policy="random", seed=0, seat=None))]
    fn action_values(
        &self,
        py: Python<'_>,
        playouts: usize,
        policy: &str,
        seed: u64,
        seat: Option<usize>,
    ) -> PyResult<Vec<f64>> {
        let rollout = rollout(policy)?;
        let seat = self.seat_for(seat)?;
        let (game, deal) = self.hand_in_play()?;
        py.detach(move || {
            let mut rng = playout_rng(seed);
            action_row(&game, seat, deal, playouts, rollout, &mut rng)
        })
    }

    /// The match so far in the replay format (JSON lines, hash-chained),
    /// which `whistle replay verify` accepts once the match is over.
    fn log(&self) -> PyResult<String> {
        let err = |e: &dyn std::fmt::Display| PyRuntimeError::new_err(e.to_string());
        if self.meta.sampled {
            return Err(PyValueError::new_err(
                "a sampled world has no log: its earlier deals are not known",
            ));
        }
        let g = self.game();
        let n = g.seats();
        let header = Header::builder(
            "python",
            0,
            g.variant(),
            self.meta.options.clone(),
            (0..n).map(|s| format!("seat{s}")).collect(),
        )
        .seed_commitment(whistle_replay::seed_commitment(Seed::from_u64(
            self.meta.seed,
        )))
        .build();
        let mut w = whistle_replay::Writer::new(Vec::new(), &header).map_err(|e| err(&e))?;
        for result in g.hand_results() {
            let deal = result.deal;
            w.hand(HandLog {
                prev: String::new(),
                deal,
                dealer: result.dealer,
                deck: self.deck(deal),
                actions: self
                    .actions
                    .iter()
                    .filter(|(d, ..)| *d == deal)
                    .map(|&(_, seat, action)| ActionLog {
                        seat,
                        action,
                        ms: 0.0,
                        fallback: false,
                    })
                    .collect(),
                faults: Vec::new(),
                result: result.clone(),
                context: None,
            })
            .map_err(|e| err(&e))?;
        }
        if let Some(result) = g.result() {
            w.end(EndLog {
                prev: String::new(),
                result,
                forfeited: Vec::new(),
                faults: vec![0; n],
                match_seed: self.driver.match_seed(),
            })
            .map_err(|e| err(&e))?;
        }
        String::from_utf8(w.into_inner()).map_err(|e| err(&e))
    }

    fn __repr__(&self) -> String {
        let g = self.game();
        format!(
            "<whistle_engine.State {} deal {} to act {:?}>",
            g.variant().name(),
            g.deals(),
            self.to_act()
        )
    }
}

/// Each action's text as a Python string, made once a process: lists of
/// legal actions are built in every step of a playout. Found by the
/// action's wire id (`1 + 4096 × kind + argument`, `whistle_protocol::ids`):
/// a row a kind, made whole the first time an action of that kind is
/// listed, and a slot an argument; no hashing, no lock after the first.
static TEXTS: [PyOnceLock<Vec<Option<Py<PyString>>>>; ActionKind::ALL.len()] =
    [const { PyOnceLock::new() }; ActionKind::ALL.len()];

/// How many wire ids one action kind spans (`whistle_protocol::ids`).
const KIND_SPAN: usize = 4096;

/// The texts of every action of kind `kind`, by argument.
fn text_row(py: Python<'_>, kind: usize) -> Vec<Option<Py<PyString>>> {
    let mut row: Vec<Option<Py<PyString>>> = (0..KIND_SPAN)
        .map(|arg| {
            ids::action_from_id((1 + kind * KIND_SPAN + arg) as u32)
                .map(|a| PyString::intern(py, &a.to_string()).unbind())
        })
        .collect();
    while row.last().is_some_and(Option::is_none) {
        row.pop();
    }
    row
}

/// The shared text of `a`.
fn text_of(py: Python<'_>, a: Action) -> Option<&'static Py<PyString>> {
    let id = (ids::action_id(a) as usize).checked_sub(1)?;
    let (kind, arg) = (id / KIND_SPAN, id % KIND_SPAN);
    let row = TEXTS.get(kind)?.get_or_init(py, || text_row(py, kind));
    row.get(arg)?.as_ref()
}

/// The texts of `actions` as a Python list.
fn texts<'py>(py: Python<'py>, actions: &[Action]) -> PyResult<Bound<'py, PyList>> {
    // Card plays, most steps of a hand, straight from their row (a card
    // play's wire id is its card's index + 1).
    let play = ActionKind::Play as usize;
    let plays = TEXTS[play].get_or_init(py, || text_row(py, play));
    PyList::new(
        py,
        actions.iter().map(|&a| {
            let text = match a {
                Action::Play(card) => plays.get(card.index()).and_then(Option::as_ref),
                _ => text_of(py, a),
            };
            match text {
                Some(t) => t.bind(py).clone(),
                // Every action has a wire id; should one not, its text anyway.
                None => PyString::new(py, &a.to_string()),
            }
        }),
    )
}

/// The error for an action that is neither a text nor an index.
fn not_an_action() -> PyErr {
    PyValueError::new_err("an action is its text or an index into legal_actions()")
}

/// The action of `listed` whose text `texts` gave out as this very string
/// object, if any (a caller answering with an item of `legal_actions`).
fn listed_text(text: &Bound<'_, PyString>, listed: &[Action]) -> Option<Action> {
    listed
        .iter()
        .copied()
        .find(|&a| text_of(text.py(), a).is_some_and(|t| t.as_ptr() == text.as_ptr()))
}

fn loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

/// A match of `game` dealt from `seed` as `whistle play --seed` and the
/// referee deal it.
#[pyfunction]
#[pyo3(signature = (game, seed, options=None))]
fn new_game(game: &str, seed: u64, options: Option<Vec<(String, String)>>) -> PyResult<State> {
    let v = variant(game)?;
    let opts = self::options(options)?;
    let g = new_match(v, &opts)?;
    State::new(
        MatchDriver::new(g, match_seed(seed), Fallback::default()),
        Meta {
            seed,
            options: opts,
            sampled: false,
        },
    )
}

/// Decodes an encoded protocol `Observation` (what a gRPC bot receives)
/// into its JSON form; errors if it is not a valid observation.
#[pyfunction]
fn decode_observation(data: &[u8]) -> PyResult<String> {
    let o: pb::Observation =
        prost::Message::decode(data).map_err(|e| PyValueError::new_err(e.to_string()))?;
    convert::observation_from(&o).map_err(|e| PyValueError::new_err(e.to_string()))?;
    serde_json::to_string(&o).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// An observation from its JSON form (the protocol's, as `observation_json`
/// and stdio bots give it) or its encoded message.
fn engine_observation(observation: &Bound<'_, PyAny>) -> PyResult<Observation> {
    let o: pb::Observation = if let Ok(b) = observation.extract::<Vec<u8>>()
        && !observation.is_instance_of::<pyo3::types::PyString>()
    {
        prost::Message::decode(b.as_slice()).map_err(|e| PyValueError::new_err(e.to_string()))?
    } else {
        let text: String = observation.extract()?;
        serde_json::from_str(&text).map_err(|e| PyValueError::new_err(e.to_string()))?
    };
    convert::observation_from(&o).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Up to `n` worlds consistent with `observation` (JSON text or encoded
/// message), drawn by the engine's world sampler from `seed`: each a
/// `(State, weight)` at the observed moment, the weights being importance
/// weights (equal where every consistent world is equally likely).
#[pyfunction]
#[pyo3(signature = (game, observation, n, seed, options=None))]
fn sample_worlds(
    game: &str,
    observation: &Bound<'_, PyAny>,
    n: usize,
    seed: u64,
    options: Option<Vec<(String, String)>>,
) -> PyResult<Vec<(State, f64)>> {
    let v = variant(game)?;
    let opts = self::options(options)?;
    let fresh = new_match(v, &opts)?;
    let obs = engine_observation(observation)?;
    let sampler =
        WorldSampler::new(&fresh, &obs).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let mut rng = Shuffler::new(Seed::from_u64(seed).derive(Domain::Bot, 0));
    let meta = Arc::new(Meta {
        seed: 0,
        options: opts,
        sampled: true,
    });
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let Some(world) = sampler.sample(&mut rng, ATTEMPTS) else {
            break;
        };
        let driver = MatchDriver::new(world.game, match_seed(0), Fallback::default());
        let state = State {
            driver: driver.without_events(),
            meta: Arc::clone(&meta),
            listed: ActionList::new(),
            listed_for: None,
            actions: Vec::new(),
        };
        out.push((state, world.weight));
    }
    Ok(out)
}

/// The playout policy named `name`.
fn rollout(name: &str) -> PyResult<Rollout> {
    Rollout::from_name(name).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The random stream of a batch of playouts drawn from `seed`.
fn playout_rng(seed: u64) -> Shuffler {
    Shuffler::new(Seed::from_u64(seed).derive(Domain::Bot, 1))
}

/// Each legal action of `seat` in `game`: the mean value of `playouts`
/// playouts after it (see [`State::action_values`]).
fn action_row(
    game: &AnyGame,
    seat: Seat,
    deal: u32,
    playouts: usize,
    rollout: Rollout,
    rng: &mut Shuffler,
) -> PyResult<Vec<f64>> {
    if playouts == 0 {
        return Err(PyValueError::new_err("playouts must be at least 1"));
    }
    let legal = game.legal_actions(seat);
    if legal.is_empty() {
        return Err(IllegalActionError::new_err(format!(
            "seat {} has nothing to decide",
            seat.index()
        )));
    }
    let mut row = Vec::with_capacity(legal.len());
    for &action in &legal {
        let mut total = 0.0;
        for _ in 0..playouts {
            let mut w = game.clone();
            w.apply(seat, action)
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            playout::play_out(&mut w, deal, rollout, rng);
            total += playout::hand_value(&w, seat, deal);
        }
        row.push(total / playouts as f64);
    }
    Ok(row)
}

/// `State.action_values` for many states in one call (the worlds a
/// sampler drew for one decision): one row a state, each legal action of
/// `seat` valued by the mean of `playouts` playouts by `policy`. Runs in
/// Rust with the GIL released.
#[pyfunction]
#[pyo3(signature = (states, seat, playouts=1, policy="random", seed=0))]
fn action_values(
    py: Python<'_>,
    states: Vec<PyRef<'_, State>>,
    seat: usize,
    playouts: usize,
    policy: &str,
    seed: u64,
) -> PyResult<Vec<Vec<f64>>> {
    let rollout = rollout(policy)?;
    let mut games = Vec::with_capacity(states.len());
    for state in &states {
        let seat = state.seat_for(Some(seat))?;
        let (game, deal) = state.hand_in_play()?;
        games.push((game, deal, seat));
    }
    drop(states);
    py.detach(move || {
        let mut rng = playout_rng(seed);
        games
            .iter()
            .map(|(game, deal, seat)| action_row(game, *seat, *deal, playouts, rollout, &mut rng))
            .collect()
    })
}

/// The canonical text of an action text (`play 10h` → `TH`), or an error
/// naming what does not parse.
#[pyfunction]
fn canonical_action(text: &str) -> PyResult<String> {
    text.parse::<Action>()
        .map(|a| a.to_string())
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Every action text `game` can ever take under `options`, in the rules
/// crate's fixed order (`Game::vocabulary`): an action's id is its
/// position.
#[pyfunction]
#[pyo3(signature = (game, options=None))]
fn vocabulary(game: &str, options: Option<Vec<(String, String)>>) -> PyResult<Vec<String>> {
    let v = variant(game)?.vocabulary(&self::options(options)?);
    Ok(v.map_err(|e| PyValueError::new_err(e.to_string()))?
        .texts()
        .collect())
}

#[pymodule]
fn _engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(sample_worlds, m)?)?;
    m.add_function(wrap_pyfunction!(action_values, m)?)?;
    m.add_function(wrap_pyfunction!(decode_observation, m)?)?;
    m.add_function(wrap_pyfunction!(canonical_action, m)?)?;
    m.add_function(wrap_pyfunction!(vocabulary, m)?)?;
    m.add(
        "IllegalActionError",
        m.py().get_type::<IllegalActionError>(),
    )?;
    Ok(())
}
