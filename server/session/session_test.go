package session

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/storetest"
)

const fp = "SHA256:test"

var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// open returns the session of fp over st whose new games have seed, as the
// server wires it.
func open(st store.Store, seed uint64) *Session {
	return New(Config{Fingerprint: fp, Saves: st, Scores: st, Profiles: st, Quarantine: st,
		NewSeed: func() uint64 { return seed }, Now: func() time.Time { return now }})
}

var errDiskFull = storetest.ErrDiskFull

// dive returns the command that walks the player one step down the
// shortest path to the stairs (attacking whatever stands in the way), or
// Descend on them: a player who dives until something kills them.
func dive(g *game.Game) game.Command {
	w, h := g.Size()
	lvl := world.NewMap(w, h)
	var stairs world.Pos
	for y := range h {
		for x := range w {
			p := world.Pos{X: x, Y: y}
			lvl.Set(p, g.Tile(p))
			if g.Tile(p) == world.DownStairs {
				stairs = p
			}
		}
	}
	me := g.Player().Pos
	if me == stairs {
		return game.Descend()
	}
	d := world.NewDistanceMap(w, h)
	d.Compute(lvl, stairs, world.Unreached)
	for _, dir := range world.Directions8 {
		if d.At(me.Add(dir.X, dir.Y)) < d.At(me) {
			return game.Move(dir.X, dir.Y)
		}
	}
	return game.Wait()
}

// resume opens what the store holds after a crash (the session dropped
// with no Save) and continues it, as the next login would; nil when there
// is nothing to continue.
func resume(t *testing.T, st store.Store) *game.Game {
	t.Helper()
	s := open(st, 99)
	g, _, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	if g == nil {
		return nil
	}
	if err := s.Continue(); err != nil {
		t.Fatal(err)
	}
	return s.Game()
}

// clone returns a copy of g, to try a command on.
func clone(t *testing.T, g *game.Game) *game.Game {
	t.Helper()
	c, err := game.Decode(encode(t, g), content.Default())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func encode(t *testing.T, g *game.Game) []byte {
	t.Helper()
	b, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEveryTurnShownSurvivesACrash: each Do is durable when it returns, so
// a crash after any turn resumes at exactly that turn.
func TestEveryTurnShownSurvivesACrash(t *testing.T) {
	st := storetest.TempBolt(t)
	s := open(st, 7)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for range 30 {
		if _, err := s.Do(dive(s.Game())); err != nil {
			t.Fatal(err)
		}
	}
	g := resume(t, st)
	if g == nil || !bytes.Equal(encode(t, g), encode(t, s.Game())) {
		t.Fatalf("the resumed game differs from the one played (turn %d)", s.Game().Turn())
	}
}

// TestAFailedWriteNeverLosesTheGame plays toward the stairs, makes every
// write fail for some turns (each says the turn is not saved), lets writes
// succeed again for two more turns, then crashes: the resumed game must be
// exactly the one played.
func TestAFailedWriteNeverLosesTheGame(t *testing.T) {
	for _, tc := range []struct {
		name      string
		failFrom  int // the turns (from the new game) whose writes fail
		failTo    int
		oldSave   bool // the player had another game saved before this one
		atDescent bool // instead, the save of the first new level fails
	}{
		{name: "one journal entry fails mid-level", failFrom: 5, failTo: 6},
		{name: "several turns fail mid-level", failFrom: 5, failTo: 12},
		{name: "the save of a new level fails", failFrom: 1 << 30, atDescent: true},
		{name: "the disk is full when a new game starts", failFrom: -1, failTo: 3},
		{name: "the disk is full when a new game starts over an old save", failFrom: -1, failTo: 3, oldSave: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := storetest.NewFlaky(storetest.TempBolt(t))
			if tc.oldSave {
				old := open(fs, 3)
				old.Start()
				for range 7 {
					old.Do(dive(old.Game()))
				}
				if err := old.Save(); err != nil {
					t.Fatal(err)
				}
			}
			s := open(fs, 7)
			fs.SetFull(tc.failFrom < 0)
			err := s.Start()
			if fs.Full() && err == nil {
				t.Fatal("a new game that could not be saved said nothing")
			}
			descents := 0
			for i := 0; i < 400 && s.InProgress(); i++ {
				c := dive(s.Game())
				if tc.atDescent && c == game.Descend() && descents == 0 {
					fs.SetFull(true) // the descent's save fails
				}
				if i == tc.failFrom {
					fs.SetFull(true)
				}
				if i == tc.failTo && tc.failTo > 0 {
					fs.SetFull(false)
				}
				res, err := s.Do(c)
				if res.Descended {
					descents++
				}
				if fs.Full() {
					var se *Error
					if !errors.As(err, &se) || !strings.Contains(se.Player, "Not saved") || !errors.Is(err, errDiskFull) {
						t.Fatalf("turn %d was not saved and Do said %v", s.Game().Turn(), err)
					}
					if !s.Behind() {
						t.Fatalf("turn %d was not saved and Behind is false", s.Game().Turn())
					}
				}
				if tc.atDescent && descents == 1 && fs.Full() {
					fs.SetFull(false) // the next two turns write again
					s.Do(dive(s.Game()))
					s.Do(dive(s.Game()))
					break
				}
				if i == tc.failTo+2 && tc.failTo > 0 {
					break
				}
			}
			if !s.InProgress() {
				t.Fatal("the game ended before the crash; choose another seed")
			}
			g := resume(t, fs)
			if g == nil {
				t.Fatalf("after the crash there is no game to continue (the player saw turn %d, depth %d)", s.Game().Turn(), s.Game().Depth())
			}
			if !bytes.Equal(encode(t, s.Game()), encode(t, g)) {
				t.Errorf("the resumed game (turn %d, depth %d) differs from the one played (turn %d, depth %d)",
					g.Turn(), g.Depth(), s.Game().Turn(), s.Game().Depth())
			}
		})
	}
}

// TestACrashWhileWritesFailLosesOnlyTheWarnedTurns: with every write
// failing, a crash loses the turns since the last good write, each of which
// returned an error, and resumes at the last turn that was saved.
func TestACrashWhileWritesFailLosesOnlyTheWarnedTurns(t *testing.T) {
	fs := storetest.NewFlaky(storetest.TempBolt(t))
	s := open(fs, 7)
	s.Start()
	for range 6 {
		s.Do(dive(s.Game()))
	}
	saved := encode(t, s.Game())
	fs.SetFull(true)
	for range 4 {
		if _, err := s.Do(dive(s.Game())); err == nil {
			t.Fatal("a turn that was not saved returned no error")
		}
	}
	fs.SetFull(false)
	g := resume(t, fs)
	if g == nil || !bytes.Equal(saved, encode(t, g)) {
		t.Errorf("resumed at %v, want the last saved turn", g)
	}
}

// TestTheHostHearsOfTroubleOnceWhenItStartsAndOnceWhenItEnds.
func TestTheHostHearsOfTroubleOnceWhenItStartsAndOnceWhenItEnds(t *testing.T) {
	fs := storetest.NewFlaky(storetest.TempBolt(t))
	var heard []error
	s := New(Config{Fingerprint: fp, Saves: fs, Scores: fs, Profiles: fs, Quarantine: fs,
		NewSeed: func() uint64 { return 7 }, Trouble: func(err error) { heard = append(heard, err) }})
	s.Start()
	s.Do(dive(s.Game()))
	fs.SetFull(true)
	s.Do(dive(s.Game()))
	s.Do(dive(s.Game()))
	fs.SetFull(false)
	s.Do(dive(s.Game()))
	if s.Behind() {
		t.Error("a save succeeded and Behind is still true")
	}
	if len(heard) != 2 || !errors.Is(heard[0], errDiskFull) || heard[1] != nil {
		t.Errorf("the host heard %v, want the first failure then nil", heard)
	}
}

// playToTheEnd dives until the game ends.
func playToTheEnd(t *testing.T, s *Session) (game.Result, error) {
	t.Helper()
	for range 20000 {
		res, err := s.Do(dive(s.Game()))
		if res.Died || res.Won {
			return res, err
		}
	}
	t.Fatal("no end in 20000 turns of diving")
	return game.Result{}, nil
}

// TestTheEndOfAGameIsRecordedUnderTheClaimedName: the score and the
// deleted save are one step, and the score carries the stored profile's
// name.
func TestTheEndOfAGameIsRecordedUnderTheClaimedName(t *testing.T) {
	st := storetest.TempBolt(t)
	if err := st.ClaimName(fp, "tester", now); err != nil {
		t.Fatal(err)
	}
	s := open(st, 3)
	s.Start()
	if _, err := playToTheEnd(t, s); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(fp); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the save outlived the player (permadeath): %v", err)
	}
	scores, _ := st.TopScores(10)
	if len(scores) != 1 || scores[0].Name != "tester" || scores[0].Points != s.Game().Score() || s.Rank() != 1 {
		t.Errorf("scores = %+v, rank %d", scores, s.Rank())
	}
	if s.InProgress() {
		t.Error("the ended game is still in progress")
	}
	if err := s.Save(); err != nil {
		t.Errorf("saving after the end: %v", err)
	}
	if _, err := st.Save(fp); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a Save after the end brought the save back: %v", err)
	}
}

// finishFails is a store whose FinishGame fails, as when the database
// refuses the write that records a death; with journal set, journal
// appends fail too.
type finishFails struct {
	store.Store
	fail, journal bool
}

func (f *finishFails) FinishGame(fp string, s store.Score) (int, error) {
	if f.fail {
		return 0, errDiskFull
	}
	return f.Store.FinishGame(fp, s)
}

func (f *finishFails) AppendJournal(fp string, seq uint64, entry []byte) error {
	if f.journal {
		return errDiskFull
	}
	return f.Store.AppendJournal(fp, seq, entry)
}

// TestADeathThatCannotBeRecordedIsNeverUndone: if recording the end fails,
// the store must still end in the dead state, so Continue can never resume
// the turn before the death; the next Open records it. Either
// the journal holds the last turn (the server then crashes), or, when the
// journal fails too, the save the server makes as the session ends holds
// the final state.
func TestADeathThatCannotBeRecordedIsNeverUndone(t *testing.T) {
	for _, tc := range []struct {
		name         string
		journalFails bool
		saveAtTheEnd bool
	}{
		{name: "then the server crashes", saveAtTheEnd: false},
		{name: "the journal fails too, then the session ends", journalFails: true, saveAtTheEnd: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := &finishFails{Store: storetest.TempBolt(t)}
			s := open(fs, 3)
			s.Start()
			for range 20000 {
				c := dive(s.Game())
				if r, _ := clone(t, s.Game()).Apply(c); r.Died || r.Won {
					fs.fail, fs.journal = true, tc.journalFails // the last turn's writes
				}
				res, err := s.Do(c)
				if res.Died || res.Won {
					var se *Error
					if !errors.As(err, &se) || !strings.Contains(se.Player, "could not record") {
						t.Errorf("an end that was not recorded returned %v", err)
					}
					break
				}
			}
			if s.InProgress() {
				t.Fatal("no end in 20000 turns of diving")
			}
			turn := s.Game().Turn()
			if tc.saveAtTheEnd {
				if err := s.Save(); err != nil {
					t.Fatal(err)
				}
			}
			fs.journal = false
			next := open(fs, 99)
			if g, news, _ := next.Open(); g != nil || !strings.Contains(news, "cannot record") {
				t.Fatalf("the next login found game %v, news %q, for a game that ended on turn %d", g, news, turn)
			}
			fs.fail = false
			g, news, err := open(fs, 99).Open()
			scores, _ := fs.TopScores(10)
			if g != nil || err != nil || len(scores) != 1 || scores[0].Turns != turn || !strings.Contains(news, "Your last game ended") {
				t.Errorf("the end was not recorded on the next visit: game %v, news %q, err %v, scores %+v", g, news, err, scores)
			}
		})
	}
}

// TestADamagedSaveIsQuarantinedAndThePlayerTold.
func TestADamagedSaveIsQuarantinedAndThePlayerTold(t *testing.T) {
	st := storetest.TempBolt(t)
	st.PutSave(fp, []byte("GRTO\x00\x01garbage garbage"))
	s := open(st, 7)
	g, news, err := s.Open()
	if g != nil || err != nil || !strings.Contains(news, "damaged") {
		t.Fatalf("Open of a damaged save: game %v, news %q, err %v", g, news, err)
	}
	if q, _ := st.Quarantined(fp); len(q) != 1 {
		t.Errorf("quarantine holds %v", q)
	}
	if err := s.Continue(); err == nil {
		t.Error("Continue of a quarantined save succeeded")
	}
}

// TestAnImpossibleCommandCostsNothing: no turn, no write, the core's
// error.
func TestAnImpossibleCommandCostsNothing(t *testing.T) {
	st := storetest.TempBolt(t)
	s := open(st, 7)
	s.Start()
	_, err := s.Do(game.Descend()) // not on the stairs
	var imp *game.Impossible
	if !errors.As(err, &imp) || s.Game().Turn() != 0 {
		t.Fatalf("Descend off the stairs: %v, turn %d", err, s.Game().Turn())
	}
	if j, _ := st.Journal(fp); len(j) != 0 {
		t.Errorf("an impossible command was journaled: %d entries", len(j))
	}
}

// TestASnapshotEverySnapshotEveryTurns: resuming never replays more than
// SnapshotEvery journal entries.
func TestASnapshotEverySnapshotEveryTurns(t *testing.T) {
	st := storetest.TempBolt(t)
	s := open(st, 7)
	s.Start()
	for range SnapshotEvery + 5 {
		if !s.InProgress() {
			t.Fatal("the game ended; choose another seed")
		}
		s.Do(game.Wait())
	}
	if j, _ := st.Journal(fp); len(j) >= SnapshotEvery {
		t.Errorf("the journal holds %d entries after %d turns", len(j), SnapshotEvery+5)
	}
}

// TestADeathThatCannotBeRecordedNorSavedIsNeverUndoneWhileTheServerRuns:
// when the store refuses every write from the last turn on, the final state
// exists only in memory. The session ends; the next login of the key on the
// same server must not be offered the turn before the death, and once the
// store takes writes again the death is recorded (a hostile tester found
// Continue offered the game alive, one turn before it died).
func TestADeathThatCannotBeRecordedNorSavedIsNeverUndoneWhileTheServerRuns(t *testing.T) {
	flaky := storetest.NewFlaky(storetest.TempBolt(t))
	fs := &finishFails{Store: flaky}
	pending := NewPendingEnds()
	login := func(seed uint64) *Session {
		return New(Config{Fingerprint: fp, Saves: fs, Scores: fs, Profiles: fs, Quarantine: fs,
			NewSeed: func() uint64 { return seed }, Now: func() time.Time { return now }, Pending: pending})
	}
	s := login(3)
	s.Start()
	for range 20000 {
		c := dive(s.Game())
		if r, _ := clone(t, s.Game()).Apply(c); r.Died || r.Won {
			fs.fail, fs.journal = true, true
			flaky.SetFull(true) // the last turn's writes all fail
		}
		if res, _ := s.Do(c); res.Died || res.Won {
			break
		}
	}
	if s.InProgress() {
		t.Fatal("no end in 20000 turns of diving")
	}
	turn := s.Game().Turn()
	if err := s.Save(); err == nil {
		t.Fatal("the session's last save succeeded on a full disk")
	}

	if g, news, _ := login(99).Open(); g != nil || !strings.Contains(news, "cannot record") {
		t.Fatalf("the next login, writes still failing, found a game: %v (news %q) for a game that ended on turn %d", g != nil, news, turn)
	}
	fs.fail, fs.journal = false, false
	flaky.SetFull(false)
	g, news, err := login(99).Open()
	scores, _ := fs.TopScores(10)
	if g != nil || err != nil || len(scores) != 1 || scores[0].Turns != turn || !strings.Contains(news, "Your last game ended") {
		t.Errorf("once writes work the end was not recorded: a game %v, news %q, err %v, scores %+v", g != nil, news, err, scores)
	}
	if g, _, _ := login(99).Open(); g != nil {
		t.Errorf("after the end was recorded a login found a game at turn %d", g.Turn())
	}
}

// TestASaveOfAnotherVersionIsKeptNotQuarantined: a save written by a newer
// grotto (read after a downgrade) is not damaged: it stays where it is and
// the player is told why it cannot be continued.
func TestASaveOfAnotherVersionIsKeptNotQuarantined(t *testing.T) {
	st := storetest.TempBolt(t)
	blob := encode(t, game.New(1, content.Default()))
	blob[5] = 0x7f // the format version byte
	st.PutSave(fp, blob)
	s := New(Config{Fingerprint: fp, Saves: st, Scores: st, Profiles: st, Quarantine: st})
	g, _, err := s.Open()
	var se *Error
	if g != nil || !errors.As(err, &se) || !strings.Contains(se.Player, "newer version of grotto") {
		t.Fatalf("Open of a newer save: game %v, err %v", g != nil, err)
	}
	if q, _ := st.Quarantined(fp); len(q) != 0 {
		t.Errorf("a newer save was quarantined: %v", q)
	}
	if kept, err := st.Save(fp); err != nil || !bytes.Equal(kept, blob) {
		t.Errorf("the newer save was not kept as it was: %v", err)
	}
}

// TestAFencedWriteIsFinalNotAWaitForStorage: once the game's lease moved
// to another node every write is refused (store.ErrFenced); the player
// reads that the game continues elsewhere and that the session ends, never
// "Waiting for storage", and no retry is promised.
func TestAFencedWriteIsFinalNotAWaitForStorage(t *testing.T) {
	st := storetest.TempBolt(t)
	epoch, err := st.Claim(t.Context(), fp, "node-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Fingerprint: fp, Saves: st.Fenced(fp, epoch), Scores: st.Fenced(fp, epoch), Profiles: st, Quarantine: st,
		NewSeed: func() uint64 { return 7 }, Now: func() time.Time { return now }})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	st.Release(t.Context(), fp, "node-a", epoch)
	if _, err := st.Claim(t.Context(), fp, "node-b", time.Minute); err != nil {
		t.Fatal(err)
	}
	_, err = s.Do(game.Wait())
	if !errors.Is(err, store.ErrFenced) || s.Waiting() {
		t.Fatalf("a fenced turn: %v (waiting %v); want ErrFenced and no wait", err, s.Waiting())
	}
	if msg := err.Error(); !strings.Contains(msg, "taken over elsewhere") || !strings.Contains(msg, "This session ends") ||
		strings.Contains(msg, "Waiting") || strings.Contains(msg, "retried") {
		t.Errorf("the player reads %q", msg)
	}
}

// TestAGameOfOlderRulesIsSavedWholeAtItsFirstTurnHere: a game this build
// resumes from a save of older rules plays on under these; its first turn
// here is a snapshot, which says so, never a journal entry after the
// older save, which a build of the older rules (a node not yet upgraded,
// or after a rollback) would replay under its own rules and play on.
func TestAGameOfOlderRulesIsSavedWholeAtItsFirstTurnHere(t *testing.T) {
	st := storetest.TempBolt(t)
	blob := encode(t, game.New(1, content.Default()))
	was := fmt.Sprintf(`"Rules":%d,`, game.RulesVersion)
	if !bytes.Contains(blob, []byte(was)) {
		t.Fatalf("the save does not hold %s", was)
	}
	body := bytes.Replace(blob[10:], []byte(was), []byte(fmt.Sprintf(`"Rules":%d,`, game.RulesVersion-1)), 1)
	older := append(binary.BigEndian.AppendUint32(bytes.Clone(blob[:6]), crc32.ChecksumIEEE(body)), body...)
	st.PutSave(fp, older)
	s := open(st, 1)
	if g, _, err := s.Open(); g == nil || err != nil {
		t.Fatalf("a save of the rules before: game %v, err %v", g != nil, err)
	}
	if err := s.Continue(); err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= 2; turn++ {
		if _, err := s.Do(game.Wait()); err != nil {
			t.Fatal(err)
		}
		journal, _ := st.Journal(fp)
		saved, _ := st.Save(fp)
		if want := turn - 1; len(journal) != want || !bytes.Contains(saved, []byte(`"Played":`)) {
			t.Errorf("after turn %d here: %d journal entries (want %d), the save says it was played under these rules: %v",
				turn, len(journal), want, bytes.Contains(saved, []byte(`"Played":`)))
		}
	}
}
