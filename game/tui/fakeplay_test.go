package tui

// The tests' Play: an in-memory stand-in for server/session over a store,
// so that the UI's tests need neither (the session's own durability over
// a real store is tested in server/session). It keeps what the session
// keeps, as the session does: a snapshot (the game's bytes, game.Encode)
// and a journal of the turns since, a snapshot on a new level, on Save and
// every snapshotEvery turns; the finished games' scores under the key's
// claimed name; damaged saves set aside. Its writes can be made to fail as
// on a full disk (SetFull), as with the database out of reach (down: the
// turn then waits for storage until Retry saves it), or to stall
// (onJournal), and what Do, Save and Retry return then are the session's
// words for the player.

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

// snapshotEvery is how many journaled turns make a new snapshot, as
// server/session.SnapshotEvery.
const snapshotEvery = 100

// dailySlot names the slot a daily is kept in beside the key's own game
// (store.DailySlot).
const dailySlot = "daily"

// The causes of a failed write, as the store's: errDiskFull is a full disk
// (storetest.ErrDiskFull), errUnavailable a database out of reach
// (store.ErrUnavailable).
var (
	errDiskFull    = errors.New("no space left on device")
	errUnavailable = errors.New("store unavailable")
)

// fakeStore is what the server keeps for every key, in memory. Its zero
// value is not ready: use newFakeStore.
type fakeStore struct {
	mu          sync.Mutex
	saves       map[string]*fakeSave // by key (slotKey)
	names       map[string]string    // the name each fingerprint claimed
	scores      []fakeScore          // in the order recorded
	quarantined map[string][]string  // by key: why each damaged save was set aside
	full        bool                 // every write fails with errDiskFull
	down        bool                 // every write fails with errUnavailable
	// onJournal, if set, runs before each journal entry is written,
	// outside the lock (a test stalls the write in it); an error it
	// returns is the write's.
	onJournal func() error
}

// fakeSave is one key's saved game: the snapshot and the turns since.
type fakeSave struct {
	blob    []byte
	journal []game.Command
}

// fakeScore is one finished game on record.
type fakeScore struct {
	ScoreRow
	daily   string // the daily's date; "" for the main table
	cheated bool   // kept, never ranked
}

func newFakeStore() *fakeStore {
	return &fakeStore{saves: map[string]*fakeSave{}, names: map[string]string{}, quarantined: map[string][]string{}}
}

// slotKey is the key fp's game in slot is kept under (store.SlotKey).
func slotKey(fp, slot string) string {
	if slot == "" {
		return fp
	}
	return fp + "#" + slot
}

// SetFull makes every write fail as on a full disk, or succeed again.
func (s *fakeStore) SetFull(full bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.full = full
}

// writeErr is the error a write fails with now; nil when it may go on.
// s.mu is held.
func (s *fakeStore) writeErr(op string) error {
	switch {
	case s.down:
		return fmt.Errorf("%s: %w: connection refused", op, errUnavailable)
	case s.full:
		return fmt.Errorf("%s: %w", op, errDiskFull)
	}
	return nil
}

// ClaimName gives fp the name its finished games are recorded under.
func (s *fakeStore) ClaimName(fp, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.names[fp] = name
}

// Save returns the snapshot kept under key (without the journal's turns),
// or an error when there is none.
func (s *fakeStore) Save(key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sv := s.saves[key]
	if sv == nil {
		return nil, fmt.Errorf("no save for %s", key)
	}
	return slices.Clone(sv.blob), nil
}

// PutSave keeps blob as the snapshot of key, its journal emptied.
func (s *fakeStore) PutSave(key string, blob []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.writeErr("put save"); err != nil {
		return err
	}
	s.saves[key] = &fakeSave{blob: slices.Clone(blob)}
	return nil
}

// appendJournal adds c to the journal of key's save and returns how many
// entries it holds.
func (s *fakeStore) appendJournal(key string, c game.Command) (int, error) {
	if s.onJournal != nil {
		if err := s.onJournal(); err != nil {
			return 0, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.writeErr("append journal"); err != nil {
		return 0, err
	}
	sv := s.saves[key]
	if sv == nil {
		return 0, fmt.Errorf("append journal: no save for %s", key)
	}
	sv.journal = append(sv.journal, c)
	return len(sv.journal), nil
}

// journalLen is how many journal entries key's save holds.
func (s *fakeStore) journalLen(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sv := s.saves[key]; sv != nil {
		return len(sv.journal)
	}
	return 0
}

// load returns key's game, its journal replayed; nil when there is none.
func (s *fakeStore) load(key string, data *content.Tables) (*game.Game, error) {
	s.mu.Lock()
	sv := s.saves[key]
	var blob []byte
	var journal []game.Command
	if sv != nil {
		blob, journal = sv.blob, slices.Clone(sv.journal)
	}
	s.mu.Unlock()
	if sv == nil {
		return nil, nil
	}
	g, err := game.Decode(blob, data)
	if err != nil {
		return nil, err
	}
	if err := g.Replay(journal); err != nil {
		return nil, err
	}
	return g, nil
}

// quarantine sets key's damaged save aside.
func (s *fakeStore) quarantine(key, reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quarantined[key] = append(s.quarantined[key], reason)
	delete(s.saves, key)
}

// Quarantined returns why each damaged save of key was set aside.
func (s *fakeStore) Quarantined(key string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.quarantined[key]), nil
}

// finishGame records g, which ended, as fp's under key, deletes key's save
// and returns the score's rank on its board (the main table, or its
// day's); 0 for a game with cheats.
func (s *fakeStore) finishGame(key, fp string, g *game.Game) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.writeErr("finish game"); err != nil {
		return 0, err
	}
	delete(s.saves, key)
	sc := fakeScore{ScoreRow: ScoreRow{Name: s.names[fp], Points: g.Score(), Cause: g.Cause()}, daily: g.Daily(), cheated: g.Cheated()}
	s.scores = append(s.scores, sc)
	if sc.cheated {
		return 0, nil
	}
	rank := 1
	for _, o := range s.scores[:len(s.scores)-1] {
		if !o.cheated && o.daily == sc.daily && o.Points >= sc.Points { // equal points: the earlier first
			rank++
		}
	}
	return rank, nil
}

// TopScores returns up to n scores of the main table, best first: it is
// the players' Board.
func (s *fakeStore) TopScores(n int) ([]ScoreRow, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rows []ScoreRow
	for _, sc := range s.scores {
		if !sc.cheated && sc.daily == "" {
			rows = append(rows, sc.ScoreRow)
		}
	}
	slices.SortStableFunc(rows, func(a, b ScoreRow) int { return b.Points - a.Points })
	return rows[:min(n, len(rows))], nil
}

// Changes implements Board: how many games were recorded.
func (s *fakeStore) Changes() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return uint64(len(s.scores))
}

// fakePlay is one player's games over a fakeStore, as server/session's
// Session plays them.
type fakePlay struct {
	st   *fakeStore
	fp   string
	seed uint64 // of every new game
	data *content.Tables

	game  *game.Game // in progress, or just ended
	saved *game.Game // the key's own game Open found
	daily *game.Game // the daily Open found beside it
	slot  string     // the slot game is kept in
	// synced: the store holds exactly game; behind: a write failed and no
	// save has succeeded since; unrecorded: game ended but its end is not
	// on record; waiting: the last turn waits for storage.
	synced, behind, unrecorded, waiting bool
	rank                                int
}

var _ Play = (*fakePlay)(nil)

func newFakePlay(st *fakeStore, fp string, seed uint64) *fakePlay {
	return &fakePlay{st: st, fp: fp, seed: seed, data: content.Default()}
}

// playerErr is an error in the player's words, with its cause
// (session.Error).
type playerErr struct {
	words string
	err   error
}

func (e *playerErr) Error() string { return e.words }
func (e *playerErr) Unwrap() error { return e.err }

// why names the cause of a failed write as session.Why does.
func why(err error) string {
	if errors.Is(err, errUnavailable) {
		return "the server cannot reach its database"
	}
	return "the server could not write its database"
}

func notSaved(err error) error {
	return &playerErr{"Not saved: " + why(err) + ". A crash now would lose this turn; saving is retried every turn.", err}
}

func notRecorded(err error) error {
	return &playerErr{"the server could not record it (" + why(err) + "); it will try again next time", err}
}

func waitingErr(err error) error {
	return &playerErr{"Waiting for storage: " + why(err) + ". Your move will show once it is saved.", err}
}

func (p *fakePlay) key() string            { return slotKey(p.fp, p.slot) }
func (p *fakePlay) Game() *game.Game       { return p.game }
func (p *fakePlay) InProgress() bool       { return p.game != nil && !p.game.Over() }
func (p *fakePlay) Behind() bool           { return p.behind }
func (p *fakePlay) Waiting() bool          { return p.waiting }
func (p *fakePlay) Rank() int              { return p.rank }
func (p *fakePlay) SavedDaily() *game.Game { return p.daily }

// Open reads the key's own game and the daily beside it, recording a game
// that ended and setting a damaged save aside, with the session's news.
func (p *fakePlay) Open() (*game.Game, string, error) {
	p.saved, p.daily = nil, nil
	if p.unrecorded && p.game != nil {
		return nil, p.recordEnd(p.game, p.slot), nil
	}
	saved, news, err := p.openSlot("")
	if p.unrecorded {
		return nil, news, err
	}
	daily, dnews, derr := p.openSlot(dailySlot)
	p.saved, p.daily = saved, daily
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

func (p *fakePlay) openSlot(slot string) (*game.Game, string, error) {
	key := slotKey(p.fp, slot)
	what := "saved game"
	if slot == dailySlot {
		what = "saved daily"
	}
	g, err := p.st.load(key, p.data)
	switch {
	case errors.Is(err, game.ErrSaveVersion):
		return nil, "", &playerErr{"Your " + what + " was last played on a newer version of grotto than this server runs. It is kept, and opens on a server running that version: if grotto is being upgraded, reconnect in a moment.", err}
	case errors.Is(err, game.ErrCorruptSave):
		p.st.quarantine(key, err.Error())
		return nil, "Your " + what + " was damaged and could not be read. It is set aside for the host to look at; start a new game.", nil
	case err != nil:
		return nil, "", &playerErr{"Your " + what + " cannot be read right now; it is kept on the server.", err}
	case g != nil && g.Over():
		return nil, p.recordEnd(g, slot), nil
	}
	return g, "", nil
}

// recordEnd records g, kept in slot, which ended while its end could not
// be recorded, and says so.
func (p *fakePlay) recordEnd(g *game.Game, slot string) string {
	p.game, p.slot, p.unrecorded = g, slot, true
	if err := p.finish(); err != nil {
		return "Your last game ended, but the server cannot record it yet; it will try again each time you come back while this server runs."
	}
	p.game, p.unrecorded = nil, false
	if p.rank > 0 {
		return fmt.Sprintf("Your last game ended (%s) and is now on the score table at rank #%d.", g.Cause(), p.rank)
	}
	return fmt.Sprintf("Your last game ended (%s).", g.Cause())
}

func (p *fakePlay) Continue() error {
	if p.saved == nil {
		return errors.New("no saved game to continue")
	}
	p.game, p.saved, p.daily, p.slot = p.saved, nil, nil, ""
	p.resumed()
	return nil
}

func (p *fakePlay) ContinueDaily() error {
	if p.daily == nil {
		return errors.New("no saved daily to continue")
	}
	p.game, p.saved, p.daily, p.slot = p.daily, nil, nil, dailySlot
	p.resumed()
	return nil
}

func (p *fakePlay) resumed() {
	p.synced, p.behind, p.unrecorded, p.waiting, p.rank = true, false, false, false, 0
}

func (p *fakePlay) Start() error { return p.start(game.New(p.seed, p.data), "") }

// StartDaily begins the daily of date from seed, saved in the daily's
// slot (session.StartDaily).
func (p *fakePlay) StartDaily(seed uint64, date string) error {
	return p.start(game.NewDaily(seed, date, p.data), dailySlot)
}

func (p *fakePlay) start(g *game.Game, slot string) error {
	p.game, p.saved, p.daily, p.slot = g, nil, nil, slot
	p.synced, p.behind, p.unrecorded, p.waiting, p.rank = false, false, false, false, 0
	return p.Save()
}

func (p *fakePlay) Leave() {
	if p.game != nil && p.game.Over() && !p.unrecorded {
		p.game = nil
	}
}

func (p *fakePlay) Do(c game.Command) (game.Result, error) {
	if p.game == nil {
		return game.Result{}, errors.New("no game in progress")
	}
	if p.waiting {
		return game.Result{}, waitingErr(fmt.Errorf("%w: a turn is still waiting for storage", errUnavailable))
	}
	res, err := p.game.Apply(c)
	if err != nil {
		return res, err
	}
	p.synced = false
	if err := p.write(c, res); err != nil {
		if errors.Is(err, errUnavailable) {
			p.waiting = true
			return res, waitingErr(err)
		}
		return res, err
	}
	return res, nil
}

// write makes the turn c just played durable, as the session's write.
func (p *fakePlay) write(c game.Command, res game.Result) error {
	switch {
	case res.Died || res.Won:
		if err := p.finish(); err != nil {
			p.unrecorded = true // the save keeps the final state
			if serr := p.record(c); serr != nil {
				if errors.Is(serr, errUnavailable) {
					return errors.Join(err, serr)
				}
				return &playerErr{"the server could not record it, nor save it (" + why(serr) + ")", errors.Join(err, serr)}
			}
			return notRecorded(err)
		}
	case res.Descended:
		return p.Save()
	default:
		return p.record(c)
	}
	return nil
}

// record journals c, or saves the game when a write failed before or the
// journal is full.
func (p *fakePlay) record(c game.Command) error {
	if !p.behind {
		n, err := p.st.appendJournal(p.key(), c)
		if err == nil {
			p.synced = true
			if n < snapshotEvery {
				return nil
			}
		} else if errors.Is(err, errUnavailable) {
			p.synced, p.behind = false, true
			return notSaved(err)
		}
	}
	p.synced = false
	return p.Save()
}

func (p *fakePlay) finish() error {
	rank, err := p.st.finishGame(p.key(), p.fp, p.game)
	if err != nil {
		return err
	}
	p.rank = rank
	return nil
}

func (p *fakePlay) Retry() error {
	if !p.waiting {
		return nil
	}
	var err error
	if p.unrecorded {
		ferr := p.finish()
		if ferr == nil {
			p.unrecorded, p.waiting, p.behind = false, false, false
			return nil
		}
		if err = p.Save(); err == nil {
			return notRecorded(ferr)
		}
	} else if err = p.Save(); err == nil {
		return nil
	}
	if errors.Is(err, errUnavailable) {
		return waitingErr(err)
	}
	p.waiting = false
	return err
}

func (p *fakePlay) Save() error {
	g := p.game
	if g == nil || (g.Over() && !p.unrecorded) || (p.synced && !p.behind && p.st.journalLen(p.key()) == 0) {
		return nil
	}
	blob, err := g.Encode()
	if err == nil {
		err = p.st.PutSave(p.key(), blob)
	}
	if err != nil {
		p.synced, p.behind = false, true
		return notSaved(err)
	}
	p.synced, p.behind, p.waiting = true, false, false
	return nil
}
