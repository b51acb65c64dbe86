package server

import (
	"encoding/binary"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/log/v2"
	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/storetest"
)

// finishDaily plays name's daily of day to its end through a session on
// db, from the store's secret, as the server starts it.
func finishDaily(t *testing.T, db *bolt.Store, name, day string) *game.Game {
	t.Helper()
	fp := "SHA256:" + name
	if err := db.ClaimName(fp, name, time.Now()); err != nil {
		t.Fatal(err)
	}
	secret, err := db.DailySecret()
	if err != nil {
		t.Fatal(err)
	}
	sess := session.New(session.Config{Fingerprint: fp, Saves: db, Scores: db, Profiles: db, Quarantine: db, NoJournal: true})
	if err := sess.StartDaily(game.DailySeed(secret, day), day); err != nil {
		t.Fatal(err)
	}
	diver := bot.Diver("diver", bot.AllItems())
	v := bot.NewView(sess.Game())
	for turn := 0; sess.InProgress(); turn++ {
		if turn > 20000 {
			t.Fatal("no end in 20000 turns")
		}
		if _, err := sess.Do(diver.Decide(v)); err != nil {
			if _, err := sess.Do(game.Wait()); err != nil {
				t.Fatal(err)
			}
		}
		v.Refresh()
	}
	return sess.Game()
}

// clockedServer is a server on db whose clock reads *now.
func clockedServer(db Database, now *atomic.Pointer[time.Time]) *Server {
	s := &Server{log: log.New(io.Discard), store: db, place: placement{live: lobby.NewMemory(nil), nodes: &nodes{}, clock: time.Now}, data: content.Default(),
		cfg: Config{Clock: func() time.Time { return *now.Load() }}}
	s.place.clock = s.clock
	s.replays.games = finished.New(db, s.data, s.log, s.clock)
	s.policy.admins.Store(&keys.AdminSet{})
	return s
}

// TestTodaysDailyReplayOpensAfterMidnight: while its day goes on, a daily
// game's replay and dump are refused to everyone (its player too) with one
// line, over SSH, the web and the title, and `replays` lists it with that
// note; after 00:00 UTC they open.
func TestTodaysDailyReplayOpensAfterMidnight(t *testing.T) {
	const day = "2026-11-30"
	const line = "This is today's daily challenge: its replay opens after 00:00 UTC."
	db := storetest.TempBolt(t)
	finishDaily(t, db, "ann", day)
	var now atomic.Pointer[time.Time]
	noon := time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC)
	now.Store(&noon)
	s := clockedServer(db, &now)
	addr := unit(t, identify, s.commands)

	out, errs, status := run(t, login(t, addr, "ann", newKey(t)), "replays")
	if status != 0 || !strings.Contains(out, "daily "+day) || !strings.Contains(out, "replay opens after 00:00 UTC") {
		t.Errorf("replays during the day: status %d, stdout %q, stderr %q; want the daily listed with its note", status, out, errs)
	}
	out, errs, status = run(t, login(t, addr, "ann", newKey(t)), "dump 1")
	// Over SSH, the line reads as grotto's others do: lower case after
	// "grotto: ", no full stop (tester).
	if want := "grotto: this is today's daily challenge: its replay opens after 00:00 UTC\n"; status != 1 || out != "" || errs != want {
		t.Errorf("dump of today's daily: status %d, stdout %q, stderr %q; want %q", status, out, errs, want)
	}
	if _, err := s.ReplayGame("1"); err == nil {
		t.Error("ReplayGame opened today's daily")
	}
	if _, err := (titleReplays{s}).OpenReplay(1); err == nil || err.Error() != line {
		t.Errorf("the title's pick of today's daily: %v, want %q", err, line)
	}
	if _, err := (webReplays{s}).ReplayGame("1"); err == nil || err.Error() != line {
		t.Errorf("/replay/1 of today's daily: %v, want %q", err, line)
	}
	if _, err := (webReplays{s}).ReplayTitle("1"); err == nil || err.Error() != line {
		t.Errorf("the page /replay/1 of today's daily: %v, want %q", err, line)
	}
	if _, err := (webReplays{s}).ReplayTitle("2"); err == nil || !strings.Contains(err.Error(), `No finished game "2"`) {
		t.Errorf("the page /replay/2 of no game: %v", err)
	}

	after := time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC)
	now.Store(&after)
	if out, errs, status := run(t, login(t, addr, "ann", newKey(t)), "dump 1"); status != 0 || !strings.Contains(out, "Game #1") {
		t.Errorf("dump of yesterday's daily: status %d, %q, %q", status, out, errs)
	}
	if rg, err := s.ReplayGame("1"); err != nil || rg.Replay == nil || rg.Replay.End() != nil {
		t.Errorf("the replay of yesterday's daily: %+v, %v", rg, err)
	}
	if name, err := (webReplays{s}).ReplayTitle("1"); err != nil || name != "ann" {
		t.Errorf("the page /replay/1 of yesterday's daily: %q, %v, want ann", name, err)
	}
	if out, _, _ := run(t, login(t, addr, "ann", newKey(t)), "replays"); strings.Contains(out, "opens after") {
		t.Errorf("replays after the day still holds the daily back:\n%s", out)
	}
}

// TestADamagedSeedOrDailyDateIsSetAsideBeforeAnyFrame: a finished record
// whose seed or daily date was damaged is verified whole before its replay
// is shown: refused with the damaged history's one line (the title's, the
// web's), quarantined, no longer listed; a record of the daily's seed
// before the host's secret (the public formula) still replays.
func TestADamagedSeedOrDailyDateIsSetAsideBeforeAnyFrame(t *testing.T) {
	const day = "2024-05-01"
	db := storetest.TempBolt(t)
	ends := finishGames(t, db, "bob")       // game 1: a game of its own
	daily := finishDaily(t, db, "ann", day) // game 2: a daily
	after := time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC)
	var now atomic.Pointer[time.Time]
	now.Store(&after)
	s := clockedServer(db, &now)
	record := func(g *game.Game, seed uint64, date string) {
		t.Helper()
		hist, ok := g.HistoryBlob()
		if !ok {
			t.Fatal("no history")
		}
		if _, err := db.FinishGame("SHA256:ann", store.Score{Name: "ann", Points: g.Score(), Cause: g.Cause(), Date: time.Now(),
			Daily: date, Game: &store.GameRecord{Seed: seed, Rules: game.Rules(s.data), Hash: g.StateHash(), History: hist,
				Dump: "ann: a game"}}); err != nil {
			t.Fatal(err)
		}
	}
	record(ends[0], ends[0].Seed()+1, "")     // game 3: its seed damaged
	record(daily, daily.Seed()+1, day)        // game 4: the daily's seed damaged
	record(daily, daily.Seed(), "2024-05-02") // game 5: the daily's date damaged
	for _, id := range []uint64{3, 4, 5} {
		_, err := (titleReplays{s}).OpenReplay(id)
		if err == nil || !strings.Contains(err.Error(), "is damaged and cannot be shown; it has been set aside") {
			t.Errorf("the title's pick of damaged game %d: %v; want the damaged game's line", id, err)
		}
	}
	q, err := db.Quarantined("")
	if err != nil {
		t.Fatal(err)
	}
	set := map[uint64]bool{}
	for _, r := range q {
		set[r.FinishedID] = true
	}
	if len(q) != 3 || !set[3] || !set[4] || !set[5] {
		t.Errorf("quarantined: %+v; want games 3, 4 and 5", q)
	}
	for _, id := range []string{"1", "2"} {
		if rg, err := (webReplays{s}).ReplayGame(id); err != nil || rg.Replay == nil {
			t.Errorf("sound game %s: %+v, %v", id, rg, err)
		}
	}
	// A daily of before the secret: its seed is the public formula's.
	old := game.NewDaily(game.PublicDailySeed(day), day, s.data)
	diver, v := bot.Diver("diver", bot.AllItems()), bot.NewView(old)
	for turn := 0; !old.Over(); turn++ {
		if turn > 20000 {
			t.Fatal("no end in 20000 turns")
		}
		if _, err := old.Apply(diver.Decide(v)); err != nil {
			old.Apply(game.Wait())
		}
		v.Refresh()
	}
	record(old, old.Seed(), day) // game 6
	if rg, err := s.ReplayGame("6"); err != nil || rg.Replay == nil {
		t.Errorf("a daily of before the host's secret: %+v, %v; want it replayed", rg, err)
	}
}

// TestAnUnreadableFinishedRecordIsSetAsideAndTheRestListed: one finished
// record that cannot be decoded does not stop `replays` for everyone: it
// is quarantined (the host's `quarantine` lists it) and the rest listed.
func TestAnUnreadableFinishedRecordIsSetAsideAndTheRestListed(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	db, err := bolt.Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	finishGames(t, db, "ann", "bob", "cat")
	db.Close()
	raw, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := raw.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte("finished")).Put(binary.BigEndian.AppendUint64(nil, 2), []byte{1, '{', 'x'})
	}); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if db, err = bolt.Open(path, time.Second); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	admin := newKey(t)
	addr := commandsOn(t, db, admin)
	out, errs, status := run(t, login(t, addr, "x", newKey(t)), "replays")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if status != 0 || len(lines) != 3 || !strings.HasPrefix(lines[1], "3 ") || !strings.HasPrefix(lines[2], "1 ") {
		t.Errorf("replays with game 2 unreadable: status %d, stdout %q, stderr %q; want games 3 and 1", status, out, errs)
	}
	if out, _, _ := run(t, login(t, addr, "x", admin), "quarantine"); !strings.Contains(out, "/finished/2") {
		t.Errorf("the unreadable game is not quarantined:\n%s", out)
	}
}

// TestReplayWithoutATerminalChecksTheIDFirst: `replay ID` without a
// terminal answers an unknown or malformed id with the one-line error (no
// ssh -t hint echoing what was typed), and a kept game's with the hint.
func TestReplayWithoutATerminalChecksTheIDFirst(t *testing.T) {
	db := storetest.TempBolt(t)
	finishGames(t, db, "ann")
	addr := commandsOn(t, db, nil)
	for _, id := range []string{"'$(id)'", "99", "0"} {
		out, errs, status := run(t, login(t, addr, "x", newKey(t)), "replay "+id)
		if status != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "no finished game") ||
			strings.Contains(errs, "ssh -t") {
			t.Errorf("replay %s without a terminal: status %d, stdout %q, stderr %q; want the one-line error, no hint", id, status, out, errs)
		}
	}
	out, errs, status := run(t, login(t, addr, "x", newKey(t)), "replay 1")
	if status != 1 || out != "" || !strings.Contains(errs, "ssh -t") || !strings.Contains(errs, "replay 1\n") {
		t.Errorf("replay 1 without a terminal: status %d, stdout %q, stderr %q; want the hint", status, out, errs)
	}
}
