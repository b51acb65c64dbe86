package server

import (
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/store"
)

// finishDaily plays name's daily of day to its end through a session on
// db, from the store's secret, as the server starts it.
func finishDaily(t *testing.T, db *store.Bolt, name, day string) *game.Game {
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
	s := &Server{log: log.New(io.Discard), store: db, live: lobby.NewMemory(nil), data: content.Default(),
		now: func() time.Time { return *now.Load() }}
	s.admins.Store(&keys.AdminSet{})
	return s
}

// TestTodaysDailyReplayOpensAfterMidnight: while its day goes on, a daily
// game's replay and dump are refused to everyone (its player too) with one
// line, over SSH, the web and the title, and `replays` lists it with that
// note; after 00:00 UTC they open.
func TestTodaysDailyReplayOpensAfterMidnight(t *testing.T) {
	const day = "2026-11-30"
	const line = "This is today's daily challenge: its replay opens after 00:00 UTC."
	db := tempDB(t)
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
	if status != 1 || out != "" || errs != "grotto: "+line+"\n" {
		t.Errorf("dump of today's daily: status %d, stdout %q, stderr %q; want %q", status, out, errs, line)
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

	after := time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC)
	now.Store(&after)
	if out, errs, status := run(t, login(t, addr, "ann", newKey(t)), "dump 1"); status != 0 || !strings.Contains(out, "Game #1") {
		t.Errorf("dump of yesterday's daily: status %d, %q, %q", status, out, errs)
	}
	if rg, err := s.ReplayGame("1"); err != nil || rg.Replay == nil || rg.Replay.End() != nil {
		t.Errorf("the replay of yesterday's daily: %+v, %v", rg, err)
	}
	if out, _, _ := run(t, login(t, addr, "ann", newKey(t)), "replays"); strings.Contains(out, "opens after") {
		t.Errorf("replays after the day still holds the daily back:\n%s", out)
	}
}
