// Package session is one player's game lifecycle, and the home of grotto's
// durability promise: every turn a player saw is in the store.
//
// A [Session] opens the key's saved game (the snapshot, with its journal
// replayed; a damaged one is quarantined and the player told), starts new
// games, applies commands so that each is durable when [Session.Do] returns
// (one journal entry, or a snapshot, or the finished game's record), and
// saves on demand. It imports no Bubble Tea and no SSH: the UI sends it
// commands and draws [Session.Game].
//
// A session is used by one goroutine at a time (the session's program, then
// the server's handler once the program has ended).
package session

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/store"
)

// SnapshotEvery is how many journaled turns make a new snapshot (a save,
// which also empties the journal), so that resuming never replays more than
// this many turns while the store takes snapshots.
const SnapshotEvery = 100

// snapshotRetryEvery is how many more journaled turns a snapshot that
// failed waits before it is tried again. Meanwhile every turn is still
// journaled, so nothing is lost; the journal only grows.
const snapshotRetryEvery = 10

// ErrSnapshotLate is what Config.Trouble hears (wrapped, with the store's
// error) when a snapshot failed while the store still holds the whole game
// (the last snapshot and every journal entry since): nothing is lost, the
// player is not told, and the snapshot is tried again a few turns later.
var ErrSnapshotLate = errors.New("a snapshot could not be written; every turn is still journaled, so the game is whole, and the snapshot is tried again")

// Config is what one player's session needs: whose games, where they are
// kept, and how to report trouble.
type Config struct {
	// Fingerprint is the player's SSH key fingerprint: the identity every
	// record is keyed by.
	Fingerprint string
	// Data is the game data (monsters, items, spawn tables) every game is
	// made and decoded with, as game.LoadData returned it; nil means
	// content.Default().
	Data *content.Tables
	// Saves keeps the snapshot and journal of the game in progress.
	Saves store.Saves
	// Scores records finished games.
	Scores store.Scores
	// Profiles gives the name a finished game is recorded under: the
	// stored profile's, the one place a player's name comes from.
	Profiles store.Profiles
	// Quarantine sets a damaged save aside for the host.
	Quarantine store.Quarantine
	// NewSeed returns the seed of each new game; nil means a random one.
	NewSeed func() uint64
	// Now stamps scores and quarantine records; nil means time.Now.
	Now func() time.Time
	// Trouble, if set, hears when writes of the game start failing (err is
	// the first failure) and when a save succeeds again (err is nil), so
	// the host's log shows a full disk while the player is told on screen.
	Trouble func(err error)
	// Pending holds, across the sessions of this server, the games that
	// ended but could be neither recorded nor saved; nil for none. Open
	// records them before it reads the store, whose copy is from before
	// the end.
	Pending *PendingEnds
	// Unsaved holds, across the sessions of this server, the keys whose
	// game could not be saved when their session ended (the server marks
	// them); nil for none. A session clears its key once the store holds
	// its game again: a write of it succeeds, or Continue resumes the copy
	// the store holds.
	Unsaved *Unsaved
	// NoJournal turns off the per-turn journal: turns are then saved only
	// on a level change, on Save and every SnapshotEvery turns, so a crash
	// can lose up to that many. For measuring what durability costs.
	NoJournal bool
	// Played, if set, hears of each turn the game applied (impossible
	// commands cost no turn and are not heard), with its result, before
	// the turn is written: the server's metrics count turns and ended
	// games with it. It must return quickly.
	Played func(game.Result)
	// Milestone, if set, hears of each milestone of the game in progress
	// (milestones.go: a game begun, a new depth, a level-up, a notable
	// kill, its end) once the turn that made it is shown: when Do
	// returns, or, for a turn that waited for storage, when the wait
	// ends. It is called on the session's goroutine and must return
	// quickly (the server's events hub never blocks).
	Milestone func(Milestone)
}

// Error is a session failure as the player should read it: Error returns
// the player's text (no file paths, no host details); Unwrap returns the
// cause, for the host's log.
type Error struct {
	Player string // what to tell the player
	Err    error  // the cause
	// Again is set when the same call may succeed later: Open could not
	// read a save that is there (a table locked, the database away), so
	// the UI reads it again rather than showing once that it cannot.
	Again bool
}

func (e *Error) Error() string { return e.Player }
func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether the same call may succeed later (Again).
func (e *Error) Retryable() bool { return e.Again }

// Session is one player's game lifecycle. See the package comment.
type Session struct {
	cfg   Config
	game  *game.Game // the game in progress; nil before one starts or after it ended
	saved *game.Game // the game Open found on disk, until Continue or Start
	// daily is the daily Open found kept beside the game of the key's own
	// (store.DailySlot), until ContinueDaily or StartDaily; dailyJournal
	// is the number of its journal entries.
	daily        *game.Game
	dailyJournal uint64
	// slot is the store slot the game in progress is kept in: "" for the
	// key's own game (and an old daily saved there, before slots), or
	// store.DailySlot for a daily started since.
	slot string
	// synced is set when the store holds exactly the game in memory
	// (snapshot plus journal).
	synced bool
	// behind is set when a write of the game failed: the store then lacks
	// turns the player saw, so a journal entry would land on the wrong turn
	// (or on no save, or on another game's save). Until a full save
	// succeeds, every turn makes one instead of a journal entry.
	behind bool
	// unrecorded is set when the game ended but recording its end failed:
	// the game is saved in its final state (never the turn before, which
	// Continue could replay), and the next Open records it.
	unrecorded bool
	// waiting is set when the store could not be reached
	// (store.ErrUnavailable) while the last turn was being made durable:
	// the turn happened in memory but is in the store in no form, so the
	// UI must not show it. Retry (or Save) ends it. waitClean is set when
	// every turn before that one was in the store when the wait began.
	waiting, waitClean bool
	// olderSave is set while the store's save of the game in progress is
	// one of older rules than this build's (game.ResumedUnderNewerRules):
	// the next turn is saved whole, not journaled after it.
	olderSave bool
	// resync is set when a snapshot failed with an answer that may have
	// been lost (store.MayHaveCommitted) while the store held the whole
	// game: the store holds it still, as the old snapshot and its journal
	// or as that snapshot with an empty journal, but which is unknown, so
	// the next write is a full save, never a journal entry whose number
	// may not follow (a gap: a game read as damaged).
	resync bool
	// snapLate is set while snapshots fail with the game whole in the
	// journal (ErrSnapshotLate); snapAt is then the journal's length at
	// which the next snapshot is tried (0: SnapshotEvery).
	snapLate bool
	snapAt   uint64
	journal  uint64      // journal entries since the snapshot: the next entry's number
	rank     int         // the finished game's rank, 0 for none
	ended    time.Time   // the date of the game's end as recorded, kept so that a retried finish records the same score
	held     []Milestone // milestones of the turn that waits for storage, told when the wait ends
}

// New returns the session of the player cfg names, with no game open.
func New(cfg Config) *Session {
	if cfg.NewSeed == nil {
		cfg.NewSeed = rand.Uint64
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Data == nil {
		cfg.Data = content.Default()
	}
	return &Session{cfg: cfg}
}

// Game returns the game in progress, or the one that has just ended, for
// drawing; nil when there is none. Callers must change it only through Do.
func (s *Session) Game() *game.Game { return s.game }

// InProgress reports whether the session holds a game that is not over.
func (s *Session) InProgress() bool { return s.game != nil && !s.game.Over() }

// Behind reports whether turns the player saw are not in the store (a
// write failed and no save has succeeded since): the status line says so.
func (s *Session) Behind() bool { return s.behind }

// Waiting reports whether the last turn waits for storage: Do applied it
// but could not reach the store (store.ErrUnavailable), so it is not
// durable and must not be shown. Retry ends the wait once the store is
// back; meanwhile Do applies nothing.
func (s *Session) Waiting() bool { return s.waiting }

// OnlyLastWaits reports whether the turn that waits for storage is the
// only one the store lacks: every turn the player was shown is saved.
func (s *Session) OnlyLastWaits() bool { return s.waiting && s.waitClean }

// Rank returns the 1-based rank of the game that has just ended, or 0 when
// it is not on the table (cheats, or recording failed).
func (s *Session) Rank() int { return s.rank }

// Open reads the player's saved game, its journal replayed, and keeps it
// for Continue. It returns the game (nil when there is none) and news the
// player must read about what was found: a game that had ended is recorded
// now ("Your last game ended … rank #3"), and a damaged save is quarantined
// ("Your saved game was damaged …"). err, an *Error, means a save exists
// but cannot be read right now (the store is failing); it is kept.
// The daily kept beside the key's own game (store.DailySlot) is read too,
// for SavedDaily and ContinueDaily; its news and err are given as well.
func (s *Session) Open() (saved *game.Game, news string, err error) {
	s.saved, s.daily = nil, nil
	if s.unrecorded && s.game != nil {
		// This session holds an end it could not record, nor perhaps save:
		// the store may still hold a turn before it, so record the final
		// state from memory, never offer the store's copy.
		return nil, s.recordEnd(s.game, s.slot), nil
	}
	saved, s.journal, news, err = s.openSlot("")
	if s.unrecorded {
		return nil, news, err // an end waits to be recorded: one at a time
	}
	daily, journal, dnews, derr := s.openSlot(store.DailySlot)
	s.saved, s.daily, s.dailyJournal = saved, daily, journal
	if news == "" {
		news = dnews
	} else if dnews != "" {
		news += " " + dnews
	}
	if err == nil {
		err = derr
	}
	return saved, news, err
}

// SavedDaily returns the daily Open found kept beside the key's own game
// (a key holds one of each), for ContinueDaily; nil when there
// is none. An old daily kept where the key's own game is, saved before
// a key could hold both, is what Open returns instead.
func (s *Session) SavedDaily() *game.Game { return s.daily }

// openSlot reads the key's game kept in slot as Open does, and returns it
// with its number of journal entries (nil when there is none), and news
// of what was found: an end recorded, a damaged save set aside.
func (s *Session) openSlot(slot string) (*game.Game, uint64, string, error) {
	key := store.SlotKey(s.cfg.Fingerprint, slot)
	what := "saved game"
	if slot == store.DailySlot {
		what = "saved daily"
	}
	if g := s.cfg.Pending.take(key); g != nil {
		// An earlier session of this key ended the game but could neither
		// record nor save it: the store's copy is from before the end.
		return nil, 0, s.recordEnd(g, slot), nil
	}
	g, journal, err := s.load(key)
	if errors.Is(err, game.ErrSaveVersion) {
		// Not damaged: written by a newer grotto (a node already upgraded
		// during a rolling deploy, or before a rollback). Keep it where
		// it is for that version to read.
		return nil, 0, "", &Error{Player: newerSave(what), Err: err}
	}
	if err != nil && corrupt(err) {
		// Set the damaged save aside for the host; never drop it silently.
		if _, qerr := s.cfg.Quarantine.Quarantine(key, err.Error(), s.cfg.Now()); qerr == nil {
			return nil, 0, "Your " + what + " was damaged and could not be read. It is set aside for the host to look at; start a new game.", nil
		}
	}
	if err != nil {
		return nil, 0, "", &Error{Player: "Your " + what + " cannot be read right now; it is kept on the server.", Err: err, Again: true}
	}
	if g != nil && g.Over() {
		return nil, 0, s.recordEnd(g, slot), nil
	}
	return g, journal, "", nil
}

// Continue makes the game Open found the game in progress. It returns an
// error when there is none.
func (s *Session) Continue() error {
	if s.saved == nil {
		return errors.New("no saved game to continue")
	}
	s.game, s.saved, s.daily, s.slot = s.saved, nil, nil, ""
	s.resumed()
	return nil
}

// ContinueDaily makes the daily Open found (SavedDaily) the game in
// progress. It returns an error when there is none.
func (s *Session) ContinueDaily() error {
	if s.daily == nil {
		return errors.New("no saved daily to continue")
	}
	s.game, s.saved, s.daily, s.slot, s.journal = s.daily, nil, nil, store.DailySlot, s.dailyJournal
	s.resumed()
	return nil
}

// resumed marks the game just taken from the store as the one in progress.
func (s *Session) resumed() {
	s.synced, s.behind, s.unrecorded, s.rank = true, false, false, 0
	s.waiting, s.ended = false, time.Time{}
	s.olderSave = s.game.ResumedUnderNewerRules()
	s.cfg.Unsaved.Clear(s.cfg.Fingerprint) // the game in progress is the store's
}

// Start begins a new game, replacing the key's own saved one (never a
// daily kept beside it), and saves it at once so
// that even a game abandoned on its first turn is resumed, not lost. The
// game starts even when the save fails; the error (an *Error) says so.
func (s *Session) Start() error { return s.start(game.New(s.cfg.NewSeed(), s.cfg.Data), "") }

// StartDaily begins the daily challenge of date ("2006-01-02", the UTC
// day) from seed (game.DailySeed of the host's secret and date;
// game.NewDaily) as Start begins a new game: saved at once, in the daily's
// slot beside the key's own game (store.DailySlot: replacing an earlier
// daily, never the key's own game), and when it ends recorded on that day's board
// (store.Score.Daily). Taking the day's one attempt is the caller's
// (store.Dailies.StartDaily), before.
func (s *Session) StartDaily(seed uint64, date string) error {
	return s.start(game.NewDaily(seed, date, s.cfg.Data), store.DailySlot)
}

// start makes g the game in progress, kept in slot, and saves it.
func (s *Session) start(g *game.Game, slot string) error {
	s.game, s.saved, s.daily, s.slot = g, nil, nil, slot
	s.synced, s.behind, s.unrecorded, s.rank, s.journal = false, false, false, 0, 0
	s.waiting, s.ended, s.olderSave, s.held = false, time.Time{}, false, nil
	err := s.Save()
	if s.cfg.Milestone != nil {
		s.tell([]Milestone{{Kind: MilestoneStart, Daily: g.Daily(), Depth: g.Depth(), Turn: g.Turn()}})
	}
	return err
}

// Leave lets go of a game that has ended (the player left its last screen).
// An end that could not be recorded stays, for Save and the next Open.
func (s *Session) Leave() {
	if s.game != nil && s.game.Over() && !s.unrecorded {
		s.game = nil
	}
}

// Do applies c to the game in progress and returns once the turn is
// durable: a journal entry (group-committed with other players'), a
// snapshot on a new level or every SnapshotEvery turns, or, when the game
// ends, its score recorded and its save deleted in one transaction.
//
// An impossible command returns the core's *game.Impossible and costs
// nothing. Otherwise the turn happened, whatever the error: an *Error says
// the turn is not durable (it is kept in memory and saving is retried every
// turn) or, for a game that ended, that its end could not be recorded (the
// save then holds the final state, never the turn before, and the next Open
// records it).
//
// When the store cannot be reached (the error wraps store.ErrUnavailable)
// the turn waits for storage instead: Waiting reports true, the UI must
// not show the turn, and Retry makes it durable once the store is back.
// While a turn waits, Do applies nothing and returns the same kind of
// error.
func (s *Session) Do(c game.Command) (game.Result, error) {
	if s.game == nil {
		return game.Result{}, errors.New("no game in progress")
	}
	if s.waiting {
		return game.Result{}, waitingErr(fmt.Errorf("%w: a turn is still waiting for storage", store.ErrUnavailable))
	}
	clean := !s.behind
	res, err := s.game.Apply(c)
	if err != nil {
		return res, err
	}
	if s.cfg.Played != nil {
		s.cfg.Played(res)
	}
	s.synced = false
	err = s.write(c, res)
	if errors.Is(err, store.ErrUnavailable) {
		s.waiting, s.waitClean = true, clean
	}
	if ms := s.milestones(res); ms != nil {
		s.tell(ms) // held while the turn waits
	}
	if err != nil {
		if s.waiting {
			var se *Error
			if errors.As(err, &se) {
				err = se.Err
			}
			return res, waitingErr(err)
		}
		return res, err
	}
	return res, nil
}

// write makes the turn c just played durable (see Do). For a game that
// ended, an error wraps store.ErrUnavailable when the end could not be
// recorded for that reason, even if the final state was saved: the turn
// then waits until Retry records it (the game-over screen shows the rank).
func (s *Session) write(c game.Command, res game.Result) error {
	switch {
	case res.Died || res.Won:
		if err := s.finish(); err != nil {
			// The end is not on record: keep the game in its final state
			// (never the turn before), so the next Open records it.
			s.unrecorded = true
			if serr := s.record(c); serr != nil {
				if errors.Is(serr, store.ErrUnavailable) {
					return errors.Join(err, serr)
				}
				return &Error{Player: "the server could not record it, nor save it (" + Why(serr) + ")", Err: errors.Join(err, serr)}
			}
			return notRecorded(err)
		}
	case res.Descended: // a new level: a snapshot rather than a journal entry
		return s.Save()
	default:
		return s.record(c)
	}
	return nil
}

// Retry makes the turn that waits for storage durable, once the store is
// back: a full save (which holds every turn and replaces the journal, so a
// journal entry that was committed before the connection broke is not
// replayed twice) or, for a game that ended, its end recorded (a retry of
// a finish that did commit records no second score: store/postgres's
// FinishGame). It returns nil when there is no wait or it has ended.
//
// An error wrapping store.ErrUnavailable means the store is still out of
// reach: the turn still waits (Waiting). Any other error ends the wait:
// the turn is then shown, its error (an *Error) saying it is not durable
// or that the end is not recorded, as Do's would. The milestones of the
// turn (Config.Milestone) are told when the wait ends.
func (s *Session) Retry() error {
	err := s.retry()
	if !s.waiting && s.held != nil {
		for i := range s.held {
			if m := &s.held[i]; m.Rank == 0 && (m.Kind == MilestoneDeath || m.Kind == MilestoneVictory || m.Kind == MilestoneDaily) {
				m.Rank = s.rank // the end is recorded now
			}
		}
		s.tell(nil)
	}
	return err
}

// retry is Retry but for the milestones.
func (s *Session) retry() error {
	if !s.waiting {
		return nil
	}
	var err error
	if s.unrecorded {
		ferr := s.finish()
		if ferr == nil {
			s.unrecorded, s.waiting = false, false
			s.cfg.Pending.take(s.key())
			if s.behind && s.cfg.Trouble != nil {
				s.cfg.Trouble(nil)
			}
			s.behind = false
			return nil
		}
		if err = s.Save(); err == nil {
			return notRecorded(ferr) // the final state is saved: the next Open records it
		}
	} else if err = s.Save(); err == nil {
		return nil
	}
	if errors.Is(err, store.ErrUnavailable) {
		var se *Error
		if errors.As(err, &se) {
			err = se.Err
		}
		return waitingErr(err)
	}
	s.waiting = false
	return err
}

// Save writes the game in progress as a snapshot (which also empties the
// journal), unless the store already holds it or the game is over and on
// record. It is called on S, on a level change, every SnapshotEvery turns,
// after any failed write and, by the server, once the session's program
// has ended for any reason. When it fails the store stays behind the game
// in memory until a later Save succeeds; the *Error says the game is not
// saved. A snapshot that fails while the store already holds the game
// (its last snapshot and every turn since in the journal) loses nothing:
// Save returns nil, Trouble hears ErrSnapshotLate, and the snapshot is
// tried again snapshotRetryEvery journaled turns later.
func (s *Session) Save() error {
	g := s.game
	if g == nil || (g.Over() && !s.unrecorded) || (s.synced && s.journal == 0 && !s.behind && !s.resync) {
		return nil
	}
	whole := s.synced && !s.behind // the store holds the game, whatever this write does
	blob, err := g.Encode()
	if err == nil {
		err = s.cfg.Saves.PutSave(s.key(), blob)
	}
	if err != nil && whole && !errors.Is(err, store.ErrFenced) {
		// Not committed: the old snapshot and the journal still hold the
		// game. Committed with its answer lost: the new snapshot holds it.
		// Either way nothing is lost; in the second the journal's next
		// number is unknown, so the next write is a full save (resync).
		if store.MayHaveCommitted(err) {
			s.resync = true
		}
		s.snapAt = s.journal + snapshotRetryEvery
		if !s.snapLate && s.cfg.Trouble != nil {
			s.cfg.Trouble(fmt.Errorf("%w: %w", ErrSnapshotLate, err))
		}
		s.snapLate = true
		return nil
	}
	if err != nil {
		if !s.behind && s.cfg.Trouble != nil {
			s.cfg.Trouble(err)
		}
		s.synced, s.behind = false, true
		if g.Over() {
			s.cfg.Pending.put(s.key(), g) // only memory holds the end now
		}
		return notSaved(err)
	}
	if g.Over() {
		s.cfg.Pending.take(s.key()) // the store holds the end: Open records it from there
	}
	s.cfg.Unsaved.Clear(s.cfg.Fingerprint)
	if (s.behind || s.snapLate) && s.cfg.Trouble != nil {
		s.cfg.Trouble(nil)
	}
	s.synced, s.behind, s.journal, s.waiting, s.olderSave = true, false, 0, false, false
	s.resync, s.snapLate, s.snapAt = false, false, 0
	return nil
}

// record makes a command that just happened durable: one journal entry, and
// a snapshot every SnapshotEvery entries (one that fails loses nothing: see
// Save). If the journal cannot be written, or an earlier write failed, or a
// snapshot's answer was lost (resync), it makes a full save instead, which
// holds every turn the journal missed; so it does for the first turn of a
// game resumed from a save of older rules (olderSave), which a build of
// those rules would otherwise read with this turn's entry, and play on.
func (s *Session) record(c game.Command) error {
	if s.cfg.NoJournal {
		if s.journal++; s.journal < SnapshotEvery && !s.behind {
			return nil
		}
		return s.Save()
	}
	if !s.behind && !s.olderSave && !s.resync {
		err := s.cfg.Saves.AppendJournal(s.key(), s.journal, game.EncodeCommand(c))
		if err == nil {
			s.journal++
			s.synced = true
			s.cfg.Unsaved.Clear(s.cfg.Fingerprint)
			if s.journal < max(SnapshotEvery, s.snapAt) {
				return nil
			}
			return s.Save() // the turn is durable: a failed snapshot loses nothing
		}
		if errors.Is(err, store.ErrUnavailable) {
			// Out of reach: a save now would wait as long again. The
			// entry may have been committed all the same (its answer
			// lost), so the turn is made durable by a full save only
			// (Retry), which replaces the journal: never appended twice.
			if s.cfg.Trouble != nil {
				s.cfg.Trouble(err)
			}
			s.synced, s.behind = false, true
			return notSaved(err)
		}
	}
	s.synced = false
	return s.Save()
}

// notSaved is what the player reads on every turn that could not be made
// durable: the turn is kept in memory and saving is retried each turn, so
// only the turns shown with this note can be lost, and only to a crash.
func notSaved(err error) *Error {
	if errors.Is(err, store.ErrFenced) { // final: no retry will succeed
		return &Error{Player: "Not saved: " + Why(err) + ". This session ends.", Err: err}
	}
	return &Error{Player: "Not saved: " + Why(err) + ". A crash now would lose this turn; saving is retried every turn.", Err: err}
}

// notRecorded is what the player reads when a game ended but its end could
// not be recorded, while its final state is saved.
func notRecorded(err error) *Error {
	return &Error{Player: "the server could not record it (" + Why(err) + "); it will try again next time", Err: err}
}

// waitingErr is what the player reads while a turn waits for storage.
func waitingErr(err error) *Error {
	return &Error{Player: "Waiting for storage: " + Why(err) + ". Your move will show once it is saved.", Err: err}
}

// Why names the cause of a failed write in a player's words, not the
// host's file paths: "the server's disk is full".
func Why(err error) string {
	switch {
	case errors.Is(err, store.ErrFileGone):
		return "the server's database file is gone"
	case errors.Is(err, store.ErrNoRoom):
		return "the server's disk is full"
	case errors.Is(err, store.ErrFenced):
		return "your game was taken over elsewhere and continues there"
	case errors.Is(err, store.ErrUnavailable):
		return "the server cannot reach its database"
	}
	return "the server could not write its database"
}

// key returns the store key the game in progress is kept under.
func (s *Session) key() string { return store.SlotKey(s.cfg.Fingerprint, s.slot) }

// load returns the player's game saved under key with its journal replayed
// and the number of journal entries: (nil, 0, nil) when there is none, an
// error when there is one that cannot be read.
func (s *Session) load(key string) (*game.Game, uint64, error) {
	blob, err := s.cfg.Saves.Save(key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	g, err := game.Decode(blob, s.cfg.Data)
	if err != nil {
		return nil, 0, err
	}
	entries, err := s.cfg.Saves.Journal(key)
	if err != nil {
		return nil, 0, err
	}
	cmds := make([]game.Command, 0, len(entries))
	for _, e := range entries {
		c, err := game.DecodeCommand(e)
		if err != nil {
			return nil, 0, err
		}
		cmds = append(cmds, c)
	}
	if err := g.Replay(cmds); err != nil {
		return nil, 0, err
	}
	return g, uint64(len(entries)), nil
}

// newerSave is what a player reads of their saved game (what: "saved
// game", "saved daily") when a newer grotto wrote it.
func newerSave(what string) string {
	return "Your " + what + " was last played on a newer version of grotto than this server runs. " +
		"It is kept, and opens on a server running that version: if grotto is being upgraded, reconnect in a moment."
}

// corrupt reports whether a load error means the stored game is damaged
// (rather than the store being briefly unavailable, or the save being of
// another version).
func corrupt(err error) bool {
	return errors.Is(err, game.ErrCorruptSave) || errors.Is(err, store.ErrCorrupt)
}

// finish ends the game for good: it records the score under the stored
// profile's name, keeps the game whole (seed, rules, history since turn
// 0, final hash and dump: store.GameRecord, for replays) and deletes the
// save of its slot (permadeath; the other slot's game stays), in one
// transaction. A game with cheats is kept, marked,
// but never on the table: rank 0.
func (s *Session) finish() error {
	g := s.game
	var name string
	if p, err := s.cfg.Profiles.Profile(s.cfg.Fingerprint); err == nil {
		name = p.Name
	} else if !errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("read profile: %w", err)
	}
	if s.ended.IsZero() {
		s.ended = s.cfg.Now()
	}
	rank, err := s.cfg.Scores.FinishGame(s.key(), store.Score{
		Name: name, Depth: g.Depth(), Turns: g.Turn(), Kills: g.Kills(),
		Points: g.Score(), Cause: g.Cause(), Date: s.ended, Cheated: g.Cheated(),
		Game: s.gameRecord(g, name), Daily: g.Daily(),
	})
	if err != nil {
		return err
	}
	s.rank = rank
	s.cfg.Unsaved.Clear(s.cfg.Fingerprint) // the end is on record, the save deleted
	return nil
}

// gameRecord returns what keeps g, a game that ended, whole: its seed,
// rules, history and final hash for replays, and its dump. A game resumed
// from a save written before histories were kept has no full history: it
// is kept with none, which a replay refuses as damaged (its dump still
// reads).
func (s *Session) gameRecord(g *game.Game, name string) *store.GameRecord {
	r := &store.GameRecord{Won: g.Won(), Seed: g.Seed(), Rules: g.Rules(), Hash: g.StateHash(),
		Dump: replay.Dump(g, s.cfg.Data, name)}
	if hist, full := g.HistoryBlob(); full {
		r.History = hist
	}
	return r
}

// recordEnd records a game that ended while its end could not be recorded
// (the save holds its final state) and returns what to tell the player.
// g was kept in slot.
func (s *Session) recordEnd(g *game.Game, slot string) string {
	if g != s.game {
		s.ended = time.Time{} // another game than the one this session ended
	}
	s.game, s.slot, s.unrecorded = g, slot, true
	if err := s.finish(); err != nil {
		// Kept, unrecorded: Save writes its final state, and until a
		// write succeeds Pending keeps it for the next Open.
		s.cfg.Pending.put(s.key(), g)
		return "Your last game ended, but the server cannot record it yet; it will try again each time you come back while this server runs."
	}
	s.game, s.unrecorded = nil, false
	if s.rank > 0 {
		return fmt.Sprintf("Your last game ended (%s) and is now on the score table at rank #%d.", g.Cause(), s.rank)
	}
	return fmt.Sprintf("Your last game ended (%s).", g.Cause())
}
