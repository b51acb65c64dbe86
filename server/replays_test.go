package server

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/server/finished"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/storetest"
)

// finishGames plays a game to its end for each of names (through a
// session on db, as the server does: the game is recorded whole), the
// game of a name starting with '!' with a cheat first. It returns the
// games at their end.
func finishGames(t *testing.T, db *bolt.Store, names ...string) []*game.Game {
	t.Helper()
	var ends []*game.Game
	for i, name := range names {
		cheat := strings.HasPrefix(name, "!")
		name = strings.TrimPrefix(name, "!")
		fp := "SHA256:" + name
		if err := db.ClaimName(fp, name, time.Now()); err != nil {
			t.Fatal(err)
		}
		s := session.New(session.Config{Fingerprint: fp, Saves: db, Scores: db, Profiles: db, Quarantine: db,
			NewSeed: func() uint64 { return uint64(10 + i) }, NoJournal: true}) // snapshots only: quick, and the end is recorded all the same
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		if cheat {
			if _, err := s.Do(game.Command{Action: game.ActCheat, Cheat: game.CheatReveal}); err != nil {
				t.Fatal(err)
			}
		}
		diver := bot.Diver("diver", bot.AllItems())
		v := bot.NewView(s.Game())
		for turn := 0; s.InProgress(); turn++ {
			if turn > 20000 {
				t.Fatal("no end in 20000 turns")
			}
			if _, err := s.Do(diver.Decide(v)); err != nil {
				if _, err := s.Do(game.Wait()); err != nil {
					t.Fatal(err)
				}
			}
			v.Refresh()
		}
		ends = append(ends, s.Game())
	}
	return ends
}

// TestReplaysListsFinishedGamesAndDumpTellsOne: over SSH, `replays` lists
// every finished game newest first with its id and a cheated mark,
// `replays NAME` one player's, and `dump ID` the game's account; an
// unknown id is one line and status 1.
func TestReplaysListsFinishedGamesAndDumpTellsOne(t *testing.T) {
	db := storetest.TempBolt(t)
	addr := commandsOn(t, db, nil)
	ends := finishGames(t, db, "ann", "!bob", "ann")
	key := newKey(t)

	out, errs, status := run(t, login(t, addr, "x", key), "replays")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if status != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "ID ") {
		t.Fatalf("replays: status %d, stdout %q, stderr %q; want a heading and 3 games", status, out, errs)
	}
	for i, want := range []struct {
		id, name string
		g        *game.Game
		cheated  bool
	}{{"3", "ann", ends[2], false}, {"2", "bob", ends[1], true}, {"1", "ann", ends[0], false}} {
		f := strings.Fields(lines[i+1])
		if f[0] != want.id || f[1] != want.name || f[2] != fmt.Sprint(want.g.Score()) ||
			!strings.Contains(lines[i+1], game.ThirdPerson(want.g.Cause())) || strings.HasSuffix(lines[i+1], "cheated") != want.cheated { // "it hit them": another's death in the third person
			t.Errorf("replays line %d: %q, want game %s of %s, %d points, %q, cheated %v", i+1, lines[i+1], want.id, want.name,
				want.g.Score(), game.ThirdPerson(want.g.Cause()), want.cheated)
		}
	}
	if !strings.Contains(lines[0], "DEPTH") || !strings.Contains(lines[0], "TURNS") || !strings.Contains(lines[0], "DATE") {
		t.Errorf("the heading %q lacks depth, turns or date", lines[0])
	}

	out, _, status = run(t, login(t, addr, "x", key), "replays ANN")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); status != 0 || len(lines) != 3 || strings.Contains(out, "bob") {
		t.Errorf("replays ANN: status %d, %q; want ann's 2 games", status, out)
	}
	out, _, status = run(t, login(t, addr, "x", key), "replays nobody")
	if status != 0 || !strings.Contains(out, "No finished games of nobody.") {
		t.Errorf("replays nobody: status %d, %q", status, out)
	}

	out, errs, status = run(t, login(t, addr, "x", key), "dump 1")
	g := ends[0]
	p := g.Player()
	for _, want := range []string{"Game #1, ended ", "ann: " + fmt.Sprint(g.Score()) + " points, " + g.Cause(),
		fmt.Sprintf("%d turns", g.Turn()), fmt.Sprintf("Character level %d", g.Growth().Level), fmt.Sprintf("/%d, power", p.MaxHP),
		"Equipment:", "Pack:", "Kills by monster:", "Last messages:", g.Message(g.LogLen() - 1).Text,
		"The last level as the player knew it:", "@"} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("dump 1 (status %d, stderr %q) lacks %q:\n%s", status, errs, want, out)
		}
	}
	for _, k := range g.KillsByMonster() {
		if !strings.Contains(out, fmt.Sprintf("%4d %s", k.Count, k.Name)) {
			t.Errorf("dump 1 does not count %d %s", k.Count, k.Name)
		}
	}
	if out, _, _ := run(t, login(t, addr, "x", key), "dump 2"); !strings.Contains(out, "cheated") {
		t.Errorf("the cheated game's dump does not say so:\n%s", out)
	}

	for _, id := range []string{"99", "x1", "0"} {
		out, errs, status := run(t, login(t, addr, "x", key), "dump "+id)
		if status != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "no finished game") {
			t.Errorf("dump %s: status %d, stdout %q, stderr %q; want one line and status 1", id, status, out, errs)
		}
	}
}

// TestADamagedHistoryIsSetAsideNeverShown: a game whose kept history was
// damaged or truncated is refused by `dump` with one line, quarantined
// (the host's `quarantine` lists it) and no longer listed.
func TestADamagedHistoryIsSetAsideNeverShown(t *testing.T) {
	db := storetest.TempBolt(t)
	admin := newKey(t)
	addr := commandsOn(t, db, admin)
	g := finishGames(t, db, "ann")[0]
	hist, _ := g.HistoryBlob()
	flipped := append([]byte(nil), hist...)
	flipped[len(flipped)/2] ^= 0x04
	for i, h := range [][]byte{flipped, hist[:len(hist)/2]} {
		if _, err := db.FinishGame("SHA256:ann", store.Score{Name: "ann", Points: g.Score(), Cause: g.Cause(),
			Date: time.Now().Add(time.Duration(i) * time.Second),
			Game: &store.GameRecord{Seed: g.Seed(), Rules: "x", Hash: g.StateHash(), History: h, Dump: "ann: a different game"}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"2", "3"} {
		out, errs, status := run(t, login(t, addr, "x", newKey(t)), "dump "+id)
		if status != 1 || out != "" || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "damaged") ||
			!strings.Contains(errs, "set aside") {
			t.Errorf("dump %s of a damaged game: status %d, stdout %q, stderr %q; want one line saying it is damaged and set aside",
				id, status, out, errs)
		}
	}
	out, _, _ := run(t, login(t, addr, "x", newKey(t)), "replays")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "1 ") {
		t.Errorf("replays after the damage: %q, want only game 1", out)
	}
	out, _, _ = run(t, login(t, addr, "x", admin), "quarantine")
	if !strings.Contains(out, "/finished/2") || !strings.Contains(out, "/finished/3") || !strings.Contains(out, "history is damaged") {
		t.Errorf("the quarantine does not list the damaged games:\n%s", out)
	}
	if out, _, status := run(t, login(t, addr, "x", newKey(t)), "dump 1"); status != 0 || !strings.Contains(out, "Game #1") {
		t.Errorf("the sound game: status %d, %q", status, out)
	}
}

// TestOpenReplayStepsAKeptGameOrSaysWhyNot: the replay player's entry
// point gives a kept game at turn 0 that replays to its recorded end; a
// game of other rules comes back with its dump and ErrOtherRules, not
// played.
func TestOpenReplayStepsAKeptGameOrSaysWhyNot(t *testing.T) {
	db := storetest.TempBolt(t)
	s := &Server{log: log.New(io.Discard), store: db, data: content.Default()}
	s.replays.games = finished.New(db, s.data, s.log, s.clock)
	end := finishGames(t, db, "ann")[0]
	f, r, err := s.OpenReplay("1")
	if err != nil || r.Pos() != 0 || r.Game().Turn() != 0 || f.Score.Name != "ann" {
		t.Fatalf("OpenReplay(1): %+v, %v", f, err)
	}
	if err := r.End(); err != nil || r.Game().StateHash() != end.StateHash() {
		t.Errorf("the replay's end: %v", err)
	}
	hist, _ := end.HistoryBlob()
	if _, err := db.FinishGame("SHA256:old", store.Score{Name: "old", Date: time.Now(),
		Game: &store.GameRecord{Rules: "0.000000000000", History: hist, Dump: "old: the dump"}}); err != nil {
		t.Fatal(err)
	}
	f, r, err = s.OpenReplay("2")
	if !errors.Is(err, replay.ErrOtherRules) || r != nil || f.Record.Dump != "old: the dump" {
		t.Errorf("OpenReplay of other rules: %v, replay %v, dump %q; want ErrOtherRules and the dump", err, r != nil, f.Record.Dump)
	}
	if _, _, err := s.OpenReplay("3"); !errors.Is(err, finished.ErrNoSuchGame) {
		t.Errorf("OpenReplay(3): %v, want ErrNoSuchGame", err)
	}
}

// castUsage is what `replay ID` followed by words other than --cast and
// its options answers.
const castUsage = "grotto: usage: replay ID --cast [--size WxH] [--speed N] [--idle S] (size in cells, 80x24 by default; speed 1 by default; idle in seconds, 2 by default)\n"

// TestReplayAndDumpWithoutAnIDSayHowToAsk: `replay` or `dump` without an
// id (or with more) answers a usage line and status 2, as `kick` does,
// not "unknown command"; `replays` with a name of 5,000 characters echoes
// at most 40 of them (tester).
func TestReplayAndDumpWithoutAnIDSayHowToAsk(t *testing.T) {
	db := storetest.TempBolt(t)
	addr := commandsOn(t, db, nil)
	key := newKey(t)
	for cmd, want := range map[string]string{
		"replay":      "grotto: usage: replay ID [--cast] (a game `replays` lists; --cast takes --size WxH, --speed N, --idle S)\n",
		"replay 1 2":  castUsage,
		"dump":        "grotto: usage: dump ID (a game `replays` lists)\n",
		"dump 1 2":    "grotto: usage: dump ID (a game `replays` lists)\n",
		"replays a b": "grotto: usage: replays [NAME] (every player's games, or NAME's)\n",
	} {
		out, errs, status := run(t, login(t, addr, "x", key), cmd)
		if status != 2 || out != "" || errs != want {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want 2 and %q", cmd, status, out, errs, want)
		}
	}
	long := strings.Repeat("n", 5000)
	out, _, status := run(t, login(t, addr, "x", key), "replays "+long)
	if want := "No finished games of " + long[:39] + "….\n"; status != 0 || out != want {
		t.Errorf("replays with a 5,000-character name: status %d, %d bytes %.80q…; want %q", status, len(out), out, want)
	}
}
